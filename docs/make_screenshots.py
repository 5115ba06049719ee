"""Make the PNGs in docs/screenshots/ from the real app, offscreen, in light and dark.

    python docs/make_screenshots.py [--tables | --player | --roll-under | --d100 | --ashes |
                                     --simulate | --log | --fight] [--light] [--out DIR]

Shows the demo fight mid-round (after an action and two interrupts), the interrupt stack
with three moves, the action dialog with its odds, a fight with two groups sharing a
phase on a small laptop screen (1093x614, a 1366x768 screen at 125%), each ruleset's
fight on that small screen too, a window switched
from light to dark while it runs, and Fight > Roll Tables
(``--tables``: that dialog only), and the player view beside the GM's window
(``--player``: that one only), the roll-under demo in round 1 (``--roll-under``), the
d100 demo mid-round with a defense to choose (``--d100``), the ashes demo in round 2
with a challenge waiting on its defenses (``--ashes``), Fight > Simulate with the
result of 500 demo fights (``--simulate``), and the log dock narrow and wide with a
resolved exchange selected (``--log``); ``--fight`` makes the street-fighter demo's
shots only (the window, the stack, the action dialog, the groups). ``--light`` makes the light shots only and
``--out DIR`` writes them to DIR instead (the test suite runs the script that way, so
the script keeps working as the window changes). The user directories are pointed at a temp
folder so no real settings are read or written.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_home = Path(tempfile.mkdtemp(prefix="fightdesk-shots-"))
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = str(_home / _var.lower())

from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from fightdesk.ui.palettes import dark_palette  # noqa: E402

OUT = Path(__file__).resolve().parent / "screenshots"
if "--out" in sys.argv[1:-1]:
    OUT = Path(sys.argv[sys.argv.index("--out") + 1]).resolve()
SUFFIXES = ("light",) if "--light" in sys.argv[1:] else ("light", "dark")


def settle() -> None:
    """Let Qt lay out and paint what changed (new cards are laid out a pass later)."""
    from PySide6.QtTest import QTest

    for _ in range(3):
        QApplication.processEvents()
    QTest.qWait(60)


def mid_round_window():  # type: ignore[no-untyped-def]
    """The demo after phase 10, Brannock's Roundhouse on phase 9, interrupted by Kaede
    and then by Brannock (the same moves as tests/ui/test_street_fighter_round.py)."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.engine import Engine
    from fightdesk.storage.sessions import demo_session
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow()
    window.resize(1280, 800)
    engine = Engine(demo_session())
    window.show_session(engine, None)
    window.show()
    doc = window.document
    for command in (c.StartFight(), c.StartRound(), c.NextStep()):
        doc.apply(command)
    asked = engine.pending()  # Kaede rolls her own action dice: the GM lets the app roll
    assert asked is not None
    doc.apply(c.Answer(decision_id=asked.id, choice="roll"))
    doc.apply(c.NextStep())
    decision = engine.pending()
    assert decision is not None
    doc.apply(c.Answer(decision_id=decision.id, choice="lose"))
    doc.apply(c.NextStep())
    views = engine.ruleset.views
    enc = engine.encounter

    def act(fid: str, form: str, **values: object) -> None:
        chosen = next(f for f in views.action_forms(enc, fid) if f.id == form)
        data = {f.name: f.default for f in chosen.fields}
        data.update(values)
        out = doc.apply(views.build_command(form, fid, data))
        assert out.ok, out.error

    act("brannock", "act", maneuver="Roundhouse")
    act("kaede", "interrupt", ep_speed=1)
    act("brannock", "interrupt", ep_speed=1)
    settle()
    return window


