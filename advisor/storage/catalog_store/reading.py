"""Load the shipped catalog and the user's overlay into one ``Catalog``; problems listed, never raised.

Layout (shipped ``catalog/`` and the user's ``paths.user_catalog_dir()`` alike): one
folder per kind (``gpus/ builds/ systems/ cloud/ models/``), one ``<id>.json`` per record,
and in the user's folder ``hidden.json``. Each file that fails is a ``LoadProblem`` (path,
id, field, message), is left untouched, and the rest still loads.
"""

from __future__ import annotations

import gc
import hashlib
import os
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from advisor.core import SCHEMA_VERSION, Catalog, CatalogLayer, CatalogRecord, RecordKind, dangling_references
from advisor.storage import journal, paths, shipped
from advisor.storage.catalog_store.files import listed_files, read_bytes, read_file_bytes, record_files
from advisor.storage.catalog_store.hidden import HIDDEN_FILE, parse_hidden_file
from advisor.storage.catalog_store.migrated import write_migrated
from advisor.storage.catalog_store.problems import LoadProblem, RecordRead
from advisor.storage.catalog_store.records import record_from_bytes


@dataclass(frozen=True)
class LoadResult:
    catalog: Catalog
    problems: list[LoadProblem]
    #: With ``load_catalog(..., keep_user_bytes=True)``: each user record file's bytes as read
    #: (None when it could not be read), so a caller can tell later edits apart without a second read.
    user_bytes: dict[Path, bytes | None] = field(default_factory=dict)


@dataclass
class _Layer:
    records: dict[RecordKind, dict[str, CatalogRecord]]
    problems: list[LoadProblem]
    paths: dict[tuple[RecordKind, str], Path]
    migrated: list[tuple[Path, CatalogRecord, int]]
    raw: dict[Path, bytes | None] = field(default_factory=dict)


def _empty_layer() -> _Layer:
    return _Layer({k: {} for k in RecordKind}, [], {}, [])


#: A layer of at least this many record files is frozen out of the garbage collector's reach
#: once read (``_collector_paused``); the shipped catalog (about 300 files) and small user catalogs
#: are not (below this the collector's passes over the records cost little).
FREEZE_AT_FILES = 2_000


@contextmanager
def _collector_paused(freeze: bool) -> Iterator[None]:
    """No cyclic garbage collection while a layer's files are validated; a large layer frozen after.

    Validation allocates about 22 container objects per record and keeps them (the records), so
    the collector, started by allocation counts, went again and again over a heap that grows with
    the catalog: a 10,000-record user catalog took 13x the CPU time of a 1,000-record one, and each
    full collection afterwards (in the window too) went over those 220,000 objects again.

    The records are frozen pydantic models without reference cycles: reference counting frees
    them when a catalog is dropped, collected or not, so the collector has nothing to find among
    them. With ``freeze``, garbage is collected first (so none is pinned), then ``gc.freeze()``
    moves what is alive into the permanent generation (CPython docs, ``gc.freeze``: for long-lived
    objects), and the collector is back on as before.
    """
    was_enabled = gc.isenabled()
    if freeze:
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_enabled:
            gc.enable()


#: Per folder (the latest few): each record file's kind, the BLAKE2b digest of its bytes and what
#: reading them gave. A file whose bytes hash as at the last load is not parsed and validated again
#: (the editor's save reloads the catalog, then the window reloads it: 10,000 unchanged
#: files each time in a large catalog); the bytes are still read and hashed in full, so an edit of any kind is seen. A
#: 128-bit digest, not the bytes: 10,000 records' 15 MB kept alive slowed the load itself.
_parsed: dict[Path, dict[Path, tuple[RecordKind, bytes, RecordRead]]] = {}
_PARSED_FOLDERS = 4


def _digest(raw: bytes) -> bytes:
    return hashlib.blake2b(raw, digest_size=16).digest()


def _load_layer(root: Path, *, keep_bytes: bool = False, kinds: frozenset[RecordKind] | None = None,
                ids: Mapping[RecordKind, Collection[str]] | None = None) -> _Layer:
    layer = _empty_layer()
    listings: dict[RecordKind, list[tuple[Path, bool]] | LoadProblem] = {}
    for kind in RecordKind if kinds is None else kinds:
        folder = root / kind.folder
        if folder.exists() and not folder.is_dir():  # a file where a folder belongs: said, not ignored
            listings[kind] = LoadProblem(folder, None, None, f"should be the folder of {kind.value} records "
                                         "but is a file: its records cannot load; move it aside")
        else:
            listed = listed_files(folder)
            if ids is not None and kind in ids:  # only these records' files (a file is named by its record's id)
                wanted = {os.path.normcase(f"{rid}.json") for rid in ids[kind]}
                listed = [(p, plain) for p, plain in listed if os.path.normcase(p.name) in wanted]
            listings[kind] = listed
    count = sum(len(files) for files in listings.values() if isinstance(files, list))
    before = _parsed.pop(root, {})
    now = {} if kinds is None else {p: entry for p, entry in before.items() if entry[0] not in kinds}  # kept for later
    with _collector_paused(freeze=count >= FREEZE_AT_FILES):
        for kind, files in listings.items():
            if isinstance(files, LoadProblem):
                layer.problems.append(files)
            else:
                _read_kind(kind, files, layer, keep_bytes, before, now)
    _parsed[root] = now
    while len(_parsed) > _PARSED_FOLDERS:
        del _parsed[next(iter(_parsed))]
    return layer


