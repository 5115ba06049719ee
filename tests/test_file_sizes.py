"""No module in fightdesk/ over about 600 lines without a stated reason: a long file is
one a newcomer has to read whole to change one part of it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 600

# Each long module, and why it stays one.
LONG: dict[str, str] = {
    "fightdesk/engine/ruleset.py": "the ruleset interface: the context, the records the "
    "views return, and the three parts' base classes with their defaults",
    "fightdesk/engine/engine.py": "the one command path: apply, undo, redo and the rebuild",
    "fightdesk/engine/rulesets/ashes/rules.py": "the rule text's sections in its order; "
    "views, totals, health and autopilot are apart",
    "fightdesk/engine/rulesets/roll_under/rules.py": "the rule text's sections in its order; "
    "views, targets and autopilot are apart",
    "fightdesk/engine/rulesets/street_fighter/round.py": "the round's sequence, phase by "
    "phase to its end, in the rule text's order",
    "fightdesk/report/summary.py": "one reading of the log into rounds, turns and tallies",
    "fightdesk/storage/autosave.py": "the crash-safe journal, its recovery and their checks",
    "fightdesk/storage/library.py": "the campaign file: its format, every check with its "
    "message, and the write-back after a fight",
    "fightdesk/ui/cards.py": "the fighter card widget and its layout",
    "fightdesk/ui/fighter_form.py": "the fighter editor's form: a widget per field kind, "
    "the maneuver table, the Now values that follow the sheet, validation",
    "fightdesk/ui/gm_actions.py": "the GM's actions on the window, each dialog it opens "
    "and the command it sends",
    "fightdesk/ui/library_panel.py": "the library dock: its table model, filter and panel",
    "fightdesk/ui/main_window.py": "the window's actions and menus wired in one place",
    "fightdesk/ui/models.py": "the Qt item models of the cards, the stack and the log",
    "fightdesk/ui/table_editor.py": "the roll-table editor dialog and its validation",
    "fightdesk/ui/timeline.py": "the timeline widget's painting and hit-testing",
}


def _lengths() -> dict[str, int]:
    return {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
            for path in (ROOT / "fightdesk").rglob("*.py")}


def test_every_long_module_has_its_reason() -> None:
    long = {path for path, lines in _lengths().items() if lines > LIMIT}
    assert long <= set(LONG), f"over {LIMIT} lines with no reason: {sorted(long - set(LONG))}"

