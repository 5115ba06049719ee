"""The plain-data views the UI renders: timeline, cards, stack rows, action forms,
previews with exact odds (checked against brute-force enumeration), round controls."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.street_fighter import commands as sf

from .helpers import answer, begin, die_id, fighter, make_engine, ok


def _brute_damage(dice: int, tn: int) -> dict[int, Fraction]:
    """Successes of ``dice`` d10 at ``tn``, 1s not cancelling, by listing every face."""
    counts: dict[int, int] = {}
    for faces in product(range(1, 11), repeat=dice):
        hits = sum(1 for f in faces if f >= tn)
        counts[hits] = counts.get(hits, 0) + 1
    return {k: Fraction(v, 10**dice) for k, v in counts.items()}


def _brute_after_dodge(dice: int) -> Fraction:
    """P(damage still >= 1 after one 2-dice dodge at TN 6, 1s cancelling on the dodge)."""
    hit = 0
    total = 0
    for faces in product(range(1, 11), repeat=dice):
        dmg = sum(1 for f in faces if f >= 6)
        for dodge in product(range(1, 11), repeat=2):
            net = max(0, sum(1 for f in dodge if f >= 6) - sum(1 for f in dodge if f == 1))
            total += 1
            hit += max(0, dmg - net) >= 1
    return Fraction(hit, total)


def _duel() -> Engine:
    eng = make_engine(
        fighter("ken", wits=1, dexterity=2, intelligence=2, strength=3),
        fighter("ryu", wits=3, dexterity=2, intelligence=2),
        fighter("m1", name="Mook 1", wits=4, dexterity=1, weenie=True, group="mooks"),
        fighter("m2", name="Mook 2", wits=5, dexterity=1, weenie=True, group="mooks"),
        groups={"mooks": "Mook"},
    )
    begin(eng, [[6, 3], [6, 1], [5], [2]])
    return eng


def test_timeline_lanes_chips_and_current_phase() -> None:
    eng = _duel()
    tl = eng.ruleset.views.timeline(eng.encounter)
    assert tl.columns == tuple(str(p) for p in range(10, 0, -1))
    assert tl.current_column == 4  # phase 6
    assert [lane.title for lane in tl.lanes] == ["Ken", "Ryu", "Mook"]
    mooks = tl.lanes[2]
    assert mooks.compact and mooks.fighter_ids == ("m1", "m2")
    assert [(ch.label, ch.column) for ch in mooks.chips] == [("#1", 5), ("#2", 8)]
    ken = {ch.label: ch for ch in tl.lanes[0].chips}
    assert ken["6"].clickable and not ken["3"].clickable  # Ken's turn, on his 6
    ok(eng, sf.HoldDie(fighter_id="ken"))
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    tl = eng.ruleset.views.timeline(eng.encounter)
    ken = {ch.label: ch for ch in tl.lanes[0].chips}
    assert ken["H6"].state == "held" and ken["H6"].column == 4
    # While the stack takes interrupts, every unspent die is clickable.
    assert ken["H6"].clickable and ken["3"].clickable
    assert "(1 EP unless an abort)" in ken["3"].tooltip
    ryu = {ch.label: ch for ch in tl.lanes[1].chips}
    assert ryu["6"].state == "spent" and not ryu["6"].clickable


def test_card_shows_ep_resources_conditions_and_group_size() -> None:
    eng = _duel()
    ok(eng, sf.Act(fighter_id="ken", maneuver="Block"))
    ok(eng, sf.ResolveNext())
    card = eng.ruleset.views.card(eng.encounter, "ken")
    assert [(r.label, r.value, r.maximum) for r in card.resources] == [
        ("EP", 2, None), ("Chi", 3, 3), ("Willpower", 5, 5)]
    assert tuple(c.text for c in card.conditions) == ("Block (0/2 absorbed)",)
    assert card.dice == ("3",)
    assert eng.ruleset.views.card(eng.encounter, "m1").group_size == 2
    assert eng.ruleset.views.card(eng.encounter, "ryu").acting


def test_all_cards_at_once_match_the_cards_one_by_one() -> None:
    """``cards()`` works out the actor, holders and group sizes once; the result must be
    what ``card()`` gives for each fighter on its own."""
    eng = _duel()
    for step in (None, sf.Act(fighter_id="ken", maneuver="Block"), sf.ResolveNext()):
        if step is not None:
            ok(eng, step)
        at_once = eng.ruleset.views.cards(eng.encounter)
        assert [fid for fid, _ in at_once] == list(eng.encounter.order)
        for fid, card in at_once:
            assert card == eng.ruleset.views.card(eng.encounter, fid)
        sizes = {fid: card.group_size for fid, card in at_once}
        assert sizes == {"ken": 1, "ryu": 1, "m1": 2, "m2": 2}


def test_action_forms_build_working_commands() -> None:
    eng = _duel()
    enc = eng.encounter
    forms = {f.id: f for f in eng.ruleset.views.action_forms(enc, "ken")}
    assert forms["act"].enabled and not forms["interrupt"].enabled
    assert forms["interrupt"].reason == "no move is pending to interrupt"
    die_field = next(f for f in forms["act"].fields if f.name == "die")
    assert die_field.choices == ((f"ken:{die_id(eng, 'ken', 6)}", "6 (this phase)"),)
    ryu_forms = {f.id: f for f in eng.ruleset.views.action_forms(enc, "ryu")}
    assert ryu_forms["act"].reason == "it is Ken's turn"
    values = {f.name: f.default for f in forms["act"].fields}
    assert values["ep_damage"] == "ask"
    command = eng.ruleset.views.build_command("act", "ken", values)
    assert isinstance(command, sf.Act) and command.ep_damage is None
    ok(eng, command)
    ryu_forms = {f.id: f for f in eng.ruleset.views.action_forms(enc, "ryu")}
    assert ryu_forms["interrupt"].enabled
    assert eng.ruleset.views.round_controls(enc).extra["interrupt"]
    assert isinstance(eng.ruleset.views.build_command("resolve-all", "", {}), sf.ResolveNext)
    assert isinstance(eng.ruleset.views.build_command("cancel-stack", "", {}), sf.CancelInterrupts)


def test_preview_shows_speed_pool_and_exact_odds() -> None:
    eng = _duel()
    enc = eng.encounter
    # Ken's Strong on Ryu: Strength 3 + Punch 2 + 1 - Stamina 2 = 4 dice at TN 6.
    shown = eng.ruleset.views.preview(enc, "act", "ken", {
        "maneuver": "Strong", "target": "ryu", "die": f"ken:{die_id(eng, 'ken', 6)}",
        "ep_speed": 1, "ep_damage": "ask"})
    assert shown.error is None
    assert shown.lines[0] == "Speed 8: die 6 + 0 (Strong) + 2 (1 EP)"
    assert "Damage pool after soak: Strength 3 + Punch 2 + Strong 1 - Stamina 2 = 4 dice" in \
        shown.lines
    odds = {o.label: o.chance for o in shown.odds}
    brute = _brute_damage(4, 6)
    assert odds["at least 1 health level (TN 6)"] == 1 - brute[0]
    assert odds["at least 2 health levels (TN 6)"] == 1 - brute[0] - brute[1]
    assert odds["still a hit if Ryu dodges once"] == _brute_after_dodge(4)
    # Stun needs more than Stamina 2: at least 3 successes.
    assert odds["stun (more than Stamina 2)"] == brute[3] + brute[4]


def test_preview_of_an_invalid_interrupt_says_why() -> None:
    eng = _duel()
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))  # 8
    shown = eng.ruleset.views.preview(eng.encounter, "interrupt", "ryu", {
        "maneuver": "Short", "target": "ken", "die": f"ryu:{die_id(eng, 'ryu', 6)}",
        "ep_speed": 0, "ep_damage": "ask", "interrupts": "1"})
    assert shown.error == "Ryu cannot interrupt: speed 7 is not above Ken's 8"


def test_opposed_preview_matches_enumeration() -> None:
    # Intimidation 2 dice against Willpower 1 die, both at TN 6 with 1s cancelling.
    eng = make_engine(fighter("ivo", charisma=1, intimidation=1), fighter("tom", willpower=1))
    ok(eng, c.StartFight())
    shown = eng.ruleset.views.preview(eng.encounter, "intimidate", "ivo", {"target": "tom"})

    def net(faces: tuple[int, ...]) -> int:
        return max(0, sum(f >= 6 for f in faces) - sum(f == 1 for f in faces))

    wins = sum(1 for a in product(range(1, 11), repeat=2) for b in range(1, 11)
               if net(a) - net((b,)) >= 1)
    assert shown.odds[0].chance == Fraction(wins, 1000)


def test_round_controls_follow_the_round() -> None:
    eng = make_engine(fighter("ken", dexterity=1, perception=1))
    rc = eng.ruleset.views.round_controls(eng.encounter)
    assert rc.can_start_fight and rc.next_step_label == "Start the fight"
    ok(eng, c.StartFight())
    assert eng.ruleset.views.round_controls(eng.encounter).next_step_label == "Start round 1"
    ok(eng, c.StartRound())
    assert eng.ruleset.views.round_controls(eng.encounter).next_step_label == "Roll action dice"
    ok(eng, c.NextStep(dice=[[4]]))
    rc = eng.ruleset.views.round_controls(eng.encounter)
    assert rc.next_step_label == "Ken lets the 4 go" and rc.can_end_round
    ok(eng, c.NextStep())
    answer(eng, choice="lose")
    assert eng.ruleset.views.round_controls(eng.encounter).next_step_label == "End of round"
    ok(eng, c.NextStep())
    assert eng.ruleset.views.round_controls(eng.encounter).next_step_label == "Start round 2"
    assert eng.ruleset.views.describe_state(eng.encounter) == "Round 1 over"


def test_views_handle_two_hundred_fighters() -> None:
    many = [fighter(f"f{i}", wits=i % 10, dexterity=2) for i in range(200)]
    eng = make_engine(*many)
    ok(eng, c.StartFight())
    ok(eng, c.StartRound())
    ok(eng, c.NextStep())
    tl = eng.ruleset.views.timeline(eng.encounter)
    assert len(tl.lanes) == 200 and sum(len(lane.chips) for lane in tl.lanes) == 400
    assert eng.ruleset.views.card(eng.encounter, "f199").title == "F199"
