"""A d100 fight through the widgets, on the bundled demo: two rounds with method B
initiative typed on the decision panel, a hit on armour, a borrowed action shown on the
card, a counterstrike declared on the roll panel, an entangle chosen with its odds, and
breaking free in round 2."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session
from fightdesk.ui.plain import plain_tip
from tests.start_step import type_initiative

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_d100.json"


def initiative(window: MainWindow, qtbot: QtBot) -> None:
    decision = window.decision_panel
    assert decision.isVisible()
    type_initiative(qtbot, decision)


def fight_begun(window: MainWindow, qtbot: QtBot) -> Engine:
    """The demo fight in the window, started, its first initiative typed in (D100_INITIATIVE)."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    window.start_fight_action.trigger()
    initiative(window, qtbot)
    return engine


def strike(window: MainWindow, qtbot: QtBot, me: str, foe: str) -> None:
    dialog = window.open_action_dialog(me, role="act")
    assert dialog is not None
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData(foe))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)


def pick(window: MainWindow, starts: str) -> None:
    panel = window.roll_panel
    options = [panel.option.itemText(i) for i in range(panel.option.count())]
    panel.option.setCurrentIndex(next(i for i, t in enumerate(options) if t.startswith(starts)))


def add(window: MainWindow, qtbot: QtBot, starts: str) -> None:
    pick(window, starts)
    qtbot.mouseClick(window.roll_panel.add_button, Qt.MouseButton.LeftButton)


def roll(window: MainWindow, qtbot: QtBot, face: str = "") -> None:
    panel = window.roll_panel
    assert panel.isVisible()
    if face:
        qtbot.keyClicks(panel.dice, face)
        qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    else:
        qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)


def test_two_d100_rounds_through_the_widgets(window: MainWindow, qtbot: QtBot) -> None:
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    fighters = enc.fighters
    window.start_fight_action.trigger()
    initiative(window, qtbot)
    # Method B: 1d100 + Combat; Rook 100, Vesna 86, Captain 78, Bandit 2 65, Tariq 31...
    order = [s.fighter_id for s in enc.state.turns.sections[0].slots]
    assert order == ["rook", "vesna", "bandit-captain", "bandit-2", "tariq", "bandit-1"]
    assert current_fighter(enc.state.turns) == "rook"

    # The Strike form's odds, one a line (plain text): Rook +15 against a parry +5.
    dialog = window.open_action_dialog("rook", role="act")
    assert dialog is not None
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData("bandit-1"))
    assert dialog.odds_label.textFormat() == Qt.TextFormat.PlainText
    lines = dialog.odds_label.text().splitlines()
    assert lines[0].endswith("hits against a parry +5") and len(lines) == 4
    dialog.reject()

    # Rook's Longsword on Bandit 1: natural 52 (total 67) lands inside the quarter suit.
    strike(window, qtbot, "rook", "bandit-1")
    roll(window, qtbot, "52")
    panel = window.roll_panel
    assert panel.title.text().startswith("Bandit 1 rolls Defense against Rook's strike of 67")
    # Bandit 1 needs more than 67 with +5: naturals 63-00, 38 faces.
    assert "parry +5 beats 67: 38%" in panel.odds.text()
    assert "exactly 19/50" in panel.odds.toolTip()
    add(window, qtbot, "Bandit 1: parry")
    roll(window, qtbot, "30")
    assert fighters["bandit-1"].status.armour_hp == 0 and fighters["bandit-1"].status.hp == 10

    # Rook strikes again, borrowing next round's action: the card says so.
    dialog = window.open_action_dialog("rook", role="act")
    assert dialog is not None
    assert dialog.form_box.currentText() == "Strike (borrows next round's action)"
    dialog.reject()
    strike(window, qtbot, "rook", "bandit-1")
    assert fighters["rook"].status.owes
    card = window.cards.card_for_fighter("rook")
    assert card is not None and "Borrowed" in card.resources.text()
    roll(window, qtbot, "97")  # x2 on a bare bandit (the armour is gone): 8
    add(window, qtbot, "Bandit 1: no defense")
    roll(window, qtbot)
    assert fighters["bandit-1"].status.hp == 2

    # Vesna waits; the Captain strikes her and she counterstrikes with her fists.
    window.next_step_action.trigger()
    window.next_step_action.trigger()
    assert current_fighter(enc.state.turns) == "bandit-captain"
    strike(window, qtbot, "bandit-captain", "vesna")
    add(window, qtbot, "Vesna: counterstrike +20 (Fists and feet)")
    assert fighters["vesna"].status.actions == 0
    assert panel.odds.text().startswith("only the strike hits")
    roll(window, qtbot, "44")  # the Captain's 59
    assert panel.title.text().startswith("Vesna rolls Counterstrike")
    roll(window, qtbot, "61")  # 81: above 59, below 88: both hit
    assert fighters["vesna"].status.hp == 14 - 3  # axe 5 - Toughness 2
    assert fighters["bandit-captain"].status.armour_hp == 12 - 2  # 61 is inside the plate

    # Bandit 2 strikes Vesna: she entangles (+25 beats 55 on 31 or more).
    window.next_step_action.trigger()
    strike(window, qtbot, "bandit-2", "vesna")
    roll(window, qtbot, "50")
    add(window, qtbot, "Vesna: entangle")
    assert "entangle +25 beats 55 (chosen): 70%" in panel.odds.text()
    roll(window, qtbot, "40")
    assert [c.name for c in fighters["bandit-2"].status.conditions] == ["Entangled"]

    # Round 2: Rook has no action (borrowed); Bandit 2's action is breaking free.
    while enc.state.stage == "turns":
        window.next_step_action.trigger()
    window.start_round_action.trigger()
    initiative(window, qtbot)
    assert enc.round == 2
    assert fighters["rook"].status.actions == 0 and not fighters["rook"].status.owes
    while current_fighter(enc.state.turns) != "bandit-2":
        window.next_step_action.trigger()
    dialog = window.open_action_dialog("bandit-2", role="act")
    assert dialog is not None
    assert dialog.form_box.currentData() == "break-free"
    # 1d100 + 5 must beat Vesna's 1d100 + 15: by 11 or more, 4005 of 10000 pairs.
    assert dialog.odds_label.text() == "40%  breaks free"
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    rolls = [e.roll for e in engine.session.log[-1].events if e.roll]
    mine, theirs = (int(r.outcome) for r in rolls)
    assert bool(fighters["bandit-2"].status.conditions) == (mine <= theirs)
    assert fighters["bandit-2"].status.actions == 0


