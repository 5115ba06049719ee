"""The GM's operations: one function per thing the GM can do to the fight.

Each builds the command for one action (act, interrupt, damage, a condition, hide, the
fight's options, its tables...) and applies it through :meth:`FightDocument.apply`, the
one way the window changes the fight; the engine's :class:`Notice` then tells every view
what changed (the document's ``changed`` signal), and the :class:`Outcome` comes back
to the caller, which shows the GM its line. Nothing here is a widget: the window's
slots and dialogs (``gm_actions.py``) gather what the GM chose and call these.

No engine import at module level: the window paints before pydantic loads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fightdesk.engine.commands import Command
    from fightdesk.engine.engine import Outcome
    from fightdesk.engine.ruleset import Preview

    from .document import FightDocument

#: The round bar's commands, by the name the window's actions use.
ROUND_STEPS = ("start-fight", "start-round", "next-step", "end-round")


def apply(document: FightDocument, command: Command) -> Outcome:
    """Any command the GM made elsewhere (the library, the table editor)."""
    return document.apply(command)


# --- the round ---------------------------------------------------------------------------
def round_step(document: FightDocument, kind: str) -> Outcome:
    """Start the fight, start a round, next phase or turn, end the round."""
    from fightdesk.engine import commands as c

    made = {"start-fight": c.StartFight, "start-round": c.StartRound,
            "next-step": c.NextStep, "end-round": c.EndRound}[kind]
    return document.apply(made())


def end_round_loses(document: FightDocument) -> str:
    """What ending the round now would throw away ("" when nothing): the question's text."""
    engine = document.engine
    if engine is None:
        return ""
    return engine.ruleset.views.round_controls(engine.encounter).end_round_loses


def turn_timeout(document: FightDocument, turn_number: int) -> Outcome:
    from fightdesk.engine.commands import TurnTimeout

    return document.apply(TurnTimeout(turn_number=turn_number))


def move_turn(document: FightDocument, slot_id: str, section: str, index: int) -> Outcome:
    """A lane dragged on the timeline: the ruleset says whether it may go there."""
    from fightdesk.engine.commands import MoveTurn

    return document.apply(MoveTurn(slot_id=slot_id, section=section, index=index))


# --- acting -------------------------------------------------------------------------------
def preview_action(document: FightDocument, form: str, fighter_id: str,
                   values: dict[str, Any]) -> Preview:
    """What the action would do (the ruleset's preview), or why the engine would refuse it."""
    from fightdesk.engine.changes import RuleViolation
    from fightdesk.engine.ruleset import Preview

    engine = document.engine
    assert engine is not None, "no fight is open"
    ruleset = engine.ruleset
    shown = ruleset.views.preview(engine.encounter, form, fighter_id, values)
    if shown.error is not None:
        return shown
    try:
        command = ruleset.views.build_command(form, fighter_id, values)
    except RuleViolation as exc:
        return Preview(shown.lines, shown.odds, str(exc))
    check = document.check(command)
    return shown if check.ok else Preview(shown.lines, shown.odds, check.error)


def act(document: FightDocument, form: str, fighter_id: str, values: dict[str, Any],
        dice: list[list[int]]) -> tuple[bool, str]:
    """Act, interrupt, assist or a GM form: the ruleset builds the command from the
    form's values; ``dice`` are faces the GM typed. (ok, the line for the GM)."""
    from fightdesk.engine.changes import RuleViolation

    engine = document.engine
    assert engine is not None, "no fight is open"
    try:
        command = engine.ruleset.views.build_command(form, fighter_id, values)
    except RuleViolation as exc:
        return False, str(exc)
    command.dice = dice
    outcome = document.apply(command, say_refusal=False)  # the dialog says why
    return outcome.ok, outcome.text


def stack_command(document: FightDocument, form_id: str) -> Outcome:
    """Resolve next / all, cancel the interrupt stack: the ruleset builds the command."""
    from fightdesk.engine.changes import RuleViolation
    from fightdesk.engine.engine import Outcome

    engine = document.engine
    assert engine is not None, "no fight is open"
    try:
        command = engine.ruleset.views.build_command(form_id, "", {})
    except RuleViolation as exc:
        return Outcome(ok=False, error=str(exc))
    return document.apply(command, say_refusal=False)  # the stack dialog says why


