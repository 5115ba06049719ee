"""Round and fight summaries as plain data, read from a session's log.

The summary never runs a rule again: it reads the events each log entry recorded (the
shared event vocabulary of docs/ARCHITECTURE.md: ``act``, ``interrupt``, ``damage``,
``points-gain``...) and rebuilds the encounter at the end of each round by replaying the
entries' recorded changes on a copy of ``session.start``. Fighter states come from the
ruleset's ``card()`` view, so every ruleset is summarised the same way. The HTML and
Markdown renderers (``fightdesk.report.render``) both read these objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from ..engine.changes import apply_all
from ..engine.log_lines import action_line, action_lines
from ..engine.model import Encounter, Event, LogEntry, Session
from ..engine.ruleset import Ruleset, get_ruleset


class SummaryProblem(ValueError):
    """The session cannot be summarised as asked (a round it does not have, a broken log)."""


@dataclass(frozen=True)
class DiceRoll:
    """One roll as printed: who rolled what for, the faces, typed in or rolled by the app."""

    who: str
    purpose: str
    notation: str
    faces: tuple[int, ...]
    typed: bool
    outcome: str = ""
    # The faces as the table reads them (H and T for coins, 00 for a d100's 100).
    shown: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return "typed in" if self.typed else "app roll"

    @property
    def faces_text(self) -> str:
        return ", ".join(self.shown or tuple(str(f) for f in self.faces)) or "no dice"

    def describe(self) -> str:
        """``Kaede: 4d10 for damage [6, 2, 9, 10] typed in -> 3 successes``"""
        head = f"{self.who}: " if self.who else ""
        what = f" for {self.purpose}" if self.purpose else ""
        tail = f" -> {self.outcome}" if self.outcome else ""
        return f"{head}{self.notation}{what} [{self.faces_text}] {self.source}{tail}"


@dataclass(frozen=True)
class Happening:
    """One event of a log entry: its kind from the shared vocabulary, its text, its roll."""

    kind: str
    text: str
    fighter: str = ""
    roll: DiceRoll | None = None


ActionKind = Literal["act", "interrupt", "resolve", "round", "gm", "note", "other"]


@dataclass(frozen=True)
class Action:
    """One GM action (one log entry) with everything it caused, in order.

    ``continues`` is true when the entry belongs to the same undo step as the one before
    (a reaction or an answer inside one interrupt resolution)."""

    seq: int
    where: str
    kind: ActionKind
    actor: str
    headline: str
    happenings: tuple[Happening, ...]
    continues: bool = False

    @property
    def dice(self) -> tuple[DiceRoll, ...]:
        return tuple(h.roll for h in self.happenings if h.roll is not None)


@dataclass(frozen=True)
class Turn:
    """Someone acting or reacting, in the order it was declared."""

    fighter_id: str
    fighter: str
    kind: Literal["act", "interrupt"]
    where: str = ""
    maneuver: str = ""
    die: str = ""
    speed: int | None = None
    points: int = 0

    def describe(self, points_label: str = "points") -> str:
        bits: list[str] = []
        if self.kind == "interrupt":
            bits.append("interrupts")
        if self.maneuver:
            bits.append(self.maneuver)
        if self.where:
            bits.append(self.where)
        if self.die:
            bits.append(f"die {self.die}")
        if self.speed is not None:
            bits.append(f"speed {self.speed}")
        if self.points:
            bits.append(f"{self.points} {points_label}")
        return f"{self.fighter} ({', '.join(bits)})" if bits else self.fighter


@dataclass
class Tally:
    """What one fighter dealt, took, gained and spent over a stretch of the fight."""

    fighter_id: str
    fighter: str
    actions: int = 0
    damage_dealt: int = 0
    damage_taken: int = 0
    healed: int = 0
    points_gained: int = 0
    points_spent: int = 0
    conditions_gained: list[str] = field(default_factory=list)
    conditions_lost: list[str] = field(default_factory=list)
    went_down: bool = False

    @property
    def quiet(self) -> bool:
        """Nothing to report for this fighter."""
        return not (self.actions or self.eventful)

    @property
    def eventful(self) -> bool:
        """Something happened to this fighter besides taking actions."""
        return bool(
            self.damage_dealt or self.damage_taken or self.healed or self.points_gained
            or self.points_spent or self.conditions_gained or self.conditions_lost
            or self.went_down
        )

    def add(self, other: Tally) -> None:
        self.actions += other.actions
        self.damage_dealt += other.damage_dealt
        self.damage_taken += other.damage_taken
        self.healed += other.healed
        self.points_gained += other.points_gained
        self.points_spent += other.points_spent
        self.conditions_gained.extend(other.conditions_gained)
        self.conditions_lost.extend(other.conditions_lost)
        self.went_down = self.went_down or other.went_down


@dataclass(frozen=True)
class Amount:
    """A resource on the card: ``EP 3``, ``Chi 2/3``."""

    label: str
    value: int
    maximum: int | None = None

    @property
    def text(self) -> str:
        return f"{self.value}/{self.maximum}" if self.maximum is not None else str(self.value)


@dataclass(frozen=True)
class FighterState:
    """A fighter as the card shows them at the end of a round."""

    fighter_id: str
    name: str
    side: str
    health: int
    health_max: int
    resources: tuple[Amount, ...]
    conditions: tuple[str, ...]
    out: bool

    def resource(self, label: str) -> Amount | None:
        return next((r for r in self.resources if r.label == label), None)


@dataclass(frozen=True)
class RoundSummary:
    """One round: who acted in what order, every action, the tallies, the end state.

    Round 0 holds what happened before round 1 (fight start, concentration, roster)."""

    number: int
    turns: tuple[Turn, ...]
    actions: tuple[Action, ...]
    tallies: tuple[Tally, ...]
    down: tuple[str, ...]
    states: tuple[FighterState, ...]

    @property
    def title(self) -> str:
        return "Before round 1" if self.number == 0 else f"Round {self.number}"

    @property
    def end_title(self) -> str:
        """The heading of the fighters' state after this round's entries."""
        return "State before round 1" if self.number == 0 else f"At the end of round {self.number}"

    @property
    def short_title(self) -> str:
        return "pre" if self.number == 0 else f"R{self.number}"

    @property
    def dice(self) -> tuple[DiceRoll, ...]:
        return tuple(d for a in self.actions for d in a.dice)


@dataclass(frozen=True)
class Series:
    """One fighter's health and main resource at each point of the chart (None: absent)."""

    fighter_id: str
    name: str
    side: str
    health: tuple[int | None, ...]
    health_max: int
    resource: tuple[int | None, ...]


