"""A player who rolls their own dice is asked for each roll the rules make for them on
the stack and at the round's end (Stunning Shout, breaking free, recovery): the typed
faces are the ones counted, "-" (no faces) lets the app roll, and faces typed with the
command leave nothing to ask."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.street_fighter import commands as sf

from .helpers import (
    BEAR_HUG,
    SHOUT,
    answer,
    begin,
    fighter,
    make_engine,
    ok,
    pending,
    refused,
    same_as_rebuild,
    st,
    texts,
)


def own(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "rolls_own_dice": True}


def _rolls(engine: Engine, purpose: str) -> list[tuple[str, list[int], str, str]]:
    return [(ev.roll.who, ev.roll.faces, ev.roll.source, ev.roll.outcome)
            for e in engine.session.log for ev in e.events
            if ev.roll is not None and ev.roll.purpose.startswith(purpose)]


def _shout_at_toms_fierce(*, sid_own: bool, tom_own: bool) -> Engine:
    """Tom's Fierce (speed 5) on the stack; Sid interrupts with a Stunning Shout at 7:
    Wits 3 + Focus 2 = 5 dice against Tom's Willpower 2 (docs/rulesets/street-fighter.md
    #stunning-shout). Tom has 3 EP."""
    tom = fighter("tom", wits=1, willpower=2, intelligence=3)
    sid = fighter("sid", wits=3, focus=2, maneuvers=[SHOUT])
    eng = make_engine(own(tom) if tom_own else tom, own(sid) if sid_own else sid)
    begin(eng, [[6, 1], [6, 1]])
    ok(eng, sf.Act(fighter_id="tom", maneuver="Fierce", target_id="sid"))
    ok(eng, sf.Interrupt(fighter_id="sid", maneuver="Stunning Shout", target_id="tom",
                         ep_speed=1))
    assert st(eng, "tom").ep == 3
    return eng


def test_both_players_of_a_stunning_shout_are_asked_and_their_faces_count() -> None:
    """Sid's player rolls the shout: 6, 6, 2, 2, 2 -> 2 successes; Tom's player rolls
    Willpower: 10, 1 -> 1 - 1 = 0 (1s cancel). Net 2: the Fierce is lost and 1 EP."""
    eng = _shout_at_toms_fierce(sid_own=True, tom_own=True)
    ok(eng, sf.ResolveNext())
    asked = pending(eng)
    assert asked.prompt == "Sid: roll the Stunning Shout at Tom (5d10)"
    assert asked.dice_needed == "5d10" and [ch.id for ch in asked.choices] == ["roll"]
    assert not _rolls(eng, "Stunning Shout")
    answer(eng, choice="roll", dice=[[6, 6, 2, 2, 2]], expect="shout-sid")
    assert _rolls(eng, "Stunning Shout") == [("Sid", [6, 6, 2, 2, 2], "typed", "2 successes")]
    asked = pending(eng)
    assert asked.prompt == "Tom: roll Willpower against Sid's Stunning Shout (2d10)"
    assert asked.dice_needed == "2d10"
    entry = answer(eng, choice="roll", dice=[[10, 1]], expect="shout-resist-tom")
    assert _rolls(eng, "Willpower against the shout") == [
        ("Tom", [10, 1], "typed", "0 successes")]
    assert "Tom's Fierce is lost (Stunning Shout)" in texts(entry)
    assert st(eng, "tom").ep == 2
    assert eng.pending() is None and not eng.encounter.state.stack


def test_a_shout_at_a_player_asks_only_the_target_and_dash_lets_the_app_roll() -> None:
    """Only Tom's player rolls their own dice: Sid's shout is the app's, Tom is asked;
    answered with no faces ("-"), the app rolls Tom's Willpower too."""
    eng = _shout_at_toms_fierce(sid_own=False, tom_own=True)
    ok(eng, sf.ResolveNext())
    assert [r[2] for r in _rolls(eng, "Stunning Shout")] == ["app"]
    assert pending(eng).prompt == "Tom: roll Willpower against Sid's Stunning Shout (2d10)"
    answer(eng, choice="roll", expect="shout-resist-tom")
    assert [r[2] for r in _rolls(eng, "Willpower against the shout")] == ["app"]
    assert eng.pending() is None


