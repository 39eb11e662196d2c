"""A workload change in the window: time until the table and verdict are painted, and until the plot is.

Six builds of different kinds (the comparison of ``tests/plots/test_plot_labels.py``: an NVLink pair,
a PCIe pair, a Mac Studio, a DGX H100 in place of its DGX-2, a cloud H200, one RTX 5090); the first 2, 4 and 6 of them,
interleaved in rounds so that the machine's load falls on all three alike. Each sample is a
``Session.set_workload`` with a new batch and context (never seen before in the run, so no cache
holds its sweep), then the event loop runs until the window has painted:

* table + verdict: the first paint of the builds table after the change (the verdict label is
  painted in the same pass of the window);
* plots: the first paint of the visible plot (the Fit tab, the heaviest: it waits for the fit
  sweep from its worker thread) after it was redrawn from the change's results;
* longest UI stall: the longest gap between two ticks of a 1 ms timer during the sample (how
  long the UI thread could not answer a key press).

``--during-search`` makes each change while the search for what would make a build fit runs on the
worker thread (it starts once the job has stayed put for ``SUGGEST_DELAY_MS``): a user who pauses
and types again.

``--pause-ms N`` waits N ms before each change with nothing running: the UI thread's first work after a
pause runs slower on this VM (about 1.3-1.5x at 300 ms, thirteenth session), whether or not a search runs.
``--idle-ms N`` waits N ms before each change with the window's event loop running, as it runs while a
user pauses: what the window does when idle runs in the pause (the young garbage collection after
``idle_gc.YOUNG_IDLE_MS``, the search for what would make a build fit after ``SUGGEST_DELAY_MS``).

``--stages`` also prints, for six builds, when each stage of a change ended (results computed,
table painted, the fit sweep's curves in and the plot redrawn, plot painted): where the time goes;
the time from the results to the table's paint and from the table's paint to the plot's, per change;
and the garbage collections (``gc.callbacks``) run between the change and the table's paint.

Reference in the same process: one ``estimate()`` of the window's first job on its first build,
median of 200 (the ``×`` column divides by it, for comparing runs on a loaded machine).
Offscreen Qt unless QT_QPA_PLATFORM says otherwise.

Run: ``.venv/bin/python benchmarks/ui_recompute.py [--samples 100] [--tab 0] [--train] [--stages] [--during-search]``
"""

from __future__ import annotations

import argparse
import gc
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

SIX = (  # the six-build comparison of tests/plots/test_plot_labels.py and the screenshots
    ("2× RTX 3090 (NVLink)", {"build_id": "2x-rtx-3090-nvlink"}),
    ("2× RTX 4090 (PCIe)", {"build_id": "2x-rtx-4090-pcie-x16"}),
    ("Mac Studio M3 Ultra 96GB", {"system_id": "apple-mac-studio-m3-ultra-96gb"}),
    ("NVIDIA DGX H100", {"system_id": "nvidia-dgx-h100"}),  # the DGX-2 there has no verified GPU configuration now
    ("RunPod H200 (Secure Cloud)", {"cloud_id": "runpod-h200-secure-cloud"}),
    ("1× RTX 5090", {"gpu_id": "rtx-5090", "gpu_count": 1}),
)
COUNTS = (2, 4, 6)
SAMPLE_TIMEOUT_S = 5.0


def _reference_us() -> float:
    from advisor.core.advice.comparison import canonical_comparison
    from advisor.core.advice.evaluate import resolve_entry, resolve_model
    from advisor.core.estimation.estimator import estimate
    from advisor.core.job.planned import alone
    from advisor.storage.catalog_store import load_catalog

    catalog = load_catalog().catalog
    c = canonical_comparison()
    arch, build = resolve_model(catalog, c.model), resolve_entry(catalog, c.builds[0])
    job = alone(c.workload)  # on one GPU, as the estimate takes it
    times = []
    for _ in range(200):
        t = time.perf_counter()
        estimate(arch, job, build)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18]


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=100, help="per build count")
    parser.add_argument("--tab", type=int, default=0, help="visible tab: 0 Fit, 1 Memory, 2 Speed, 3 Value")
    parser.add_argument("--stages", action="store_true",
                        help="also print, for the largest build count, when each stage of a change ended: the "
                             "builds' results computed, the table painted, the fit sweep's curves in, the plot painted")
    parser.add_argument("--during-search", action="store_true",
                        help="make each change while the search for what would make a build fit runs on the worker "
                             "(as when a user pauses, then types again); samples without a search are still taken")
    parser.add_argument("--pause-ms", type=float, default=0.0,
                        help="wait this long before each change, with nothing running (as a user who pauses; "
                             "--during-search waits for the search, SUGGEST_DELAY_MS and more)")
    parser.add_argument("--idle-ms", type=float, default=0.0,
                        help="wait this long before each change with the event loop running (a user's pause: the "
                             "window's idle work runs in it)")
    parser.add_argument("--train", action="store_true",
                        help="a LoRA fine-tune of the same model (the plan search tries training schemes)")
    return parser.parse_args()


