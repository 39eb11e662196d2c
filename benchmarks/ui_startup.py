"""Cold start: seconds from launching the process to the main window's first paint.

Each run starts a fresh Python (``python benchmarks/ui_startup.py --child``) that builds
the app exactly as ``llm-advisor gui`` does (``advisor.ui.app``), reports when the window
first paints and, after that, when the catalog and first estimates are on screen, then
quits. ``--baseline`` times a bare PySide6 + pyqtgraph window the same way, for comparison.
Offscreen Qt unless QT_QPA_PLATFORM is set (run under ``xvfb-run -a`` with
QT_QPA_PLATFORM=xcb for a real X server).

Run: ``.venv/bin/python benchmarks/ui_startup.py [--runs 7] [--baseline]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(baseline: bool) -> int:
    t0 = float(os.environ["ADVISOR_T0"])
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    if baseline:
        import pyqtgraph as pg
        from PySide6.QtWidgets import QMainWindow

        window = QMainWindow()
        window.setCentralWidget(pg.PlotWidget())
        finish = None
    else:
        from advisor.ui.app import build_window

        _session, window = build_window()
        window.skip_unsaved_prompt = True
        finish = window.finish_start

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint and not hasattr(self, "painted") and obj.isWidgetType():
                self.painted = time.time() - t0
                QTimer.singleShot(0, after_paint)
            return False

    def after_paint():
        if finish is not None:
            finish()
        print(f"{spy.painted:.4f} {time.time() - t0:.4f}", flush=True)
        app.quit()

    spy = FirstPaint()
    app.installEventFilter(spy)  # the first Paint of any widget of the window
    window.resize(1280, 800)
    window.show()
    app.exec()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", action="store_true", help="a bare PySide6 + pyqtgraph window")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.baseline)
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    paints, readies = [], []
    for _ in range(args.runs):
        env["LLM_ADVISOR_HOME"] = tempfile.mkdtemp(prefix="advisor-start-")  # first launch: no settings
        env["ADVISOR_T0"] = repr(time.time())
        cmd = [sys.executable, __file__, "--child"] + (["--baseline"] if args.baseline else [])
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout.split()
        paints.append(float(out[0]))
        readies.append(float(out[1]))
    what = "bare PySide6 + pyqtgraph window" if args.baseline else "LLM Hardware Advisor main window"
    print(f"{what}, {args.runs} cold starts, QT_QPA_PLATFORM={env['QT_QPA_PLATFORM']}")
    print(f"  first paint  median {statistics.median(paints):.3f} s  max {max(paints):.3f} s")
    if not args.baseline:
        print(f"  catalog + first estimates on screen  median {statistics.median(readies):.3f} s  max {max(readies):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
