"""Play a whole fight of each ruleset through the window, as a GM would, and count it.

From File > New Fight (a name, the ruleset) through the starter fighters added from the
library, the start of the fight, every turn and question of round 1, to round 2 and on
until someone is out. Every step is a click, a key or a typed field in the window's own
widgets (Qt's test events), never a call into the engine; the tool answers each question
with the app's first offer (its default target, its first choice, the app's dice).

    python tools/play_fights.py --shots DIR          # every ruleset, a picture per step
    python tools/play_fights.py --ruleset d100       # one ruleset (repeatable)
    python tools/play_fights.py --keyboard           # the fight played with keys only

With ``--keyboard`` the fight, from its start, is played with keys sent where the focus
is: F4, Return for a form's default button or in a question's field or drop-down, a button's
underlined letter (Alt+A), else Tab until the button has the focus, then Space. Each Tab
is a step: the count shows where the keyboard is slow.

It prints, per ruleset, the GM's steps and the wall time from New Fight to round 2 and to
the first fighter out (the time without the screenshots: the app's own time, not a GM's
thinking). Pictures are taken at 1093x614, the smallest screen fightdesk is laid out for:
``DIR/<ruleset>-<step>-<what>.png``, the window with its open dialogs drawn over it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

if TYPE_CHECKING:
    from PySide6.QtWidgets import QAbstractButton, QPushButton, QWidget

    from fightdesk.ui.decision import DecisionPanel
    from fightdesk.ui.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[1]
SCREEN = (1093, 614)
STARTER = "Starter Fighters"
# The fighters the GM picks from the starter campaign: (library id, copies).
PICKS: dict[str, list[tuple[str, int]]] = {}
MOST_STEPS = 400


@dataclass
class Played:
    """One ruleset's fight: what the GM did and how long the app took."""

    ruleset: str
    steps: int = 0
    steps_to_round_2: int | None = None
    seconds_to_round_2: float | None = None
    steps_to_out: int | None = None
    seconds_to_out: float | None = None
    out: str = ""
    stuck: str = ""
    kinds: dict[str, int] = field(default_factory=dict)


def _isolate() -> Path:
    """Every user folder in a throw-away one: the tool never touches the GM's files."""
    home = Path(tempfile.mkdtemp(prefix="fightdesk-play-"))
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                     ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state")):
        os.environ[var] = str(home / sub)
    runtime = home / "runtime"
    runtime.mkdir(mode=0o700)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return home


