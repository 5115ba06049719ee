"""The conditions kit (engine/conditions.py): each duration, each countdown moment, the
log words, undo/redo and the rebuild, through the engine's commands.

Turn moments are tested on a ruleset with turns made here (a test command ticks them,
as a turn-order ruleset's own turn commands will); street-fighter (phases, no turns)
counts down at its round's end.
"""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any, ClassVar, Literal

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine import conditions
from fightdesk.engine.base import Condition
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.engine.ruleset import Autopilot, Card, Context, Rules, Ruleset, Views
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import demo_session, load_session


class Tick(c.Command):
    """Test only: a turn moment, as a ruleset with turns ticks it."""

    kind: Literal["tick"] = "tick"
    moment: str
    fighter_id: str | None = None


class Turns(Rules):
    id = "street-fighter"  # the demo fight's fighters; only the conditions' rules differ
    title = "Turns"
    condition_names = ("Stunned", "Prone")
    condition_tick: ClassVar[str] = "turn-start"
    condition_turns = True

    def handle(self, ctx: Context, command: c.Command) -> None:
        assert isinstance(command, Tick)
        conditions.tick(ctx, command.moment, command.fighter_id)
        ctx.summary = f"{command.moment} {command.fighter_id or ''}".strip()


class TurnsViews(Views):
    def card(self, enc: Any, fighter_id: str) -> Card:
        f = enc.fighters[fighter_id]
        return Card(fighter_id=fighter_id, title=f.name, side=f.side, health=0, health_max=0,
                    conditions=conditions.views(enc, fighter_id))


class TurnsEngine(Engine):
    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.turns = Turns()

    @property
    def ruleset(self) -> Ruleset:
        views = TurnsViews(self.turns)
        return Ruleset(self.turns, views, Autopilot(self.turns, views))


def turns_engine() -> TurnsEngine:
    return TurnsEngine(demo_session())


def sf_engine() -> Engine:
    return Engine(demo_session())


def ok(engine: Engine, command: c.Command) -> Any:
    out = engine.apply(command)
    assert out.ok, out.error
    assert engine.rebuild().model_dump(mode="json") == engine.encounter.model_dump(mode="json")
    return out.entry


def refused(engine: Engine, command: c.Command) -> str:
    before = engine.encounter.model_dump(mode="json")
    out = engine.apply(command)
    assert not out.ok and out.error
    assert engine.encounter.model_dump(mode="json") == before
    return out.error


def conds(engine: Engine, fid: str) -> list[tuple[str, int | None]]:
    return [(x.name, x.rounds_left) for x in engine.encounter.fighters[fid].status.conditions]


def events(entry: Any) -> list[tuple[str, str, dict[str, Any]]]:
    return [(e.kind, e.text, e.data) for e in entry.events]


def shown(engine: Engine, fid: str) -> list[str]:
    return [v.text for v in engine.ruleset.views.card(engine.encounter, fid).conditions]


def sf_round(engine: Engine) -> Any:
    """Start a street-fighter round and end it at once (no dice rolled: no questions);
    returns the entry that ended it."""
    ok(engine, c.StartRound())
    return ok(engine, c.EndRound())


# --- street-fighter: rounds counted at the round's end -------------------------------------


def test_rounds_count_down_at_street_fighters_round_end_and_end() -> None:
    engine = sf_engine()
    entry = ok(engine, c.AddCondition(fighter_id="kaede", name="Dazed", duration="rounds",
                                      rounds=2))
    assert events(entry) == [("condition-on", "Kaede Moriyama is dazed (2 rounds)",
                              {"name": "Dazed"})]
    assert entry.summary == "GM: Kaede Moriyama is dazed (2 rounds)"
    assert shown(engine, "kaede") == ["Dazed · 2 rounds"]
    end1 = sf_round(engine)
    assert conds(engine, "kaede") == [("Dazed", 1)]
    assert shown(engine, "kaede") == ["Dazed · 1 round"]
    assert ("note", "Kaede Moriyama: Dazed, 1 round left") in [e[:2] for e in events(end1)]
    end2 = sf_round(engine)
    assert conds(engine, "kaede") == []
    assert ("condition-off", "Kaede Moriyama is no longer dazed", {"name": "Dazed"}) \
        in events(end2)
    # the condition ends before the round's end is said, like a block ending with the round
    kinds = [e[0] for e in events(end2)]
    assert kinds.index("condition-off") < kinds.index("round-end")
    # undo takes back the round's end, with the condition's end
    assert engine.undo()
    assert conds(engine, "kaede") == [("Dazed", 1)]
    assert engine.redo()
    assert conds(engine, "kaede") == []


