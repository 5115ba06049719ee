"""Players who roll their own dice, through the widgets: each roll the app used to make
for them unseen is asked for (a question with a dice field, or the roll panel), and the
GM can still let the app roll ("-")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from fightdesk.engine.engine import Engine
from tests.start_step import type_initiative

if TYPE_CHECKING:
    from collections.abc import Callable

    from fightdesk.engine.model import Encounter


def _rolls(engine: Engine, purpose: str) -> list[Any]:
    return [ev.roll for e in engine.session.log for ev in e.events
            if ev.roll is not None and ev.roll.purpose.startswith(purpose)]


def _to_round_start(window: Any, qtbot: Any, engine: Engine) -> None:
    enc = engine.encounter
    for _ in range(4):
        if enc.state.stage == "round-start":
            return
        qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    assert enc.state.stage == "round-start"


def test_a_street_fighter_player_is_asked_for_the_action_dice(window: Any,
                                                              qtbot: Any) -> None:
    """Kaede's player rolls her own dice: "Roll action dice" asks for hers and takes the
    typed faces; everyone else's are rolled by the app, then the round goes on."""
    from fightdesk.storage.sessions import demo_session

    session = demo_session()
    assert session.encounter.fighters["kaede"].rolls_own_dice
    engine = Engine(session)
    window.show_session(engine, None)
    enc = engine.encounter
    _to_round_start(window, qtbot, engine)
    assert window.forward_button.text() == "Roll action dice"
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    decision = window.decision_panel
    assert decision.isVisible()
    assert decision.prompt.text().startswith("Kaede Moriyama: roll the action dice (")
    assert not enc.fighters["kaede"].status.rolled
    needed = int(decision.dice.toolTip().split("Dice needed: ")[1].split("d10")[0])
    faces = [9, 4, 7, 2, 5][:needed]
    qtbot.keyClicks(decision.dice, " ".join(str(f) for f in faces))
    qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert not decision.error.isVisible(), decision.error.text()
    rolls = _rolls(engine, "action dice")
    kaede = [r for r in rolls if r.who == "Kaede Moriyama"]
    assert [(r.faces, r.source) for r in kaede] == [(faces, "typed")]
    assert [d.face for d in enc.fighters["kaede"].status.dice] == sorted(faces, reverse=True)
    assert all(r.source == "app" for r in rolls if r.who != "Kaede Moriyama")
    assert all(f.status.rolled for fid, f in enc.fighters.items() if fid in enc.order)
    assert enc.state.stage == "phases"


def test_a_street_fighter_players_action_dice_can_be_left_to_the_app(window: Any,
                                                                     qtbot: Any) -> None:
    """Answering the action dice question with "-" lets the app roll them."""
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    window.show_session(engine, None)
    _to_round_start(window, qtbot, engine)
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    decision = window.decision_panel
    assert decision.prompt.text().startswith("Kaede Moriyama: roll the action dice (")
    qtbot.keyClicks(decision.dice, "-")
    qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert not decision.error.isVisible(), decision.error.text()
    kaede = [r for r in _rolls(engine, "action dice") if r.who == "Kaede Moriyama"]
    assert [r.source for r in kaede] == ["app"]
    assert engine.encounter.state.stage == "phases"


