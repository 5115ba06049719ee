"""Headless fight driver for the crash-recovery test: plays a seeded fight with autosave on.

Run as a script (``python tests/storage/crash_driver.py --root DIR --seed N ...``) it
uses the same engine and storage code as the app: a fresh fight from the demo, or with
``--resume`` the fight the autosave restores (exactly what the app does after a crash).
After every completed GM action it appends ``<index> <fingerprint>`` to the progress
file, fsynced, and prints ``STEP <index>``; the test SIGKILLs it at a moment of its
choosing.

``--trap KIND:N`` makes the Nth call of ``os.<KIND>`` (write, fsync, replace, unlink,
link) print ``TRAP`` and hang right there, so the test kills it inside a journal write
(a ``write`` trap first writes half the line: a torn record), inside a snapshot or a
save (``replace``: the temporary file is written but not yet renamed), or between
compaction steps. ``--trap save:N`` hangs inside the Nth save's renames, ``--trap
pending:N`` after the Nth action that leaves a decision pending (the middle of an
interrupt stack resolution).

The policy that picks each action depends only on the seed, the action's index and the
state, so :func:`reference` replays the same fight in memory for the test to compare.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # run as a plain script from anywhere
    sys.path.insert(0, str(REPO))

from fightdesk.engine import commands as c  # noqa: E402
from fightdesk.engine.engine import Engine  # noqa: E402
from fightdesk.engine.model import Session  # noqa: E402

DEMO = REPO / "resources" / "demo_fight.json"
# The driver's own bookkeeping bypasses the traps (they count the storage code's calls).
_write, _fsync = os.write, os.fsync
SAVED_NAME = "saved.json"


def fingerprint(session: Session) -> str:
    """The whole session (state, log, redo) as one short hash."""
    return hashlib.sha256(session.model_dump_json().encode()).hexdigest()[:20]


def new_session() -> Session:
    return Session.model_validate_json(DEMO.read_text())


# --- the seeded policy ----------------------------------------------------------------------

Action = tuple[str, Any]  # ("apply", command) | ("undo", None) | ("redo", None) | ("save", None)


def choose(seed: int, index: int, engine: Engine) -> Action:
    """The GM's action number ``index`` of the fight seeded ``seed``, given the state now."""
    rng = random.Random(f"{seed}:{index}")
    enc = engine.encounter
    pending = engine.pending()
    if pending is not None and rng.random() < 0.85:
        # Answer the decision the rules wait for (one answer = one log entry).
        if pending.choices:
            choice = rng.choice(pending.choices).id
            return "apply", c.Answer(decision_id=pending.id, choice=choice)
        low = pending.minimum or 0
        high = pending.maximum if pending.maximum is not None else low
        return "apply", c.Answer(decision_id=pending.id, amount=rng.randint(low, max(low, high)))
    roll = rng.random()
    if roll < 0.30:
        command = _ruleset_action(rng, engine)
        if command is not None:
            return "apply", command
    roll = rng.random()
    fighters = list(enc.order)
    if roll < 0.30 and fighters:
        fid = rng.choice(fighters)
        top = enc.fighters[fid].sheet.health
        return "apply", c.SetValue(fighter_id=fid, field="status.health", value=rng.randint(0, top))
    if roll < 0.45:
        return "apply", c.FreeRoll(notation=rng.choice(["1d10", "3d10>=6", "2d6+3", "5d10"]),
                                   who=rng.choice(["", "Kaede"]))
    if roll < 0.55:
        return "apply", c.Note(text=f"note {index}")
    if roll < 0.60 and len(fighters) < 12:
        template = enc.fighters[fighters[0]].model_dump(mode="json") if fighters else None
        if template is not None:
            template.update(name=rng.choice(["Thug", "Guard"]), group=None)
            return "apply", c.AddFighters(fighter=template, count=rng.randint(1, 3))
    if roll < 0.75 and engine.can_undo():
        return "undo", None
    if roll < 0.88 and engine.can_redo():
        return "redo", None
    if roll < 0.95:
        return "save", None
    return "apply", c.Note(text=f"plain note {index}")


def _ruleset_action(rng: random.Random, engine: Engine) -> c.Command | None:
    """A real round command or fighter action, from the ruleset's own views (so the
    driver plays whatever the ruleset offers: round controls, action forms)."""
    enc = engine.encounter
    ruleset = engine.ruleset
    controls = ruleset.round_controls(enc)
    options: list[c.Command | _FormChoice] = []
    if controls.can_start_fight:
        options.append(c.StartFight())
    if controls.can_start_round:
        options.append(c.StartRound())
    if controls.can_next_step:
        options.append(c.NextStep())
    if controls.can_end_round:
        options.append(c.EndRound())
    for fid in enc.order:
        try:
            forms = ruleset.action_forms(enc, fid)
        except Exception:
            continue
        for form in forms:
            if form.enabled:
                options.append(_FormChoice(fid, form.id, form.fields))
    if not options:
        return None
    picked = rng.choice(options)
    if isinstance(picked, _FormChoice):
        values: dict[str, Any] = {}
        for f in picked.fields:
            if f.kind == "choice" and f.choices:
                values[f.name] = rng.choice(f.choices)[0]
            elif f.kind == "number":
                values[f.name] = rng.randint(f.minimum, max(f.minimum, f.maximum)) \
                    if f.maximum > f.minimum else f.default
            elif f.kind == "flag":
                values[f.name] = f.default if f.default is not None else False
            else:
                values[f.name] = f.default
        try:
            return ruleset.build_command(picked.form_id, picked.fighter_id, values)
        except Exception:
            return None
    return picked