def _read_kind(kind: RecordKind, files: list[tuple[Path, bool]], layer: _Layer, keep_bytes: bool,
               before: dict[Path, tuple[RecordKind, bytes, RecordRead]],
               now: dict[Path, tuple[RecordKind, bytes, RecordRead]]) -> None:
    for path, listed_regular in files:
        raw, problem = read_file_bytes(path, listed_regular=listed_regular)
        if problem:
            read = RecordRead(None, [problem])
        else:
            digest, last = _digest(raw), before.get(path)
            read = last[2] if last is not None and last[0] is kind and last[1] == digest else record_from_bytes(path, kind, raw)
            now[path] = (kind, digest, read)
        layer.problems.extend(read.problems)
        if keep_bytes:
            layer.raw[path] = raw
        if read.record is not None:
            layer.records[kind][read.record.id] = read.record
            layer.paths[(kind, read.record.id)] = path
            if read.from_version is not None and read.from_version < SCHEMA_VERSION:
                layer.migrated.append((path, read.record, read.from_version))


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


def shipped_ids(kind: RecordKind, shipped_dir: Path | None = None) -> frozenset[str]:
    """Ids of the shipped records of ``kind`` (the cached shipped layer; the user's catalog is not read)."""
    root = shipped_dir if shipped_dir is not None else _default_shipped()
    if root is None or not root.is_dir():
        return frozenset()
    return frozenset(_load_shipped(root).records[RecordKind(kind)])


def load_catalog(
    shipped_dir: Path | None = None, user_dir: Path | None = None, *, migrate_user_files: bool = True,
    keep_user_bytes: bool = False, kinds: Iterable[RecordKind] | None = None,
    ids: Mapping[RecordKind, Collection[str]] | None = None,
) -> LoadResult:
    """Shipped catalog + the user's overlay; problems are listed, never raised.

    User files of an older schema are migrated: the original is copied to
    ``<id>.json.v<N>.bak`` first, then the migrated record is written atomically.
    ``keep_user_bytes`` fills ``LoadResult.user_bytes`` (a migrated file: its bytes as migrated).
    ``kinds``: read only the user's records of these kinds (a model preset needs no GPU; 20,000 user
    records took 440 MB to find one model). ``ids``: of these kinds, read only the user's records of
    these ids (an estimate on one GPU reads that GPU's file, not the 20,000 others). With either,
    references between records are not checked (the catalog is partial).
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
    if os.path.lexists(user_root) and not user_root.is_dir():  # was silent: no record loaded, no word said
        problems.append(LoadProblem(user_root, None, None, "should be the folder of your catalog but is not a "
                                    "folder: your records and hidden ids cannot load; move it aside"))
    else:
        problems += _finish_interrupted_import(user_root)
    only = None if kinds is None else frozenset(RecordKind(k) for k in kinds)
    user = _load_layer(user_root, keep_bytes=keep_user_bytes, kinds=only, ids=ids)
    partial = only is not None or ids is not None
    hidden, hidden_problems = parse_hidden_file(user_root / HIDDEN_FILE)
    problems += ship.problems + user.problems + hidden_problems
    if migrate_user_files and user.migrated:
        problems += write_migrated(user_root, user.migrated)
        if keep_user_bytes:
            user.raw.update({path: read_bytes(path) for path, _, _ in user.migrated})
    catalog = Catalog(shipped=_as_layer(ship), user=_as_layer(user), hidden=hidden)
    file_of = {**ship.paths, **user.paths}
    for kind, rid, field_name, message in dangling_references(catalog) if not partial else ():
        problems.append(LoadProblem(file_of.get((kind, rid), Path(kind.folder)), rid, field_name, message))
    return LoadResult(catalog, problems, user.raw)


def _finish_interrupted_import(root: Path) -> list[LoadProblem]:
    """An import killed mid-way is finished (committed) or dropped (not) before the user's files are read."""
    if not journal.pending(root):
        return []
    try:
        with journal.catalog_lock(root):
            pass  # taking the lock recovers
    except OSError as exc:  # a damaged journal (kept aside), a read-only folder, a lock timeout
        return [LoadProblem(root / journal.JOURNAL, None, None, f"an interrupted import: {exc}")]
    return []


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
