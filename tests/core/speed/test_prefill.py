"""The prompt's prefill (``speed.prefill``)."""

import pytest

from advisor.core.hardware.interconnect import collective_time_s
from advisor.core.job.choices import Engine
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.speed import inference as sp
from advisor.core.speed import layout as speed_plan
from advisor.core.speed import prefill
from tests.core.speed.speed_fixtures import (
    llama2_7b,
    llama2_70b,
    one_4090,
    pair_3090_nvlink,
    pair_4090_pcie,
    rtx4090,
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


def test_an_unknown_bandwidth_gives_no_prefill_and_says_why():
    from advisor.core.hardware.records import ResolvedBuild

    a, w = llama2_7b(), PlannedJob()
    g = rtx4090().model_copy(update={"mem_bandwidth_gb_per_s": None})
    build = ResolvedBuild(name="?", gpus=(g,))
    notes: list[str] = []
    mem = estimate_memory(a, w).breakdown
    assert prefill.prefill_seconds(a, w, speed_plan.run_of(a, w, build), mem, sp.split_of(w), mem.weights, notes) is None
    assert notes == ["prefill speed unknown: a GPU's tensor FLOP/s or bandwidth is not in the catalog"]


def test_experts_in_host_ram_cost_only_a_gguf_engines_moe_job():
    from advisor.core.model.arch import Moe
    from advisor.core.speed.prefill import moe_offload_seconds

    moe = llama2_7b().model_copy(update={"id": "moe", "moe": Moe(n_experts=8, n_active=2, expert_ffn_size=11008)})
    gguf = PlannedJob(engine="llama.cpp", weights="q4_k_m", moe_offload_layers=4)
    assert moe_offload_seconds(llama2_7b(), gguf, one_4090(), []) == (0.0, 0.0)  # a dense model
    assert moe_offload_seconds(moe, gguf.model_copy(update={"engine": Engine.VLLM}), one_4090(), []) == (0.0, 0.0)
    decode, prefill = moe_offload_seconds(moe, gguf, one_4090(), notes := [])
    assert 0 < decode < prefill and "MoE experts of 4 layers" in notes[0]


def test_a_moe_prompts_experts_fill_part_empty_tiles_in_llama_cpp(catalog):
    # get_mmq_x_max_host (ggml-cuda/mmq.cuh): MMQ tiles of 128 tokens on GPUs with matrix units.
    assert prefill.MOE_PROMPT_TILE_TOKENS == 128
    qwen, mixtral = catalog.models["qwen3-30b-a3b"], catalog.models["mixtral-8x7b"]
    job = PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=512)
    # Qwen3-30B-A3B: 512 tokens x 8 of 128 experts = 32 tokens an expert; its tile costs 128 / 32 = 4x the experts' FLOPs.
    moe = qwen.moe
    experts_flops = 2 * (qwen.n_layers - moe.n_dense_layers) * moe.n_active * 3 * qwen.hidden_size * moe.expert_ffn_size
    assert prefill.moe_prompt_extra_flops(qwen, job, 512) == pytest.approx(512 * experts_flops * 3)
    # A longer prompt is cut into micro-batches of 512: the same share a token.
    assert prefill.moe_prompt_extra_flops(qwen, job, 4096) == pytest.approx(8 * 512 * experts_flops * 3)
    # Mixtral: 512 x 2 / 8 = 128 tokens an expert fill the tile; a dense model and vLLM's fused MoE add nothing.
    assert prefill.moe_prompt_extra_flops(mixtral, job, 512) == 0.0
    assert prefill.moe_prompt_extra_flops(catalog.models["qwen3-8b"], job, 512) == 0.0
    assert prefill.moe_prompt_extra_flops(qwen, PlannedJob(engine="vllm", weights="bf16", context_len=512), 512) == 0.0
    # A smaller micro-batch leaves each expert fewer tokens: more of every tile is empty.
    small = PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=512, ubatch_tokens=128)
    assert prefill.moe_prompt_extra_flops(qwen, small, 512) > prefill.moe_prompt_extra_flops(qwen, job, 512)


def test_a_moe_jobs_notes_say_what_its_experts_cost_in_llama_cpp(catalog):
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build

    job = PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=4096, prompt_tokens=2048)
    notes = estimate(catalog.models["qwen3-30b-a3b"], job, gpu_build(catalog, "rtx-4090", 1)).speed.notes
    from advisor.core.speed.gguf_decode import MOE_DISPATCH_S_PER_LAYER

    assert any(f"{MOE_DISPATCH_S_PER_LAYER * 48 * 1e3:.1f} ms a step for the 48 MoE layers" in n for n in notes)
    assert any("about 32 tokens of a 512-token micro-batch" in n and "25% of a dense model's rate" in n for n in notes)
    dense = estimate(catalog.models["qwen3-8b"], job, gpu_build(catalog, "rtx-4090", 1)).speed.notes
    assert not any("MoE layers" in n or "micro-batch, a part" in n for n in dense)
