"""Load the shipped catalog and the user's overlay into one ``Catalog``; problems listed, never raised.

Layout (shipped ``catalog/`` and the user's ``paths.user_catalog_dir()`` alike): one
folder per kind (``gpus/ builds/ systems/ cloud/ models/``), one ``<id>.json`` per record,
and in the user's folder ``hidden.json``. Each file that fails is a ``LoadProblem`` (path,
id, field, message), is left untouched, and the rest still loads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from advisor.core.hardware.catalog import (
    Catalog,
    CatalogLayer,
    CatalogRecord,
    RecordKind,
    dangling_references,
)
from advisor.core.schema import SCHEMA_VERSION
from advisor.storage import paths, shipped
from advisor.storage.catalog_store.files import record_files
from advisor.storage.catalog_store.hidden import HIDDEN_FILE, parse_hidden_file
from advisor.storage.catalog_store.migrated import write_migrated
from advisor.storage.catalog_store.problems import LoadProblem
from advisor.storage.catalog_store.records import read_record_file


@dataclass(frozen=True)
class LoadResult:
    catalog: Catalog
    problems: list[LoadProblem]


@dataclass
class _Layer:
    records: dict[RecordKind, dict[str, CatalogRecord]]
    problems: list[LoadProblem]
    paths: dict[tuple[RecordKind, str], Path]
    migrated: list[tuple[Path, CatalogRecord, int]]


def _empty_layer() -> _Layer:
    return _Layer({k: {} for k in RecordKind}, [], {}, [])


def _load_layer(root: Path) -> _Layer:
    layer = _empty_layer()
    for kind in RecordKind:
        folder = root / kind.folder
        if folder.exists() and not folder.is_dir():  # issue 19: was ignored without a word
            layer.problems.append(LoadProblem(folder, None, None, f"should be the folder of {kind.value} records "
                                              "but is a file: its records cannot load; move it aside"))
            continue
        for path in record_files(folder):
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
        for p in record_files(root / kind.folder):
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
        ship = _empty_layer()
    else:
        ship = _load_shipped(shipped_root)
    user_root = user_dir if user_dir is not None else paths.user_catalog_dir()
    user = _load_layer(user_root)
    hidden, hidden_problems = parse_hidden_file(user_root / HIDDEN_FILE)
    problems += ship.problems + user.problems + hidden_problems
    if migrate_user_files and user.migrated:
        problems += write_migrated(user_root, user.migrated)
    catalog = Catalog(shipped=_as_layer(ship), user=_as_layer(user), hidden=hidden)
    where = {**ship.paths, **user.paths}
    for kind, rid, field, message in dangling_references(catalog):
        problems.append(LoadProblem(where.get((kind, rid), Path(kind.folder)), rid, field, message))
    return LoadResult(catalog, problems)


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
