"""A full repaint of the Fit plot with six builds (what the window pays when the plot beside a growing
table is resized, or is uncovered), against a bare pyqtgraph plot of one curve in the same process.

The window's Fit canvas after a LoRA job on the six builds of ``ui_recompute.py``; ``viewport().repaint()``
200 times (the first 20 left out), median and p90; the reference is the same loop over a
``pg.PlotWidget`` of the same size showing one 40-point curve. Offscreen Qt unless QT_QPA_PLATFORM says
otherwise.

Run: ``.venv/bin/python benchmarks/fit_paint.py``
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LLM_ADVISOR_HOME", tempfile.mkdtemp(prefix="fit-paint-"))

REPAINTS = 200


def _repaint_ms(widget) -> list[float]:
    out = []
    for _ in range(REPAINTS):
        t = time.perf_counter()
        widget.repaint()
        out.append((time.perf_counter() - t) * 1e3)
    return out[20:]


def main() -> int:
    import numpy as np
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv[:1])
    import ui_recompute

    from advisor.core.advice.comparison import BuildEntry
    from advisor.core.job.choices import Method, Mode
    from advisor.ui.app import build_window

    session, window = build_window()
    session.slice_ms = float("inf")  # every change at once: the plot is drawn when set_workload returns
    window.skip_unsaved_prompt = True
    window.resize(1280, 800)
    window.show()
    window.finish_start()
    window.tabs.setCurrentIndex(0)
    session.set_builds(tuple(BuildEntry(name=n, **s) for n, s in ui_recompute.SIX), "six builds")
    session.set_workload(session.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA}))
    for _ in range(50):
        app.processEvents()
    viewport = window.tabs.view(0).canvas.viewport()
    bare = pg.PlotWidget()
    bare.resize(viewport.size())
    bare.plot(np.arange(40.0), np.arange(40.0) ** 2)
    bare.show()
    app.processEvents()
    fit, ref = _repaint_ms(viewport), _repaint_ms(bare.viewport())
    f50, r50 = statistics.median(fit), statistics.median(ref)
    print(f"full repaint, {viewport.width()}×{viewport.height()} px, median / p90 of {REPAINTS - 20}:")
    print(f"  Fit plot, six builds  {f50:.2f} / {statistics.quantiles(fit, n=10)[8]:.2f} ms")
    print(f"  bare plot, one curve  {r50:.2f} / {statistics.quantiles(ref, n=10)[8]:.2f} ms")
    print(f"  ratio {f50 / r50:.2f}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
