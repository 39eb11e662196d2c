"""How soon the core's process answers a change typed while it searches.

The window sends each change's Fit sweep to the core's process (``advisor.ui.core_process``); when
the user pauses, the same process searches what would make the builds fit, and a change typed then
stops the search (within one plan search) before its sweep is computed. The Fit plot waits for that
answer. This script runs two such workers side by side, both spawned as the window spawns its own:

* ``pause``: the window's worker (``core_process._worker_main``: its garbage collections wait for
  a pause, ``PauseCollector``);
* ``counts``: the same ``serve`` with CPython's collections by allocation counts (what the worker
  did before).

Each sample, on each worker in turn: a search of the six builds of ``benchmarks/ui_recompute.py``
in training (a LoRA job of the window's model, a new batch and sequence length each time, its
inputs computed here beforehand), then after 5-60 ms a new job's sweep; timed from the sweep's
request to its answer. Between samples, 0.25 s (a user typing), and a 1 s pause every fifth one.
Reference in the same run, on the same worker: the sweep of another new job asked for with
nothing running (``alone``).

Run: ``.venv/bin/python benchmarks/worker_answer.py [--samples 40]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("LLM_ADVISOR_HOME", tempfile.mkdtemp(prefix="advisor-bench-"))

DELAYS_MS = (5, 15, 30, 60)  # from the search's request to the change's
TYPING_S, PAUSE_S, PAUSE_EVERY = 0.25, 1.0, 5


def _counts_main(conn) -> None:
    """The worker without ``PauseCollector`` (CPython's thresholds)."""
    from advisor.ui.core_process import serve

    serve(conn)


def _jobs(n: int):
    from advisor.core.advice import evaluate
    from advisor.core.advice.comparison import BuildEntry, canonical_comparison
    from advisor.core.job.choices import Method, Mode
    from advisor.storage.catalog_store import load_catalog
    from benchmarks.ui_recompute import SIX

    catalog = load_catalog().catalog
    c = canonical_comparison()
    arch = evaluate.resolve_model(catalog, c.model)
    base = c.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA})
    builds = tuple(BuildEntry(name=name, **src) for name, src in SIX)
    out = []
    for k in range(n):
        w = base.model_copy(update={"batch": 1 + k % 61, "seq_len": 1024 + 128 * (k // 61)})
        inputs = evaluate.suggestion_inputs(evaluate.evaluate(catalog, arch, w, builds, suggest=False))
        out.append((arch, w, inputs))
    return out


def _answer(conn, key: int) -> float:
    """Read answers until ``key``'s; when it came (perf_counter)."""
    while True:
        k, _out = conn.recv()
        if k == key:
            return time.perf_counter()


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=40, help="per worker")
    args = parser.parse_args()
    from advisor.ui import core_process

    n = args.samples
    jobs = _jobs(3 * n)  # per sample: the searched job, the change's, the reference's (each new)
    ctx = multiprocessing.get_context("spawn")
    workers = {}
    for name, target in (("pause", core_process._worker_main), ("counts", _counts_main)):
        ours, theirs = ctx.Pipe()
        process = ctx.Process(target=target, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        workers[name] = (ours, process)
    for ours, _ in workers.values():
        assert ours.recv() == "ready"
    during: dict[str, list[float]] = {name: [] for name in workers}
    alone: dict[str, list[float]] = {name: [] for name in workers}
    key = 0
    for s in range(n):
        searched, changed, reference = jobs[3 * s], jobs[3 * s + 1], jobs[3 * s + 2]
        for name, (conn, _) in workers.items():
            key += 1
            conn.send((key, "search", (searched[0], searched[1], searched[2], 0.0)))
            time.sleep(DELAYS_MS[s % len(DELAYS_MS)] / 1e3)
            key += 1
            t0 = time.perf_counter()
            conn.send((key, "sweep", changed[1]))
            during[name].append((_answer(conn, key) - t0) * 1e3)
            time.sleep(TYPING_S)
            key += 1
            t0 = time.perf_counter()
            conn.send((key, "sweep", reference[1]))
            alone[name].append((_answer(conn, key) - t0) * 1e3)
        time.sleep(PAUSE_S if s % PAUSE_EVERY == PAUSE_EVERY - 1 else TYPING_S)
    for conn, process in workers.values():
        conn.send(None)
        process.join(10)
    print(f"a change's sweep answered by the core's process, {n} samples per worker (ms: p50 / p95 / max)")
    print("worker | during a search | alone (reference) | p95 during / p95 alone")
    for name in workers:
        d, a = during[name], alone[name]
        print(f"{name} | {statistics.median(d):.1f} / {_p95(d):.1f} / {max(d):.1f} | "
              f"{statistics.median(a):.1f} / {_p95(a):.1f} / {max(a):.1f} | {_p95(d) / _p95(a):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
