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
import hashlib
import logging
import math
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

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
    refuse_read_only(path)
    tmp_name: str | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.{TMP_MARK}-{os.getpid()}-",
                                        suffix=".tmp", dir=folder)
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
    remove_leftovers(folder)


class FileStamp(NamedTuple):
    """What a file was when the window opened or saved it: a save over it first checks
    that it is still that file (another window or program may have saved over it)."""

    size: int
    mtime_ns: int
    digest: str


def file_stamp(path: Path) -> FileStamp | None:
    """The file's size, change time and a hash of its content; None when it is not a
    regular file that can be read (gone, a folder, no permission)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        digest = hashlib.blake2b(digest_size=20)
        while chunk := os.read(fd, 1024 * 1024):
            digest.update(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return FileStamp(info.st_size, info.st_mtime_ns, digest.hexdigest())


def is_read_only(path: Path) -> bool:
    """The file exists and its permissions let nobody write it (``chmod 444``). Checked
    on the mode bits, not by trying: the superuser may write anything, and a rename over
    the file would replace it even where writing it is refused."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) and not mode & 0o222


def refuse_read_only(path: Path) -> None:
    """A read-only file is never replaced without a word: FileProblem saying why."""
    if is_read_only(path):
        raise FileProblem(path, "could not save: the file is read-only (its permissions "
                          "allow no writing); save it under another name, or make it "
                          "writable first")


#: In the name of every temporary file fightdesk writes (``.NAME.fightdesk-PID-RANDOM.tmp``),
#: so a write cut off by a kill leaves a file that a later start or save can tell for its
#: own and remove (:func:`remove_leftovers`); nobody else's file is ever touched.
TMP_MARK = "fightdesk"
_LEFTOVER = re.compile(rf"^\..+\.{TMP_MARK}-(\d+)-[A-Za-z0-9_]+\.tmp$")
#: Where a process cannot be asked whether it still runs, a leftover this old is dead.
_LEFTOVER_AGE = 24 * 3600


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files that fightdesk writes left in ``folder`` when they were
    cut off (killed or crashed mid-write): only files named by :data:`TMP_MARK` whose
    process no longer runs. Returns what was removed; never raises."""
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        m = _LEFTOVER.match(name)
        if m is None or _still_writing(int(m.group(1)), Path(folder) / name):
            continue
        with contextlib.suppress(OSError):
            os.unlink(Path(folder) / name)
            removed.append(Path(folder) / name)
    return removed


def _still_writing(pid: int, path: Path) -> bool:
    """Whether the process that named a temporary file may still be writing it."""
    if pid == os.getpid():
        return False  # this process writes a file and renames it in one call
    if sys.platform == "win32":
        try:
            return time.time() - path.stat().st_mtime < _LEFTOVER_AGE
        except OSError:
            return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):
        return True  # another user's process (PermissionError) or a number not a pid
    # The number may have been given to a new process since the writer died (process
    # ids are reused): a process that started after the file was last written is not
    # its writer.
    started = _process_started(pid)
    if started is None:
        return True
    try:
        return started <= path.stat().st_mtime + 1.0
    except OSError:
        return True


def _process_started(pid: int) -> float | None:
    """When a running process started (seconds since the epoch), where the system says
    (Linux's /proc); None elsewhere or when it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat_file:
            fields = stat_file.read().rsplit(b")", 1)[1].split()
        ticks = int(fields[19])  # field 22, starttime, counted after the ")" that ends field 2
        with open("/proc/stat", "rb") as system:
            boot = next(int(line.split()[1]) for line in system if line.startswith(b"btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


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


#: The size limit a setting may give, in megabytes: above nothing, at most a terabyte.
MAX_LIMIT_MEGABYTES = 1024 * 1024


def megabytes_limit(value: object, where: str) -> tuple[int | None, str | None]:
    """A size limit setting read from a file or the environment: (bytes, None), or
    (None, a one-line message naming ``where`` and saying the default applies) when it
    is not a number of megabytes in range (``inf``, ``nan``, ``-1``, ``1e400``, words)."""
    default = f"the default, {DEFAULT_SIZE_LIMIT // (1024 * 1024)} MB, applies"
    try:
        megabytes = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        megabytes = math.nan
    if not (math.isfinite(megabytes) and 0 < megabytes <= MAX_LIMIT_MEGABYTES):
        return None, (f"{where}={shorten(str(value), 40)} is not a number of megabytes "
                      f"above 0 and at most {MAX_LIMIT_MEGABYTES}; {default}")
    return max(1, int(megabytes * 1024 * 1024)), None


def size_limit_problem() -> str | None:
    """Why ``FIGHTDESK_MAX_FILE_MB`` in the environment is not used, or None."""
    value = os.environ.get(SIZE_LIMIT_ENV, "")
    if not value.strip():
        return None
    return megabytes_limit(value, SIZE_LIMIT_ENV)[1]


def size_limit() -> int:
    """The largest file fightdesk reads, in bytes."""
    if _size_limit is not None:
        return _size_limit
    value = os.environ.get(SIZE_LIMIT_ENV, "")
    if not value.strip():
        return DEFAULT_SIZE_LIMIT
    limit, _problem = megabytes_limit(value, SIZE_LIMIT_ENV)
    return limit if limit is not None else DEFAULT_SIZE_LIMIT


def set_size_limit(limit: int | None) -> None:
    """Set the largest file read, in bytes (None: the default or the environment's)."""
    global _size_limit
    _size_limit = limit if limit is None or 0 < limit <= MAX_LIMIT_MEGABYTES * 1024 * 1024 else None


def read_text(path: Path) -> str:
    """Read a UTF-8 file the GM gave us; every failure becomes a FileProblem.

    A file over :func:`size_limit` is refused before it is read; a UTF-8 byte-order
    mark (which some editors write) is dropped."""
    path = Path(path)
    limit = size_limit()
    try:
        if path.is_dir():
            raise FileProblem(path, "this is a folder, not a file")
        data = read_regular_file(path, limit)
    except FileProblem:
        raise
    except OSError as exc:
        raise FileProblem(path, f"cannot read: {describe_os_error(exc)}") from exc
    data = data.removeprefix(codecs.BOM_UTF8)
    if not data or data.isspace():  # stops at the first character (strip() copies it all)
        raise FileProblem(path, "the file is empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblem(path, f"not a text file (byte {exc.start} is not UTF-8)") from exc


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes; FileProblem for
    anything else. A pipe, a device (``/dev/zero``), a socket is refused before a byte
    is read (opened without waiting, so a pipe nobody writes cannot hang the app), and
    never more than ``limit + 1`` bytes are read, whatever ``stat`` says. OSError passes."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(path, f"not a regular file ({_kind_of(info.st_mode)}); "
                              "fightdesk reads only plain files")
        if info.st_size > limit:
            raise FileProblem(path, _too_big(info.st_size, limit))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1024 * 1024, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    finally:
        os.close(fd)
    if got > limit:  # it grew since it was opened
        raise FileProblem(path, _too_big(got, limit, more=True))
    return b"".join(chunks)


def _kind_of(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "a pipe"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a folder")):
        if test(mode):
            return kind
    return "not a plain file"


def _too_big(size: int, limit: int, *, more: bool = False) -> str:
    mb = 1024 * 1024
    over = "more than " if more else ""
    return (f"the file is too big to be a fightdesk file ({over}{size / mb:.1f} MB; the limit "
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
