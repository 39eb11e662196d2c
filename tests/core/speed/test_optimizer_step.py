"""The optimizer step on the GPU: bytes per trained parameter, fused against foreach AdamW (``speed.optimizer_step``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job.frameworks import with_framework_defaults
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.speed import inference as sp
from advisor.core.speed import layout as speed_plan
from advisor.core.speed.optimizer_step import optimizer_step_bytes_per_param, optimizer_step_seconds
from advisor.core.speed.flops import (
    DECODE_BANDWIDTH_EFFICIENCY,
)
from advisor.core.speed.flops import trainable_params as train_params
from tests.core.speed.speed_fixtures import (
    llama2_7b,
    rtx4090,
)


def test_the_optimizer_step_moves_every_trained_weight_and_state_once():
    # AMP AdamW: weight 2 B + fp32 master 4 B read and written, the gradient (2 B) read, two fp32 states
    # read and written: 2 × 6 + 2 + 2 × 8 = 30 B per trained parameter; pure bf16: 2 × 2 + 2 + 2 × 4 = 14;
    # 8-bit AdamW's states are 1 B each. That is a fused kernel; PyTorch's foreach AdamW (its default when
    # the framework does not choose) adds 10 passes over a state and one over the gradient: 30 + 40 + 2.
    fused = dict(mode="train", optimizer_kernel="fused")
    assert optimizer_step_bytes_per_param(PlannedJob(**fused)) == 30
    assert optimizer_step_bytes_per_param(PlannedJob(**fused, precision="bf16")) == 14
    assert optimizer_step_bytes_per_param(PlannedJob(**fused, optimizer="adamw-8bit")) == 18
    assert optimizer_step_bytes_per_param(PlannedJob(mode="train", optimizer_kernel="foreach")) == 72
    assert optimizer_step_bytes_per_param(PlannedJob(mode="train", precision="bf16")) == 14 + 20 + 2
    # bitsandbytes' 8-bit AdamW is its own one-pass kernel, whatever PyTorch's AdamW would do
    assert optimizer_step_bytes_per_param(PlannedJob(mode="train", optimizer="adamw-8bit")) == 18
    torchtune = with_framework_defaults(PlannedJob(mode="train", framework="torchtune"))
    assert optimizer_step_bytes_per_param(torchtune) == 14  # its defaults: pure bf16, fused AdamW
    litgpt = with_framework_defaults(PlannedJob(mode="train", framework="litgpt"))
    assert optimizer_step_bytes_per_param(litgpt) == 36  # pure bf16, torch.optim.AdamW's foreach
    a, bw = llama2_7b(), rtx4090().mem_bandwidth_gb_per_s * 1e9
    full = PlannedJob(mode="train", method="full", optimizer_kernel="fused")
    one = optimizer_step_seconds(a, full, speed_plan.split_of(full), bw)
    assert one == pytest.approx(train_params(a, full) * 30 / (bw * DECODE_BANDWIDTH_EFFICIENCY))
    # ZeRO / FSDP step their shard; DDP every state on every GPU; a CPU optimizer none on the GPU
    for parallel, shards in (("fsdp", 4), ("zero2", 4), ("ddp", 1)):
        w = full.model_copy(update={"n_gpus": 4, "parallel": parallel})
        assert optimizer_step_seconds(a, w, speed_plan.split_of(w), bw) == pytest.approx(one / shards)
    off = full.model_copy(update={"offload": ("optimizer",)})
    assert optimizer_step_seconds(a, off, speed_plan.split_of(off), bw) == 0


@settings(max_examples=40, deadline=None)
@given(method=st.sampled_from(["full", "lora"]), framework=st.sampled_from(["hf", "torchtune", "litgpt", "deepspeed"]),
       seq_len=st.integers(128, 8192), batch=st.integers(1, 8), gpus=st.sampled_from([(1, "none"), (4, "fsdp"),
                                                                                  (4, "ddp"), (2, "zero2")]))
def test_foreach_never_needs_less_memory_nor_trains_faster_than_fused(method, framework, seq_len, batch, gpus):
    a = llama2_7b()
    n, parallel = gpus
    base = dict(mode="train", method=method, framework=framework, seq_len=seq_len, batch=batch, n_gpus=n,
                parallel=parallel)
    fused, foreach = (PlannedJob(**base, optimizer_kernel=k) for k in ("fused", "foreach"))
    m_fused, m_foreach = estimate_memory(a, fused).breakdown, estimate_memory(a, foreach).breakdown
    assert m_foreach.peak_allocated >= m_fused.peak_allocated
    build = ResolvedBuild(name="4x 4090", gpus=(rtx4090(),) * 4, topology=Topology(pcie_gen=4))
    s_fused = sp.estimate_speed(a, fused, build, m_fused).train_tokens_per_s
    s_foreach = sp.estimate_speed(a, foreach, build, m_foreach).train_tokens_per_s
    assert s_foreach <= s_fused