@dataclass(frozen=True)
class FightChart:
    """Health and the ruleset's main resource per fighter, before and after each round."""

    labels: tuple[str, ...]
    resource_label: str
    series: tuple[Series, ...]

    @property
    def health_top(self) -> int:
        values = [v for s in self.series for v in s.health if v is not None]
        return max([1, *values, *(s.health_max for s in self.series)])

    @property
    def resource_top(self) -> int:
        values = [v for s in self.series for v in s.resource if v is not None]
        return max([1, *values])


Scope = Literal["round", "rounds", "fight"]


@dataclass(frozen=True)
class FightSummary:
    """What gets printed: one round, chosen rounds, or the whole fight with totals."""

    title: str
    ruleset: str
    scope: Scope
    points_label: str
    rounds: tuple[RoundSummary, ...]
    totals: tuple[Tally, ...]
    chart: FightChart
    start_states: tuple[FighterState, ...]

    @property
    def heading(self) -> str:
        if self.scope == "round" and self.rounds:
            return f"{self.title}: {self.rounds[0].title}"
        if self.scope == "rounds":
            return f"{self.title}: {', '.join(r.title for r in self.rounds)}"
        return f"{self.title}: fight summary"

    @property
    def shows_totals(self) -> bool:
        """Totals and the chart are for more than one round."""
        return self.scope != "round"


