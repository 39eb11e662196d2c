"""``hidden.json``: the shipped records the user removed, ``{"schema_version": 1, "hidden": {kind: [id, …]}}``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from advisor.core import SCHEMA_VERSION, RecordKind
from advisor.storage.catalog_store.files import read_json
from advisor.storage.catalog_store.problems import LoadProblem
from advisor.storage.migrations import MigrationError, migrate

HIDDEN_FILE = "hidden.json"
#: More ids than any catalog holds: a list longer than this is junk.
MAX_HIDDEN_PER_KIND = 5_000
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")  # core.schema.RecordId

Hidden = dict[RecordKind, frozenset[str]]


def _bad_ids(ids: list[Any]) -> list[Any]:
    return [i for i in ids if not isinstance(i, str) or not _ID.match(i)]


def parse_hidden(path: Path, data: Any) -> tuple[Hidden, list[LoadProblem]]:
    """The ``"hidden"`` member of decoded JSON (hidden.json or a bundle): kind → ids."""
    if not isinstance(data, dict) or not isinstance(data.get("hidden", {}), dict):
        return {}, [LoadProblem(path, None, "hidden", "expected an object of kind → list of ids")]
    out, problems = {}, []
    for key, ids in data.get("hidden", {}).items():
        where = f"hidden.{key}" if key.isprintable() and len(key) <= 40 else f"hidden.{key[:40]!r}"  # one line
        if key not in RecordKind.__members__.values():
            problems.append(LoadProblem(path, None, where, f"unknown kind {key[:40]!r}"))
        elif not isinstance(ids, list):
            problems.append(LoadProblem(path, None, where, "expected a list of ids"))
        elif len(ids) > MAX_HIDDEN_PER_KIND:
            problems.append(LoadProblem(path, None, where,
                                        f"{len(ids):,} ids; at most {MAX_HIDDEN_PER_KIND:,} can be hidden"))
        elif bad := _bad_ids(ids):
            problems.append(LoadProblem(path, None, where,
                                        f"{str(bad[0])[:40]!r} is not a record id (lower-case letters, digits, . _ -)"))
        elif ids:
            out[RecordKind(key)] = frozenset(ids)
    return out, problems


def parse_hidden_file(path: Path) -> tuple[Hidden, list[LoadProblem]]:
    """The hidden ids of ``path``; a bad file hides nothing (and is reported)."""
    if not path.exists() and not path.is_symlink():
        return {}, []
    data, problem = read_json(path)
    if problem:  # hidden.json holds no record: its name is no id to show ("id 'hidden'")
        return {}, [LoadProblem(problem.path, None, problem.field, problem.message)]
    try:
        migrate(data if isinstance(data, dict) else {})
    except MigrationError as exc:
        return {}, [LoadProblem(path, None, "schema_version", str(exc))]
    hidden, problems = parse_hidden(path, data)
    return ({}, problems) if problems else (hidden, [])


def hidden_json(hidden: Hidden) -> str:
    body = {k.value: sorted(ids) for k, ids in sorted(hidden.items()) if ids}
    return json.dumps({"schema_version": SCHEMA_VERSION, "hidden": body}, indent=2) + "\n"
