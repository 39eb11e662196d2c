"""Read files the user (or anyone) put in our way: regular files only, never past a limit.

A FIFO blocks a read forever and ``/dev/zero`` never ends, yet both state a size of 0, so
a size check alone lets them through. Every reader of a user-supplied file goes
through here: links are resolved, anything that is not a regular file is refused before it
is opened, the open itself does not block, the open descriptor is checked again (the path
may have been swapped meanwhile), and at most ``limit + 1`` bytes are read — the one extra
byte tells "too large" without trusting the stated size.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class FileRefused(OSError):
    """Not read: not a regular file, or larger than the reader allows (an ``OSError``)."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(errno.EINVAL, why, str(path))


class FileTooLarge(FileRefused):
    """Larger than the reader's limit."""


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _check_regular(path: Path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise FileRefused(path, f"{_kind(mode)}, not a regular file")


def is_regular_file(path: Path) -> bool:
    """True for a regular file (after following links); False for anything else or nothing."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


@contextmanager
def open_regular(path: Path | str) -> Iterator[tuple[BinaryIO, int]]:
    """``(binary file, size)`` of a regular file; anything else raises ``FileRefused``."""
    path = Path(path)
    _check_regular(path, os.stat(path).st_mode)  # before opening: opening a device can have effects
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        _check_regular(path, info.st_mode)
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        yield fh, info.st_size


def read_bytes_limited(path: Path | str, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (``FileRefused`` otherwise)."""
    path = Path(path)
    with open_regular(path) as (fh, size):
        if size > limit:
            raise FileTooLarge(path, f"file is {size:,} bytes; the limit is {limit:,}")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(path, f"file is over the limit of {limit:,} bytes")
    return data


def read_text_limited(path: Path | str, limit: int) -> str:
    """UTF-8 text of a regular file of at most ``limit`` bytes (``UnicodeDecodeError`` if not text)."""
    return read_bytes_limited(path, limit).decode("utf-8")