def test_the_next_rounds_initiative_is_answered_in_the_open_stack_dialog(
        window: MainWindow, qtbot: QtBot) -> None:
    """The stack dialog opened on a strike (Ctrl+K: the waiting roll and its defenses;
    it no longer opens by itself, the roll panel takes the choices); left open to the
    next round, it asks that round's initiative, a row per fighter, and its OK answers
    it (it did nothing before: only one-click answers reached the fight); a refusal is
    told there."""
    engine = fight_begun(window, qtbot)
    enc = engine.encounter
    strike(window, qtbot, "rook", "bandit-1")
    assert window._action_dialog is None  # applied and closed with the one Return
    window.stack_action.trigger()  # Ctrl+K
    dialog = window._stack_dialog
    assert dialog is not None and dialog.isVisible()
    roll(window, qtbot, "52")
    add(window, qtbot, "Bandit 1: parry")
    roll(window, qtbot, "30")
    while enc.state.stage == "turns":
        window.next_step_action.trigger()
    window.start_round_action.trigger()
    panel = window._stack_decision
    assert dialog.isVisible() and panel is not None and panel.isVisible()
    assert not window.decision_panel.isVisible()
    assert panel.prompt.text().startswith("Round 2 initiative")
    qtbot.keyClicks(panel.field_input("rook"), "0")
    qtbot.mouseClick(panel.fields_ok, Qt.MouseButton.LeftButton)
    assert engine.pending() is not None
    assert panel.error.isVisible() and "Rook" in panel.error.text()
    panel.field_input("rook").clear()
    type_initiative(qtbot, panel)
    assert engine.pending() is None and enc.state.stage == "turns" and enc.round == 2
    assert not panel.isVisible()


def test_the_roll_button_waits_for_the_defenders_choice(window: MainWindow, qtbot: QtBot) -> None:
    """A defense roll with nothing chosen cannot be made: the Roll button is disabled and
    its tooltip says what is missing (it was enabled and a click showed a refusal in
    red); Return in the faces field says it in the panel and rolls nothing; a choice
    enables it."""
    engine = fight_begun(window, qtbot)
    enc = engine.encounter
    panel = window.roll_panel
    strike(window, qtbot, "rook", "bandit-1")
    assert panel.roll_button.isEnabled()  # the strike roll waits for nothing
    roll(window, qtbot, "52")
    assert panel.title.text().startswith("Bandit 1 rolls Defense")
    assert not panel.roll_button.isEnabled()
    assert panel.roll_button.toolTip() == \
        plain_tip("Not yet: choose parry, dodge or entangle (or no defense) first")
    assert not panel.error.isVisible()
    entries = len(engine.session.log)
    qtbot.keyClicks(panel.dice, "30")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert panel.error.isVisible() and panel.error.text().startswith("Not yet: choose parry")
    assert enc.state.roll is not None and not enc.state.roll.contributions
    assert len(engine.session.log) == entries
    add(window, qtbot, "Bandit 1: parry")
    assert panel.roll_button.isEnabled()
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert enc.state.roll is None
    assert fighters_hp(engine, "bandit-1") == (0, 10)  # the typed 30 was kept and rolled


def fighters_hp(engine: Engine, fid: str) -> tuple[int, int]:
    status = engine.encounter.fighters[fid].status
    return int(status.armour_hp), int(status.hp)