def select_rolls_entry(window) -> None:  # type: ignore[no-untyped-def]
    """Select the last log entry with dice, so the log's details pane shows one in full."""
    from PySide6.QtCore import QItemSelectionModel

    from fightdesk.ui.models import HasRollsRole

    model = window.log_model
    rows = [r for r in range(model.rowCount()) if model.index(r, 0).data(HasRollsRole)]
    if rows:
        window.log_view.tree.selectionModel().select(
            model.index(rows[-1], 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)


def grab(widget: QWidget, name: str) -> None:
    settle()
    widget.repaint()
    path = OUT / name
    widget.grab().save(str(path))
    print(path)


def small_screen(window: QWidget, name: str) -> None:
    """The same window on a small laptop screen (1093x614): the cards scroll, the fighter
    who acts in view."""
    window.resize(1093, 614)
    settle()
    grab(window, name)


def shoot(suffix: str) -> None:
    window = mid_round_window()
    stack = window._stack_dialog
    assert stack is not None
    stack.hide()  # the main window alone first
    window.cards.verticalScrollBar().setValue(0)
    select_rolls_entry(window)
    grab(window, f"main-window-{suffix}.png")
    small_screen(window, f"street-fighter-small-screen-{suffix}.png")
    window.resize(1280, 800)
    settle()
    stack.open()
    stack.table.selectRow(0)
    grab(stack, f"interrupt-stack-{suffix}.png")
    stack.hide()
    # The action dialog: Kaede about to act later in the round, odds shown.
    dialog = window.open_action_dialog("kaede", role="react")
    assert dialog is not None
    dialog.adjustSize()
    grab(dialog, f"action-dialog-{suffix}.png")
    dialog.reject()
    window.document.undo_stack.setClean()
    window.close()


def shoot_tables(suffix: str) -> None:
    """Fight > Roll Tables on the d100 damage chart, just after a typed-in roll of 87."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.engine import Engine
    from fightdesk.engine.tables import default_tables
    from fightdesk.storage.sessions import demo_session
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow()
    window.resize(1280, 800)
    window.show_session(Engine(demo_session()), None)
    for ruleset in ("d100", "roll-under"):
        for table in default_tables(ruleset).values():
            window.document.apply(c.SetTable(table=table.model_dump(mode="json")))
    window.show()
    dialog = window.gm.edit_tables()
    assert dialog is not None
    dialog.table_list.setCurrentRow(0)
    dialog.dice_edit.setText("87")
    dialog.roll()  # type: ignore[attr-defined]
    dialog.grid.selectRow(3)  # type: ignore[attr-defined]
    grab(dialog, f"roll-tables-{suffix}.png")
    dialog.reject()
    window.document.undo_stack.setClean()
    window.close()


def shoot_log(suffix: str) -> None:
    """The log dock, narrow and wide: the demo's phase 9 exchange resolved (one action,
    its interrupts, answers and dice folded under it), that action selected so the
    details show every roll with the chances the GM saw before it."""
    from PySide6.QtCore import QItemSelectionModel, Qt

    from fightdesk.engine import commands as c
    from fightdesk.ui.models import EntryRole, HasRollsRole

    window = mid_round_window()
    engine = window.document.engine
    stack = window._stack_dialog
    for _ in range(30):
        decision = engine.pending()
        if decision is not None:
            ids = [choice.id for choice in decision.choices]
            answer = c.Answer(decision_id=decision.id, choice=ids[0]) if ids else \
                c.Answer(decision_id=decision.id, amount=decision.minimum or 0)
            assert window.document.apply(answer).ok
        elif engine.encounter.state.stack:
            assert window.document.apply(engine.ruleset.views.build_command("resolve-all", "", {})).ok
        else:
            break
    if stack is not None:
        stack.hide()
    settle()
    model, tree = window.log_model, window.log_view.tree
    rows = [r for r in range(model.rowCount()) if model.index(r, 0).data(HasRollsRole)]
    index = model.index(rows[-1], 0)
    tree.expand(index)
    # The damage roll's line: the details scroll to its entry, the chances in view.
    line = next((model.index(r, 0, index) for r in range(model.rowCount(index))
                 if "damage (" in (model.index(r, 1, index).data() or "")), index)
    tree.selectionModel().select(
        line, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
    for width, name in ((300, "narrow"), (560, "wide")):
        window.resizeDocks([window.log_dock], [width], Qt.Orientation.Horizontal)
        window.log_view.splitter.setSizes([430, 300])
        settle()
        tree.scrollTo(line, tree.ScrollHint.PositionAtCenter)
        window.log_view.details.scrollToAnchor(f"entry-{line.data(EntryRole).seq}")
        grab(window.log_dock, f"log-{name}-{suffix}.png")
    window.document.undo_stack.setClean()
    window.close()


def groups_window(width: int, height: int):  # type: ignore[no-untyped-def]
    """The demo plus a quick-added group of two harbour guards, round 1 rolled, with two
    Dock Thugs and a guard all on phase 10 (so chips share cells)."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.engine import Engine
    from fightdesk.storage.sessions import demo_session
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow()
    window.resize(width, height)
    window.show_session(Engine(demo_session()), None)
    window.show()
    window.add_library_panel()
    assert window.gm.quick_add_fighter("Harbour Guard", "enemy", 6, 2) == ""
    doc = window.document
    for command in (c.StartFight(), c.StartRound(), c.NextStep()):
        assert doc.apply(command).ok
    asked = doc.engine.pending()  # Kaede rolls her own action dice: the app rolls them
    assert asked is not None
    assert doc.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
    enc = doc.engine.encounter
    for fid in ("dock-thug-3", "harbour-guard-1"):
        doc.apply(c.SetValue(fighter_id=fid, field="status.dice.0.face", value=10))
    assert enc.state.phase == 10
    settle()
    window.give_way_to_timeline()
    settle()
    return window