def test_faces_typed_with_the_resolve_leave_no_shout_question() -> None:
    """Both rolls typed with Resolve (the shout's, then Tom's): nobody is asked."""
    eng = _shout_at_toms_fierce(sid_own=True, tom_own=True)
    entry = ok(eng, sf.ResolveNext(dice=[[6, 6, 6, 2, 2], [2, 3]]))
    assert eng.pending() is None
    assert "Tom's Fierce is lost (Stunning Shout)" in texts(entry)
    assert st(eng, "tom").ep == 1


def _vic_held_by_hal(*, vic_own: bool, hal_own: bool) -> Engine:
    """Hal (Strength 3) holds Vic (Strength 2) in a Bear Hug; phase 7, Vic's die: he
    declares breaking free (docs/rulesets/street-fighter.md#breaking-free)."""
    hal = fighter("hal", wits=1, dexterity=3, strength=3, grab=2, intelligence=0,
                  maneuvers=[BEAR_HUG])
    vic = fighter("vic", wits=3, dexterity=2, intelligence=0)
    eng = make_engine(own(hal) if hal_own else hal, own(vic) if vic_own else vic)
    begin(eng, [[8, 6, 4], [7, 5]])
    ok(eng, sf.Act(fighter_id="hal", maneuver="Bear Hug", target_id="vic"))
    ok(eng, sf.ResolveNext(dice=[[6, 2, 2, 2, 2]]))
    assert st(eng, "hal").holding is not None
    ok(eng, c.NextStep())
    ok(eng, sf.Act(fighter_id="vic", action="break-free"))
    return eng


def test_both_players_of_a_break_free_are_asked_and_their_faces_count() -> None:
    """Vic's player rolls Strength: 9, 8 -> 2; Hal's player: 7, 1, 2 -> 1 - 1 = 0. Vic
    wins by 2 and is free."""
    eng = _vic_held_by_hal(vic_own=True, hal_own=True)
    ok(eng, sf.ResolveNext())
    assert pending(eng).prompt == "Vic: roll Strength to break free of Hal's Bear Hug (2d10)"
    assert not _rolls(eng, "breaking free")
    answer(eng, choice="roll", dice=[[9, 8]], expect="break-free-vic")
    assert pending(eng).prompt == "Hal: roll Strength to keep Vic in the Bear Hug (3d10)"
    entry = answer(eng, choice="roll", dice=[[7, 1, 2]], expect="break-free-resist-hal")
    assert _rolls(eng, "breaking free (Strength)") == [("Vic", [9, 8], "typed", "2 successes")]
    assert _rolls(eng, "keeping the hold (Strength)") == [
        ("Hal", [7, 1, 2], "typed", "0 successes")]
    assert "Vic breaks free of Hal's Bear Hug" in texts(entry)
    assert st(eng, "hal").holding is None
    assert eng.pending() is None and not eng.encounter.state.stack


def test_a_held_player_is_asked_and_a_tie_keeps_the_hold() -> None:
    """Only Vic's player rolls their own dice: Vic is asked (6, 2 -> 1), Hal's roll is
    the app's (seeded: 3, 3, 7 -> 1); the two faces typed in one answer do not spill into
    Hal's roll. A tie keeps the hold."""
    eng = _vic_held_by_hal(vic_own=True, hal_own=False)
    ok(eng, sf.ResolveNext())
    answer(eng, choice="roll", dice=[[6, 2]], expect="break-free-vic")
    assert _rolls(eng, "breaking free (Strength)") == [("Vic", [6, 2], "typed", "1 success")]
    assert _rolls(eng, "keeping the hold (Strength)") == [("Hal", [3, 3, 7], "app", "1 success")]
    assert st(eng, "hal").holding is not None
    assert "Vic fails to break free" in [ev.text for e in eng.session.log for ev in e.events]
    assert eng.pending() is None


