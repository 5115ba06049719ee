"""What the widgets show for a street-fighter fight, one module per job: the phase
timeline (``timeline``), the cards (``cards``), the interrupt stack (``stack_rows``), the
action forms (``forms``) and the commands they make (``commands``), the previews with
exact odds (``preview``), and the round controls (``controls``). Pure functions of the
encounter: the UI calls them on every change (docs/rulesets/street-fighter.md)."""

from __future__ import annotations

from .cards import card, cards, conditions
from .commands import build_command
from .controls import describe_state, round_controls, waiting_fighters
from .forms import action_forms
from .preview import preview
from .stack_rows import stack_rows
from .timeline import timeline

__all__ = ["action_forms", "build_command", "card", "cards", "conditions", "describe_state",
           "preview", "round_controls", "stack_rows", "timeline", "waiting_fighters"]