# --- reading the log ------------------------------------------------------------------


def available_rounds(session: Session) -> tuple[int, ...]:
    """The rounds the log has entries for, in order (0 = before round 1)."""
    return tuple(sorted({entry.round for entry in session.log}))


def current_round(session: Session) -> int | None:
    """The round the GM is in (or the last logged one); None for an empty log."""
    rounds = available_rounds(session)
    if not rounds:
        return None
    live = session.encounter.round
    return live if live in rounds else rounds[-1]


def summarize(session: Session, rounds: Iterable[int] | None = None,
              scope: Scope | None = None) -> FightSummary:
    """Summarise the given rounds (all logged rounds when None).

    Raises :class:`SummaryProblem` for a round the log does not have, or a log whose
    changes do not replay on its start."""
    have = available_rounds(session)
    if not have:
        raise SummaryProblem("the session's log is empty: nothing has happened yet")
    wanted = sorted(set(have if rounds is None else rounds))
    missing = [n for n in wanted if n not in have]
    if missing or not wanted:
        span = _span(have)
        which = f"round {missing[0]}" if missing else "no round"
        raise SummaryProblem(f"{which} is not in this session (it has {span})")
    if scope is None:
        scope = "fight" if rounds is None else ("round" if len(wanted) == 1 else "rounds")
    ruleset = get_ruleset(session.start.ruleset)
    reader = _LogReader(session, ruleset)
    summaries, ends = reader.read(set(wanted))
    start_of_first = reader.before[wanted[0]]
    points_label = _points_label(start_of_first, ends)
    totals: dict[str, Tally] = {}
    for rnd in summaries:
        for tally in rnd.tallies:
            total = totals.setdefault(tally.fighter_id, Tally(tally.fighter_id, tally.fighter))
            total.add(tally)
    order = _fighter_order(start_of_first, [ends[r.number] for r in summaries])
    chart = _chart(start_of_first, summaries, order, points_label)
    return FightSummary(
        # The fight's name now: a fight the GM renamed is summarised under its new name.
        title=session.encounter.name or session.start.name,
        ruleset=ruleset.title or ruleset.id,
        scope=scope,
        points_label=points_label,
        rounds=tuple(summaries),
        totals=tuple(totals[f] for f in order if f in totals),
        chart=chart,
        start_states=start_of_first.states,
    )


def _span(have: Sequence[int]) -> str:
    played = [n for n in have if n > 0]
    parts = []
    if 0 in have:
        parts.append("round 0, before round 1")
    if played:
        parts.append(f"round {played[0]}" if len(played) == 1
                     else f"rounds {played[0]}..{played[-1]}")
    return " and ".join(parts)