def test_breaking_free_without_the_opposed_roll_asks_nobody() -> None:
    """With ``break_free_opposed_strength`` off it always works: no roll, no question."""
    hal = fighter("hal", wits=1, dexterity=3, strength=3, grab=2, intelligence=0,
                  maneuvers=[BEAR_HUG])
    eng = make_engine(own(hal), own(fighter("vic", wits=3, dexterity=2, intelligence=0)),
                      options={"break_free_opposed_strength": False})
    begin(eng, [[8, 6, 4], [7, 5]])
    ok(eng, sf.Act(fighter_id="hal", maneuver="Bear Hug", target_id="vic"))
    ok(eng, sf.ResolveNext(dice=[[6, 2, 2, 2, 2]]))
    ok(eng, c.NextStep())
    ok(eng, sf.Act(fighter_id="vic", action="break-free"))
    entry = ok(eng, sf.ResolveNext())
    assert eng.pending() is None and not _rolls(eng, "breaking free")
    assert "Vic breaks free of Hal's Bear Hug" in texts(entry)


def _rin_recovering(*, rin_own: bool) -> Engine:
    """Rin recovers chi (2 of 4 down) from before round 1; the round ends."""
    rin = fighter("rin", dexterity=1, intelligence=0, chi=4, status={"chi": 2})
    eng = make_engine(own(rin) if rin_own else rin)
    ok(eng, c.StartFight())
    ok(eng, sf.StartRecovery(fighter_id="rin", pool="chi"))
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[9]]))
    ok(eng, c.EndRound())
    return eng


def test_a_player_types_the_recovery_roll_at_the_question_that_asks_to_roll() -> None:
    """docs/rulesets/street-fighter.md#recovery: one question, roll now or keep going; the
    player's faces are typed there: 9, 8 at TN 8 -> 2, chi 2 -> 4 (the app's seeded
    faces for this fight would give less)."""
    eng = _rin_recovering(rin_own=True)
    asked = pending(eng)
    assert asked.prompt == ("Rin has recovered chi for 1 round: roll the 2d10 now (TN 8) or "
                            "keep recovering?")
    assert asked.dice_needed == "2d10"
    answer(eng, choice="roll", dice=[[9, 8]], expect="recover-rin")
    assert _rolls(eng, "chi recovery") == [("Rin", [9, 8], "typed", "2 successes")]
    assert st(eng, "rin").chi == 4


def test_an_hour_of_recovery_asks_for_no_dice() -> None:
    """An hour (60 rounds of 60 s) regains everything without a roll: the question has no
    dice to type."""
    recovery = {"pool": "chi", "full_rounds": 59, "whole_round": True}
    rin = own(fighter("rin", dexterity=1, intelligence=0, chi=4,
                      status={"chi": 2, "recovery": recovery}))
    eng = make_engine(rin, options={"seconds_per_round": 60})
    ok(eng, c.StartFight())
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[9]]))
    ok(eng, c.EndRound())
    asked = pending(eng)
    assert asked.dice_needed == ""
    assert asked.prompt == ("Rin has recovered chi for 60 rounds: stop now (all regained) or "
                            "keep recovering?")
    answer(eng, choice="roll", expect="recover-rin")
    assert st(eng, "rin").chi == 4 and not _rolls(eng, "chi recovery")


def _ivo_intimidates_tom(*, ivo_own: bool, tom_own: bool, action: str = "Intimidate") -> Engine:
    """Ivo (Charisma 2 + Intimidation 2, Manipulation 2 + Subterfuge 2) acts at his 6 on
    Tom (Willpower 3, Wits 3 + Insight 0, 3 EP) (docs/rulesets/street-fighter.md
    #intimidation-and-deception)."""
    ivo = fighter("ivo", wits=1, charisma=2, intimidation=2, subterfuge=2, dexterity=1)
    tom = fighter("tom", wits=3, willpower=3, intelligence=3, dexterity=1)
    eng = make_engine(own(ivo) if ivo_own else ivo, own(tom) if tom_own else tom)
    begin(eng, [[6], [2]])
    command = sf.Intimidate if action == "Intimidate" else sf.Deceive
    ok(eng, command(fighter_id="ivo", target_id="tom"))
    assert st(eng, "tom").ep == 3
    return eng