def _paint_spy(on_paint):
    """An application-wide event filter that calls ``on_paint(widget)`` for each paint event."""
    from PySide6.QtCore import QEvent, QObject

    class Spy(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint:
                on_paint(obj)
            return False

    return Spy()


class _Probe:
    """The window, and when each stage of the change under way ended (seconds after ``t0``)."""

    def __init__(self, tab: int) -> None:
        from PySide6.QtCore import QElapsedTimer, Qt, QTimer
        from PySide6.QtWidgets import QApplication

        self.app = QApplication([])
        from advisor.ui.app import build_window

        self.session, self.window = build_window()
        window = self.window
        window.skip_unsaved_prompt = True
        window.resize(1280, 800)
        window.show()
        window.finish_start()
        window.tabs.setCurrentIndex(tab)
        self.tab = tab
        self.table = window.builds_panel.table_builds.viewport()
        canvas = window.tabs.view(tab)
        self.canvas = getattr(canvas, "canvas", canvas).viewport()
        self.marks: dict[str, float] = {}
        self.t0 = 0.0
        self.collecting = [0.0, 0.0, 0]  # start of the collection under way; ms collected before the table's paint; count
        window.tabs.view_drawn.connect(self._on_drawn)
        self.session.results_computed.connect(lambda _r: self._mark("computed"))
        self.session.curves_computed.connect(lambda _r: self._mark("curves"))
        gc.callbacks.append(self._on_collection)
        self.spy = _paint_spy(self._on_paint)
        self.app.installEventFilter(self.spy)
        self.ticks = QElapsedTimer()
        self.gap_ms = 0.0
        self.heartbeat = QTimer()
        self.heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
        self.heartbeat.setInterval(1)
        self.heartbeat.timeout.connect(self._tick)

    def _mark(self, stage: str) -> None:
        self.marks.setdefault(stage, time.perf_counter() - self.t0)

    def _on_paint(self, obj) -> None:
        now = time.perf_counter()
        if obj is self.table and "computed" in self.marks and "table" not in self.marks:  # the new numbers, not a
            # repaint of the old ones between the turns of the builds' pass
            self.marks["table"] = now - self.t0
        elif obj is self.canvas and "drawn" in self.marks and "plots" not in self.marks:
            self.marks["plots"] = now - self.t0

    def _on_drawn(self, index: int) -> None:
        if index == self.tab and not self.session.sweep_pending:
            self._mark("drawn")

    def _on_collection(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self.collecting[0] = time.perf_counter()
        elif "table" not in self.marks:
            self.collecting[1] += (time.perf_counter() - self.collecting[0]) * 1e3
            self.collecting[2] += 1

    def _tick(self) -> None:
        self.gap_ms = max(self.gap_ms, float(self.ticks.restart()))

    def _wait(self, busy, slice_ms: int, until: float) -> None:
        from PySide6.QtCore import QEventLoop

        while busy() and time.perf_counter() < until:
            self.app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, slice_ms)

    def settle(self) -> None:
        """Until the window has computed and drawn what it shows (or ``SAMPLE_TIMEOUT_S``)."""
        session, tabs = self.session, self.window.tabs
        self._wait(lambda: session.results_pending or session.sweep_pending or not tabs.up_to_date(), 50,
                   time.perf_counter() + SAMPLE_TIMEOUT_S)

    def pause(self, args: argparse.Namespace) -> None:
        """What the user does before the change: waits for the search, pauses, or leaves the window idle."""
        self.app.processEvents()
        if args.during_search:  # the search starts SUGGEST_DELAY_MS after the job stays put
            self._wait(lambda: self.session.scheduler.search.job is None, 5, time.perf_counter() + 2.0)
            time.sleep(0.01)  # the worker is into it
        elif args.pause_ms:
            time.sleep(args.pause_ms / 1e3)
        elif args.idle_ms:
            from PySide6.QtCore import QEventLoop

            end = time.perf_counter() + args.idle_ms / 1e3
            while (left := end - time.perf_counter()) > 0:
                self.app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, max(1, int(left * 1e3)))

    def change(self, workload) -> bool:
        """Set ``workload`` and run the event loop until the table and the plot are painted; True if both were."""
        self.marks.clear()
        self.collecting[1:] = [0.0, 0]
        self.heartbeat.start()
        self.ticks.start()
        self.gap_ms = 0.0
        self.t0 = time.perf_counter()
        self.session.set_workload(workload)
        self._wait(lambda: "plots" not in self.marks or "table" not in self.marks, 5, self.t0 + SAMPLE_TIMEOUT_S)
        self.heartbeat.stop()
        self._tick()
        return "plots" in self.marks and "table" in self.marks