class _LogReader:
    """Walks the log once: replays changes, keeps names, and reads each wanted round."""

    def __init__(self, session: Session, ruleset: Ruleset) -> None:
        self.session = session
        self.ruleset = ruleset
        self.names: dict[str, str] = {}
        # How the fight stood before the first entry of each wanted round.
        self.before: dict[int, _Moment] = {}
        # Log seq -> {fighter id: health change} of the GM's overrides in that entry.
        self.overrides: dict[int, dict[str, int]] = {}
        # Log seq -> the fighters that entry put out of the fight (Rules.is_out), in order.
        self.went_down: dict[int, list[str]] = {}

    def _is_out(self, enc: Encounter, fighter_id: str) -> bool:
        try:
            return bool(self.ruleset.rules.is_out(enc.fighters[fighter_id]))
        except Exception:  # a fighter a damaged log left half-made counts as standing
            return False

    def _out(self, enc: Encounter) -> set[str]:
        return {fid for fid in enc.fighters if self._is_out(enc, fid)}

    def _health_before(self, enc: Encounter, entry: LogEntry) -> dict[str, int]:
        """Health of the fighters a GM override in ``entry`` names, before it replays:
        an override event carries no amount, so the change is read off the card."""
        ids = {e.fighter_id for e in entry.events if e.kind == "override" and e.fighter_id}
        return {fid: self._health(enc, fid) for fid in ids if fid in enc.fighters}

    def _health(self, enc: Encounter, fighter_id: str) -> int:
        try:
            return int(self.ruleset.views.card(enc, fighter_id).health)
        except Exception:  # a fighter a damaged log left half-made counts as unchanged
            return 0

    def _health_changes(self, enc: Encounter, before: dict[str, int]) -> dict[str, int]:
        return {fid: self._health(enc, fid) - was for fid, was in before.items()
                if fid in enc.fighters and self._health(enc, fid) != was}

    def read(self, wanted: set[int]) -> tuple[list[RoundSummary], dict[int, _Moment]]:
        """One replay of the log; what the summary needs of the fight at a round's start
        and end is read off the replay there (no copies of the whole fight)."""
        enc = self.session.start.model_copy(deep=True)
        self._learn_names(enc)
        log = self.session.log
        last_of = {entry.round: i for i, entry in enumerate(log)}
        collected: dict[int, list[tuple[LogEntry, bool]]] = {n: [] for n in wanted}
        ends: dict[int, _Moment] = {}
        previous_step: int | None = None
        # The end of one round is the start of the next: read once, kept for both.
        last_end: tuple[int, _Moment] | None = None
        for i, entry in enumerate(log):
            if entry.round in wanted and entry.round not in self.before:
                self.before[entry.round] = (last_end[1] if last_end and last_end[0] == i
                                            else _moment(self.ruleset, enc))
            overridden = self._health_before(enc, entry) if entry.round in collected else {}
            out_before = self._out(enc) if entry.round in collected else set()
            try:
                apply_all(enc, entry.changes)
            except Exception as exc:  # a hand-edited or damaged log
                raise SummaryProblem(
                    f"log entry {entry.seq} ({entry.summary!r}) does not replay: {exc}"
                ) from None
            self._learn_names(enc)
            if overridden:
                self.overrides[entry.seq] = self._health_changes(enc, overridden)
            if entry.round in collected:
                went = [fid for fid in enc.order if fid in enc.fighters
                        and fid not in out_before and self._is_out(enc, fid)]
                if went:
                    self.went_down[entry.seq] = went
            if entry.round in collected:
                collected[entry.round].append((entry, entry.step == previous_step))
            previous_step = entry.step
            if last_of[entry.round] == i and entry.round in wanted:
                ends[entry.round] = _moment(self.ruleset, enc)
                last_end = (i + 1, ends[entry.round])
        summaries = [self._round(n, collected[n], ends[n]) for n in sorted(wanted)]
        return summaries, ends

    def _learn_names(self, enc: Encounter) -> None:
        for fid, fighter in enc.fighters.items():
            self.names[fid] = fighter.name

    def name(self, fighter_id: Any) -> str:
        if fighter_id is None:
            return ""
        return self.names.get(str(fighter_id), str(fighter_id))

    def fighter_id(self, ref: Any) -> str:
        """A fighter id from an event's ``target``: an id, or a name as a fallback."""
        text = str(ref)
        if text in self.names:
            return text
        for fid, name in self.names.items():
            if name == text:
                return fid
        return text

    def _round(self, number: int, entries: list[tuple[LogEntry, bool]],
               end: _Moment) -> RoundSummary:
        turns: list[Turn] = []
        actions: list[Action] = []
        tallies: dict[str, Tally] = {}
        down: list[str] = []

        def tally(fid: str) -> Tally:
            if fid not in tallies:
                tallies[fid] = Tally(fid, self.name(fid))
            return tallies[fid]

        # One action a row: the entries of one undo step (a move, its interrupts, the
        # answers to its questions) are read together.
        steps: list[tuple[list[LogEntry], bool]] = []
        for entry, continues in entries:
            if continues and steps:
                steps[-1][0].append(entry)
            else:
                steps.append(([entry], continues))
            source: str | None = None  # who the damage and healing of this entry come from
            for event in entry.events:
                kind = event.kind
                data = event.data
                fid = event.fighter_id
                if kind in ("act", "interrupt") and fid:
                    turns.append(_turn(self, event, entry.where))
                    tally(fid).actions += 1
                    source = fid
                elif kind == "resolve" and fid:
                    source = fid
                elif kind in ("damage", "heal"):
                    amount = _int(data.get("amount"))
                    target = self.fighter_id(data.get("target", fid))
                    giver = data.get("source") or (fid if fid and fid != target else source)
                    if kind == "damage":
                        tally(target).damage_taken += amount
                        if giver and giver != target:
                            tally(str(giver)).damage_dealt += amount
                    else:
                        tally(target).healed += amount
                elif kind in ("points-gain", "points-spend") and fid:
                    amount = _int(data.get("amount"))
                    if kind == "points-gain":
                        tally(fid).points_gained += amount
                    else:
                        tally(fid).points_spent += amount
                elif kind in ("condition-on", "condition-off") and fid:
                    name = str(data.get("name") or event.text)
                    if kind == "condition-on":
                        tally(fid).conditions_gained.append(name)
                    else:
                        tally(fid).conditions_lost.append(name)
                elif kind == "override" and fid and fid in self.overrides.get(entry.seq, {}):
                    # The GM's damage / heal typed on the card counts like any other.
                    change = self.overrides[entry.seq].pop(fid)
                    if change < 0:
                        tally(fid).damage_taken -= change
                    else:
                        tally(fid).healed += change
            # Who went down is read off the fight, whatever the ruleset logged.
            for fid in self.went_down.get(entry.seq, ()):
                tally(fid).went_down = True
                if self.name(fid) not in down:
                    down.append(self.name(fid))
        for step, continues in steps:
            action = self._action(step, continues)
            if action is not None:
                actions.append(action)
        order = end.order
        ordered = [tallies[f] for f in order if f in tallies]
        ordered += [t for f, t in tallies.items() if f not in order]
        return RoundSummary(
            number=number,
            turns=tuple(turns),
            actions=tuple(actions),
            tallies=tuple(ordered),
            down=tuple(down),
            states=end.states,
        )

    def _action(self, step: list[LogEntry], continues: bool) -> Action | None:
        """One row: the step's first entry says the action; what every entry of the step
        caused follows, each thing said once (engine/log_lines.py)."""
        entry = step[0]
        kinds = [e.kind for e in entry.events if e.kind != "ask"]
        # A bare "next phase" or "next turn" is shown as the heading, not as an action.
        if len(step) == 1 and kinds and all(k == "step" for k in kinds):
            return None
        happenings = tuple(
            Happening(kind="note", text=line.summary,
                      fighter=self.name(next((e.fighter_id for e in line.events), None)))
            if event is None else
            Happening(kind=event.kind, text=event.text, fighter=self.name(event.fighter_id),
                      roll=_dice(event))
            # The questions the rules asked are not what happened; the answers are.
            for line, event in action_lines(step) if event is None or event.kind != "ask"
        )
        kind = _action_kind(kinds)
        actor_event = next((e for e in entry.events if e.kind in ("act", "interrupt")), None)
        if actor_event is None:
            actor_event = next((e for e in entry.events if e.kind == "resolve"), None)
        if actor_event is None and kind in ("gm", "other"):
            # A GM override or a free roll: the fighter it concerns, if any.
            actor_event = next((e for e in entry.events if e.fighter_id), None)
        return Action(
            seq=entry.seq,
            where=entry.where,
            kind=kind,
            actor=self.name(actor_event.fighter_id) if actor_event else "",
            headline=action_line(step),
            happenings=happenings,
            continues=continues,
        )


