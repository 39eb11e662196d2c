"""Export and import the user's catalog as one JSON file (a *bundle*).

Format::

    {"format": "llm-advisor-catalog-bundle", "schema_version": 1,
     "records": {"gpu": [<record>, …], "build": […], …},
     "hidden": {"gpu": ["<shipped id>", …], …}}

Import is all or nothing: it validates every record first and saves nothing if any fails. A
record whose id the user catalog already holds with different content is a *conflict*: with a
conflict (and no ``replace``) nothing is imported either, records and hidden ids alike (an import
that reported a conflict used to save the rest, and its exit status said it failed). What is
imported is written as one journaled step (``storage.journal``): a kill at any moment leaves the
whole bundle or none of it. The user's files are compared outside the catalog lock; under it,
those the import writes are read again, and if one changed meanwhile the comparison is made again.
Export refuses to replace an existing file unless ``overwrite`` (then the old one is kept as ``.bak``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from advisor.core import SCHEMA_VERSION, Catalog, CatalogRecord, RecordKind, kind_of
from advisor.storage import catalog_store as store
from advisor.storage import journal, paths
from advisor.storage.atomic import atomic_write_text
from advisor.storage.catalog_store import LoadProblem
from advisor.storage.catalog_store.files import read_bytes

BUNDLE_FORMAT = "llm-advisor-catalog-bundle"
#: Every user record of a large catalog, with prices: well under this.
MAX_BUNDLE_BYTES = 50_000_000


def bundle_json(catalog: Catalog) -> str:
    """The user's records and hidden ids of ``catalog`` as bundle text."""
    records: dict[str, list[Any]] = {}
    for kind in RecordKind:
        items = [json.loads(store.record_json(r)) for _, r in sorted(catalog.user.of(kind).items())]
        if items:
            records[kind.value] = items
    hidden = {k.value: sorted(ids) for k, ids in sorted(catalog.hidden.items()) if ids}
    doc = {"format": BUNDLE_FORMAT, "schema_version": SCHEMA_VERSION, "records": records, "hidden": hidden}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


class ExportRefused(store.CatalogStoreError):
    """The export target exists (and ``overwrite`` was not given) or is not a regular file."""


def export_bundle(path: Path, catalog: Catalog, *, overwrite: bool = False) -> int:
    """Write the bundle atomically; returns how many records it holds.

    An existing file is replaced only with ``overwrite`` (its old bytes kept as ``.bak``),
    and only when it is a regular file: never silently.
    """
    path = Path(path)
    if path.exists() or path.is_symlink():
        if not overwrite:
            raise ExportRefused(f"{path} exists: not overwritten (give --overwrite; the old file is then kept as .bak)")
        if path.is_symlink() or not path.is_file():
            raise ExportRefused(f"{path} is not a regular file: not overwritten")
    atomic_write_text(path, bundle_json(catalog), backup=True)
    return len(catalog.user)


@dataclass
class Bundle:
    records: list[CatalogRecord] = field(default_factory=list)
    hidden: dict[RecordKind, frozenset[str]] = field(default_factory=dict)
    problems: list[LoadProblem] = field(default_factory=list)


def _records(path: Path, records: Any, out: Bundle) -> None:
    if not isinstance(records, dict):
        out.problems.append(LoadProblem(path, None, "records", "expected an object of kind → list of records"))
        return
    seen: set[tuple[RecordKind, str]] = set()
    for key, items in records.items():
        if key not in RecordKind.__members__.values() or not isinstance(items, list):
            where = f"records.{key}" if key.isprintable() and len(key) <= 40 else f"records.{key[:40]!r}"  # one line
            out.problems.append(LoadProblem(path, None, where, "expected a known kind and a list"))
            continue
        for i, data in enumerate(items):
            read = store.parse_record(data, RecordKind(key), path, None)
            out.problems += [
                LoadProblem(p.path, p.record_id, f"records.{key}.{i}" + (f".{p.field}" if p.field else ""), p.message)
                for p in read.problems
            ]
            if read.record is None:
                continue
            if (RecordKind(key), read.record.id) in seen:
                out.problems.append(LoadProblem(path, read.record.id, f"records.{key}.{i}.id", "appears twice"))
            seen.add((RecordKind(key), read.record.id))
            out.records.append(read.record)