def answer(document: FightDocument, decision_id: str, choice: str, amount: int,
           dice: list[list[int]]) -> Outcome:
    """The answer to the question the fight waits for (a choice, an amount)."""
    from fightdesk.engine.commands import Answer

    return document.apply(Answer(decision_id=decision_id, choice=choice or None,
                                 amount=None if amount < 0 else amount, dice=dice),
                          say_refusal=False)  # the panel that asked says why


def answer_values(document: FightDocument, decision_id: str, values: dict[str, Any],
                  by: str) -> Outcome:
    """A question with fields answered at once (a player's typed roll per row)."""
    from fightdesk.engine.commands import Answer

    return document.apply(Answer(decision_id=decision_id, values=values, by=by))


# --- the roll that waits ------------------------------------------------------------------
def contribute(document: FightDocument, roll_id: int, fighter_id: str, kind: str,
               amount: int) -> Outcome:
    from fightdesk.engine.commands import Contribute

    return document.apply(Contribute(roll_id=roll_id, fighter_id=fighter_id or None,
                                     contribution=kind, amount=amount))


def withdraw(document: FightDocument, roll_id: int, contribution_id: int) -> Outcome:
    from fightdesk.engine.commands import Withdraw

    return document.apply(Withdraw(roll_id=roll_id, contribution_id=contribution_id))


def make_roll(document: FightDocument, roll_id: int, dice: list) -> Outcome:
    from fightdesk.engine.commands import MakeRoll

    return document.apply(MakeRoll(roll_id=roll_id, dice=dice))


def free_roll(document: FightDocument, notation: str) -> Outcome:
    """A roll typed in the dice bar (``3d10``, ``5d10>=6``); logged like any step."""
    from fightdesk.engine.commands import FreeRoll

    return document.apply(FreeRoll(notation=notation), say_refusal=False)  # the dice bar says


# --- GM overrides -------------------------------------------------------------------------
def set_health(document: FightDocument, fighter_id: str, field: str, value: int,
               override: bool = False) -> Outcome:
    """Damage or heal: the new health, a ``SetValue`` of the card's health field that the
    rules see as damage or healing, unless the GM marks it an override."""
    from fightdesk.engine.commands import SetValue

    return document.apply(SetValue(fighter_id=fighter_id, field=field, value=value,
                                   override=override))


def edit_fighter(document: FightDocument, fighter_id: str,
                 changes: list[tuple[str, Any]]) -> Outcome:
    """The fighter editor's changed fields, as one step: all or none, one undo step."""
    from fightdesk.engine.commands import Edits, SetValue

    return document.apply(Edits(edits=[SetValue(fighter_id=fighter_id, field=field, value=value)
                                       for field, value in changes]))


def set_options(document: FightDocument, changes: list[tuple[str, Any]]) -> Outcome:
    """The options dialog's changed options, as one step: all or none, one undo step."""
    from fightdesk.engine.commands import Edits, SetOption

    return document.apply(Edits(edits=[SetOption(option=option, value=value)
                                       for option, value in changes]))


def toggle_hidden(document: FightDocument, fighter_id: str) -> Outcome | None:
    """Hide a fighter from the players, or show them again (None: no such fighter)."""
    from fightdesk.engine.commands import HideFighter

    engine = document.engine
    if engine is None or fighter_id not in engine.encounter.fighters:
        return None
    hidden = engine.encounter.fighters[fighter_id].hidden
    return document.apply(HideFighter(fighter_id=fighter_id, hidden=not hidden))


def remove_fighter(document: FightDocument, fighter_id: str) -> Outcome:
    from fightdesk.engine.commands import RemoveFighter

    return document.apply(RemoveFighter(fighter_id=fighter_id))


