"""Atomic file replacement with a backup of the previous version.

A crash (or SIGKILL) at any instant leaves either the old file or the new one, never a
half-written file: the bytes go to a temp file in the same folder, are flushed and
fsynced, then ``os.replace`` swaps it in (atomic on POSIX and Windows, same filesystem).
The previous version is kept as ``<name>.bak`` (itself written the same way).
Temp files a killed save left behind (``.<name>.<random>.tmp``) are removed by the next
save into the same folder once they are a minute old.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from pathlib import Path

from advisor.storage.safe_read import read_bytes_limited

BACKUP_SUFFIX = ".bak"
TEMP_SUFFIX = ".tmp"
#: A save takes milliseconds; an older temp file is a killed save's leftover.
STALE_TEMP_S = 60.0
#: Files this program replaces are small (records, settings, comparisons, bundles).
MAX_BACKUP_BYTES = 200_000_000
# ".<name>.<8 characters>.tmp": this module's temp names (and tempfile.mkstemp's, which earlier versions used).
_TEMP_NAME = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def fsync_dir(folder: Path) -> None:
    """Make the renames in ``folder`` durable (a no-op where folders cannot be opened)."""
    # Makes the rename itself durable; directories cannot be opened on Windows.
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _temp_beside(path: Path) -> tuple[int, Path]:
    """A new temp file beside ``path``, created with the mode a new file of the folder gets (0666 less
    the umask) or, when ``path`` exists, with its mode: ``tempfile.mkstemp`` made every saved file
    0600, whatever the user's umask or the file's own mode had been."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode) or 0o666
    except OSError:
        mode = 0o666
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:
            continue
        if mode != 0o666 and hasattr(os, "fchmod"):  # the existing file's mode (the umask applied to a new one)
            try:
                os.fchmod(fd, mode)
            except OSError:
                pass
        return fd, tmp
    raise FileExistsError(errno.EEXIST, "no free temp file name", str(path.parent))


def _replace_with(path: Path, data: bytes) -> None:
    fd, tmp = _temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def remove_stale_temps(folder: Path, older_than_s: float = STALE_TEMP_S) -> list[Path]:
    """Remove this program's temp files in ``folder`` older than ``older_than_s``; returns them."""
    removed: list[Path] = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not _TEMP_NAME.match(entry.name):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and now - entry.stat(follow_symlinks=False).st_mtime > older_than_s:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue  # gone meanwhile, or not ours to remove: harmless
    return removed


def atomic_write_bytes(path: Path, data: bytes, *, backup: bool = True) -> None:
    """Replace ``path`` by ``data`` atomically; the old bytes go to ``<name>.bak`` first."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if backup and path.exists():
        _replace_with(backup_path(path), _current_bytes(path))
    _replace_with(path, data)
    fsync_dir(path.parent)
    remove_stale_temps(path.parent)


def _current_bytes(path: Path) -> bytes:
    # Only a regular file is backed up by copying: a FIFO or device would block or never end.
    return read_bytes_limited(path, MAX_BACKUP_BYTES)


def atomic_write_text(path: Path, text: str, *, backup: bool = True) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), backup=backup)


def remove_with_backup(path: Path) -> Path:
    """Move ``path`` to ``<name>.bak`` (one atomic rename: nothing is lost); returns the backup."""
    path = Path(path)
    target = backup_path(path)
    os.replace(path, target)
    fsync_dir(path.parent)
    return target


def copy_aside(path: Path, suffix: str) -> Path:
    """Copy ``path`` byte for byte to ``<name><suffix>`` atomically (before a migration)."""
    target = path.with_name(path.name + suffix)
    _replace_with(target, _current_bytes(Path(path)))
    return target


def keep_aside(path: Path, suffix: str, *, move: bool) -> Path:
    """Move (or copy) ``path`` to ``<name>.<date and time><suffix>``, numbered ``-2``, ``-3`` … when that
    name is taken: never over another file, so every copy kept this way stays (a fixed ``.bad`` name
    was overwritten by the next bad file). Returns the new path."""
    path = Path(path)
    stamp = time.strftime("%Y-%m-%dT%H%M%S")
    data = None if move else _current_bytes(path)
    for n in range(1, 1000):
        target = path.with_name(f"{path.name}.{stamp}{'' if n == 1 else f'-{n}'}{suffix}")
        try:
            if data is not None:
                write_synced(target, data, new=True)
            else:
                _move_new(path, target)
        except FileExistsError:
            continue
        fsync_dir(path.parent)
        return target
    raise FileExistsError(errno.EEXIST, "no free name to keep a copy under", str(path))


def write_synced(target: Path, data: bytes, *, new: bool = False) -> None:
    """``data`` written to ``target`` and flushed to disk; ``new``: only where no file of that name is (else
    FileExistsError), without it an existing file is replaced in place."""
    how = os.O_EXCL if new else os.O_TRUNC
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | how | getattr(os, "O_BINARY", 0), 0o666)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _move_new(path: Path, target: Path) -> None:
    """Rename ``path`` to ``target`` only if ``target`` does not exist (a hard link, then the old name
    removed; where links are refused, as for a folder, a rename after checking)."""
    try:
        os.link(path, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except (OSError, NotImplementedError):
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "exists", str(target)) from None
        os.rename(path, target)
        return
    os.unlink(path)
