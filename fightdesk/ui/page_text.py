"""Text on a page: the summary's fonts, measured with a page's own metrics, and lines of
styled runs wrapped to a width (``summary_pages.py`` lays the pages out with them).

Every width asked for is kept per font: a fight's summary says the same names and
words thousands of times, and Qt's measuring is the costly part of wrapping.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtGui import QFont, QFontMetricsF, QPagedPaintDevice

from ..report.blocks import Style

BODY_FAMILIES = ["DejaVu Sans", "Helvetica", "Arial"]
DICE_FAMILIES = ["DejaVu Sans Mono", "Courier New", "monospace"]
# Fonts by index: a run's style is its font's index, the three heading levels follow.
HEADING_FONTS = {level: len(Style) + level - 1 for level in (1, 2, 3)}


def _font(families: list[str], points: float, bold: bool = False, italic: bool = False,
          underline: bool = False) -> QFont:
    font = QFont()
    font.setFamilies(families)
    font.setPointSizeF(points)
    font.setBold(bold)
    font.setItalic(italic)
    font.setUnderline(underline)
    return font


def _fonts() -> list[QFont]:
    """The HTML's fonts (its CSS), by index."""
    mono = _font(DICE_FAMILIES, 8.5)
    mono.setStyleHint(QFont.StyleHint.Monospace)
    styles = {
        Style.PLAIN: _font(BODY_FAMILIES, 9.5),
        Style.BOLD: _font(BODY_FAMILIES, 9.5, bold=True),
        Style.ITALIC: _font(BODY_FAMILIES, 9.5, italic=True),
        Style.DICE: mono,
        Style.OUT: _font(BODY_FAMILIES, 9.5, bold=True, underline=True),
    }
    headings = {1: 16.0, 2: 13.0, 3: 10.5}
    return ([styles[Style(i)] for i in range(len(Style))]
            + [_font(BODY_FAMILIES, headings[level], bold=True) for level in (1, 2, 3)])


# Runs of text in fonts (a block's runs in their styles, or a heading's font).
Runs = Sequence[tuple[str, int]]
# A piece of a line: where it starts (from the line's start), its text, its font.
Piece = tuple[float, str, int]


@dataclass(slots=True)
class TextLine:
    """One line as it stands on the page: its height, baseline and width, its pieces."""

    height: float
    ascent: float
    width: float
    pieces: list[Piece]


class Measure:
    """The device's fonts and their metrics; every width asked for is kept (a fight's
    summary says the same names and words thousands of times)."""

    def __init__(self, device: QPagedPaintDevice) -> None:
        self.fonts = _fonts()
        metrics = [QFontMetricsF(font, device) for font in self.fonts]
        self._advance = [m.horizontalAdvance for m in metrics]
        self.ascent = [m.ascent() for m in metrics]
        self.height = [m.height() for m in metrics]
        self._widths: list[dict[str, float]] = [{} for _ in self.fonts]

    def width(self, font: int, text: str) -> float:
        known = self._widths[font]
        w = known.get(text)
        if w is None:
            w = known[text] = self._advance[font](text)
        return w

    def natural(self, line: Runs) -> float:
        """The width of a line written out without wrapping."""
        total = 0.0
        for text, font in line:
            known = self._widths[font]
            w = known.get(text)
            if w is None:
                w = known[text] = self._advance[font](text)
            total += w
        return total

    def longest_word(self, line: Runs) -> float:
        return max((self.width(font, word) for text, font in line for word in text.split(" ")),
                   default=0.0)

    def wrap(self, line: Runs, width: float) -> list[TextLine]:
        """``line`` broken at spaces into lines no wider than ``width``; a word wider than
        that alone is broken between letters (every letter stays on the page)."""
        if not line:
            return []
        natural = self.natural(line)
        if natural <= width:
            pieces: list[Piece] = []
            x = 0.0
            for text, font in line:
                pieces.append((x, text, font))
                x += self.width(font, text)
            fonts = {font for _, font in line}
            return [TextLine(max(self.height[f] for f in fonts),
                             max(self.ascent[f] for f in fonts), natural, pieces)]
        if len(line) == 1:
            text, font = line[0]
            lines = self._wrap_one_font(text, font, width)
        else:
            words = _words(line)
            lines = None if words is None else self._wrap_words(words, width)
        return _Wrapper(self, width).lines(line) if lines is None else lines

    def _wrap_one_font(self, text: str, font: int, width: float) -> list[TextLine] | None:
        """The common case, quickly: text in one font whose every word fits (None if one
        does not)."""
        known = self._widths[font]
        advance = self._advance[font]
        space = self.width(font, " ")
        words = text.split(" ")
        found: list[tuple[str, float]] = []
        start, x = 0, 0.0
        for i, word in enumerate(words):
            w = known.get(word)
            if w is None:
                w = known[word] = advance(word)
            if i > start:
                if x + space + w <= width:
                    x += space + w
                    continue
                found.append((" ".join(words[start:i]), x))
                start = i
            if w > width:
                return None
            x = w
        found.append((" ".join(words[start:]), x))
        height, ascent = self.height[font], self.ascent[font]
        return [TextLine(height, ascent, w, [(0.0, part, font)]) for part, w in found]

    def _wrap_words(self, words: list[tuple[str, int]], width: float) -> list[TextLine] | None:
        """Words in several fonts, quickly, if every word fits (None if one does not)."""
        widths, advance = self._widths, self._advance
        filled: list[tuple[list[tuple[str, int, float]], float]] = []
        line: list[tuple[str, int, float]] = []
        x = 0.0
        for word, font in words:
            known = widths[font]
            w = known.get(word)
            if w is None:
                w = known[word] = advance[font](word)
            if line:
                space = self.width(font, " ")
                if x + space + w <= width:
                    line.append((word, font, w))
                    x += space + w
                    continue
                filled.append((line, x))
            if w > width:
                return None
            line = [(word, font, w)]
            x = w
        filled.append((line, x))
        out = []
        for line, total in filled:
            pieces: list[Piece] = []
            start, at, x = 0, 0.0, 0.0
            for i, (_, font, w) in enumerate(line):
                if i and font != line[i - 1][1]:
                    pieces.append((at, " ".join(word for word, _, _ in line[start:i]),
                                   line[start][1]))
                    start, at = i, x
                x += w + self.width(font, " ")
            pieces.append((at, " ".join(word for word, _, _ in line[start:]), line[start][1]))
            fonts = {font for _, font, _ in line}
            out.append(TextLine(max(self.height[f] for f in fonts),
                                max(self.ascent[f] for f in fonts), total, pieces))
        return out