def test_an_intimidating_player_is_asked_then_the_target_player() -> None:
    """Ivo's player rolls 9, 9, 9, 1 -> 3 - 1 = 2; Tom's player rolls 6, 1, 1 -> 0: Tom
    loses 2 EP."""
    eng = _ivo_intimidates_tom(ivo_own=True, tom_own=True)
    ok(eng, sf.ResolveNext())
    assert pending(eng).prompt == "Ivo: roll Charisma + Intimidation to intimidate Tom (4d10)"
    assert not _rolls(eng, "intimidation")
    answer(eng, choice="roll", dice=[[9, 9, 9, 1]], expect="intimidate-ivo")
    assert _rolls(eng, "intimidation") == [("Ivo", [9, 9, 9, 1], "typed", "2 successes")]
    assert pending(eng).prompt == "Tom: roll Willpower against intimidation by Ivo (3d10)"
    answer(eng, choice="roll", dice=[[6, 1, 1]], expect="resist-intimidate-tom")
    assert _rolls(eng, "Willpower against intimidation") == [
        ("Tom", [6, 1, 1], "typed", "0 successes")]
    assert st(eng, "tom").ep == 1
    assert eng.pending() is None and not eng.encounter.state.stack


def test_a_deceiving_player_is_asked_and_the_target_is_the_apps() -> None:
    """Only Ivo's player rolls their own dice: he is asked (10, 10, 10, 10 -> 4); Tom's
    Wits + Insight is the app's (seeded: 3, 3, 7 -> 1). Net 3: Tom loses his 3 EP."""
    eng = _ivo_intimidates_tom(ivo_own=True, tom_own=False, action="Deceive")
    ok(eng, sf.ResolveNext())
    assert pending(eng).prompt == "Ivo: roll Manipulation + Subterfuge to deceive Tom (4d10)"
    answer(eng, choice="roll", dice=[[10, 10, 10, 10]], expect="deceive-ivo")
    assert _rolls(eng, "deception") == [("Ivo", [10, 10, 10, 10], "typed", "4 successes")]
    assert _rolls(eng, "Wits + Insight against deception") == [
        ("Tom", [3, 3, 7], "app", "1 success")]
    assert st(eng, "tom").ep == 0
    assert eng.pending() is None and not eng.encounter.state.stack


def test_the_autopilot_lets_the_app_roll_what_a_player_is_asked() -> None:
    """docs/rulesets/street-fighter.md#autopilot: each side's question is answered "roll"
    with no faces, so the app rolls both and the stack closes."""
    import random

    from fightdesk.engine.rulesets.street_fighter.autopilot import autopilot

    for setup in (lambda: _shout_at_toms_fierce(sid_own=True, tom_own=True),
                  lambda: _vic_held_by_hal(vic_own=True, hal_own=True),
                  lambda: _ivo_intimidates_tom(ivo_own=True, tom_own=True)):
        eng = setup()
        ok(eng, sf.ResolveNext())
        asked = 0
        while eng.pending() is not None:
            command = autopilot(eng.encounter, random.Random(0))
            assert isinstance(command, c.Answer) and command.choice == "roll"
            assert not command.dice
            ok(eng, command)
            asked += 1
        assert asked == 2 and not eng.encounter.state.stack
        sources = [ev.roll.source for e in eng.session.log for ev in e.events
                   if ev.roll is not None and ev.roll.purpose != "action dice"]
        assert sources[-2:] == ["app", "app"]


# --- the acting-order roll-off (docs/rulesets/street-fighter.md#acting-order) -------------


