"""The fight chart as a PNG: each fighter's health and main resource across the rounds.

Qt's text document (print, PDF) shows no inline SVG, so the chart is painted with
QPainter on a QImage. It must read in black and white: every fighter gets its own line
style and marker shape (never colour alone), and the legend repeats both.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

from ..report.render import ChartImage
from ..report.summary import FightChart

# Size the chart is shown at, in CSS pixels; the image has SCALE times as many pixels so
# that it prints sharply.
CHART_WIDTH = 620
CHART_HEIGHT = 270
SCALE = 3

_STYLES = (
    Qt.PenStyle.SolidLine,
    Qt.PenStyle.DashLine,
    Qt.PenStyle.DotLine,
    Qt.PenStyle.DashDotLine,
    Qt.PenStyle.DashDotDotLine,
)
_MARKERS = ("circle", "square", "triangle", "diamond", "cross", "ex")
_INKS = ("#000000", "#555555")


def chart_height(chart: FightChart, width: int = CHART_WIDTH) -> int:
    """Taller when the legend needs more than two rows (many fighters)."""
    per_row = max(1, width // 150)
    rows = -(-len(chart.series) // per_row)
    return CHART_HEIGHT + max(0, rows - 2) * 16


def render_chart(chart: FightChart, width: int = CHART_WIDTH, height: int | None = None,
                 scale: int = SCALE) -> QImage:
    """Paint the chart; the image is ``width * scale`` by ``height * scale`` pixels."""
    height = height or chart_height(chart, width)
    image = QImage(width * scale, height * scale, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.scale(scale, scale)
        _paint(painter, chart, width, height)
    finally:
        painter.end()
    return image


def paint_chart(painter: QPainter, chart: FightChart, width: int, height: int) -> None:
    """Paint the chart in a ``width`` by ``height`` box at the painter's origin, in its
    units: the PDF and paper pages draw it as lines and text, not as an image."""
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        _paint(painter, chart, width, height)
    finally:
        painter.restore()


def png_bytes(image: QImage) -> bytes:
    """The image as PNG; a chart in greys only (as it is painted) as an 8-bit grey PNG,
    the same pixels in a quarter of the data (half the file, twice as fast to write)."""
    if image.allGray():
        image = image.convertToFormat(QImage.Format.Format_Grayscale8)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6 wants the format as str at run time, whatever its stubs say.
    image.save(buffer, "PNG")  # type: ignore[call-overload]
    buffer.close()
    return bytes(data.data())


def chart_data_url(chart: FightChart) -> ChartImage:
    """The chart inside the HTML itself, so an exported page is one self-contained file."""
    image = render_chart(chart)
    encoded = base64.b64encode(png_bytes(image)).decode("ascii")
    return ChartImage(f"data:image/png;base64,{encoded}", CHART_WIDTH, image.height() // SCALE)


def save_chart(chart: FightChart, path: Path) -> ChartImage:
    """Write the chart PNG to ``path``; the returned image names it relative to its folder."""
    image = render_chart(chart)
    path.write_bytes(png_bytes(image))
    return ChartImage(path.name, CHART_WIDTH, image.height() // SCALE)


# --- painting -------------------------------------------------------------------------


def _pen(index: int, width: float = 1.6) -> QPen:
    pen = QPen(QColor(_INKS[(index // len(_STYLES)) % len(_INKS)]))
    pen.setStyle(_STYLES[index % len(_STYLES)])
    pen.setWidthF(width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    return pen


def _marker(painter: QPainter, index: int, at: QPointF, size: float = 3.4) -> None:
    shape = _MARKERS[index % len(_MARKERS)]
    pen = QPen(QColor(_INKS[(index // len(_STYLES)) % len(_INKS)]))
    pen.setWidthF(1.3)
    painter.setPen(pen)
    painter.setBrush(QColor("white") if index % 2 else pen.color())
    x, y, s = at.x(), at.y(), size
    if shape == "circle":
        painter.drawEllipse(at, s, s)
    elif shape == "square":
        painter.drawRect(QRectF(x - s, y - s, 2 * s, 2 * s))
    elif shape in ("triangle", "diamond"):
        path = QPainterPath()
        points = (
            [(x, y - s * 1.2), (x + s * 1.1, y + s), (x - s * 1.1, y + s)]
            if shape == "triangle"
            else [(x, y - s * 1.3), (x + s * 1.3, y), (x, y + s * 1.3), (x - s * 1.3, y)]
        )
        path.moveTo(*points[0])
        for p in points[1:]:
            path.lineTo(*p)
        path.closeSubpath()
        painter.drawPath(path)
    elif shape == "cross":
        painter.drawLine(QPointF(x - s, y), QPointF(x + s, y))
        painter.drawLine(QPointF(x, y - s), QPointF(x, y + s))
    else:
        painter.drawLine(QPointF(x - s, y - s), QPointF(x + s, y + s))
        painter.drawLine(QPointF(x - s, y + s), QPointF(x + s, y - s))


def _ticks(top: int) -> list[int]:
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        step = candidate
        if top / candidate <= 5:
            break
    ceiling = -(-top // step) * step
    return list(range(0, ceiling + 1, step))


def _axis_width(ticks: Sequence[int], metrics: QFontMetricsF) -> float:
    return metrics.horizontalAdvance(str(ticks[-1])) + 6


def _plot_rect(area: QRectF, axis_w: float, metrics: QFontMetricsF) -> QRectF:
    return QRectF(area.left() + axis_w, area.top() + metrics.height() + 6,
                  area.width() - axis_w - 8, area.height() - 2 * metrics.height() - 12)


def _x_of(plot: QRectF, count: int, i: int) -> float:
    if count <= 1:
        return plot.center().x()
    return plot.left() + 8 + i * (plot.width() - 16) / (count - 1)


# Every label, or every 2nd, 5th, 10th... round: the first step whose labels have room.
_LABEL_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000)


def round_labels(labels: Sequence[str], xs: Sequence[float], y: float,
                 metrics: QFontMetricsF) -> list[tuple[QRectF, str]]:
    """The labels under the axis and where each goes (centred on its point), thinned so
    that none overlaps the next: every round while they fit, else the first point and
    every 2nd, 5th, 10th... round (R5, R10, R15 rather than every 5th point)."""
    if not labels:
        return []
    gap = metrics.horizontalAdvance("  ")
    # The first point is always labelled; the step is for the labels after it.
    widest = max(metrics.horizontalAdvance(label) for label in labels[1:] or labels)
    spacing = abs(xs[1] - xs[0]) if len(xs) > 1 else widest + gap
    step = next((s for s in _LABEL_STEPS if s * spacing >= widest + gap), _LABEL_STEPS[-1])
    kept: list[tuple[QRectF, str]] = []
    for i, (label, x) in enumerate(zip(labels, xs, strict=True)):
        if step > 1 and i > 0:
            number = label[1:] if label[:1] == "R" else ""
            if not number.isdigit() or int(number) % step:
                continue
        width = metrics.horizontalAdvance(label)
        rect = QRectF(x - width / 2, y, width, metrics.height())
        # Rounds left out of a chosen-rounds summary can still crowd two labels.
        if kept and rect.left() < kept[-1][0].right() + gap:
            continue
        kept.append((rect, label))
    return kept


def label_rects(chart: FightChart, width: int = CHART_WIDTH,
                height: int | None = None) -> list[list[tuple[QRectF, str]]]:
    """Where each panel's round labels are painted (for checking that none overlap)."""
    height = height or chart_height(chart, width)
    font = _font()
    metrics = QFontMetricsF(font)
    out = []
    for area, top in zip(_areas(chart, width, height),
                         (chart.health_top, chart.resource_top), strict=True):
        ticks = _ticks(top)
        plot = _plot_rect(area, _axis_width(ticks, metrics), metrics)
        xs = [_x_of(plot, len(chart.labels), i) for i in range(len(chart.labels))]
        out.append(round_labels(chart.labels, xs, plot.bottom() + 4, metrics))
    return out


