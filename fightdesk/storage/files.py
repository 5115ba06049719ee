"""Safe file writing and the one error type for files the GM gave us.

Every file fightdesk writes goes through :func:`atomic_write_bytes`: a temporary file in
the same folder, flushed and fsynced, then renamed over the target, with the previous
version kept as ``<name>.bak``. A crash at any moment leaves either the old file or the
new one, never half of one.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


class FileProblem(Exception):
    """A file that cannot be read, written or understood; the message names the file,
    the field path (when there is one) and what is wrong, in one line for the GM."""

    def __init__(self, path: Path | str, problem: str, field: str | None = None) -> None:
        self.path = Path(path)
        self.problem = problem
        self.field = field
        where = f" at {field}" if field else ""
        super().__init__(f"{self.path}{where}: {problem}")


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def describe_os_error(exc: OSError) -> str:
    """Plain words for the usual reasons a save or a load fails."""
    if isinstance(exc, PermissionError):
        return "permission denied (is the folder read-only?)"
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if isinstance(exc, IsADirectoryError):
        return "this is a folder, not a file"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    return exc.strerror or str(exc)


def fsync_dir(folder: Path) -> None:
    """Make a new or renamed file's name durable (a no-op where folders cannot be opened)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, *, keep_backup: bool = True) -> None:
    """Write ``data`` to ``path`` atomically; the old file becomes ``path.bak``.

    Raises FileProblem (naming the file) on any OS error; the old file is then untouched.
    """
    path = Path(path)
    folder = path.parent
    tmp_name: str | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        # mkstemp makes the file owner-only; give it the mode the file would have had.
        _set_mode(fd, path)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if keep_backup and path.is_file():
            bak = backup_path(path)
            # A hard link keeps the old version reachable without a window where
            # neither file exists; fall back to a copy where links are not allowed.
            with contextlib.suppress(FileNotFoundError):
                bak.unlink()
            try:
                os.link(path, bak)
            except OSError:
                bak.write_bytes(path.read_bytes())
        os.replace(tmp_name, path)
        tmp_name = None
        fsync_dir(folder)
    except OSError as exc:
        raise FileProblem(path, f"could not save: {describe_os_error(exc)}") from exc
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def _current_umask() -> int:
    """The process's umask (reading it means setting it; set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _set_mode(fd: int, path: Path) -> None:
    """A saved-over file keeps its own permissions; a new one gets what the GM's umask
    gives any new file (mkstemp would leave it readable by the owner only)."""
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_current_umask()
    if hasattr(os, "fchmod"):
        with contextlib.suppress(OSError):
            os.fchmod(fd, mode)


def atomic_write_text(path: Path, text: str, *, keep_backup: bool = True) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), keep_backup=keep_backup)


def read_text(path: Path) -> str:
    """Read a UTF-8 file the GM gave us; every failure becomes a FileProblem."""
    path = Path(path)
    try:
        if path.is_dir():
            raise FileProblem(path, "this is a folder, not a file")
        data = path.read_bytes()
    except FileProblem:
        raise
    except OSError as exc:
        raise FileProblem(path, f"cannot read: {describe_os_error(exc)}") from exc
    if not data.strip():
        raise FileProblem(path, "the file is empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblem(path, f"not a text file (byte {exc.start} is not UTF-8)") from exc


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a big file becomes objects.

    Parsing a long fight or a big campaign allocates hundreds of thousands of containers,
    none of them garbage, and each automatic collection walks the whole heap: pausing it
    makes a 10,000-event load several times faster (benchmarks/storage.py).

    Afterwards the new objects are moved to the collector's permanent generation
    (``gc.freeze``): they live as long as the fight is open, and otherwise the first
    collection after the load would walk all of them once more. Reference counting still
    frees them when the fight is closed; the next load unfreezes what an earlier one froze,
    so a cycle among old objects is still collected in the end."""
    was_enabled = gc.isenabled()
    gc.unfreeze()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
