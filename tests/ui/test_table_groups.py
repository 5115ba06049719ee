"""Group cards at the table: each member's line shows that member's conditions and
dropped or disarmed weapons (as a fighter's own card shows them), in every ruleset, and
is never cut short at the window's sizes, in the light and the dark palette."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle, QStyleOptionButton

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session
from tests.start_step import type_initiative

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from fightdesk.ui.cards import FighterCard
    from fightdesk.ui.main_window import MainWindow

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
DEMOS = {"street-fighter": "demo_fight.json", "d100": "demo_d100.json",
         "roll-under": "demo_roll-under.json", "ashes": "demo_ashes.json"}
SIZES = ((1093, 614), (1280, 800))


def open_demo(window: MainWindow, ruleset: str) -> Engine:
    engine = Engine(load_session(RESOURCES / DEMOS[ruleset]))
    window.show_session(engine, None)
    return engine


def members(engine: Engine) -> list[str]:
    """The demo's group members, in roster order."""
    return [fid for fid, f in engine.encounter.fighters.items() if f.group]


def group_card(window: MainWindow, fighter_id: str) -> FighterCard:
    card = window.cards.card_for_fighter(fighter_id)
    assert card is not None and len(card._member_radios) > 1
    return card


def line_of(card: FighterCard, fighter_id: str) -> Any:
    return next(r for r in card._member_radios if r.property("fighter_id") == fighter_id)


def read(text: str) -> str:
    return text.replace("\N{NO-BREAK SPACE}", " ")


def apply(window: MainWindow, command: c.Command) -> None:
    out = window.document.apply(command)
    assert out.ok, out.error


def to_a_pcs_turn(window: MainWindow, engine: Engine) -> str:
    """The autopilot (seeded) plays on until a player character's turn waits for the GM."""
    enc = engine.encounter
    rng = random.Random(1)
    for _ in range(40):
        if enc.state.stage == "turns" and engine.pending() is None and enc.state.roll is None:
            who = current_fighter(enc.state.turns)
            if who and enc.fighters[who].side == "pc":
                return who
        command = engine.ruleset.autopilot.next_command(enc, rng)
        assert command is not None
        apply(window, command)
    raise AssertionError("no player character's turn came")


def disarm_a_ganger(window: MainWindow, engine: Engine, ganger: str) -> None:
    """Roll-under: a PC disarms the ganger; the player's Dexterity roll, typed 1, works
    (docs/rulesets/roll-under.md, combat maneuvers)."""
    from fightdesk.engine.rulesets.roll_under import commands as ru

    who = to_a_pcs_turn(window, engine)
    apply(window, ru.CombatManeuver(fighter_id=who, target_id=ganger, maneuver="disarm"))
    roll = engine.encounter.state.roll
    assert roll is not None
    apply(window, c.MakeRoll(roll_id=roll.id, dice=[[1]]))
    assert [x.name for x in engine.encounter.fighters[ganger].status.conditions] == ["Disarmed"]


def put_conditions(window: MainWindow, engine: Engine, ruleset: str) -> dict[str, list[str]]:
    """Conditions on the demo's group members, put there by the rules where the ruleset
    derives them and by the GM otherwise; what each member's line must then say."""
    first, second, *rest = members(engine)
    if ruleset == "street-fighter":
        # Knocked down: a condition the rules derive from the status.
        apply(window, c.SetValue(fighter_id=second, field="status.knocked_down", value=True))
        apply(window, c.AddCondition(fighter_id=rest[0], name="Dazed", duration="rounds", rounds=2))
        return {first: [], second: ["Knocked down"], rest[0]: ["Dazed · 2 rounds"]}
    if ruleset == "d100":
        apply(window, c.AddCondition(fighter_id=second, name="Blinded", duration="rounds", rounds=2))
        return {first: [], second: ["Blinded · 2 rounds"]}
    if ruleset == "roll-under":
        disarm_a_ganger(window, engine, second)
        apply(window, c.AddCondition(fighter_id=rest[0], name="Frightened"))
        return {first: [], second: ["Disarmed"], rest[0]: ["Frightened"]}
    # ashes: at 0 HP the rules call the raider unconscious, bleeding out.
    apply(window, c.SetValue(fighter_id=second, field="status.hp", value=0))
    return {first: [], second: ["Unconscious · bleeding out within 5 minutes"]}


