"""The timeline shows a turn-order round (roll-under, d100, ashes) with the same widget:
a surprise step, before/after-enemy groups, a held turn, and one slot per turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from fightdesk.engine.ruleset import Chip, ChipState, Lane, Timeline
from fightdesk.ui.timeline import TimelineView

COLUMNS = ("Surprise", "Before enemies", "Enemies", "After enemies")


def turn_order() -> Timeline:
    """Miguel ambushed, Ana won her Wisdom roll, the guards act as enemies, Jo failed hers
    and holds to act after the guards."""
    def lane(fid: str, title: str, *chips: tuple[int, str, ChipState]) -> Lane:
        return Lane(id=fid, title=title, fighter_ids=(fid,), chips=tuple(
            Chip(id=f"{fid}:{n}", fighter_id=fid, column=col, label=label, state=state,
                 tooltip=f"{title}: {label}", clickable=state in ("ready", "held"))
            for n, (col, label, state) in enumerate(chips)))
    lanes = (
        lane("miguel", "Miguel", (0, "ambush", "done"), (1, "1st", "done")),
        lane("ana", "Ana", (1, "2nd", "acting")),
        Lane(id="guards", title="Rent-A-Cop ×3", fighter_ids=("guard-1", "guard-2", "guard-3"),
             compact=True, chips=tuple(
                 Chip(id=f"guard-{n}:0", fighter_id=f"guard-{n}", column=2, label=str(n),
                      state="waiting", clickable=False) for n in (1, 2, 3))),
        lane("jo", "Jo", (3, "held", "held")),
    )
    return Timeline(columns=COLUMNS, lanes=lanes, current_column=1, caption="Turn")


def test_turn_order_slots_show_and_click(qtbot: Any, tmp_path: Path) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(760, 240)
    view.show()
    tl = turn_order()
    view.set_timeline(tl)
    assert view.timeline() is tl
    # Every chip has a place in its own column, left to right in turn order.
    rects = {chip.id: view.chip_rect(chip.id) for lane in tl.lanes for chip in lane.chips}
    assert all(not r.isEmpty() for r in rects.values())
    assert rects["miguel:0"].center().x() < rects["ana:0"].center().x() \
        < rects["guard-1:0"].center().x() < rects["jo:0"].center().x()
    # The group of guards shares one compact lane.
    assert rects["guard-1:0"].center().y() == rects["guard-3:0"].center().y()
    # A held turn can be clicked (to act now); a waiting enemy slot cannot.
    with qtbot.waitSignal(view.chipClicked) as clicked:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rects["jo:0"].center())
    assert clicked.args == ["jo", "jo:0"]
    with qtbot.assertNotEmitted(view.chipClicked):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=rects["guard-2:0"].center())
    shot = tmp_path / "turn-order.png"
    assert view.grab().save(str(shot)) and shot.stat().st_size > 0
