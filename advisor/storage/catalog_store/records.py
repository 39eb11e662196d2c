"""One record file: its text when saved, and its validation when read (old versions migrated in memory)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.core import CatalogRecord, RecordKind
from advisor.storage.catalog_store.files import decode_json, read_file_bytes
from advisor.storage.catalog_store.problems import LoadProblem, RecordRead, validation_problems
from advisor.storage.migrations import MigrationError, migrate


def record_json(record: CatalogRecord) -> str:
    """The file text of a record: defaults left out, ``schema_version`` and ``id`` first."""
    body = record.model_dump(mode="json", exclude_defaults=True)
    head = {"schema_version": record.schema_version, "id": record.id}
    return json.dumps({**head, **body}, indent=2, ensure_ascii=False) + "\n"


def parse_record(data: Any, kind: RecordKind, path: Path, expected_id: str | None) -> RecordRead:
    """Validate decoded JSON as a record of ``kind`` (migrating old versions in memory)."""
    rid = expected_id
    if not isinstance(data, dict):
        return RecordRead(None, [LoadProblem(path, rid, None, f"expected a JSON object, found {type(data).__name__}")])
    if isinstance(data.get("id"), str):
        rid = data["id"][:80]
    try:
        data, start = migrate(data)
    except MigrationError as exc:
        return RecordRead(None, [LoadProblem(path, rid, "schema_version", str(exc))])
    if expected_id is not None and data.get("id") != expected_id:
        msg = f"id {str(data.get('id'))[:80]!r} does not match the file name {expected_id!r}.json"
        return RecordRead(None, [LoadProblem(path, rid, "id", msg)], start)
    try:
        return RecordRead(kind.record_type.model_validate(data), [], start)
    except ValidationError as exc:
        return RecordRead(None, validation_problems(path, rid, exc), start)
    except (RecursionError, ValueError, TypeError, ArithmeticError) as exc:  # pathological input pydantic did not wrap
        return RecordRead(None, [LoadProblem(path, rid, None, f"invalid: {str(exc)[:200]}")], start)


def read_record_file(path: Path, kind: RecordKind, *, check_name: bool = True, listed_regular: bool = False
                     ) -> RecordRead:
    """Read and validate one record file; never raises for bad content.

    ``listed_regular``: its folder's listing says it is a regular file (``files.listed_files``).
    """
    raw, problem = read_file_bytes(path, listed_regular=listed_regular)
    if problem:
        return RecordRead(None, [problem])
    return record_from_bytes(path, kind, raw, check_name=check_name)


def record_from_bytes(path: Path, kind: RecordKind, raw: bytes, *, check_name: bool = True) -> RecordRead:
    """Validate the bytes read from ``path`` as a record of ``kind`` (what ``read_record_file`` does after reading)."""
    data, problem = decode_json(path, raw)
    if problem:
        return RecordRead(None, [problem])
    return parse_record(data, RecordKind(kind), path, path.stem if check_name else None)
