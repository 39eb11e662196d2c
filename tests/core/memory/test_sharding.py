"""Model states per GPU under ZeRO / FSDP sharding (ZeRO, arXiv:1910.02054 §5, Fig. 1), and the allocator's
reserve (``memory.sharding``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.core.job.choices import Parallel
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.sharding import zero_states_per_gpu_bytes
from advisor.core.model.params import count_params
from advisor.core.units import GB

from tests.core.memory.memory_fixtures import LLAMA2_7B, TRAIN, full_sizes


@pytest.mark.parametrize(
    ("parallel", "gb"),
    [("ddp", 120), ("zero1", 31.4), ("zero2", 16.6), ("zero3", 1.9)],
)
def test_zero_paper_example(parallel, gb):
    assert zero_states_per_gpu_bytes(7.5e9, 12, 64, Parallel(parallel)) / GB == pytest.approx(gb, abs=0.06)


@pytest.mark.parametrize("parallel", ["none", "ddp", "zero1", "zero2", "zero3", "fsdp", "fsdp-grad-op", "fsdp-no-shard"])
def test_estimator_states_follow_zero(parallel):
    n = 1 if parallel == "none" else 8
    b = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, n_gpus=n, parallel=parallel))
    psi = count_params(LLAMA2_7B).total
    scheme = {"fsdp": "zero3", "fsdp-grad-op": "zero2", "fsdp-no-shard": "ddp"}.get(parallel, parallel)
    assert b.weights + b.gradients + b.optimizer == pytest.approx(zero_states_per_gpu_bytes(psi, 12, n, Parallel(scheme)))


def test_allocator_and_device_need():
    # Device need = what PyTorch allocates × the caching allocator's reserve + CUDA context (+ NCCL).
    from advisor.core.memory.sharding import NCCL_BYTES_PER_GPU, RESERVE_EXPANDABLE, RESERVE_SINGLE_STREAM

    one = estimate_memory(LLAMA2_7B, PlannedJob(**TRAIN)).breakdown
    assert one.peak_reserved == pytest.approx(one.peak_allocated * RESERVE_SINGLE_STREAM)
    assert one.total == pytest.approx(one.peak_reserved + one.runtime)
    exp = estimate_memory(LLAMA2_7B, PlannedJob(**TRAIN, expandable_segments=True)).breakdown
    assert exp.peak_reserved == pytest.approx(exp.peak_allocated * RESERVE_EXPANDABLE)
    ddp = estimate_memory(LLAMA2_7B, PlannedJob(**TRAIN, n_gpus=2, parallel="ddp")).breakdown
    assert ddp.runtime == pytest.approx(one.runtime + NCCL_BYTES_PER_GPU)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 512), parallel=st.sampled_from(["zero1", "zero2", "zero3", "fsdp", "fsdp-grad-op"]))
def test_sharding_never_costs_more_per_gpu(n, parallel):
    one = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, seq_len=1024, optimizer="adamw-8bit"))
    many = estimate_memory(LLAMA2_7B, PlannedJob(**TRAIN, seq_len=1024, optimizer="adamw-8bit",
                                               n_gpus=n, parallel=parallel)).breakdown
    states = lambda b: b.weights + b.gradients + b.optimizer  # noqa: E731
    assert states(many) <= states(one) + 1