def _measure(probe: _Probe, args: argparse.Namespace) -> tuple[dict[int, dict[str, list[float]]], list[dict[str, float]]]:
    """Per build count, the table's and plot's paint times and the longest stall (ms); the stages of six builds."""
    from advisor.core.advice.comparison import BuildEntry

    builds = tuple(BuildEntry(name=n, **src) for n, src in SIX)
    base = probe.session.workload
    if args.train:
        from advisor.core.job.choices import Method, Mode

        base = base.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA})
    out: dict[int, dict[str, list[float]]] = {n: {"table": [], "plots": [], "stall": []} for n in COUNTS}
    stages: list[dict[str, float]] = []
    k = 0
    for r in range(max(1, args.samples // 10) + 1):  # round 0 is the warm-up (first imports, first drawing of each tab)
        for n in COUNTS:
            probe.session.set_builds(builds[:n], f"{n} builds")
            probe.settle()
            for _ in range(10 if r else 3):
                k += 1
                change = ({"batch": 1 + k % 61, "seq_len": 1024 + 128 * (k // 61)} if args.train else
                          {"batch": 1 + k % 61, "context_len": 1024 + 128 * (k // 61)})
                w = base.model_copy(update=change)
                probe.pause(args)
                if probe.change(w) and r:
                    if n == COUNTS[-1]:
                        stages.append({**probe.marks, "gc_ms": probe.collecting[1], "gc_n": probe.collecting[2]})
                    out[n]["table"].append(probe.marks["table"] * 1e3)
                    out[n]["plots"].append(probe.marks["plots"] * 1e3)
                    out[n]["stall"].append(probe.gap_ms)
    return out, stages


def _print_stages(stages: list[dict[str, float]]) -> None:
    print(f"{COUNTS[-1]} builds, ms after the change (p50 / p95): " + "; ".join(
        f"{label} {statistics.median(v):.1f} / {_p95(v):.1f}" for label, key in
        (("results computed", "computed"), ("table painted", "table"), ("curves in and plot redrawn", "curves"),
         ("plot painted", "plots"))
        if len(v := [d[key] * 1e3 for d in stages if key in d]) > 1))
    # Per change, the time from one stage to the next: what follows the builds' pass (the VM's
    # speed moves the pass itself most, so these compare two versions of the window better).
    print(f"{COUNTS[-1]} builds, ms between stages of a change (p50 / p95): " + "; ".join(
        f"{label} {statistics.median(v):.1f} / {_p95(v):.1f}" for label, a, b in
        (("results computed to table painted", "computed", "table"),
         ("table painted to plot painted", "table", "plots"))
        if len(v := [(d[b] - d[a]) * 1e3 for d in stages if a in d and b in d]) > 1))
    gc_ms = [d["gc_ms"] for d in stages]
    print(f"{COUNTS[-1]} builds, garbage collection between the change and the table's paint: "
          f"{statistics.mean(d['gc_n'] for d in stages):.1f} collections per change (mean), "
          f"{statistics.median(gc_ms):.2f} / {_p95(gc_ms):.2f} ms (p50 / p95), in {sum(1 for v in gc_ms if v)} of "
          f"{len(gc_ms)} changes")


def main() -> int:
    args = _arguments()
    probe = _Probe(args.tab)
    out, stages = _measure(probe, args)
    rounds = max(1, args.samples // 10)
    ref = _reference_us()
    tab = probe.window.tabs.tabText(args.tab)
    print(f"{'training' if args.train else 'inference'} workload changes, visible tab {tab}, {rounds * 10} samples per build count; "
          f"reference: one estimate() {ref:.0f} µs (median of 200, same process)")
    print("builds | table+verdict painted: p50 / p95 ms (× ref) | plot painted: p50 / p95 ms (× ref) | longest UI stall p95 ms")
    for n in COUNTS:
        d = out[n]
        if len(d["table"]) < 2:
            print(f"{n} | no complete sample")
            continue
        tp, pp = _p95(d["table"]), _p95(d["plots"])
        print(f"{n} | {statistics.median(d['table']):.1f} / {tp:.1f} ({tp * 1e3 / ref:.0f}) | "
              f"{statistics.median(d['plots']):.1f} / {pp:.1f} ({pp * 1e3 / ref:.0f}) | {_p95(d['stall']):.1f}")
    if args.stages and len(stages) > 1:
        _print_stages(stages)
    probe.window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
