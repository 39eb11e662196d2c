"""File ▸ Export PDF…: write the comparison's report without blocking the window.

pyqtgraph cannot draw in a worker thread (its items parent themselves to the application),
so the report is written by a child process running ``llm-advisor report`` on a snapshot of
the comparison: the window stays responsive, shows a busy bar, and the PDF is exactly the
one the command line writes. The child writes atomically; its one-line error is shown.

Signals (past-tense events):
  finished(str)  the PDF was written to this path
  failed(str)    the report could not be written; the message says where and why
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, Signal

from advisor.core import Comparison
from advisor.storage.comparison_file import save_comparison

TIMEOUT_MS = 120_000


def report_command(comparison_file: Path, out: Path, page_size: str, unit: str, cost=None) -> tuple[str, list[str]]:
    """(program, arguments) of the child: this interpreter (or the bundled executable). ``cost``: the
    window's running-cost settings, passed as flags so the PDF uses them."""
    args = ["report", str(comparison_file), "--out", str(out), "--overwrite", "--page-size", page_size, "--unit", unit]
    if cost is not None:
        args += ["--electricity-usd-per-kwh", repr(cost.electricity_usd_per_kwh), "--hours-per-day",
                 repr(cost.hours_per_day), "--years", repr(cost.years)]
    if getattr(sys, "frozen", False):  # PyInstaller bundle: the executable is the CLI itself
        return sys.executable, args
    return sys.executable, ["-m", "advisor", *args]


class PdfExport(QObject):
    finished = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.process: QProcess | None = None
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._out = Path()

    @property
    def running(self) -> bool:
        return self.process is not None

    def start(self, comparison: Comparison, out: Path, page_size: str, unit: str, cost=None) -> None:
        """Start writing ``out`` (the caller has already confirmed replacing an existing file)."""
        if self.running:
            self.failed.emit("a PDF export is already running")
            return
        self._tmp = tempfile.TemporaryDirectory(prefix="llm-advisor-export-")
        snapshot = save_comparison(Path(self._tmp.name) / "comparison.json", comparison)
        self._out = out
        program, args = report_command(snapshot, out, page_size, unit, cost)
        self.process = QProcess(self)
        env = QProcessEnvironment.systemEnvironment()
        env.insert("QT_QPA_PLATFORM", "offscreen")  # the child never opens a window
        root = str(Path(__file__).resolve().parents[2])
        env.insert("PYTHONPATH", os.pathsep.join(p for p in (root, env.value("PYTHONPATH")) if p))
        self.process.setProcessEnvironment(env)
        self.process.finished.connect(self._on_process_finished)
        self.process.errorOccurred.connect(self._on_process_error)
        self.process.start(program, args)

    def _done(self) -> tuple[int, str]:
        proc = self.process
        assert proc is not None  # its callers check
        code = proc.exitCode() if proc.exitStatus() == QProcess.ExitStatus.NormalExit else -1
        err = bytes(proc.readAllStandardError()).decode(errors="replace").strip().splitlines()
        proc.deleteLater()
        self.process = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
        return code, (err[-1] if err else "")

    def _on_process_finished(self, *_args) -> None:
        if self.process is None:  # already collected (it failed to start)
            return
        code, err = self._done()
        if code == 0:
            self.finished.emit(str(self._out))
        else:
            self.failed.emit(err.removeprefix("llm-advisor report: error: ") or f"the report process stopped (code {code})")

    def _on_process_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self.process is not None:
            self._done()
            self.failed.emit("could not start the report writer (llm-advisor report)")


FILTERS = {"a4": "PDF report, A4 paper (*.pdf)", "letter": "PDF report, US Letter paper (*.pdf)"}


def file_stem(title: str, limit: int = 80) -> str:
    """A file name from a title that stays readable: "2× RTX 3090" → "2x RTX 3090" (no sign a file system or a mail program may mangle),
    characters file systems refuse become "-", and a long name is cut at a word."""
    text = title.replace("×", "x").replace(":", " -")
    safe = "".join(c if c.isalnum() or c in " -_()+.," else "-" for c in text).strip(" .-")
    if len(safe) > limit:
        safe = safe[:limit].rsplit(" ", 1)[0].rstrip(" ,.-") + "…"
    return safe or "comparison"


def _default_name(window) -> str:
    from advisor.report.document import report_title

    session = window.session
    stem = file_stem(report_title(session.title, [b.name for b in session.builds]))
    folder = session.path.parent if session.path is not None else Path.home()
    return str(folder / f"{stem}.pdf")


def export_pdf_dialog(window) -> PdfExport | None:
    """Ask where (and on which paper), then write the PDF in the background."""
    from PySide6.QtWidgets import QFileDialog

    from advisor.report.export import default_page_size

    page = default_page_size()
    path, chosen = QFileDialog.getSaveFileName(window, "Export PDF", _default_name(window),
                                               ";;".join(FILTERS.values()), FILTERS[page])
    if not path:
        return None
    out = Path(path if path.lower().endswith(".pdf") else path + ".pdf")
    page = next((k for k, v in FILTERS.items() if v == chosen), page)
    return start_export(window, out, page)


def start_export(window, out: Path, page_size: str) -> PdfExport:
    """Run the export for ``window``'s comparison with a busy bar; report the result."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices
    from PySide6.QtWidgets import QMessageBox, QProgressBar

    job = getattr(window, "pdf_export", None) or PdfExport(window)
    window.pdf_export = job
    bar = QProgressBar()
    bar.setRange(0, 0)  # busy: the child reports no steps
    bar.setMaximumWidth(160)
    bar.setToolTip(f"Writing {out.name}…")
    window.statusBar().addPermanentWidget(bar)
    window.statusBar().showMessage(f"Writing {out}…")
    window.action_export_pdf.setEnabled(False)

    def done() -> None:
        window.statusBar().removeWidget(bar)
        bar.deleteLater()
        window.action_export_pdf.setEnabled(True)
        job.finished.disconnect(on_finished)  # only ours: others may listen too
        job.failed.disconnect(on_failed)

    def on_finished(path: str) -> None:
        done()
        window.statusBar().showMessage(f"PDF written: {path}", 15000)
        if getattr(window, "ask_open_after_export", True):
            answer = QMessageBox.question(window, "PDF written", f"The report was written to\n{path}\n\nOpen it now?")
            if answer == QMessageBox.StandardButton.Yes:
                QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def on_failed(message: str) -> None:
        done()
        window.statusBar().showMessage(f"PDF not written: {message}", 15000)
        if getattr(window, "ask_open_after_export", True):
            QMessageBox.warning(window, "PDF not written", message)

    job.finished.connect(on_finished)
    job.failed.connect(on_failed)
    job.start(window.session.comparison(), out, page_size, window.session.prefs.memory_unit, window.session.prefs.cost)
    return job
