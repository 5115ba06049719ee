"""The phase timeline: the round as the ruleset lays it out, painted by hand.

Columns are the ruleset's phases (10..1) or turn slots, one lane per fighter (a compact
lane per group of mooks), a chip per action die or turn. It paints only the lanes in
view, so 200 fighters cost no more than 20, and hit-testing is arithmetic on the lane
offsets: no item objects to build on every change (see docs/ui.md).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAccessible,
    QBrush,
    QColor,
    QFocusEvent,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPixmap,
    QRegion,
    QResizeEvent,
)
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from .plain import plain_tip

if TYPE_CHECKING:
    from fightdesk.engine.ruleset import Chip, Lane, Timeline

LANE_HEIGHT = 30
COMPACT_HEIGHT = 24
MIN_COLUMN = 36
# Passing the Qt.NoBrush enum to setBrush on every chip upsets PySide's refcounts
# (a crash after a few thousand calls); one empty brush object avoids it.
_NO_BRUSH = QBrush()


class ChipLook(NamedTuple):
    """How a chip state is drawn: fill, outline, dimmed text, a cross, a dashed edge."""

    hue: int
    filled: bool
    dim: bool = False
    cross: bool = False
    dashed: bool = False
    bold_edge: bool = False


class _ChipStyle(NamedTuple):
    """A chip look made into painter objects for the current palette and font."""

    pen: QPen
    brush: QBrush
    text: QPen
    font: QFont
    radius: float
    cross: bool


LOOKS: dict[str, ChipLook] = {
    "ready": ChipLook(hue=210, filled=True),
    "acting": ChipLook(hue=210, filled=True, bold_edge=True),
    "held": ChipLook(hue=38, filled=True, bold_edge=True),
    "waiting": ChipLook(hue=210, filled=False),
    "spent": ChipLook(hue=0, filled=False, dim=True),
    "done": ChipLook(hue=0, filled=False, dim=True),
    "lost": ChipLook(hue=0, filled=False, cross=True),
    "converted": ChipLook(hue=130, filled=False, dashed=True),
}
STATE_WORDS = {
    "ready": "ready", "acting": "acting now", "held": "held", "waiting": "waiting",
    "spent": "spent", "done": "done", "lost": "lost", "converted": "turned into EP",
}


def _over(color: QColor, base: QColor) -> QColor:
    """A translucent colour laid on an opaque one, as one opaque colour."""
    a = color.alphaF()
    return QColor.fromRgbF(color.redF() * a + base.redF() * (1 - a),
                           color.greenF() * a + base.greenF() * (1 - a),
                           color.blueF() * a + base.blueF() * (1 - a))


def _drawn(lane: Lane) -> tuple[object, ...]:
    """What of a lane is painted: a chip's tooltip or whether it can be clicked is not
    (a stack opening makes every ready chip clickable and changes none of them)."""
    return (lane.title, lane.compact, lane.out,
            tuple((c.id, c.column, c.label, c.state) for c in lane.chips))


def _spoken(timeline: Timeline | None) -> str:
    """The painted timeline in words, for a screen reader: where the round is, then each
    lane with its chips (where, and in what state)."""
    if timeline is None:
        return "No fight"
    columns = timeline.columns
    lines = [timeline.caption] if timeline.caption else []
    if timeline.current_column is not None and timeline.current_column < len(columns):
        lines.append(f"Now: {columns[timeline.current_column]}")
    for lane in timeline.lanes:
        chips = ", ".join(
            f"{chip.label} at {columns[chip.column] if chip.column < len(columns) else chip.column}"
            f" ({STATE_WORDS.get(chip.state, chip.state)})" for chip in lane.chips)
        lines.append(f"{lane.title}{' (out)' if lane.out else ''}: {chips or 'nothing'}")
    return "\n".join(lines)


class TimelineView(QAbstractScrollArea):
    """Shows a :class:`Timeline`; ``chipClicked(fighter_id, chip_id)`` when the GM clicks
    a chip that can act now. On a movable timeline (a turn order) the GM drags a lane to
    another place: ``laneMoved(lane_id, column_id, index)`` asks for the move (the index
    among the lanes of that column); the ruleset says whether it may go there."""

    chipClicked = Signal(str, str)
    laneMoved = Signal(str, str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Timeline")
        self.setAccessibleName("Timeline")
        self.setWindowTitle("Timeline")
        self.setMouseTracking(True)
        # A viewport made here, not by Qt: PySide6 then never has to work out the class
        # of a widget it did not make, which sets up every widget class (about 6 ms).
        viewport = QWidget(self)
        viewport.setMouseTracking(True)
        # paintEvent fills all it is asked to paint: Qt need not paint the splitter and
        # the window underneath first on every change of the timeline.
        viewport.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setViewport(viewport)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self._timeline: Timeline | None = None
        self._tops: list[int] = [0]  # y of each lane's top, plus the bottom of the last
        self._title_width = 160
        self._column_width = MIN_COLUMN
        self._chip_by_id: dict[str, tuple[int, Chip]] | None = None  # made when asked
        # Paint caches: chip rects per lane (content coordinates, built once per timeline
        # and geometry), the pens/brushes/fonts per chip look (per palette and font), the
        # elided lane titles, the label widths. A repaint is then just the drawing calls.
        self._lane_chips: dict[int, list[tuple[Chip, QRectF]]] = {}
        # Chips that share a cell too narrow for them side by side are drawn as one
        # "×N" chip: its id -> the chips it stands for (their tooltips in its own).
        self._merged: dict[str, tuple[Chip, ...]] = {}
        self._styles: dict[tuple[str, bool], _ChipStyle] = {}
        self._images: dict[tuple[str, bool, str, int, int, float], tuple[QPixmap, int, int]] = {}
        self._titles: dict[tuple[str, bool, bool, int], str] = {}
        self._advance: dict[str, int] = {}
        self._fonts: dict[tuple[bool, bool, bool], QFont] = {}
        # A lane being dragged: (lane number, where the press was); the drop place shown.
        self._drag: tuple[int, QPoint] | None = None
        self._drop: tuple[int, int] | None = None  # (insert before lane number, column)
        # The turn timer: the chip whose label shows the time left, and that text.
        self._countdown: tuple[str, str, bool] | None = None

    # --- data ----------------------------------------------------------------------------
    def set_timeline(self, timeline: Timeline | None) -> None:
        if timeline == self._timeline:
            return
        old, laid_out = self._timeline, self._lane_chips
        self._timeline = timeline
        self._chip_by_id = None
        if QAccessible.isActive():  # a screen reader listens: the timeline in words
            self.setAccessibleDescription(_spoken(timeline))
        tops = [0]
        if timeline is not None:
            for lane in timeline.lanes:
                tops.append(tops[-1] + (COMPACT_HEIGHT if lane.compact else LANE_HEIGHT))
        # A step changes a few lanes: the others keep their chip layout (same place, same
        # chips); _measure drops them all if the columns changed width.
        self._lane_chips = {}
        same_shape = tops == self._tops
        if old is not None and timeline is not None and same_shape:
            for lane_no, laid in laid_out.items():
                if (lane_no < len(timeline.lanes)
                        and timeline.lanes[lane_no].chips == old.lanes[lane_no].chips):
                    self._lane_chips[lane_no] = laid
        self._tops = tops
        if not same_shape:
            self.updateGeometry()  # the minimum height follows the lanes
        geometry = (self._title_width, self._column_width)
        self._measure()
        if (old is not None and timeline is not None and same_shape
                and geometry == (self._title_width, self._column_width)
                and old.columns == timeline.columns
                and old.current_column == timeline.current_column):
            # The columns and the current one stay: only the lanes that changed (a step
            # changes a few of 200) and the caption in the corner are painted again.
            self._update_lanes([n for n, (was, now) in enumerate(zip(old.lanes, timeline.lanes, strict=True))
                                if was != now and _drawn(was) != _drawn(now)],
                               header=old.caption != timeline.caption)
        else:
            self.viewport().update()

    def _update_lanes(self, lanes: list[int], *, header: bool) -> None:
        """Ask for a repaint of these lanes only (those in view), and of the header."""
        view = self.viewport().rect()
        region = QRegion()
        if header:
            region += QRect(0, 0, view.width(), self._header_height())
        for lane_no in lanes:
            rect = self._lane_rect(lane_no).intersected(view)
            if not rect.isEmpty():
                region += rect
        if not region.isEmpty():
            self.viewport().update(region)

    def timeline(self) -> Timeline | None:
        return self._timeline

    def set_countdown(self, chip_id: str | None, text: str = "", urgent: bool = False) -> None:
        """Show the turn timer's time left on the current turn's chip (None: no timer)."""
        shown = None if chip_id is None else (chip_id, text, urgent)
        if shown != self._countdown:
            if (shown and shown[0]) != (self._countdown and self._countdown[0]):
                self._lane_chips = {}  # the timed chip is laid out wide enough for the time
            self._countdown = shown
            self.viewport().update()

    def countdown(self) -> str:
        return self._countdown[1] if self._countdown else ""

    # --- geometry --------------------------------------------------------------------------
    def _header_height(self) -> int:
        return self.fontMetrics().height() + 12

    def _measure(self) -> None:
        titles = {lane.title for lane in self._timeline.lanes} if self._timeline else set()
        widest = max((self._text_width(t) for t in titles), default=80)
        title_width = max(110, min(widest + 24, 220))
        columns = len(self._timeline.columns) if self._timeline else 0
        free = self.viewport().width() - title_width
        column_width = max(MIN_COLUMN, free // columns) if columns else MIN_COLUMN
        if (title_width, column_width) != (self._title_width, self._column_width):
            self._title_width, self._column_width = title_width, column_width
            self._lane_chips = {}
        content_w = self._title_width + self._column_width * columns
        content_h = self._tops[-1] + self._header_height()
        hbar, vbar = self.horizontalScrollBar(), self.verticalScrollBar()
        hbar.setRange(0, max(0, content_w - self.viewport().width()))
        hbar.setPageStep(self.viewport().width())
        vbar.setRange(0, max(0, content_h - self.viewport().height()))
        vbar.setPageStep(self.viewport().height())
        vbar.setSingleStep(LANE_HEIGHT)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._measure()

    def sizeHint(self) -> QSize:
        return QSize(720, self.content_height())

    def content_height(self) -> int:
        """As tall as the header and the lanes (up to 8 lanes; more scroll), with the
        frame and room for a horizontal scroll bar: no empty rows under the last lane."""
        lanes = len(self._tops) - 1
        shown = self._tops[min(lanes, 8)] if lanes > 0 else LANE_HEIGHT
        return self._header_height() + shown + 2 * self.frameWidth() + 2

    def comfortable_width(self) -> int:
        """The width that shows every column with room for its chips, without a
        horizontal scroll bar: what the window keeps for the timeline on a small screen."""
        columns = len(self._timeline.columns) if self._timeline else 10
        return 120 + columns * (MIN_COLUMN + 8) + 2 * self.frameWidth()

    def minimumSizeHint(self) -> QSize:
        """Room for two lanes, but never taller than the lanes there are: one fighter left
        in the round showed an empty lane row under their lane."""
        return QSize(320, min(self.content_height(), self._header_height() + 2 * LANE_HEIGHT))

    def _lane_rect(self, lane_no: int) -> QRect:
        """Rect of a lane in viewport coordinates (scrolled)."""
        top = self._tops[lane_no] + self._header_height() - self.verticalScrollBar().value()
        return QRect(0, top, self.viewport().width(), self._tops[lane_no + 1] - self._tops[lane_no])

    def _column_x(self, column: int) -> int:
        return self._title_width + column * self._column_width - self.horizontalScrollBar().value()

    def _text_width(self, text: str) -> int:
        width = self._advance.get(text)
        if width is None:
            width = self._advance[text] = self.fontMetrics().horizontalAdvance(text)
        return width

    def _lane_layout(self, lane_no: int) -> list[tuple[Chip, QRectF]]:
        """The lane's chips and their rects in content coordinates (unscrolled, lane
        tops from 0 under the header), worked out once per timeline and geometry."""
        laid = self._lane_chips.get(lane_no)
        if laid is not None:
            return laid
        laid = []
        top = self._tops[lane_no]
        height = self._tops[lane_no + 1] - top
        cells: dict[int, list[Chip]] = {}
        for chip in self._timeline.lanes[lane_no].chips if self._timeline is not None else ():
            cells.setdefault(chip.column, []).append(chip)
        for column in sorted(cells):
            chips = cells[column]
            cell = QRectF(self._title_width + column * self._column_width + 3, top + 3,
                          self._column_width - 6, height - 6)
            timed = self._countdown[0] if self._countdown is not None else None
            wanted = max(max(self._text_width("00:00" if c.id == timed else c.label)
                             for c in chips) + 10, 18)
            if len(chips) > 1 and wanted * len(chips) > cell.width():
                # Side by side they would overlap or clip: one chip says how many.
                chips = [self._merge(lane_no, column, chips)]
                wanted = max(self._text_width(chips[0].label) + 10, 18)
            width = min(wanted, cell.width() / len(chips))
            start = cell.left() + (cell.width() - width * len(chips)) / 2
            # Whole pixels, so a chip's picture can be cached and copied (see _chip_image).
            for i, chip in enumerate(chips):
                left = round(start + i * width)
                right = round(start + i * width + max(width - 2, 4))
                laid.append((chip, QRectF(left, cell.top(), right - left, cell.height())))
        self._lane_chips[lane_no] = laid
        return laid

    def _merge(self, lane_no: int, column: int, chips: list[Chip]) -> Chip:
        """One chip for several in one cell: "×2", the most pressing state of them (acting,
        held, ready...), every member's own tooltip in its tooltip."""
        rank = ("acting", "held", "ready", "waiting", "converted", "spent", "done", "lost")
        state = min((c.state for c in chips),
                    key=lambda st: rank.index(st) if st in rank else len(rank))
        chip_id = f"×{lane_no}:{column}"
        merged = chips[0]._replace(id=chip_id, label=f"×{len(chips)}", state=state,
                                   tooltip="\n".join(self._chip_tip(c) for c in chips),
                                   clickable=any(c.clickable for c in chips))
        self._merged[chip_id] = tuple(chips)
        return merged

    def merged_chips(self, chip_id: str) -> tuple[Chip, ...]:
        """The chips a "×N" chip stands for (empty for an ordinary chip)."""
        return self._merged.get(chip_id, ())

    def _chip_rects(self, lane_no: int, column: int) -> list[tuple[Chip, QRectF]]:
        """The chips on one lane and column, in viewport coordinates (scrolled)."""
        dx = -self.horizontalScrollBar().value()
        dy = self._header_height() - self.verticalScrollBar().value()
        return [(chip, rect.translated(dx, dy)) for chip, rect in self._lane_layout(lane_no)
                if chip.column == column]

    def _find_chip(self, chip_id: str) -> tuple[int, Chip] | None:
        """(lane number, chip) of a chip id; the index is built on the first question
        after a change, not on every change."""
        if self._chip_by_id is None:
            self._chip_by_id = {
                chip.id: (lane_no, chip)
                for lane_no, lane in enumerate(self._timeline.lanes if self._timeline else ())
                for chip in lane.chips
            }
        return self._chip_by_id.get(chip_id)

    def chip_rect(self, chip_id: str) -> QRect:
        """Where a chip is drawn now, in viewport coordinates (empty if not in the timeline)."""
        found = self._find_chip(chip_id)
        if found is None:
            return QRect()
        lane_no, chip = found
        for other, rect in self._chip_rects(lane_no, chip.column):
            if other.id == chip_id or any(c.id == chip_id for c in self.merged_chips(other.id)):
                return rect.toAlignedRect()
        return QRect()

    def scroll_to_chip(self, chip_id: str) -> None:
        found = self._find_chip(chip_id)
        if found is None:
            return
        lane_no = found[0]
        vbar = self.verticalScrollBar()
        top = self._tops[lane_no]
        visible = self.viewport().height() - self._header_height()
        if top < vbar.value() or self._tops[lane_no + 1] > vbar.value() + visible:
            vbar.setValue(max(0, top - visible // 2))

    def _chip_at(self, pos: QPoint) -> Chip | None:
        lane_no = self._lane_at(pos.y())
        if lane_no is None or pos.x() < self._title_width:
            return None
        column = (pos.x() + self.horizontalScrollBar().value() - self._title_width) // self._column_width
        for chip, rect in self._chip_rects(lane_no, column):
            if rect.contains(pos.x(), pos.y()):
                return chip
        return None

    def _lane_at(self, y: int) -> int | None:
        if self._timeline is None or y < self._header_height():
            return None
        content_y = y - self._header_height() + self.verticalScrollBar().value()
        lane_no = bisect_right(self._tops, content_y) - 1
        return lane_no if 0 <= lane_no < len(self._timeline.lanes) else None

    # --- painting ----------------------------------------------------------------------------
    def focusInEvent(self, event: QFocusEvent) -> None:
        # The words are made on each step only while a screen reader listens (a long
        # fight's 200 lanes cost a few ms); reaching the timeline brings them up to date.
        self.setAccessibleDescription(_spoken(self._timeline))
        super().focusInEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange,
                            QEvent.Type.StyleChange):
            self._styles = {}
            self._images = {}
            self._titles = {}
            self._fonts = {}
            if event.type() != QEvent.Type.PaletteChange:
                self._advance = {}
                self._lane_chips = {}
                self._measure()
        super().changeEvent(event)

    def _font(self, bold: bool = False, italic: bool = False, struck: bool = False) -> QFont:
        key = (bold, italic, struck)
        font = self._fonts.get(key)
        if font is None:
            font = QFont(self.font())
            font.setBold(bold)
            font.setItalic(italic)
            font.setStrikeOut(struck)
            self._fonts[key] = font
        return font

    def _style(self, state: str, compact: bool) -> _ChipStyle:
        """Pen, brush, text colour and font of a chip look, made once per palette."""
        key = (state, compact)
        style = self._styles.get(key)
        if style is not None:
            return style
        pal = self.palette()
        look = LOOKS.get(state, LOOKS["ready"])
        dark = pal.color(QPalette.ColorRole.Base).lightness() < 128
        if look.hue == 0:
            base = QColor(pal.color(QPalette.ColorRole.Mid))
        else:
            base = QColor.fromHsl(look.hue, 170, 110 if dark else 150)
        edge = QColor.fromHsl(look.hue, 170, 170 if dark else 90) if look.hue else pal.color(QPalette.ColorRole.Dark)
        if state == "lost":
            edge = QColor.fromHsl(0, 170, 160 if dark else 110)
        pen = QPen(edge, 2.5 if look.bold_edge else 1.2)
        if look.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        brush = QBrush(base) if look.filled else _NO_BRUSH
        if look.filled:
            text = QColor(255, 255, 255) if dark or look.hue == 210 else QColor(20, 20, 20)
        elif look.dim:
            # A used die reads dimmer than a live one, but stays readable on any lane: on
            # the field's own colour (not on the current column's glow, which in the dark
            # palette left grey struck-out text on dark blue), in the text's colour laid
            # two thirds over it.
            field = pal.color(QPalette.ColorRole.Base)
            brush = QBrush(field)
            faded = QColor(pal.color(QPalette.ColorRole.Text))
            faded.setAlphaF(0.66)
            text = _over(faded, field)
        else:
            text = pal.color(QPalette.ColorRole.Text)
        strong = state in ("ready", "acting", "held")
        style = _ChipStyle(pen=pen, brush=brush,
                           text=QPen(text), font=self._font(bold=strong, struck=look.dim),
                           radius=4.0 if compact else 6.0, cross=look.cross)
        self._styles[key] = style
        return style

    def _elided_title(self, lane: Lane, width: int) -> str:
        key = (lane.title, lane.compact, lane.out, width)
        text = self._titles.get(key)
        if text is None:
            title = lane.title + (" (out)" if lane.out else "")
            metrics = QFontMetrics(self._font(italic=lane.compact))
            text = metrics.elidedText(title, Qt.TextElideMode.ElideRight, width)
            if len(self._titles) > 4096:  # names come and go over a long session
                self._titles.clear()
            self._titles[key] = text
        return text

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        painter.fillRect(event.rect(), pal.color(QPalette.ColorRole.Base))
        tl = self._timeline
        if tl is None or not tl.lanes:
            painter.setPen(pal.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
            painter.drawText(self.viewport().rect(), Qt.AlignmentFlag.AlignCenter,
                             "No fighters yet" if tl is not None else "No fight open")
            return
        header = self._header_height()
        grid = QColor(pal.color(QPalette.ColorRole.Mid))
        grid.setAlpha(90)
        if event.rect().bottom() < header:  # only the header (its caption changed)
            self._paint_header(painter, tl, header, grid)
            return
        # Lanes in view only.
        first = self._lane_at(max(header, event.rect().top())) or 0
        last = self._lane_at(min(event.rect().bottom(), self.viewport().height() - 1))
        last = len(tl.lanes) - 1 if last is None else last
        lanes = range(first, last + 1)
        current = tl.current_column
        if current is not None:
            glow = QColor(pal.color(QPalette.ColorRole.Highlight))
            glow.setAlpha(45)
            painter.fillRect(QRect(self._column_x(current), header, self._column_width,
                                   self.viewport().height()), glow)
        shade = QColor(pal.color(QPalette.ColorRole.AlternateBase))
        shade.setAlpha(120)
        rects = [self._lane_rect(n) for n in lanes]
        top, bottom = rects[0].top(), rects[-1].bottom()
        # The grid as one-pixel rects, not antialiased lines. The column lines are drawn
        # opaque (the grid colour already laid on the base) under the lane shading: a
        # translucent fill is blended pixel row by pixel row, ten times slower.
        solid = _over(grid, pal.color(QPalette.ColorRole.Base))
        for column in range(len(tl.columns)):
            painter.fillRect(QRect(self._column_x(column), top, 1, bottom - top + 1), solid)
        for lane_no, rect in zip(lanes, rects, strict=True):
            if lane_no % 2:
                painter.fillRect(rect, shade)
            painter.fillRect(QRect(rect.left(), rect.bottom(), rect.width(), 1), grid)
        self._paint_chips(painter, tl, lanes, header)
        self._paint_titles(painter, tl, rects, lanes)
        # A repaint of lanes only (a step changed them) leaves the header out: all of it
        # would be clipped away, and its labels cost more than a lane.
        if event.rect().top() < header:
            self._paint_header(painter, tl, header, grid)

    def _paint_chips(self, painter: QPainter, tl: Timeline, lanes: range, header: int) -> None:
        """The chips of the lanes in view, each copied from its cached picture: drawing
        an antialiased rounded rect and its text costs ten times more than the copy."""
        painter.save()
        painter.translate(-self.horizontalScrollBar().value(), header - self.verticalScrollBar().value())
        ratio = self.viewport().devicePixelRatioF()
        for lane_no in lanes:
            compact = tl.lanes[lane_no].compact
            for chip, rect in self._lane_layout(lane_no):
                if self._countdown is not None and chip.id == self._countdown[0]:
                    chip = chip._replace(label=self._countdown[1],
                                         state="lost" if self._countdown[2] else chip.state)
                image, dx, dy = self._chip_image(chip, compact, int(rect.width()),
                                                 int(rect.height()), ratio)
                painter.drawPixmap(int(rect.left()) - dx, int(rect.top()) - dy, image)
        painter.restore()
        self._paint_drop(painter, tl, header)

    def _paint_drop(self, painter: QPainter, tl: Timeline, header: int) -> None:
        """Where a dragged lane would go: a bar between lanes in the target column."""
        if self._drag is None or self._drop is None:
            return
        before, column = self._drop
        y = (self._tops[before] if before < len(self._tops) else self._tops[-1]) + header \
            - self.verticalScrollBar().value()
        pal = self.palette()
        pen = QPen(pal.color(QPalette.ColorRole.Highlight), 3)
        painter.setPen(pen)
        x = self._column_x(column)
        painter.drawLine(0, y, x + self._column_width, y)
        glow = QColor(pal.color(QPalette.ColorRole.Highlight))
        glow.setAlpha(35)
        painter.fillRect(QRect(x, header, self._column_width, self.viewport().height()), glow)

    def _chip_image(self, chip: Chip, compact: bool, width: int, height: int,
                    ratio: float) -> tuple[QPixmap, int, int]:
        """A chip's picture (its look, label and size), with the offset of the chip's
        corner inside it: a margin for the outline, and room for a label wider than the
        chip to spill over as it would if drawn in place."""
        key = (chip.state, compact, chip.label, width, height, ratio)
        found = self._images.get(key)
        if found is not None:
            return found
        style = self._style(chip.state, compact)
        spill = 0
        if width >= 12:
            text_width = QFontMetrics(style.font).horizontalAdvance(chip.label)
            spill = max(0, (text_width - width + 1) // 2 + 1)
        dx, dy = 2 + spill, 2
        image = QPixmap(round((width + 2 * dx) * ratio), round((height + 2 * dy) * ratio))
        image.setDevicePixelRatio(ratio)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(dx, dy, width, height)
        painter.setPen(style.pen)
        painter.setBrush(style.brush)
        painter.drawRoundedRect(rect, style.radius, style.radius)
        if style.cross:
            painter.drawLine(rect.topLeft() + QPointF(3, 3), rect.bottomRight() - QPointF(3, 3))
        painter.setBrush(_NO_BRUSH)
        if width >= 12:
            painter.setPen(style.text)
            painter.setFont(style.font)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, chip.label)
        painter.end()
        if len(self._images) > 512:  # labels and widths come and go over a session
            self._images.clear()
        self._images[key] = (image, dx, dy)
        return image, dx, dy

    def _paint_titles(self, painter: QPainter, tl: Timeline, rects: list[QRect], lanes: range) -> None:
        """The lane titles stay put when the columns scroll sideways."""
        pal = self.palette()
        column = QRect(0, rects[0].top(), self._title_width, rects[-1].bottom() - rects[0].top() + 1)
        painter.fillRect(column, pal.color(QPalette.ColorRole.Window))
        for lane_no, rect in zip(lanes, rects, strict=True):
            lane = tl.lanes[lane_no]
            painter.setFont(self._font(italic=lane.compact))
            group = QPalette.ColorGroup.Disabled if lane.out else QPalette.ColorGroup.Active
            painter.setPen(pal.color(group, QPalette.ColorRole.WindowText))
            text_rect = QRect(8, rect.top(), self._title_width - 14, rect.height())
            painter.drawText(text_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                             self._elided_title(lane, text_rect.width()))
        painter.setFont(self._font())

    def _paint_header(self, painter: QPainter, tl: Timeline, header: int, grid: QColor) -> None:
        pal = self.palette()
        rect = QRect(0, 0, self.viewport().width(), header)
        painter.fillRect(rect, pal.color(QPalette.ColorRole.Button))
        painter.setPen(QPen(grid, 1))
        painter.drawLine(rect.bottomLeft(), rect.bottomRight())
        bold = self._font(bold=True)
        plain = self._font()
        for column, label in enumerate(tl.columns):
            cell = QRect(self._column_x(column), 0, self._column_width, header)
            if column == tl.current_column:
                painter.fillRect(cell, pal.color(QPalette.ColorRole.Highlight))
                painter.setPen(pal.color(QPalette.ColorRole.HighlightedText))
                painter.setFont(bold)
            else:
                painter.setPen(pal.color(QPalette.ColorRole.ButtonText))
                painter.setFont(plain)
            # A long section name ("Before the enemies") is cut at its end, never its middle.
            shown = painter.fontMetrics().elidedText(label, Qt.TextElideMode.ElideRight,
                                                     cell.width() - 6)
            painter.drawText(cell, Qt.AlignmentFlag.AlignCenter, shown)
        painter.setFont(plain)
        corner = QRect(0, 0, self._title_width, header)
        painter.fillRect(corner, pal.color(QPalette.ColorRole.Button))
        painter.setPen(pal.color(QPalette.ColorRole.ButtonText))
        # The ruleset's caption when it fits; the full text is the corner's tooltip.
        caption = tl.caption or "Fighter"
        if self._text_width(caption) > corner.width() - 14:
            caption = "Fighter"
        painter.drawText(corner.adjusted(8, 0, -6, 0),
                         Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, caption)

    # --- interaction -------------------------------------------------------------------------
    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            chip = self._chip_at(event.pos())
            if chip is not None:
                QToolTip.showText(event.globalPos(), plain_tip(self._chip_tip(chip)), self.viewport())
                return True
            if (self._timeline is not None and event.pos().y() < self._header_height()
                    and event.pos().x() < self._title_width and self._timeline.caption):
                QToolTip.showText(event.globalPos(), plain_tip(self._timeline.caption), self.viewport())
                return True
            if (self._timeline is not None and event.pos().y() < self._header_height()
                    and event.pos().x() >= self._title_width and self._column_width > 0):
                column = (event.pos().x() + self.horizontalScrollBar().value()
                          - self._title_width) // self._column_width
                if 0 <= column < len(self._timeline.columns):
                    QToolTip.showText(event.globalPos(), self._timeline.columns[column],
                                      self.viewport())
                    return True
            lane_no = self._lane_at(event.pos().y())
            if lane_no is not None and self._timeline is not None and event.pos().x() < self._title_width:
                QToolTip.showText(event.globalPos(), plain_tip(self._timeline.lanes[lane_no].title),
                                 self.viewport())
                return True
            QToolTip.hideText()
            event.ignore()
            return True
        return super().viewportEvent(event)

    def _chip_tip(self, chip: Chip) -> str:
        if chip.id in self._merged:
            return chip.tooltip
        word = STATE_WORDS.get(chip.state, chip.state)
        tip = chip.tooltip or chip.label
        hint = "\nClick to act or interrupt with it." if chip.clickable else ""
        return f"{tip} ({word}){hint}"

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._drag is not None:
            _, start = self._drag
            if self._drop is not None or (pos - start).manhattanLength() >= 6:
                self._drop = self._drop_place(pos)
                self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
                self.viewport().update()
                return
        chip = self._chip_at(pos)
        movable = bool(self._timeline and self._timeline.movable and self._lane_at(pos.y()) is not None)
        cursor = (Qt.CursorShape.PointingHandCursor if chip and chip.clickable
                  else Qt.CursorShape.OpenHandCursor if movable else Qt.CursorShape.ArrowCursor)
        self.viewport().setCursor(cursor)
        super().mouseMoveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            pos = event.position().toPoint()
            chip = self._chip_at(pos)
            lane_no = self._lane_at(pos.y())
            if self._timeline is not None and self._timeline.movable and lane_no is not None:
                # A click that does not move stays a click (released in place).
                self._drag = (lane_no, pos)
                self._drop = None
            elif chip is not None and chip.clickable:
                self._click(chip, event.globalPosition().toPoint())
        event.accept()  # clicks land on the timeline itself, never on what is behind it

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        drag, drop = self._drag, self._drop
        self._drag = self._drop = None
        if drag is not None:
            self.viewport().update()
            if drop is None:  # no move: an ordinary click
                chip = self._chip_at(event.position().toPoint())
                if chip is not None and chip.clickable:
                    self._click(chip, event.globalPosition().toPoint())
            else:
                self.drop_lane(drag[0], *drop)
        event.accept()

    def _click(self, chip: Chip, where: QPoint) -> None:
        """A click on a chip that can act: on a "×N" chip with more than one that can,
        a menu asks which (each named by its tooltip's first line)."""
        members = [c for c in self.merged_chips(chip.id) if c.clickable] or [chip]
        if len(members) == 1:
            self.chipClicked.emit(members[0].fighter_id, members[0].id)
            return
        from PySide6.QtWidgets import QMenu

        menu = QMenu(self)
        menu.setObjectName("mergedChipMenu")
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        for member in members:
            text = (member.tooltip or member.label).split("\n")[0].split(". Click")[0]
            act = menu.addAction(text.replace("&", "&&"))
            act.triggered.connect(
                lambda _=False, m=member: self.chipClicked.emit(m.fighter_id, m.id))
        menu.popup(where)

    def _drop_place(self, pos: QPoint) -> tuple[int, int]:
        """(insert before lane number, column) for the pointer at ``pos``."""
        tl = self._timeline
        assert tl is not None
        header = self._header_height()
        content_y = max(0, pos.y() - header + self.verticalScrollBar().value())
        lane_no = bisect_right(self._tops, content_y) - 1
        lanes = len(tl.lanes)
        if lane_no >= lanes:
            before = lanes
        else:
            middle = (self._tops[lane_no] + self._tops[lane_no + 1]) / 2
            before = lane_no + (1 if content_y > middle else 0)
        if pos.x() < self._title_width:
            dragged = tl.lanes[self._drag[0]] if self._drag else None
            column = dragged.chips[0].column if dragged and dragged.chips else 0
        else:
            column = (pos.x() + self.horizontalScrollBar().value() - self._title_width) \
                // max(self._column_width, 1)
        return before, max(0, min(int(column), len(tl.columns) - 1))

    def drop_lane(self, lane_no: int, before: int, column: int) -> None:
        """Ask to move lane ``lane_no`` to just before lane ``before`` in ``column``:
        ``laneMoved(lane id, column id, index among that column's other lanes)``."""
        tl = self._timeline
        if tl is None or not tl.movable or not 0 <= lane_no < len(tl.lanes):
            return
        column_id = tl.column_ids[column] if column < len(tl.column_ids) else str(column)
        index = sum(1 for n, lane in enumerate(tl.lanes[:before])
                    if n != lane_no and any(ch.column == column for ch in lane.chips))
        self.laneMoved.emit(tl.lanes[lane_no].id, column_id, index)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        vbar = self.verticalScrollBar()
        if event.key() == Qt.Key.Key_Home:
            vbar.setValue(0)
        elif event.key() == Qt.Key.Key_End:
            vbar.setValue(vbar.maximum())
        else:
            super().keyPressEvent(event)