def test_one_fighter_standing_one_lane_and_the_status_says_the_foes_are_down(
        window: MainWindow, qtbot: QtBot) -> None:
    """Everyone but Rook down: the round is Rook's turn alone, the timeline is as tall as
    its one lane (it kept room for two: an empty lane row under Rook), and the status
    line says every enemy is down; the fight goes on (docs/rulesets/README.md#the-end-of-a-fight)."""
    from fightdesk.engine import commands as c

    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    for fid in [f for f in enc.order if f != "rook"]:
        assert window.document.apply(c.SetValue(fighter_id=fid, field="status.hp", value=0)).ok
    window.start_fight_action.trigger()
    qtbot.keyClicks(window.decision_panel.field_input("rook"), "50")
    qtbot.mouseClick(window.decision_panel.fields_ok, Qt.MouseButton.LeftButton)
    assert current_fighter(enc.state.turns) == "rook"
    timeline = window.timeline
    shown = timeline.timeline()
    assert shown is not None and len(shown.lanes) == 1
    qtbot.waitUntil(lambda: window.splitter.sizes()[0] == timeline.content_height())
    assert timeline.minimumSizeHint().height() <= timeline.content_height()
    assert window.state_label.text() == "Every enemy is down"
    assert window.next_step_action.isEnabled()
    # The forward button offers Rook's action (F4 passed every d100 turn); Pass lets it go.
    assert window.forward_action.text() == "Act: Rook\N{HORIZONTAL ELLIPSIS}"
    assert window.pass_action.isEnabled() and window.pass_action.text() == "Rook lets the turn go"


def test_a_strike_leaves_the_roll_panel_free_and_the_stack_dialog_resolves_it(
        window: MainWindow, qtbot: QtBot) -> None:
    """A strike no longer opens the (window-modal) stack dialog: a click on the roll
    panel's Roll through the window system reaches it (before, the dialog blocked the
    main window while its Resolve, Cancel and Close all refused: the GM was stuck).
    Opened with Ctrl+K while the defense is still to choose, its Resolve is off and it
    closes (Escape), the roll still waiting; once chosen, Resolve makes the roll."""
    from PySide6.QtTest import QTest

    engine = fight_begun(window, qtbot)
    enc = engine.encounter
    strike(window, qtbot, "rook", "bandit-1")
    assert window._action_dialog is None  # applied and closed with the one Return
    assert window._stack_dialog is None
    # The forward button points at the roll panel (it said "Resolve the stack first").
    assert window.forward_action.text() == "Make the roll first"
    assert not window.forward_action.isEnabled()
    button = window.roll_panel.roll_button
    QTest.mouseClick(window.windowHandle(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, button.mapTo(window, button.rect().center()))
    qtbot.waitUntil(lambda: enc.state.roll is not None and enc.state.roll.data["kind"] == "defense")
    roll = enc.state.roll

    window.stack_action.trigger()  # Ctrl+K
    dialog = window._stack_dialog
    assert dialog is not None and dialog.isVisible()
    assert not dialog.resolve_next.isEnabled() and not dialog.resolve_all.isEnabled()
    assert not dialog.cancel_button.isEnabled() and not dialog.add_button.isEnabled()
    assert dialog.close_button.isEnabled()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible() and enc.state.roll == roll
    add(window, qtbot, "Bandit 1: parry")
    assert not dialog.isVisible()  # it does not open again by itself
    window.stack_action.trigger()
    assert dialog.isVisible() and dialog.resolve_next.isEnabled()
    qtbot.mouseClick(dialog.resolve_next, Qt.MouseButton.LeftButton)
    assert not dialog.error.isVisible() and enc.state.roll is None
    assert dialog.close_button.isEnabled()


def test_f2_says_why_a_fighter_cannot_act(window: MainWindow, qtbot: QtBot) -> None:
    """F2 (act with whoever's turn it is) and the card's Act on a fighter with no action
    left say why on the status bar instead of opening a greyed form (it once opened the
    GM's cover form with "Rook is already there" in red); the forward button skips to
    the next step."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    window.start_fight_action.trigger()
    initiative(window, qtbot)
    for _ in range(2):  # the round's action, then the next round's borrowed
        strike(window, qtbot, "rook", "bandit-1")
        roll(window, qtbot, "97")
        add(window, qtbot, "Bandit 1: no defense")
        roll(window, qtbot)
    window.act_action.trigger()  # F2
    assert window._action_dialog is None
    said = window.statusBar().currentMessage()
    assert said.startswith("Rook cannot act: ") and "borrowed" in said, said
    window.statusBar().clearMessage()
    card = window.cards.card("rook")
    assert card is not None
    qtbot.mouseClick(card.role_buttons["act"], Qt.MouseButton.LeftButton)
    assert window._action_dialog is None
    assert window.statusBar().currentMessage().startswith("Rook cannot act: ")
    assert not window.forward_action.text().startswith("Act: Rook")
    assert window.forward_action.isEnabled()