def test_a_roll_under_player_is_asked_for_the_death_table_roll(window: Any,
                                                               qtbot: Any) -> None:
    """Miguel's player rolls his own dice. At 1 HP a foe's hit takes him past 0: his roll
    on the Death and Dismemberment table waits on the roll panel for his face (the app
    rolled it unseen before), and the row for that face is the one applied."""
    from PySide6.QtWidgets import QComboBox

    from fightdesk.engine import commands as c
    from fightdesk.engine.tables import lookup
    from fightdesk.engine.turns import current_fighter

    from .test_table_forms import roll_under_pcs_roll_their_own

    engine = roll_under_pcs_roll_their_own(window, qtbot)
    enc = engine.encounter
    for _ in range(8):  # the PCs' turns go by, to the first foe's
        fid = current_fighter(enc.state.turns)
        if fid is not None and enc.fighters[fid].side != "pc":
            break
        window.next_step_action.trigger()
    foe = current_fighter(enc.state.turns)
    assert foe is not None and enc.fighters[foe].side != "pc"
    assert window.document.apply(c.SetValue(fighter_id="miguel", field="status.hp",
                                            value=1)).ok
    dialog = window.open_action_dialog(foe, role="act")
    assert dialog is not None
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData("miguel"))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    roll = enc.state.roll
    assert roll is not None and roll.roller_id == "miguel"  # his defense: a 20 fails
    qtbot.keyClicks(panel.dice, "20")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert not panel.error.isVisible(), panel.error.text()
    roll = enc.state.roll
    if roll is not None and roll.data.get("kind") == "damage":  # a foe's damage: the app's
        qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
        roll = enc.state.roll
    miguel = enc.fighters["miguel"]
    assert miguel.status.lethal > 0
    table = enc.tables["death-and-dismemberment"]
    assert roll is not None and roll.roller_id == "miguel" and roll.by_player
    assert (roll.count, roll.sides) == (1, 6)
    assert panel.isVisible()
    assert panel.title.text().startswith(f"Miguel rolls {table.name}"), \
        panel.title.text()
    assert not [e for e in engine.session.log for ev in e.events if ev.kind == "table"]
    wounds = miguel.status.fatal_wounds
    qtbot.keyClicks(panel.dice, "6")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert not panel.error.isVisible(), panel.error.text()
    assert enc.state.roll is None
    rolls = _rolls(engine, table.name)
    assert [(r.who, r.faces, r.source) for r in rolls] == [("Miguel", [6], "typed")]
    row = lookup(table, 6)
    lines = [ev.text for e in engine.session.log for ev in e.events if ev.kind == "table"]
    assert lines == [f"{table.name}: 6 -> {row.text}" + (f" [{row.effect}]" if row.effect
                                                         else "")]
    fatal = row.effect.strip().lower() == "fatal-wound"
    assert enc.fighters["miguel"].status.fatal_wounds == wounds + int(fatal)


def _d100_at_bandit_2s_turn(window: Any, qtbot: Any, entangled: str,
                            holder: str) -> Engine:
    """The d100 demo, Vesna's player rolling her own dice, ``entangled`` held by
    ``holder``, at Bandit 2's turn of round 1."""

    from fightdesk.engine import commands as c
    from fightdesk.engine.turns import current_fighter
    from fightdesk.storage.sessions import load_session

    from .test_table_forms import RESOURCES

    session = load_session(RESOURCES / "demo_d100.json")
    fighters = session.encounter.fighters
    fighters["vesna"] = fighters["vesna"].model_copy(update={"rolls_own_dice": True})
    engine = Engine(session)
    enc = engine.encounter
    window.show_session(engine, None)
    window.start_fight_action.trigger()
    decision = window.decision_panel
    type_initiative(qtbot, decision)
    assert window.document.apply(c.AddCondition(fighter_id=entangled, name="Entangled",
                                                imposed_by=holder)).ok
    for _ in range(6):
        if current_fighter(enc.state.turns) == "bandit-2":
            break
        window.next_step_action.trigger()
    assert current_fighter(enc.state.turns) == "bandit-2"
    return engine


def test_a_d100_player_is_asked_for_the_roll_against_a_break_free(window: Any,
                                                                  qtbot: Any) -> None:
    """Vesna holds Bandit 2 entangled; he tries to break free. Her roll against it is
    her player's: it waits on the roll panel (the app rolled it unseen before), and
    her typed 99 (+15, 114) beats anything he can roll."""
    engine = _d100_at_bandit_2s_turn(window, qtbot, "bandit-2", "vesna")
    enc = engine.encounter
    dialog = window.open_action_dialog("bandit-2", role="act")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("break-free"))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    roll = enc.state.roll
    assert roll is not None and roll.roller_id == "vesna" and roll.by_player
    assert panel.isVisible()
    assert panel.title.text().startswith("Vesna rolls resisting Bandit 2's breaking free"), \
        panel.title.text()
    qtbot.keyClicks(panel.dice, "99")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert not panel.error.isVisible(), panel.error.text()
    assert enc.state.roll is None
    rolls = _rolls(engine, "resisting Bandit 2's breaking free")
    assert [(r.who, r.faces, r.source, r.outcome) for r in rolls] == [
        ("Vesna", [99], "typed", "114")]
    assert [c.name for c in enc.fighters["bandit-2"].status.conditions] == ["Entangled"]
    assert enc.fighters["bandit-2"].status.actions == 0


