"""Change the user's catalog: save, remove, hide, unhide, reset — each under the catalog lock.

Every change takes ``locking.locked(user catalog folder)`` and re-reads what it changes
under it, so two processes (two CLI commands, the window's editor and the CLI) never lose
each other's edits. Writes are atomic and keep the previous version as
``<id>.json.bak``; a file that currently fails validation (perhaps the user's only copy of
hand-edited data) is not overwritten unless ``force``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from advisor.core import CatalogRecord, RecordKind, UnknownRecord, kind_of
from advisor.storage import paths
from advisor.storage.atomic import atomic_write_text, remove_with_backup
from advisor.storage.catalog_store.hidden import HIDDEN_FILE, Hidden, hidden_json, parse_hidden_file
from advisor.storage.catalog_store.problems import CatalogStoreError, RefusedOverwrite
from advisor.storage.catalog_store.reading import shipped_ids
from advisor.storage.catalog_store.records import read_record_file, record_json
from advisor.storage.journal import catalog_lock


def _root(user_dir: Path | None) -> Path:
    return user_dir if user_dir is not None else paths.user_catalog_dir()


def user_record_path(kind: RecordKind, record_id: str, user_dir: Path | None = None) -> Path:
    return _root(user_dir) / RecordKind(kind).folder / f"{record_id}.json"


def _refuse_if_invalid(path: Path, kind: RecordKind | None, force: bool) -> None:
    if force or not (path.exists() or path.is_symlink()):
        return
    problems = parse_hidden_file(path)[1] if kind is None else read_record_file(path, kind).problems
    if problems:
        raise RefusedOverwrite(
            f"{path} currently fails validation ({problems[0].field or 'file'}: {problems[0].message}); "
            "not overwritten — fix or move it, or force"
        )


def _write(path: Path, text: str, verb: str = "save") -> None:
    try:
        atomic_write_text(path, text)
    except OSError as exc:
        raise CatalogStoreError(f"{path}: could not {verb}: {exc.strerror or exc}") from exc


def save_record(record: CatalogRecord, *, user_dir: Path | None = None, force: bool = False) -> Path:
    """Write ``record`` into the user's catalog (atomic; the previous file kept as ``.bak``)."""
    kind = kind_of(record)
    path = user_record_path(kind, record.id, user_dir)
    with catalog_lock(_root(user_dir)):
        _refuse_if_invalid(path, kind, force)
        _write(path, record_json(record))
    return path


def remove_record(kind: RecordKind, record_id: str, *, user_dir: Path | None = None, force: bool = False) -> Path:
    """Remove a user record: the file becomes ``<id>.json.bak``; returns that path.

    With ``force`` a file that fails validation is removed too (its id is the file name).
    """
    path = user_record_path(kind, record_id, user_dir)
    with catalog_lock(_root(user_dir)):
        if not (path.exists() or path.is_symlink()):
            raise UnknownRecord(kind, record_id, "not in the user catalog")
        _refuse_if_invalid(path, kind, force)
        try:
            return remove_with_backup(path)
        except OSError as exc:
            raise CatalogStoreError(f"{path}: could not remove: {exc.strerror or exc}") from exc


def write_hidden(root: Path, hidden: Hidden, force: bool = False) -> Path:
    """Replace ``hidden.json`` by ``hidden`` (callers that change it use ``update_hidden``)."""
    path = root / HIDDEN_FILE
    with catalog_lock(root):
        _refuse_if_invalid(path, None, force)
        _write(path, hidden_json(hidden))
    return path


def update_hidden(root: Path, change: Callable[[Hidden], Hidden], force: bool = False) -> Path:
    """Read ``hidden.json`` under the lock, apply ``change``, write it back: no concurrent edit is lost."""
    with catalog_lock(root):
        current, _ = parse_hidden_file(root / HIDDEN_FILE)  # a file that fails is refused by write_hidden
        return write_hidden(root, change(dict(current)), force)


def hide_record(
    kind: RecordKind, record_id: str, *, shipped_dir: Path | None = None, user_dir: Path | None = None,
    force: bool = False,
) -> Path:
    """Hide a shipped record (written to ``hidden.json``)."""
    kind = RecordKind(kind)
    root = _root(user_dir)
    if record_id not in shipped_ids(kind, shipped_dir):  # the shipped layer alone: the user's is not read again
        raise UnknownRecord(kind, record_id, "not a shipped record; only those can be hidden")

    def add(hidden: Hidden) -> Hidden:
        return {**hidden, kind: hidden.get(kind, frozenset()) | {record_id}}

    return update_hidden(root, add, force)


def unhide_record(kind: RecordKind, record_id: str, *, user_dir: Path | None = None, force: bool = False) -> Path:
    kind = RecordKind(kind)
    root = _root(user_dir)
    with catalog_lock(root):
        hidden, _ = parse_hidden_file(root / HIDDEN_FILE)
        if record_id not in hidden.get(kind, frozenset()):
            raise UnknownRecord(kind, record_id, "not hidden")
        return update_hidden(root, lambda h: {**h, kind: h.get(kind, frozenset()) - {record_id}}, force)


def reset_record(
    kind: RecordKind, record_id: str, *, shipped_dir: Path | None = None, user_dir: Path | None = None,
    force: bool = False,
) -> list[str]:
    """Back to the shipped record: the user's override removed (kept as .bak), unhidden."""
    kind = RecordKind(kind)
    root = _root(user_dir)
    with catalog_lock(root):
        # Only what this record needs, read under the lock (not the whole catalog again):
        # the shipped ids, the user's file (a user record of this id is this file) and hidden.json.
        if record_id not in shipped_ids(kind, shipped_dir):
            raise UnknownRecord(kind, record_id, "no shipped record to reset to")
        done = []
        if user_record_path(kind, record_id, root).exists():
            backup = remove_record(kind, record_id, user_dir=root, force=force)
            done.append(f"removed the user's version (kept as {backup})")
        if record_id in parse_hidden_file(root / HIDDEN_FILE)[0].get(kind, frozenset()):
            unhide_record(kind, record_id, user_dir=root, force=force)
            done.append("unhid it")
    return done
