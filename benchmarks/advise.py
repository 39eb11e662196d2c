"""How fast "Find builds" searches the whole catalog for one job (issue 13: ≤ 300 ms here).

Times ``advisor.core.advice.search.search`` over every candidate the shipped catalog makes (every
card at 1–8, NVLink pairs, builds, systems; and separately the cloud), for three jobs: 70B
Q4_K_M on llama.cpp, 8B bf16 served by vLLM (16 × 8k), and a QLoRA fine-tune of 8B. Reported as
the median of ``--repeat`` runs and as a ratio to one ``best_plan`` of the canonical pair in the
same run (the reference: what the window spends per build).

Run: ``.venv/bin/python benchmarks/advise.py [--repeat N]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from advisor.core.advice.candidates import Where  # noqa: E402
from advisor.core.advice.search import Job, SearchRequest, search  # noqa: E402
from advisor.core.hardware.catalog import resolve_build  # noqa: E402
from advisor.core.job.defaults import default_job  # noqa: E402
from advisor.core.job.workload import Workload  # noqa: E402
from advisor.core.memory import peak  # noqa: E402
from advisor.core.plan.search import best_plan  # noqa: E402
from advisor.storage.catalog_store import load_catalog  # noqa: E402


def _median_ms(fn, repeat: int) -> float:
    """Median wall time, cold: the memory cache the search fills is emptied before each run."""
    samples = []
    for _ in range(repeat):
        peak._training.cache_clear()
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    catalog = load_catalog().catalog
    m = catalog.models
    jobs = {
        "70B q4_k_m, llama.cpp": Job(arch=m["llama-3.1-70b"], workload=Workload(weights="q4_k_m", engine="llama.cpp")),
        "8B bf16, vLLM 16 x 8k": Job(arch=m["llama-3.1-8b"], workload=default_job()),
        "8B QLoRA fine-tune": Job(arch=m["llama-3.1-8b"], workload=Workload(mode="train", method="qlora")),
    }
    pair = resolve_build(catalog, "2x-rtx-3090-nvlink")
    ref_ms = _median_ms(lambda: best_plan(m["llama-3.1-8b"], default_job(), pair), args.repeat * 20)
    print(f"reference: one best_plan (8B vLLM on 2x 3090 NVLink) {ref_ms:.2f} ms")
    for where in (Where.OWNED, Where.CLOUD):
        for label, job in jobs.items():
            found = search(catalog, (job,), SearchRequest(where=where))
            ms = _median_ms(lambda job=job, where=where: search(catalog, (job,), SearchRequest(where=where)), args.repeat)
            print(f"{where.value:>5} | {label:<22} | {found.considered:4d} candidates, {len(found.ranked):4d} run it | "
                  f"median {ms:6.1f} ms ({ms / ref_ms:5.0f}x one best_plan) | target 300 ms")


if __name__ == "__main__":
    main()
