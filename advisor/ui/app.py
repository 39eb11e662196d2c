"""Composition root: settings → session → main window; the catalog loads after the first paint."""

from __future__ import annotations

import os
import sys

from advisor import APP_ID, APP_NAME

SMOKE_TEST_ENV = "LLM_ADVISOR_SMOKE_TEST"  # set: show the window, print a line, quit (install checks)


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
    """(session, window): the app's objects, shown by ``run_app`` and driven by tests."""
    from PySide6.QtWidgets import QApplication

    from advisor import plots
    from advisor.storage.settings import load_settings
    from advisor.ui.main_window import MainWindow
    from advisor.ui.session import Session

    # Follow the system's light or dark palette (plots are drawn in matching colours).
    plots.set_theme(QApplication.palette().window().color().lightness() < 128)
    loaded = load_settings()
    session = Session()
    session.prefs = loaded.settings
    window = MainWindow(session, loaded.settings)
    window.restore()
    from advisor.ui.catalog_editor import open_catalog_editor

    window.catalog_editor_requested.connect(lambda: open_catalog_editor(window))
    window.enable_catalog_editor(True)
    from advisor.ui.pdf_export import export_pdf_dialog

    window.export_pdf_requested.connect(lambda: export_pdf_dialog(window))
    window.enable_export_pdf(True)
    if loaded.warning:
        window.statusBar().showMessage(loaded.warning, 15000)

    def finish_start() -> None:
        session.load_catalog()
        path = comparison_path or loaded.settings.last_comparison
        if path and not session.open(path) and comparison_path is None:
            window.statusBar().showMessage(f"last comparison could not be reopened: {path}", 10000)

    window.finish_start = finish_start
    return session, window


def run_app(comparison_path: str | None) -> int:
    """Open the window; the catalog and the first estimate follow right after the first paint."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(_icon())
    session, window = build_window(comparison_path)
    window.show()
    QTimer.singleShot(0, window.finish_start)
    if os.environ.get(SMOKE_TEST_ENV):  # packaging checks: the window appears, then the app quits
        QTimer.singleShot(0, lambda: _smoke_quit(app, window))
    return app.exec()


def _smoke_quit(app, window) -> None:
    print(f"main window shown: {window.windowTitle().replace('[*]', '')}", flush=True)
    window.skip_unsaved_prompt = True
    app.quit()