def _tied_in_phase_7(*players: str, app: tuple[str, ...] = ()) -> Engine:
    """Fighters with the same Wits, Perception and Dexterity (2, 2, 2), each with a 7 and a
    lower die; ``players`` roll their own dice, ``app`` are the app's. The action dice are
    typed, so phase 7 is entered at once with its roll-off."""
    fighters = [own(fighter(fid)) for fid in players] + [fighter(fid) for fid in app]
    eng = make_engine(*fighters)
    begin(eng, [[7, 1 + n] for n in range(len(fighters))])
    assert eng.encounter.state.phase == 7
    return eng


def test_a_player_in_a_roll_off_is_asked_and_the_typed_face_counts() -> None:
    """Kaede's player rolls her own dice, Tom's d10 is the app's (seeded: 3). Nobody acts
    while the question waits; her typed 9 puts Tom first, a typed 1 would put her first."""
    from fightdesk.engine.rulesets.street_fighter.round import current_actor

    for typed, first in ((9, "tom"), (1, "kaede")):
        eng = _tied_in_phase_7("kaede", app=("tom",))
        asked = pending(eng)
        assert asked.prompt == ("Kaede: roll a d10 for the acting order in phase 7 (lower goes "
                                "first; Tom rolled 3)")
        assert asked.dice_needed == "1d10" and [ch.id for ch in asked.choices] == ["roll"]
        assert _rolls(eng, "acting-order roll-off") == [("Tom", [3], "app", "")]
        assert current_actor(eng.encounter) is None
        refused(eng, sf.PassDie(fighter_id="tom"))
        entry = answer(eng, choice="roll", dice=[[typed]], expect="roll-off")
        assert _rolls(eng, "acting-order roll-off") == [("Tom", [3], "app", ""),
                                                        ("Kaede", [typed], "typed", "")]
        assert texts(entry, "decision") == [f"Kaede rolls {typed} for the acting order in "
                                            "phase 7"]
        order = "Tom, Kaede" if first == "tom" else "Kaede, Tom"
        assert f"Acting-order roll-off: {order}" in texts(entry)
        assert current_actor(eng.encounter) == first and eng.pending() is None


def test_players_still_tied_are_asked_again_and_the_re_roll_decides() -> None:
    """Kaede's and Tom's players both roll their own dice: one question for both. Typed
    4 and 4, they are still tied and asked again (a re-roll); 6 and 2 put Tom first."""
    from fightdesk.engine.rulesets.street_fighter.round import current_actor

    eng = _tied_in_phase_7("kaede", "tom")
    asked = pending(eng)
    assert asked.prompt == ("Kaede and Tom: roll a d10 each for the acting order in phase 7 "
                            "(lower goes first)")
    assert asked.dice_needed == "1d10 each (Kaede, Tom)"
    assert not _rolls(eng, "acting-order roll-off")
    answer(eng, choice="roll", dice=[[4, 4]], expect="roll-off")
    again = pending(eng)
    assert again.id != asked.id
    assert again.prompt == ("Kaede and Tom: roll again a d10 each for the acting order in "
                            "phase 7 (lower goes first)")
    assert current_actor(eng.encounter) is None
    entry = answer(eng, choice="roll", dice=[[6], [2]], expect="roll-off")
    assert _rolls(eng, "acting-order roll-off") == [
        ("Kaede", [4], "typed", ""), ("Tom", [4], "typed", ""),
        ("Kaede", [6], "typed", ""), ("Tom", [2], "typed", "")]
    assert [r[0] for r in _rolls(eng, "acting-order roll-off (re-roll)")] == ["Kaede", "Tom"]
    assert "Acting-order roll-off: Tom, Kaede" in texts(entry)
    assert eng.encounter.state.rolloff == {"tom": 1, "kaede": 2}
    assert current_actor(eng.encounter) == "tom" and eng.pending() is None