def _font() -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(11)
    return font


def _legend_height(chart: FightChart, width: int) -> int:
    per_row = max(1, width // 150)
    rows = max(1, -(-len(chart.series) // per_row))
    return rows * 16 + 6


def _areas(chart: FightChart, width: int, height: int) -> tuple[QRectF, QRectF]:
    """The health panel and the resource panel."""
    half = (width - 24) / 2
    body = QRectF(8, 8, width - 16, height - 16 - _legend_height(chart, width))
    return (QRectF(body.left(), body.top(), half, body.height()),
            QRectF(body.left() + half + 8, body.top(), half, body.height()))


def _panel(painter: QPainter, area: QRectF, title: str, labels: Sequence[str],
           lines: Sequence[Sequence[int | None]], top: int, font: QFont) -> None:
    metrics = QFontMetricsF(font)
    painter.setFont(font)
    painter.setPen(QColor("black"))
    bold = QFont(font)
    bold.setBold(True)
    painter.setFont(bold)
    painter.drawText(QRectF(area.left(), area.top(), area.width(), metrics.height()),
                     Qt.AlignmentFlag.AlignLeft, title)
    painter.setFont(font)
    ticks = _ticks(top)
    top = ticks[-1]
    axis_w = _axis_width(ticks, metrics)
    plot = _plot_rect(area, axis_w, metrics)

    def y_of(v: float) -> float:
        # Below zero (ashes lets health go on falling) is drawn on the floor: the line
        # stays in the plot, and the health table under the chart gives the number.
        return plot.bottom() - max(v, 0) / max(top, 1) * plot.height()

    def x_of(i: int) -> float:
        return _x_of(plot, len(labels), i)

    grid = QPen(QColor("#b0b0b0"))
    grid.setWidthF(0.6)
    grid.setStyle(Qt.PenStyle.DotLine)
    for t in ticks:
        y = y_of(t)
        painter.setPen(grid)
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        painter.setPen(QColor("black"))
        painter.drawText(QRectF(area.left(), y - metrics.height() / 2, axis_w - 4, metrics.height()),
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(t))
    axis = QPen(QColor("black"))
    axis.setWidthF(1.0)
    painter.setPen(axis)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawLine(plot.bottomLeft(), plot.bottomRight())
    painter.drawLine(plot.bottomLeft(), plot.topLeft())
    for i in range(len(labels)):
        x = x_of(i)
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 3))
    for rect, label in round_labels(labels, [x_of(i) for i in range(len(labels))],
                                    plot.bottom() + 4, metrics):
        box = QRectF(rect.center().x() - 40, rect.top(), 80, rect.height())
        painter.drawText(box, Qt.AlignmentFlag.AlignHCenter, label)
    for index, values in enumerate(lines):
        points = [(x_of(i), y_of(v)) if v is not None else None for i, v in enumerate(values)]
        painter.setPen(_pen(index))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        run: list[QPointF] = []
        for p in [*points, None]:
            if p is None:
                if len(run) > 1:
                    painter.drawPolyline(QPolygonF(run))
                run = []
            else:
                run.append(QPointF(*p))
        for p in points:
            if p is not None:
                _marker(painter, index, QPointF(*p))


def _paint(painter: QPainter, chart: FightChart, width: int, height: int) -> None:
    font = _font()
    metrics = QFontMetricsF(font)
    per_row = max(1, width // 150)
    left, right = _areas(chart, width, height)
    _panel(painter, left, "Health", chart.labels, [s.health for s in chart.series],
           chart.health_top, font)
    _panel(painter, right, chart.resource_label, chart.labels,
           [s.resource for s in chart.series], chart.resource_top, font)
    # Legend: line sample, marker, name.
    legend_top = height - 8 - _legend_height(chart, width)
    cell_w = (width - 16) / per_row
    for index, s in enumerate(chart.series):
        row, col = divmod(index, per_row)
        x = 8 + col * cell_w
        y = legend_top + 8 + row * 16 + 8
        painter.setPen(_pen(index))
        painter.drawLine(QPointF(x, y), QPointF(x + 28, y))
        _marker(painter, index, QPointF(x + 14, y))
        painter.setPen(QColor("black"))
        name = metrics.elidedText(s.name, Qt.TextElideMode.ElideRight, cell_w - 40)
        painter.drawText(QRectF(x + 34, y - metrics.height() / 2, cell_w - 36, metrics.height()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, name)
