"""Reading one JSON file of the catalog: bounded, regular files only, every fault a problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from advisor.storage.catalog_store.problems import LoadProblem
from advisor.storage.safe_read import FileRefused, read_bytes_limited

#: Larger files are refused unread: no record is near this (a GPU with many prices is ~5 KB).
MAX_FILE_BYTES = 1_000_000


def read_json(path: Path, limit: int = MAX_FILE_BYTES) -> tuple[Any, LoadProblem | None]:
    """(decoded JSON, None) or (None, the problem); never raises for a bad or odd file."""
    rid = path.stem
    try:
        text = read_bytes_limited(path, limit).decode("utf-8")
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, LoadProblem(path, rid, None, f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
    except UnicodeDecodeError as exc:
        return None, LoadProblem(path, rid, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    except RecursionError:
        return None, LoadProblem(path, rid, None, "JSON nested too deeply")
    except FileRefused as exc:
        return None, LoadProblem(path, rid, None, exc.strerror)
    except OSError as exc:
        return None, LoadProblem(path, rid, None, f"could not read: {exc.strerror or exc}")


def record_files(folder: Path) -> list[Path]:
    """The record files of a kind folder. Temp files of an interrupted save start with '.'; backups end in '.bak'."""
    try:
        return sorted(p for p in folder.glob("*.json") if not p.name.startswith("."))
    except OSError:
        return []
