"""Emptying a layout without leaking its items.

PySide's ``QLayout.takeAt`` hands the taken item to nobody (neither Python nor Qt deletes
it), so a layout emptied that way leaked one item per widget each time: the cards'
reflow did so at every step of a fight (the soak benchmark, benchmarks/soak.py, found it).
``removeWidget`` deletes the item.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLayout, QWidget


def take_widgets(layout: QLayout) -> list[QWidget]:
    """Take every widget out of ``layout`` (their items deleted) and return them."""
    widgets: list[QWidget] = []
    for index in range(layout.count()):
        item = layout.itemAt(index)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widgets.append(widget)
    for widget in widgets:
        layout.removeWidget(widget)
    return widgets