def test_until_removed_never_counts_down_and_the_gm_removes_it() -> None:
    engine = sf_engine()
    ok(engine, c.AddCondition(fighter_id="brannock", name="Blinded by sand", note="dock sand"))
    view = engine.ruleset.views.card(engine.encounter, "brannock").conditions[0]
    assert (view.text, view.removable, view.position) == ("Blinded by sand", True, 0)
    assert "until removed" in view.tooltip and "dock sand" in view.tooltip
    sf_round(engine)
    sf_round(engine)
    assert conds(engine, "brannock") == [("Blinded by sand", None)]
    entry = ok(engine, c.RemoveCondition(fighter_id="brannock", index=0))
    assert entry.summary == "GM removed Blinded by sand from Brannock Vale"
    assert events(entry) == [("condition-off", "Brannock Vale is no longer blinded by sand",
                              {"name": "Blinded by sand"})]
    assert conds(engine, "brannock") == []
    engine.undo()
    assert conds(engine, "brannock") == [("Blinded by sand", None)]


def test_street_fighter_has_no_turns_to_end_a_condition() -> None:
    engine = sf_engine()
    error = refused(engine, c.AddCondition(fighter_id="kaede", name="Shoved",
                                           duration="until-turn-end", until_fighter="brannock"))
    assert "no fighter turns" in error
    assert "no fighter turns" in refused(engine, c.AddCondition(
        fighter_id="kaede", name="Dazed", duration="rounds", rounds=1, tick="turn-start"))


def test_rule_derived_conditions_show_but_are_not_removable() -> None:
    engine = sf_engine()
    ok(engine, c.SetValue(fighter_id="kaede", field="status.knocked_down", value=True))
    ok(engine, c.AddCondition(fighter_id="kaede", name="Bleeding", duration="rounds", rounds=3))
    views = engine.ruleset.views.card(engine.encounter, "kaede").conditions
    assert [(v.text, v.removable, v.position) for v in views] == [
        ("Bleeding · 3 rounds", True, 0), ("Knocked down", False, None)]
    assert "ends by the rules" in views[1].tooltip


def test_a_stun_shows_for_the_rest_of_its_round() -> None:
    """Stun is instant in the text; the card says so while the die it took is there."""
    engine = sf_engine()
    ok(engine, c.StartRound())  # a round under way: its dice are the stun's
    ok(engine, c.SetValue(fighter_id="kaede", field="status.dice",
                          value=[{"id": 1, "face": 7, "state": "lost", "why": "stunned"},
                                 {"id": 2, "face": 3, "state": "lost", "why": "not used"}]))
    views = engine.ruleset.views.card(engine.encounter, "kaede").conditions
    assert [(v.text, v.removable) for v in views] == [("Stunned", False)]
    ok(engine, c.SetValue(fighter_id="kaede", field="status.dice.0.why", value="not used"))
    assert shown(engine, "kaede") == []


def test_a_gm_override_of_the_rounds_left_is_kept_consistent() -> None:
    """A GM override may set rounds left to 0: the card says it ends at the next count,
    and the round's end ends it; a refused override changes nothing."""
    engine = sf_engine()
    ok(engine, c.AddCondition(fighter_id="kaede", name="Dazed", duration="rounds", rounds=2))
    ok(engine, c.SetValue(fighter_id="kaede", field="status.conditions.0.rounds_left",
                          value=0))
    assert shown(engine, "kaede") == ["Dazed · ends at its next count"]
    refused(engine, c.SetValue(fighter_id="kaede", field="status.conditions.0.duration",
                               value="for ever"))
    sf_round(engine)
    assert conds(engine, "kaede") == []


# --- turn moments --------------------------------------------------------------------------


