"""An OS file lock around every read-modify-write of the user's files.

Two ``llm-advisor catalog remove`` run at once each read ``hidden.json``, added their id
and wrote: one id was lost (11 of 20 trials). Whoever changes the user catalog
(CLI, window, bundle import, migration) now takes ``locked(folder)`` and re-reads under it.

The lock is ``fcntl.flock`` on ``<folder>/.lock`` (POSIX) or ``msvcrt.locking`` on its first
byte (Windows): the OS drops it when the process dies, so a killed save never leaves the
catalog locked. It is re-entrant within a thread (``hide_record`` takes it, then
``write_hidden`` inside takes it again); other threads and processes wait, at most
``timeout_s`` seconds, then get ``LockTimeout``.
"""

from __future__ import annotations

import errno
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_NAME = ".lock"
TIMEOUT_S = 15.0
_POLL_S = 0.01

if sys.platform == "win32":  # (a platform test, not a failed import: the type checker reads only the branch it runs)
    import msvcrt

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class LockTimeout(OSError):
    """Another process held the lock longer than the timeout."""


_held = threading.local()  # resolved lock path → depth, per thread


@contextmanager
def locked(folder: Path, *, name: str = LOCK_NAME, timeout_s: float = TIMEOUT_S) -> Iterator[Path]:
    """Hold the exclusive lock of ``folder`` (created if missing) for the ``with`` block."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file where the folder belongs: said as such, not as "File exists"
        raise NotADirectoryError(errno.ENOTDIR, "not a folder (a file is in its place); move it aside",
                                 str(folder)) from None
    path = (folder / name).resolve()
    depths: dict[Path, int] = _held.__dict__.setdefault("depths", {})
    if depths.get(path):
        depths[path] += 1
        try:
            yield path
        finally:
            depths[path] -= 1
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout_s
        while not _try_lock(fd):
            if time.monotonic() > deadline:
                raise LockTimeout(f"{folder}: another llm-advisor has held its lock for over {timeout_s:g} s")
            time.sleep(_POLL_S)
        depths[path] = 1
        try:
            yield path
        finally:
            depths[path] = 0
            _unlock(fd)
    finally:
        os.close(fd)
