"""The main window: workload on the left, builds and plots on the right, menus (``window_menus``).

The window's frame (title, place, menus, status bar) is painted before the core and its models (pydantic)
are imported; the panels follow (``attach``). Dialogs, detection words and the catalog's files are
imported where they are opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QLabel, QMainWindow, QMessageBox, QProgressBar, QSplitter

from advisor import APP_NAME
from advisor.ui.recent import with_recent, without
from advisor.ui.window_menus import WindowActions

if TYPE_CHECKING:
    from advisor.storage.settings import Settings
    from advisor.ui.session import Session

LOADING_TEXT = "Loading the catalog and the last comparison…"
FILTER = "Comparison (*.json)"


class MainWindow(QMainWindow, WindowActions):
    """Signals:
      export_pdf_requested()    File ▸ Export PDF… was chosen (the PDF report connects here)
      catalog_editor_requested() Edit ▸ Catalog… was chosen (the catalog editor connects here)
      content_ready()           start_app: the panels, the catalog and the first estimates are in
    """

    export_pdf_requested = Signal()
    catalog_editor_requested = Signal()
    content_ready = Signal()  # ``start_app``: the content, the catalog and the first estimates are in
    # None only while the window is its frame alone (before ``attach``): then only ``closeEvent`` runs, and
    # it checks; every action, panel and slot that reads the session exists from ``attach`` on.
    session: Session

    def __init__(self, session=None, settings: Settings | None = None) -> None:
        """With a session: the whole window. Without: its frame only (title, size, the menu
        titles, a status line saying what loads), painted at once; ``attach`` fills it."""
        super().__init__()
        self.session = None  # type: ignore[assignment]  # see the class's annotation
        self.setWindowTitle(f"Untitled comparison[*] — {APP_NAME}")
        self.menus = {key: self.menuBar().addMenu(title) for key, title in
                      (("file", "&File"), ("edit", "&Edit"), ("builds", "&Builds"), ("help", "&Help"))}
        placeholder = QLabel(LOADING_TEXT)
        placeholder.setObjectName("label_loading")
        placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(placeholder)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.statusBar().addPermanentWidget(self.busy)
        self.statusBar().showMessage(LOADING_TEXT)
        self.resize(1280, 800)
        if session is not None:
            self.attach(session, settings)

    def attach(self, session, settings: Settings) -> None:
        """The panels, the menus' actions and the session's signals: the window's content."""
        from advisor.ui.builds_panel import BuildsPanel
        from advisor.ui.plot_views import PlotTabs
        from advisor.ui.window_menus import make_add_actions, make_menus
        from advisor.ui.workload_panel import WorkloadPanel

        self.session = session
        self.settings = settings
        self.setAcceptDrops(True)
        self._add_actions = make_add_actions(self)
        self.workload_panel = WorkloadPanel(session)
        self.workload_panel.setMinimumWidth(300)
        self.builds_panel = BuildsPanel(session, self._add_actions)
        self.tabs = PlotTabs(session)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.builds_panel)
        right.addWidget(self.tabs)
        right.setStretchFactor(0, 2)
        right.setStretchFactor(1, 5)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.workload_panel)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([340, 940])
        self.setCentralWidget(self.splitter)  # the placeholder goes
        self.busy.setVisible(False)
        self.statusBar().clearMessage()
        make_menus(self, self._add_actions)
        self.builds_panel.buttons["duplicate"].clicked.connect(self.duplicate_selected)
        self.builds_panel.button_find.clicked.connect(self.find_builds)
        session.problem_reported.connect(self._on_problem_reported)
        session.document_changed.connect(self._on_document_changed)
        session.catalog_loaded.connect(self._on_catalog_loaded)
        self._on_document_changed()

    # --- help ----------------------------------------------------------------------
    def show_formulas(self) -> None:
        from advisor.ui.help import formulas_html, text_dialog

        text_dialog(self, "Formulas and sources", formulas_html()).exec()

    def about(self) -> None:
        from advisor.ui.help import about_html

        QMessageBox.about(self, f"About {APP_NAME}", about_html())

    def enable_export_pdf(self, enabled: bool = True) -> None:
        """Called by the PDF report once it connects to ``export_pdf_requested``."""
        self.action_export_pdf.setEnabled(enabled)
        self.action_export_pdf.setToolTip("Export this comparison as a PDF report")

    def enable_catalog_editor(self, enabled: bool = True) -> None:
        self.action_catalog.setEnabled(enabled)
        self.action_catalog.setToolTip("Edit GPUs, builds, systems and cloud instances")

    # --- builds ---------------------------------------------------------------------
    def find_builds(self) -> None:
        """Builds ▸ Find builds…: the catalog search; chosen candidates join the comparison."""
        if self.session.catalog is None:
            self._on_problem_reported("the catalog is not loaded: " + "; ".join(self.session.catalog_problems[:3]))
            return
        from advisor.ui.find_builds import FindBuildsDialog  # noqa: PLC0415 - only when asked for

        d = FindBuildsDialog(self.session, self)
        if d.exec():
            for entry in d.chosen_entries():
                self.session.add_build(entry)

    def add_build(self, kind: str) -> None:
        if self.session.catalog is None:
            self._on_problem_reported("the catalog is not loaded: " + "; ".join(self.session.catalog_problems[:3]))
            return
        from advisor.ui.add_build_dialog import AddBuildDialog

        d = AddBuildDialog(self.session.catalog, kind, self)
        if d.exec():
            self.add_from_dialog(d)

    def add_from_dialog(self, d) -> None:
        """What an accepted Add-build dialog adds; a build of different cards it saved in the
        user's catalog is read in first, so the comparison finds it by its id."""
        entry = d.entry()
        if entry is None:
            return
        if d.saved_build is not None:
            self.session.load_catalog()
        self.session.add_build(entry)

    def duplicate_selected(self) -> None:
        row = self.builds_panel.selected_row()
        if row < 0:
            self.statusBar().showMessage("Select a build to duplicate", 4000)
            return
        if not self.session.can_add():
            self._on_problem_reported("a comparison holds at most 6 builds")
            return
        resolved = self.session.resolved(row)
        if resolved is None:
            return
        from advisor.ui.topology_editor import TweakDialog

        d = TweakDialog(self.session.builds[row].name, resolved, self)
        if d.exec():
            self.session.add_build(d.entry())

    def add_this_machine(self) -> None:
        from advisor.ui.machine_detection import start_detection

        self.action_this_machine.setEnabled(False)
        self.busy.setVisible(True)
        self.statusBar().showMessage("Detecting this machine's GPUs…")
        self._detect_job = start_detection(self._on_detected)  # kept: its signals object lives until it reports

    def _on_detected(self, _key, out) -> None:
        if isinstance(out, Exception):
            self._on_detection_failed(str(out))
        else:
            self._on_detection_finished(out)

    def _on_detection_finished(self, detection) -> None:
        self.busy.setVisible(False)
        self.action_this_machine.setEnabled(True)
        self.statusBar().clearMessage()  # "Detecting…" is over
        from advisor.ui.machine import this_machine_entry

        entry, why = this_machine_entry(self.session.catalog, detection)
        if entry is None:
            from advisor.ui.machine_detection import no_gpu_dialog

            self.dialog_no_gpu = no_gpu_dialog(self, detection, why)
            return
        self.statusBar().showMessage(why, 6000)
        self.session.add_build(entry)

    def _on_detection_failed(self, message: str) -> None:
        self.busy.setVisible(False)
        self.action_this_machine.setEnabled(True)
        self._on_problem_reported(f"detection failed: {message}")

    # --- documents ------------------------------------------------------------------
    def new(self) -> None:
        """File ▸ New: the default job (``advisor.core.job.defaults``) for the engine chosen in Preferences,
        shaped for that engine (vLLM serves 16 × 8,192 tokens, the others one conversation of 4,096)."""
        from advisor.core import default_job

        if self.may_replace_document():
            self.session.new(default_job(engine=self.settings.default_engine))

    def may_replace_document(self) -> bool:
        """Before New, Open, Open Recent, a dropped comparison or Quit: an unsaved comparison asks
        Save / Discard / Cancel (False: the user cancelled, or the save did not happen)."""
        if not self.session.dirty or getattr(self, "skip_unsaved_prompt", False):
            return True
        answer = QMessageBox.question(self, APP_NAME, "Save the changes to this comparison?",
                                      QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                                      | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def open_dialog(self) -> None:
        if not self.may_replace_document():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open comparison", "", FILTER)
        if path:
            self.session.open(path)

    def open_recent(self, path: str) -> None:
        """File ▸ Open Recent: a file that is gone leaves the list, and a dialog says so."""
        if not Path(path).is_file():
            self.set_recent(without(self.settings.recent_comparisons, path))
            box = QMessageBox(QMessageBox.Icon.Warning, "Open Recent",
                              f"“{Path(path).name}” is no longer there; it was removed from the list.",
                              QMessageBox.StandardButton.Ok, self)
            box.setInformativeText(f"It was at {path}. It may have been moved, renamed or deleted.")
            self.dialog_missing_recent = box
            box.open()
            return
        if self.may_replace_document():
            self.session.open(path)

    def set_recent(self, recent: tuple[str, ...]) -> None:
        if recent == self.settings.recent_comparisons:
            return
        from advisor.storage.settings import save_settings

        self.settings = self.settings.model_copy(update={"recent_comparisons": recent})
        try:  # saved now: a second window or a crash must not lose it
            save_settings(self.settings)
        except OSError as exc:
            self.statusBar().showMessage(f"settings not saved: {exc}", 8000)

    def save(self) -> bool:
        return self.session.save(self.session.path) if self.session.path else self.save_as()

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save comparison", str(self.session.path or "comparison.json"), FILTER)
        if not path:
            return False
        if not path.endswith(".json"):
            path += ".json"
        return self.session.save(path)

    def preferences(self) -> None:
        from advisor.ui.preferences_dialog import PreferencesDialog

        d = PreferencesDialog(self.settings, self)
        if d.exec():
            self.settings = d.result_prefs()
            self.session.set_prefs(self.settings)
            self.persist()

    def fit_to_screen(self) -> None:
        """The window inside its screen's free area (no taller or wider, title bar and panels kept): the
        default 1280×800, or a place saved on a larger screen, opened past a 1024×700 screen's edges."""
        from PySide6.QtWidgets import QApplication

        from advisor.ui.screen_fit import fit_into

        screen = self.screen() or QApplication.primaryScreen()
        if screen is not None:
            fit_into(self, screen.availableGeometry())

    # --- events ---------------------------------------------------------------------
    def _on_problem_reported(self, message: str) -> None:
        self.statusBar().showMessage(message, 10000)

    def _on_catalog_loaded(self) -> None:
        if self.session.catalog_problems:
            n = len(self.session.catalog_problems)
            self.statusBar().showMessage(f"catalog: {n} problem(s); first: {self.session.catalog_problems[0]}", 10000)

    def _on_document_changed(self) -> None:
        if self.session.path is not None:  # opened or saved: first in Open Recent
            self.set_recent(with_recent(self.settings.recent_comparisons, self.session.path))
        name = self.session.path.name if self.session.path else "Untitled comparison"
        self.setWindowTitle(f"{name}[*] — {APP_NAME}")
        self.setWindowModified(self.session.dirty)

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            path = url.toLocalFile()
            if path.endswith(".json") and Path(path).name != "config.json":
                if not self.may_replace_document() or self.session.open(path):
                    continue
            self.session.import_model(path)

    def persist(self) -> None:
        from advisor.storage.settings import save_settings

        geometry = bytes(self.saveGeometry().toBase64()).decode()
        state = bytes(self.saveState().toBase64()).decode()
        last = str(self.session.path) if self.session.path else self.settings.last_comparison
        self.settings = self.settings.model_copy(update={"window_geometry": geometry, "window_state": state, "last_comparison": last})
        try:
            save_settings(self.settings)
        except OSError as exc:
            self.statusBar().showMessage(f"settings not saved: {exc}", 8000)

    def restore(self) -> None:
        if self.settings.window_geometry:
            self.restoreGeometry(QByteArray.fromBase64(self.settings.window_geometry.encode()))
            self.fit_to_screen()  # left on a larger screen: brought inside this one
        if self.settings.window_state:
            self.restoreState(QByteArray.fromBase64(self.settings.window_state.encode()))

    def closeEvent(self, event) -> None:  # noqa: N802
        if self.session is None:  # closed before its content came: nothing to save or to wait for
            event.accept()
            return
        if not self.may_replace_document():
            event.ignore()
            return
        self.persist()
        self.session.close()  # no worker job outlives the window, no timer starts one after it
        event.accept()

