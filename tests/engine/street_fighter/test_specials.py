"""Special rules: concentration, recovery, intimidation, deception, stunning shout,
sustained holds, lasting maneuver effects, and the GM's maneuver edits."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.street_fighter import catalogue as catalogue_module
from fightdesk.engine.rulesets.street_fighter import commands as sf
from fightdesk.engine.rulesets.street_fighter.catalogue import CatalogueProblem, load_catalogue
from fightdesk.engine.rulesets.street_fighter.model import Maneuver
from fightdesk.engine.rulesets.street_fighter.specials import recovery_tn

from .helpers import (
    answer,
    begin,
    fighter,
    make_engine,
    ok,
    pending,
    refused,
    st,
    texts,
)

BEAR_HUG = {"name": "Bear Hug", "technique": "grab", "speed": -1, "damage": 2, "hold": True}
TELEPORT = {"name": "Teleport", "special": "teleport", "technique": "focus", "no_damage": True}
YOGA_FLAME = {"name": "Yoga Flame", "special": "yoga-flame", "technique": "focus",
              "speed": -1, "damage": 3}
FLAME_FIST = {"name": "Flame Fist", "special": "flame-fist", "technique": "focus",
              "no_damage": True, "effect_damage": 1}
SHOUT = {"name": "Stunning Shout", "special": "stunning-shout", "technique": "focus",
         "speed": -1, "no_damage": True, "shout_pool": ["wits", "focus"]}


def test_concentration_then_recovery_at_round_end_both_at_plus_two() -> None:
    # docs/rulesets/street-fighter.md#recovery; the text: "Concentration rolls are made
    # before recovery rolls at the end of the round, and concentration does count as an
    # action, meaning the +2 is added to both concentration and recovery if both are done."
    # Rin (Perception 3, Style Lore 2) recovers chi from before round 1 (3 points down) and
    # concentrates (Find Weakness, TN 7) on her 6. End of round: Find Weakness 5 dice at TN
    # 7 + 2 = 9: 9, 10, 8, 1, 3 -> 2 successes - one 1 = 1 EP. Then recovery after one full
    # round: TN 8 + 2 (she did something) = 10: 10, 9, 1 -> 1 (1s ignored): chi 2 -> 3.
    eng = make_engine(fighter("rin", perception=3, style_lore=2, dexterity=1, intelligence=0,
                              chi=5, status={"chi": 2}))
    ok(eng, c.StartFight())
    ok(eng, sf.StartRecovery(fighter_id="rin", pool="chi"))
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[6]]))
    ok(eng, sf.Concentrate(fighter_id="rin", concentration="find-weakness", tn=7))
    ok(eng, sf.ResolveNext())
    assert st(eng, "rin").concentration is not None
    entry = ok(eng, c.NextStep(dice=[[9, 10, 8, 1, 3]]))
    rolls = [e.roll for e in entry.events if e.roll is not None]
    assert rolls[0].purpose == "Find Weakness (TN 9)"
    assert st(eng, "rin").ep == 1
    decision = pending(eng)
    assert [ch.id for ch in decision.choices] == ["roll", "continue"]
    assert "TN 10" in decision.prompt
    answer(eng, choice="roll", expect="recover-rin", dice=[[10, 9, 1]])
    assert st(eng, "rin").chi == 3 and st(eng, "rin").recovery is None
    assert eng.encounter.state.stage == "round-over"


def test_concentration_raises_other_rolls_but_not_its_own() -> None:
    # docs/rulesets/street-fighter.md#concentration; the text: "During a round they are
    # concentrating, all Target Numbers for the concentrating fighter are at +2 due to the
    # distraction, though this +2 does not apply to the concentration roll at the end."
    # Rin's Jab after concentrating rolls at TN 8: a 7 misses. Find an Angle in an open
    # arena: TN 8 (Perception 3 + Arena 2): 8, 8, 7, 2, 3 -> 2 EP.
    eng = make_engine(fighter("rin", wits=1, perception=3, arena=2, dexterity=2,
                              intelligence=0),
                      fighter("tom", wits=3, dexterity=1, intelligence=0))
    begin(eng, [[6, 4], [1]])
    ok(eng, sf.Concentrate(fighter_id="rin", concentration="find-angle"))
    ok(eng, sf.ResolveNext())
    ok(eng, c.NextStep())  # phase 4
    ok(eng, sf.Act(fighter_id="rin", maneuver="Jab", target_id="tom"))
    entry = ok(eng, sf.ResolveNext(dice=[[7]]))
    assert [e.roll.purpose for e in entry.events if e.roll] == ["damage (Jab, TN 8)"]
    assert st(eng, "tom").health == 10
    ok(eng, c.NextStep())  # phase 1
    ok(eng, c.NextStep())  # Tom lets his 1 go: hold, EP or lost?
    answer(eng, choice="lose")
    ok(eng, c.NextStep(dice=[[8, 8, 7, 2, 3]]))
    assert st(eng, "rin").ep == 2


def test_fight_start_concentration_is_rolled_at_once() -> None:
    # docs/rulesets/street-fighter.md#fight-start; the text: "At the beginning of a
    # tournament fight ... a fighter may concentrate"; Power Up: "Roll Perception + Insight.
    # TN is 10 minus Focus."  Perception 3 + Insight 2 at TN 10 - 3 = 7: 7, 8, 1, 2, 3 -> 2
    # - 1 = 1 EP; then round 1 adds Intelligence 2.
    eng = make_engine(fighter("rin", perception=3, insight=2, focus=3, intelligence=2),
                      fighter("tom"))
    ok(eng, c.StartFight())
    ok(eng, sf.Concentrate(fighter_id="rin", concentration="power-up", dice=[[7, 8, 1, 2, 3]]))
    assert st(eng, "rin").ep == 1
    error = refused(eng, sf.Intimidate(fighter_id="rin", target_id="tom"))
    assert "already concentrated, intimidated or deceived" in error
    ok(eng, c.StartRound())
    assert st(eng, "rin").ep == 3


def test_intimidation_during_the_round_costs_the_target_ep() -> None:
    # docs/rulesets/street-fighter.md#intimidation-and-deception; the text: "Roll Charisma +
    # Intimidation versus the target's willpower. If the intimidator wins, each success over
    # the opponent causes the opponent to lose 1 EP."  Ivo: Charisma 3 + Intimidation 2 = 5
    # dice: 6, 7, 8, 2, 2 -> 3. Tom's Willpower 4: 6, 2, 2, 2 -> 1. Net 2: Tom loses 2 of
    # his 3 EP.
    eng = make_engine(fighter("ivo", wits=1, charisma=3, intimidation=2, dexterity=1),
                      fighter("tom", wits=3, willpower=4, intelligence=3, dexterity=1))
    begin(eng, [[6], [2]])
    ok(eng, sf.Intimidate(fighter_id="ivo", target_id="tom"))
    entry = ok(eng, sf.ResolveNext(dice=[[6, 7, 8, 2, 2], [6, 2, 2, 2]]))
    assert "Tom loses 2 EP (intimidated by Ivo)" in texts(entry)
    assert st(eng, "tom").ep == 1


def test_fight_start_deception_comes_off_the_round_one_gain() -> None:
    # docs/rulesets/street-fighter.md#intimidation-and-deception; the text: "Roll
    # Manipulation + Subterfuge versus the target's Wits + Insight." Before round 1 Tom has
    # no EP yet; the 1 net success comes off his round-1 gain. Dee: 2 + 2 = 4 dice: 6, 6, 3,
    # 3 -> 2. Tom: Wits 2 + Insight 1 = 3: 6, 2, 2 -> 1.
    eng = make_engine(fighter("dee", manipulation=2, subterfuge=2),
                      fighter("tom", insight=1, intelligence=3))
    ok(eng, c.StartFight())
    ok(eng, sf.Deceive(fighter_id="dee", target_id="tom", dice=[[6, 6, 3, 3], [6, 2, 2]]))
    assert st(eng, "tom").ep_debt == 1
    ok(eng, c.StartRound())
    assert st(eng, "tom").ep == 2 and st(eng, "tom").ep_debt == 0


def test_stunning_shout_costs_the_pending_move_then_ep() -> None:
    # docs/rulesets/street-fighter.md#stunning-shout; the text: "Stunning Shout: The first
    # success above the target makes them lose their highest action die (or interrupted
    # action). Each additional success causes the loss of 1 EP."  Tom's Fierce (6 - 1 = 5);
    # Sid shouts on his 6 with 1 EP (6 - 1 + 2 = 7): Wits 3 + Focus 2 = 5 dice: 6, 6, 6, 2,
    # 2 -> 3; Tom's Willpower 2: 2, 3 -> 0. Net 3: the Fierce is lost, and 2 EP.
    eng = make_engine(fighter("tom", wits=1, willpower=2, intelligence=3),
                      fighter("sid", wits=3, focus=2, maneuvers=[SHOUT]))
    begin(eng, [[6, 1], [6, 1]])
    ok(eng, sf.Act(fighter_id="tom", maneuver="Fierce", target_id="sid"))
    ok(eng, sf.Interrupt(fighter_id="sid", maneuver="Stunning Shout", target_id="tom",
                         ep_speed=1))
    entry = ok(eng, sf.ResolveNext(dice=[[6, 6, 6, 2, 2], [2, 3]]))
    assert "Tom's Fierce is lost (Stunning Shout)" in texts(entry)
    assert st(eng, "tom").ep == 1


def test_sustained_hold_damage_break_free_and_the_grab_limit() -> None:
    # docs/rulesets/street-fighter.md#sustained-holds: damage "when one of their action dice
    # comes up. This may not be done as an interrupt, and has speed equal to that of the
    # hold. Someone in a sustained hold may attempt to break free when one of their actions
    # comes up. This MAY be done as an interrupt, and has a speed of +0."
    eng = make_engine(
        fighter("hal", wits=1, dexterity=3, strength=3, grab=2, intelligence=0,
                maneuvers=[BEAR_HUG]),
        fighter("vic", wits=3, dexterity=2, intelligence=0),
    )
    begin(eng, [[8, 6, 4], [7, 5]])
    ok(eng, sf.Act(fighter_id="hal", maneuver="Bear Hug", target_id="vic"))
    # Strength 3 + Grab 2 + 2 - Stamina 2 = 5 dice: 6, 2, 2, 2, 2 -> 1.
    entry = ok(eng, sf.ResolveNext(dice=[[6, 2, 2, 2, 2]]))
    assert "Hal holds Vic in a Bear Hug (at most Grab 2 actions)" in texts(entry)
    ok(eng, c.NextStep())  # phase 7: Vic tries to break free: Strength 2 against 3
    ok(eng, sf.Act(fighter_id="vic", action="break-free"))
    entry = ok(eng, sf.ResolveNext(dice=[[2, 3], [6, 6, 1]]))  # 0 against 2 - 1 = 1
    assert "Vic fails to break free" in texts(entry)
    ok(eng, c.NextStep())  # phase 6: Hal squeezes (speed 6 - 1 = 5)
    ok(eng, sf.Act(fighter_id="hal", action="sustain-hold"))
    assert eng.ruleset.views.stack(eng.encounter)[0].speed == 5
    ok(eng, sf.ResolveNext(dice=[[6, 6, 2, 2, 2]]))
    assert st(eng, "vic").health == 7 and st(eng, "hal").holding.actions == 1
    ok(eng, c.NextStep())  # phase 5: Vic holds his 5
    ok(eng, sf.HoldDie(fighter_id="vic"))
    ok(eng, c.NextStep())  # phase 4: Hal squeezes again (4 - 1 = 3) ...
    ok(eng, sf.Act(fighter_id="hal", action="sustain-hold"))
    # ... a sustained hold is never an interrupt ...
    assert "cannot be used as an interrupt" in refused(
        eng, sf.Interrupt(fighter_id="hal", action="sustain-hold"))
    # ... and Vic breaks free as an interrupt with his held die: 4 + 0 = 4 > 3, free.
    ok(eng, sf.Interrupt(fighter_id="vic", action="break-free"))
    entry = ok(eng, sf.ResolveNext(all=True, dice=[[6, 6], [2, 2, 2]]))
    assert "Vic breaks free of Hal's Bear Hug" in texts(entry)
    free = next(e for e in entry.events if e.text == "Vic breaks free of Hal's Bear Hug")
    assert (free.kind, free.data) == ("condition-off", {"name": "Held"})  # for the summary
    assert "Hal no longer holds Vic: the Bear Hug (sustained) does nothing" in texts(entry)
    assert st(eng, "hal").holding is None and st(eng, "vic").health == 7


def test_hold_lasts_at_most_grab_actions() -> None:
    eng = make_engine(fighter("hal", wits=1, dexterity=2, strength=3, grab=1, intelligence=0,
                              maneuvers=[BEAR_HUG]),
                      fighter("vic", wits=3, dexterity=1, intelligence=0))
    begin(eng, [[8, 6], [1]])
    ok(eng, sf.Act(fighter_id="hal", maneuver="Bear Hug", target_id="vic"))
    ok(eng, sf.ResolveNext(dice=[[6, 1, 1, 1]]))  # Grab 1: 3 + 1 + 2 - 2 = 4 dice
    ok(eng, c.NextStep())
    ok(eng, sf.Act(fighter_id="hal", action="sustain-hold"))
    entry = ok(eng, sf.ResolveNext(dice=[[1, 1, 1, 1]]))
    assert "Hal lets go: the Bear Hug was kept for Grab 1 actions" in texts(entry)


def test_teleport_kept_longer_than_a_phase_breaks_recovery() -> None:
    # docs/rulesets/street-fighter.md#round-long-effects: recovery breaks the same way, and
    # nothing is regained; the card's "Recovering" goes (the summary counts it).
    eng = make_engine(fighter("ana", dexterity=3, intelligence=0, maneuvers=[TELEPORT],
                              status={"willpower": 3}))
    begin(eng, [[8, 6, 5]])
    ok(eng, sf.StartRecovery(fighter_id="ana", pool="willpower"))
    ok(eng, sf.PassDie(fighter_id="ana"))
    answer(eng, choice="lose")
    ok(eng, c.NextStep())  # phase 6
    ok(eng, sf.Act(fighter_id="ana", maneuver="Teleport"))
    ok(eng, sf.ResolveNext())
    entry = ok(eng, c.NextStep())  # phase 5: kept longer than phase 6
    broken = next(e for e in entry.events if e.fighter_id == "ana" and "broken" in e.text)
    assert broken.text == ("Ana's recovery is broken (Teleport kept longer than a phase): "
                           "nothing regained")
    assert (broken.kind, broken.data) == ("condition-off", {"name": "Recovering"})
    assert st(eng, "ana").recovery is None and st(eng, "ana").willpower == 3


def test_teleport_kept_longer_than_a_phase_breaks_concentration() -> None:
    # docs/rulesets/street-fighter.md#round-long-effects; the text: "If these are maintained
    # for any longer than a phase, any recovery or concentration is broken."
    eng = make_engine(fighter("ana", dexterity=3, intelligence=0, maneuvers=[TELEPORT]))
    begin(eng, [[8, 6, 5]])
    ok(eng, sf.Concentrate(fighter_id="ana", concentration="find-angle"))
    ok(eng, sf.ResolveNext())
    ok(eng, c.NextStep())  # phase 6
    ok(eng, sf.Act(fighter_id="ana", maneuver="Teleport"))
    entry = ok(eng, sf.ResolveNext())
    assert "Ana's Teleport lasts until dropped or the round ends" in texts(entry)
    entry = ok(eng, c.NextStep())  # phase 5: kept longer than phase 6
    assert "Ana's concentration is broken (Teleport kept longer than a phase)" in texts(entry)
    ok(eng, sf.DropEffect(fighter_id="ana", name="Teleport"))
    assert st(eng, "ana").effects == []
    ok(eng, sf.PassDie(fighter_id="ana"))
    answer(eng, choice="lose")
    entry = ok(eng, c.NextStep())  # end of round: no concentration roll
    assert not [e for e in entry.events if e.roll is not None]


def test_yoga_flame_lasts_until_the_round_ends() -> None:
    eng = make_engine(fighter("ana", wits=1, dexterity=1, intelligence=0,
                              maneuvers=[YOGA_FLAME]),
                      fighter("bo", wits=3, dexterity=1, intelligence=0))
    begin(eng, [[8], [1]])
    ok(eng, sf.Act(fighter_id="ana", maneuver="Yoga Flame", target_id="bo"))
    ok(eng, sf.ResolveNext(dice=[[1, 1, 1, 1]]))  # Strength 2 + Focus 1 + 3 - Stamina 2
    assert [e.name for e in st(eng, "ana").effects] == ["Yoga Flame"]
    ok(eng, c.EndRound())
    answer(eng, choice="lose")  # Bo's 1
    assert st(eng, "ana").effects == []


def test_flame_fist_adds_its_dice_for_focus_attacks() -> None:
    # docs/rulesets/street-fighter.md#flame-fist-and-toughskin; the text: "Flame Fist and
    # Toughskin: These may be activated at any time and act for a number of attacks equal to
    # your Focus."  Focus 1: one attack with +1 die.
    eng = make_engine(fighter("ana", wits=1, dexterity=2, intelligence=0, focus=1,
                              maneuvers=[FLAME_FIST]),
                      fighter("bo", wits=3, dexterity=1, intelligence=0))
    begin(eng, [[8, 7], [1]])
    ok(eng, sf.ActivateEffect(fighter_id="ana", maneuver="Flame Fist"))
    ok(eng, sf.Act(fighter_id="ana", maneuver="Strong", target_id="bo"))
    # Strength 2 + Punch 2 + 1 + Flame Fist 1 - Stamina 2 = 4 dice.
    entry = ok(eng, sf.ResolveNext(dice=[[1, 1, 1, 1]]))
    assert "Strength 2 + Punch 2 + Strong 1 + Flame Fist 1 - Stamina 2 = 4 dice" in \
        " ".join(texts(entry))
    assert "Ana's Flame Fist ends (its attacks are used up)" in texts(entry)


def test_recovery_target_number_by_time_spent() -> None:
    # docs/rulesets/street-fighter.md#recovery: the time table, with 3 seconds a round
    # (option): 1 round TN 8, 1 minute (20 rounds) TN 7, 5 minutes (100) TN 6, 10 minutes
    # (200) TN 4, half an hour (600) TN 2, an hour (1200): all regained.
    eng = make_engine(fighter("rin"))
    enc = eng.encounter
    assert [recovery_tn(enc, r) for r in (0, 1, 19, 20, 100, 200, 600, 1200)] == \
        [None, 8, 8, 7, 6, 4, 2, 0]
    slow = make_engine(fighter("rin"), options={"seconds_per_round": 6}).encounter
    assert recovery_tn(slow, 10) == 7


def test_recovery_of_less_than_a_round_gains_nothing_and_continue_keeps_going() -> None:
    # docs/rulesets/street-fighter.md#recovery; the text: "If the period spent is less than
    # a full round, nothing can be gained."
    eng = make_engine(fighter("rin", dexterity=1, intelligence=0, willpower=6,
                              status={"willpower": 3}))
    begin(eng, [[9]])
    ok(eng, sf.StartRecovery(fighter_id="rin", pool="willpower"))
    entry = ok(eng, sf.StopRecovery(fighter_id="rin"))
    assert "Rin recovered for less than a full round: nothing regained" in texts(entry)
    ok(eng, sf.StartRecovery(fighter_id="rin", pool="willpower"))
    ok(eng, c.EndRound())  # started mid-round: this round does not count
    assert st(eng, "rin").recovery.full_rounds == 0
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[9]]))
    ok(eng, c.EndRound())
    answer(eng, choice="continue", expect="recover-rin")
    assert st(eng, "rin").recovery.full_rounds == 1 and st(eng, "rin").willpower == 3


def test_gm_adds_and_changes_maneuvers_per_fighter() -> None:
    eng = make_engine(fighter("ana", wits=1, dexterity=1), fighter("bo", wits=3))
    ok(eng, sf.SetManeuver(fighter_id="ana", catalogue="Throw"))
    assert [m.name for m in st_sheet(eng, "ana")] == ["Throw"]
    ok(eng, sf.SetManeuver(fighter_id="ana", replaces="Jab", update={"speed": 3}))
    assert st_sheet(eng, "ana")[-1] == Maneuver(name="Jab", basic=True, technique="punch",
                                                speed=3, damage=-1)
    assert "no field" in refused(eng, sf.SetManeuver(fighter_id="ana", replaces="Jab",
                                                     update={"sped": 1}))
    assert "greater than or equal to -10" in refused(
        eng, sf.SetManeuver(fighter_id="ana", replaces="Jab", update={"speed": -20}))
    begin(eng, [[6], [1, 1]])
    entry = ok(eng, sf.Act(fighter_id="ana", maneuver="Jab", target_id="bo"))
    assert next(e for e in entry.events if e.kind == "act").data["speed"] == 9
    assert eng.encounter.fighters["bo"].sheet.maneuvers == []  # only Ana's sheet changed


def st_sheet(eng: Engine, fid: str) -> list[Maneuver]:
    return list(eng.encounter.fighters[fid].sheet.maneuvers)


@pytest.mark.parametrize("kind", ["find-angle", "find-weakness", "power-up"])
def test_weenies_cannot_concentrate(kind: str) -> None:
    eng = make_engine(fighter("mook", weenie=True))
    ok(eng, c.StartFight())
    assert "weenies cannot gain EP" in refused(
        eng, sf.Concentrate(fighter_id="mook", concentration=kind))


# --- the maneuver catalogue ----------------------------------------------------------------


def test_a_broken_catalogue_file_is_named_with_its_entry_and_field(tmp_path: Path) -> None:
    """The catalogue is read with a plain message naming the file, the maneuver (or its
    place) and the field (docs/rulesets/street-fighter.md#maneuvers)."""
    path = tmp_path / "catalogue.json"
    cases = [
        ('{"maneuvers": []}\n{', "not JSON (line 2: Extra data)"),
        ("[1]", "needs a 'maneuvers' list"),
        ('{"maneuvers": {}}', "needs a 'maneuvers' list"),
        ('{"maneuvers": [{"name": "Jab"}, {"name": "Big", "speed": 99}]}',
         "maneuver 'Big': speed: Input should be less than or equal to 10"),
        ('{"maneuvers": [{"name": "Jab"}, {"speed": 1}]}', "maneuver '#2': name: Field required"),
        ('{"maneuvers": [5]}',
         "maneuver '#1': entry: Input should be a valid dictionary or instance of Maneuver"),
        ('{"maneuvers": [{"name": "Elbow", "guards": ["elbow"]}]}',
         "maneuver 'Elbow': guards.0: Input should be 'punch', 'kick', 'block', 'grab', "
         "'athletics' or 'focus'"),
    ]
    for text, problem in cases:
        path.write_text(text, encoding="utf-8")
        with pytest.raises(CatalogueProblem) as refused_file:
            load_catalogue(path)
        assert str(refused_file.value) == f"{path}: {problem}"
    with pytest.raises(CatalogueProblem) as missing:
        load_catalogue(tmp_path / "none.json")
    assert str(missing.value) == f"{tmp_path / 'none.json'}: cannot be read (No such file or directory)"
    path.write_text('{"maneuvers": [{"name": "Jab", "technique": "kick"}, {"name": "Hop"}]}',
                    encoding="utf-8")
    assert [(m.name, m.technique) for m in load_catalogue(path)] == [("Jab", "kick"),
                                                                     ("Hop", "punch")]


def test_the_shipped_catalogue_is_found_and_a_broken_one_leaves_it_empty(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped catalogue comes from resources/ (or the installed package's copy); a
    file that cannot be read leaves no catalogue and the fight goes on; names are found
    whatever their case and spaces (docs/rulesets/street-fighter.md#maneuvers)."""
    beside = Path(catalogue_module.__file__).resolve().parents[4] / "resources"
    shipped = beside / "maneuvers" / "street-fighter.json"
    assert catalogue_module._catalogue_path() == shipped == catalogue_module.CATALOGUE
    assert [m.name for m in catalogue_module.catalogue()] == \
        [m.name for m in load_catalogue(shipped)]
    assert [m.name for m in catalogue_module.basic_maneuvers()] == [
        "Jab", "Strong", "Fierce", "Short", "Forward", "Roundhouse", "Block", "Movement",
        "Grab"]
    throw = catalogue_module.find("  tHROW ")
    assert throw is not None and throw.name == "Throw"
    assert catalogue_module.find("Throws") is None

    def unreadable(path: Path = shipped) -> tuple[Maneuver, ...]:
        raise CatalogueProblem(f"{path}: cannot be read")

    try:
        catalogue_module.catalogue.cache_clear()
        catalogue_module.basic_maneuvers.cache_clear()
        monkeypatch.setattr(catalogue_module, "load_catalogue", unreadable)
        assert catalogue_module.catalogue() == () and catalogue_module.basic_maneuvers() == ()
        assert catalogue_module.find("Jab") is None
    finally:
        monkeypatch.undo()
        catalogue_module.catalogue.cache_clear()
        catalogue_module.basic_maneuvers.cache_clear()
    # Where no resources/ sits beside the package, the installed copy is read.
    installed = Path(str(files("fightdesk.resources"))) / "maneuvers" / "street-fighter.json"
    monkeypatch.setattr(Path, "exists", lambda self: False)
    assert catalogue_module._catalogue_path() == installed


def test_the_gm_cannot_add_from_the_catalogue_to_a_fighter_who_knows_it_all() -> None:
    """The GM adds a catalogue maneuver the fighter does not know; knowing them all, the
    form is off and says why (docs/rulesets/street-fighter.md#maneuvers)."""
    everything = [m.model_dump() for m in catalogue_module.catalogue()]
    eng = make_engine(fighter("ana", maneuvers=everything), fighter("bo"))
    learn = next(f for f in eng.ruleset.views.action_forms(eng.encounter, "ana")
                 if f.id == "learn-maneuver")
    assert (learn.enabled, learn.reason, learn.fields[0].choices) == (False, "knows them all", ())
    learn = next(f for f in eng.ruleset.views.action_forms(eng.encounter, "bo")
                 if f.id == "learn-maneuver")
    assert learn.enabled and learn.fields[0].default == "Jab"


def test_the_catalogue_is_read_as_utf8_whatever_the_locale(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogue file is UTF-8 on every platform: it is read as such, not in the
    locale's encoding (a Windows locale would misread a name outside ASCII)
    (docs/rulesets/street-fighter.md#maneuvers)."""
    path = tmp_path / "catalogue.json"
    path.write_text('{"maneuvers": [{"name": "Kōhai Kick", "technique": "kick"}]}',
                    encoding="utf-8")
    asked: list[str | None] = []
    read_text = Path.read_text

    def reading(self: Path, encoding: str | None = None, errors: str | None = None) -> str:
        asked.append(encoding)
        return read_text(self, encoding=encoding, errors=errors)

    monkeypatch.setattr(Path, "read_text", reading)
    assert [m.name for m in load_catalogue(path)] == ["Kōhai Kick"]
    assert asked == ["utf-8"]