def shoot_groups(suffix: str) -> None:
    window = groups_window(1093, 614)
    grab(window, f"groups-small-screen-{suffix}.png")
    window.document.undo_stack.setClean()
    window.close()


def shoot_live_switch(app: QApplication, light: object) -> None:
    """A window shown in the light palette, then switched to dark while it runs."""
    window = groups_window(1280, 720)
    app.setPalette(light)  # type: ignore[arg-type]
    settle()
    app.setPalette(dark_palette())
    settle()
    grab(window, "live-switch-to-dark.png")
    window.document.undo_stack.setClean()
    window.close()


def shoot_player_view(suffix: str) -> None:
    """The GM's window and the player view side by side, each at 1920x1080 (shown at
    half size): the demo mid-round with a hidden ambusher and the enemies' health as a bar."""
    from PySide6.QtCore import QByteArray, QPoint, Qt
    from PySide6.QtGui import QPainter, QPixmap

    from fightdesk.engine import commands as c
    from fightdesk.storage.library import new_fighter

    window = mid_round_window()
    stack = window._stack_dialog
    if stack is not None:
        stack.hide()
    window.resize(1920, 1080)
    razor = new_fighter("street-fighter", "Razor Quill").model_dump(mode="json")
    razor.update(side="enemy")
    window.document.apply(c.AddFighters(fighter=razor))
    window.document.apply(c.HideFighter(fighter_id="razor-quill"))
    window.document.apply(c.SetValue(fighter_id="dock-thug-1", field="status.health", value=2))
    window.player_view_action.setChecked(True)
    view = window.player_view
    assert view is not None
    view.place(window, QByteArray())
    view.resize(1920, 1080)
    settle()
    both = QPixmap(1920, 540)
    both.fill(Qt.GlobalColor.black)
    painter = QPainter(both)
    for n, widget in enumerate((window, view)):
        shot = widget.grab().scaled(960, 540, Qt.AspectRatioMode.KeepAspectRatio,
                                    Qt.TransformationMode.SmoothTransformation)
        painter.drawPixmap(QPoint(960 * n, 0), shot)
    painter.end()
    path = OUT / f"player-view-{suffix}.png"
    both.save(str(path))
    print(path)
    window.player_view_action.setChecked(False)
    window.document.undo_stack.setClean()
    window.close()


