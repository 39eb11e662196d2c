"""Load the shipped catalog and the user's overlay; save user records safely.

Layout (shipped ``catalog/`` and the user's ``paths.user_catalog_dir()`` alike): one
folder per kind (``gpus/ builds/ systems/ cloud/ models/``), one ``<id>.json`` per record.
The user's folder may also hold ``hidden.json`` (shipped ids the user removed).

Loading never raises for bad data: each file that fails is a ``LoadProblem`` (path, id,
field, message), is left untouched, and the rest still loads. Saving is atomic, keeps the
previous version as ``<id>.json.bak`` and refuses to overwrite a file that currently
fails validation (it may be the user's only copy of hand-edited data) unless ``force``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.core.hardware.catalog import (
    Catalog,
    CatalogLayer,
    CatalogRecord,
    RecordKind,
    UnknownRecord,
    dangling_references,
    kind_of,
)
from advisor.core.schema import SCHEMA_VERSION
from advisor.storage import paths, shipped
from advisor.storage.atomic import atomic_write_text, copy_aside, remove_with_backup
from advisor.storage.migrations import MigrationError, migrate

HIDDEN_FILE = "hidden.json"
#: Larger files are refused unread: no record is near this (a GPU with many prices is ~5 KB).
MAX_FILE_BYTES = 1_000_000


@dataclass(frozen=True)
class LoadProblem:
    """One reason a file did not load (or loaded with a caveat)."""

    path: Path
    record_id: str | None
    field: str | None
    message: str

    def __str__(self) -> str:
        parts = [str(self.path)]
        if self.record_id:
            parts.append(f"id {self.record_id!r}")
        if self.field:
            parts.append(self.field)
        return ": ".join(parts) + f": {self.message}"


@dataclass(frozen=True)
class LoadResult:
    catalog: Catalog
    problems: list[LoadProblem]


@dataclass(frozen=True)
class RecordRead:
    """What reading one record file gave: the record, or the problems; and its version."""

    record: CatalogRecord | None
    problems: list[LoadProblem]
    from_version: int | None = None


class CatalogStoreError(Exception):
    """A save or remove that was refused or failed; the message names the file and why."""


class RefusedOverwrite(CatalogStoreError):
    """The file to replace currently fails validation: not overwritten without force."""


# --- reading ------------------------------------------------------------------------------


def _validation_problems(path: Path, rid: str | None, exc: ValidationError) -> list[LoadProblem]:
    out = []
    for err in exc.errors(include_url=False, include_input=False):
        field = ".".join(str(p) for p in err["loc"]) or None
        out.append(LoadProblem(path, rid, field, err["msg"]))
    return out


def _read_json(path: Path) -> tuple[Any, LoadProblem | None]:
    rid = path.stem
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, LoadProblem(path, rid, None, f"file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}")
        text = path.read_bytes().decode("utf-8")
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, LoadProblem(path, rid, None, f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
    except UnicodeDecodeError as exc:
        return None, LoadProblem(path, rid, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    except RecursionError:
        return None, LoadProblem(path, rid, None, "JSON nested too deeply")
    except OSError as exc:
        return None, LoadProblem(path, rid, None, f"could not read: {exc.strerror or exc}")


def parse_record(data: Any, kind: RecordKind, path: Path, expected_id: str | None) -> RecordRead:
    """Validate decoded JSON as a record of ``kind`` (migrating old versions in memory)."""
    rid = expected_id
    if not isinstance(data, dict):
        return RecordRead(None, [LoadProblem(path, rid, None, f"expected a JSON object, found {type(data).__name__}")])
    if isinstance(data.get("id"), str):
        rid = data["id"]
    try:
        data, start = migrate(data)
    except MigrationError as exc:
        return RecordRead(None, [LoadProblem(path, rid, "schema_version", str(exc))])
    if expected_id is not None and data.get("id") != expected_id:
        msg = f"id {data.get('id')!r} does not match the file name {expected_id!r}.json"
        return RecordRead(None, [LoadProblem(path, rid, "id", msg)], start)
    try:
        return RecordRead(kind.record_type.model_validate(data), [], start)
    except ValidationError as exc:
        return RecordRead(None, _validation_problems(path, rid, exc), start)
    except (RecursionError, ValueError, TypeError) as exc:  # pathological input pydantic did not wrap
        return RecordRead(None, [LoadProblem(path, rid, None, f"invalid: {exc}")], start)


def read_record_file(path: Path, kind: RecordKind, *, check_name: bool = True) -> RecordRead:
    """Read and validate one record file; never raises for bad content."""
    data, problem = _read_json(path)
    if problem:
        return RecordRead(None, [problem])
    return parse_record(data, RecordKind(kind), path, path.stem if check_name else None)


def _record_files(folder: Path) -> list[Path]:
    # Temp files of an interrupted save start with '.'; backups end in '.bak'.
    try:
        return sorted(p for p in folder.glob("*.json") if not p.name.startswith("."))
    except OSError:
        return []


@dataclass
class _Layer:
    records: dict[RecordKind, dict[str, CatalogRecord]]
    problems: list[LoadProblem]
    paths: dict[tuple[RecordKind, str], Path]
    migrated: list[tuple[Path, CatalogRecord, int]]


def _load_layer(root: Path) -> _Layer:
    layer = _Layer({k: {} for k in RecordKind}, [], {}, [])
    for kind in RecordKind:
        for path in _record_files(root / kind.folder):
            read = read_record_file(path, kind)
            layer.problems.extend(read.problems)
            if read.record is not None:
                layer.records[kind][read.record.id] = read.record
                layer.paths[(kind, read.record.id)] = path
                if read.from_version is not None and read.from_version < SCHEMA_VERSION:
                    layer.migrated.append((path, read.record, read.from_version))
    return layer


def _as_layer(layer: _Layer) -> CatalogLayer:
    return CatalogLayer(**{k.folder: v for k, v in layer.records.items()})


_shipped_cache: dict[Path, tuple[tuple, _Layer]] = {}


def _signature(root: Path) -> tuple:
    # Name, size and mtime of every file: a changed shipped file (a checkout) reloads.
    out = []
    for kind in RecordKind:
        for p in _record_files(root / kind.folder):
            try:
                st = p.stat()
            except OSError:
                continue
            out.append((p.name, kind.value, st.st_size, st.st_mtime_ns))
    return tuple(out)


def _load_shipped(root: Path) -> _Layer:
    """The shipped layer, cached per process (it is read-only; the signature catches edits)."""
    root = root.resolve()
    sig = _signature(root)
    cached = _shipped_cache.get(root)
    if cached and cached[0] == sig:
        return cached[1]
    layer = _load_layer(root)
    _shipped_cache[root] = (sig, layer)
    return layer


def _default_shipped() -> Path | None:
    try:
        return shipped.catalog_dir()
    except FileNotFoundError:
        return None


# --- hidden.json --------------------------------------------------------------------------


def parse_hidden(path: Path, data: Any) -> tuple[dict[RecordKind, frozenset[str]], list[LoadProblem]]:
    """The ``"hidden"`` member of decoded JSON (hidden.json or a bundle): kind → ids."""
    if not isinstance(data, dict) or not isinstance(data.get("hidden", {}), dict):
        return {}, [LoadProblem(path, None, "hidden", "expected an object of kind → list of ids")]
    out, problems = {}, []
    for key, ids in data.get("hidden", {}).items():
        if key not in RecordKind.__members__.values():
            problems.append(LoadProblem(path, None, f"hidden.{key}", f"unknown kind {key!r}"))
        elif not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            problems.append(LoadProblem(path, None, f"hidden.{key}", "expected a list of ids"))
        elif ids:
            out[RecordKind(key)] = frozenset(ids)
    return out, problems


def parse_hidden_file(path: Path) -> tuple[dict[RecordKind, frozenset[str]], list[LoadProblem]]:
    """``{"schema_version": 1, "hidden": {"gpu": ["id", …], …}}``; a bad file hides nothing."""
    if not path.exists():
        return {}, []
    data, problem = _read_json(path)
    if problem:
        return {}, [problem]
    try:
        migrate(data if isinstance(data, dict) else {})
    except MigrationError as exc:
        return {}, [LoadProblem(path, None, "schema_version", str(exc))]
    hidden, problems = parse_hidden(path, data)
    return ({}, problems) if problems else (hidden, [])


def hidden_json(hidden: dict[RecordKind, frozenset[str]]) -> str:
    body = {k.value: sorted(ids) for k, ids in sorted(hidden.items()) if ids}
    return json.dumps({"schema_version": SCHEMA_VERSION, "hidden": body}, indent=2) + "\n"


# --- load ---------------------------------------------------------------------------------


def load_catalog(
    shipped_dir: Path | None = None, user_dir: Path | None = None, *, migrate_user_files: bool = True
) -> LoadResult:
    """Shipped catalog + the user's overlay; problems are listed, never raised.

    User files of an older schema are migrated: the original is copied to
    ``<id>.json.v<N>.bak`` first, then the migrated record is written atomically.
    """
    problems: list[LoadProblem] = []
    shipped_root = shipped_dir if shipped_dir is not None else _default_shipped()
    if shipped_root is None or not shipped_root.is_dir():
        where = shipped_root or Path("catalog")
        problems.append(LoadProblem(where, None, None, "shipped catalog folder not found"))
        ship = _Layer({k: {} for k in RecordKind}, [], {}, [])
    else:
        ship = _load_shipped(shipped_root)
    user_root = user_dir if user_dir is not None else paths.user_catalog_dir()
    user = _load_layer(user_root)
    hidden, hidden_problems = parse_hidden_file(user_root / HIDDEN_FILE)
    problems += ship.problems + user.problems + hidden_problems
    if migrate_user_files:
        problems += _write_migrated(user.migrated)
    catalog = Catalog(shipped=_as_layer(ship), user=_as_layer(user), hidden=hidden)
    where = {**ship.paths, **user.paths}
    for kind, rid, field, message in dangling_references(catalog):
        problems.append(LoadProblem(where.get((kind, rid), Path(kind.folder)), rid, field, message))
    return LoadResult(catalog, problems)


def _write_migrated(migrated: list[tuple[Path, CatalogRecord, int]]) -> list[LoadProblem]:
    problems = []
    for path, record, version in migrated:
        try:
            copy_aside(path, f".v{version}.bak")
            atomic_write_text(path, record_json(record), backup=False)
        except OSError as exc:
            # The record is loaded from memory either way; the file stays as it was.
            problems.append(LoadProblem(path, record.id, "schema_version", f"migrated in memory, not saved: {exc}"))
    return problems


def shipped_catalog_date(shipped_dir: Path | None = None) -> str:
    """Newest ``date_seen`` of any price in the shipped catalog (ISO), or 'unknown'."""
    root = shipped_dir if shipped_dir is not None else _default_shipped()
    if root is None or not root.is_dir():
        return "unknown"
    layer = _load_shipped(root)
    dates = [
        p.date_seen
        for kind in (RecordKind.GPU, RecordKind.SYSTEM, RecordKind.CLOUD)
        for record in layer.records[kind].values()
        for p in record.prices
    ]
    return max(dates).isoformat() if dates else "unknown"


# --- save ---------------------------------------------------------------------------------


def record_json(record: CatalogRecord) -> str:
    """The file text of a record: defaults left out, ``schema_version`` and ``id`` first."""
    body = record.model_dump(mode="json", exclude_defaults=True)
    head = {"schema_version": record.schema_version, "id": record.id}
    return json.dumps({**head, **body}, indent=2, ensure_ascii=False) + "\n"


def user_record_path(kind: RecordKind, record_id: str, user_dir: Path | None = None) -> Path:
    root = user_dir if user_dir is not None else paths.user_catalog_dir()
    return root / RecordKind(kind).folder / f"{record_id}.json"


def _refuse_if_invalid(path: Path, kind: RecordKind | None, force: bool) -> None:
    if force or not path.exists():
        return
    if kind is None:
        problems = parse_hidden_file(path)[1]
    else:
        problems = read_record_file(path, kind).problems
    if problems:
        raise RefusedOverwrite(
            f"{path} currently fails validation ({problems[0].field or 'file'}: {problems[0].message}); "
            "not overwritten — fix or move it, or force"
        )


def save_record(record: CatalogRecord, *, user_dir: Path | None = None, force: bool = False) -> Path:
    """Write ``record`` into the user's catalog (atomic; the previous file kept as ``.bak``)."""
    kind = kind_of(record)
    path = user_record_path(kind, record.id, user_dir)
    _refuse_if_invalid(path, kind, force)
    try:
        atomic_write_text(path, record_json(record))
    except OSError as exc:
        raise CatalogStoreError(f"{path}: could not save: {exc.strerror or exc}") from exc
    return path


