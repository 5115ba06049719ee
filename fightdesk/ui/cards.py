"""Fighter cards: one card per fighter (one per group of mooks) in a scrolling grid that
puts as many cards on a row as fit the width and stretches them to fill it.

The cards read the fighters model (one row per fighter, the ruleset's ``Card`` under
``ItemRole``) and only re-render the cards whose rows changed. Buttons and the context
menu ask for things by signal (act, interrupt, damage/heal, edit, remove, add a
condition, remove one); the main window decides what they do.
"""

from __future__ import annotations

from functools import partial
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QMenu,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QStyleOptionButton,
    QStyleOptionFocusRect,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .layouts import take_widgets
from .models import GroupNameRole, GroupRole, ItemRole, KeyRole
from .plain import plain_label, plain_tip

if TYPE_CHECKING:
    from fightdesk.engine.ruleset import Card

# The narrowest a card gets: its four buttons still read ("Interrupt", "Health...").
# Two of them fit the central area of a 1280x800 window with both docks open.
MIN_CARD_WIDTH = 256
GAP = 8  # between cards and around the grid
SIDE_WORDS = {"pc": "Player character", "ally": "Ally", "enemy": "Enemy"}


class FighterCard(QFrame):
    """One fighter, or one group of identical mooks with a line per member."""

    requested = Signal(str, str)  # (what, fighter_id): act, interrupt, health, edit, remove,
    # add-condition
    conditionRemoveRequested = Signal(str, int)  # (fighter_id, the condition's index)
    #: Its fighter's turn began: the cards area brings the card into view.
    turnBegan = Signal()

    def __init__(self, key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.setObjectName(f"card-{key}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Base)
        self.setFixedWidth(MIN_CARD_WIDTH)  # the view sets the width its grid gives
        # Never shorter than its contents: a short cards area scrolls rather than squash
        # the buttons and the health bar.
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self._acting = False
        self._out = False
        self._look: tuple[bool, int] | None = None  # (out, the parent palette's key) shown
        self._cards: list[Card] = []
        # What the card's height was measured for (show_cards): its width and lines.
        self._shape: tuple[object, ...] | None = None
        self._fitted_width = -1
        self._member_buttons = QButtonGroup(self)
        self._member_radios: list[MemberLine] = []
        # The group member whose turn it was when the members were last shown: the
        # checked member follows each new turn (the GM may check another in between).
        self._acting_member = ""

        self.title = plain_label()
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.title.setFont(font)
        self.side = plain_label()
        self.health = QProgressBar()
        self.health.setTextVisible(True)
        self.health.setMaximumHeight(self.fontMetrics().height() + 6)
        self.resources = plain_label()
        self.resources.setWordWrap(True)
        self.conditions = plain_label()
        self.conditions.setWordWrap(True)
        # Condition names may come from a file: shown as they are, never as markup.
        self.conditions.setTextFormat(Qt.TextFormat.PlainText)
        italic = self.conditions.font()
        italic.setItalic(True)
        self.conditions.setFont(italic)
        self.dice = plain_label()
        self.dice.setWordWrap(True)
        self.members = QWidget()
        self.members_layout = QVBoxLayout(self.members)
        self.members_layout.setContentsMargins(0, 0, 0, 0)
        self.members_layout.setSpacing(0)

        # The action buttons come from the ruleset's form roles (act, react...).
        self._roles: tuple[tuple[str, str], ...] = ()
        self.role_buttons: dict[str, QPushButton] = {}
        self.health_button = QPushButton("Health...")
        self.more_button = QToolButton()
        self.more_button.setText("⋯")
        self.more_button.setToolTip("Edit, remove, add or remove a condition")
        self.more_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.health_button.setToolTip("Damage or heal: a loss is damage by the rules (or a GM override)")
        # Its menu is made when clicked: a menu per card would be set up (polished) for
        # every card shown, hundreds in a big fight, for a button seldom used.
        self.more_button.clicked.connect(self._show_more)
        self.health_button.clicked.connect(lambda: self._ask("health"))

        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.side)
        buttons = self._buttons = QHBoxLayout()
        buttons.setSpacing(4)
        self.health_button.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        buttons.addWidget(self.health_button)
        buttons.addWidget(self.more_button)
        self.set_roles(DEFAULT_ROLES)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(4)
        layout.addLayout(head)
        layout.addWidget(self.health)
        layout.addWidget(self.resources)
        layout.addWidget(self.conditions)
        layout.addWidget(self.dice)
        layout.addWidget(self.members)
        layout.addLayout(buttons)

    # --- the ruleset's action roles ------------------------------------------------------------
    def set_roles(self, roles: tuple[tuple[str, str], ...]) -> None:
        """One button per (role, label) the ruleset's cards offer, before Health."""
        if roles == self._roles:
            return
        self._roles = roles
        for button in self.role_buttons.values():
            self._buttons.removeWidget(button)
            button.deleteLater()
        self.role_buttons = {}
        for place, (role, label) in enumerate(roles):
            button = QPushButton(label)
            button.setObjectName(f"role-{role}")
            button.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
            button.setToolTip(plain_tip(ROLE_TIPS.get(role, "{label} with this fighter").format(label=label)))
            button.clicked.connect(lambda _=False, r=role: self._ask(r))
            self._buttons.insertWidget(place, button)
            self.role_buttons[role] = button
        out = bool(self._cards) and all(c.out for c in self._cards)
        for button in self.role_buttons.values():
            button.setEnabled(not out)
        # A button never narrower than its text: the card is made wide enough instead.
        for button in (*self.role_buttons.values(), self.health_button):
            button.setMinimumWidth(_text_room(button))
        self._name_buttons()

    def _name_buttons(self) -> None:
        """Each button says whose it is: tabbing from card to card, a screen reader
        reads "Act: Kaede Moriyama", never a row of alike "Act" buttons."""
        title = self.title.text()
        for button in (*self.role_buttons.values(), self.health_button):
            label = button.text().replace("&", "").rstrip(".")
            button.setAccessibleName(f"{label}: {title}" if title else label)
        self.more_button.setAccessibleName(f"More: {title}" if title else "More")

    def fit_height(self) -> None:
        """Never shorter than its lines need at its width: the grid otherwise keeps a
        height from before a line appeared and squashes the buttons and health bar."""
        layout = self.layout()
        if layout is None:
            return
        # The members' lines wrap: their area keeps the heights it last measured (its
        # own layout, and the card's layout item for it) until told they are stale.
        self.members_layout.invalidate()
        self.members.updateGeometry()
        layout.invalidate()
        need = layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth() \
            else layout.totalSizeHint().height()
        # The height the grid gives the card (its size hint), fixed: Qt then tells the grid
        # only when that height changes, not each time a line of the card reads anew (the
        # grid would lay out every card again, hundreds in a big fight, on every click).
        height = max(need, layout.totalSizeHint().height())
        if self.minimumHeight() != height or self.maximumHeight() != height:
            self.setFixedHeight(height)
        self._fitted_width = self.width()

    def hasHeightForWidth(self) -> bool:
        # The card's width is fixed by the view and its height set by fit_height(): the
        # grid then lays rows out from that height, not from a guess at another width.
        return False

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(hint.width(), max(hint.height(), self.minimumHeight()))

    def needed_width(self) -> int:
        """The narrowest the card can be with every button's text whole."""
        buttons: list[QAbstractButton] = [*self.role_buttons.values(), self.health_button,
                                          self.more_button]
        inner = sum(_text_room(b) for b in buttons) + self._buttons.spacing() * (len(buttons) - 1)
        return inner + 2 * 8 + 2 * self.frameWidth()

    @property
    def act_button(self) -> QPushButton | None:
        return self.role_buttons.get("act")

    # --- showing --------------------------------------------------------------------------
    def show_cards(self, cards: list[Card], group_name: str = "") -> None:
        """One card (a fighter) or several (the members of a group, in fight order)."""
        if cards == self._cards:
            return
        self._cards = cards
        lead = cards[0]
        grouped = bool(group_name)
        alive = [c for c in cards if not c.out]
        title = f"{group_name} ×{len(cards)}" if grouped else lead.title
        self.title.setText(title)
        _set_tip(self.title, title)
        side = lead.side.upper() if lead.side == "pc" else lead.side.capitalize()
        hidden = any(c.hidden for c in cards)
        self.side.setText(f"{side} · hidden" if hidden else side)
        _set_tip(self.side, SIDE_WORDS.get(lead.side, lead.side)
                 + ("\nHidden from the players: not on the player view" if hidden else ""))
        if grouped:
            total = sum(max(c.health, 0) for c in cards)
            most = sum(c.health_max for c in cards)
            self.health.setRange(0, max(most, 1))
            self.health.setValue(min(total, max(most, 1)))
            self.health.setFormat(f"Health {total}/{most} · {len(alive)} standing")
            _health_colours(self.health, total / most if most > 0 else 1.0)
        else:
            self.health.setRange(0, max(lead.health_max, 1))
            self.health.setValue(max(0, min(lead.health, max(lead.health_max, 1))))
            self.health.setFormat(f"Health {lead.health}/{lead.health_max}")
            _health_colours(self.health, lead.health / lead.health_max if lead.health_max > 0 else 1.0)
        self.health.setVisible(lead.health_max > 0)
        shown = lead if not grouped else None
        res = "   ".join(_resource_text(r) for r in shown.resources) if shown else ""
        self.resources.setText(res)
        _set_tip(self.resources, "\n".join(r.tooltip for r in shown.resources if r.tooltip) if shown else "")
        self.resources.setVisible(bool(res))
        conds = "\n".join(c.text for c in shown.conditions) if shown else ""
        self.conditions.setText(conds)
        _set_tip(self.conditions, "\n".join(c.tooltip for c in shown.conditions
                                             if c.tooltip) if shown else "")
        self.conditions.setVisible(bool(conds))
        dice = " ".join(shown.dice) if shown else ""
        self.dice.setText(f"Dice: {dice}" if dice else "")
        self.dice.setVisible(bool(dice))
        # What a screen reader says on reaching the card: who, which side, how hurt.
        health = self.health.format() if lead.health_max > 0 else ""
        self.setAccessibleName(", ".join(p for p in (title, self.side.text(), health,
                                                      "out" if not alive else "") if p))
        self.setAccessibleDescription("\n".join(p for p in (res, conds, self.dice.text()) if p))
        self.health.setAccessibleName(health or "Health")
        self._name_buttons()
        member_lines = self._show_members(cards if grouped else [])
        acting = any(c.acting for c in cards)
        out = all(c.out for c in cards)
        self._set_out(out)
        # A line shown or hidden changes the card's height: the grid must hear of it
        # (else it keeps the old height and squashes the buttons and the health bar).
        # What the height depends on: the width, the lines shown, the text of the lines
        # that wrap, and how many lines the others hold. A step that changes none of it
        # (health, a die used, a member's line) is not measured again: measuring lays
        # out the whole card, a group's twelve member lines with it.
        shape = (title.count("\n"), side.count("\n"), hidden, lead.health_max > 0,
                 res, conds, dice, member_lines)
        if shape != self._shape or self.width() != self._fitted_width:
            self.fit_height()
        self._shape = shape
        if acting != self._acting:
            # The outline of whose turn it is: the card's own picture. Every line and
            # button repaints itself when it changes; the whole card (a group's twelve
            # lines) is painted again only for this.
            self._acting = acting
            self.update()
            if acting:
                self.turnBegan.emit()

    def _show_members(self, cards: list[Card]) -> tuple[int, ...]:
        """The members' lines; how many lines each one's text takes at the card's width."""
        selected = self.selected_fighter() if self._member_radios else None
        if len(self._member_radios) != len(cards):
            for radio in self._member_radios:
                self._member_buttons.removeButton(radio)
                radio.deleteLater()
            self._member_radios = []
            for _ in cards:
                radio = MemberLine()
                _outline_indicator(radio, self.palette())
                self._member_buttons.addButton(radio)
                self.members_layout.addWidget(radio)
                self._member_radios.append(radio)
        acting = next((c.fighter_id for c in cards if c.acting), "")
        if acting and acting != self._acting_member:
            selected = acting
        self._acting_member = acting
        for radio, card in zip(self._member_radios, cards, strict=True):
            bits = [card.title, f"{card.health}/{card.health_max}"]
            if card.dice:
                bits.append("die " + " ".join(card.dice))
            bits += [_state_text(r) for r in card.resources if r.maximum is None and r.value]
            if card.conditions:
                bits.append(", ".join(c.text for c in card.conditions))
            if card.out:
                bits.append("out")
            text = "  ·  ".join(bits)
            notes = _member_notes(card)
            # A member whose line reads the same is left alone (a step changes one or two
            # of a group's twelve): its tooltip is not made again.
            # "&" in a name is a letter, not a key (a button's text underlines what follows it).
            shown = text.replace("&", "&&")
            if radio.text() != shown or radio.notes != notes:
                radio.setText(shown)
                radio.notes = notes
                # What each condition and state is, as a single fighter's card tells it.
                _set_tip(radio, "\n".join((text, *notes)))
                radio.setAccessibleDescription("\n".join(notes))
            if radio.property("fighter_id") != card.fighter_id:
                radio.setProperty("fighter_id", card.fighter_id)
            radio.setChecked(card.fighter_id == selected)
        if self._member_radios and self._member_buttons.checkedButton() is None:
            standing = [r for r, c in zip(self._member_radios, cards, strict=True) if not c.out]
            (standing or self._member_radios)[0].setChecked(True)
        self.members.setVisible(bool(cards))
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else None
        room = self.width() - 2 * self.frameWidth() - (
            margins.left() + margins.right() if margins is not None else 0)
        return tuple(radio.line_count(room) for radio in self._member_radios)

    def changeEvent(self, event: QEvent) -> None:
        """The palette changed under the card (light to dark while the app runs): the
        colours it set itself follow, so no line keeps the old palette's."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and getattr(self, "_look", None) is not None:
            self._set_out(self._out)
        elif event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange) \
                and getattr(self, "_look", None) is not None:
            self.fit_height()  # its lines' heights changed: so does the fixed height

    def _set_out(self, out: bool) -> None:
        self._out = out
        parent = self.parentWidget()
        base = parent.palette() if parent is not None else self.palette()
        # Setting a palette re-polishes every child: only when the look really changes.
        look = (out, base.cacheKey())
        if look == self._look:
            return
        self._look = look
        pal = self.palette()
        src = QPalette.ColorGroup.Disabled if out else QPalette.ColorGroup.Active
        for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text):
            pal.setColor(QPalette.ColorGroup.Active, role, base.color(src, role))
            pal.setColor(QPalette.ColorGroup.Inactive, role, base.color(src, role))
        self.setPalette(pal)
        for radio in self._member_radios:
            _outline_indicator(radio, pal)
        for button in self.role_buttons.values():
            button.setEnabled(not out)
        _set_tip(self, "Out of the fight" if out else "")

    def focus_chain(self) -> list[QWidget]:
        """The card's keyboard stops in reading order: members, then the buttons."""
        return [*self._member_radios, *self.role_buttons.values(),
                self.health_button, self.more_button]

    def selected_fighter(self) -> str:
        """The fighter the buttons act for: the fighter, or the checked group member."""
        checked = self._member_buttons.checkedButton()
        if checked is not None:
            return str(checked.property("fighter_id"))
        return self._cards[0].fighter_id if self._cards else self.key

    def is_acting(self) -> bool:
        return self._acting

    def acting_member(self) -> str:
        """The group member whose turn it is, if any."""
        return next((c.fighter_id for c in self._cards if c.acting), "") \
            if self._member_radios else ""

    def _ask(self, what: str) -> None:
        # A group's Act acts for the member whose turn it is, whichever line is checked.
        who = (self.acting_member() if what == "act" else "") or self.selected_fighter()
        self.requested.emit(what, who)

    # --- look --------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._acting:
            painter = QPainter(self)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), 3))
            painter.drawRoundedRect(self.rect().adjusted(2, 2, -2, -2), 5, 5)

    def _show_more(self) -> None:
        self._popup((("edit", "Edit..."), ("remove", "Remove from fight"),
                     ("hide", "Hide from / show to the players")),
                    self.more_button.mapToGlobal(QPoint(0, self.more_button.height())))

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        self._popup((*((role, f"{label}...") for role, label in self._roles),
                     ("health", "Damage / heal..."), ("edit", "Edit..."),
                     ("hide", "Hide from / show to the players"),
                     ("remove", "Remove from fight")), event.globalPos())

    def _popup(self, items: tuple[tuple[str, str], ...], where: QPoint) -> None:
        """A menu of (what, label) made when asked; choosing one asks for ``what``. Then
        the conditions: add one, or remove one of those the GM may remove."""
        menu = QMenu(self)
        for what, label in items:
            act = menu.addAction(label)
            act.triggered.connect(lambda _=False, w=what: self._ask(w))
        menu.addSeparator()
        add = menu.addAction("Add condition...")
        add.triggered.connect(lambda _=False: self._ask("add-condition"))
        fighter_id = self.selected_fighter()
        shown = next((c for c in self._cards if c.fighter_id == fighter_id), None)
        removable = [c for c in shown.conditions if c.removable and c.position is not None] \
            if shown is not None else []
        sub = menu.addMenu("Remove condition")
        sub.setEnabled(bool(removable))
        for cond in removable:
            act = sub.addAction(cond.text.replace("&", "&&"))
            act.triggered.connect(lambda _=False, i=cond.position: self.conditionRemoveRequested.emit(
                fighter_id, i))
        menu.exec(where)