def test_turn_start_counts_down_only_the_bearers_conditions() -> None:
    engine = turns_engine()
    ok(engine, c.AddCondition(fighter_id="kaede", name="Stunned", duration="rounds", rounds=2))
    ok(engine, c.AddCondition(fighter_id="brannock", name="Prone", duration="rounds", rounds=1))
    assert engine.encounter.fighters["kaede"].status.conditions[0].tick == "turn-start"
    ok(engine, Tick(moment="turn-end", fighter_id="kaede"))
    ok(engine, Tick(moment="round-end"))
    assert conds(engine, "kaede") == [("Stunned", 2)]  # counted at turn starts only
    ok(engine, Tick(moment="turn-start", fighter_id="kaede"))
    assert (conds(engine, "kaede"), conds(engine, "brannock")) == ([("Stunned", 1)],
                                                                    [("Prone", 1)])
    entry = ok(engine, Tick(moment="turn-start", fighter_id="brannock"))
    assert conds(engine, "brannock") == []
    assert events(entry) == [("condition-off", "Brannock Vale is no longer prone",
                              {"name": "Prone"})]


def test_turn_end_and_round_end_ticks_chosen_by_the_gm() -> None:
    engine = turns_engine()
    ok(engine, c.AddCondition(fighter_id="kaede", name="Burning", duration="rounds", rounds=1,
                              tick="turn-end"))
    ok(engine, c.AddCondition(fighter_id="kaede", name="Slowed", duration="rounds", rounds=2,
                              tick="round-end"))
    ok(engine, Tick(moment="turn-start", fighter_id="kaede"))
    assert conds(engine, "kaede") == [("Burning", 1), ("Slowed", 2)]
    ok(engine, Tick(moment="turn-end", fighter_id="kaede"))
    assert conds(engine, "kaede") == [("Slowed", 2)]
    ok(engine, Tick(moment="round-end"))
    assert conds(engine, "kaede") == [("Slowed", 1)]


def test_until_the_end_of_someones_next_turn() -> None:
    """Imposed during Brannock's turn: that turn's end does not end it, the next one does;
    it sits on Kaede and is bound to Brannock's turn."""
    engine = turns_engine()
    ok(engine, Tick(moment="turn-start", fighter_id="brannock"))
    entry = ok(engine, c.AddCondition(fighter_id="kaede", name="Shoved",
                                      duration="until-turn-end", until_fighter="brannock",
                                      imposed_by="brannock"))
    assert events(entry)[0][1] == ("Kaede Moriyama is shoved (until end of Brannock Vale's "
                                   "next turn, from Brannock Vale)")
    assert shown(engine, "kaede") == ["Shoved · until end of Brannock Vale's next turn"]
    ok(engine, Tick(moment="turn-end", fighter_id="brannock"))
    ok(engine, Tick(moment="turn-end", fighter_id="kaede"))
    ok(engine, Tick(moment="round-end"))
    assert conds(engine, "kaede") == [("Shoved", None)]
    ok(engine, Tick(moment="turn-start", fighter_id="brannock"))
    assert shown(engine, "kaede") == ["Shoved · until end of Brannock Vale's turn"]
    entry = ok(engine, Tick(moment="turn-end", fighter_id="brannock"))
    assert conds(engine, "kaede") == []
    assert events(entry) == [("condition-off", "Kaede Moriyama is no longer shoved",
                              {"name": "Shoved"})]
    # undo everything: back to the start, and the log rebuilds each step
    while engine.undo():
        pass
    assert engine.encounter.model_dump(mode="json") == \
        engine.session.start.model_dump(mode="json")


def test_adding_the_same_name_again_starts_it_afresh() -> None:
    engine = turns_engine()
    ok(engine, c.AddCondition(fighter_id="kaede", name="Stunned", duration="rounds", rounds=1))
    entry = ok(engine, c.AddCondition(fighter_id="kaede", name="stunned", duration="rounds",
                                      rounds=3))
    assert conds(engine, "kaede") == [("stunned", 3)]
    assert events(entry)[0][:2] == ("note", "Kaede Moriyama is stunned again: now 3 rounds")


