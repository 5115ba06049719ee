"""The shortcuts the views take for speed give what the plain way gives: the log model's
multiData answers like data(), and the timeline's cached chips, fonts and titles follow a
palette or font change (the picture equals a freshly made view's)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QModelRoleData, QModelRoleDataSpan, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from fightdesk.engine import commands as c
from fightdesk.engine.ruleset import Chip, Lane, Timeline
from fightdesk.ui.models import HasRollsRole, ItemRole, KeyRole, LogModel
from fightdesk.ui.palettes import dark_palette
from fightdesk.ui.timeline import TimelineView

from .fake_ruleset import PracticeEngine

# What QStyledItemDelegate asks for, plus the model's own roles.
ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole,
         Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ForegroundRole,
         Qt.ItemDataRole.CheckStateRole, Qt.ItemDataRole.DecorationRole,
         Qt.ItemDataRole.BackgroundRole, ItemRole, KeyRole, HasRollsRole)


def test_log_multi_data_answers_every_role_like_data(engine: PracticeEngine) -> None:
    model = LogModel()
    model.set_engine(engine)
    engine.subscribe(model.refresh)
    engine.apply(c.StartRound())
    engine.apply(c.FreeRoll(notation="3d10", dice=[[2, 5, 9]]))
    indexes = []
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            top = model.index(row, column)
            indexes.append(top)
            indexes += [model.index(r, column, model.index(row, 0))
                        for r in range(model.rowCount(model.index(row, 0)))]
    assert len(indexes) > 4
    answered = 0
    for index in indexes:
        for role in ROLES:
            slot = QModelRoleData(int(role))
            model.multiData(index, QModelRoleDataSpan(slot))
            expected = model.data(index, int(role))
            assert slot.data() == expected, (index.row(), index.column(), role)
            answered += expected is not None
    assert answered > 0
    slot = QModelRoleData(int(Qt.ItemDataRole.DisplayRole))
    model.multiData(QModelIndex(), QModelRoleDataSpan(slot))
    assert slot.data() is None


def _timeline() -> Timeline:
    return Timeline(
        columns=tuple(str(p) for p in range(10, 0, -1)), current_column=2, caption="Round 1",
        lanes=(
            Lane(id="a", title="Alpha", fighter_ids=("a",),
                 chips=(Chip("a:1", "a", 2, "8", "ready", clickable=True),
                        Chip("a:2", "a", 5, "5", "spent"), Chip("a:3", "a", 5, "5", "lost"))),
            Lane(id="g", title="A gang with a long name that is elided", fighter_ids=("g1", "g2"),
                 chips=(Chip("g1:1", "g1", 3, "1:7", "held"), Chip("g2:1", "g2", 3, "2:7", "ready")),
                 compact=True, out=False),
            Lane(id="b", title="Beta", fighter_ids=("b",), chips=(), out=True),
        ))


def _picture(qtbot: Any, font: QFont | None = None) -> Any:
    view = TimelineView()
    qtbot.addWidget(view)
    if font is not None:
        view.setFont(font)
    view.resize(640, 200)
    view.set_timeline(_timeline())
    view.show()
    qtbot.waitExposed(view)
    return view


def test_timeline_pictures_follow_palette_and_font_changes(qtbot: Any, qapp: QApplication) -> None:
    view = _picture(qtbot)
    light = view.grab().toImage()
    before = qapp.palette()
    try:
        qapp.setPalette(dark_palette())
        qapp.processEvents()
        switched = view.grab().toImage()
        assert switched != light
        assert switched == _picture(qtbot).grab().toImage()
    finally:
        qapp.setPalette(before)
        qapp.processEvents()
    assert view.grab().toImage() == light
    bigger = QFont(view.font())
    bigger.setPointSizeF(bigger.pointSizeF() * 1.5)
    view.setFont(bigger)
    qapp.processEvents()
    assert view.grab().toImage() == _picture(qtbot, bigger).grab().toImage()
    # The chips are still where a click finds them.
    assert view._chip_at(view.chip_rect("a:1").center()).id == "a:1"
