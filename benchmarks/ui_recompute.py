"""Time from a workload change to every view redrawn, with 4 builds and every tab built.

Each sample: ``Session.set_workload`` (estimates for each build, fit curves, largest fits,
table, messages and the visible tab updated through setData; hidden tabs are marked stale
and redraw when shown, ``--all-tabs`` redraws them too) then ``processEvents`` until the
window has repainted. Offscreen Qt unless QT_QPA_PLATFORM says otherwise.

Run: ``.venv/bin/python benchmarks/ui_recompute.py [--samples 200]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LLM_ADVISOR_HOME", tempfile.mkdtemp(prefix="advisor-bench-"))

EXTRA_BUILDS = (("1× RTX 4090", {"gpu_id": "rtx-4090", "gpu_count": 1}),
                ("AWS g6e.12xlarge", {"cloud_id": "aws-g6e.12xlarge"}))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--all-tabs", action="store_true",
                        help="also redraw the hidden tabs on each change (the app defers them until shown)")
    args = parser.parse_args()
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from advisor.core.advice.comparison import BuildEntry
    from advisor.ui.app import build_window

    session, window = build_window()
    window.skip_unsaved_prompt = True
    window.resize(1280, 800)
    window.show()
    window.finish_start()
    for name, src in EXTRA_BUILDS:
        session.add_build(BuildEntry(name=name, **src))
    for i in range(window.tabs.count()):
        window.tabs.view(i)  # build every tab: all views take part in each update
    app.processEvents()
    base = session.workload
    changes = [{"batch": b} for b in (1, 2, 4, 8, 16, 32)] + [{"context_len": c} for c in (2048, 4096, 8192, 16384)]
    times, compute_times = [], []
    for k in range(args.samples + 10):
        w = base.model_copy(update=changes[k % len(changes)])
        if w == session.workload:
            w = base.model_copy(update={"batch": 3})
        t0 = time.perf_counter()
        session.set_workload(w)
        if args.all_tabs:
            for view in window.tabs.views.values():
                view.update_from(session.results)
        t1 = time.perf_counter()
        app.processEvents()
        t2 = time.perf_counter()
        if k >= 10:  # warm-up: first imports and caches
            times.append((t2 - t0) * 1e3)
            compute_times.append((t1 - t0) * 1e3)
    q = statistics.quantiles(times, n=20)
    print(f"builds={len(session.builds)} tabs built={len(window.tabs.views)} samples={len(times)}")
    print(f"recompute+repaint ms: median {statistics.median(times):.1f}  p95 {q[18]:.1f}  max {max(times):.1f}")
    print(f"  of which recompute+setData (before the paint) median {statistics.median(compute_times):.1f} ms")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
