"""Cold start: the main window's first paint against a bare PySide6 + pyqtgraph window, paired.

Each run starts two fresh Pythons (``python benchmarks/ui_startup.py --child app|bare``), one
after the other, in alternating order (app first on even runs, bare first on odd ones), so the
load of a shared machine falls on both alike. ``app`` starts the window exactly as ``llm-advisor
gui`` does (``advisor.ui.app.start_app``: first launch, no settings: the window's frame — title,
menu titles, a line saying what loads — paints first, its panels, the catalog and the first
estimates follow that paint); ``bare`` shows a
``QMainWindow`` holding one ``pyqtgraph.PlotWidget`` with one curve. Each child reports, at the
first Paint event of any of its widgets: seconds since launch, CPU seconds, peak RSS so far;
the app child also reports when the catalog, the estimates and the visible plot are on screen.

Prints the medians and the ratios app / bare (first-paint time and peak RSS at first paint):
the ratio of the medians and the median of the per-pair ratios. Offscreen Qt unless
QT_QPA_PLATFORM is set (``xvfb-run -a`` with QT_QPA_PLATFORM=xcb for a real X server).

Both children run with compiled bytecode cached (in a temporary PYTHONPYCACHEPREFIX, filled by a
warm-up run), as an installed wheel or a bundle has it: with PYTHONDONTWRITEBYTECODE=1 (set in
some shells here) every module of the app was compiled from source at each start, while the
bare window's site-packages came compiled.

``--instructions``: one run of each under ``valgrind --tool=callgrind``, counting instructions up
to the first paint, and the app's up to its content on screen: ratios a loaded machine does not
move (slow: a few minutes).

Run: ``.venv/bin/python benchmarks/ui_startup.py [--runs 11] [--instructions]``
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


def child(kind: str) -> int:
    t0 = float(os.environ["ADVISOR_T0"])
    sys.path.insert(0, str(ROOT))
    marks = _Marks(t0)
    spy = _first_paint_spy(kind, marks)
    app, _window = _bare_window(spy) if kind == "bare" else _app_window(spy, marks)
    app.exec()
    print(" ".join(f"{k}={v:.4f}" for k, v in marks.items()), flush=True)
    return 0


class _Marks(dict):
    """Seconds since launch, CPU seconds and peak RSS at each named moment (the first time only)."""

    def __init__(self, t0: float) -> None:
        super().__init__()
        self.t0 = t0

    def mark(self, name: str) -> None:
        import resource

        if name not in self:
            use = resource.getrusage(resource.RUSAGE_SELF)
            self[name] = time.time() - self.t0
            self[name + "_cpu"] = use.ru_utime + use.ru_stime
            self[name + "_rss_mb"] = use.ru_maxrss / 1024  # Linux: KiB


def _first_paint_spy(kind: str, marks: _Marks):
    """An event filter that marks the first paint of any widget (and ends the bare child there)."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint and "paint" not in marks and obj.isWidgetType():
                marks.mark("paint")
                if os.environ.get("ADVISOR_EXIT_AT_PAINT"):  # --instructions: count up to here only
                    os._exit(0)
                if kind == "bare":
                    QTimer.singleShot(0, QApplication.instance().quit)
            return False

    return FirstPaint()


def _bare_window(spy) -> tuple:
    """A QMainWindow holding one pyqtgraph PlotWidget with one curve, shown."""
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication([])
    app.installEventFilter(spy)
    window = QMainWindow()
    plot = pg.PlotWidget()
    plot.plot([1, 2, 3, 4], [1, 3, 2, 4])
    window.setCentralWidget(plot)
    window.resize(1280, 800)
    window.show()
    return app, window