def test_a_roll_off_of_the_apps_fighters_asks_nobody() -> None:
    """Nobody in the tie rolls their own dice (Kaede, who does, has a die elsewhere): the
    app rolls the roll-off at once, as before, and nobody is asked."""
    eng = make_engine(own(fighter("kaede", wits=1)), fighter("tom"), fighter("sam"))
    begin(eng, [[7, 2], [7, 5], [7, 4]])
    assert eng.pending() is None
    rolls = _rolls(eng, "acting-order roll-off")
    assert [r[0] for r in rolls[:2]] == ["Tom", "Sam"] and {r[2] for r in rolls} == {"app"}
    assert {r[0] for r in rolls} == {"Tom", "Sam"}
    assert set(eng.encounter.state.rolloff) == {"tom", "sam"}


def test_a_roll_off_answered_with_no_faces_is_the_apps_and_a_gone_player_drops_out() -> None:
    """"-" (no faces) lets the app roll the asked die: seeded, Kaede's 3 ties Tom's 3, so
    Tom's re-roll is the app's (7) and Kaede's player is asked again; a player who left
    the fight while the question waits drops out of the roll-off, the others roll on."""
    eng = _tied_in_phase_7("kaede", app=("tom",))
    answer(eng, choice="roll", expect="roll-off")
    assert _rolls(eng, "acting-order roll-off") == [
        ("Tom", [3], "app", ""), ("Kaede", [3], "app", ""), ("Tom", [7], "app", "")]
    assert pending(eng).prompt == ("Kaede: roll again a d10 for the acting order in phase 7 "
                                   "(lower goes first; Tom rolled 7)")
    answer(eng, choice="roll", dice=[[8]], expect="roll-off")
    assert _rolls(eng, "acting-order roll-off (re-roll)")[-1] == ("Kaede", [8], "typed", "")
    assert eng.pending() is None and eng.encounter.state.rolloff == {"tom": 1, "kaede": 2}
    assert same_as_rebuild(eng)

    eng = _tied_in_phase_7("kaede", "tom", app=("sam",))
    ok(eng, c.RemoveFighter(fighter_id="kaede"))
    entry = answer(eng, choice="roll", dice=[[5]], expect="roll-off")
    assert ("Tom", [5], "typed", "") in _rolls(eng, "acting-order roll-off")
    assert any(t.startswith("Acting-order roll-off: ") for t in texts(entry))
    assert eng.pending() is None and set(eng.encounter.state.rolloff) == {"tom", "sam"}


def test_the_autopilot_lets_the_app_roll_a_players_roll_off_die() -> None:
    """docs/rulesets/street-fighter.md#autopilot: the roll-off question is answered "roll"
    with no faces, as many times as the players stay tied."""
    import random

    from fightdesk.engine.rulesets.street_fighter.autopilot import autopilot
    from fightdesk.engine.rulesets.street_fighter.round import current_actor

    eng = _tied_in_phase_7("kaede", "tom")
    asked = 0
    while eng.pending() is not None:
        command = autopilot(eng.encounter, random.Random(0))
        assert isinstance(command, c.Answer) and command.choice == "roll" and not command.dice
        ok(eng, command)
        asked += 1
    assert asked >= 1 and current_actor(eng.encounter) in ("kaede", "tom")
    assert {r[2] for r in _rolls(eng, "acting-order roll-off")} == {"app"}


def test_a_players_answered_roll_says_what_was_rolled_for_what() -> None:
    """The answer's line is the roll it made, not the "Roll" chosen: the log dock shows
    "Tom rolls 2d10 for Willpower against the shout (TN 6): 0 successes" (a summary the
    rules already wrote, as Sid's with Tom asked next, stays)."""
    eng = _shout_at_toms_fierce(sid_own=True, tom_own=True)
    ok(eng, sf.ResolveNext())
    entry = answer(eng, choice="roll", dice=[[6, 6, 2, 2, 2]], expect="shout-sid")
    assert entry.summary == "Sid: 2 successes; Tom rolls against it"
    assert texts(entry, "decision") == ["Sid rolls 5d10 for Stunning Shout (TN 6): 2 successes"]
    entry = answer(eng, choice="roll", dice=[[10, 1]], expect="shout-resist-tom")
    said = "Tom rolls 2d10 for Willpower against the shout (TN 6): 0 successes"
    assert entry.summary == said and texts(entry, "decision") == [said]
    eng = make_engine(own(fighter("kaede")), fighter("tom"))
    ok(eng, c.StartFight())
    ok(eng, c.StartRound())
    ok(eng, c.NextStep())
    entry = answer(eng, choice="roll", dice=[[9, 4]], expect="action-dice-kaede")
    assert texts(entry, "decision") == ["Kaede rolls 2d10 for action dice: phases 9, 4"]


