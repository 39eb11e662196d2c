"""The main window: workload on the left, builds and plots on the right, menus."""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QLabel, QMainWindow, QMessageBox, QProgressBar, QSplitter

from advisor import APP_LICENSE, APP_NAME, APP_URL, __version__
from advisor.ui.recent import RecentMenu, with_recent, without

if TYPE_CHECKING:
    from advisor.storage.settings import Settings

# The window's frame (title, place, menus, status bar) is painted before the core and its models
# (pydantic) are imported; the panels follow (``attach``). Dialogs, detection words and the
# catalog's files are imported where they are opened (issue 20).

LOADING_TEXT = "Loading the catalog and the last comparison…"

DETECT_TIMEOUT_S = 8.0
FILTER = "Comparison (*.json)"

def formulas_html() -> str:
    """Help ▸ Formulas & sources: the core's own list (``advisor.core.advice.formulas``), so Help shows what is computed."""
    try:
        from advisor.core.advice.formulas import formulas
    except ImportError:
        return "<p>The list of formulas is not available in this version.</p>"
    rows = "".join(f"<li><b>{html.escape(f.term)}</b>: {html.escape(f.formula)}<br><i>Sources: "
                   f"{html.escape('; '.join(f.sources))}</i></li>" for f in formulas())
    return ("<h2>Formulas and sources</h2><ul>" + rows + "</ul><p>Each estimate's expected error is the error "
            "measured against published measurements and this project's own on an H100 (benchmarks/fidelity.py); where none was measured the app says so.</p>")


def fit_into(window, free) -> None:
    """Resize and move ``window`` so that its frame lies inside ``free`` (a QRect of the screen)."""
    frame_w = max(window.frameGeometry().width() - window.width(), 0)  # 0 before the window manager framed it
    frame_h = max(window.frameGeometry().height() - window.height(), 0)
    w, h = min(window.width(), free.width() - frame_w), min(window.height(), free.height() - frame_h)
    if (w, h) != (window.width(), window.height()):
        window.resize(w, h)
    x = min(max(window.x(), free.left()), free.right() + 1 - w - frame_w)
    y = min(max(window.y(), free.top()), free.bottom() + 1 - h - frame_h)
    if (x, y) != (window.x(), window.y()):
        window.move(x, y)


class _DetectSignals(QObject):
    finished = Signal(object)
    failed = Signal(str)


class _DetectJob(QRunnable):
    """Runs hardware detection off the GUI thread (it may wait on drivers for seconds)."""

    def __init__(self) -> None:
        super().__init__()
        self.signals = _DetectSignals()

    def run(self) -> None:
        try:
            from advisor.probe import detect  # loaded when asked: NVML bindings are not needed to start

            self.signals.finished.emit(detect(DETECT_TIMEOUT_S))
        except Exception as exc:  # noqa: BLE001 - shown as a message
            self.signals.failed.emit(str(exc))