def _action_kind(kinds: list[str]) -> ActionKind:
    for wanted, result in (
        ("interrupt", "interrupt"), ("act", "act"), ("resolve", "resolve"),
    ):
        if wanted in kinds:
            return result  # type: ignore[return-value]
    if any(k in ("round-start", "round-end", "step") for k in kinds):
        return "round"
    if any(k in ("override", "roster") for k in kinds):
        return "gm"
    if kinds and all(k == "note" for k in kinds):
        return "note"
    return "other"


def _turn(reader: _LogReader, event: Event, where: str) -> Turn:
    data = event.data
    speed = data.get("speed")
    die = data.get("die")
    return Turn(
        fighter_id=str(event.fighter_id),
        fighter=reader.name(event.fighter_id),
        kind="interrupt" if event.kind == "interrupt" else "act",
        where=where,
        maneuver=str(data.get("maneuver") or ""),
        die="" if die is None else str(die),
        speed=speed if isinstance(speed, int) else None,
        points=_int(data.get("ep")),
    )


def _dice(event: Event) -> DiceRoll | None:
    roll = event.roll
    if roll is None:
        return None
    return DiceRoll(
        who=roll.who,
        purpose=roll.purpose,
        notation=roll.notation,
        faces=tuple(roll.faces),
        typed=roll.source == "typed",
        outcome=roll.outcome,
        shown=tuple(roll.shown_faces) if roll.coins else (),
    )


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _fighter_order(first: _Moment, later: Sequence[_Moment]) -> list[str]:
    """Fighters in the encounter's order, then anyone who joined later."""
    order = list(first.order)
    seen = set(order)
    for moment in later:
        for fid in moment.order:
            if fid not in seen:
                order.append(fid)
                seen.add(fid)
    return order