def read_bundle(path: Path) -> Bundle:
    """Parse and validate a bundle file; every fault is a problem, nothing raises."""
    path = Path(path)
    out = Bundle()
    data, problem = store.read_json(path, MAX_BUNDLE_BYTES)
    if problem:
        out.problems.append(LoadProblem(problem.path, None, None, problem.message))
        return out
    if not isinstance(data, dict) or data.get("format") != BUNDLE_FORMAT:
        out.problems.append(LoadProblem(path, None, "format", f"not a catalog bundle (expected format {BUNDLE_FORMAT!r})"))
        return out
    if type(data.get("schema_version")) is not int or data.get("schema_version") != SCHEMA_VERSION:  # not True, not 1.0
        msg = f"bundle schema_version {data.get('schema_version')!r}; this app reads {SCHEMA_VERSION}"
        out.problems.append(LoadProblem(path, None, "schema_version", msg))
        return out
    _records(path, data.get("records", {}), out)
    hidden, problems = store.parse_hidden(path, data)
    out.hidden, out.problems = hidden, out.problems + problems
    return out


@dataclass
class ImportReport:
    saved: list[tuple[RecordKind, str]] = field(default_factory=list)
    unchanged: list[tuple[RecordKind, str]] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    hidden_added: int = 0
    problems: list[LoadProblem] = field(default_factory=list)


@dataclass
class _Plan:
    report: ImportReport
    writes: dict[Path, bytes]
    #: The bytes of each file the import compared (None: absent), read again under the lock.
    seen: dict[Path, bytes | None]


def import_bundle(path: Path, *, user_dir: Path | None = None, replace: bool = False) -> ImportReport:
    """Validate the whole bundle, then save its records and hidden ids into the user catalog, or nothing."""
    bundle = read_bundle(path)
    if bundle.problems:
        return ImportReport(problems=bundle.problems)  # nothing saved: the bundle is all or nothing on validity
    root = user_dir if user_dir is not None else paths.user_catalog_dir()
    plan = _plan(bundle, root, replace)
    if plan.report.conflicts or not plan.writes:
        return plan.report
    with journal.catalog_lock(root):  # held for the write only; other commands and the editor wait that long
        if any(read_bytes(p) != before for p, before in plan.seen.items()):
            plan = _plan(bundle, root, replace)  # another process changed one of these files: compare again
            if plan.report.conflicts or not plan.writes:
                return plan.report
        try:
            journal.commit(root, plan.writes)
        except OSError as exc:
            plan.report.conflicts.append(f"nothing imported: could not save ({exc.strerror or exc})")
            plan.report.saved, plan.report.hidden_added = [], 0
    return plan.report


def _plan(bundle: Bundle, root: Path, replace: bool) -> _Plan:
    plan = _Plan(ImportReport(), {}, {})
    for record in bundle.records:
        _plan_one(record, root, replace, plan)
    _plan_hidden(bundle.hidden, root, plan)
    if plan.report.conflicts:  # all or nothing: a conflict imports nothing
        plan.writes, plan.report.saved, plan.report.hidden_added = {}, [], 0
    return plan


def _plan_one(record: CatalogRecord, root: Path, replace: bool, plan: _Plan) -> None:
    kind = kind_of(record)
    target = store.user_record_path(kind, record.id, root)
    raw = read_bytes(target) if os.path.lexists(target) else None
    plan.seen[target] = raw
    if os.path.lexists(target):
        current = store.read_record_file(target, kind)
        if current.record == record:
            plan.report.unchanged.append((kind, record.id))
            return
        if current.problems:  # never overwritten: perhaps the user's only copy of hand-edited data
            plan.report.conflicts.append(f"{kind.value} {record.id!r}: {target} currently fails validation "
                                         f"({current.problems[0].message}); fix or move it first")
            return
        if not replace:
            plan.report.conflicts.append(f"{kind.value} {record.id!r}: the user catalog has a different version ({target})")
            return
    plan.writes[target] = store.record_json(record).encode("utf-8")
    plan.report.saved.append((kind, record.id))


def _plan_hidden(hidden: dict[RecordKind, frozenset[str]], root: Path, plan: _Plan) -> None:
    target = root / store.HIDDEN_FILE
    plan.seen[target] = read_bytes(target) if os.path.lexists(target) else None
    current, problems = store.parse_hidden_file(target)
    merged = {k: current.get(k, frozenset()) | hidden.get(k, frozenset()) for k in RecordKind}
    added = sum(len(merged[k]) - len(current.get(k, frozenset())) for k in RecordKind)
    if not added:
        return
    if problems:
        plan.report.conflicts.append(f"hidden ids not imported: {problems[0]}")
        return
    plan.writes[target] = store.hidden_json(merged).encode("utf-8")
    plan.report.hidden_added = added