def shoot_roll_under(suffix: str) -> None:
    """The roll-under demo in round 1: the initiative split before and after the enemies,
    Tomasz's attack on a ganger waiting on the roll panel with Ji-woo's assists on it."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.engine import Engine
    from fightdesk.engine.rulesets.roll_under import commands as ru
    from fightdesk.resources_path import resource_path
    from fightdesk.storage.sessions import load_session
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow()
    window.resize(1280, 800)
    engine = Engine(load_session(resource_path("demo_roll-under.json")))
    window.show_session(engine, None)
    window.show()
    doc = window.document
    assert doc.apply(c.StartFight()).ok
    # Who attacks by surprise: the question's rows start on the demo's marks (the sniper).
    asked = engine.pending()
    assert asked is not None
    assert doc.apply(c.Answer(decision_id=asked.id, values={}, by="the GM")).ok
    assert doc.apply(ru.Attack(fighter_id="rooftop-sniper", target_id="ji-woo", weapon=0)).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert doc.apply(c.MakeRoll(roll_id=roll.id, dice=[[14], [6]])).ok
    while engine.pending() is None:  # to the end of the surprise step: initiative
        assert doc.apply(c.NextStep()).ok
    pending = engine.pending()
    assert pending is not None
    assert doc.apply(c.Answer(decision_id=pending.id, by="the players",
                              values={"miguel": 4, "ji-woo": 17, "tomasz": 12, "dee": 2})).ok
    assert doc.apply(ru.Attack(fighter_id="miguel", target_id="vault-warden", weapon=0)).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert doc.apply(c.MakeRoll(roll_id=roll.id, dice=[[8], [7]])).ok
    assert doc.apply(c.NextStep()).ok
    assert doc.apply(ru.Attack(fighter_id="tomasz", target_id="ganger-1", weapon=0)).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert doc.apply(c.Contribute(roll_id=roll.id, fighter_id="ji-woo", contribution="assist",
                                  amount=2)).ok
    window.views.show_views()
    settle()
    grab(window, f"roll-under-{suffix}.png")
    small_screen(window, f"roll-under-small-screen-{suffix}.png")
    doc.undo_stack.setClean()
    window.close()


def shoot_d100(suffix: str) -> None:
    """The d100 demo in round 1 (method B initiative): Rook's strike hit the first
    bandit's armour, Vesna counterstruck the Captain, and the second bandit's strike on
    Vesna waits for her choice of defense, the odds of each on the roll panel."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.engine import Engine
    from fightdesk.engine.rulesets.d100 import commands as dc
    from fightdesk.resources_path import resource_path
    from fightdesk.storage.sessions import load_session
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow()
    window.resize(1280, 800)
    engine = Engine(load_session(resource_path("demo_d100.json")))
    window.show_session(engine, None)
    window.show()
    doc = window.document

    def roll(*faces: int) -> None:
        made = engine.encounter.state.roll
        assert made is not None
        assert doc.apply(c.MakeRoll(roll_id=made.id, dice=[[f] for f in faces])).ok

    def choose(fid: str, kind: str) -> None:
        made = engine.encounter.state.roll
        assert made is not None
        assert doc.apply(c.Contribute(roll_id=made.id, fighter_id=fid, contribution=kind)).ok

    assert doc.apply(c.StartFight()).ok
    pending = engine.pending()
    assert pending is not None
    assert doc.apply(c.Answer(decision_id=pending.id, by="the table", values={
        "rook": 88, "vesna": 71, "bandit-captain": 64, "bandit-2": 60, "tariq": 23,
        "bandit-1": 12})).ok
    assert doc.apply(dc.Strike(fighter_id="rook", target_id="bandit-1", weapon=0)).ok
    roll(52)
    choose("bandit-1", "parry")
    roll(30)
    assert doc.apply(c.NextStep()).ok
    assert doc.apply(c.NextStep()).ok  # Vesna waits to counterstrike
    assert doc.apply(dc.Strike(fighter_id="bandit-captain", target_id="vesna", weapon=0)).ok
    choose("vesna", "counter-0")
    roll(44)
    roll(61)
    assert doc.apply(c.NextStep()).ok
    assert doc.apply(dc.Strike(fighter_id="bandit-2", target_id="vesna", weapon=0)).ok
    roll(63)
    window.views.show_views()
    settle()
    grab(window, f"d100-{suffix}.png")
    small_screen(window, f"d100-small-screen-{suffix}.png")
    doc.undo_stack.setClean()
    window.close()


