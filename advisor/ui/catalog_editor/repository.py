"""The editor's one doorway to the user's catalog on disk.

Every write goes through ``advisor.storage.catalog_store`` (atomic, previous file kept as
``.bak``, a file that fails validation refused unless ``force``). On top of that this
module remembers the bytes of each user file as the editor last loaded or wrote them, so
a save over a file another window (or ``llm-advisor catalog add``) changed meanwhile is
detected and asked about instead of silently winning.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from advisor.core import Catalog, CatalogRecord, RecordKind
from advisor.storage import catalog_store as store
from advisor.storage import paths
from advisor.storage.atomic import atomic_write_bytes, backup_path, copy_aside
from advisor.storage.catalog_store.files import MAX_FILE_BYTES, listed_files, read_file_bytes
from advisor.storage.safe_read import read_bytes_limited


class ChangedOnDisk(store.CatalogStoreError):
    """The file to write is no longer the version the editor loaded (someone else saved)."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} changed on disk since the editor loaded it")
        self.path = path


@dataclass(frozen=True)
class UserState:
    """What the user's layer says about one (kind, id): their record (or None) and hidden-ness."""

    record: CatalogRecord | None
    hidden: bool


def _read_bytes(path: Path) -> bytes | None:
    """A user file's bytes, bounded: a FIFO or a link to /dev/zero is refused, never read."""
    try:
        return read_bytes_limited(path, MAX_FILE_BYTES)
    except OSError:  # absent, refused or unreadable: treated as absent, the store reports it
        return None


class CatalogRepository:
    """Loads the catalog and applies user-layer states with conflict detection."""

    def __init__(self, user_dir: Path | None = None, shipped_dir: Path | None = None) -> None:
        self.user_dir = Path(user_dir) if user_dir is not None else paths.user_catalog_dir()
        self.shipped_dir = shipped_dir
        self.catalog = Catalog()
        self.problems: list[store.LoadProblem] = []
        self._known: dict[Path, bytes | None] = {}

    # --- reading ----------------------------------------------------------------------
    def load(self) -> Catalog:
        """Reload everything and remember the bytes of every user file as the loaded version."""
        # The bytes the load validated, not a second read of every file (10,000 of them in a large catalog).
        result = store.load_catalog(self.shipped_dir, self.user_dir, keep_user_bytes=True)
        self.catalog, self.problems = result.catalog, list(result.problems)
        self._known = dict(result.user_bytes)
        self._known[self.hidden_path] = _read_bytes(self.hidden_path)
        return self.catalog

    @property
    def hidden_path(self) -> Path:
        return self.user_dir / store.HIDDEN_FILE

    def path_of(self, kind: RecordKind, record_id: str) -> Path:
        return store.user_record_path(kind, record_id, self.user_dir)

    def user_files(self) -> list[Path]:
        return [p for k in RecordKind for p in store.record_files(self.user_dir / k.folder)]

    def changed_files(self) -> list[Path]:
        """User files whose bytes differ from the version last loaded or written here."""
        # Read as the loader reads them (the listing's file type, no second stat): 10,000 files in a large catalog.
        now = {path: read_file_bytes(path, listed_regular=plain)[0]
               for k in RecordKind for path, plain in listed_files(self.user_dir / k.folder)}
        now[self.hidden_path] = _read_bytes(self.hidden_path)
        paths_ = set(now) | set(self._known)
        return sorted(p for p in paths_ if now.get(p) != self._known.get(p))

    def state(self, kind: RecordKind, record_id: str) -> UserState:
        return UserState(self.catalog.user.of(kind).get(record_id), record_id in self.catalog.hidden_ids(kind))

    def problem_paths(self) -> set[Path]:
        return {p.path for p in self.problems}

    # --- writing ----------------------------------------------------------------------
    def _check_unchanged(self, path: Path) -> None:
        if _read_bytes(path) != self._known.get(path):
            raise ChangedOnDisk(path)

    def _remember(self, path: Path) -> None:
        self._known[path] = _read_bytes(path)

    def apply(self, kind: RecordKind, record_id: str, target: UserState, *,
              overwrite_changed: bool = False, force: bool = False) -> None:
        """Make the user layer say ``target`` about (kind, id); write only what differs.

        Raises ``ChangedOnDisk`` (unless ``overwrite_changed``) when a file to touch is not
        the loaded version, and ``store.RefusedOverwrite`` (unless ``force``) when it
        currently fails validation.
        """
        kind = RecordKind(kind)
        current = self.state(kind, record_id)
        path = self.path_of(kind, record_id)
        if target.record != current.record or (target.record is None and path.exists()):
            if not overwrite_changed:
                self._check_unchanged(path)
            if target.record is not None:
                store.save_record(target.record, user_dir=self.user_dir, force=force)
            elif path.exists():
                store.remove_record(kind, record_id, user_dir=self.user_dir, force=force)
            self._remember(path)
        if target.hidden != current.hidden:
            if not overwrite_changed:
                self._check_unchanged(self.hidden_path)
            # Start from the file as it is now: an accepted overwrite still keeps others' ids.
            # Applied to hidden.json as re-read under the catalog lock: another process may have written it.
            def change(hidden):
                ids = hidden.get(kind, frozenset())
                hidden[kind] = ids | {record_id} if target.hidden else ids - {record_id}
                return hidden

            store.update_hidden(self.user_dir, change, force)
            self._remember(self.hidden_path)
        # The reload also shows what others saved meanwhile: the view is the disk again.
        self.load()

    # --- backups ------------------------------------------------------------------------
    @staticmethod
    def backup_of(path: Path) -> Path:
        return backup_path(path)

    def restore_backup(self, path: Path) -> Path:
        """Put ``<path>.bak`` back in place; the current bytes are first kept as ``.corrupt.bak``."""
        bak = backup_path(path)
        data = bak.read_bytes()
        if path.exists():
            copy_aside(path, ".corrupt.bak")
        atomic_write_bytes(path, data, backup=False)
        self._remember(path)
        return path
