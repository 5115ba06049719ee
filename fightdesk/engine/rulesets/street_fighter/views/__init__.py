"""What the widgets show for a street-fighter fight, one module per job: the phase
timeline (``timeline``), the cards (``cards``), the interrupt stack (``stack_rows``), the
action forms (``forms``) and the commands they make (``commands``), the previews with
exact odds (``preview``), and the round controls (``controls``). Pure functions of the
encounter: the UI calls them on every change (docs/rulesets/street-fighter.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ....ruleset import (
    ActionForm,
    Card,
    Preview,
    RoundControls,
    StackRow,
    Timeline,
    Views,
)
from ..stack import latest_open_move
from . import cards as _cards
from . import commands as _commands
from . import controls as _controls
from . import forms as _forms
from . import preview as _preview
from . import stack_rows as _stack_rows
from . import timeline as _timeline
from .cards import card, cards, conditions
from .commands import build_command
from .controls import describe_state, round_controls, waiting_fighters
from .forms import action_forms
from .preview import preview
from .stack_rows import stack_rows
from .timeline import timeline

if TYPE_CHECKING:
    from ....commands import Command
    from ....model import Encounter


class StreetFighterViews(Views):
    """The street-fighter views part: each view from the module that makes it."""

    stack_columns = ("Fighter", "Maneuver", "Die", "Speed", "EP spent", "Cost")
    role_labels: ClassVar[dict[str, str]] = {
        "act": "Act", "react": "Interrupt", "assist": "Assist", "gm": "GM"}

    def where(self, enc: Encounter) -> str:
        """The phase, as the log and the summaries have always said it."""
        state = enc.state
        if state.stage == "round-end":  # the dice left over and the questions at the end
            return "end of the phases"
        if state.phase is not None:
            return f"phase {state.phase}"
        if not enc.round or state.stage in ("setup", "fight-start", "round-start"):
            return ""
        return "end of the phases"

    def timeline(self, enc: Encounter) -> Timeline:
        return _timeline.timeline(enc)

    def card(self, enc: Encounter, fighter_id: str) -> Card:
        return _cards.card(enc, fighter_id)

    def cards(self, enc: Encounter) -> list[tuple[str, Card]]:
        return _cards.cards(enc)

    def stack(self, enc: Encounter) -> tuple[StackRow, ...]:
        return _stack_rows.stack_rows(enc)

    def attack_under_way(self, enc: Encounter) -> tuple[str, str] | None:
        move = latest_open_move(enc)
        return (move.fighter_id, move.target_id or "") if move is not None else None

    def action_forms(self, enc: Encounter, fighter_id: str) -> tuple[ActionForm, ...]:
        return _forms.action_forms(enc, fighter_id)

    def preview(self, enc: Encounter, form_id: str, fighter_id: str,
                values: dict[str, Any]) -> Preview:
        return _preview.preview(enc, form_id, fighter_id, values)

    def build_command(self, form_id: str, fighter_id: str, values: dict[str, Any]) -> Command:
        return _commands.build_command(form_id, fighter_id, values)

    def round_controls(self, enc: Encounter) -> RoundControls:
        controls = _controls.round_controls(enc)
        state = enc.state
        # A question or the stack speaks first; "X to act" is in the title already, so
        # one side down replaces it (docs/rulesets/README.md#the-end-of-a-fight).
        if (state.stage not in ("setup", "fight-over") and state.pending is None
                and not state.stack):
            controls.status = self.rules.side_down(enc) or controls.status
        return controls

    def describe_state(self, enc: Encounter) -> str:
        return _controls.describe_state(enc)


__all__ = ["StreetFighterViews", "action_forms", "build_command", "card", "cards", "conditions",
           "describe_state", "preview", "round_controls", "stack_rows", "timeline",
           "waiting_fighters"]