def test_a_d100_player_is_asked_for_the_roll_against_a_disarm(window: Any,
                                                              qtbot: Any) -> None:
    """Bandit 2 holds Vesna entangled and tries to disarm her: her roll against it waits
    for her player's face; a typed 99 (+15, 114: he needs more than 171) keeps her
    weapons in hand."""
    from PySide6.QtWidgets import QComboBox

    engine = _d100_at_bandit_2s_turn(window, qtbot, "vesna", "bandit-2")
    enc = engine.encounter
    dialog = window.open_action_dialog("bandit-2", role="act")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("disarm"))
    target = dialog.findChild(QComboBox, "field-target")
    if target is not None:
        target.setCurrentIndex(target.findData("vesna"))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    roll = enc.state.roll
    assert roll is not None and roll.roller_id == "vesna" and roll.by_player
    assert panel.title.text().startswith("Vesna rolls resisting Bandit 2's disarm"), \
        panel.title.text()
    assert not enc.fighters["vesna"].status.dropped
    qtbot.keyClicks(panel.dice, "99")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert not panel.error.isVisible(), panel.error.text()
    assert enc.state.roll is None
    rolls = _rolls(engine, "resisting Bandit 2's disarm")
    assert [(r.who, r.faces, r.source, r.outcome) for r in rolls] == [
        ("Vesna", [99], "typed", "114")]
    assert not enc.fighters["vesna"].status.dropped
    assert engine.session.log[-1].summary.startswith("Bandit 2 fails to disarm Vesna (")


def _sf_form(window: Any, qtbot: Any, fid: str, form: str, target: str) -> None:
    from PySide6.QtWidgets import QComboBox

    dialog = window.open_action_dialog(fid, role="act")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData(form))
    assert dialog.current_form().id == form
    box = dialog.findChild(QComboBox, "field-target")
    assert box is not None
    box.setCurrentIndex(box.findData(target))
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)


def test_a_street_fighter_player_is_asked_to_resist_an_intimidation(window: Any,
                                                                   qtbot: Any) -> None:
    """Before round 1 Dock Thug 1 intimidates Kaede, whose player rolls her own dice:
    her Willpower roll against it is asked for (the app rolled it unseen before); all
    10s cancel every success the thug could have, so she loses no EP."""
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    window.show_session(engine, None)
    enc = engine.encounter
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    assert enc.state.stage == "fight-start"
    ep = enc.fighters["kaede"].status.ep
    _sf_form(window, qtbot, "dock-thug-1", "intimidate", "kaede")
    decision = window.decision_panel
    assert decision.isVisible()
    assert decision.prompt.text().startswith(
        "Kaede Moriyama: roll Willpower against intimidation by Dock Thug 1 ("), \
        decision.prompt.text()
    assert not _rolls(engine, "Willpower against intimidation")
    needed = int(decision.dice.toolTip().split("Dice needed: ")[1].split("d10")[0])
    qtbot.keyClicks(decision.dice, " ".join(["10"] * needed))
    qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert not decision.error.isVisible(), decision.error.text()
    rolls = _rolls(engine, "Willpower against intimidation")
    assert [(r.who, r.faces, r.source) for r in rolls] == [
        ("Kaede Moriyama", [10] * needed, "typed")]
    thug = _rolls(engine, "intimidation")[0]
    assert thug.who == "Dock Thug 1" and thug.source == "app"
    assert enc.fighters["kaede"].status.ep == ep
    assert enc.state.pending is None


