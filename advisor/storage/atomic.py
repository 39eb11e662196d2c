"""Atomic file replacement with a backup of the previous version.

A crash (or SIGKILL) at any instant leaves either the old file or the new one, never a
half-written file: the bytes go to a temp file in the same folder, are flushed and
fsynced, then ``os.replace`` swaps it in (atomic on POSIX and Windows, same filesystem).
The previous version is kept as ``<name>.bak`` (itself written the same way).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

BACKUP_SUFFIX = ".bak"
TEMP_SUFFIX = ".tmp"


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; directories cannot be opened on Windows.
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _replace_with(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: Path, data: bytes, *, backup: bool = True) -> None:
    """Replace ``path`` by ``data`` atomically; the old bytes go to ``<name>.bak`` first."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if backup and path.exists():
        _replace_with(backup_path(path), path.read_bytes())
    _replace_with(path, data)
    _fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str, *, backup: bool = True) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), backup=backup)


def remove_with_backup(path: Path) -> Path:
    """Move ``path`` to ``<name>.bak`` (one atomic rename: nothing is lost); returns the backup."""
    path = Path(path)
    target = backup_path(path)
    os.replace(path, target)
    _fsync_dir(path.parent)
    return target


def copy_aside(path: Path, suffix: str) -> Path:
    """Copy ``path`` byte for byte to ``<name><suffix>`` atomically (before a migration)."""
    target = path.with_name(path.name + suffix)
    _replace_with(target, Path(path).read_bytes())
    return target
