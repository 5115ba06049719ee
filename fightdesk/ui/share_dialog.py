"""Fight > Share With Players...: the fight live on the players' phones.

``ShareController`` runs the share's server (``fightdesk/share``, in a thread of its own),
shows each change of the fight to it, counts the connected devices in the status bar, and
brings a player's typed faces to the roll panel through a queued signal, so the GM's
window never waits on the network. The roll is made only when the GM clicks Roll, as a
``MakeRoll`` through the document's one command path. ``ShareDialog`` says plainly who can
see the fight and what can come back, picks the address, shows the link and its QR code,
the fighters the players may claim, and the claims the GM can release.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from . import settings
from .plain import plain_label

if TYPE_CHECKING:
    from fightdesk.share.server import ShareServer, TypedRoll

    from .document import FightDocument
    from .roll_panel import RollPanel

WHO_SEES = (
    "Anyone on the same network who has the link (or scans the code) sees the fight as "
    "the player view shows it: no hidden fighter, the enemies' health as you chose, no "
    "log, notes or decisions. Nothing comes back but the dice a player types for the "
    "fighter they claimed, and those only reach your roll panel: you roll with them or "
    "reject them. Stop Sharing (or closing fightdesk) ends it; the next share has a new "
    "link.")


class ShareController(QObject):
    """The share's Qt side: one per main window. ``action`` opens the dialog."""

    #: From the server's thread: a player's typed roll, and the count of devices.
    typedArrived = Signal(object)
    devicesChanged = Signal(int)
    claimsChanged = Signal(object)

    def __init__(self, window: QWidget, document: FightDocument, roll_panel: RollPanel,
                 status: QLabel | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.document = document
        self.roll_panel = roll_panel
        self.server: ShareServer | None = None
        self.devices = 0
        # The fighters a player holds now (the server says so after every change).
        self.claimed: frozenset[str] = frozenset()
        # The GM's choice per fighter; a fighter not named here: claimable if a PC.
        self.allowed: dict[str, bool] = {}
        self.dialog: ShareDialog | None = None
        self.action = QAction("Share With &Players...", self)
        self.action.setStatusTip("Show the fight on the players' own phones, on this network")
        self.action.triggered.connect(self.open_dialog)
        self.status = status if status is not None else QLabel()
        self.status.setObjectName("shareStatus")
        self.status.setVisible(False)
        self.typedArrived.connect(self._typed_arrived, Qt.ConnectionType.QueuedConnection)
        self.devicesChanged.connect(self._show_devices, Qt.ConnectionType.QueuedConnection)
        self.claimsChanged.connect(self._show_claims, Qt.ConnectionType.QueuedConnection)
        # The pages follow once the GM's window has painted the change (a zero timer runs
        # after the paint that the change asked for), and a burst of changes is one update.
        self._due = QTimer(self)
        self._due.setSingleShot(True)
        self._due.setInterval(0)
        self._due.timeout.connect(self.publish)
        document.changed.connect(self._publish_soon)
        document.replaced.connect(self._fight_replaced)
        roll_panel.typedRollAccepted.connect(self._roll_with_typed)
        roll_panel.typedRollRejected.connect(self._reject_typed)

    # --- sharing on and off ----------------------------------------------------------------
    @property
    def sharing(self) -> bool:
        return self.server is not None

    def start(self, host: str, port: int, max_devices: int) -> str:
        """Start serving on ``host:port``; the link, or raises ShareError in one line."""
        from fightdesk.share.server import ShareServer

        self.stop()
        server = ShareServer(host, port, max_devices=max_devices,
                             on_roll=self.typedArrived.emit,
                             on_devices=self.devicesChanged.emit,
                             on_claims=self.claimsChanged.emit)
        server.start()
        self.server = server
        self.publish()
        self._show_devices(0)
        return server.url()

    def stop(self) -> None:
        """Stop Sharing: every page's connection closes, the link dies with it."""
        server, self.server = self.server, None
        if server is not None:
            server.stop()
        self.roll_panel.clear_typed()
        self.devices = 0
        self.claimed = frozenset()
        self.status.setVisible(False)

    def open_dialog(self) -> ShareDialog:
        if self.dialog is None:
            self.dialog = ShareDialog(self, self.window)
        self.dialog.refresh()
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    # --- what the fighters may claim --------------------------------------------------------
    def claimable(self) -> list[str]:
        engine = self.document.engine
        if engine is None:
            return []
        return [fid for fid, f in engine.encounter.fighters.items()
                if self.allowed.get(fid, f.side == "pc")]

    def allow(self, fighter_id: str, allowed: bool) -> None:
        self.allowed[fighter_id] = allowed
        if not allowed and self.server is not None:
            self.server.release(fighter_id)
        self.publish()

    def release(self, fighter_id: str) -> None:
        if self.server is not None:
            self.server.release(fighter_id)

    # --- following the fight ---------------------------------------------------------------
    def _publish_soon(self, *_: object) -> None:
        if self.server is not None and not self._due.isActive():
            self._due.start()

    @Slot()
    def publish(self, *_: object) -> None:
        """Hand the fight as the players see it to the server (returns at once)."""
        if self.server is None:
            return
        from fightdesk.share.snapshot import EMPTY, snapshot

        engine = self.document.engine
        self.server.publish(EMPTY if engine is None else
                            snapshot(engine.ruleset, engine.encounter, self.claimable()))

    def _fight_replaced(self) -> None:
        self.allowed.clear()
        self.roll_panel.clear_typed()
        self.publish()
        if self.dialog is not None:
            self.dialog.refresh()

    def _show_devices(self, count: int) -> None:
        self.devices = count
        if self.server is None:
            return
        self.status.setText(f"Shared: {count} device{'s' if count != 1 else ''}")
        self.status.setVisible(True)
        if self.dialog is not None:
            self.dialog.show_devices(count)

    def _show_claims(self, claimed: frozenset[str]) -> None:
        self.claimed = claimed if self.server is not None else frozenset()
        if self.dialog is not None:
            self.dialog.refresh()

    # --- a player's typed roll ---------------------------------------------------------------
    def _typed_arrived(self, typed: TypedRoll) -> None:
        engine = self.document.engine
        if self.server is None or engine is None:
            return
        view = engine.ruleset.views.roll_view(engine.encounter)
        faces = _faces_text(typed.faces, coins=bool(view and view.coins),
                            d100=view is not None and view.dice.endswith("d100"))
        if not self.roll_panel.offer_typed(typed.roll_id, typed.fighter_id, typed.fighter, faces):
            self.server.tell(typed.fighter_id, "That roll is no longer waiting.")

    def _roll_with_typed(self, roll_id: int, dice: list, fighter_id: str) -> None:
        from fightdesk.engine.commands import MakeRoll

        if self.document.engine is None:
            return
        outcome = self.document.apply(MakeRoll(roll_id=roll_id, dice=dice, typed_by=fighter_id))
        self.roll_panel.show_refusal(None if outcome.ok else outcome.error)
        if self.server is not None:
            self.server.tell(fighter_id, "The GM rolled with your dice." if outcome.ok else
                             f"The GM could not use your dice: {outcome.error}")

    def _reject_typed(self, roll_id: int, fighter_id: str) -> None:
        if self.server is not None:
            self.server.tell(fighter_id, "The GM did not take those dice: type them again.")


def _faces_text(faces: tuple[int, ...], *, coins: bool, d100: bool) -> str:
    """The faces as the roll panel's field reads them (H/T for coins, 00 for a d100's 100)."""
    if coins:
        return " ".join("H" if f == 2 else "T" for f in faces)
    return " ".join("00" if d100 and f == 100 else str(f) for f in faces)


class ShareDialog(QDialog):
    """Start or stop the share, its link and QR code, and who may claim which fighter."""

    def __init__(self, controller: ShareController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from fightdesk.share.network import DEFAULT_PORT

        self.controller = controller
        self.setObjectName("ShareDialog")
        self.setWindowTitle("Share With Players")
        store = settings.app_settings()
        self.explain = plain_label(WHO_SEES, wrap=True)
        self.address = QComboBox()
        self.address.setObjectName("shareAddress")
        self._remembered = str(store.value("share/host", "") or "")
        self.port = QSpinBox()
        self.port.setObjectName("sharePort")
        self.port.setRange(1024, 65535)
        self.port.setValue(_number(store.value("share/port", DEFAULT_PORT), DEFAULT_PORT))
        self.max_devices = QSpinBox()
        self.max_devices.setObjectName("shareMaxDevices")
        self.max_devices.setRange(1, 50)
        self.max_devices.setValue(_number(store.value("share/max_devices", 12), 12))
        form = QFormLayout()
        form.addRow("Address", self.address)
        form.addRow("Port", self.port)
        form.addRow("Devices at most", self.max_devices)

        self.start_button = QPushButton("&Start Sharing")
        self.start_button.setObjectName("startSharing")
        self.start_button.clicked.connect(self._start)
        self.stop_button = QPushButton("S&top Sharing")
        self.stop_button.setObjectName("stopSharing")
        self.stop_button.clicked.connect(self._stop)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)

        self.link = plain_label(wrap=True)
        self.link.setObjectName("shareLink")
        self.link.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.qr = QLabel()
        self.qr.setObjectName("shareQr")
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.devices = plain_label()
        self.problem = plain_label(wrap=True)
        self.problem.setObjectName("shareProblem")

        self.fighters = QListWidget()
        self.fighters.setObjectName("shareFighters")
        self.fighters.setAccessibleName("Fighters the players may claim")
        self.fighters.itemChanged.connect(self._fighter_ticked)
        self.release_button = QPushButton("&Release Claim")
        self.release_button.setObjectName("releaseClaim")
        self.release_button.setToolTip("Free the selected fighter: its player chooses again")
        self.release_button.clicked.connect(self._release)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.close)

        layout = QVBoxLayout(self)
        layout.addWidget(self.explain)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.problem)
        layout.addWidget(self.link)
        layout.addWidget(self.qr)
        layout.addWidget(self.devices)
        layout.addWidget(plain_label("Fighters the players may claim:"))
        layout.addWidget(self.fighters, 1)
        layout.addWidget(self.release_button)
        layout.addWidget(close)
        self._fill_addresses()

    def _fill_addresses(self) -> None:
        from fightdesk.share.network import addresses, default_host

        choices = addresses()
        self.address.clear()
        for choice in choices:
            self.address.addItem(choice.label, choice.host)
        chosen = default_host(choices, self._remembered)
        self.address.setCurrentIndex(max(0, self.address.findData(chosen)))

    def refresh(self) -> None:
        """The buttons, link and fighters as the share stands now."""
        sharing = self.controller.sharing
        self.start_button.setEnabled(not sharing)
        self.stop_button.setEnabled(sharing)
        for w in (self.address, self.port, self.max_devices):
            w.setEnabled(not sharing)
        server = self.controller.server
        if server is not None:
            url = server.url()
            self.link.setText(f"Link for the players: {url}")
            code = qr_pixmap(url)
            self.qr.setPixmap(code)
            self.qr.setMinimumSize(code.size())
            self.qr.setVisible(True)
            self.show_devices(self.controller.devices)
        else:
            self.link.setText("Not shared.")
            self.qr.clear()
            self.qr.setMinimumSize(0, 0)
            self.qr.setVisible(False)
            self.devices.setText("")
        self._fill_fighters()

    def show_devices(self, count: int) -> None:
        self.devices.setText(f"{count} device{'s' if count != 1 else ''} connected")

    def _fill_fighters(self) -> None:
        engine = self.controller.document.engine
        current = self.fighters.currentItem()
        selected = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        self.fighters.blockSignals(True)
        self.fighters.clear()
        if engine is not None:
            allowed = set(self.controller.claimable())
            for fid, fighter in engine.encounter.fighters.items():
                hidden = " (hidden: not offered)" if fighter.hidden else ""
                held = " - claimed by a player" if fid in self.controller.claimed else ""
                item = QListWidgetItem(f"{fighter.name} ({fighter.side}){hidden}{held}")
                item.setData(Qt.ItemDataRole.UserRole, fid)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if fid in allowed
                                   else Qt.CheckState.Unchecked)
                self.fighters.addItem(item)
                if fid == selected:
                    self.fighters.setCurrentItem(item)
        self.fighters.blockSignals(False)

    def _fighter_ticked(self, item: QListWidgetItem) -> None:
        fid = item.data(Qt.ItemDataRole.UserRole)
        self.controller.allow(str(fid), item.checkState() == Qt.CheckState.Checked)

    def _release(self) -> None:
        item = self.fighters.currentItem()
        if item is not None:
            self.controller.release(str(item.data(Qt.ItemDataRole.UserRole)))

    def _start(self) -> None:
        from fightdesk.share.network import ALL
        from fightdesk.share.server import ShareError

        host = str(self.address.currentData() or "")
        if host == ALL and QMessageBox.question(
                self, "Share on every network?",
                "Listen on every network this computer is on (also any other network it "
                "joins, and a public one)? Anyone there with the link sees the fight.",
        ) != QMessageBox.StandardButton.Yes:
            return
        try:
            self.controller.start(host, self.port.value(), self.max_devices.value())
        except ShareError as exc:
            self.problem.setText(f"Not shared: {exc}")
            self.problem.setVisible(True)
            return
        self.problem.setVisible(False)
        store = settings.app_settings()
        store.setValue("share/host", host)
        store.setValue("share/port", self.port.value())
        store.setValue("share/max_devices", self.max_devices.value())
        self.refresh()
        self.resize(self.sizeHint().expandedTo(self.size()))  # room for the code

    def _stop(self) -> None:
        self.controller.stop()
        self.refresh()


def _number(value: object, default: int) -> int:
    """A remembered number, or ``default`` when the settings file holds something else."""
    try:
        return int(str(value))
    except ValueError:
        return default


def qr_pixmap(text: str, scale: int = 5) -> QPixmap:
    """The link as a QR code (segno writes the PNG; no image library needed)."""
    import io

    import segno

    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=scale, border=4)
    pixmap = QPixmap()
    pixmap.loadFromData(buffer.getvalue())
    return pixmap