def test_a_street_fighter_player_is_asked_to_resist_a_deception_on_the_stack(
        window: Any, qtbot: Any) -> None:
    """Dock Thug 1 deceives Kaede with his 10: when the move resolves her Wits + Insight
    roll against it is asked for; the move is done once she answers, the stack closes."""
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    window.show_session(engine, None)
    enc = engine.encounter
    _to_round_start(window, qtbot, engine)
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    decision = window.decision_panel
    assert decision.prompt.text().startswith("Kaede Moriyama: roll the action dice (")
    qtbot.keyClicks(decision.dice, "-")  # her action dice: the app rolls them
    qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert enc.state.phase == 10
    _sf_form(window, qtbot, "dock-thug-1", "deceive", "kaede")
    qtbot.waitUntil(lambda: window._stack_dialog is not None and window._stack_dialog.isVisible())
    stack = window._stack_dialog
    panel = window._stack_decision
    qtbot.mouseClick(stack.resolve_next, Qt.MouseButton.LeftButton)
    assert panel.isVisible()
    assert panel.prompt.text().startswith(
        "Kaede Moriyama: roll Wits + Insight against deception by Dock Thug 1 ("), \
        panel.prompt.text()
    assert enc.state.stack and not _rolls(engine, "Wits + Insight against deception")
    needed = int(panel.dice.toolTip().split("Dice needed: ")[1].split("d10")[0])
    qtbot.keyClicks(panel.dice, " ".join(["1"] * needed))
    qtbot.mouseClick(panel.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert not panel.error.isVisible(), panel.error.text()
    rolls = _rolls(engine, "Wits + Insight against deception")
    assert [(r.who, r.faces, r.source) for r in rolls] == [
        ("Kaede Moriyama", [1] * needed, "typed")]
    assert enc.state.pending is None and not enc.state.stack


def _sf_round_one(window: Any, qtbot: Any, kaede_dice: str,
                  saved: Callable[[Encounter], None] | None = None) -> Engine:
    """The demo at round 1's first phase, Kaede's player having typed her action dice
    (the others are the app's). ``saved``: the fight opens from a file saved at round 1's
    start, changed by it (a hold, a long recovery)."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.model import Session
    from fightdesk.storage.sessions import demo_session

    session = demo_session()
    if saved is not None:
        started = Engine(session)
        assert started.apply(c.StartFight()).ok and started.apply(c.StartRound()).ok
        enc = started.encounter.model_copy(deep=True)
        saved(enc)
        session = Session.begin(enc)
    engine = Engine(session)
    window.show_session(engine, None)
    _to_round_start(window, qtbot, engine)
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    decision = window.decision_panel
    assert decision.prompt.text().startswith("Kaede Moriyama: roll the action dice (")
    qtbot.keyClicks(decision.dice, kaede_dice)
    qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert not decision.error.isVisible(), decision.error.text()
    assert engine.encounter.state.stage == "phases"
    return engine


def _resolve_on_the_stack(window: Any, qtbot: Any) -> Any:
    """Resolve the stack's next move in the stack dialog; its question panel."""
    qtbot.waitUntil(lambda: window._stack_dialog is not None and window._stack_dialog.isVisible())
    qtbot.mouseClick(window._stack_dialog.resolve_next, Qt.MouseButton.LeftButton)
    return window._stack_decision


def _answer_with_dice(qtbot: Any, panel: Any, faces: str) -> None:
    qtbot.keyClicks(panel.dice, faces)
    qtbot.mouseClick(panel.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert not panel.error.isVisible(), panel.error.text()


def test_a_street_fighter_player_is_asked_to_resist_a_stunning_shout(window: Any,
                                                                    qtbot: Any) -> None:
    """Kaede's dice are all 1s, so Brannock acts first, at his 6, and shouts at her:
    her Willpower roll against it is asked for on the stack (the app rolled it unseen
    before); six typed 10s beat anything his 4 dice can do, so she keeps her dice."""
    from fightdesk.engine.rulesets.street_fighter.round import current_actor

    engine = _sf_round_one(window, qtbot, "1 1 1 1")
    enc = engine.encounter
    for _ in range(12):  # the dock thugs' turns go by, to Brannock's
        if current_actor(enc) == "brannock":
            break
        if current_actor(enc) is None:
            window.next_step_action.trigger()
            continue
        window.pass_action.trigger()
        lose = window.decision_panel.findChild(QPushButton, "choice-lose")
        if window.decision_panel.isVisible() and lose is not None:
            qtbot.mouseClick(lose, Qt.MouseButton.LeftButton)
    assert current_actor(enc) == "brannock"
    dice = [d.face for d in enc.fighters["kaede"].status.dice if d.state == "ready"]
    from PySide6.QtWidgets import QComboBox

    dialog = window.open_action_dialog("brannock", role="act")
    assert dialog is not None and dialog.current_form().id == "act"
    maneuver = dialog.findChild(QComboBox, "field-maneuver")
    maneuver.setCurrentIndex(maneuver.findData("Stunning Shout"))
    target = dialog.findChild(QComboBox, "field-target")
    target.setCurrentIndex(target.findData("kaede"))
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    panel = _resolve_on_the_stack(window, qtbot)
    assert panel.isVisible()
    willpower = enc.fighters["kaede"].status.willpower
    assert panel.prompt.text() == ("Kaede Moriyama: roll Willpower against Brannock Vale's "
                                   f"Stunning Shout ({willpower}d10)"), panel.prompt.text()
    shout = _rolls(engine, "Stunning Shout")
    assert [(r.who, r.source) for r in shout] == [("Brannock Vale", "app")]
    assert not _rolls(engine, "Willpower against the shout")
    _answer_with_dice(qtbot, panel, " ".join(["10"] * willpower))
    rolls = _rolls(engine, "Willpower against the shout")
    assert [(r.who, r.faces, r.source) for r in rolls] == [
        ("Kaede Moriyama", [10] * willpower, "typed")]
    assert [d.face for d in enc.fighters["kaede"].status.dice if d.state == "ready"] == dice
    assert enc.state.pending is None and not enc.state.stack


def _brannock_holds_kaede(enc: Encounter) -> None:
    from fightdesk.engine.rulesets.street_fighter.model import SustainedHold

    brannock = enc.fighters["brannock"]
    hold = SustainedHold(target_id="kaede", maneuver="Bear Hug", limit=3)
    brannock.status = brannock.status.model_copy(update={"holding": hold})


def test_a_street_fighter_player_is_asked_for_the_strength_roll_to_break_free(
        window: Any, qtbot: Any) -> None:
    """Brannock keeps Kaede in a Bear Hug; on her 10 she breaks free. Her Strength roll is
    her player's, asked for on the stack (the app rolled it unseen before); Brannock's is
    the app's (seeded: 5, 10, 1, 6 -> 2 - 1 = 1). Her typed 10, 10, 10 count 3
    successes: she is free."""
    from PySide6.QtWidgets import QComboBox

    engine = _sf_round_one(window, qtbot, "10 9 8 7", saved=_brannock_holds_kaede)
    enc = engine.encounter
    dialog = window.open_action_dialog("kaede", role="act")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("break-free"))
    assert dialog.current_form().id == "break-free"
    assert dialog.findChild(QComboBox, "field-target") is None
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    panel = _resolve_on_the_stack(window, qtbot)
    assert panel.isVisible()
    assert panel.prompt.text() == ("Kaede Moriyama: roll Strength to break free of Brannock "
                                   "Vale's Bear Hug (3d10)"), panel.prompt.text()
    assert not _rolls(engine, "breaking free") and not _rolls(engine, "keeping the hold")
    _answer_with_dice(qtbot, panel, "10 10 10")
    mine = _rolls(engine, "breaking free (Strength)")
    assert [(r.who, r.faces, r.source, r.outcome) for r in mine] == [
        ("Kaede Moriyama", [10, 10, 10], "typed", "3 successes")]
    his = _rolls(engine, "keeping the hold (Strength)")
    assert [(r.who, r.faces, r.source, r.outcome) for r in his] == [
        ("Brannock Vale", [5, 10, 1, 6], "app", "1 success")]
    assert enc.fighters["brannock"].status.holding is None
    assert "Kaede Moriyama breaks free of Brannock Vale's Bear Hug" in [
        ev.text for ev in engine.session.log[-1].events]
    assert enc.state.pending is None and not enc.state.stack


def _kaede_recovers_round_one(window: Any, qtbot: Any) -> Engine:
    """The demo, Kaede 2 chi down: before round 1 she starts recovering chi (the action
    dialog's "Start recovering"); her action dice are left to the app; the GM ends the
    round and lets the unused dice go."""
    from PySide6.QtWidgets import QComboBox

    from fightdesk.engine import commands as c
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    window.show_session(engine, None)
    enc = engine.encounter
    assert window.document.apply(c.SetValue(fighter_id="kaede", field="status.chi",
                                            value=1)).ok
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    assert enc.state.stage == "fight-start"
    dialog = window.open_action_dialog("kaede", role="act")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("recover"))
    pool = dialog.findChild(QComboBox, "field-pool")
    assert pool is not None
    pool.setCurrentIndex(pool.findData("chi"))
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    assert enc.fighters["kaede"].status.recovery is not None
    _to_round_start(window, qtbot, engine)
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    decision = window.decision_panel
    qtbot.keyClicks(decision.dice, "-")
    qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert window.document.apply(c.EndRound()).ok
    for _ in range(12):  # the unused dice: let each go
        lose = decision.findChild(QPushButton, "choice-lose")
        if lose is None:
            break
        qtbot.mouseClick(lose, Qt.MouseButton.LeftButton)
    return engine


