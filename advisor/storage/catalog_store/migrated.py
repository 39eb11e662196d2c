"""User records of an older schema, saved in the current one after a backup of each original."""

from __future__ import annotations

from pathlib import Path

from advisor.core import CatalogRecord, kind_of
from advisor.storage.atomic import atomic_write_text, copy_aside
from advisor.storage.catalog_store.problems import LoadProblem
from advisor.storage.catalog_store.records import read_record_file, record_json
from advisor.storage.journal import catalog_lock


def write_migrated(root: Path, migrated: list[tuple[Path, CatalogRecord, int]]) -> list[LoadProblem]:
    """Save records read in an older schema, each original first copied to ``.v<N>.bak``."""
    problems = []
    try:
        with catalog_lock(root):
            for path, record, version in migrated:
                again = read_record_file(path, kind_of(record))  # another process may have migrated it
                if again.record != record or again.from_version != version:
                    continue
                try:
                    copy_aside(path, f".v{version}.bak")
                    atomic_write_text(path, record_json(record), backup=False)
                except OSError as exc:
                    # The record is loaded from memory either way; the file stays as it was.
                    problems.append(LoadProblem(path, record.id, "schema_version",
                                                f"migrated in memory, not saved: {exc}"))
    except OSError as exc:  # the lock itself (a read-only folder, a timeout)
        problems.append(LoadProblem(root, None, "schema_version", f"old records migrated in memory, not saved: {exc}"))
    return problems