# --- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "words"), [
    (dict(fighter_id="nobody", name="Stunned"), "no fighter 'nobody'"),
    (dict(fighter_id="kaede", name="   "), "needs a name"),
    (dict(fighter_id="kaede", name="two\nlines"), "one line of plain text"),
    (dict(fighter_id="kaede", name="Dazed", duration="rounds"), "how many rounds"),
    (dict(fighter_id="kaede", name="Dazed", duration="until-turn-end"), "whose turn"),
    (dict(fighter_id="kaede", name="Dazed", duration="until-turn-end", until_fighter="ghost"),
     "no fighter 'ghost'"),
    (dict(fighter_id="kaede", name="Dazed", imposed_by="ghost"), "no fighter 'ghost'"),
])
def test_bad_conditions_are_refused_with_a_reason(command: dict[str, Any], words: str) -> None:
    engine = turns_engine()
    assert words in refused(engine, c.AddCondition(**command))
    assert not engine.session.log


def test_names_are_1_to_60_characters() -> None:
    c.AddCondition(fighter_id="kaede", name="x" * 60)
    with pytest.raises(ValueError):
        c.AddCondition(fighter_id="kaede", name="x" * 61)
    with pytest.raises(ValueError):
        c.AddCondition(fighter_id="kaede", name="")


def test_removing_what_is_not_there_is_refused() -> None:
    engine = turns_engine()
    assert "no condition number 1 (no conditions)" in refused(
        engine, c.RemoveCondition(fighter_id="kaede", index=0))
    ok(engine, c.AddCondition(fighter_id="kaede", name="Stunned"))
    assert "no condition number 2 (1 condition)" in refused(
        engine, c.RemoveCondition(fighter_id="kaede", index=1))


def test_a_rule_removes_by_name() -> None:
    engine = turns_engine()
    ok(engine, c.AddCondition(fighter_id="kaede", name="Stunned"))

    class Lift(Rules):
        condition_turns = True

        def handle(self, ctx: Context, command: c.Command) -> None:
            conditions.remove(ctx, "kaede", "STUNNED")

    engine.turns = Lift()  # type: ignore[assignment]
    ok(engine, Tick(moment="round-end"))
    assert conds(engine, "kaede") == []

    class Missing(Rules):
        def handle(self, ctx: Context, command: c.Command) -> None:
            conditions.remove(ctx, "kaede", "Prone")

    engine.turns = Missing()  # type: ignore[assignment]
    assert "Kaede Moriyama is not prone" in refused(engine, Tick(moment="round-end"))


def test_a_tick_at_a_turn_moment_names_the_fighter() -> None:
    engine = turns_engine()
    with pytest.raises(ValueError, match="name the fighter"):
        engine.apply(Tick(moment="turn-end"))
    with pytest.raises(ValueError, match="unknown moment"):
        engine.apply(Tick(moment="phase-end", fighter_id="kaede"))
    assert not engine.session.log


# --- files written before the durations ----------------------------------------------------


def test_older_conditions_load_as_they_were_meant() -> None:
    timed = Condition.model_validate({"name": "Stunned", "rounds_left": 2, "note": ""})
    plain = Condition.model_validate({"name": "Prone"})
    spent = Condition.model_validate({"name": "Dazed", "rounds_left": 0})
    assert (timed.duration, timed.rounds_left, timed.tick) == ("rounds", 2, "round-end")
    assert (plain.duration, plain.rounds_left) == ("until-removed", None)
    assert spent.duration == "until-removed"


# --- any sequence: undo, redo, rebuild ------------------------------------------------------

WHO = st.sampled_from(["kaede", "brannock"])
ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("add"), WHO, st.sampled_from(["Stunned", "Prone", "Shoved"]),
              st.sampled_from(["rounds", "until-turn-end", "until-removed"]),
              st.integers(1, 2), WHO,
              st.sampled_from([None, "turn-start", "turn-end", "round-end"])),
    st.tuples(st.just("remove"), WHO, st.integers(0, 2)),
    st.tuples(st.just("tick"), st.sampled_from(["turn-start", "turn-end"]), WHO),
    st.tuples(st.just("tick"), st.sampled_from(["turn-start", "turn-end"]), WHO),
    st.tuples(st.just("tick"), st.just("round-end"), st.none()),
    st.tuples(st.sampled_from(["undo", "redo"])),
), max_size=25)