def remove_record(kind: RecordKind, record_id: str, *, user_dir: Path | None = None, force: bool = False) -> Path:
    """Remove a user record: the file becomes ``<id>.json.bak``; returns that path."""
    path = user_record_path(kind, record_id, user_dir)
    if not path.exists():
        raise UnknownRecord(kind, record_id, "not in the user catalog")
    _refuse_if_invalid(path, kind, force)
    try:
        return remove_with_backup(path)
    except OSError as exc:
        raise CatalogStoreError(f"{path}: could not remove: {exc.strerror or exc}") from exc


def write_hidden(root: Path, hidden: dict[RecordKind, frozenset[str]], force: bool = False) -> Path:
    path = root / HIDDEN_FILE
    _refuse_if_invalid(path, None, force)
    try:
        atomic_write_text(path, hidden_json(hidden))
    except OSError as exc:
        raise CatalogStoreError(f"{path}: could not save: {exc.strerror or exc}") from exc
    return path


def hide_record(
    kind: RecordKind, record_id: str, *, shipped_dir: Path | None = None, user_dir: Path | None = None,
    force: bool = False,
) -> Path:
    """Hide a shipped record (written to ``hidden.json``)."""
    kind = RecordKind(kind)
    result = load_catalog(shipped_dir, user_dir, migrate_user_files=False)
    if record_id not in result.catalog.shipped.of(kind):
        raise UnknownRecord(kind, record_id, "not a shipped record; only those can be hidden")
    hidden = dict(result.catalog.hidden)
    hidden[kind] = result.catalog.hidden_ids(kind) | {record_id}
    return write_hidden(user_dir if user_dir is not None else paths.user_catalog_dir(), hidden, force)


