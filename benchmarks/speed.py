"""How fast the estimator answers: one estimate in-process, and a fit sweep for the plots.

Targets (task brief): one ``estimate()`` ≤ 200 µs median; a fit sweep of 100 model sizes ×
8 techniques × 4 builds ≤ 50 ms. The sweep is timed cold (parameter-count, generic-model and
memory caches cleared before each run, as on the first plot) and warm (caches kept, as when the
user changes a build but not the workload).

Run: ``.venv/bin/python benchmarks/speed.py`` (``--repeat N`` for more samples).
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

from advisor.core.advice.compare import TECHNIQUES, fit_sweep, log_sizes  # noqa: E402
from advisor.core.advice.compare import _memory as compare_memory_cache  # noqa: E402
from advisor.core.estimation.estimator import estimate  # noqa: E402
from advisor.core.job.planned import PlannedJob  # noqa: E402
from advisor.core.model.generic import generic_decoder  # noqa: E402
from advisor.core.model.params import count_params  # noqa: E402
from tests.core.speed.speed_fixtures import (  # noqa: E402
    hgx_h100,
    llama2_7b,
    llama2_70b,
    one_4090,
    pair_3090_nvlink,
    pair_4090_pcie,
)

CASES = {
    "70B q4_k_m, llama.cpp layer split, 2x 4090": (
        llama2_70b, PlannedJob(weights="q4_k_m", engine="llama.cpp", n_gpus=2, parallel="layer-split"), pair_4090_pcie),
    "70B AWQ, vLLM TP=2, batch 32, 2x 3090": (
        llama2_70b, PlannedJob(weights="awq", engine="vllm", n_gpus=2, parallel="tp", batch=32), pair_3090_nvlink),
    "7B full FSDP, 2x 3090": (
        llama2_7b, PlannedJob(mode="train", method="full", n_gpus=2, parallel="fsdp", checkpointing="full"),
        pair_3090_nvlink),
    "7B QLoRA, 1x 4090": (llama2_7b, PlannedJob(mode="train", method="qlora"), one_4090),
    "7B bf16, no build (memory only)": (llama2_7b, PlannedJob(), None),
}


def time_estimates(repeat: int) -> None:
    print(f"one estimate() in-process, median of {repeat} (after 20 warm-up calls)")
    for label, (arch_fn, w, build_fn) in CASES.items():
        arch, build = arch_fn(), build_fn() if build_fn else None
        for _ in range(20):
            estimate(arch, w, build)
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter_ns()
            estimate(arch, w, build)
            samples.append(time.perf_counter_ns() - t0)
        print(f"  {statistics.median(samples) / 1e3:7.1f} µs   {label}")


def time_sweep(repeat: int) -> None:
    builds = [one_4090(), pair_3090_nvlink(), pair_4090_pcie(), hgx_h100(8)]
    sizes = log_sizes(1e8, 1e12, 100)
    w = PlannedJob(context_len=4096, seq_len=2048)
    n_cells = len(sizes) * len(TECHNIQUES) * len(builds)
    for label, cold in (("cold", True), ("warm", False)):
        samples = []
        for _ in range(repeat):
            if cold:
                generic_decoder.cache_clear()
                count_params.cache_clear()
                compare_memory_cache.cache_clear()
            t0 = time.perf_counter_ns()
            fit_sweep(w, builds, sizes)
            samples.append(time.perf_counter_ns() - t0)
        print(f"fit sweep {len(sizes)} sizes × {len(TECHNIQUES)} techniques × {len(builds)} builds "
              f"({n_cells} cells), {label}: median {statistics.median(samples) / 1e6:.1f} ms "
              f"(min {min(samples) / 1e6:.1f}, max {max(samples) / 1e6:.1f}) over {repeat} runs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="samples per estimate (sweep: repeat/10)")
    args = parser.parse_args()
    time_estimates(args.repeat)
    time_sweep(max(3, args.repeat // 10))
    return 0


if __name__ == "__main__":
    sys.exit(main())
