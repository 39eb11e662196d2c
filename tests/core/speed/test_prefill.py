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


def test_a_prompt_of_one_token_micro_batches_is_one_decode_step_a_token(catalog):
    # llama-bench -ub 1 -p 512: each token is a graph of matrix-vector kernels that read every weight, a decode step
    # at the middle of the prompt (ggml-cuda MMVQ_MAX_BATCH_SIZE 8: up to 8 tokens a step).
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.speed.gguf_decode import MATVEC_MAX_TOKENS

    assert MATVEC_MAX_TOKENS == 8
    arch, build = catalog.models["llama-3.1-8b"], gpu_build(catalog, "rtx-4090", 1)
    prompt = PlannedJob(engine="llama.cpp", weights="q4_0", context_len=512, ubatch_tokens=1)
    step = estimate(arch, PlannedJob(engine="llama.cpp", weights="q4_0", context_len=256), build).speed
    one = estimate(arch, prompt, build).speed
    # Only the last token's logits are kept: the other 511 steps skip the output layer and the last layer's MLP
    # (ggml_get_rows at the last layer; an empty matmul is not run), 701 M of Llama 3.1 8B's 7.50 G matmul weights.
    assert prefill.unused_prompt_params(arch, prompt) == 128256 * 4096 + 3 * 4096 * 14336
    full = 1 / step.decode_tokens_per_s
    assert one.time_to_first_token_s < 512 * full
    assert one.time_to_first_token_s > full + 511 * full * (1 - 701e6 / 7.50e9) * 0.95  # the KV and small kernels stay
    assert one.prefill_tokens_per_s == pytest.approx(512 / one.time_to_first_token_s)
    assert any("computes the prompt 1 token at a time" in n and "512 steps" in n
               and "the output layer and the last layer's MLP only for each sequence's last token" in n
               for n in one.notes)
    # Eight tokens a step read the weights an eighth as often: several times faster, not eight (their KV and FLOPs).
    eight = estimate(arch, prompt.model_copy(update={"ubatch_tokens": 8}), build).speed
    assert 4 * one.prefill_tokens_per_s < eight.prefill_tokens_per_s < 8 * one.prefill_tokens_per_s
    # Nine tokens leave the decode kernels for the prompt path, which still reads the weights once per micro-batch:
    # about as fast as eight; other engines have no micro-batch.
    nine = estimate(arch, prompt.model_copy(update={"ubatch_tokens": 9}), build).speed
    assert eight.prefill_tokens_per_s < nine.prefill_tokens_per_s < 2 * eight.prefill_tokens_per_s
    vllm = PlannedJob(engine="vllm", weights="awq", context_len=512, ubatch_tokens=1)
    assert estimate(arch, vllm, build).speed.prefill_tokens_per_s > 20 * one.prefill_tokens_per_s


def test_experts_in_host_ram_run_on_the_cpu_for_prompt_batches_under_32_tokens():
    # ggml-cuda copies host weights to the GPU only for a matmul of >= 32 tokens (op_offload_min_batch_size);
    # a smaller prompt batch multiplies the experts its tokens pick on the CPU, as a decode step does.
    from advisor.core.model.arch import Moe
    from advisor.core.speed.prefill import OFFLOAD_MIN_BATCH, moe_offload_seconds

    assert OFFLOAD_MIN_BATCH == 32
    moe = llama2_7b().model_copy(update={"id": "moe", "moe": Moe(n_experts=64, n_active=2, expert_ffn_size=11008)})
    job = PlannedJob(engine="llama.cpp", weights="q4_k_m", moe_offload_layers=4, context_len=64)
    decode, _ = moe_offload_seconds(moe, job, one_4090(), [])
    _, one_token = moe_offload_seconds(moe, job.model_copy(update={"ubatch_tokens": 1}), one_4090(), notes := [])
    assert one_token == pytest.approx(64 * decode)  # 64 steps, each reading the experts one token picks
    assert "fewer than the 32 for which they are copied" in notes[0]
    _, copied = moe_offload_seconds(moe, job.model_copy(update={"ubatch_tokens": 32}), one_4090(), notes := [])
    assert "copied to the GPU for each prompt batch" in notes[0] and copied > 0


def test_the_weights_a_prompt_token_without_logits_skips(catalog):
    # The output projection in every engine (tied or not); llama.cpp and Ollama also skip the last layer's MLP (dense,
    # or the experts a token runs in a MoE layer).
    job = PlannedJob(engine="vllm", weights="bf16", context_len=512)
    qwen = catalog.models["qwen2.5-3b"]  # tied embeddings: the output layer still multiplies every kept token
    assert prefill.unused_prompt_params(qwen, job) == 151936 * 2048
    moe = catalog.models["qwen3-30b-a3b"]
    gguf = job.model_copy(update={"engine": Engine.LLAMA_CPP, "weights": "q4_k_m"})
    assert prefill.unused_prompt_params(moe, gguf) == 151936 * 2048 + 3 * 2048 * 8 * 768 + 2048 * 128  # + router