class _Moment(NamedTuple):
    """What a summary reads of the fight at one moment (a round's start or end)."""

    order: list[str]  # the encounter's order, then fighters not in it
    states: tuple[FighterState, ...]
    # The first resource on the card of a fighter in the order (EP...), if any.
    points_label: str | None


def _moment(ruleset: Ruleset, enc: Encounter) -> _Moment:
    order = list(enc.order) + [f for f in enc.fighters if f not in enc.order]
    states = _states(ruleset, enc, order)
    in_order = set(enc.order)
    label = next((s.resources[0].label for s in states
                  if s.fighter_id in in_order and s.resources), None)
    return _Moment(order, states, label)


def _states(ruleset: Ruleset, enc: Encounter, order: list[str]) -> tuple[FighterState, ...]:
    result = []
    for fid in order:
        if fid not in enc.fighters:
            continue
        card = ruleset.views.card(enc, fid)
        result.append(FighterState(
            fighter_id=fid,
            name=card.title,
            side=card.side,
            health=card.health,
            health_max=card.health_max,
            resources=tuple(Amount(r.label, r.value, r.maximum) for r in card.resources),
            conditions=tuple(c.text for c in card.conditions),
            out=card.out,
        ))
    return tuple(result)


def _points_label(first: _Moment, ends: dict[int, _Moment]) -> str:
    """The ruleset's main resource: the first resource on a fighter's card (EP...)."""
    for moment in [first, *ends.values()]:
        if moment.points_label is not None:
            return moment.points_label
    return "points"


def _chart(first: _Moment, rounds: Sequence[RoundSummary],
           order: list[str], resource_label: str) -> FightChart:
    points = [("start", first.states)] + [
        (r.short_title, r.states) for r in rounds
    ]
    series: list[Series] = []
    for fid in order:
        health: list[int | None] = []
        resource: list[int | None] = []
        name, side, top = fid, "", 0
        for _, states in points:
            state = next((s for s in states if s.fighter_id == fid), None)
            if state is None:
                health.append(None)
                resource.append(None)
                continue
            name, side, top = state.name, state.side, max(top, state.health_max)
            health.append(state.health)
            amount = state.resource(resource_label)
            resource.append(amount.value if amount else None)
        series.append(Series(fid, name, side, tuple(health), top, tuple(resource)))
    return FightChart(
        labels=tuple(label for label, _ in points),
        resource_label=resource_label,
        series=tuple(series),
    )
