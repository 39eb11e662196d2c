"""CPU time of one workload change through the session and the window's slots, on the UI thread.

Six builds of different kinds (``ui_recompute.SIX``), a LoRA fine-tune, each sample a new micro-batch and
sequence length; every change computed at once (``slice_ms`` inf, no core process: the builds' pass, the
ranking, and every slot the change's signals reach: the table, the verdict, the workload panel). Thread CPU
time (``time.thread_time``), so another process's load moves it less than wall time; nothing is painted.
Compare trees in alternating runs (``--root`` another checkout: its code, this script).

Run: ``.venv/bin/python benchmarks/ui_change_cpu.py [--changes 150] [--root PATH]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--changes", type=int, default=150)
    ap.add_argument("--root", type=Path, default=HERE.parent, help="the checkout whose advisor/ is measured")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("LLM_ADVISOR_HOME", tempfile.mkdtemp(prefix="advisor-bench-"))
    sys.path.insert(0, str(HERE))
    import ui_recompute  # its six builds (it puts this checkout first on the path: the root goes before it)

    sys.path.insert(0, str(args.root))
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from advisor.core.advice.comparison import BuildEntry
    from advisor.core.job.choices import Method, Mode
    from advisor.ui.app import build_window

    session, window = build_window()
    window.skip_unsaved_prompt = True
    window.show()
    window.finish_start()
    session.core_process = None
    session.slice_ms = float("inf")
    six = tuple(BuildEntry(name=n, **s) for n, s in ui_recompute.SIX)
    (getattr(session, "set_builds", None) or session._set_builds)(six, "six builds")  # older trees: _set_builds
    for _ in range(20):
        app.processEvents()
    base = session.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA})
    times = []
    for i in range(args.changes):
        w = base.model_copy(update={"batch": 1 + i % 50, "seq_len": 512 + 64 * (i // 50)})
        t = time.thread_time()
        session.set_workload(w)
        times.append(time.thread_time() - t)
        app.processEvents()
    times.sort()
    import advisor.ui.session as session_module

    print(f"{Path(session_module.__file__).parents[2]}: {args.changes} six-build training changes, CPU ms per change: p25 "
          f"{1e3 * times[len(times) // 4]:.2f}, p50 {1e3 * statistics.median(times):.2f}, min {1e3 * times[0]:.2f}")
    window.close()
    session.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