class Gm:
    """The hands at the keyboard: each click, key or typed field is one step, followed
    by a picture of the screen."""

    def __init__(self, window: MainWindow, played: Played, shots: Path | None,
                 keyboard: bool = False) -> None:
        self.w = window
        self.played = played
        self.shots = shots
        self.shot_seconds = 0.0
        # Keyboard only: every step a key sent where the focus is, as a keyboard does.
        self.keyboard = keyboard

    def _settle(self) -> None:
        from PySide6.QtCore import QCoreApplication, QEvent
        from PySide6.QtTest import QTest

        QTest.qWait(1)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QTest.qWait(1)

    def _count(self, what: str) -> None:
        self.played.steps += 1
        kind = what.split(":")[0]
        self.played.kinds[kind] = self.played.kinds.get(kind, 0) + 1
        self._settle()
        self.picture(what)

    def click(self, widget: QWidget, what: str) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
        self._count(what)

    def key(self, widget: QWidget, key: Qt.Key, what: str,
            modifiers: Qt.KeyboardModifier | None = None) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        top = widget.window()
        if not top.isActiveWindow():  # a dialog just closed: the window has the keys again
            top.activateWindow()
            QTest.qWaitForWindowActive(top, 500)
        QTest.keyClick(widget, key, modifiers or Qt.KeyboardModifier.NoModifier)
        if modifiers is not None and modifiers & Qt.KeyboardModifier.AltModifier:
            QTest.qWait(130)  # Qt clicks a button for its letter 100 ms later (animateClick)
        self._count(what)

    def press(self, button: QAbstractButton, what: str) -> None:
        """A button pressed: clicked, or from the keyboard Tab to it, then Space."""
        if not self.keyboard:
            self.click(button, f"click: {what}")
            return
        text = button.text().replace("&&", "")
        at = text.find("&")
        if at >= 0 and at + 1 < len(text) and text[at + 1].isalnum():
            # Its underlined letter: Alt and the letter (Alt+1 for a question's first answer).
            letter = text[at + 1].upper()
            key = Qt.Key(ord(letter)) if letter.isascii() else Qt.Key.Key_unknown
            self.shortcut(key, f"key: Alt+{letter} {what}", Qt.KeyboardModifier.AltModifier,
                          where=button)
            return
        self.tab_to(button)
        self.key(button, Qt.Key.Key_Space, f"key: Space {what}")

    def tab_to(self, target: QWidget) -> None:
        """Tab from where the focus is until it is on ``target`` (each Tab a step)."""
        from PySide6.QtWidgets import QApplication

        top = target.window()
        if not top.isActiveWindow():
            top.activateWindow()
        for _ in range(80):
            now = QApplication.focusWidget()
            if now is target:
                return
            self.key(now if now is not None else top, Qt.Key.Key_Tab, "key: Tab")
        name = target.accessibleName() or target.objectName()
        raise Stuck(f"Tab never reaches {name!r} in {top.windowTitle()!r}")

    def shortcut(self, key: Qt.Key, what: str,
                 modifiers: Qt.KeyboardModifier | None = None, where: QWidget | None = None) -> None:
        """A key sent where the focus is (in ``where``'s window when given)."""
        from PySide6.QtWidgets import QApplication

        top = (where or self.w).window()
        if not top.isActiveWindow():
            top.activateWindow()
        focus = QApplication.focusWidget()
        target = focus if focus is not None and focus.window() is top else top
        self.key(target, key, what, modifiers)

    def type(self, widget: QLineEdit, text: str, what: str) -> None:
        from PySide6.QtTest import QTest

        widget.clear()
        QTest.keyClicks(widget, text)
        self._count(what)

    def picture(self, what: str) -> None:
        if self.shots is None:
            return
        from PySide6.QtGui import QPainter, QPixmap
        from PySide6.QtWidgets import QApplication, QDialog

        began = time.perf_counter()
        w = self.w
        image = QPixmap(*SCREEN)
        painter = QPainter(image)
        painter.drawPixmap(0, 0, w.grab())
        origin = w.geometry().topLeft()
        for top in QApplication.topLevelWidgets():
            if top is not w and top.isVisible() and isinstance(top, QDialog):
                place = top.geometry().topLeft() - origin
                painter.drawPixmap(max(0, place.x()), max(0, place.y()), top.grab())
        painter.end()
        name = "".join(ch if ch.isalnum() else "-" for ch in what.lower())[:50].strip("-")
        image.save(str(self.shots / f"{self.played.ruleset}-{self.played.steps:03d}-{name}.png"))
        self.shot_seconds += time.perf_counter() - began


class Stuck(Exception):
    """The GM cannot go on the way the tool plays (the message says where)."""


def _visible_buttons(widget: QWidget, prefix: str) -> list[QPushButton]:
    from PySide6.QtWidgets import QPushButton

    return [b for b in widget.findChildren(QPushButton)
            if b.objectName().startswith(prefix) and b.isVisible() and b.isEnabled()]


def _answer(gm: Gm, panel: DecisionPanel) -> bool:
    """A question in a decision panel: the app's dice for blank fields, else the first
    choice, else the amount offered."""
    if panel.fields_box.isVisible() and panel.fields_ok.isEnabled():
        decision = panel.decision()
        first = panel.field_input(decision.fields[0].name) if decision and decision.fields else None
        if gm.keyboard and isinstance(first, QLineEdit | QComboBox):  # Return in a field answers
            gm.tab_to(first)
            gm.key(first, Qt.Key.Key_Return, f"key: Return ({panel.prompt.text()[:30]})")
        else:
            gm.press(panel.fields_ok, f"OK ({panel.prompt.text()[:30]})")
        return True
    choices = _visible_buttons(panel, "choice-")
    if choices:
        gm.press(choices[0], choices[0].text().replace("&", ""))
        return True
    if panel.amount_ok.isVisible() and panel.amount_ok.isEnabled():
        gm.press(panel.amount_ok, "OK amount")
        return True
    return False


