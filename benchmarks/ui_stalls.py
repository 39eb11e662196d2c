"""What fills the window's longest stalls during workload changes: a diagnostic, not a target.

``ui_recompute.py`` reports the longest gap between two ticks of a 1 ms timer; this script makes the
same changes (six builds, a LoRA job's batch and sequence length, as ``ui_recompute.py --train``) and,
for each gap longer than ``--over`` ms, lists the top-level events Qt delivered inside it (receiver
class and event type, from a ``QApplication.notify`` wrapper) and the session's steps that ran there
(``Session.set_workload``, the scheduler's ``_continue_pass``, ``_continue_sweep``, ``_on_sweep_finished``), longest
gaps first. Several events back to back with no timer tick between them make one stall.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/ui_stalls.py [--changes 120] [--over 14] [--show 15]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LLM_ADVISOR_HOME", tempfile.mkdtemp(prefix="ui-stalls-"))

STEPS = (("session", "Session", "set_workload"), ("recompute.scheduler", "RecomputeScheduler", "_continue_pass"),
         ("recompute.scheduler", "RecomputeScheduler", "_continue_sweep"),
         ("recompute.scheduler", "RecomputeScheduler", "_on_sweep_finished"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--changes", type=int, default=120)
    ap.add_argument("--over", type=float, default=14.0, help="list gaps longer than this (ms)")
    ap.add_argument("--show", type=int, default=15)
    a = ap.parse_args()

    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    events: list[tuple[float, float, str]] = []  # (start, end, what), top-level deliveries and steps
    depth = [0]

    class App(QApplication):
        def notify(self, receiver, event):  # noqa: N802 - Qt's name
            depth[0] += 1
            t = time.perf_counter()
            try:
                return super().notify(receiver, event)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    events.append((t, time.perf_counter(), f"{type(receiver).__name__} {event.type().name}"))

    app = App(sys.argv[:1])
    import importlib

    import ui_recompute

    from advisor.core.advice.comparison import BuildEntry
    from advisor.core.job.choices import Method, Mode
    from advisor.ui.app import build_window

    for module, cls_name, name in STEPS:
        cls = getattr(importlib.import_module(f"advisor.ui.{module}"), cls_name)
        original = getattr(cls, name)

        def timed(self, *args, _original=original, _name=f"{cls_name}.{name}", **kw):
            t = time.perf_counter()
            try:
                return _original(self, *args, **kw)
            finally:
                events.append((t, time.perf_counter(), _name))

        setattr(cls, name, timed)

    session, window = build_window()
    window.skip_unsaved_prompt = True
    window.resize(1280, 800)
    window.show()
    window.finish_start()
    window.tabs.setCurrentIndex(0)
    ticks: list[float] = []
    tick = QTimer()
    tick.setInterval(1)
    tick.setTimerType(Qt.TimerType.PreciseTimer)
    tick.timeout.connect(lambda: ticks.append(time.perf_counter()))
    tick.start()
    session.set_builds(tuple(BuildEntry(name=n, **s) for n, s in ui_recompute.SIX), "six builds")
    base = session.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA})

    def settle() -> None:
        end = time.perf_counter() + 5
        while (session.results_pending or session.sweep_pending or not window.tabs.up_to_date()) \
                and time.perf_counter() < end:
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
        end = time.perf_counter() + 0.1
        while time.perf_counter() < end:
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 10)

    settle()
    events.clear()
    ticks.clear()
    for k in range(1, a.changes + 1):
        session.set_workload(base.model_copy(update={"batch": 1 + k % 61, "seq_len": 1024 + 128 * (k // 61)}))
        settle()
    gaps = sorted(((b - t) * 1e3, t, b) for t, b in zip(ticks, ticks[1:]) if (b - t) * 1e3 > a.over)
    print(f"{a.changes} changes, {len(ticks)} ticks, {len(gaps)} gaps over {a.over:g} ms; longest first:")
    for gap, t0, t1 in reversed(gaps[-a.show:]):
        inside = [f"{what} {(e1 - e0) * 1e3:.1f}" for e0, e1, what in sorted(events)
                  if e0 >= t0 - 1e-4 and e1 <= t1 + 1e-4 and (e1 - e0) * 1e3 > 1.5]
        print(f"{gap:6.1f} ms: " + "; ".join(inside))
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