class MemberLine(QRadioButton):
    """A group member's line: a radio button whose text wraps at the card's width, so a
    member's conditions and dropped weapons are read whole (a plain radio button draws
    its text on one line and cuts it at the card's edge)."""

    PAD = 2  # around the text: room for the focus frame

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        # The text laid out at a width, kept: the grid measures each line again and again,
        # and a group of twelve is painted on every turn of one of them.
        self._laid: dict[tuple[str, int], tuple[QTextLayout, int]] = {}
        # The text and its width on one line: a line that fits is never laid out.
        self._natural: tuple[str, int] = ("", 0)
        # The style's circle (width, height), the gap to the text, one line's height.
        self._style_sizes: tuple[int, int, int, int] | None = None
        #: What the member's conditions and states are (the tooltips of a fighter's card).
        self.notes: tuple[str, ...] = ()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange,
                            QEvent.Type.LayoutDirectionChange):
            self._style_sizes = None
            self._laid.clear()
            self._natural = ("", 0)
        super().changeEvent(event)

    def _sizes(self) -> tuple[int, int, int, int]:
        if self._style_sizes is None:
            option = QStyleOptionButton()
            self.initStyleOption(option)
            style = self.style()
            self._style_sizes = (
                style.pixelMetric(QStyle.PixelMetric.PM_ExclusiveIndicatorWidth, option, self),
                style.pixelMetric(QStyle.PixelMetric.PM_ExclusiveIndicatorHeight, option, self),
                style.pixelMetric(QStyle.PixelMetric.PM_RadioButtonLabelSpacing, option, self),
                super().sizeHint().height())
        return self._style_sizes

    def _text_width(self, width: int) -> int:
        circle, _, gap, _ = self._sizes()
        return max(1, width - circle - gap - 2 * self.PAD)

    def words(self) -> str:
        """The line as read: its text with each doubled "&" (a letter, not a key) single."""
        return self.text().replace("&&", "&")

    def _fits(self, text_width: int) -> bool:
        """Whether the text fits on one line ``text_width`` wide (most members' lines)."""
        text = self.words()
        if self._natural[0] != text or not text:
            self._natural = (text, self.fontMetrics().horizontalAdvance(text))
        return self._natural[1] <= text_width

    def _laid_out(self, text_width: int) -> tuple[QTextLayout, int]:
        """The text broken into lines at ``text_width`` (between words; inside a word
        only when the word alone is wider), and the lines' height."""
        key = (self.words(), text_width)
        found = self._laid.get(key)
        if found is not None:
            return found
        layout = QTextLayout(key[0], self.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        option.setTextDirection(self.layoutDirection())
        layout.setTextOption(option)
        layout.beginLayout()
        height = 0.0
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(text_width)
            line.setPosition(QPointF(0, height))
            height += line.height()
        layout.endLayout()
        if len(self._laid) > 8:
            self._laid.clear()
        found = self._laid[key] = (layout, int(height + 0.999))
        return found

    def line_count(self, width: int) -> int:
        """How many lines the text takes in a line ``width`` wide."""
        text_width = self._text_width(width)
        return 1 if self._fits(text_width) else self._laid_out(text_width)[0].lineCount()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        _, circle, _, one = self._sizes()
        least = max(one, circle + 2 * self.PAD)  # one line: as tall as a plain radio button
        text_width = self._text_width(width)
        if self._fits(text_width):
            return least
        return max(least, self._laid_out(text_width)[1] + 2 * self.PAD)

    def sizeHint(self) -> QSize:
        width = super().sizeHint().width() + 2 * self.PAD
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        # Any width will do: the text wraps (the card's width is set by its grid).
        circle, _, gap, one = self._sizes()
        return QSize(circle + gap + 2 * self.PAD + 4 * self.fontMetrics().averageCharWidth(), one)

    def hitButton(self, pos: QPoint) -> bool:
        return self.rect().contains(pos)  # every line of the text checks it, not the first

    def paintEvent(self, event: QPaintEvent) -> None:
        text_width = self._text_width(self.width())
        if self._fits(text_width):
            super().paintEvent(event)  # one line: drawn as any radio button (and quicker)
            return
        layout, height = self._laid_out(text_width)
        first = int(layout.lineAt(0).height()) if layout.lineCount() else height
        top = max(self.PAD, (self.height() - height) // 2)
        painter = QPainter(self)
        option = QStyleOptionButton()
        self.initStyleOption(option)
        style = self.style()
        # The circle and the text where the style puts them on a one-line radio button
        # (so wrapped and one-line members align), the circle beside the first line.
        circle = style.subElementRect(QStyle.SubElement.SE_RadioButtonIndicator, option, self)
        room = style.subElementRect(QStyle.SubElement.SE_RadioButtonContents, option, self)
        option.rect = QRect(circle.x(), top + max(0, (first - circle.height()) // 2),
                            circle.width(), circle.height())
        style.drawPrimitive(QStyle.PrimitiveElement.PE_IndicatorRadioButton, option, painter, self)
        left = room.x() if self.layoutDirection() == Qt.LayoutDirection.LeftToRight \
            else room.right() + 1 - text_width
        text_rect = QRect(left, top, text_width, height)
        group = QPalette.ColorGroup.Normal if self.isEnabled() else QPalette.ColorGroup.Disabled
        painter.setPen(self.palette().color(group, self.foregroundRole()))
        layout.draw(painter, QPointF(text_rect.topLeft()))
        if self.hasFocus():
            frame = QStyleOptionFocusRect()
            frame.initFrom(self)
            frame.rect = text_rect.adjusted(-self.PAD, -self.PAD, self.PAD, self.PAD)
            style.drawPrimitive(QStyle.PrimitiveElement.PE_FrameFocusRect, frame, painter, self)
        painter.end()


DEFAULT_ROLES: tuple[tuple[str, str], ...] = (("act", "Act"), ("react", "Interrupt"))
ROLE_TIPS = {
    "act": "{label}: choose what this fighter does now",
    "react": "{label}: react to what is happening with this fighter",
    "assist": "{label}: help another fighter's roll",
    "gm": "{label}: GM changes to this fighter",
}


class CardsView(QScrollArea):
    """The scrolling grid of cards over a fighters model."""

    requested = Signal(str, str)  # (what, fighter_id), from any card
    conditionRemoveRequested = Signal(str, int)  # (fighter_id, index), from any card

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("FighterCards")
        self.setAccessibleName("Fighter cards")
        self.setWindowTitle("Fighters")
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Our own viewport: PySide6 never has to work out the class of a widget Qt made
        # (which sets up every widget class, about 6 ms of the start).
        self.setViewport(QWidget(self))
        self._inner = QWidget()
        self._grid = QGridLayout(self._inner)
        self._grid.setContentsMargins(GAP, GAP, GAP, GAP)
        self._grid.setSpacing(GAP)
        self._grid.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setWidget(self._inner)
        # What to do next when there are no cards (a new fight): said, not a blank area.
        self.empty_hint = plain_label("", self._inner)
        self.empty_hint.setObjectName("emptyHint")
        self.empty_hint.setTextFormat(Qt.TextFormat.PlainText)
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_hint.setMargin(24)
        self.empty_hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.empty_hint.setVisible(False)
        self._model: QAbstractItemModel | None = None
        self._cards: dict[str, FighterCard] = {}
        self._order: list[str] = []  # card keys in fight order
        self._rows_of: dict[str, list[int]] = {}  # card key -> its model rows
        self._key_of_row: list[str] = []
        self._flow: tuple[int, int] = (0, 0)  # (columns, card width) laid out
        self._roles: tuple[tuple[str, str], ...] = DEFAULT_ROLES
        self._min_width = MIN_CARD_WIDTH
        self.verticalScrollBar().rangeChanged.connect(self._keep_acting_in_view)

    def set_roles(self, roles: tuple[tuple[str, str], ...]) -> None:
        """The action buttons every card shows, as (role, label): the ruleset's words."""
        self._roles = roles
        for card in self._cards.values():
            card.set_roles(roles)
        probe = next(iter(self._cards.values()), None)
        if probe is None:
            probe = FighterCard("probe")
            probe.set_roles(roles)
            needed = probe.needed_width()
            probe.deleteLater()
        else:
            needed = probe.needed_width()
        if max(MIN_CARD_WIDTH, needed) != self._min_width:
            self._min_width = max(MIN_CARD_WIDTH, needed)
            self._flow = (0, 0)
            self._reflow()

    def set_empty_hint(self, text: str) -> None:
        """The line shown while the fight has no fighters ("" hides it)."""
        if self.empty_hint.text() != text:
            self.empty_hint.setText(text)
        shown = bool(text) and not self._order
        if shown != self.empty_hint.isVisible():
            self._flow = (0, 0)
            self.empty_hint.setVisible(shown)
            self._reflow()

    def set_model(self, model: QAbstractItemModel) -> None:
        self._model = model
        model.modelReset.connect(self._rebuild)
        model.rowsInserted.connect(self._rebuild)
        model.rowsRemoved.connect(self._rebuild)
        model.dataChanged.connect(self._rows_changed)
        self._rebuild()

    def keep_acting_in_view(self) -> None:
        """Scroll to the card of whoever acts (once the grid has laid it out)."""
        self._keep_acting_in_view()

    def _keep_acting_in_view(self, *_: object) -> None:
        """The cards moved or grew: the one whose turn it is stays in view."""
        acting = next((key for key, card in self._cards.items() if card.is_acting()), None)
        if acting is not None:
            self._bring_into_view(acting)

    def _bring_into_view(self, key: str) -> None:
        """Scroll to the card whose turn began (on a small screen it may be below the
        fold); once the grid has laid it out."""
        QTimer.singleShot(0, self, partial(self._scroll_to, key))

    def _scroll_to(self, key: str) -> None:
        card = self._cards.get(key)
        if card is not None and card.is_acting():
            self.ensureWidgetVisible(card, 0, GAP)

    def card(self, key: str) -> FighterCard | None:
        """The card for a fighter id (or a group id)."""
        return self._cards.get(key)

    def card_for_fighter(self, fighter_id: str) -> FighterCard | None:
        model = self._model
        if model is None:
            return None
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            if index.data(KeyRole) == fighter_id:
                return self._cards.get(index.data(GroupRole) or fighter_id)
        return None

    def cards(self) -> list[FighterCard]:
        return [self._cards[k] for k in self._order]

    def _groups(self) -> dict[str, tuple[str, list[Any]]]:
        """Card key -> (group name, the rows' cards), in fight order."""
        model = self._model
        out: dict[str, tuple[str, list[Any]]] = {}
        if model is None:
            return out
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            key = index.data(GroupRole) or index.data(KeyRole)
            name = index.data(GroupNameRole) or ""
            out.setdefault(key, (name, []))[1].append(index.data(ItemRole))
        return out

    def _rebuild(self, *_: object) -> None:
        groups = self._groups()
        for key in list(self._cards):
            if key not in groups:
                gone = self._cards.pop(key)
                gone.hide()  # at once: deleteLater waits for the event loop
                gone.deleteLater()
        self._rows_of = {}
        self._key_of_row = []
        model = self._model
        if model is not None:
            for row in range(model.rowCount()):
                index = model.index(row, 0)
                key = index.data(GroupRole) or index.data(KeyRole)
                self._rows_of.setdefault(key, []).append(row)
                self._key_of_row.append(key)
        for key, (name, cards) in groups.items():
            widget = self._cards.get(key)
            if widget is None:
                widget = FighterCard(key)
                widget.set_roles(self._roles)
                widget.requested.connect(self.requested)
                widget.conditionRemoveRequested.connect(self.conditionRemoveRequested)
                widget.turnBegan.connect(partial(self._bring_into_view, key))
                self._cards[key] = widget
            widget.show_cards(cards, name)
        self._order = list(groups)
        self._flow = (0, 0)
        self._reflow()
        self._chain_focus()

    def _rows_changed(self, top: QModelIndex | QPersistentModelIndex,
                      bottom: QModelIndex | QPersistentModelIndex, *_: object) -> None:
        """Re-render only the cards whose rows changed (rows keep their card between
        structural changes, which rebuild)."""
        model = self._model
        if model is None:
            return
        keys = {self._key_of_row[r] for r in range(top.row(), bottom.row() + 1)
                if r < len(self._key_of_row)}
        grew = False
        for key in keys:
            widget = self._cards.get(key)
            rows = self._rows_of.get(key, [])
            if widget is None or not rows:
                continue
            first = model.index(rows[0], 0)
            height = widget.height()
            widget.show_cards([model.index(r, 0).data(ItemRole) for r in rows],
                              first.data(GroupNameRole) or "")
            grew = grew or widget.height() != height
        if grew:
            self._settle()

    def _settle(self) -> None:
        """A card's new height takes effect at once (a fixed height resizes the card on
        the spot): the grid places the rows again now, before anything is painted, so a
        taller card never lies over the card below it until the grid's turn comes. The
        inner widget first gets the height the rows need (the scroll area would give it
        later): in less, the grid would squeeze the rows over each other."""
        need = self._grid.totalMinimumSize().height()
        if self._inner.height() < need:
            self._inner.resize(self._inner.width(), need)
        self._grid.activate()

    def _reflow(self) -> None:
        """As many cards per row as fit, each stretched so the row fills the width; the
        cards go left to right, then down, in fight order. Re-run on every resize."""
        width = self.viewport().width() - 2 * GAP
        least = self._min_width
        columns = max(1, min(len(self._order) or 1, (width + GAP) // (least + GAP)))
        card_width = max(least, (width - GAP * (columns - 1)) // columns)
        flow = (columns, card_width)
        if flow == self._flow:
            return
        relayout = columns != self._flow[0]
        self._flow = flow
        self._keep_acting_in_view()
        if self.empty_hint.isVisible():
            self.empty_hint.setFixedWidth(max(MIN_CARD_WIDTH, width))
        for card in self._cards.values():
            card.setFixedWidth(card_width)
            card.fit_height()
        if not relayout:
            self._settle()
            return
        take_widgets(self._grid)  # not takeAt: that leaked an item per card (layouts.py)
        if not self._order and self.empty_hint.isVisible():
            self._grid.addWidget(self.empty_hint, 0, 0)
        for n, key in enumerate(self._order):
            self._grid.addWidget(self._cards[key], n // columns, n % columns,
                                 Qt.AlignmentFlag.AlignTop)
        self._settle()

    def _chain_focus(self) -> None:
        """Tab goes through the cards in fight order (the order they are read in), not
        in the order the cards happened to be made."""
        stops = [w for key in self._order for w in self._cards[key].focus_chain()]
        for first, second in pairwise(stops):
            QWidget.setTabOrder(first, second)

    def least_height(self) -> int:
        """The height the cards area needs to show one card whole: the card of whoever
        acts (else the tallest), with the gaps and the frame around it."""
        cards = [c for c in self._cards.values() if not c.isHidden()]
        if not cards:
            return 0
        acting = [c for c in cards if c.is_acting()]
        card = max(acting or cards, key=lambda c: c.height())
        return card.height() + 2 * GAP + 2 * self.frameWidth()

    def columns(self) -> int:
        """How many cards a row holds now."""
        return self._flow[0]

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._reflow()
        if event.size().height() < event.oldSize().height():
            # A panel opened above the cards: the card of whoever acts stays in view.
            self._keep_acting_in_view()

    def sizeHint(self) -> QSize:
        return QSize(MIN_CARD_WIDTH * 2 + 3 * GAP + 20, 320)


# The health bar's fill as health drops (share of the maximum): the palette's own
# highlight, then amber, then red; the text over the fill stays dark on amber, white on red.
HEALTH_WARNING = 0.5
HEALTH_DANGER = 0.25
_HEALTH_FILLS = {"warning": ("#e0a526", "#1a1a1a"), "danger": ("#c8372d", "#ffffff")}


def health_level(share: float) -> str:
    """'ok', 'warning' or 'danger' for health at ``share`` of its maximum."""
    if share <= HEALTH_DANGER:
        return "danger"
    if share <= HEALTH_WARNING:
        return "warning"
    return "ok"


def _health_colours(bar: QProgressBar, share: float) -> None:
    level = health_level(share)
    if bar.property("level") == level:
        return
    bar.setProperty("level", level)
    if level == "ok":
        bar.setPalette(QPalette())  # the palette of the card again (nothing set)
        return
    fill, text = _HEALTH_FILLS[level]
    pal = QPalette(bar.palette())
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        pal.setColor(group, QPalette.ColorRole.Highlight, QColor(fill))
        pal.setColor(group, QPalette.ColorRole.HighlightedText, QColor(text))
    bar.setPalette(pal)


def _text_room(button: QAbstractButton) -> int:
    """The width a button needs for its text whole (the style's own minimum is wider
    than "Act" needs; this lets two cards share a row while no text is ever cut)."""
    return button.fontMetrics().horizontalAdvance(button.text().replace("&", "")) + 18


def _outline_indicator(radio: QRadioButton, card: QPalette) -> None:
    """Radio circles that show on the card's background in any palette: styles draw
    the circle's edge a shade darker than the Window colour, which on a dark palette is
    the card's own colour; a Window colour between the card's text and background
    gives the edge contrast in light and dark alike."""
    text, base = card.color(QPalette.ColorRole.Text), card.color(QPalette.ColorRole.Base)
    mix = QColor.fromRgbF(0.6 * text.redF() + 0.4 * base.redF(),
                          0.6 * text.greenF() + 0.4 * base.greenF(),
                          0.6 * text.blueF() + 0.4 * base.blueF())
    pal = radio.palette()
    if pal.color(QPalette.ColorRole.Window) != mix:
        pal.setColor(QPalette.ColorRole.Window, mix)
        radio.setPalette(pal)


def _set_tip(widget: QWidget, text: str) -> None:
    """A tooltip set only when it differs: each set sends the widget an event."""
    text = plain_tip(text)  # names and conditions come from the file
    if widget.toolTip() != text:
        widget.setToolTip(text)


NO_BREAK = "\u00a0"


def _member_notes(card: Card) -> tuple[str, ...]:
    """A group member's conditions and states explained, one a line, each under its own
    name ("Knocked down: stands up by spending..."), as a fighter's own card tells them."""
    notes = []
    for cond in card.conditions:
        if cond.tooltip:
            notes.append(cond.tooltip if cond.tooltip.startswith(cond.name)
                         else f"{cond.text}: {cond.tooltip}")
    for state in card.resources:
        if state.maximum is None and state.value and state.tooltip:
            notes.append(f"{state.label}: {state.tooltip}")
    return tuple(notes)


def _state_text(resource: Any) -> str:
    """A state on a group member's line ("Dropped 1: Sword"): its note too when that
    is a few words (the weapons' names), not a sentence."""
    text = _resource_text(resource)
    note = str(resource.tooltip)
    if note and "\n" not in note and len(note) <= 40 and not note.endswith("."):
        text += f": {note}"
    return text


def _resource_text(resource: Any) -> str:
    """"Defense burst 3/4": its words joined by no-break spaces, so a narrow card wraps
    between resources, never inside one (it showed "Dropped" above a lone "1")."""
    label = str(resource.label).replace(" ", NO_BREAK)
    if resource.maximum is not None:
        return f"{label}{NO_BREAK}{resource.value}/{resource.maximum}"
    return f"{label}{NO_BREAK}{resource.value}"