def shoot_ashes(suffix: str) -> None:
    """The ashes demo in round 2: the surprise round played, Kestrel's second blaster
    shot waiting on the roll panel with the Ash Warlord's parry and a dodge on it."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.engine import Engine
    from fightdesk.engine.rulesets.ashes import commands as ash
    from fightdesk.resources_path import resource_path
    from fightdesk.storage.sessions import load_session
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow()
    window.resize(1280, 800)
    engine = Engine(load_session(resource_path("demo_ashes.json")))
    window.show_session(engine, None)
    window.show()
    doc = window.document

    def flip(text: str) -> None:
        roll = engine.encounter.state.roll
        assert roll is not None
        count = 7 + abs(roll.total)  # the pattern, repeated to the coins the roll takes
        faces = [2 if ch == "H" else 1 for ch in (text * count)[:count]]
        assert doc.apply(c.MakeRoll(roll_id=roll.id, dice=[faces])).ok

    # The surprise round: the hound acts (a skill), then the raiders fire at Mira.
    assert doc.apply(c.StartFight()).ok
    assert doc.apply(ash.Challenge(fighter_id="ash-hound", target_id="kestrel", skill="Bite")).ok
    assert doc.apply(c.Contribute(roll_id=engine.encounter.state.roll.id, fighter_id="kestrel",
                                  contribution="skill:Dodge roll")).ok
    flip("HTTHTTT")
    for raider in ("ash-raider-1", "ash-raider-2"):
        assert doc.apply(c.NextStep()).ok
        assert doc.apply(ash.Challenge(fighter_id=raider, target_id="mira",
                                       skill="Scrap rifle")).ok
        flip("HHHTHHTTHH")
    while engine.encounter.state.stage == "turns":  # the hound's extra turn passes
        assert doc.apply(c.NextStep()).ok
    assert doc.apply(c.StartRound()).ok
    # Round 2: the hound bites first; then Kestrel shoots twice at the Warlord.
    assert doc.apply(ash.Challenge(fighter_id="ash-hound", target_id="oren", skill="Bite")).ok
    flip("TTHTHTTHH")
    assert doc.apply(c.NextStep()).ok
    assert doc.apply(ash.Move(fighter_id="kestrel", metres=3)).ok
    assert doc.apply(ash.Challenge(fighter_id="kestrel", target_id="ash-warlord",
                                   skill="Twin blasters")).ok
    rid = engine.encounter.state.roll.id
    assert doc.apply(c.Contribute(roll_id=rid, fighter_id="ash-warlord",
                                  contribution="skill:Absorb power")).ok
    flip("HTHHTTT")
    assert doc.apply(ash.Challenge(fighter_id="kestrel", target_id="ash-warlord",
                                   skill="Twin blasters")).ok
    rid = engine.encounter.state.roll.id
    assert doc.apply(c.Contribute(roll_id=rid, fighter_id="ash-warlord",
                                  contribution="skill:Cleaver parry")).ok
    assert doc.apply(c.Contribute(roll_id=rid, fighter_id="ash-warlord",
                                  contribution="dodge", amount=3)).ok
    window.views.show_views()
    settle()
    grab(window, f"ashes-{suffix}.png")
    small_screen(window, f"ashes-small-screen-{suffix}.png")
    doc.undo_stack.setClean()
    window.close()


def shoot_simulate(suffix: str) -> None:
    """Fight > Simulate on the demo before round 1: 500 fights, seed 7, the autopilot."""
    import time

    from fightdesk.engine.engine import Engine
    from fightdesk.storage.sessions import demo_session
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow()
    window.resize(1280, 800)
    window.show_session(Engine(demo_session()), None)
    window.show()
    dialog = window.gm.simulate()
    assert dialog is not None
    dialog.fights.setValue(500)  # type: ignore[attr-defined]
    dialog.seed.setValue(7)  # type: ignore[attr-defined]
    dialog.run()  # type: ignore[attr-defined]
    deadline = time.monotonic() + 600
    while dialog.running and time.monotonic() < deadline:  # type: ignore[attr-defined]
        QApplication.processEvents()
        time.sleep(0.02)
    assert dialog.simulation is not None, "the simulation did not finish"  # type: ignore[attr-defined]
    grab(dialog, f"simulate-{suffix}.png")
    dialog.close()
    window.document.undo_stack.setClean()
    window.close()


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    OUT.mkdir(parents=True, exist_ok=True)
    light = app.palette()
    only_tables = "--tables" in sys.argv[1:]
    only_player = "--player" in sys.argv[1:]
    only_roll_under = "--roll-under" in sys.argv[1:]
    only_simulate = "--simulate" in sys.argv[1:]
    only_ashes = "--ashes" in sys.argv[1:]
    only_d100 = "--d100" in sys.argv[1:]
    only_log = "--log" in sys.argv[1:]
    only_fight = "--fight" in sys.argv[1:]
    if only_log:
        for suffix in SUFFIXES:
            if suffix == "dark":
                app.setPalette(dark_palette())
            shoot_log(suffix)
        app.setPalette(light)
        return 0
    if only_fight:
        for suffix in SUFFIXES:
            if suffix == "dark":
                app.setPalette(dark_palette())
            shoot(suffix)
            shoot_groups(suffix)
        app.setPalette(light)
        return 0
    if only_roll_under or only_simulate or only_ashes or only_d100:
        for suffix in SUFFIXES:
            if suffix == "dark":
                app.setPalette(dark_palette())
            if only_roll_under:
                shoot_roll_under(suffix)
            if only_d100:
                shoot_d100(suffix)
            if only_ashes:
                shoot_ashes(suffix)
            if only_simulate:
                shoot_simulate(suffix)
        app.setPalette(light)
        return 0
    for suffix in SUFFIXES:
        if suffix == "dark":
            app.setPalette(dark_palette())
        if not (only_tables or only_player):
            shoot(suffix)
            shoot_log(suffix)
            shoot_groups(suffix)
        if not only_player:
            shoot_tables(suffix)
        if not only_tables:
            shoot_player_view(suffix)
        if not (only_tables or only_player):
            shoot_roll_under(suffix)
            shoot_d100(suffix)
            shoot_ashes(suffix)
            shoot_simulate(suffix)
    if not (only_tables or only_player) and "dark" in SUFFIXES:
        shoot_live_switch(app, light)
    app.setPalette(light)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
