"""Reading one JSON file of the catalog: bounded, regular files only, every fault a problem."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from advisor.storage import json_text
from advisor.storage.catalog_store.problems import LoadProblem
from advisor.storage.safe_read import FileRefused, read_bytes_limited

#: Larger files are refused unread: no record is near this (a GPU with many prices is ~5 KB).
MAX_FILE_BYTES = 1_000_000

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def read_json(path: Path, limit: int = MAX_FILE_BYTES) -> tuple[Any, LoadProblem | None]:
    """(decoded JSON, None) or (None, the problem); never raises for a bad or odd file."""
    data, problem, _ = read_json_bytes(path, limit)
    return data, problem


def read_json_bytes(path: Path, limit: int = MAX_FILE_BYTES, *, listed_regular: bool = False
                    ) -> tuple[Any, LoadProblem | None, bytes | None]:
    """``read_json`` and the bytes it read (None when the file could not be read at all).

    ``listed_regular``: the folder listing said the path is a regular file, not a link (``listed_files``).
    """
    raw, problem = read_file_bytes(path, limit, listed_regular=listed_regular)
    if problem:
        return None, problem, None
    data, problem = decode_json(path, raw)
    return data, problem, raw


def read_file_bytes(path: Path, limit: int = MAX_FILE_BYTES, *, listed_regular: bool = False
                    ) -> tuple[bytes | None, LoadProblem | None]:
    """(the bytes, None) or (None, why they could not be read); never raises for an odd file."""
    try:
        return (_read_listed(path, limit) if listed_regular else read_bytes_limited(path, limit)), None
    except FileRefused as exc:
        return None, LoadProblem(path, path.stem, None, exc.strerror)
    except OSError as exc:
        return None, LoadProblem(path, path.stem, None, f"could not read: {exc.strerror or exc}")


def decode_json(path: Path, raw: bytes) -> tuple[Any, LoadProblem | None]:
    """(the JSON value of ``raw``, None) or (None, the problem, named after ``path``)."""
    try:
        return json_text.loads(raw), None
    except json_text.JSONTextError as exc:
        return None, LoadProblem(path, path.stem, None, str(exc))


def _read_listed(path: Path, limit: int) -> bytes:
    """``safe_read.read_bytes_limited`` for a file its folder listing says is a regular file.

    The listing's file type stands in for the ``stat`` before opening (no device or FIFO is
    opened); the rest is the same: a non-blocking open, the open descriptor checked again, at
    most ``limit + 1`` bytes read (the size the open file states, when it is all there, ends the
    read without another call for the end of the file). Anything unusual (swapped for another kind of file, too large)
    is handed to ``read_bytes_limited``, which refuses it in its own words. Half the time per file
    of the general reader for a 10,000-record catalog.
    """
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return read_bytes_limited(path, limit)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size == info.st_size:  # all of it, as the open file said: no read for the end (a syscall a file)
                break
    finally:
        os.close(fd)
    if size > limit:
        return read_bytes_limited(path, limit)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """A file's bytes, bounded (a FIFO or a link to /dev/zero refused, never read); None when absent or refused."""
    try:
        return read_bytes_limited(path, limit)
    except OSError:
        return None


def _is_record_name(name: str) -> bool:
    # What Path.glob("*.json") matched (case-insensitively where the platform's names are), less
    # temp files of an interrupted save, which start with '.'.
    return os.path.normcase(name).endswith(".json") and not name.startswith(".")


def listed_files(folder: Path) -> list[tuple[Path, bool]]:
    """``(path, is a regular file and not a link)`` for each record file of a kind folder, by name.

    ``os.scandir``: the file type comes with the listing, and names sort far faster
    than the ``Path`` objects ``sorted(folder.glob(...))`` compared (same order) for 10,000 files.
    """
    try:
        with os.scandir(folder) as entries:
            found = [(e.name, _plain_file(e)) for e in entries if _is_record_name(e.name)]
    except OSError:
        return []
    found.sort(key=lambda item: os.path.normcase(item[0]))
    return [(folder / name, plain) for name, plain in found]


def _plain_file(entry: os.DirEntry) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def record_files(folder: Path) -> list[Path]:
    """The record files of a kind folder. Temp files of an interrupted save start with '.'; backups end in '.bak'."""
    return [path for path, _ in listed_files(folder)]
