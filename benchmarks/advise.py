"""How fast "Find builds" searches the whole catalog for one job (target: ≤ 300 ms here).

Times ``advisor.core.advice.catalog_search.search`` over every candidate the shipped catalog makes (every
card at 1–8, NVLink pairs, builds, systems; and separately the cloud), for three jobs: 70B
Q4_K_M on llama.cpp, 8B bf16 served by vLLM (16 × 8k), and a QLoRA fine-tune of 8B. Reported as
the median of ``--repeat`` runs and as a ratio to one ``best_plan`` of the canonical pair in the
same run (the reference: what the window spends per build).

``--cli`` times whole answers as a user gets them: ``llm-advisor advise …`` in a fresh process (start-up, the
catalog read, the search and the text), for three everyday questions of ``benchmarks/buyer_questions.py``, as the
median of ``--repeat`` runs and as a ratio to a bare ``python -c pass`` in the same run (target: an answer in
1 s or less on this machine).

Run: ``.venv/bin/python benchmarks/advise.py [--repeat N] [--cli]``
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
from advisor.core.advice.catalog_search import ModelJob, SearchRequest, search  # noqa: E402
from advisor.core.hardware.catalog import resolve_build  # noqa: E402
from advisor.core.job.defaults import default_job  # noqa: E402
from advisor.core.job.planned import PlannedJob  # noqa: E402
from advisor.core.memory import peak  # noqa: E402
from advisor.core.plan.planner import best_plan  # noqa: E402
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


#: Three questions of benchmarks/buyer_questions.py: a used-budget chat, a fine-tune, a rented server.
CLI_QUESTIONS = (
    ("llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "2500", "--used"),
    ("llama-3.1-8b", "--mode", "train", "--method", "qlora", "--budget", "2000", "--used"),
    ("llama-3.1-70b", "--engine", "vllm", "--cloud"),
)


def _wall_ms(argv: list[str], repeat: int) -> float:
    import subprocess

    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def cli(repeat: int) -> None:
    exe = Path(sys.executable)
    advisor = exe.with_name("llm-advisor")
    ref = _wall_ms([str(exe), "-c", "pass"], repeat)
    print(f"reference: python -c pass {ref:.0f} ms")
    for q in CLI_QUESTIONS:
        ms = _wall_ms([str(advisor), "advise", *q], repeat)
        print(f"llm-advisor advise {' '.join(q)}: median {ms:,.0f} ms ({ms / ref:.1f}x python -c pass) | target 1,000 ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--cli", action="store_true", help="time whole answers of llm-advisor advise instead")
    args = ap.parse_args()
    if args.cli:
        cli(args.repeat)
        return
    catalog = load_catalog().catalog
    m = catalog.models
    jobs = {
        "70B q4_k_m, llama.cpp": ModelJob(arch=m["llama-3.1-70b"], job=PlannedJob(weights="q4_k_m", engine="llama.cpp")),
        "8B bf16, vLLM 16 x 8k": ModelJob(arch=m["llama-3.1-8b"], job=default_job()),
        "8B QLoRA fine-tune": ModelJob(arch=m["llama-3.1-8b"], job=PlannedJob(mode="train", method="qlora")),
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
