"""The questions File > Save asks before it replaces the GM's file (docs/ui.md "Saving").

* The file changed on disk since this window opened or last saved it (another fightdesk
  window, or another program, saved over it): save as another file, overwrite it
  anyway, or reload it (this window's changes since are dropped).
* The file is read-only: it is not replaced; save as another file instead.
* Opening a file that another fightdesk window has open says so in the status bar.

The window calls :func:`opened` when it shows a fight with a file, :func:`before_save`
before it writes one, and :func:`saved` after; what the file was is kept here (its
size, change time and a hash of its content, ``storage.files.file_stamp``), so the
window needs no state of its own for it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMainWindow, QMessageBox

from fightdesk.storage.files import file_stamp, is_read_only

from .plain import message_box
from .recovery import AutosaveBinder

SAVE_AS_BUTTON = "saveAsButton"
OVERWRITE_BUTTON = "overwriteButton"
RELOAD_BUTTON = "reloadButton"
_KEPT = "_fightdesk_file_stamp"


def _same(one: Path, other: Path) -> bool:
    with contextlib.suppress(OSError, RuntimeError):
        return one.resolve() == other.resolve()
    return one == other


def opened(window: QMainWindow, path: Path | None) -> None:
    """The window shows the fight of ``path`` (None: a fight without a file): remember
    what the file is now, and say so when another fightdesk window has it open too."""
    setattr(window, _KEPT, (path, file_stamp(path)) if path is not None else None)
    if path is not None and _open_elsewhere(window, path):
        window.statusBar().showMessage(
            f"{path.name} is open in another fightdesk window too: saving in either "
            "asks before it replaces what the other saved.", 20000)


def saved(window: QMainWindow, path: Path) -> None:
    """The window just wrote ``path``: this is now the file it knows."""
    setattr(window, _KEPT, (path, file_stamp(path)))


def before_save(window: Any, path: Path) -> bool | None:
    """Ask what the GM wants when saving to ``path`` would replace a read-only file or
    a file that changed since this window had it. None: save as usual; else the save
    was answered here (True: saved, under another name; False: not saved)."""
    if is_read_only(path):
        return _read_only(window, path)
    kept = getattr(window, _KEPT, None)
    if kept is None or kept[1] is None or not _same(kept[0], path):
        return None  # a new file, or one the GM chose in Save As (its dialog asked)
    now = file_stamp(path)
    if now is None or now == kept[1]:
        return None  # unchanged (or gone: nothing to replace)
    return _changed(window, path)


def _read_only(window: Any, path: Path) -> bool:
    box = message_box(
        window, QMessageBox.Icon.Warning, "Cannot save",
        f"{path}: the file is read-only, so fightdesk does not replace it.",
        "Save the fight under another name, or make the file writable and save again.",
        QMessageBox.StandardButton.Cancel)
    box.setObjectName("ReadOnlyFile")
    save_as = box.addButton("Save As\N{HORIZONTAL ELLIPSIS}", QMessageBox.ButtonRole.AcceptRole)
    save_as.setObjectName(SAVE_AS_BUTTON)
    box.setDefaultButton(save_as)
    box.exec()
    if box.clickedButton() is save_as:
        return bool(window.save_as())
    return False


def _changed(window: Any, path: Path) -> bool:
    box = message_box(
        window, QMessageBox.Icon.Warning, "The file changed",
        f"{path} changed since this window opened or saved it: another fightdesk "
        "window or another program saved over it.",
        "Save As keeps both. Overwrite replaces what was saved there (it stays in the "
        ".bak file until the next save). Reload shows the file as it is now and drops "
        "this window's changes.",
        QMessageBox.StandardButton.Cancel)
    box.setObjectName("FileChanged")
    save_as = box.addButton("Save As\N{HORIZONTAL ELLIPSIS}", QMessageBox.ButtonRole.AcceptRole)
    save_as.setObjectName(SAVE_AS_BUTTON)
    overwrite = box.addButton("Overwrite", QMessageBox.ButtonRole.DestructiveRole)
    overwrite.setObjectName(OVERWRITE_BUTTON)
    reload = box.addButton("Reload", QMessageBox.ButtonRole.ResetRole)
    reload.setObjectName(RELOAD_BUTTON)
    box.setDefaultButton(save_as)
    box.exec()
    clicked = box.clickedButton()
    if clicked is save_as:
        return bool(window.save_as())
    if clicked is overwrite:
        setattr(window, _KEPT, None)  # the GM chose: this save goes over it
        return bool(window.files.save_to(path))
    if clicked is reload:
        window.open_file(path)  # this window's fight stays in its autosave folder
    return False


def _open_elsewhere(window: QMainWindow, path: Path) -> bool:
    """Another fightdesk window keeps a fight of ``path`` (its autosave says so)."""
    binder = window.findChild(AutosaveBinder)
    if binder is None:
        return False
    return bool(binder.autosave.open_elsewhere(path))
