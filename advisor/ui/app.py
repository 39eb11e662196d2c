"""Composition root: settings → session → main window; the window's frame paints first.

Start-up does only what the first paint shows: the window's frame (title, its saved
place, the menu titles, a line saying what loads) is painted before the core and its models
(pydantic) are imported; the settings, the session, the panels, the catalog (and its validation)
and the first estimates follow that paint; the catalog editor, the PDF export and the help text
load when first asked for.
"""

from __future__ import annotations

import os
import sys

from advisor import APP_ID, APP_NAME

SMOKE_TEST_ENV = "LLM_ADVISOR_SMOKE_TEST"  # set: show the window, print a line, quit (install checks)
FIRST_PAINT_WAIT_MS = 2000  # the catalog loads then even if the window has not painted


def _icon():
    from PySide6.QtGui import QIcon

    from advisor.storage.shipped import resources_dir

    icon = QIcon()
    try:
        icons = resources_dir() / "icons"
    except FileNotFoundError:
        return icon
    for png in sorted(icons.glob("llm-advisor-*.png")):
        icon.addFile(str(png))
    return icon


def build_window(comparison_path: str | None = None):
    """(session, window): the app's objects, whole (tests and benchmarks drive these); the
    catalog loads when ``window.finish_start()`` is called."""
    from advisor.ui.main_window import MainWindow

    window = MainWindow()
    return fill_window(window, comparison_path), window


def fill_window(window, comparison_path: str | None = None):
    """The window's content: settings, session, panels and menus (``MainWindow.attach``); returns
    the session. ``window.finish_start()`` then loads the catalog and opens the comparison."""
    from PySide6.QtWidgets import QApplication

    from advisor import plots
    from advisor.storage.settings import keep_bad_settings, load_settings
    from advisor.ui.session import Session

    # Follow the system's light or dark palette (plots are drawn in matching colours).
    plots.set_theme(QApplication.palette().window().color().lightness() < 128)
    loaded = keep_bad_settings(load_settings())  # a bad file kept aside before the window saves over it
    session = Session()
    session.prefs = loaded.settings
    from advisor.ui.core_process import CoreProcess

    session.set_core_process(CoreProcess(session))  # the fit sweep and the search off the UI thread
    window.attach(session, loaded.settings)
    window.restore()
    window.catalog_editor_requested.connect(lambda: _open_catalog_editor(window))
    window.enable_catalog_editor(True)
    window.export_pdf_requested.connect(lambda: _export_pdf(window))
    window.enable_export_pdf(True)
    if loaded.warning:
        window.statusBar().showMessage(loaded.warning, 15000)

    def finish_start() -> None:
        from advisor.ui import idle_gc

        session.load_catalog()
        path = comparison_path or loaded.settings.last_comparison
        said: list[str] = []

        def keep(message: str) -> None:
            said.append(message)

        session.problem_reported.connect(keep)
        try:
            opened = not path or session.open(path)
        finally:
            session.problem_reported.disconnect(keep)
        if not opened and comparison_path is None:
            # Said with the file and why, and forgotten: the next start does not try it again (a file that
            # could not be read had been reopened, and had failed, at every start).
            window.statusBar().showMessage(f"last comparison could not be reopened: {said[-1] if said else path}", 15000)
            window.settings = window.settings.model_copy(update={"last_comparison": None})
        idle_gc.watch(session)  # full garbage collections when the user pauses, not mid-change

    window.finish_start = finish_start
    return session


def _open_catalog_editor(window) -> None:
    from advisor.ui.catalog_editor import open_catalog_editor  # loaded when first asked for

    open_catalog_editor(window)


def _export_pdf(window) -> None:
    from advisor.ui.pdf_export import export_pdf_dialog  # loaded when first asked for

    export_pdf_dialog(window)


def start_app(comparison_path: str | None):
    """The window, shown: its frame paints first (where the user left it); its content, the
    catalog and the first estimates follow that paint, then ``window.content_ready`` is emitted
    (``window.session`` is set from then on). ``benchmarks/ui_startup.py`` times exactly this."""
    from PySide6.QtCore import QByteArray, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from advisor.storage.window_place import saved_place
    from advisor.ui.main_window import MainWindow

    existing = QApplication.instance()  # the tests' (pytest-qt), or none yet
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(_icon())
    window = MainWindow()
    geometry, _state = saved_place()  # the state (splitters) is restored with the panels
    if geometry:
        window.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
    window.fit_to_screen()  # 1280×800 (or the saved place) inside a smaller screen's free area

    def fill() -> None:
        session = fill_window(window, comparison_path)
        app.aboutToQuit.connect(session.close)  # no worker thread outlives the event loop
        window.finish_start()
        if session.results_pending:  # the first pass's ranking and table follow in a later turn
            # Said once, from the event loop, not from inside the session's signal: the packaging
            # smoke test quits on it, and quitting from in there crashed the app on exit in 2 of 30
            # runs under load (none in 80 this way).
            session.results_computed.connect(lambda _results: QTimer.singleShot(0, window.content_ready.emit),
                                             type=Qt.ConnectionType.SingleShotConnection)
        else:
            window.content_ready.emit()

    after_first_paint(window, fill)
    window.show()
    return window


def after_first_paint(window, then) -> None:
    """Call ``then`` once, right after ``window`` first paints (or after ``FIRST_PAINT_WAIT_MS`` if
    it never does, e.g. started minimized). A zero-time timer started before ``show`` would run
    before the first paint: the window's first expose is a window-system event that comes later."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    assert app is not None  # the window exists, so its application does
    done: list[bool] = []

    def run_once() -> None:
        if not done:
            done.append(True)
            app.removeEventFilter(spy)
            then()

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint and obj.isWidgetType() and obj.window() is window:
                QTimer.singleShot(0, run_once)  # after this paint, not inside it
            return False

    spy = FirstPaint(window)
    app.installEventFilter(spy)
    QTimer.singleShot(FIRST_PAINT_WAIT_MS, run_once)


def run_app(comparison_path: str | None) -> int:
    """Open the window; its content, the catalog and the first estimate follow its first paint."""
    from PySide6.QtWidgets import QApplication

    window = start_app(comparison_path)
    app = QApplication.instance()
    assert app is not None  # start_app made it
    if os.environ.get(SMOKE_TEST_ENV):  # packaging checks: the whole window appears, then the app quits
        window.content_ready.connect(lambda: _smoke_quit(app, window))
    return app.exec()


def _smoke_quit(app, window) -> None:
    print(f"main window shown: {window.windowTitle().replace('[*]', '')}", flush=True)
    window.skip_unsaved_prompt = True
    app.quit()
