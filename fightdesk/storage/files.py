"""Safe file writing and the one error type for files the GM gave us.

Every file fightdesk writes goes through :func:`atomic_write_bytes`: a temporary file in
the same folder, flushed and fsynced, then renamed over the target, with the previous
version kept as ``<name>.bak``. A crash at any moment leaves either the old file or the
new one, never half of one.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import gc
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger(__name__)


class FileProblem(Exception):
    """A file that cannot be read, written or understood; the message names the file,
    the field path (when there is one) and what is wrong, in one line for the GM."""

    def __init__(self, path: Path | str, problem: str, field: str | None = None) -> None:
        self.path = Path(path)
        # Both may quote the file (a fighter's name, a key): one short line, always.
        self.problem = problem = shorten(problem, 160)
        self.field = field = shorten(field, 60) if field else field
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


#: Files larger than this are refused before they are read: a 200 MB file would take
#: seconds and a gigabyte of memory only to be refused. The window's setting
#: ``files/max_megabytes`` (and ``FIGHTDESK_MAX_FILE_MB`` in the environment) change it.
DEFAULT_SIZE_LIMIT = 50 * 1024 * 1024
SIZE_LIMIT_ENV = "FIGHTDESK_MAX_FILE_MB"
_size_limit: int | None = None


def size_limit() -> int:
    """The largest file fightdesk reads, in bytes."""
    if _size_limit is not None:
        return _size_limit
    value = os.environ.get(SIZE_LIMIT_ENV, "")
    try:
        megabytes = float(value)
    except ValueError:
        return DEFAULT_SIZE_LIMIT
    return int(megabytes * 1024 * 1024) if megabytes > 0 else DEFAULT_SIZE_LIMIT


def set_size_limit(limit: int | None) -> None:
    """Set the largest file read, in bytes (None: the default or the environment's)."""
    global _size_limit
    _size_limit = limit if limit is None or limit > 0 else None


def read_text(path: Path) -> str:
    """Read a UTF-8 file the GM gave us; every failure becomes a FileProblem.

    A file over :func:`size_limit` is refused before it is read; a UTF-8 byte-order
    mark (which some editors write) is dropped."""
    path = Path(path)
    limit = size_limit()
    try:
        if path.is_dir():
            raise FileProblem(path, "this is a folder, not a file")
        size = path.stat().st_size
        if size > limit:
            raise FileProblem(path, _too_big(size, limit))
        data = path.read_bytes()
    except FileProblem:
        raise
    except OSError as exc:
        raise FileProblem(path, f"cannot read: {describe_os_error(exc)}") from exc
    if len(data) > limit:  # it grew since, or is not a plain file
        raise FileProblem(path, _too_big(len(data), limit))
    data = data.removeprefix(codecs.BOM_UTF8)
    if not data or data.isspace():  # stops at the first character (strip() copies it all)
        raise FileProblem(path, "the file is empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblem(path, f"not a text file (byte {exc.start} is not UTF-8)") from exc


def _too_big(size: int, limit: int) -> str:
    mb = 1024 * 1024
    return (f"the file is too big to be a fightdesk file ({size / mb:.1f} MB; the limit "
            f"is {limit / mb:.0f} MB, a setting)")


def shorten(text: str, limit: int = 60) -> str:
    """Text from a file, cut to fit one line of a message (whitespace folded)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


@contextlib.contextmanager
def one_error_type(path: Path | str) -> Iterator[None]:
    """Whatever goes wrong while a file is read becomes a FileProblem naming it.

    The loaders name the usual problems themselves; this catches the rest (nesting
    deeper than Python's recursion limit, numbers too long to convert, memory), so no
    traceback ever reaches the GM."""
    try:
        yield
    except FileProblem:
        raise
    except RecursionError:
        raise FileProblem(path, "the JSON is nested too deeply to be a fightdesk file") from None
    except MemoryError:
        raise FileProblem(path, "the file is too big to read into memory") from None
    except ValueError as exc:
        if "digits" in str(exc):
            raise FileProblem(path, "a number in the file is far too long "
                              "(thousands of digits)") from None
        raise FileProblem(path, f"cannot be read: {shorten(str(exc), 100)}") from None
    except Exception as exc:
        log.debug("unexpected failure reading %s", path, exc_info=True)
        raise FileProblem(path, f"cannot be read ({type(exc).__name__}: "
                          f"{shorten(str(exc), 80)})") from None


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
