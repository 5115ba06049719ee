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
pending:N`` after the Nth action that leaves a stack resolution open (moves still
to resolve or a decision pending).

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
    if rng.random() < 0.6:
        command = _ruleset_action(rng, engine)
        if command is not None:
            return "apply", command
    roll = rng.random()
    fighters = list(enc.order)
    if roll < 0.25 and fighters:
        fid = rng.choice(fighters)
        top = enc.fighters[fid].sheet.health
        return "apply", c.SetValue(fighter_id=fid, field="status.health",
                                   value=rng.randint(top // 2, top), override=True)
    if roll < 0.40:
        return "apply", c.FreeRoll(notation=rng.choice(["1d10", "3d10>=6", "2d6+3", "5d10"]),
                                   who=rng.choice(["", "Kaede"]))
    if roll < 0.50:
        return "apply", c.Note(text=f"note {index}")
    if roll < 0.55 and len(fighters) < 12:
        template = enc.fighters[fighters[0]].model_dump(mode="json") if fighters else None
        if template is not None:
            template.update(name=rng.choice(["Thug", "Guard"]), group=None)
            return "apply", c.AddFighters(fighter=template, count=rng.randint(1, 3))
    if roll < 0.72 and engine.can_undo():
        return "undo", None
    if roll < 0.86 and engine.can_redo():
        return "redo", None
    if roll < 0.95:
        return "save", None
    return "apply", c.Note(text=f"plain note {index}")


# How often the table does what: a fight goes on through rounds and interrupt stacks.
FORM_WEIGHTS = {"act": 8.0, "interrupt": 4.0, "roll-dice": 6.0, "hold": 1.0, "pass": 1.0,
                "convert": 0.5, "concentrate": 0.5, "intimidate": 0.3, "deceive": 0.3,
                "willpower-ep": 0.3, "buy-dice": 0.3}
CONTROL_WEIGHTS = {"start-fight": 4.0, "start-round": 4.0, "next-step": 3.0, "end-round": 0.3,
                   "resolve-next": 6.0, "resolve-all": 2.0, "cancel-stack": 0.5,
                   "end-fight": 0.02}


def _ruleset_action(rng: random.Random, engine: Engine) -> c.Command | None:
    """A real round command or fighter action, chosen from the ruleset's own views (round
    controls and action forms), so the driver plays whatever the ruleset offers."""
    enc = engine.encounter
    ruleset = engine.ruleset
    controls = ruleset.views.round_controls(enc)
    offered = {"start-fight": controls.can_start_fight, "start-round": controls.can_start_round,
               "next-step": controls.can_next_step, "end-round": controls.can_end_round,
               **controls.extra}
    options: list[tuple[float, str, str | None, Any]] = [
        (CONTROL_WEIGHTS[name], name, None, ()) for name, on in offered.items()
        if on and name in CONTROL_WEIGHTS
    ]
    for fid in enc.order:
        for form in ruleset.views.action_forms(enc, fid):
            if form.enabled and form.id in FORM_WEIGHTS:
                options.append((FORM_WEIGHTS[form.id], form.id, fid, form.fields))
    if not options:
        return None
    _, form_id, fighter_id, fields = rng.choices(options, weights=[o[0] for o in options])[0]
    values: dict[str, Any] = {}
    for f in fields:
        if f.kind == "choice" and f.choices and (f.default is None or rng.random() < 0.5):
            values[f.name] = rng.choice(f.choices)[0]
        else:
            values[f.name] = f.default
    try:
        return ruleset.views.build_command(form_id, fighter_id or "", values)
    except Exception:  # a form the values do not fit: the GM would pick again
        return None


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
        # In the middle of a stack resolution: moves still to resolve, or a question open.
        if self.kind == "pending" and engine.ruleset.rules.step_open(engine.encounter):
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


# --- the real GUI process: a hook that plays the fight through the window ----------------------


def gui_hook() -> None:
    """Installed by a ``sitecustomize`` in the GUI kill test: once ``python -m fightdesk``
    has put its first fight on screen, play it through the window (the document's
    ``apply`` and its undo stack, File > Save's writer), or report what was restored.

    ``FIGHTDESK_GUI_DRIVE`` is ``play:SEED:STEPS[:quit]`` or ``check``; ``--trap``-style
    traps come from ``FIGHTDESK_GUI_TRAP``. Answers the restore question with Restore and
    the quit question with Discard ("Close without saving"), printing ``ASKED`` / ``DISCARD`` when it does.
    """
    mode = os.environ.get("FIGHTDESK_GUI_DRIVE", "")
    if not mode:
        return
    import fightdesk.app as app

    traps = Traps(os.environ.get("FIGHTDESK_GUI_TRAP") or None)
    traps.install()
    # Wrapped where the fight itself loads (after its picture, if the start shows one).
    original = app._load_first_fight

    def first_fight(window: Any, path: Any, probe: Any, *, shown: bool) -> None:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QAbstractButton, QApplication

        def answer_questions() -> None:
            box = QApplication.activeModalWidget()
            if box is None:
                return
            for name, said in (("restoreButton", "ASKED"), ("", "DISCARD")):
                if name:
                    button = box.findChild(QAbstractButton, name)
                else:
                    button = next((b for b in box.findChildren(QAbstractButton)
                                   if b.text().replace("&", "") in
                                   ("Discard", "Don't Save", "Close without saving")), None)
                if button is not None:
                    print(said, flush=True)
                    button.click()
                    return

        watcher = QTimer(window)
        watcher.setInterval(30)
        watcher.timeout.connect(answer_questions)
        watcher.start()
        original(window, path, probe, shown=shown)
        doc = window.document
        print(f"SHOWN {fingerprint(doc.engine.session)} "
              f"{int(window.isWindowModified())}", flush=True)
        if mode == "check":
            QTimer.singleShot(0, window.close)
            return
        _, seed, steps, *rest = mode.split(":")
        saved_path = Path(os.environ["FIGHTDESK_GUI_SAVE"])
        saves = 0
        save_rng = random.Random(seed)

        def on_save() -> None:
            nonlocal saves
            saves += 1
            traps.before_save(saves, save_rng)
            window.files.save_to(saved_path)

        def action(index: int) -> None:
            engine = doc.engine
            kind, command = choose(int(seed), index, engine)
            if kind == "apply":
                doc.apply(command)
            elif kind == "undo":
                doc.undo_stack.undo()
            elif kind == "redo":
                doc.undo_stack.redo()
            else:
                on_save()
            print(f"STEP {index + 1} {fingerprint(engine.session)}", flush=True)
            traps.after_action(engine)
            if index + 1 < int(steps):
                QTimer.singleShot(0, lambda: action(index + 1))
            elif rest == ["quit"]:
                print("QUITTING", flush=True)
                QTimer.singleShot(0, window.close)
            else:
                print("IDLE", flush=True)

        QTimer.singleShot(0, lambda: action(0))

    app._load_first_fight = first_fight
