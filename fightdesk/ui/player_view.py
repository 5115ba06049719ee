"""The player view: a second window for the screen the players look at.

It shows only :func:`fightdesk.engine.player_view.public_fight`: the round and whose turn
it is, the timeline without hidden fighters, and a large card per visible fighter (the
party's health exactly, the enemies' as the GM chose). It never takes the keyboard focus
from the GM's window, follows every change the main window shows, and can be blanked.
All text is plain text. See docs/ui.md, "Player view".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QProgressBar,
    QScrollArea,
    QStackedLayout,
    QVBoxLayout,
    QWidget,
)

from .timeline import TimelineView

if TYPE_CHECKING:
    from fightdesk.engine.player_view import PublicCard, PublicFight

SCALE = 1.6  # type across a table
CARD_WIDTH = 300


def _plain(text: str = "", scale: float = 1.0, bold: bool = False) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    font = QFont(label.font())
    font.setPointSizeF(font.pointSizeF() * scale)
    font.setBold(bold)
    label.setFont(font)
    return label


def contrast_palette() -> QPalette:
    """Near-black with white text: readable across a table, and dark in a dim room."""
    pal = QPalette()
    for role, color in ((QPalette.ColorRole.Window, "#101010"), (QPalette.ColorRole.Base, "#101010"),
                        (QPalette.ColorRole.AlternateBase, "#1c1c1c"),
                        (QPalette.ColorRole.WindowText, "#ffffff"), (QPalette.ColorRole.Text, "#ffffff"),
                        (QPalette.ColorRole.Button, "#262626"), (QPalette.ColorRole.ButtonText, "#ffffff"),
                        (QPalette.ColorRole.Highlight, "#ffb000"),
                        (QPalette.ColorRole.HighlightedText, "#000000"),
                        (QPalette.ColorRole.Mid, "#6a6a6a")):
        pal.setColor(role, QColor(color))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor("#8a8a8a"))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#8a8a8a"))
    return pal


class PlayerCard(QFrame):
    """One visible fighter in large type."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.Box)
        self.setLineWidth(2)
        self.setFixedWidth(CARD_WIDTH)
        self.name = _plain(scale=SCALE, bold=True)
        self.side = _plain(scale=1.2)
        self.health = QProgressBar()
        self.health.setTextVisible(False)
        self.health.setRange(0, 1000)
        self.health.setFixedHeight(18)
        self.health_text = _plain(scale=SCALE)
        self.conditions = _plain(scale=1.3)
        self.resources = _plain(scale=1.2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        for widget in (self.name, self.side, self.health, self.health_text, self.conditions,
                       self.resources):
            layout.addWidget(widget)

    def show_card(self, card: PublicCard) -> None:
        self.name.setText(card.name + ("  (acting)" if card.acting else ""))
        side = {"pc": "PC", "ally": "Ally", "enemy": "Enemy"}.get(card.side, card.side)
        self.side.setText(side + (" · down" if card.out else ""))
        self.health.setVisible(card.health_share is not None)
        if card.health_share is not None:
            self.health.setValue(round(card.health_share * 1000))
        # A screen reader names the bar by whose health it is (its text is not drawn).
        self.health.setAccessibleName(f"Health: {card.name}")
        self.health.setAccessibleDescription(card.health_text)
        self.health_text.setText(card.health_text)
        self.health_text.setVisible(bool(card.health_text))
        self.conditions.setText("\n".join(card.conditions))
        self.conditions.setVisible(bool(card.conditions))
        self.resources.setText("   ".join(card.resources))
        self.resources.setVisible(bool(card.resources))
        self.setEnabled(not card.out)
        pal = self.palette()
        edge = "#ffb000" if card.acting else ("#5a5a5a" if card.out else "#a0a0a0")
        pal.setColor(QPalette.ColorRole.WindowText, QColor("#ffffff"))
        pal.setColor(QPalette.ColorRole.Light, QColor(edge))
        pal.setColor(QPalette.ColorRole.Dark, QColor(edge))
        self.setPalette(pal)


class PlayerView(QWidget):
    """The second screen. ``show_fight(public)`` shows what the players may see;
    ``set_blank(True)`` hides everything until the GM brings it back."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window | Qt.WindowType.WindowDoesNotAcceptFocus)
        self.setObjectName("PlayerView")
        self.setWindowTitle("fightdesk: player view")
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setPalette(contrast_palette())
        self.setAutoFillBackground(True)
        self._fight: PublicFight | None = None
        self._cards: list[PlayerCard] = []

        page = QWidget()
        self.title = _plain(scale=1.3)
        self.headline = _plain(scale=2.0, bold=True)
        self.headline.setObjectName("playerHeadline")
        self.timeline = TimelineView()
        self.timeline.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.timeline.setFont(_bigger(self.timeline.font(), 1.3))
        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        self.grid.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.grid.setSpacing(12)
        scroll = QScrollArea()
        scroll.setViewport(QWidget(scroll))
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        scroll.setWidget(self.grid_host)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addWidget(self.title)
        layout.addWidget(self.headline)
        layout.addWidget(self.timeline, 2)
        layout.addWidget(scroll, 3)

        self.blank_page = _plain("", scale=2.0)
        self.blank_page.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack = QStackedLayout(self)
        self.stack.addWidget(page)
        self.stack.addWidget(self.blank_page)
        self.resize(1280, 720)

    # --- what it shows --------------------------------------------------------------------------
    def show_fight(self, fight: PublicFight | None) -> None:
        if fight == self._fight:
            return
        self._fight = fight
        if fight is None:
            self.title.setText("")
            self.headline.setText("No fight")
            self.timeline.set_timeline(None)
            self._show_cards(())
            return
        self.title.setText(fight.title)
        self.headline.setText(fight.headline)
        self.timeline.set_timeline(fight.timeline)
        self._show_cards(fight.cards)

    def _show_cards(self, cards: tuple[PublicCard, ...]) -> None:
        while len(self._cards) > len(cards):
            old = self._cards.pop()
            self.grid.removeWidget(old)
            old.hide()  # gone from the screen now, not at the next event loop pass
            old.deleteLater()
        while len(self._cards) < len(cards):
            self._cards.append(PlayerCard())
        columns = max(1, (self.width() - 40) // (CARD_WIDTH + 12))
        for n, (widget, public) in enumerate(zip(self._cards, cards, strict=True)):
            widget.show_card(public)
            self.grid.addWidget(widget, n // columns, n % columns)
            widget.setVisible(True)

    def set_blank(self, blank: bool) -> None:
        self.stack.setCurrentIndex(1 if blank else 0)

    def is_blank(self) -> bool:
        return self.stack.currentIndex() == 1

    def texts(self) -> list[str]:
        """Every text the window shows (labels, the timeline's titles, columns and chips),
        for tests that check nothing secret is on the players' screen."""
        found = [label.text() for label in self.findChildren(QLabel) if label.isVisibleTo(self)]
        tl = self.timeline.timeline()
        if tl is not None and not self.is_blank():
            found += [tl.caption, *tl.columns]
            for lane in tl.lanes:
                found.append(lane.title)
                found += [chip.label for chip in lane.chips]
                found += [chip.tooltip for chip in lane.chips]
        found.append(self.windowTitle())
        return found

    # --- where it opens -----------------------------------------------------------------------
    def place(self, beside: QWidget, geometry: QByteArray | None) -> None:
        """Open on the screen the GM's window is not on (full screen there), else where it
        was last time when that is clear of the GM's window, else beside it."""
        screens = QGuiApplication.screens()
        mine = beside.screen()
        others = [s for s in screens if s is not mine]
        if others:
            target = others[0]
            self.setScreen(target)
            self.setGeometry(target.geometry())
            self.showFullScreen()
            return
        if geometry is not None and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        gm = beside.frameGeometry()
        if not self.geometry().intersects(gm):
            self.show()
            return
        # One screen: beside the GM's window, in the wider free strip, never over it.
        area = mine.availableGeometry() if mine is not None else gm
        right = area.right() - gm.right()
        left = gm.left() - area.left()
        width = max(right, left)
        if width < 200:
            self.show()
            return
        on_right = right >= left
        x = gm.right() + 1 if on_right else area.left()
        self.setGeometry(x, area.top(), width, area.height())
        self.show()
        # The window manager's frame is known once shown: keep it clear of the GM's too.
        frame = self.frameGeometry()
        if frame.intersects(gm):
            overlap = (gm.right() - frame.left() + 1) if on_right else (frame.right() - gm.left() + 1)
            self.resize(max(200, self.width() - overlap), self.height())
            self.move(frame.x() + overlap if on_right else frame.x(), frame.y())


def _bigger(font: QFont, scale: float) -> QFont:
    bigger = QFont(font)
    bigger.setPointSizeF(font.pointSizeF() * scale)
    return bigger
