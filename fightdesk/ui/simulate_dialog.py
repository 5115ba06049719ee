"""Fight > Simulate...: who wins? The fight played many times by the rules, in the
background, with a progress bar, Cancel, a chart of the result and Copy.

The run happens in a worker thread that drives the simulator's process pool
(engine/simulate.py), so the window answers clicks the whole time; the fight is copied
when Run is pressed and never changed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QRectF, Qt, QThread, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from fightdesk.engine.model import Encounter
from fightdesk.engine.simulate import (
    DEFAULT_FIGHTS,
    DEFAULT_MAX_ROUNDS,
    Simulation,
    SimulationError,
    simulate,
)

from .form_fields import CappedSpinBox, warning_color
from .screen_fit import fit_to_screen


class SimulationWorker(QObject):
    """Runs one simulation off the GUI thread; Cancel sets a flag the run checks."""

    progressed = Signal(int, int)
    done = Signal(object)  # a Simulation, or None when cancelled
    failed = Signal(str)

    def __init__(self, encounter: Encounter, fights: int, seed: int, policy: str,
                 max_rounds: int, workers: int | None) -> None:
        super().__init__()
        self.encounter = encounter
        self.settings = (fights, seed, policy, max_rounds, workers)
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> None:
        fights, seed, policy, max_rounds, workers = self.settings
        try:
            result = simulate(self.encounter, fights=fights, seed=seed,
                              policy=policy,  # type: ignore[arg-type]
                              max_rounds=max_rounds, workers=workers,
                              progress=self.progressed.emit, cancelled=self._cancel.is_set)
        except SimulationError as exc:
            self.failed.emit(str(exc))
            return
        except Exception as exc:  # a crash in a worker process: say so, keep the window
            self.failed.emit(f"the simulation stopped: {type(exc).__name__}: {exc}")
            return
        self.done.emit(result)


class SimulationChart(QWidget):
    """Each camp's chance to win with its 95% interval as a whisker, the draws, and each
    fighter's health left on average against their full health. Black and white: bars
    and whiskers, numbers written beside them."""

    ROW = 24

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.simulation: Simulation | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.setMinimumWidth(460)
        self.setAccessibleName("Simulation result")

    def show_result(self, result: Simulation | None) -> None:
        self.simulation = result
        # A screen reader reads the numbers the bars draw.
        self.setAccessibleDescription(result.text() if result is not None else "")
        rows = 0 if result is None else 4 + len(result.fighters)
        self.setMinimumHeight(max(40, rows * self.ROW + 16))
        self.updateGeometry()
        self.update()

    def numbers(self) -> dict[str, object]:
        """What the chart shows, as numbers (the same object as ``simulate --json``)."""
        return {} if self.simulation is None else self.simulation.as_json()

    def rows(self) -> list[tuple[str, float, tuple[float, float] | None, str]]:
        """(label, bar from 0 to 1, whisker or None, text) for each row drawn."""
        r = self.simulation
        if r is None:
            return []
        out: list[tuple[str, float, tuple[float, float] | None, str]] = []
        for camp, label in (("party", "Party wins"), ("enemies", "Enemies win")):
            count = r.wins[camp]  # type: ignore[index]
            low, high = r.interval(camp)  # type: ignore[arg-type]
            out.append((label, count / r.fights, (low, high),
                        f"{count / r.fights:.1%}  ({low:.1%} to {high:.1%})"))
        out.append(("Draws", r.draws / r.fights, None, f"{r.draws / r.fights:.1%}"))
        for fid, odds in r.fighters.items():
            top = max(1, odds.health_max)
            health = r.health(fid)
            # A fighter below zero on average shows an empty bar, not one out of its frame.
            out.append((odds.name, max(0.0, min(1.0, health / top)), None,
                        f"health {health:.2f}/{odds.health_max} · down "
                        f"{odds.down / r.fights:.0%}"))
        return out

    def paintEvent(self, event: QPaintEvent) -> None:
        rows = self.rows()
        painter = QPainter(self)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            ink = self.palette().windowText().color()
            font = QFont(self.font())
            metrics = QFontMetricsF(font)
            label_w = max((metrics.horizontalAdvance(r[0]) for r in rows), default=0) + 12
            text_w = max((metrics.horizontalAdvance(r[3]) for r in rows), default=0) + 12
            bar_x = label_w + 4
            bar_w = max(40.0, self.width() - bar_x - text_w - 8)
            y = 4.0
            for i, (label, share, whisker, text) in enumerate(rows):
                if i == 3:  # a gap between the camps and the fighters
                    painter.setPen(QPen(ink, 1, Qt.PenStyle.DotLine))
                    painter.drawLine(4, int(y + 4), self.width() - 4, int(y + 4))
                    y += self.ROW // 2
                box = QRectF(bar_x, y + 4, bar_w, self.ROW - 10)
                painter.setPen(QPen(ink, 1))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(box)
                fill = QColor(ink)
                fill.setAlpha(110 if i < 3 else 60)
                painter.fillRect(QRectF(box.x(), box.y(), box.width() * share, box.height()), fill)
                if whisker is not None:
                    low = box.x() + box.width() * whisker[0]
                    high = box.x() + box.width() * whisker[1]
                    mid = box.center().y()
                    painter.setPen(QPen(ink, 2))
                    painter.drawLine(int(low), int(mid), int(high), int(mid))
                    painter.drawLine(int(low), int(box.top()), int(low), int(box.bottom()))
                    painter.drawLine(int(high), int(box.top()), int(high), int(box.bottom()))
                painter.setPen(ink)
                painter.drawText(QRectF(4, y, label_w, self.ROW),
                                 Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, label)
                painter.drawText(QRectF(bar_x + bar_w + 8, y, text_w, self.ROW),
                                 Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
                y += self.ROW
        finally:
            painter.end()


class SimulateDialog(QDialog):
    """Settings, Run and Cancel, the progress bar, the chart, and Copy."""

    def __init__(self, current_fight: Callable[[], Encounter | None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Simulate the Fight")
        self._current_fight = current_fight
        self._thread: QThread | None = None
        self._worker: SimulationWorker | None = None
        self.simulation: Simulation | None = None
        self.workers: int | None = None  # every core

        self.fights = CappedSpinBox()
        self.fights.setRange(10, 100_000)
        self.fights.setSingleStep(100)
        self.fights.setValue(DEFAULT_FIGHTS)
        self.fights.setToolTip("How many times the fight is played")
        self.seed = CappedSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.seed.setToolTip("The same seed gives the same result, on any number of cores")
        self.policy = QComboBox()
        self.policy.addItem("Autopilot (a plain, sensible table)", "autopilot")
        self.policy.addItem("Random (any legal command)", "random")
        self.max_rounds = CappedSpinBox()
        self.max_rounds.setRange(1, 1000)
        self.max_rounds.setValue(DEFAULT_MAX_ROUNDS)
        self.max_rounds.setToolTip("A fight still going after this round is a draw")
        form = QFormLayout()
        form.addRow("Fights", self.fights)
        form.addRow("Seed", self.seed)
        form.addRow("Who plays", self.policy)
        form.addRow("Round cap", self.max_rounds)
        # A number typed past a box's bounds is capped, and the dialog says so.
        self.cap_note = QLabel()
        self.cap_note.setObjectName("capNote")
        self.cap_note.setTextFormat(Qt.TextFormat.PlainText)
        self.cap_note.setWordWrap(True)
        self.cap_note.setVisible(False)
        palette = self.cap_note.palette()
        palette.setColor(QPalette.ColorRole.WindowText, warning_color(self))
        self.cap_note.setPalette(palette)
        form.addRow(self.cap_note)
        for spin, label in ((self.fights, "Fights"), (self.seed, "Seed"),
                            (self.max_rounds, "Round cap")):
            spin.capped.connect(lambda typed, s=spin, w=label: self._show_cap(
                s.cap_text(typed, w)))
            spin.lineEdit().textEdited.connect(lambda _text: self._show_cap(""))

        self.run_button = QPushButton("&Run")
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton("&Cancel")
        self.cancel_button.setEnabled(False)
        self.copy_button = QPushButton("C&opy as Text")
        self.copy_button.setEnabled(False)
        self.close_button = QPushButton("Close")
        buttons = QHBoxLayout()
        for button in (self.run_button, self.cancel_button, self.copy_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)

        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setAccessibleName("Fights played")
        self.progress.setValue(0)
        self.status = QLabel("Plays the fight from where it stands now; the fight itself "
                             "is not changed.")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.chart = SimulationChart()
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        # The result scrolls inside the dialog, which never grows past the screen.
        result = QWidget()
        result_layout = QVBoxLayout(result)
        result_layout.setContentsMargins(0, 0, 0, 0)
        result_layout.addWidget(self.chart)
        result_layout.addWidget(self.summary)
        result_layout.addStretch(1)
        self.result_area = QScrollArea()
        self.result_area.setObjectName("simulationResult")
        self.result_area.setAccessibleName("Simulation result")
        self.result_area.setWidgetResizable(True)
        self.result_area.setFrameShape(QFrame.Shape.NoFrame)
        self.result_area.setWidget(result)
        self.result_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.result_area.setMinimumWidth(self.chart.minimumWidth() + 24)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.result_area, 1)
        fit_to_screen(self, 620, 640)

        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.copy_button.clicked.connect(self.copy)
        self.close_button.clicked.connect(self.close)

    def _show_cap(self, text: str) -> None:
        self.cap_note.setText(text)
        self.cap_note.setVisible(bool(text))

    @property
    def running(self) -> bool:
        return self._thread is not None

    def run(self) -> None:
        """Start a run on a copy of the fight as it stands now."""
        if self.running:
            return
        encounter = self._current_fight()
        if encounter is None:
            self.status.setText("No fight is open.")
            return
        worker = SimulationWorker(encounter.model_copy(deep=True), self.fights.value(),
                                  self.seed.value(), str(self.policy.currentData()),
                                  self.max_rounds.value(), self.workers)
        thread = QThread(self)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker.progressed.connect(self._progressed)
        worker.done.connect(self._done)
        worker.failed.connect(self._failed)
        self._thread, self._worker = thread, worker
        self.progress.setRange(0, self.fights.value())
        self.progress.setValue(0)
        self.status.setText(f"Playing {self.fights.value()} fights...")
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        thread.start()

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            self.status.setText("Cancelling...")
            self.cancel_button.setEnabled(False)

    def copy(self) -> None:
        if self.simulation is not None:
            QGuiApplication.clipboard().setText(self.simulation.text())

    def _progressed(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _finish(self) -> None:
        thread = self._thread
        self._thread, self._worker = None, None
        if thread is not None:
            thread.quit()
            thread.wait()
            thread.deleteLater()
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _done(self, result: Simulation | None) -> None:
        self._finish()
        if result is None:
            self.status.setText("Cancelled: nothing was counted.")
            return
        self.simulation = result
        self.chart.show_result(result)
        self.summary.setText(result.text())
        # As tall as the result wants, as far as the screen allows; the rest scrolls.
        content = self.result_area.widget()
        if content is not None:
            extra = content.sizeHint().height() - self.result_area.viewport().height()
            if extra > 0:
                fit_to_screen(self, self.width(), self.height() + extra)
        self.copy_button.setEnabled(True)
        self.status.setText(f"Done: {result.fights} fights.")

    def _failed(self, message: str) -> None:
        self._finish()
        self.status.setText(message)

    def done(self, code: int) -> None:  # closing (Esc, Close): stop a run first
        if self._worker is not None:
            self._worker.cancel()
        self._finish()
        super().done(code)
