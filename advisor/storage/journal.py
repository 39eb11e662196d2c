"""Write several files of one folder as one step: all of them or none, even when the process is killed.

A price or bundle import writes many record files; written one by one, a ``kill -9`` left some
written and some not (46 of 55 killed imports were partial). Here an import is

1. *staged*: every new file's bytes go to ``<root>/.journal.d/`` (flushed to disk);
2. *committed*: ``<root>/.journal.json``, naming each staged file and its target, appears by one
   atomic rename. Before it exists nothing has happened; once it exists the import will happen;
3. *applied*: each staged file is renamed onto its target (the previous version kept as
   ``<name>.bak``, as every save does), then the journal and the stage are removed.

A process killed in step 1 leaves a stage without a journal: ``recover`` removes it. Killed in
step 3, it leaves a journal: ``recover`` applies what is left (a staged file already renamed is
done). ``recover`` runs before the user's catalog is read (``load_catalog``) and whenever the
catalog lock is taken (``catalog_lock``), so no reader sees half an import and no later save is
overwritten by an old one. Callers hold the catalog lock for ``commit``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from advisor.storage import json_text
from advisor.storage.atomic import atomic_write_bytes, backup_path, fsync_dir, keep_aside, write_synced
from advisor.storage.locking import locked
from advisor.storage.safe_read import read_bytes_limited

JOURNAL = ".journal.json"
STAGE = ".journal.d"
#: The journal lists at most one entry per record file plus hidden.json: a few MB at 10,000 records.
MAX_JOURNAL_BYTES = 50_000_000
MAX_BACKUP_BYTES = 200_000_000


class JournalError(OSError):
    """A journal that cannot be applied (damaged by hand); it and its stage are kept aside, not applied."""


def pending(root: Path) -> bool:
    """A journal or a stage is there (two ``lstat`` calls: cheap enough for every catalog load)."""
    return os.path.lexists(root / JOURNAL) or os.path.lexists(root / STAGE)


def commit(root: Path, files: dict[Path, bytes]) -> None:
    """Replace every ``path`` in ``files`` (inside ``root``) by its bytes: all, or (killed before the
    commit) none. The caller holds the catalog lock (``catalog_lock(root)``)."""
    root = Path(root)
    recover(root)
    if not files:
        return
    stage = root / STAGE
    stage.mkdir(parents=True, exist_ok=True)
    entries = []
    for i, (target, data) in enumerate(files.items()):
        relative = Path(target).relative_to(root)  # ValueError for a path outside root: a caller's bug
        name = f"{i}.staged"
        write_synced(stage / name, data)
        entries.append({"target": relative.as_posix(), "staged": name})
    fsync_dir(stage)
    body = (json.dumps({"entries": entries}, indent=1) + "\n").encode("utf-8")
    atomic_write_bytes(root / JOURNAL, body, backup=False)  # the commit: one rename, made durable
    _apply(root, entries)


def _checked_entries(root: Path, doc: object) -> list[dict[str, str]]:
    entries = doc.get("entries") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        raise JournalError(f"{root / JOURNAL}: not a journal this program wrote")
    out = []
    for e in entries:
        target, staged = (e.get("target"), e.get("staged")) if isinstance(e, dict) else (None, None)
        if not (isinstance(target, str) and isinstance(staged, str) and staged.endswith(".staged")
                and "/" not in staged and "\\" not in staged and not target.startswith("/")
                and ".." not in Path(target).parts and target):
            raise JournalError(f"{root / JOURNAL}: an entry names a file outside the catalog")
        out.append({"target": target, "staged": staged})
    return out


def _apply(root: Path, entries: list[dict[str, str]]) -> None:
    stage = root / STAGE
    folders = set()
    for e in entries:
        staged, target = stage / e["staged"], root / e["target"]
        if not os.path.lexists(staged):
            continue  # renamed onto its target before the kill
        target.parent.mkdir(parents=True, exist_ok=True)
        if os.path.isfile(target):  # the previous version, as every save keeps it
            atomic_write_bytes(backup_path(target), read_bytes_limited(target, MAX_BACKUP_BYTES), backup=False)
        os.replace(staged, target)
        folders.add(target.parent)
    for folder in folders:
        fsync_dir(folder)
    os.unlink(root / JOURNAL)
    fsync_dir(root)
    shutil.rmtree(stage, ignore_errors=True)


def recover(root: Path) -> None:
    """Finish a committed import (its journal is there) or drop an uncommitted one (only its stage is).

    The caller holds the catalog lock. A journal this program could not have written (damaged by
    hand) is not applied: it and its stage are moved aside under dated names, and ``JournalError``
    says where (nothing is deleted)."""
    root = Path(root)
    journal, stage = root / JOURNAL, root / STAGE
    if os.path.lexists(journal):
        try:
            entries = _checked_entries(root, json_text.loads(read_bytes_limited(journal, MAX_JOURNAL_BYTES)))
        except (OSError, json_text.JSONTextError) as exc:
            kept = keep_aside(journal, ".bad", move=True)
            if os.path.lexists(stage):
                keep_aside(stage, ".bad", move=True)
            raise JournalError(f"{journal}: an unfinished import could not be completed "
                               f"({exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}); "
                               f"kept as {kept.name}") from None
        _apply(root, entries)
    elif os.path.lexists(stage):
        shutil.rmtree(stage, ignore_errors=True)  # killed before its commit: nothing happened
        if os.path.lexists(stage):  # not a folder (put there by hand): kept, never deleted
            keep_aside(stage, ".bad", move=True)


@contextmanager
def catalog_lock(root: Path) -> Iterator[Path]:
    """``locked(root)`` (the user catalog's lock), with an interrupted import finished or dropped first."""
    with locked(root) as lock:
        if pending(root):
            recover(root)
        yield lock