def test_a_street_fighter_player_types_the_recovery_roll_at_the_one_question(
        window: Any, qtbot: Any) -> None:
    """Kaede has recovered chi for the whole round: the one question (roll now or keep
    recovering) asks for her player's 2d10; her typed 9 and 8 at TN 8 regain both."""
    engine = _kaede_recovers_round_one(window, qtbot)
    enc = engine.encounter
    decision = window.decision_panel
    assert decision.isVisible()
    assert decision.prompt.text() == ("Kaede Moriyama has recovered chi for 1 round: roll the "
                                      "2d10 now (TN 8) or keep recovering?"), \
        decision.prompt.text()
    assert decision.dice.isVisible()
    assert "Dice needed: 2d10" in decision.dice.toolTip()
    assert decision.findChild(QPushButton, "choice-continue") is not None
    assert not _rolls(engine, "chi recovery")
    _answer_with_dice(qtbot, decision, "9 8")
    rolls = _rolls(engine, "chi recovery")
    assert [(r.who, r.faces, r.source, r.outcome) for r in rolls] == [
        ("Kaede Moriyama", [9, 8], "typed", "2 successes")]
    assert enc.fighters["kaede"].status.chi == 3
    assert enc.fighters["kaede"].status.recovery is None
    assert enc.state.pending is None and enc.state.stage == "round-over"


