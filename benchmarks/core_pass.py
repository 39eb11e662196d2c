"""The core's work for one workload change in the window, without Qt.

The six builds of ``benchmarks/ui_recompute.py`` (its ``SIX``), the window's model (the
canonical comparison's), each change a new batch and sequence length (context length for
inference) as ``ui_recompute.py`` makes them, so no cache keyed by the workload helps:

* pass: ``evaluate_build`` of the six builds without the suggestions and, since the fifteenth session,
  without what only the Details tab shows (``quick=True``: what the window's ``RecomputeScheduler._continue_pass``
  computes before the table paints), then ``assemble``;
* sweep: ``fit_curves`` of the changed workload (the Fit plot's curves).

Builds are prepared once (``prepare_build``, as the window keeps them) and one change is made
before any timing (per-model caches warm, as in a window that has drawn once).

Wall time (``--changes N``, default 27): median and p95 per change of each, on this process.
``--instructions``: the same, counted by ``valgrind --tool=callgrind`` (a figure the machine's
load does not move): the script runs under valgrind three times — setup and the warm-up change
only, then with N passes, then with N sweeps — and prints (run − setup) / N for each.

Run: ``.venv/bin/python benchmarks/core_pass.py [--inference] [--changes 27] [--instructions]``
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("LLM_ADVISOR_HOME", tempfile.mkdtemp(prefix="advisor-bench-"))

from benchmarks.ui_recompute import SIX  # noqa: E402 (after the path set-up; no Qt import at module level)


def setup(train: bool):
    """(catalog, arch, entries, prepared, base workload, margin function)."""
    from advisor.core.advice.comparison import BuildEntry, canonical_comparison
    from advisor.core.advice.evaluate import prepare_build, resolve_model
    from advisor.core.job.choices import Method, Mode
    from advisor.storage.catalog_store import load_catalog
    from advisor.storage.error_bands import median_pct

    catalog = load_catalog().catalog
    c = canonical_comparison()
    arch = resolve_model(catalog, c.model)
    entries = tuple(BuildEntry(name=n, **src) for n, src in SIX)
    prepared = tuple(prepare_build(catalog, e) for e in entries)
    base = c.workload
    if train:
        base = base.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA})

    def margin(w) -> float:
        band = median_pct(w)
        return band / 100 if band is not None else 0.0

    return catalog, arch, entries, prepared, base, margin


def change(base, k: int, train: bool):
    """The k-th change of ``ui_recompute.py``: a new batch and sequence (or context) length."""
    key = "seq_len" if train else "context_len"
    return base.model_copy(update={"batch": 1 + k % 61, key: 1024 + 128 * (k // 61)})


def one_pass(catalog, arch, entries, prepared, w, margin: float):
    from advisor.core.advice.evaluate import (
        assemble,
        evaluate_build,
        technique_workloads,
    )

    done = [evaluate_build(catalog, arch, w, e, margin, False, p, quick=True)  # as the window: Details adds the rest
            for e, p in zip(entries, prepared, strict=True)]
    return assemble(arch, w, done, ({}, technique_workloads(w)[1]))


def one_sweep(w):
    from advisor.core.advice.evaluate import fit_curves
    from advisor.core.job.planned import job_of

    return fit_curves(job_of(w))


def run(train: bool, changes: int, what: str) -> dict[str, list[float]]:
    catalog, arch, entries, prepared, base, margin = setup(train)
    w0 = change(base, 0, train)  # warm-up: per-model caches filled, as in a window that drew once
    one_pass(catalog, arch, entries, prepared, w0, margin(w0))
    one_sweep(w0)
    gc.collect()  # the same start for every run: the setup's garbage is not collected inside the count
    times: dict[str, list[float]] = {"pass": [], "sweep": []}
    for k in range(1, changes + 1):
        w = change(base, k, train)
        if what in ("pass", "both"):
            t = time.perf_counter()
            one_pass(catalog, arch, entries, prepared, w, margin(w))
            times["pass"].append(time.perf_counter() - t)
        if what in ("sweep", "both"):
            t = time.perf_counter()
            one_sweep(w)
            times["sweep"].append(time.perf_counter() - t)
    return times


def _callgrind(train: bool, changes: int, what: str) -> int:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "cg.out"
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
               "--changes", str(changes), "--only", what] + ([] if train else ["--inference"])
        done = subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONHASHSEED": "0"})
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr[-3000:]}")
        m = re.search(r"^(?:summary|totals): (\d+)", out.read_text(errors="replace"), re.MULTILINE)
        if m is None:
            raise RuntimeError("no instruction total in callgrind's output")
        return int(m.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inference", action="store_true", help="the window's own inference job (default: its LoRA)")
    parser.add_argument("--changes", type=int, default=27)
    parser.add_argument("--instructions", action="store_true", help="count instructions under valgrind's callgrind")
    parser.add_argument("--only", choices=("pass", "sweep", "both", "none"), default="both", help=argparse.SUPPRESS)
    args = parser.parse_args()
    train = not args.inference
    job = "LoRA training" if train else "inference"
    if args.only != "both":  # a run under valgrind (``--instructions``)
        run(train, args.changes if args.only != "none" else 0, args.only)
        return 0
    if args.instructions:
        setup_only = _callgrind(train, 0, "none")
        for what in ("pass", "sweep"):
            total = _callgrind(train, args.changes, what)
            print(f"{job}, six builds, {what}: {(total - setup_only) / args.changes / 1e6:.2f} M instructions per change "
                  f"(callgrind, {args.changes} changes; setup {setup_only / 1e6:.0f} M subtracted)")
        return 0
    times = run(train, args.changes, "both")
    for what, v in times.items():
        v_ms = [x * 1e3 for x in v]
        p95 = statistics.quantiles(v_ms, n=20)[18] if len(v_ms) > 1 else v_ms[0]
        print(f"{job}, six builds, {what}: {statistics.median(v_ms):.2f} / {p95:.2f} ms per change (p50 / p95 of "
              f"{len(v_ms)}, wall time; load average {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
