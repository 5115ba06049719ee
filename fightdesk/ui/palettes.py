"""A dark palette like a dark desktop theme gives: the tests and the screenshot script use
it to check that every widget reads on dark as well as on the default light palette."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

_DARK = {
    QPalette.ColorRole.Window: "#2b2b2e", QPalette.ColorRole.WindowText: "#e8e8e8",
    QPalette.ColorRole.Base: "#1e1e20", QPalette.ColorRole.AlternateBase: "#2a2a2d",
    QPalette.ColorRole.Text: "#e8e8e8", QPalette.ColorRole.Button: "#353538",
    QPalette.ColorRole.ButtonText: "#e8e8e8", QPalette.ColorRole.Highlight: "#3d7fd1",
    QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#353538",
    QPalette.ColorRole.ToolTipText: "#e8e8e8", QPalette.ColorRole.Mid: "#5a5a5e",
    QPalette.ColorRole.Dark: "#19191a", QPalette.ColorRole.Light: "#505054",
    QPalette.ColorRole.PlaceholderText: "#9a9a9a",
}


def dark_palette() -> QPalette:
    pal = QPalette()
    for role, color in _DARK.items():
        pal.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
                 QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return pal