class MainWindow(QMainWindow):
    """Signals:
      export_pdf_requested()    File ▸ Export PDF… was chosen (the PDF report connects here)
      catalog_editor_requested() Edit ▸ Catalog… was chosen (the catalog editor connects here)
      content_ready()           start_app: the panels, the catalog and the first estimates are in
    """

    export_pdf_requested = Signal()
    catalog_editor_requested = Signal()
    content_ready = Signal()  # ``start_app``: the content, the catalog and the first estimates are in

    def __init__(self, session=None, settings: Settings | None = None) -> None:
        """With a session: the whole window. Without: its frame only (title, size, the menu
        titles, a status line saying what loads), painted at once; ``attach`` fills it."""
        super().__init__()
        self.session = None
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
        from advisor.ui.workload_panel import WorkloadPanel

        self.session = session
        self.settings = settings
        self.setAcceptDrops(True)
        self._add_actions = self._make_add_actions()
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
        self._make_menus()
        self.builds_panel.buttons["duplicate"].clicked.connect(self.duplicate_selected)
        self.builds_panel.button_find.clicked.connect(self.find_builds)
        session.problem_reported.connect(self._on_problem_reported)
        session.document_changed.connect(self._on_document_changed)
        session.catalog_loaded.connect(self._on_catalog_loaded)
        self._on_document_changed()

    # --- menus ----------------------------------------------------------------------
    def _act(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.setToolTip(tip or text.replace("&", "").rstrip("…"))
        a.setStatusTip(a.toolTip())
        a.triggered.connect(slot)
        return a

    def _make_add_actions(self) -> list[QAction]:
        acts = [self._act(label + "…", lambda _=False, k=k: self.add_build(k)) for k, label in
                (("gpu", "GPU × count"), ("build", "Catalog build"), ("system", "Prebuilt system"), ("cloud", "Cloud instance"))]
        self.action_this_machine = self._act("This machine (detect)", self.add_this_machine,
                                             tip="Detect this computer's GPUs (runs in the background)")
        return [*acts, self.action_this_machine]

    def _make_menus(self) -> None:
        m = self.menus["file"]
        m.addAction(self._act("&New", self.new, QKeySequence.StandardKey.New))
        m.addAction(self._act("&Open…", self.open_dialog, QKeySequence.StandardKey.Open))
        self.menu_recent = RecentMenu(lambda: self.settings.recent_comparisons, self)
        self.menu_recent.file_chosen.connect(self.open_recent)
        self.menu_recent.clear_requested.connect(lambda: self._set_recent(()))
        m.addMenu(self.menu_recent)
        m.addAction(self._act("&Save", self.save, QKeySequence.StandardKey.Save))
        m.addAction(self._act("Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs))
        m.addSeparator()
        self.action_export_pdf = self._act("&Export PDF…", self.export_pdf_requested.emit, "Ctrl+E",
                                           tip="coming with the PDF report")
        self.action_export_pdf.setEnabled(False)
        m.addAction(self.action_export_pdf)
        m.addSeparator()
        m.addAction(self._act("&Quit", self.close, QKeySequence.StandardKey.Quit))
        m.setToolTipsVisible(True)
        e = self.menus["edit"]
        stack = self.session.undo_stack
        # The platform's own keys, each once (Ctrl+Shift+Z listed twice was an ambiguous shortcut: it did nothing).
        self.action_undo = stack.createUndoAction(self, "&Undo")
        self.action_undo.setShortcuts(QKeySequence.StandardKey.Undo)
        self.action_redo = stack.createRedoAction(self, "&Redo")
        self.action_redo.setShortcuts(QKeySequence.StandardKey.Redo)
        from advisor.ui.undo_keys import WindowUndoKeys

        self.undo_keys = WindowUndoKeys(self)  # Ctrl+Z in a field with nothing uncommitted: the window's undo
        e.addAction(self.action_undo)
        e.addAction(self.action_redo)
        e.addSeparator()
        self.action_catalog = self._act("&Catalog…", self.catalog_editor_requested.emit, tip="coming with the catalog editor")
        self.action_catalog.setEnabled(False)
        e.addAction(self.action_catalog)
        e.addAction(self._act("&Preferences…", self.preferences, QKeySequence.StandardKey.Preferences))
        e.setToolTipsVisible(True)
        b = self.menus["builds"]
        for a in self._add_actions:
            b.addAction(a)
        b.addSeparator()
        self.action_find_builds = self._act("&Find builds…", self.find_builds, "Ctrl+F",
                                            tip="Search the catalog for builds that run this job within a budget")
        b.addAction(self.action_find_builds)
        h = self.menus["help"]
        h.addAction(self._act("&Formulas && sources", self.show_formulas, QKeySequence.StandardKey.HelpContents))
        h.addAction(self._act("&About", self.about))

    def show_formulas(self) -> None:
        from advisor.ui.dialogs import text_dialog

        text_dialog(self, "Formulas and sources", formulas_html()).exec()

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
        from advisor.ui.dialogs import AddBuildDialog

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
        from advisor.ui.dialogs import TweakDialog

        d = TweakDialog(self.session.builds[row].name, resolved, self)
        if d.exec():
            self.session.add_build(d.entry())

    def add_this_machine(self) -> None:
        self.action_this_machine.setEnabled(False)
        self.busy.setVisible(True)
        self.statusBar().showMessage("Detecting this machine's GPUs…")
        job = _DetectJob()
        job.signals.finished.connect(self._on_detection_finished)
        job.signals.failed.connect(self._on_detection_failed)
        self._detect_job = job  # keep the signals object alive until it reports
        QThreadPool.globalInstance().start(job)

    def _on_detection_finished(self, detection) -> None:
        self.busy.setVisible(False)
        self.action_this_machine.setEnabled(True)
        self.statusBar().clearMessage()  # "Detecting…" is over
        from advisor.ui.machine import this_machine_entry

        entry, why = this_machine_entry(self.session.catalog, detection)
        if entry is None:
            self._no_gpu_dialog(detection, why)
            return
        self.statusBar().showMessage(why, 6000)
        self.session.add_build(entry)

    def _no_gpu_dialog(self, detection, why: str) -> None:
        """No usable GPU: said in a dialog (a status line was gone in 10 s, issue 17), with a
        CPU-only build of this machine (its RAM as the memory) or the catalog search instead."""
        from advisor.ui.machine import cpu_only_entry

        cpu, cpu_text = cpu_only_entry(detection)
        box = QMessageBox(QMessageBox.Icon.Information, "This machine", "No GPU was found on this computer.", parent=self)
        box.setInformativeText(
            ("You can still compare it as a CPU-only build: its RAM holds the model and the estimate "
             "assumes the speed of common desktop memory (dual-channel DDR4-3200). "
             if cpu is not None else f"It cannot be added as a CPU-only build: {cpu_text}. ")
            + "Or let Find builds suggest hardware for this job.")
        box.setDetailedText("What detection saw:\n" + "\n".join(detection.status_lines or (why,)))
        self.button_cpu_only = box.addButton("Add CPU-only build", QMessageBox.ButtonRole.AcceptRole)
        self.button_cpu_only.setEnabled(cpu is not None and self.session.can_add())
        button_find = box.addButton("Find builds…", QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Close)

        def _on_clicked(button) -> None:
            if button is self.button_cpu_only and cpu is not None:
                self.session.add_build(cpu)
                self.statusBar().showMessage(cpu_text, 8000)
            elif button is button_find:
                self.find_builds()

        box.buttonClicked.connect(_on_clicked)
        self.dialog_no_gpu = box
        box.open()

    def _on_detection_failed(self, message: str) -> None:
        self.busy.setVisible(False)
        self.action_this_machine.setEnabled(True)
        self._on_problem_reported(f"detection failed: {message}")

    # --- documents ------------------------------------------------------------------
    def new(self) -> None:
        """File ▸ New: the default job (``advisor.core.job.defaults``) for the engine chosen in Preferences,
        shaped for that engine (vLLM serves 16 × 8,192 tokens, the others one conversation of 4,096)."""
        from advisor.core.job.defaults import default_job

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
            self._set_recent(without(self.settings.recent_comparisons, path))
            box = QMessageBox(QMessageBox.Icon.Warning, "Open Recent",
                              f"“{Path(path).name}” is no longer there; it was removed from the list.",
                              QMessageBox.StandardButton.Ok, self)
            box.setInformativeText(f"It was at {path}. It may have been moved, renamed or deleted.")
            self.dialog_missing_recent = box
            box.open()
            return
        if self.may_replace_document():
            self.session.open(path)

    def _set_recent(self, recent: tuple[str, ...]) -> None:
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
        from advisor.ui.dialogs import PreferencesDialog

        d = PreferencesDialog(self.settings, self)
        if d.exec():
            self.settings = d.result_prefs()
            self.session.set_prefs(self.settings)
            self.persist()

    def about(self) -> None:
        from advisor.storage.catalog_store import shipped_catalog_date

        QMessageBox.about(self, f"About {APP_NAME}",
                          f"<b>{APP_NAME}</b> {__version__}<br>Catalog: {html.escape(shipped_catalog_date())}<br>"
                          f"License: {APP_LICENSE}<br><a href='{APP_URL}'>{APP_URL}</a>")

    def fit_to_screen(self) -> None:
        """The window inside its screen's free area (no taller or wider, title bar and panels kept): the
        default 1280×800, or a place saved on a larger screen, opened past a 1024×700 screen's edges."""
        from PySide6.QtWidgets import QApplication

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
            self._set_recent(with_recent(self.settings.recent_comparisons, self.session.path))
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