@given(ACTIONS)
def test_any_sequence_undoes_redoes_and_rebuilds(script: list[tuple[Any, ...]]) -> None:
    engine = turns_engine()
    start = engine.encounter.model_dump(mode="json")
    for step in script:
        if step[0] == "undo":
            engine.undo()
        elif step[0] == "redo":
            engine.redo()
        elif step[0] == "add":
            _, who, name, duration, rounds, until, tick = step
            engine.apply(c.AddCondition(fighter_id=who, name=name, duration=duration,
                                        rounds=rounds, until_fighter=until, tick=tick))
        elif step[0] == "remove":
            engine.apply(c.RemoveCondition(fighter_id=step[1], index=step[2]))
        else:
            entry = ok(engine, Tick(moment=step[1], fighter_id=step[2]))
            ended = any(e.kind == "condition-off" for e in entry.events)
            event("a tick ended a condition" if ended else "a tick ended none")
        live = engine.encounter.model_dump(mode="json")
        assert engine.rebuild().model_dump(mode="json") == live
        for fighter in engine.encounter.fighters.values():
            for cond in fighter.status.conditions:
                assert cond.duration != "rounds" or (cond.rounds_left or 0) >= 1
    while engine.redo():
        pass
    end = engine.encounter.model_dump(mode="json")
    while engine.undo():
        pass
    assert engine.encounter.model_dump(mode="json") == start
    while engine.redo():
        pass
    assert engine.encounter.model_dump(mode="json") == end
    reloaded = Engine(Session.model_validate_json(engine.session.model_dump_json()))
    assert reloaded.encounter.model_dump(mode="json") == end


# --- a fighter who leaves the fight ---------------------------------------------------------

DEMOS = Path(__file__).resolve().parents[2] / "resources"


def turn_order_fight(demo: str) -> Engine:
    """A turn-order demo fight played by its autopilot to a turn with nothing waiting."""
    engine = Engine(load_session(DEMOS / demo))
    enc, rng = engine.encounter, Random(0)
    while not (enc.state.stage == "turns" and enc.state.roll is None
               and engine.pending() is None):
        command = engine.ruleset.autopilot.next_command(enc, rng)
        assert command is not None
        assert engine.apply(command).ok
    return engine


@pytest.mark.parametrize("demo", ["demo_d100.json", "demo_roll-under.json", "demo_ashes.json"])
def test_until_the_end_of_the_next_turn_of_one_who_leaves_ends_when_they_leave(
        demo: str) -> None:
    """"Until the end of X's next turn" with X removed: that turn never comes, so it ends
    at the removal, with a line naming who left (it lasted the rest of the fight); the
    same whether X's turn was going on (imposed during it: not yet armed) or not; undo
    puts it back with X (docs/rulesets/roll-under.md#removing-a-fighter)."""
    engine = turn_order_fight(demo)
    enc = engine.encounter
    current = current_fighter(enc.state.turns)
    assert current is not None
    others = [f for f in enc.order if f != current]
    waiting, early, bearer = others[0], others[1], others[-1]
    name = enc.name_of
    # A fighter before the bearer with a condition of its own (kept): every bearer is seen.
    ok(engine, c.AddCondition(fighter_id=early, name="Blinded"))
    ok(engine, c.AddCondition(fighter_id=bearer, name="Shoved", duration="until-turn-end",
                              until_fighter=waiting))
    ok(engine, c.AddCondition(fighter_id=bearer, name="Dazed", duration="until-turn-end",
                              until_fighter=current))
    ok(engine, c.AddCondition(fighter_id=bearer, name="Prone"))  # until removed: stays
    left = name(waiting)
    entry = ok(engine, c.RemoveFighter(fighter_id=waiting))
    assert ("condition-off", f"{name(bearer)} is no longer shoved ({left} has left the fight)",
            {"name": "Shoved"}) in events(entry)
    assert conds(engine, bearer) == [("Dazed", None), ("Prone", None)]
    engine.undo()
    assert conds(engine, bearer) == [("Shoved", None), ("Dazed", None), ("Prone", None)]
    engine.redo()
    # The one whose turn is going on leaves: the turn ends (Dazed was imposed during it,
    # so that turn's end alone would not end it), and the condition ends with them.
    left = name(current)
    entry = ok(engine, c.RemoveFighter(fighter_id=current))
    assert ("condition-off", f"{name(bearer)} is no longer dazed ({left} has left the fight)",
            {"name": "Dazed"}) in events(entry)
    assert conds(engine, bearer) == [("Prone", None)]
    assert conds(engine, early) == [("Blinded", None)]
