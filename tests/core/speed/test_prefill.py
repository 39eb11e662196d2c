"""The prompt's prefill (``speed.prefill``)."""

import pytest

from advisor.core.hardware.interconnect import collective_time_s
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.speed import inference as sp
from advisor.core.speed import layout as speed_plan
from advisor.core.speed import prefill
from tests.core.speed.speed_fixtures import (
    llama2_70b,
    pair_3090_nvlink,
    pair_4090_pcie,
)


def test_tensor_parallel_prefill_link_time_differs_a_lot():
    # 2 all-reduces per layer of prompt × hidden bf16 (Megatron): 64 MiB each for 4096 tokens of Llama-2-70B.
    a = llama2_70b()
    w = PlannedJob(weights="awq", engine="vllm", n_gpus=2, parallel="tp", context_len=4096)
    split, mem = sp.split_of(w), estimate_memory(a, w).breakdown
    t3, comm3 = prefill.prefill_seconds(a, w, speed_plan.run_of(a, w, pair_3090_nvlink()), mem, split, mem.weights * 2, [])
    t4, comm4 = prefill.prefill_seconds(a, w, speed_plan.run_of(a, w, pair_4090_pcie()), mem, split, mem.weights * 2, [])
    assert comm4 / comm3 > 3
    assert comm4 / t4 > 3 * comm3 / t3
    assert comm3 == pytest.approx(2 * 80 * collective_time_s(pair_3090_nvlink(), "all_reduce", 4096 * 8192 * 2, 2))