def _app_window(spy, marks: _Marks) -> tuple:
    """The app's window started as ``llm-advisor gui`` starts it; marks its content and its first plot."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from advisor.ui.app import start_app

    app = QApplication([])
    app.installEventFilter(spy)
    window = start_app(None)  # its frame paints first; its content follows (content_ready)
    window.skip_unsaved_prompt = True

    def on_drawn(_index: int) -> None:  # the catalog loaded, estimates and the visible plot drawn
        session = window.session
        if session.results is not None and not session.sweep_pending:
            marks.mark("ready")
            if os.environ.get("ADVISOR_EXIT_AT_READY"):  # --instructions: count up to here only
                os._exit(0)
            QTimer.singleShot(0, app.quit)

    def on_content() -> None:
        marks.mark("content")  # panels built, catalog loaded, first estimates made (not yet painted)
        window.tabs.view_drawn.connect(on_drawn)
        if not window.tabs.views or window.session.sweep_pending is False and window.tabs.up_to_date():
            on_drawn(window.tabs.currentIndex())

    window.content_ready.connect(on_content)
    return app, window


def _run(kind: str, env: dict[str, str]) -> dict[str, float]:
    env = {**env, "LLM_ADVISOR_HOME": tempfile.mkdtemp(prefix="advisor-start-"), "ADVISOR_T0": repr(time.time())}
    out = subprocess.run([sys.executable, __file__, "--child", kind], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return {k: float(v) for k, v in (item.split("=") for item in out)}


def _instructions(kind: str, env: dict[str, str], until: str = "PAINT") -> int:
    env = {**env, "LLM_ADVISOR_HOME": tempfile.mkdtemp(prefix="advisor-start-"), "ADVISOR_T0": repr(time.time()),
           f"ADVISOR_EXIT_AT_{until}": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        err = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", sys.executable,
                              __file__, "--child", kind], env=env, capture_output=True, text=True).stderr
    return int(next(line for line in err.splitlines() if "Collected" in line).split()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--instructions", action="store_true", help="count instructions to the first paint (valgrind)")
    parser.add_argument("--child", choices=("app", "bare"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["QT_QPA_PLATFORM"] = os.environ.get("QT_QPA_PLATFORM", "offscreen")
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "advisor-ui-startup-pycache")
    _run("app", env), _run("bare", env)  # warm the file and bytecode caches
    if args.instructions:
        app_i, bare_i = _instructions("app", env), _instructions("bare", env)
        print(f"instructions to the first paint: app {app_i / 1e9:.3f} G, bare {bare_i / 1e9:.3f} G, "
              f"ratio {app_i / bare_i:.2f}")
        ready_i = _instructions("app", env, "READY")
        print(f"instructions until the app's catalog, estimates and visible plot are on screen: {ready_i / 1e9:.3f} G, "
              f"ratio to the bare window's first paint {ready_i / bare_i:.2f}")
        return 0
    runs: dict[str, list[dict[str, float]]] = {"app": [], "bare": []}
    for i in range(args.runs):
        for kind in (("app", "bare") if i % 2 == 0 else ("bare", "app")):
            runs[kind].append(_run(kind, env))

    def med(kind: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[kind])

    def pair_ratio(key: str) -> float:
        return statistics.median(a[key] / b[key] for a, b in zip(runs["app"], runs["bare"]))

    print(f"{args.runs} paired cold starts (app, bare alternating), QT_QPA_PLATFORM={env['QT_QPA_PLATFORM']}")
    print(f"  first paint        app {med('app', 'paint'):.3f} s   bare {med('bare', 'paint'):.3f} s   "
          f"ratio {med('app', 'paint') / med('bare', 'paint'):.2f} (median of pair ratios {pair_ratio('paint'):.2f})")
    print(f"  CPU at first paint app {med('app', 'paint_cpu'):.3f} s   bare {med('bare', 'paint_cpu'):.3f} s   "
          f"ratio {med('app', 'paint_cpu') / med('bare', 'paint_cpu'):.2f} (median of pair ratios {pair_ratio('paint_cpu'):.2f})")
    print(f"  peak RSS at paint  app {med('app', 'paint_rss_mb'):.1f} MB  bare {med('bare', 'paint_rss_mb'):.1f} MB  "
          f"ratio {med('app', 'paint_rss_mb') / med('bare', 'paint_rss_mb'):.2f} "
          f"(median of pair ratios {pair_ratio('paint_rss_mb'):.2f})")
    print(f"  app: catalog, estimates and the visible plot on screen  median {med('app', 'ready'):.3f} s  "
          f"max {max(r['ready'] for r in runs['app']):.3f} s  (peak RSS {med('app', 'ready_rss_mb'):.1f} MB); "
          f"ratio to the bare window's first paint {med('app', 'ready') / med('bare', 'paint'):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