def unhide_record(kind: RecordKind, record_id: str, *, user_dir: Path | None = None, force: bool = False) -> Path:
    kind = RecordKind(kind)
    root = user_dir if user_dir is not None else paths.user_catalog_dir()
    hidden, _ = parse_hidden_file(root / HIDDEN_FILE)
    if record_id not in hidden.get(kind, frozenset()):
        raise UnknownRecord(kind, record_id, "not hidden")
    hidden[kind] = hidden[kind] - {record_id}
    return write_hidden(root, hidden, force)


def reset_record(
    kind: RecordKind, record_id: str, *, shipped_dir: Path | None = None, user_dir: Path | None = None,
    force: bool = False,
) -> list[str]:
    """Back to the shipped record: the user's override removed (kept as .bak), unhidden."""
    kind = RecordKind(kind)
    catalog = load_catalog(shipped_dir, user_dir, migrate_user_files=False).catalog
    if record_id not in catalog.shipped.of(kind):
        raise UnknownRecord(kind, record_id, "no shipped record to reset to")
    done = []
    if record_id in catalog.user.of(kind) or user_record_path(kind, record_id, user_dir).exists():
        done.append(f"removed the user's version (kept as {remove_record(kind, record_id, user_dir=user_dir, force=force)})")
    if record_id in catalog.hidden_ids(kind):
        unhide_record(kind, record_id, user_dir=user_dir, force=force)
        done.append("unhid it")
    return done