@pytest.mark.parametrize("ruleset", DEMOS)
def test_each_members_line_shows_its_own_conditions_as_its_card_would(
        window: MainWindow, qtbot: QtBot, ruleset: str) -> None:
    engine = open_demo(window, ruleset)
    expected = put_conditions(window, engine, ruleset)
    qtbot.wait(1)
    enc = engine.encounter
    card = group_card(window, members(engine)[0])
    everyone = {text for texts in expected.values() for text in texts}
    for fid, texts in expected.items():
        line = line_of(card, fid)
        shown = read(line.text())
        for text in texts:
            assert text in shown, (fid, shown)
        for other in everyone - set(texts):
            assert other not in shown, (fid, shown)
        # Every condition a fighter's own card would show, with what it means and how
        # long it lasts (its tooltip there) in the line's tooltip and spoken description.
        own = engine.ruleset.views.card(enc, fid).conditions
        assert [x.text for x in own if x.text in shown] == [x.text for x in own]
        for cond in own:
            assert cond.tooltip and cond.tooltip.split("\n")[-1] in line.accessibleDescription()
            assert cond.name in line.toolTip()


def test_a_d100_members_fumble_drops_the_weapon_named_on_its_line(
        window: MainWindow, qtbot: QtBot) -> None:
    """Bandit 2 strikes Rook and rolls a natural 05: the weapon drops (docs/rulesets/
    d100.md, fumbles); the bandits' card names it on Bandit 2's line alone."""
    from PySide6.QtWidgets import QComboBox

    engine = open_demo(window, "d100")
    enc = engine.encounter
    window.start_fight_action.trigger()
    decision = window.decision_panel
    type_initiative(qtbot, decision)
    for _ in range(3):  # Rook, Vesna and the captain let their turns go
        window.pass_action.trigger()
    assert current_fighter(enc.state.turns) == "bandit-2"
    dialog = window.open_action_dialog("bandit-2", role="act")
    assert dialog is not None
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData("rook"))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    assert panel.isVisible()
    qtbot.keyClicks(panel.dice, "05")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    bandit = enc.fighters["bandit-2"]
    assert bandit.status.dropped == [0]
    weapon = bandit.sheet.weapons[0].name
    qtbot.wait(1)
    card = group_card(window, "bandit-2")
    assert f"Dropped 1: {weapon}" in read(line_of(card, "bandit-2").text())
    assert "Dropped" not in line_of(card, "bandit-1").text()
    assert f"Dropped: {weapon}" in line_of(card, "bandit-2").toolTip()
    assert wholly_shown(line_of(card, "bandit-2"))


def test_a_roll_under_members_disarm_shows_on_its_line_until_the_weapon_is_back(
        window: MainWindow, qtbot: QtBot) -> None:
    from fightdesk.engine.rulesets.roll_under import commands as ru

    engine = open_demo(window, "roll-under")
    disarm_a_ganger(window, engine, "ganger-2")
    qtbot.wait(1)
    card = group_card(window, "ganger-2")
    assert "Disarmed" in line_of(card, "ganger-2").text()
    assert all("Disarmed" not in line_of(card, f).text() for f in ("ganger-1", "ganger-3"))
    enc = engine.encounter
    rng = random.Random(2)
    for _ in range(40):  # on to the ganger's own turn: it takes the weapon back (free)
        if enc.state.stage == "turns" and current_fighter(enc.state.turns) == "ganger-2" \
                and engine.pending() is None and enc.state.roll is None:
            break
        command = engine.ruleset.autopilot.next_command(enc, rng)
        assert command is not None
        apply(window, command)
    assert current_fighter(enc.state.turns) == "ganger-2"
    apply(window, ru.PickUpWeapon(fighter_id="ganger-2"))
    qtbot.wait(1)
    assert "Disarmed" not in line_of(card, "ganger-2").text()


def wholly_shown(line: Any) -> bool:
    """Every word of a member's line lies inside the line's widget: Qt's own word wrap
    of the text, at the width beside the radio circle, needs no more than the line's
    height and no more than that width."""
    option = QStyleOptionButton()
    option.initFrom(line)
    style = line.style()
    room = line.width() - style.pixelMetric(QStyle.PixelMetric.PM_ExclusiveIndicatorWidth,
                                            option, line) \
        - style.pixelMetric(QStyle.PixelMetric.PM_RadioButtonLabelSpacing, option, line)
    need = QFontMetrics(line.font()).boundingRect(
        QRect(0, 0, room, 100_000), int(Qt.TextFlag.TextWordWrap), line.text())
    return need.width() <= room and need.height() <= line.height()