class _FormChoice:
    def __init__(self, fighter_id: str, form_id: str, fields: Any) -> None:
        self.fighter_id = fighter_id
        self.form_id = form_id
        self.fields = fields


def perform(engine: Engine, action: Action, on_save: Callable[[], None]) -> None:
    kind, command = action
    if kind == "apply":
        engine.apply(command)
    elif kind == "undo":
        engine.undo()
    elif kind == "redo":
        engine.redo()
    else:
        on_save()


def reference(seed: int, steps: int) -> list[str]:
    """Fingerprints of the fight after 0, 1, ... ``steps`` actions, played in memory."""
    engine = Engine(new_session())
    prints = [fingerprint(engine.session)]
    for index in range(steps):
        perform(engine, choose(seed, index, engine), lambda: None)
        prints.append(fingerprint(engine.session))
    return prints


def play(engine: Engine, seed: int, start: int, steps: int,
         on_save: Callable[[], None]) -> Iterator[int]:
    """Play actions ``start`` .. ``steps - 1``; yields each index once it completed."""
    for index in range(start, steps):
        perform(engine, choose(seed, index, engine), on_save)
        yield index + 1


# --- traps: hang inside a chosen OS call so the test kills us right there -------------------


class Traps:
    """Counts calls of a few ``os`` functions and hangs in the chosen one."""

    def __init__(self, spec: str | None) -> None:
        self.kind, self.at = None, 0
        if spec:
            kind, _, at = spec.partition(":")
            self.kind, self.at = kind, int(at)
        self.calls: dict[str, int] = {}
        self.saving = 0
        self.pending_seen = 0

    def hang(self) -> None:
        print("TRAP", flush=True)
        time.sleep(120)
        os._exit(3)  # the test did not kill us: fail loudly

    def install(self) -> None:
        for name in ("write", "fsync", "replace", "unlink", "link"):
            real = getattr(os, name)
            setattr(os, name, self._wrap(name, real))

    def _wrap(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            count = self.calls[name] = self.calls.get(name, 0) + 1
            if self.kind == name and count == self.at:
                if name == "write" and len(args) == 2 and len(args[1]) > 1:
                    real(args[0], bytes(args[1][: len(args[1]) // 2]))  # a torn record
                self.hang()
            if self.kind == "save" and self.saving and name == "replace":
                self.saving -= 1
                if self.saving == 0:
                    self.hang()
            return real(*args, **kwargs)

        return call

    def before_save(self, number: int, rng: random.Random) -> None:
        if self.kind == "save" and number == self.at:
            # Hang at the 1st (the GM's file), 2nd (the autosave snapshot) or 3rd
            # (the bookkeeping file) rename of this save.
            self.saving = rng.randint(1, 3)

    def after_action(self, engine: Engine) -> None:
        if self.kind == "pending" and engine.pending() is not None:
            self.pending_seen += 1
            if self.pending_seen == self.at:
                self.hang()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, required=True, help="the autosave folder")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--progress", type=Path, required=True)
    parser.add_argument("--resume", type=int, default=None, metavar="INDEX",
                        help="restore the autosaved fight, which is after action INDEX")
    parser.add_argument("--trap", default=None)
    args = parser.parse_args(argv)

    from fightdesk.storage.autosave import Autosave
    from fightdesk.storage.sessions import save_session

    traps = Traps(args.trap)
    traps.install()
    saved_path = args.root.parent / SAVED_NAME
    autosave = Autosave(args.root)
    if args.resume is None:
        start = 0
        engine = Engine(new_session())
        autosave.attach(engine)
    else:
        start = args.resume
        info = autosave.recoverable()
        if info is None:
            print("NOTHING-TO-RESTORE", flush=True)
            return 4
        engine = Engine(autosave.restore(info.fight_id))
        autosave.attach(engine, info.path, fight_id=info.fight_id, saved=not info.unsaved)
    saves = 0
    save_rng = random.Random(args.seed * 7 + start)

    def on_save() -> None:
        nonlocal saves
        saves += 1
        traps.before_save(saves, save_rng)
        save_session(engine.session, saved_path)
        autosave.mark_saved(saved_path)

    progress = os.open(args.progress, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    print("READY", flush=True)
    for done in play(engine, args.seed, start, args.steps, on_save):
        line = f"{done} {fingerprint(engine.session)}\n".encode()
        _write(progress, line)
        _fsync(progress)
        print(f"STEP {done}", flush=True)
        traps.after_action(engine)
    autosave.mark_clean_exit()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
