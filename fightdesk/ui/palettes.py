"""The window's themes (View > Theme: System, Light, Dark). The dark palette is like a
dark desktop theme's; the tests and the screenshot script also use it to check that every
widget reads on dark as well as on light."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

THEMES: tuple[tuple[str, str], ...] = (("system", "&System"), ("light", "&Light"),
                                      ("dark", "&Dark"))

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


_LIGHT = {
    QPalette.ColorRole.Window: "#efefef", QPalette.ColorRole.WindowText: "#1b1b1b",
    QPalette.ColorRole.Base: "#ffffff", QPalette.ColorRole.AlternateBase: "#f5f5f5",
    QPalette.ColorRole.Text: "#1b1b1b", QPalette.ColorRole.Button: "#e6e6e6",
    QPalette.ColorRole.ButtonText: "#1b1b1b", QPalette.ColorRole.Highlight: "#3071c2",
    QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#ffffdc",
    QPalette.ColorRole.ToolTipText: "#1b1b1b", QPalette.ColorRole.Mid: "#b8b8b8",
    QPalette.ColorRole.Dark: "#a0a0a0", QPalette.ColorRole.Light: "#ffffff",
    QPalette.ColorRole.PlaceholderText: "#767676",
}


def light_palette() -> QPalette:
    pal = QPalette()
    for role, color in _LIGHT.items():
        pal.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
                 QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor("#8a8a8a"))
    return pal


_system: list[QPalette] = []  # the desktop's palette, kept the first time a theme is set


def apply_theme(theme: str) -> None:
    """Set the application's palette: every window follows at once (Qt hands a changed
    application palette to every widget that has none of its own). "system" gives back
    the desktop's palette."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if theme == "system":
        if _system:
            app.setPalette(_system[0])
        return
    if not _system:
        _system.append(QPalette(app.palette()))
    app.setPalette(dark_palette() if theme == "dark" else light_palette())
