"""Every action form says truly whether it rolls (``ActionForm.rolls``).

Why: the action dialog offers "Roll for me / Type in the dice" only for a form that
rolls; a form that rolls nothing must not offer dice the engine then refuses ("typed-in
roll(s) were not needed"), and a form that rolls must not hide them. The demo fights of
the four rulesets are played (the autopilot and seeded random play), and in every state
each form of each fighter is tried with the dialog's default fields (and, for a form that
says it rolls nothing, with each other value of each field): applying it rolls dice now,
or opens a roll that waits on the roll panel, exactly when the form says it rolls; and
the roll waits exactly when the form says so (``ActionForm.roll_waits``: the dialog then
offers no dice of its own, the roll panel takes them).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fightdesk.engine.changes import RuleViolation
from fightdesk.engine.engine import Engine
from fightdesk.engine.legal import field_values
from fightdesk.engine.model import Session
from fightdesk.engine.ruleset import ActionForm, Ruleset, get_ruleset
from tests.golden import next_command

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
DEMOS = ("demo_roll-under.json", "demo_d100.json", "demo_ashes.json", "demo_fight.json")
PLAYS = (("autopilot", 0), ("random", 1), ("random", 2))
STEPS = 60
# Each value of a field tried, at most, for a form that says it rolls nothing.
VALUES_PER_FIELD = 6
# The times a form is applied in one fight at most (its first states: the test's time
# stays a few seconds).
APPLIED_PER_FIGHT = 8

# Forms that say they roll but need a state the demo fights do not reach, with why;
# each has a pinned test below.
ROLLS_LATER = {
    ("street-fighter", "stop-recovery"): "rolls only after a full round of recovery",
}


def default_values(form: ActionForm) -> dict[str, Any]:
    """The field values the action dialog starts with (its widgets' defaults)."""
    values: dict[str, Any] = {}
    for fld in form.fields:
        if fld.kind == "choice":
            keys = [key for key, _ in fld.choices]
            values[fld.name] = fld.default if fld.default in keys else (keys[0] if keys else None)
        elif fld.kind == "number":
            values[fld.name] = fld.default if isinstance(fld.default, int) else fld.minimum
        elif fld.kind == "flag":
            values[fld.name] = bool(fld.default)
        else:
            values[fld.name] = "" if fld.default is None else str(fld.default)
    return values


def variants(form: ActionForm) -> Iterator[dict[str, Any]]:
    """The defaults, then each other value of one field at a time."""
    base = default_values(form)
    yield base
    for fld in form.fields:
        for value in field_values(fld)[:VALUES_PER_FIELD]:
            if value != base[fld.name]:
                yield {**base, fld.name: value}


def rolls_when_applied(engine: Engine, ruleset: Ruleset, fid: str, form_id: str,
                       values: dict[str, Any]) -> str | None:
    """What applying the form with these values does with dice: "now" (it rolls them),
    "waits" (it opens a roll that waits on the roll panel) or "" (neither, or a roll
    already waits so none could open); None when the rules refuse it. Nothing of the
    fight changes."""
    try:
        command = ruleset.views.build_command(form_id, fid, values)
    except (RuleViolation, ValueError):
        return None
    enc = engine.encounter
    dry = engine.check(command)
    if not dry.ok or dry.entry is None:
        return None
    if any(event.roll is not None for event in dry.entry.events):
        return "now"
    if ruleset.rules.pending_roll(enc) is not None or ruleset.rules.step_open(enc):
        # A roll already waits (another cannot open), or an exchange is under way.
        return ""
    # Outside an open step the command is a step of its own: undo takes back just it.
    assert engine.apply(command).ok
    opened = ruleset.rules.pending_roll(engine.encounter) is not None
    assert engine.undo()
    return "waits" if opened else ""


class Seen:
    """What the walk found: the forms whose flag is wrong, and for each (ruleset, form,
    flag) how often it applied and rolled."""

    def __init__(self) -> None:
        self.wrong: list[str] = []
        self.applied: dict[tuple[str, str, bool], int] = defaultdict(int)
        self.rolled: dict[tuple[str, str, bool], int] = defaultdict(int)
        self.offered: set[tuple[str, str]] = set()
        # Applications in the fight being walked, per (ruleset, form, flag).
        self.this_fight: dict[tuple[str, str, bool], int] = defaultdict(int)

    def try_forms(self, engine: Engine, ruleset: Ruleset, where: str) -> None:
        enc = engine.encounter
        for fid in list(enc.order):
            for form in ruleset.views.action_forms(enc, fid):
                if form.enabled:
                    self.offered.add((enc.ruleset, form.id))
                    self.try_form(engine, ruleset, fid, form, where)

    def try_form(self, engine: Engine, ruleset: Ruleset, fid: str, form: ActionForm,
                 where: str) -> None:
        key = (engine.encounter.ruleset, form.id, form.rolls)
        if (form.rolls and self.rolled[key]) or self.this_fight[key] >= APPLIED_PER_FIGHT:
            return  # shown to roll already, or tried enough in this fight
        tries = variants(form) if not form.rolls else iter((default_values(form),))
        for values in tries:
            rolled = rolls_when_applied(engine, ruleset, fid, form.id, values)
            if rolled is None:
                continue
            self.applied[key] += 1
            self.this_fight[key] += 1
            self.rolled[key] += bool(rolled)
            if rolled and not form.rolls:
                self.wrong.append(f"{where}: {fid}'s {form.id!r} says it rolls nothing, "
                                  f"but with {values} it rolls")
            elif rolled == "now" and form.roll_waits:
                self.wrong.append(f"{where}: {fid}'s {form.id!r} says its roll waits on the "
                                  f"roll panel, but with {values} it rolls at once")
            elif rolled == "waits" and not form.roll_waits:
                self.wrong.append(f"{where}: {fid}'s {form.id!r} says the dialog rolls its "
                                  f"dice, but with {values} its roll waits on the roll panel "
                                  "(the dialog's typed dice would be refused)")


def walk(demo: str, policy: str, seed: int, seen: Seen,
         prepare: Callable[[Session], None] | None = None, steps: int = STEPS) -> None:
    session = Session.model_validate_json((RESOURCES / demo).read_text(encoding="utf-8"))
    session.encounter.dice_seed = seed
    if prepare is not None:
        prepare(session)
    engine = Engine(session)
    ruleset = get_ruleset(engine.encounter.ruleset)
    rng = random.Random(seed)
    seen.this_fight.clear()
    for step in range(steps):
        seen.try_forms(engine, ruleset, f"{demo} {policy} {seed} step {step}")
        if next_command(engine, ruleset, rng, policy, step, []) is None:
            break


def test_every_form_of_the_demo_fights_rolls_exactly_when_it_says() -> None:
    seen = Seen()
    for demo in DEMOS:
        for policy, seed in PLAYS:
            walk(demo, policy, seed, seen)
    assert not seen.wrong, "\n".join(seen.wrong[:20])
    # Every form that says it rolls was seen rolling when applied.
    never = sorted(f"{rid} {fid}" for (rid, fid, rolls), n in seen.applied.items()
                   if rolls and n and not seen.rolled[(rid, fid, rolls)]
                   and (rid, fid) not in ROLLS_LATER)
    assert not never, f"forms that say they roll but never did: {never}"
    # Nothing vacuous: every form offered (enabled) was applied in some state.
    applied = {(rid, fid) for (rid, fid, _), n in seen.applied.items() if n}
    missing = sorted(seen.offered - applied)
    assert not missing, f"forms never applied in the demo fights: {missing}"
    # The walk saw both kinds in every ruleset.
    for ruleset_id in ("roll-under", "d100", "ashes", "street-fighter"):
        kinds = {rolls for (rid, _, rolls), n in seen.applied.items() if rid == ruleset_id and n}
        assert kinds == {True, False}, ruleset_id


def wrong_flags_caught(demo: str, form_id: str, *, rolls: bool | None = None,
                       roll_waits: bool | None = None) -> list[str]:
    """The walk's findings when ``form_id``'s flags are replaced by ``flags`` in the demo
    fight's first 20 autopilot steps (it stops at the first wrong one); the form's own
    flags are the opposite of each replaced one."""
    flags = {name: value for name, value in (("rolls", rolls), ("roll_waits", roll_waits))
             if value is not None}
    session = Session.model_validate_json((RESOURCES / demo).read_text(encoding="utf-8"))
    engine = Engine(session)
    ruleset = get_ruleset(engine.encounter.ruleset)
    rng = random.Random(0)
    seen = Seen()
    for step in range(20):
        enc = engine.encounter
        for fid in enc.order:
            for form in ruleset.views.action_forms(enc, fid):
                if form.id == form_id and form.enabled:
                    assert all(getattr(form, name) is not value for name, value in flags.items())
                    changed = form._replace(rolls=flags.get("rolls", form.rolls),
                                            roll_waits=flags.get("roll_waits", form.roll_waits))
                    seen.try_form(engine, ruleset, fid, changed, demo)
        if seen.wrong or next_command(engine, ruleset, rng, "autopilot", step, []) is None:
            break
    return seen.wrong


def test_the_check_fails_a_form_whose_roll_waits_but_says_the_dialog_rolls() -> None:
    """An attack in roll-under opens a roll on the roll panel; marked as rolling in the
    dialog, the walk catches it (the dialog would offer typed dice the engine refuses)."""
    wrong = wrong_flags_caught("demo_roll-under.json", "act", roll_waits=False)
    assert wrong and "waits on the roll panel" in wrong[0]


def test_the_check_fails_a_rolling_form_that_says_it_rolls_nothing() -> None:
    """The walk's check is no formality: a form that rolls, marked as rolling nothing,
    is caught (the action dice of Street Fighter, an attack in roll-under)."""
    for demo, form_id in (("demo_fight.json", "roll-dice"), ("demo_roll-under.json", "act")):
        wrong = wrong_flags_caught(demo, form_id, rolls=False)
        assert wrong and form_id in wrong[0], demo


def _wounded(needs_roll: bool) -> Callable[[Session], None]:
    def prepare(session: Session) -> None:
        enc = session.encounter
        enc.options = enc.options.model_copy(update={"fatal_wound_needs_roll": needs_roll})
        first = enc.fighters[enc.order[0]]
        first.status = first.status.model_copy(update={"fatal_wounds": 2})
    return prepare


def test_removing_a_fatal_wound_rolls_only_under_its_option() -> None:
    """docs/rulesets/roll-under.md#fatal-wounds: a Dexterity roll only if the option says
    so; the form offers dice exactly then."""
    for needs_roll in (True, False):
        seen = Seen()
        walk("demo_roll-under.json", "autopilot", 0, seen, _wounded(needs_roll), steps=12)
        assert not seen.wrong, seen.wrong
        key = ("roll-under", "remove-wound", needs_roll)
        assert seen.applied[key] > 0
        assert bool(seen.rolled[key]) is needs_roll


def _recovering(session: Session) -> None:
    """Every fighter has recovered Willpower for a full round, one point down."""
    from fightdesk.engine.rulesets.street_fighter.model import Recovery

    for fighter in session.encounter.fighters.values():
        down = max(0, int(fighter.sheet.willpower) - 1)
        fighter.status = fighter.status.model_copy(update={
            "willpower": down, "recovery": Recovery(pool="willpower", full_rounds=1)})


def test_stopping_a_recovery_of_a_full_round_rolls() -> None:
    """docs/rulesets/street-fighter.md#recovery: stopping after a full round rolls the
    regained points (less than a round regains nothing, with no roll)."""
    seen = Seen()
    walk("demo_fight.json", "autopilot", 0, seen, _recovering, steps=6)
    assert not seen.wrong, seen.wrong
    assert seen.rolled[("street-fighter", "stop-recovery", True)] > 0


def _worn(session: Session) -> None:
    """Alternative hit points on, and every fighter's first weapon worn down by 1 HP."""
    enc = session.encounter
    enc.options = enc.options.model_copy(update={"alternative_hp": True})
    for fighter in enc.fighters.values():
        weapons = fighter.sheet.weapons
        if weapons:
            worn = [int(w.hp) for w in weapons]
            worn[0] = max(1, worn[0] - 1)
            fighter.status = fighter.status.model_copy(update={"weapon_hp": worn})


def test_repairing_a_weapon_and_recovering_roll_nothing() -> None:
    """The d100 GM forms the demo fights never offer roll no dice: a repair
    (docs/rulesets/d100.md#weapon-destruction) and recovery out of combat
    (docs/rulesets/d100.md#alternative-hit-points)."""
    seen = Seen()
    walk("demo_d100.json", "autopilot", 0, seen, _worn, steps=3)
    assert not seen.wrong, seen.wrong
    for form_id in ("repair", "recover"):
        assert seen.applied[("d100", form_id, False)] > 0, form_id
