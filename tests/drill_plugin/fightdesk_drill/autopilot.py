"""The drill's autopilot, for the simulator."""

from __future__ import annotations

import random
from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.ruleset import Autopilot


class DrillAutopilot(Autopilot):
    """Plays the drill from its own views' legal commands."""

    def next_command(self, enc: Any, rng: random.Random) -> c.Command | None:
        """A plain table: answer with the app's rolls, make a waiting roll, strike on
        half of the turns, else pass the turn and start the next round."""
        forms: dict[str, Any] = {}
        for option in self.legal_commands(enc):
            if option.size:
                forms.setdefault(option.form_id, option)
        wanted = ["answer", "make-roll"]
        if enc.state.roll is None and rng.random() < 0.5:
            wanted.append("act")
        wanted += ["next-step", "start-round", "start-fight"]
        for form in wanted:
            if form in forms:
                return forms[form].command_at(rng.randrange(forms[form].size))
        return None
