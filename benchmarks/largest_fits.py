"""What each build's largest model costs the window's background search (the Fit plot's lines).

The window searches, once the job stays put, what would make each build fit (``evaluate.suggestions_for``)
and, with it, each build's largest model per technique (``evaluate.largest_fits_for``: a bisection of
generic decoders with the build's own plan search, ``advisor.core.advice.largest``). This script times the
two for the six builds of ``benchmarks/ui_recompute.py``, for an inference job (vLLM, 16 × 8,192 tokens) and
a training one (LoRA), with a job too big for some builds so that suggestions are searched too. Reference
in the same run: one ``best_plan`` of the canonical job on the 3090 pair.

Run: ``.venv/bin/python benchmarks/largest_fits.py [--repeat 5]``
"""

from __future__ import annotations

import argparse
import functools
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


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main() -> int:
    from advisor.core.advice import evaluate
    from advisor.core.advice.comparison import BuildEntry, canonical_comparison
    from advisor.core.job.choices import Method, Mode
    from advisor.core.job.planned import PlanPins, job_of
    from advisor.core.plan.planner import best_plan
    from advisor.storage.catalog_store import load_catalog
    from benchmarks.ui_recompute import SIX

    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    catalog = load_catalog().catalog
    six = tuple(BuildEntry(name=name, **src) for name, src in SIX)
    c = canonical_comparison()
    arch = evaluate.resolve_model(catalog, c.model)
    pair = evaluate.resolve_entry(catalog, c.builds[0])
    one = _median_ms(lambda: best_plan(arch, job_of(c.workload), pair, PlanPins(), 0.02, quick=True), args.repeat * 20)
    print(f"reference: one best_plan of the canonical job on the 3090 pair: {one:.2f} ms")
    print("| job | suggestions (ms) | largest models (ms) | × one best_plan |")
    print("|---|---:|---:|---:|")
    jobs = {"inference, vLLM 16 × 8k": c.workload,
            "LoRA, micro-batch 8 × 4k": c.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA,
                                                                       "batch": 8, "seq_len": 4096})}
    for name, job in jobs.items():
        results = evaluate.evaluate(catalog, arch, job, six, suggest=False)
        inputs, fits = evaluate.suggestion_inputs(results), evaluate.fit_inputs(results)
        found = _median_ms(functools.partial(evaluate.suggestions_for, arch, job, inputs, 0.05), args.repeat)
        largest = _median_ms(functools.partial(evaluate.largest_fits_for, job, fits, 0.05), args.repeat)
        print(f"| {name} | {found:.0f} | {largest:.0f} | {largest / one:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