LONG = ("Blinded by sand from the storm", "Shaken", "Bleeding", "Poisoned")


@pytest.mark.parametrize("palette", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("ruleset", DEMOS)
def test_a_members_line_is_never_cut_short(window: MainWindow, qtbot: QtBot, qapp: Any,
                                           ruleset: str, size: tuple[int, int],
                                           palette: str) -> None:
    from fightdesk.ui.palettes import dark_palette

    before = qapp.palette()
    if palette == "dark":
        qapp.setPalette(dark_palette())
    try:
        window.resize(*size)
        engine = open_demo(window, ruleset)
        put_conditions(window, engine, ruleset)
        long_one = members(engine)[-1]
        for name in LONG:
            apply(window, c.AddCondition(fighter_id=long_one, name=name, duration="rounds",
                                         rounds=3))
        qtbot.wait(20)
        card = group_card(window, long_one)
        lines = card._member_radios
        assert any(line.fontMetrics().horizontalAdvance(line.text()) > line.width()
                   for line in lines)  # at least one line is longer than the card is wide
        buttons_top = card.health_button.mapTo(card, QPoint(0, 0)).y()
        for line in lines:
            assert line.isVisible()
            assert wholly_shown(line), (line.text(), line.size())
            bottom = line.mapTo(card, QPoint(0, line.height())).y()
            assert bottom <= buttons_top  # above the buttons, inside the card
        layout = card.layout()
        assert layout is not None
        assert card.height() >= layout.totalHeightForWidth(card.width()) - 1
        # A click on the last line of a wrapped member checks that member.
        line = line_of(card, long_one)
        assert line.height() > 2 * line.fontMetrics().height()
        lines[0].setChecked(True)
        qtbot.mouseClick(line, Qt.MouseButton.LeftButton,
                         pos=QPoint(line.width() // 2, line.height() - 4))
        assert card.selected_fighter() == long_one
    finally:
        qapp.setPalette(before)


WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:/·",
               min_size=1, max_size=14)
# A member's line: words joined by spaces, some by no-break spaces (a state's label, which
# never breaks), as the card writes them.
LINE = st.lists(st.tuples(WORD, st.sampled_from([" ", "  ·  ", "\N{NO-BREAK SPACE}"])),
                min_size=1, max_size=30).map(lambda parts: "".join(w + sep for w, sep in parts))


@settings(max_examples=60, deadline=None)
@given(text=LINE, width=st.integers(min_value=180, max_value=700))
def test_a_member_line_is_as_tall_as_its_words_need_at_any_width(qapp: Any, text: str,
                                                                  width: int) -> None:
    """Whatever the line says and however wide the card is, the height the line asks
    for holds every word (a word wider than the line alone is broken, not cut)."""
    from fightdesk.ui.cards import MemberLine

    line = MemberLine()
    try:
        line.setText(text)
        line.resize(width, line.heightForWidth(width))
        longest = max(QFontMetrics(line.font()).horizontalAdvance(w)
                      for w in text.replace("\N{NO-BREAK SPACE}", "_").split())
        if longest < width - 60:  # no word wider than the room beside the circle
            assert wholly_shown(line), (text, width, line.height())
        assert line.line_count(width) >= 1
        assert line.heightForWidth(width) >= line.line_count(width) * line.fontMetrics().height()
    finally:
        line.deleteLater()


def test_an_ampersand_in_a_members_name_is_a_letter_not_a_key(window: MainWindow) -> None:
    """A member named "Rat & Co" reads so on its line; the "&" does not turn the next
    letter into a keyboard shortcut (text from a file is data)."""
    from PySide6.QtGui import QKeySequence

    session = load_session(RESOURCES / DEMOS["street-fighter"])
    session.encounter.fighters["dock-thug-1"].name = "Rat & Co"
    window.show_session(Engine(session), None)
    line = line_of(group_card(window, "dock-thug-2"), "dock-thug-1")
    assert read(line.text()).startswith("Rat && Co")  # drawn as one "&"
    assert QKeySequence.mnemonic(line.text()).isEmpty()
    assert "Rat &amp; Co" in line.toolTip()  # the tooltip is escaped plain text