def add_condition(document: FightDocument, fighter_id: str, values: dict[str, Any]) -> Outcome:
    """The condition dialog's values; a value the command refuses comes back named."""
    from pydantic import ValidationError

    from fightdesk.engine.commands import AddCondition
    from fightdesk.engine.engine import Outcome

    try:
        command = AddCondition(fighter_id=fighter_id, **values)
    except ValidationError as exc:
        err = exc.errors()[0]
        return Outcome(ok=False, error=f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}")
    return document.apply(command)


def remove_condition(document: FightDocument, fighter_id: str, index: int) -> Outcome:
    from fightdesk.engine.commands import RemoveCondition

    return document.apply(RemoveCondition(fighter_id=fighter_id, index=index))


def set_enemy_health(document: FightDocument, show: str) -> Outcome | None:
    """How the player view shows the enemies' health (None: it already does)."""
    from fightdesk.engine.commands import SetEnemyHealth

    engine = document.engine
    if engine is None or engine.encounter.enemy_health == show:
        return None
    return document.apply(SetEnemyHealth(show=show))


def rename_fight(document: FightDocument, text: str) -> Outcome | str | None:
    """A name of the GM's for the fight: the outcome, why not ("" never), or None when
    it is the name it has."""
    from fightdesk.engine.commands import RenameFight

    engine = document.engine
    name = " ".join(text.split())
    if not name:
        return "Not renamed: a fight needs a name"
    if engine is None or name == engine.encounter.name:
        return None
    return document.apply(RenameFight(name=name[:200]))


# --- the roster ---------------------------------------------------------------------------
def health_key(document: FightDocument) -> str:
    """The sheet field that holds a fighter's full health in this fight's ruleset."""
    assert document.engine is not None
    return str(getattr(document.engine.ruleset.rules, "health_max_field", "health"))


def quick_sheet(sheet: Any, values: dict[str, Any]) -> dict[str, Any]:
    """The sheet's data with Quick Add's values (``Rules.quick_fields``): a field, or
    "list.field" for the list's first row (made if the list is empty)."""
    data = sheet.model_dump(mode="json")
    rows: dict[str, dict[str, Any]] = {}
    for path, value in values.items():
        table, _, column = path.partition(".")
        if column:
            rows.setdefault(table, {})[column] = value
        else:
            data[path] = value
    for table, given in rows.items():
        kept = list(data.get(table) or [])
        first = {**(kept[0] if kept else {}), **given}
        if not str(first.get("name") or "").strip():
            first["name"] = table.rstrip("s").replace("_", " ").capitalize()
        data[table] = [first, *kept[1:]]
    return data


def quick_add(document: FightDocument, name: str, side: str, health: int,
              count: int = 1, values: dict[str, Any] | None = None) -> Outcome | str:
    """A fighter for this fight only: the ruleset's defaults but for the name, side,
    health and the few numbers Quick Add asks (``values``). The outcome, or why not in
    the GM's words."""
    from pydantic import ValidationError

    from fightdesk.engine.commands import AddFighters
    from fightdesk.storage.library import new_fighter, rested_status

    engine = document.engine
    if engine is None:
        return "Open or start a fight first"
    blank = new_fighter(engine.encounter.ruleset, name)
    key = health_key(document)
    try:
        data = quick_sheet(blank.sheet, values or {})
        sheet = type(blank.sheet).model_validate({**data, key: health})
        fighter = blank.model_copy(update={"side": side, "sheet": sheet,
                                           "status": rested_status(sheet)})
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        if where == key:
            return f"Health {health}: {error['msg']}"
        return f"{where} {error.get('input')!r}: {error['msg']}"
    return document.apply(AddFighters(fighter=fighter.model_dump(mode="json"), count=count))


def add_all(document: FightDocument, commands: Sequence[Command]) -> Outcome | None:
    """Fighters from the library (a drop may bring several): each through the document,
    stopping at the first refusal; the last outcome (None: nothing to add)."""
    outcome = None
    for command in commands:
        outcome = document.apply(command)
        if not outcome.ok:
            break
    return outcome


def revert_to(document: FightDocument, seq: int) -> int:
    """Undo back to log entry ``seq`` ("Revert to here"): the steps undone (0: refused,
    the document said why, or nothing to undo)."""
    return document.revert_to(seq)
