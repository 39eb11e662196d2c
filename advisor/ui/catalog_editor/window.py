"""The catalog editor window: browse every kind, edit in a validating form, undo anything.

Every edit is a ``StateCommand`` on the window's ``QUndoStack`` (Ctrl+Z / Ctrl+Shift+Z
until the window closes); each writes through the storage layer via ``_apply``, which
asks before replacing a file someone else changed or a file that fails validation
(default No), then reloads the app's session so pickers, plots and the PDF see the edit.
A ``QFileSystemWatcher`` on the user catalog folders reloads when another window or the
CLI saves there.

Signals:
  catalog_saved()  an edit (or undo/redo) was written to disk
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, Qt, QTimer, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from advisor.core import CatalogRecord, Origin, RecordKind, UnknownRecord, kind_of
from advisor.storage import bundle
from advisor.storage import catalog_store as store
from advisor.ui.catalog_editor.actions import EditorActions, make_actions
from advisor.ui.catalog_editor.banners import ChangesBanner, ProblemsBanner
from advisor.ui.catalog_editor.columns import KIND_WORDS, TAB_TITLES
from advisor.ui.catalog_editor.commands import Change, StateCommand, hidden_changes, record_changes
from advisor.ui.catalog_editor.kind_tab import KindTab
from advisor.ui.catalog_editor.record_form import RecordForm
from advisor.ui.catalog_editor.repository import CatalogRepository, ChangedOnDisk, UserState
from advisor.ui.catalog_editor.window_size import restore_size, save_size

BUNDLE_FILTER = "Catalog bundle (*.json)"
WATCH_DEBOUNCE_MS = 250


class CatalogEditor(QMainWindow, EditorActions):
    catalog_saved = Signal()

    def __init__(self, session=None, repository: CatalogRepository | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window)
        self.setWindowTitle("Catalog editor")
        self.session = session
        self.repo = repository or CatalogRepository()
        self.repo.load()
        self.undo_stack = QUndoStack(self)
        self.problems = ProblemsBanner()
        self.problems.restore_requested.connect(self._on_restore_requested)
        self.changes = ChangesBanner()
        self.tabs = QTabWidget()
        self.forms = QStackedWidget()
        self.kind_tabs: dict[RecordKind, KindTab] = {}
        self.record_forms: dict[RecordKind, RecordForm] = {}
        for kind in RecordKind:
            self._add_kind(kind)
        self.tabs.currentChanged.connect(self.forms.setCurrentIndex)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.tabs)
        splitter.addWidget(self.forms)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([1000, 620])
        central = QWidget()
        lay = QVBoxLayout(central)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.problems)
        lay.addWidget(self.changes)
        lay.addWidget(splitter, 1)
        self.setCentralWidget(central)
        make_actions(self)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(self._on_directory_changed)
        self._watch_timer = QTimer(self, singleShot=True, interval=WATCH_DEBOUNCE_MS)
        self._watch_timer.timeout.connect(self.check_disk)
        self._refresh_views()
        restore_size(self)

    # --- building -------------------------------------------------------------------------
    def _add_kind(self, kind: RecordKind) -> None:
        tab = KindTab(kind, self.repo.catalog)
        form = RecordForm(kind, lambda k=kind: set(self.repo.catalog.of(k)))
        tab.selection_changed.connect(lambda record, k=kind: self._on_selection_changed(k, record))
        tab.model.on_edit = lambda _before, after: self.save_record(after)
        tab.model.edit_refused.connect(lambda msg: self.statusBar().showMessage(f"not changed: {msg}", 10000))
        form.save_requested.connect(self.save_record)
        self.kind_tabs[kind], self.record_forms[kind] = tab, form
        self.tabs.addTab(tab, TAB_TITLES[kind])
        self.forms.addWidget(form)

    # --- views ----------------------------------------------------------------------------
    @property
    def current_kind(self) -> RecordKind:
        return list(RecordKind)[self.tabs.currentIndex()]

    def _refresh_views(self) -> None:
        self._refreshing = True  # a reload re-selects rows: not the user choosing another record
        try:
            for tab in self.kind_tabs.values():
                tab.set_catalog(self.repo.catalog)
        finally:
            self._refreshing = False
        self.problems.set_problems(self.repo.problems)
        for kind, form in self.record_forms.items():
            if form.original is None:
                continue
            now = self.repo.catalog.of(kind).get(form.original.id)
            if not form.is_dirty():
                self._show_record(kind, now)  # the record as it is now, or an empty form where it went
            elif now is None:
                form.orphan()  # gone (an undone save): the user's edits stay, as a new record
        self._watch()
        self._update_actions()

    def _show_record(self, kind: RecordKind, record: CatalogRecord | None) -> None:
        form = self.record_forms[kind]
        if record is None:
            form.clear()
            return
        origin = self.repo.catalog.origin(kind, record.id)
        form.edit(record, origin, self.repo.catalog.shipped.of(kind).get(record.id) if origin is Origin.OVERRIDE else None)

    def _on_selection_changed(self, kind: RecordKind, record: CatalogRecord | None) -> None:
        if getattr(self, "_refreshing", False):
            self._update_actions()
            return
        form = self.record_forms[kind]
        same = record is not None and form.original is not None and form.original.id == record.id
        if form.is_dirty() and not same and not self.ask("Unsaved changes", "Discard the unsaved changes in the form?"):
            return
        if record is not None or not form.is_new:
            self._show_record(kind, record)
        self._update_actions()

    def _update_actions(self) -> None:
        record = self.kind_tabs[self.current_kind].selected() if self.kind_tabs else None
        origin = self.repo.catalog.origin(self.current_kind, record.id) if record is not None else None
        self.action_duplicate.setEnabled(record is not None)
        self.action_delete.setEnabled(record is not None)
        self.action_reset.setEnabled(origin is Origin.OVERRIDE)

    # --- asking ---------------------------------------------------------------------------
    def ask(self, title: str, text: str) -> bool:
        """Yes/No with No the default: nothing is overwritten on a stray Enter."""
        answer = QMessageBox.question(self, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def tell(self, title: str, text: str) -> None:
        QMessageBox.information(self, title, text)

    # --- writing --------------------------------------------------------------------------
    def _apply(self, kind: RecordKind, record_id: str, target: UserState) -> bool:
        """Write one state through the storage layer, asking where a file would be lost."""
        flags = {"overwrite_changed": False, "force": False}
        while True:
            try:
                self.repo.apply(kind, record_id, target, **flags)
                break
            except ChangedOnDisk as exc:
                if not self.ask("Changed on disk", f"{exc.path}\nwas changed by another window or program since the "
                                "editor loaded it. Replace it with this edit? (The other version is kept as .bak.)"):
                    self.reload("not saved: the file changed on disk; the editor now shows the version on disk")
                    return False
                flags["overwrite_changed"] = True
            except store.RefusedOverwrite as exc:
                if not self.ask("File fails validation", f"{exc}\n\nReplace it anyway? The current file is kept as .bak."):
                    self.statusBar().showMessage(f"not saved: {exc}", 15000)
                    return False
                flags["force"] = True
            except (store.CatalogStoreError, UnknownRecord, OSError) as exc:
                self.statusBar().showMessage(f"not saved: {exc}", 15000)
                self.reload()
                return False
        self._after_write()
        return True

    def _after_write(self) -> None:
        self._refresh_views()
        if self.session is not None:
            self.session.load_catalog()  # emits catalog_loaded: pickers, plots and the PDF follow
        self.catalog_saved.emit()

    def _push(self, changes: list[Change], text: str) -> bool:
        command = StateCommand(self._apply, changes, text)
        if not command.changes:
            return False
        self.undo_stack.push(command)  # runs redo(); a command that wrote nothing is dropped
        return command.done > 0

    def save_record(self, record: CatalogRecord) -> bool:
        """Save a validated record (new or edited) as one undoable step."""
        kind = kind_of(record)
        before = self.repo.state(kind, record.id)
        form = self.record_forms[kind]
        was_new = form.is_new
        ok = self._push([Change(kind, record.id, before, UserState(record, before.hidden))], f"save {KIND_WORDS[kind]} {record.id}")
        if ok:
            self.statusBar().showMessage(f"saved {KIND_WORDS[kind]} {record.id} to {self.repo.path_of(kind, record.id)}", 8000)
            if was_new or form.original is None or form.original.id == record.id:
                form.is_new = False
                self._show_record(kind, self.repo.catalog.of(kind).get(record.id))
            self.kind_tabs[kind].select(record.id)
        return ok

    def _selected(self) -> tuple[RecordKind, CatalogRecord | None]:
        kind = self.current_kind
        return kind, self.kind_tabs[kind].selected()

    def new_record(self) -> None:
        self.record_forms[self.current_kind].new()

    def duplicate_selected(self) -> None:
        kind, record = self._selected()
        if record is not None:
            self.record_forms[kind].new(record)

    def delete_selected(self) -> None:
        kind, record = self._selected()
        if record is None:
            return
        shipped = record.id in self.repo.catalog.shipped.of(kind)
        target = UserState(None, shipped)
        self._push([Change(kind, record.id, self.repo.state(kind, record.id), target)],
                   f"{'hide' if shipped else 'delete'} {KIND_WORDS[kind]} {record.id}")

    def reset_selected(self) -> None:
        kind, record = self._selected()
        if record is not None and record.id in self.repo.catalog.shipped.of(kind):
            self._push([Change(kind, record.id, self.repo.state(kind, record.id), UserState(None, False))],
                       f"reset {KIND_WORDS[kind]} {record.id}")

    def reset_all(self) -> None:
        cat = self.repo.catalog
        changes = [Change(k, rid, self.repo.state(k, rid), UserState(None, False))
                   for k in RecordKind for rid in sorted(set(cat.user.of(k)) | cat.hidden_ids(k))]
        if not changes:
            self.statusBar().showMessage("the catalog is already as shipped", 6000)
            return
        if self.ask("Reset all", f"Remove your {len(changes)} record(s), edits and hidden ids, back to the shipped "
                    "catalog? (Undo brings them back; each file is also kept as .bak.)"):
            self._push(changes, "reset the whole catalog")

    # --- bundles ----------------------------------------------------------------------------
    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export catalog bundle", "my-catalog.json", BUNDLE_FILTER)
        if path:
            self.export_to(Path(path))

    def export_to(self, path: Path) -> None:
        try:
            count = bundle.export_bundle(path, self.repo.catalog)
        except OSError as exc:
            self.statusBar().showMessage(f"not exported: {exc.strerror or exc}", 15000)
            return
        self.statusBar().showMessage(f"exported {count} record(s) to {path}", 8000)

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import catalog bundle", "", BUNDLE_FILTER)
        if path:
            self.import_from(Path(path))

    def import_from(self, path: Path) -> bool:
        """Validate the whole bundle, report conflicts, then save it as one undoable step."""
        read = bundle.read_bundle(path)
        if read.problems:
            lines = "\n".join(str(p) for p in read.problems[:12])
            self.tell("Nothing imported", f"{path} has {len(read.problems)} problem(s):\n{lines}")
            return False
        changes, conflicts = record_changes(self.repo, read.records)
        if conflicts and not self.ask("Import conflicts", f"{len(conflicts)} record(s) differ from yours:\n"
                                      + "\n".join(conflicts[:12]) + "\n\nReplace yours with the bundle's?"):
            changes = [c for c in changes if c.before.record is None]
        changes += hidden_changes(self.repo, read.hidden)
        done = self._push(changes, f"import {path.name}")
        skipped = len(conflicts) if conflicts and not any(c.before.record for c in changes) else 0
        self.statusBar().showMessage(f"imported {len(changes)} change(s) from {path.name}"
                                     + (f"; {skipped} conflict(s) left as yours" if skipped else ""), 10000)
        return done

    # --- backups and outside changes ---------------------------------------------------------
    def _on_restore_requested(self, path: Path) -> None:
        if not self.ask("Restore from backup", f"Replace\n{path}\nwith its backup {path.name}.bak?\n\n"
                        f"The current file is kept as {path.name}.corrupt.bak."):
            return
        try:
            self.repo.restore_backup(path)
        except OSError as exc:
            self.statusBar().showMessage(f"not restored: {exc.strerror or exc}", 15000)
            return
        self.reload(f"restored {path.name} from its backup")
        if self.session is not None:
            self.session.load_catalog()

    def _watch(self) -> None:
        folders = [self.repo.user_dir] + [self.repo.user_dir / k.folder for k in RecordKind]
        wanted = {str(f) for f in folders if f.is_dir()} - set(self.watcher.directories())
        if wanted:
            self.watcher.addPaths(sorted(wanted))

    def _on_directory_changed(self, _path: str) -> None:
        self._watch_timer.start()

    def check_disk(self) -> list[Path]:
        """Reload when files changed on disk behind the editor's back; asks if the form has edits."""
        changed = self.repo.changed_files()
        if not changed:
            self._watch()
            return []
        names = ", ".join(p.name for p in changed[:5]) + (" …" if len(changed) > 5 else "")
        dirty = [f for f in self.record_forms.values() if f.is_dirty()]
        if dirty and not self.ask("Changed on disk", f"{names} changed on disk (another window or the command line). "
                                  "Reload now? Your unsaved form edits stay in the form."):
            self.changes.say(f"Changed on disk: {names}. Not reloaded yet; saving will ask before replacing them.")
            return changed
        self.reload(f"Changed on disk by another program: {names} — reloaded.")
        if self.session is not None:
            self.session.load_catalog()
        return changed

    def reload(self, message: str = "") -> None:
        self.repo.load()
        self._refresh_views()
        if message:
            self.changes.say(message)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        if any(f.is_dirty() for f in self.record_forms.values()) and not getattr(self, "skip_unsaved_prompt", False) \
                and not self.ask("Unsaved changes", "Close the editor and discard the unsaved changes in the form?"):
            event.ignore()
            return
        save_size(self)
        self.undo_stack.clear()  # undo lasts until the editor is closed
        if self.watcher.directories():  # a closed editor must not keep reloading the app
            self.watcher.removePaths(self.watcher.directories())
        self._watch_timer.stop()
        event.accept()