def _kaede_recovering_for_59_rounds(enc: Encounter) -> None:
    """Rounds of a minute (the option's most); Kaede 2 chi down, recovering for 59 of them."""
    from fightdesk.engine.rulesets.street_fighter.model import Recovery

    enc.options = enc.options.model_copy(update={"seconds_per_round": 60})
    kaede = enc.fighters["kaede"]
    recovery = Recovery(pool="chi", full_rounds=59, whole_round=True)
    kaede.status = kaede.status.model_copy(update={"chi": 1, "recovery": recovery})


def test_an_hour_of_recovery_asks_for_no_dice(window: Any, qtbot: Any) -> None:
    """The 60th round of Kaede's recovery makes an hour: everything comes back without a
    roll, so the question has no field for dice, and stopping regains her 2 chi."""
    from fightdesk.engine import commands as c

    engine = _sf_round_one(window, qtbot, "-", saved=_kaede_recovering_for_59_rounds)
    decision = window.decision_panel
    assert window.document.apply(c.EndRound()).ok
    for _ in range(12):  # the unused dice: let each go
        lose = decision.findChild(QPushButton, "choice-lose")
        if lose is None:
            break
        qtbot.mouseClick(lose, Qt.MouseButton.LeftButton)
    assert decision.prompt.text() == ("Kaede Moriyama has recovered chi for 60 rounds: stop "
                                      "now (all regained) or keep recovering?"), \
        decision.prompt.text()
    assert not decision.dice.isVisible()
    qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert not decision.error.isVisible(), decision.error.text()
    assert engine.encounter.fighters["kaede"].status.chi == 3
    assert not _rolls(engine, "chi recovery")