def _words(line: Runs) -> list[tuple[str, int]] | None:
    """A line's words with their fonts, if its font changes only at spaces (None if a
    word changes font inside)."""
    out: list[tuple[str, int]] = []
    for k, (text, font) in enumerate(line):
        parts = text.split(" ")
        if k:
            before = line[k - 1][0]
            if before.endswith(" "):
                out.pop()  # the empty word after the space that ends the run before
            elif text.startswith(" "):
                parts = parts[1:]
            else:
                return None
        out += [(part, font) for part in parts]
    return out


@dataclass(slots=True)
class _Growing:
    """A piece of the line being filled: where it starts, its text so far, its font."""

    x: float
    text: str
    font: int


@dataclass(slots=True)
class _Wrapper:
    """Greedy line filling for one line of text too wide for its column, whatever it
    holds: words that change font inside, words wider than the column."""

    measure: Measure
    width: float
    done: list[TextLine] = field(default_factory=list)
    pieces: list[_Growing] = field(default_factory=list)
    x: float = 0.0

    def lines(self, line: Runs) -> list[TextLine]:
        # Words (a bold word and the plain comma after it are one), each with the spaces
        # before it.
        words: list[tuple[list[int], list[tuple[str, int]]]] = []
        spaces: list[int] = []
        parts: list[tuple[str, int]] = []
        for text, style in line:
            for k, part in enumerate(text.split(" ")):
                if k:
                    if parts:
                        words.append((spaces, parts))
                        spaces, parts = [], []
                    spaces.append(style)
                if part:
                    parts.append((part, style))
        if parts:
            words.append((spaces, parts))
        width = self.measure.width
        for before, word in words:
            word_w = sum(width(font, text) for text, font in word)
            space_w = sum(width(font, " ") for font in before)
            if self.pieces and self.x + space_w + word_w > self.width:
                self._end_line()
            if self.pieces:
                for font in before:
                    self._add(" ", font, width(font, " "))
            if word_w <= self.width - self.x:
                for text, font in word:
                    self._add(text, font, width(font, text))
            else:
                self._break_word(word)
        if self.pieces:
            self._end_line()
        return self.done

    def _add(self, text: str, font: int, w: float) -> None:
        if self.pieces and self.pieces[-1].font == font:
            self.pieces[-1].text += text
        else:
            self.pieces.append(_Growing(self.x, text, font))
        self.x += w

    def _break_word(self, word: list[tuple[str, int]]) -> None:
        width = self.measure.width
        for text, font in word:
            for letter in text:
                w = width(font, letter)
                if self.pieces and self.x + w > self.width:
                    self._end_line()
                self._add(letter, font, w)

    def _end_line(self) -> None:
        pieces: list[Piece] = [(p.x, p.text, p.font) for p in self.pieces]
        fonts = {p.font for p in self.pieces}
        self.done.append(TextLine(max(self.measure.height[f] for f in fonts),
                                  max(self.measure.ascent[f] for f in fonts), self.x, pieces))
        self.pieces = []
        self.x = 0.0
