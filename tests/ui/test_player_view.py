"""The player view shows what the players may see and nothing else: a fight walked with a
hidden ambusher and the enemies' health as a bar, checked after every step; revealing the
ambusher shows them; the view follows undo, can be blanked, and never takes the focus."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.player_view import health_word, public_fight
from fightdesk.storage.library import new_fighter
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.player_view import PlayerCard
from tests.drill_ruleset import DrillEngine, Feint, Strike, drill_engine

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

SECRET = "knows where the ledger is hidden"
AMBUSHER = "Razor Quill"


def with_ambusher(engine: Engine) -> None:
    """A hidden enemy with a GM note, and a GM note on a visible enemy."""
    ruleset = engine.encounter.ruleset
    razor = new_fighter(ruleset, AMBUSHER).model_dump(mode="json")
    razor.update(side="enemy", notes=SECRET)
    assert engine.apply(c.AddFighters(fighter=razor)).ok
    assert engine.apply(c.HideFighter(fighter_id="razor-quill")).ok
    first_enemy = next(fid for fid in engine.encounter.order
                       if engine.encounter.fighters[fid].side == "enemy" and fid != "razor-quill")
    assert engine.apply(c.SetValue(fighter_id=first_enemy, field="notes", value=SECRET)).ok


def secrets_shown(window: MainWindow, engine: Engine) -> list[str]:
    view = window.player_view
    assert view is not None
    texts = view.texts()
    found: list[str] = []
    enc = engine.encounter
    for text in texts:
        if AMBUSHER in text or "Razor" in text:
            found.append(f"hidden name in {text!r}")
        if SECRET in text:
            found.append(f"GM note in {text!r}")
        decision = engine.pending()
        if decision is not None and decision.prompt in text:
            found.append(f"a GM question in {text!r}")
    # No enemy card shows a number for health (the GM chose a bar).
    enemies = {f.name for f in enc.fighters.values() if f.side == "enemy"}
    for card in view.findChildren(PlayerCard):
        name = card.name.text().removesuffix("  (acting)")
        if name in enemies and card.isVisibleTo(view):
            shown = [w.text() for w in card.findChildren(QLabel) if w.isVisibleTo(card)]
            if any(re.search(r"\d+/\d+", t) for t in shown):
                found.append(f"{name}'s health as numbers: {shown}")
    return found


def open_view(window: MainWindow) -> None:
    window.player_view_action.trigger()
    assert window.player_view is not None and window.player_view.isVisible()


def test_the_drill_fight_walked_with_a_hidden_ambusher(window: MainWindow, qtbot: QtBot) -> None:
    engine: DrillEngine = drill_engine(seed=4)
    window.show_session(engine, None)
    with_ambusher(engine)
    open_view(window)
    view = window.player_view
    assert view is not None
    assert engine.encounter.enemy_health == "bar"
    window.activateWindow()
    steps = [
        c.StartRound(),
        c.Answer(decision_id="initiative", values={"kaede": 3, "brannock": 19}),
        Strike(fighter_id="kaede", target_id="thug-1"),
        c.MakeRoll(roll_id=1, dice=[[5], [4]]),
        c.NextStep(),
        Feint(fighter_id="brannock", target_id="thug-2", dice=[[2, 2]]),
        c.NextStep(),
        c.AddCondition(fighter_id="thug-1", name="Shoved", duration="rounds", rounds=1),
    ]
    for command in steps:
        out = window.document.apply(command)
        assert out.ok, (command, out.error)
        assert secrets_shown(window, engine) == [], command
    public = public_fight(engine.ruleset, engine.encounter)
    thug = next(card for card in public.cards if card.fighter_id == "thug-1")
    assert thug.health_text == "" and thug.health_share is not None and thug.health_share < 1
    kaede = next(card for card in public.cards if card.fighter_id == "kaede")
    assert kaede.health_text == "10/10"
    assert "Shoved · 1 round" in " ".join(view.texts())
    # Revealed: the ambusher is on the players' screen (but never their note).
    assert window.document.apply(c.HideFighter(fighter_id="razor-quill", hidden=False)).ok
    texts = " ".join(view.texts())
    assert AMBUSHER in texts and SECRET not in texts
    # Undo hides them again, live.
    window.document.undo_stack.undo()
    assert AMBUSHER not in " ".join(view.texts())
    # The focus stays with the GM's window.
    assert not view.isActiveWindow()
    assert view.testAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
    assert bool(view.windowFlags() & Qt.WindowType.WindowDoesNotAcceptFocus)


def test_the_street_fighter_demo_with_a_hidden_ambusher(window: MainWindow, qtbot: QtBot) -> None:
    engine = Engine(demo_session())
    window.show_session(engine, None)
    with_ambusher(engine)
    open_view(window)
    for command in (c.StartFight(), c.StartRound()):
        assert window.document.apply(command).ok
        assert secrets_shown(window, engine) == []
    for _ in range(6):
        forms = engine.ruleset.views.action_forms(engine.encounter, "razor-quill")
        roll = next((f for f in forms if f.id == "roll-dice" and f.enabled), None)
        if roll is not None:
            window.document.apply(engine.ruleset.views.build_command("roll-dice", "razor-quill", {}))
        for fid in engine.encounter.order:
            form = next((f for f in engine.ruleset.views.action_forms(engine.encounter, fid)
                         if f.id == "roll-dice" and f.enabled), None)
            if form is not None:
                window.document.apply(engine.ruleset.views.build_command("roll-dice", fid, {}))
        window.document.apply(c.NextStep())
        assert secrets_shown(window, engine) == []
    view = window.player_view
    assert view is not None
    timeline = view.timeline.timeline()
    assert timeline is not None
    assert all("razor-quill" not in lane.fighter_ids for lane in timeline.lanes)
    assert all(chip.fighter_id != "razor-quill" for lane in timeline.lanes for chip in lane.chips)
    gm_lanes = window.timeline.timeline()
    assert gm_lanes is not None and any("razor-quill" in lane.fighter_ids for lane in gm_lanes.lanes)


def test_enemy_health_shown_as_the_gm_chooses(window: MainWindow, qtbot: QtBot) -> None:
    engine = drill_engine()
    window.show_session(engine, None)
    open_view(window)
    assert window.document.apply(c.SetValue(fighter_id="thug-1", field="status.hp", value=2)).ok
    expected = {"exact": ("2/6", 2 / 6), "bar": ("", 2 / 6), "word": ("bloodied", None),
                "hidden": ("", None)}
    for show, (text, share) in expected.items():
        window.enemy_health_actions[show].trigger()
        assert engine.encounter.enemy_health == show
        thug = next(card for card in public_fight(engine.ruleset, engine.encounter).cards
                    if card.fighter_id == "thug-1")
        assert (thug.health_text, thug.health_share) == (text, share)
    # The choice is saved with the fight, logged and undoable.
    assert engine.session.log[-1].summary == "GM: the player view shows the enemies' health not at all"
    window.document.undo_stack.undo()
    assert engine.encounter.enemy_health == "word"
    assert window.enemy_health_actions["word"].isChecked()


def test_blank_and_back(window: MainWindow, qtbot: QtBot) -> None:
    window.show_session(drill_engine(), None)
    open_view(window)
    view = window.player_view
    assert view is not None and window.blank_player_action.isEnabled()
    window.blank_player_action.trigger()
    assert view.is_blank() and not any("Kaede" in t for t in view.texts())
    window.blank_player_action.trigger()
    assert not view.is_blank() and any("Kaede" in t for t in view.texts())
    window.player_view_action.trigger()
    assert not view.isVisible()


def test_health_words() -> None:
    assert [health_word(h, 10) for h in (10, 9, 6, 5, 1, 0)] == [
        "unhurt", "hurt", "hurt", "bloodied", "bloodied", "down"]


def test_hide_and_show_from_the_card(window: MainWindow, qtbot: QtBot) -> None:
    engine = drill_engine()
    window.show_session(engine, None)
    open_view(window)
    view = window.player_view
    assert view is not None
    window.cards.requested.emit("hide", "thug-2")
    assert engine.encounter.fighters["thug-2"].hidden
    assert engine.session.log[-1].summary == "GM hides Thug 2 from the players"
    card = window.cards.card_for_fighter("thug-2")
    assert card is not None and card.side.text() == "Enemy · hidden"
    assert "Thug 2" not in " ".join(view.texts())
    window.cards.requested.emit("hide", "thug-2")
    assert engine.session.log[-1].summary == "GM reveals Thug 2 to the players"
    assert card.side.text() == "Enemy" and "Thug 2" in " ".join(view.texts())
    out = engine.apply(c.HideFighter(fighter_id="thug-2", hidden=False))
    assert not out.ok and out.error == "Thug 2 is already shown to the players"


def test_the_headline_says_who_is_next_but_never_a_hidden_fighter(window: MainWindow,
                                                                   qtbot: QtBot) -> None:
    engine = drill_engine()
    window.show_session(engine, None)
    open_view(window)
    view = window.player_view
    assert view is not None
    window.document.apply(c.StartRound())
    window.document.apply(c.Answer(decision_id="initiative", values={"kaede": 1, "brannock": 1}))
    assert view.headline.text() == "Round 1 · quick, Kaede's turn · next: Brannock"
    window.document.apply(c.HideFighter(fighter_id="brannock"))
    assert view.headline.text() == "Round 1 · quick, Kaede's turn · next: Thug 1"


def test_a_hidden_name_inside_a_shown_one_is_left_whole() -> None:
    """Only whole names are scrubbed: "Bandit" hidden leaves "Bandit Captain" (shown) as it
    is, on the card, the chips, the lanes and in the headline, and "Bandits" too."""
    engine = drill_engine()
    enc = engine.encounter
    for fid, name in (("kaede", "Bandit Captain"), ("thug-1", "Bandit"), ("thug-2", "Bandits")):
        enc.fighters[fid] = enc.fighters[fid].model_copy(update={"name": name})
    assert engine.apply(c.HideFighter(fighter_id="thug-1")).ok
    assert engine.apply(c.StartRound()).ok
    assert engine.apply(c.Answer(decision_id="initiative",
                                 values={"kaede": 1, "brannock": 1})).ok
    fight = public_fight(engine.ruleset, engine.encounter)
    names = [card.name for card in fight.cards]
    assert "Bandit Captain" in names and "Bandits" in names and "Bandit" not in names
    assert fight.headline.startswith("Round 1 · quick, Bandit Captain's turn")
    texts = [fight.headline, *names] + [chip.label for lane in fight.timeline.lanes
                                        for chip in lane.chips]
    texts += [lane.title for lane in fight.timeline.lanes]
    assert not [t for t in texts if "someone" in t], texts
    assert any("Bandit Captain" in label for label in texts[len(names) + 1:])