def test_a_street_fighter_player_is_asked_to_intimidate_on_the_stack(window: Any,
                                                                     qtbot: Any) -> None:
    """On her 10 Kaede intimidates Brannock: when the move resolves her Charisma +
    Intimidation roll is her player's, asked for on the stack (the app rolled it unseen
    before); her typed 10, 10, 10 count 3 successes, Brannock's Willpower is the app's
    (seeded: 5, 10, 1, 6, 10 -> 3 - 1 = 2)."""
    engine = _sf_round_one(window, qtbot, "10 9 8 7")
    enc = engine.encounter
    _sf_form(window, qtbot, "kaede", "intimidate", "brannock")
    panel = _resolve_on_the_stack(window, qtbot)
    assert panel.isVisible()
    assert panel.prompt.text() == ("Kaede Moriyama: roll Charisma + Intimidation to "
                                   "intimidate Brannock Vale (3d10)"), panel.prompt.text()
    assert not _rolls(engine, "intimidation")
    _answer_with_dice(qtbot, panel, "10 10 10")
    mine = _rolls(engine, "intimidation")
    assert [(r.who, r.faces, r.source, r.outcome) for r in mine] == [
        ("Kaede Moriyama", [10, 10, 10], "typed", "3 successes")]
    his = _rolls(engine, "Willpower against intimidation")
    assert [(r.who, r.faces, r.source, r.outcome) for r in his] == [
        ("Brannock Vale", [5, 10, 1, 6, 10], "app", "2 successes")]
    assert enc.fighters["brannock"].status.ep == 1  # 3 - 2: 1 of his 2 EP lost
    assert enc.state.pending is None and not enc.state.stack


def test_street_fighter_players_tied_on_a_phase_are_asked_for_the_roll_off(
        window: Any, qtbot: Any) -> None:
    """Kaede and Brannock (whose player rolls his own dice here, and whose Wits,
    Perception and Dexterity match hers) both have a 9: entering phase 9, one question
    asks both players for their roll-off d10 (the app rolled it unseen before). Typed
    5 5 they are still tied and asked again; 8 3 puts Brannock first."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.model import Session
    from fightdesk.engine.rulesets.street_fighter.round import current_actor
    from fightdesk.storage.sessions import demo_session

    started = Engine(demo_session())
    assert started.apply(c.StartFight()).ok and started.apply(c.StartRound()).ok
    enc = started.encounter.model_copy(deep=True)
    kaede = enc.fighters["kaede"].sheet
    brannock = enc.fighters["brannock"]
    brannock.sheet = brannock.sheet.model_copy(update={
        "wits": kaede.wits, "perception": kaede.perception, "dexterity": kaede.dexterity})
    brannock.rolls_own_dice = True
    engine = Engine(Session.begin(enc))
    enc = engine.encounter
    window.show_session(engine, None)
    decision = window.decision_panel
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    for who in ("Kaede Moriyama", "Brannock Vale"):
        assert decision.prompt.text().startswith(f"{who}: roll the action dice ("), \
            decision.prompt.text()
        _answer_with_dice(qtbot, decision, " ".join(["9"] + ["2"] * (kaede.dexterity - 1)))
    for _ in range(3):  # to phase 9 (a dock thug's 10, if any, passes)
        if enc.state.pending is not None:
            break
        if current_actor(enc) is None:
            window.next_step_action.trigger()
        else:
            window.pass_action.trigger()
        lose = decision.findChild(QPushButton, "choice-lose")
        if decision.isVisible() and lose is not None:
            qtbot.mouseClick(lose, Qt.MouseButton.LeftButton)
    assert enc.state.phase == 9 and decision.isVisible()
    assert decision.prompt.text() == ("Kaede Moriyama and Brannock Vale: roll a d10 each for "
                                      "the acting order in phase 9 (lower goes first)")
    assert decision.dice.isVisible() and not _rolls(engine, "acting-order roll-off")
    assert current_actor(enc) is None
    _answer_with_dice(qtbot, decision, "5 5")
    assert decision.prompt.text().startswith("Kaede Moriyama and Brannock Vale: roll again ")
    assert decision.dice.text() == ""
    _answer_with_dice(qtbot, decision, "8; 3")
    rolls = _rolls(engine, "acting-order roll-off")
    assert [(r.who, r.faces, r.source) for r in rolls] == [
        ("Kaede Moriyama", [5], "typed"), ("Brannock Vale", [5], "typed"),
        ("Kaede Moriyama", [8], "typed"), ("Brannock Vale", [3], "typed")]
    assert enc.state.pending is None and not decision.isVisible()
    assert current_actor(enc) == "brannock"
    lines = [ev.text for e in engine.session.log for ev in e.events if ev.kind == "decision"]
    assert lines[-1] == ("Kaede Moriyama rolls 8, Brannock Vale rolls 3 for the acting order "
                         "in phase 9")
