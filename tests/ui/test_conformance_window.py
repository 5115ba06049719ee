"""The window's half of what every ruleset must do, parametrized over the registry (the
built-ins and the drill plugin; tests/engine/test_conformance.py has the engine's half):
the library's Health column and the editor's "Fully rested" read the ruleset's own
fields, and a roll waiting on the roll panel is typed there, with no dialog over it."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from fightdesk.engine.ruleset import get_ruleset
from fightdesk.engine.rulesets import known_ids, registered
from fightdesk.storage.library import new_fighter
from tests.engine.test_conformance import fight

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

ALL = list(known_ids())
PLAYABLE = [rid for rid in ALL if get_ruleset(rid).rules.rules_built]


def hurt(ruleset: str) -> object:
    """A fighter whose sheet's full health is 18 and who has 7 left."""
    now, full = registered()[ruleset].health
    fighter = new_fighter(ruleset, "Kaede", "kaede")
    sheet = fighter.sheet.model_copy(update={full: 18})
    status = fighter.status.model_copy(update={now: 7})
    return fighter.model_copy(update={"sheet": sheet, "status": status})


@pytest.mark.parametrize("ruleset", ALL)
def test_the_library_health_column_reads_the_ruleset_s_fields(ruleset: str) -> None:
    from fightdesk.ui.library_panel import LibraryModel

    assert LibraryModel.COLUMNS[2] == "Health"
    assert LibraryModel._text(hurt(ruleset), 2) == "7/18"  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", ALL)
def test_fully_rested_sets_the_lasting_values_the_rules_give(ruleset: str,
                                                             qtbot: QtBot) -> None:
    from fightdesk.ui.fighter_form import FighterForm

    fighter = hurt(ruleset)
    form = FighterForm(fighter)  # type: ignore[arg-type]
    qtbot.addWidget(form)
    if not get_ruleset(ruleset).rules.lasting_status:
        return  # nothing carried from fight to fight: no button
    qtbot.mouseClick(form.rested_button, Qt.MouseButton.LeftButton)
    now_field = registered()[ruleset].health[0]
    assert form.editors[f"status.{now_field}"].value() == 18
    made = form.fighter()
    assert made is not None
    rested = get_ruleset(ruleset).rules.rested_values(made.sheet)
    for name in get_ruleset(ruleset).rules.lasting_status:
        if name in rested:
            assert getattr(made.status, name) == rested[name], name


def _typed(dice: str) -> str:
    """Faces for a waiting roll as the GM types them: 1s, or heads for coins."""
    count = int(dice.split()[0]) if "coin" in dice else int(dice.split("d")[0])
    return " ".join(["H" if "coin" in dice else "1"] * count)


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_a_waiting_roll_is_typed_on_the_roll_panel(ruleset: str, window: MainWindow,
                                                   qtbot: QtBot) -> None:
    engine = fight(ruleset, seed=6)
    rules, enc = engine.ruleset, engine.encounter
    rng = random.Random(1)
    for _ in range(300):
        if rules.views.roll_view(enc) is not None:
            break
        command = rules.autopilot.next_command(enc, rng)
        assert command is not None and engine.apply(command).ok
    view = rules.views.roll_view(enc)
    if view is None:
        pytest.skip(f"{ruleset} makes its rolls in the action dialog (no roll waits)")
    window.show_session(engine, None)
    # Nothing opens over the roll panel; the stack dialog, opened, closes again.
    assert window._stack_dialog is None or not window._stack_dialog.isVisible()
    if window.stack_action.isEnabled():
        window.stack_action.trigger()
        stack = window._stack_dialog
        assert stack is not None
        stack.close()
        assert not stack.isVisible()
    panel = window.roll_panel
    assert panel.isVisible() and panel.dice.isEnabled()
    if view.blocked:
        return  # a choice comes first (the Roll button says which)
    logged = len(engine.session.log)
    qtbot.keyClicks(panel.dice, _typed(view.dice))
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert len(engine.session.log) == logged + 1, f"{ruleset}: the typed roll was refused"
    rolls = [e.roll for e in engine.session.log[-1].events if e.roll is not None]
    assert rolls and rolls[0].source == "typed", f"{ruleset}: the typed faces were not taken"


def test_the_ruleset_choice_offers_every_registered_one_and_names_a_broken_one(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    from fightdesk.engine import rulesets
    from fightdesk.ui.ruleset_choice import RulesetChoice

    line = "ruleset plugin 'gone' (gone:RULESET) left out: ModuleNotFoundError: No module"
    monkeypatch.setattr(rulesets, "BROKEN", [("gone", line)])
    choice = RulesetChoice("New fight", "Which ruleset?")
    qtbot.addWidget(choice)
    items = [choice.list.item(i) for i in range(choice.list.count())]
    offered = [i.data(Qt.ItemDataRole.UserRole) for i in items if i.flags()]
    assert offered == list(known_ids())
    assert [i.text() for i in items if not i.flags()] == [line]
    assert choice.list.currentRow() == 0