def test_roll_off_faces_typed_with_the_command_leave_nothing_to_ask() -> None:
    """The GM types the roll-off dice after the action dice, with "Roll action dice":
    Kaede's 6 and Tom's 4 are taken in the fight's order, nobody is asked, Tom goes
    first."""
    from fightdesk.engine.rulesets.street_fighter.round import current_actor

    eng = make_engine(own(fighter("kaede")), own(fighter("tom")))
    begin(eng, [[7, 1], [7, 2], [6], [4]])
    assert eng.pending() is None
    assert _rolls(eng, "acting-order roll-off") == [("Kaede", [6], "typed", ""),
                                                    ("Tom", [4], "typed", "")]
    assert current_actor(eng.encounter) == "tom"


def test_players_who_leave_a_roll_off_question_leave_the_rest_to_be_asked() -> None:
    """Four players tied: 1 1 5 5 leaves Ann and Bea tied first, Cal and Dan tied after
    them. Ann and Bea are asked again, then both leave the fight: the answer rolls
    nothing for them, and Cal and Dan are asked for their re-roll (not rolled unseen)."""
    eng = _tied_in_phase_7("ann", "bea", "cal", "dan")
    answer(eng, choice="roll", dice=[[1, 1, 5, 5]], expect="roll-off")
    assert pending(eng).prompt.startswith("Ann and Bea: roll again ")
    ok(eng, c.RemoveFighter(fighter_id="ann"))
    ok(eng, c.RemoveFighter(fighter_id="bea"))
    entry = answer(eng, choice="roll", expect="roll-off")
    assert entry.summary == "The roll-off goes on: the players asked have left the fight"
    assert pending(eng).prompt.startswith("Cal and Dan: roll again ")
    assert len(_rolls(eng, "acting-order roll-off")) == 4
    answer(eng, choice="roll", dice=[[9, 2]], expect="roll-off")
    assert eng.encounter.state.rolloff == {"dan": 1, "cal": 2} and eng.pending() is None


@settings(max_examples=40, deadline=None)
@given(players=hs.integers(2, 4), data=hs.data())
def test_a_players_roll_off_always_ends_in_an_order_the_typed_faces_give(
        players: int, data: hs.DataObject) -> None:
    """Whatever the players type (ties included), a re-roll asks only fighters whose last
    faces tied, and takes the typed faces; the roll-off ends with each fighter placed
    once, and of two fighters the one whose first face was lower goes first."""
    ids = ["ann", "bea", "cal", "dan"][:players]
    eng = _tied_in_phase_7(*ids)
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for n in range(30):
        decision = eng.pending()
        if decision is None:
            break
        asked = [fid for fid in ids if fid.title() in decision.prompt.split(":")[0]]
        assert len(asked) >= 2 and (n == 0 or len({last[fid] for fid in asked}) == 1)
        faces = data.draw(hs.lists(hs.integers(1, 10), min_size=len(asked),
                                   max_size=len(asked)))
        answer(eng, choice="roll", dice=[[f] for f in faces], expect="roll-off")
        for fid, face in zip(asked, faces, strict=True):
            first.setdefault(fid, face)
            last[fid] = face
    if eng.pending() is not None:  # still tied after 30 typed rolls: the app rolls on
        while eng.pending() is not None:
            answer(eng, choice="roll", expect="roll-off")
    ranks = eng.encounter.state.rolloff
    assert sorted(ranks.values()) == list(range(1, players + 1)) and set(ranks) == set(ids)
    for a in first:
        for b in first:
            if first[a] < first[b]:
                assert ranks[a] < ranks[b], (first, ranks)
