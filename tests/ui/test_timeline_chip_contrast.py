"""A used die or turn (struck out, dimmer than a live one) stays readable on the timeline in
both palettes, also in the current column, whose glow once left grey text on dark blue."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from PySide6.QtGui import QColor, QImage, QPalette

from fightdesk.engine.ruleset import Chip, ChipState, Lane, Timeline
from fightdesk.ui.palettes import dark_palette
from fightdesk.ui.timeline import TimelineView


def _luminance(color: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    return (0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF())
            + 0.0722 * channel(color.blueF()))


def _contrast(a: QColor, b: QColor) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _ink_contrast(image: QImage, chip: Any) -> float:
    """The contrast of the chip's text against its most common colour (its background)."""
    inner = chip.adjusted(3, 3, -3, -3)
    pixels = [image.pixelColor(x, y) for x in range(inner.left(), inner.right() + 1)
              for y in range(inner.top(), inner.bottom() + 1)]
    background = QColor(Counter(p.rgb() for p in pixels).most_common(1)[0][0])
    return max(_contrast(p, background) for p in pixels)


STATES: tuple[ChipState, ...] = ("done", "spent", "acting")


def _used_dice() -> Timeline:
    def chip(n: int, state: ChipState) -> Chip:
        return Chip(id=f"f{n}:0", fighter_id=f"f{n}", column=0, label=str(90 - 11 * n),
                    state=state)
    lanes = tuple(Lane(id=f"f{n}", title=f"Fighter {n}", fighter_ids=(f"f{n}",),
                       chips=(chip(n, state),))
                  for n, state in enumerate(STATES))
    return Timeline(columns=("Initiative",), lanes=lanes, current_column=0, caption="Turn")


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_used_chips_read_in_the_current_column(qtbot: Any, palette: str) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    if palette == "dark":
        view.setPalette(dark_palette())
    view.resize(420, 200)
    view.show()
    tl = _used_dice()
    view.set_timeline(tl)
    image = view.grab().toImage()
    for lane in tl.lanes[:2]:
        chip = lane.chips[0]
        rect = view.chip_rect(chip.id)
        assert _ink_contrast(image, rect) >= 4.5, (palette, chip.state)
    # Still dimmer than a live die's text on the same field.
    live = QPalette(view.palette()).color(QPalette.ColorRole.Text)
    field = view.palette().color(QPalette.ColorRole.Base)
    used = _ink_contrast(image, view.chip_rect(tl.lanes[0].chips[0].id))
    assert used < _contrast(live, field)