def _new_fight(gm: Gm, ruleset: str, title: str) -> None:
    """File > New Fight: the name typed, the ruleset clicked, Return."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest

    from fightdesk.ui.ruleset_choice import RulesetChoice

    w = gm.w

    def answer() -> None:
        dialog = w.findChild(RulesetChoice)
        if dialog is None:
            QTimer.singleShot(5, answer)
            return
        gm.picture("new-fight-asked")
        if dialog.name_edit is not None:
            gm.type(dialog.name_edit, f"{title} at the ford", "type: fight name")
        for row in range(dialog.list.count()):
            item = dialog.list.item(row)
            if item.text().split("\n")[0] == title:
                rect = dialog.list.visualItemRect(item)
                QTest.mouseClick(dialog.list.viewport(), Qt.MouseButton.LeftButton,
                                 pos=rect.center())
                gm._count(f"click: ruleset {title}")
                break
        target = dialog.name_edit if dialog.name_edit is not None else dialog.list
        QTest.keyClick(target, Qt.Key.Key_Return)
        gm.played.steps += 1
        gm.played.kinds["key"] = gm.played.kinds.get("key", 0) + 1

    QTimer.singleShot(0, answer)
    gm.played.steps += 1  # Ctrl+N
    gm.played.kinds["key"] = gm.played.kinds.get("key", 0) + 1
    w.new_action.trigger()
    gm._settle()
    engine = w.document.engine
    if engine is None or engine.encounter.ruleset != ruleset:
        raise RuntimeError(f"File > New Fight did not open a {ruleset} fight")
    gm.picture("new-fight")


def _add_starters(gm: Gm, ruleset: str) -> None:
    """From the starter campaign: every PC and the boss once, the mooks three times."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    w = gm.w
    panel = w.add_library_panel()
    if w.library_dock is not None and not w.library_dock.isVisible():
        gm.key(w, Qt.Key.Key_L, "key: show the library (Ctrl+Shift+L)",
               Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        if not w.library_dock.isVisible():
            raise RuntimeError("Ctrl+Shift+L did not show the library")
    combo = panel.campaign_combo
    if panel.campaign is None or panel.campaign.name != STARTER:
        # The campaign picker, from the keyboard: the arrow keys pick the campaign.
        target = combo.findText(STARTER)
        combo.setFocus()
        while combo.currentIndex() != target:
            down = combo.currentIndex() < target
            gm.key(combo, Qt.Key.Key_Down if down else Qt.Key.Key_Up,
                   f"key: campaign {'down' if down else 'up'}")
        if panel.campaign is None or panel.campaign.name != STARTER:
            raise RuntimeError("the campaign picker did not open the starter campaign")
    proxy = panel.proxy
    rows = [(proxy.index(r, 0), panel.model.fighter_at(proxy.mapToSource(proxy.index(r, 0)).row()))
            for r in range(proxy.rowCount())]
    for index, fighter in rows:
        if fighter.ruleset != ruleset:
            continue
        rect = panel.view.visualRect(index)
        panel.view.scrollTo(index)
        rect = panel.view.visualRect(index)
        QTest.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        gm._count(f"click: {fighter.name}")
        copies = 3 if "mook" in fighter.tags else 1
        if panel.count_spin.value() != copies:
            gm.type(panel.count_spin.lineEdit(), str(copies), f"type: copies {copies}")
        gm.click(panel.add_button, f"click: add {fighter.name}")


def _cards_out(w: MainWindow) -> list[str]:
    model = w.fighters_model
    return [model.item(r).title for r in range(model.rowCount()) if model.item(r).out]


def _one_step(gm: Gm) -> str:
    """What the GM does next, done; "" when nothing can be done."""
    w = gm.w
    dialog = w._action_dialog
    if dialog is not None and dialog.isVisible():
        title = dialog.windowTitle()
        if dialog.go_button.isEnabled():
            if gm.keyboard:  # the form's default button
                gm.shortcut(Qt.Key.Key_Return, f"key: Return {dialog.go_button.text()} ({title})",
                            where=dialog)
            else:
                gm.click(dialog.go_button, f"click: {dialog.go_button.text()} ({title})")
            if w._action_dialog is dialog and dialog.isVisible():
                gm.press(dialog.close_button, "close the action")
            return "acted"
        gm.press(dialog.close_button, f"close {title} (cannot apply)")
        return "gave up an action"
    stack = w._stack_dialog
    if stack is not None and stack.isVisible():
        asked = w._stack_decision
        if asked is not None and asked.isVisible() and _answer(gm, asked):
            return "answered in the stack"
        for button in (stack.resolve_all, stack.close_button):
            if button.isVisible() and button.isEnabled():
                gm.press(button, f"stack {button.text().replace('&', '')}")
                return "stack"
        return ""
    if w.decision_panel.isVisible() and _answer(gm, w.decision_panel):
        return "answered"
    panel = w.roll_panel
    if panel.isVisible() and panel.roll_button.isEnabled():
        gm.press(panel.roll_button, f"roll ({panel.title.text()[:40]})")
        return "rolled"
    picks = [b for b in panel.pick_buttons() if b.isVisible() and b.isEnabled()]
    if panel.isVisible() and picks:
        # A defense offered as one pick each (d100): the first, which also rolls.
        gm.press(picks[0], f"pick {picks[0].text().replace('&', '')[:40]}")
        return "picked"
    if panel.isVisible() and panel.add_button.isVisible() and panel.add_button.isEnabled():
        # A roll that waits for a choice first (a d100 defense): the first one offered.
        gm.press(panel.add_button, f"add {panel.option.currentText()[:40]}")
        return "added"
    if w.forward_action.isEnabled():
        label = w.forward_action.text().replace("&&", "&")
        gm.shortcut(Qt.Key.Key_F4, f"key: F4 {label}")
        return "forward"
    return ""


def _where(w: MainWindow) -> tuple[object, ...]:
    """What the GM sees: the log's length and which dialog or question is open."""
    engine = w.document.engine
    stack, dialog, asked = w._stack_dialog, w._action_dialog, w._stack_decision
    return (len(engine.session.log) if engine is not None else 0,
            dialog is not None and dialog.isVisible(), stack is not None and stack.isVisible(),
            asked.prompt.text() if asked is not None and asked.isVisible() else "",
            w.decision_panel.prompt.text() if w.decision_panel.isVisible() else "",
            w.roll_panel.view())


def play(ruleset: str, shots: Path | None, keyboard: bool = False) -> Played:
    from fightdesk.engine.rulesets import registered
    from fightdesk.ui.main_window import MainWindow

    played = Played(ruleset)
    title = registered()[ruleset].title
    w = MainWindow()
    w.resize(*SCREEN)
    w.show()
    gm = Gm(w, played, shots, keyboard)
    w.activateWindow()  # the window's shortcuts (F4...) answer in the active window only
    from PySide6.QtTest import QTest

    QTest.qWaitForWindowActive(w)
    gm._settle()
    began = time.perf_counter()
    _new_fight(gm, ruleset, title)
    _add_starters(gm, ruleset)
    engine = w.document.engine
    assert engine is not None
    enc = engine.encounter
    idle = 0
    seen: tuple[object, ...] = ()
    for _ in range(MOST_STEPS):
        enc = engine.encounter
        seen = _where(w)
        spent = time.perf_counter() - began - gm.shot_seconds
        if enc.round >= 2 and played.steps_to_round_2 is None:
            played.steps_to_round_2, played.seconds_to_round_2 = played.steps, spent
        out = _cards_out(w)
        if out and played.steps_to_out is None:
            played.steps_to_out, played.seconds_to_out, played.out = played.steps, spent, out[0]
        if played.steps_to_out is not None and played.steps_to_round_2 is not None:
            break
        try:
            did = _one_step(gm)
        except Stuck as problem:
            played.stuck = str(problem)
            break
        if not did:
            played.stuck = f"nothing to do at: {w.forward_action.text()!r}"
            break
        # Three steps running that changed nothing on screen or in the log: stuck.
        idle = idle + 1 if _where(w) == seen else 0
        if idle >= 3:
            played.stuck = f"{did!r} does nothing (at {w.forward_action.text()!r})"
            break
    else:
        played.stuck = f"{MOST_STEPS} steps without round 2 and someone out"
    w.document.undo_stack.setClean()
    w.close()
    w.deleteLater()
    gm._settle()
    return played


def table(results: list[Played]) -> str:
    def num(value: float | int | None, form: str = "{}") -> str:
        return "-" if value is None else form.format(value)

    lines = [f"{'ruleset':16} {'steps to R2':>11} {'s to R2':>8} {'steps to out':>12} "
             f"{'s to out':>8}  first out / clicks, keys, typed",
             "-" * 96]
    for p in results:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(p.kinds.items()))
        lines.append(f"{p.ruleset:16} {num(p.steps_to_round_2):>11} "
                     f"{num(p.seconds_to_round_2, '{:.2f}'):>8} {num(p.steps_to_out):>12} "
                     f"{num(p.seconds_to_out, '{:.2f}'):>8}  {p.out or '-'} / {kinds}"
                     + (f"  STUCK: {p.stuck}" if p.stuck else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None,
         out: Callable[[str], object] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shots", type=Path, help="folder for a picture of each step")
    parser.add_argument("--keyboard", action="store_true",
                        help="play the fight (from its start) with the keyboard only")
    parser.add_argument("--ruleset", action="append",
                        help="play only this ruleset (repeatable); default: all four")
    args = parser.parse_args(argv)
    home = _isolate()
    sys.path.insert(0, str(ROOT))
    try:
        from PySide6.QtWidgets import QApplication

        app = QApplication.instance() or QApplication([])
        from fightdesk.engine.rulesets import registered

        rulesets = args.ruleset or [r for r, reg in registered().items()
                                    if reg.package.startswith("fightdesk.")]
        if args.shots is not None:
            args.shots.mkdir(parents=True, exist_ok=True)
        results = [play(r, args.shots, args.keyboard) for r in rulesets]
        out(table(results))
        del app
        return 1 if any(p.stuck for p in results) else 0
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
