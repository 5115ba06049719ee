"""Two real street-fighter rounds of the demo fight, played through ``Engine.apply``.

A plain GM: on each fighter's turn they attack the first standing foe with their first
damaging maneuver (or let the die go; the thugs hang back in round 1); the first time an attack waits on the stack,
the first foe who can legally interrupt does so with a Jab (spending up to 2 EP
on speed); every question is answered
with its first choice (or the least amount). Kaede's round-1 action dice are typed in
(the player's physical dice); everything else comes from the session's seeded source,
so the fight is the same on every run.
"""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine, Outcome
from fightdesk.engine.model import Session
from fightdesk.engine.rulesets.street_fighter import commands as sf
from fightdesk.engine.rulesets.street_fighter.round import current_actor
from fightdesk.storage.sessions import demo_session

KAEDE_ROUND_ONE_DICE = [6, 6, 3, 2]  # Dexterity 4: four action dice


class DemoGM:
    def __init__(self) -> None:
        self.engine = Engine(Session.begin(demo_session().start))
        self.interrupted = False

    def do(self, command: c.Command) -> Outcome:
        return self.engine.apply(command)

    def must(self, command: c.Command) -> None:
        out = self.do(command)
        assert out.ok, f"{command.kind}: {out.error}"

    def answer_pending(self) -> bool:
        decision = self.engine.pending()
        if decision is None:
            return False
        if decision.choices:
            self.must(c.Answer(decision_id=decision.id, choice=decision.choices[0].id))
        else:
            self.must(c.Answer(decision_id=decision.id, amount=decision.minimum or 0))
        return True

    def try_interrupt(self) -> None:
        enc = self.engine.encounter
        mover = enc.state.stack[-1].fighter_id
        side = enc.fighters[mover].side
        for fid in enc.order:
            fighter = enc.fighters[fid]
            if fighter.side == side or fighter.status.health <= 0:
                continue
            for ep_speed in (0, 1, 2):
                if self.do(sf.Interrupt(fighter_id=fid, maneuver="Jab", target_id=mover,
                                        ep_speed=ep_speed)).ok:
                    self.interrupted = True
                    return

    def take_turn(self, actor: str) -> None:
        enc = self.engine.encounter
        me = enc.fighters[actor]
        foes = [f for f in enc.order
                if enc.fighters[f].side != me.side and enc.fighters[f].status.health > 0]
        if me.sheet.weenie and enc.round == 1:
            foes = []  # the thugs hang back in round 1 and watch their boss
        maneuver = next((m.name for m in me.sheet.maneuvers if not m.no_damage and not m.block),
                        None)
        if foes and maneuver and self.do(
            sf.Act(fighter_id=actor, maneuver=maneuver, target_id=foes[0])
        ).ok:
            return
        self.must(sf.PassDie(fighter_id=actor))

    def play_round(self, typed: list[list[int]]) -> None:
        self.must(c.StartRound())
        self.must(c.NextStep(dice=typed))  # roll the action dice
        for _ in range(500):
            enc = self.engine.encounter
            if self.answer_pending():
                continue
            if enc.state.stack:
                if not self.interrupted:
                    self.try_interrupt()
                self.must(sf.ResolveNext(all=True))
                continue
            actor = current_actor(enc)
            if actor is not None:
                self.take_turn(actor)
            elif self.engine.ruleset.views.round_controls(enc).next_step_label == "End of round":
                break
            else:
                self.must(c.NextStep())
        self.must(c.EndRound())
        while self.answer_pending():
            pass


def played_demo_rounds() -> Session:
    """The demo fight after its first two rounds."""
    gm = DemoGM()
    gm.must(c.StartFight())
    gm.play_round([KAEDE_ROUND_ONE_DICE])
    gm.play_round([])
    return gm.engine.session
