"""Memory terms against published figures (one row per source) and the estimator's invariants."""

import pytest

from advisor.core.job.planned import PlannedJob
from advisor.core.memory.inference import (
    CUDA_CONTEXT_BYTES,
    VLLM_CUDA_GRAPH_BYTES,
    kv_cache_bytes,
    weights_bytes,
)
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.arch import AttentionLayout, ModelArch
from advisor.core.model.params import count_params
from advisor.core.units import GB, GIB

from tests.core.memory.memory_fixtures import LLAMA2_7B, LLAMA3_8B, TRAIN, full_sizes

# Shapes from each model's Hugging Face config.json.
LLAMA31_70B = ModelArch(id="llama-3.1-70b", name="Llama 3.1 70B", n_layers=80, hidden_size=8192, n_heads=64,
                        n_kv_heads=8, head_dim=128, ffn_size=28672, vocab_size=128256)
MISTRAL_7B = ModelArch(id="mistral-7b-v0.1", name="Mistral 7B", n_layers=32, hidden_size=4096, n_heads=32,
                       n_kv_heads=8, head_dim=128, ffn_size=14336, vocab_size=32000,
                       attention=AttentionLayout(kind="sliding", sliding_window=4096))
DEEPSEEK_V3_ATT = AttentionLayout(kind="mla", kv_lora_rank=512, q_lora_rank=1536, qk_rope_head_dim=64,
                                  qk_nope_head_dim=128, v_head_dim=128)
DEEPSEEK_V3 = ModelArch(id="deepseek-v3", name="DeepSeek-V3", n_layers=61, hidden_size=7168, n_heads=128,
                        n_kv_heads=128, head_dim=192, ffn_size=18432, vocab_size=129280, attention=DEEPSEEK_V3_ATT)
# LLaMA-65B (Touvron et al. 2023, Table 2): 80 layers, d=8192, 64 heads; HF config ffn 22016.
LLAMA_65B = ModelArch(id="llama-65b", name="LLaMA 65B", n_layers=80, hidden_size=8192, n_heads=64,
                      n_kv_heads=64, head_dim=128, ffn_size=22016, vocab_size=32000)


# --- KV cache -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("arch", "ctx", "batch", "dtype", "expected"),
    [
        (LLAMA2_7B, 4096, 1, "bf16", 2 * GIB),  # 2·32 layers·32 heads·128·4096·2 B: the classic "2 GiB"
        (LLAMA3_8B, 8192, 1, "bf16", 1 * GIB),  # GQA, 8 KV heads (Ainslie et al. 2023)
        (LLAMA3_8B, 8192, 1, "fp8", 0.5 * GIB),
        (LLAMA2_7B, 4096, 4, "q8_0", 8 * GIB * 34 / 32 / 2),  # llama.cpp -ctk q8_0: 34 B per 32
        # Mistral 7B rolling buffer (arXiv:2310.06825): 32k context caches only the 4096 window.
        (MISTRAL_7B, 32768, 1, "bf16", 2 * 32 * 8 * 128 * 4096 * 2),
        # DeepSeek-V2/V3 MLA: (d_c + d_rope) = 576 elements per token per layer.
        (DEEPSEEK_V3, 1000, 1, "bf16", 576 * 61 * 1000 * 2),
    ],
)
def test_kv_cache(arch, ctx, batch, dtype, expected):
    assert kv_cache_bytes(arch, ctx, batch, dtype) == pytest.approx(expected)


def test_mla_in_transformers_caches_decompressed_heads():
    latent = kv_cache_bytes(DEEPSEEK_V3, 1000, 1, "bf16", engine="vllm")
    full = kv_cache_bytes(DEEPSEEK_V3, 1000, 1, "bf16", engine="transformers")
    assert full == 128 * (128 + 64 + 128) * 61 * 1000 * 2
    assert full > 50 * latent


# --- weights --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("arch", "fmt", "published", "rel"),
    [
        (LLAMA2_7B, "bf16", 6_738_415_616 * 2, 0),  # safetensors total of Llama-2-7b-hf, 2 B each
        # llama.cpp loader log (ollama PR #6279): Llama 3.1 70B Q4_0 "model size = 37.22 GiB"
        # (Q4_0 blocks, output.weight Q6_K).
        (LLAMA31_70B, "q4_0", 37.22 * GIB, 0.001),
        # llama.cpp tools/quantize/README.md, Llama-3.1-8B: Q4_K_M 4.58 GiB, Q8_0 7.95 GiB.
        (ModelArch(id="llama-3.1-8b", name="Llama 3.1 8B", n_layers=32, hidden_size=4096, n_heads=32,
                   n_kv_heads=8, head_dim=128, ffn_size=14336, vocab_size=128256), "q4_k_m", 4.58 * GIB, 0.005),
    ],
)
def test_weights_against_published_sizes(arch, fmt, published, rel):
    engine = "llama.cpp" if fmt.startswith("q") else "transformers"  # (transformers dequantizes GGUF files)
    assert weights_bytes(arch, PlannedJob(weights=fmt, engine=engine)) == pytest.approx(published, rel=rel, abs=1)


def test_bitsandbytes_keeps_embeddings_and_head_16bit():
    c = count_params(LLAMA2_7B)
    expected = c.linear * 4.5 / 8 + (c.total - c.linear) * 2
    assert weights_bytes(LLAMA2_7B, PlannedJob(weights="nf4")) == pytest.approx(expected)


# --- inference engines ----------------------------------------------------------------------
def test_transformers_inference_terms():
    r = estimate_memory(LLAMA2_7B, PlannedJob(context_len=4096))
    b = r.breakdown
    assert b.weights == 6_738_415_616 * 2 and b.kv_cache == 2 * GIB and b.runtime == CUDA_CONTEXT_BYTES
    assert 0 < b.activations < 1 * GIB and b.buffers == 32000 * 4
    assert r.kv_capacity_tokens is None


def test_vllm_fills_its_share_of_the_card_with_kv():
    card = 79.22 * GIB  # an 80 GB H100 as vLLM sees it (vLLM PR #10511 profiler log)
    r = estimate_memory(LLAMA3_8B, PlannedJob(engine="vllm", gpu_memory_utilization=0.9), gpu_memory_bytes=card)
    b = r.breakdown
    assert b.total - VLLM_CUDA_GRAPH_BYTES == pytest.approx(0.9 * card)
    per_token = 2 * 32 * 8 * 128 * 2
    assert r.kv_capacity_tokens == pytest.approx(b.kv_cache / per_token)
    # The same log: 71.29 GiB budget, 14.96 GiB weights, 53.29 GiB of KV after 3.05 GiB of rest
    # (1.79 non-torch + 1.26 activations); we model 1.4 GiB of rest, so the KV comes out ~4 % high.
    assert b.weights == pytest.approx(14.96 * GIB, rel=0.001)
    assert b.kv_cache == pytest.approx(53.29 * GIB, rel=0.05)


def test_vllm_without_card_size_has_no_capacity():
    r = estimate_memory(LLAMA3_8B, PlannedJob(engine="vllm"))
    assert r.kv_capacity_tokens is None and any("card size unknown" in a for a in r.assumptions)


def test_llama_cpp_full_context_kv_and_compute_buffer():
    w = PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=8192, attention="eager")
    b = estimate_memory(LLAMA2_7B, w).breakdown
    assert b.kv_cache == 4 * GIB
    assert b.buffers >= 512 * 8192 * 32 * 4  # KQ scores of one 512-token ubatch without flash attention
    flash = estimate_memory(LLAMA2_7B, PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=8192)).breakdown
    assert flash.buffers < b.buffers


@pytest.mark.parametrize(("parallel", "n", "weights_div", "kv_div"), [("tp", 2, 2, 2), ("tp", 16, 16, 8)])
def test_tensor_parallel_splits_weights_and_kv_heads(parallel, n, weights_div, kv_div):
    one = estimate_memory(LLAMA3_8B, PlannedJob()).breakdown
    split = estimate_memory(LLAMA3_8B, PlannedJob(n_gpus=n, parallel=parallel)).breakdown
    assert split.weights == pytest.approx(one.weights / weights_div)
    assert split.kv_cache == pytest.approx(one.kv_cache / kv_div)  # ≥ 1 of the 8 KV heads per GPU


def test_layer_split_busiest_gpu_has_its_layers_and_the_bigger_end():
    c = count_params(LLAMA3_8B)
    b = estimate_memory(LLAMA3_8B, PlannedJob(n_gpus=2, parallel="layer-split")).breakdown
    blocks = c.total - c.embedding - c.lm_head
    assert b.weights == pytest.approx((blocks / 2 + c.lm_head) * 2)
    assert b.kv_cache == pytest.approx(kv_cache_bytes(LLAMA3_8B, 4096, 1, "bf16") / 2)


# --- training states (ZeRO, arXiv:1910.02054 §5 / Fig. 1: Ψ = 7.5B, K = 12, N = 64) ------------


def test_qlora_65b_fits_a_48gb_gpu():
    # QLoRA (arXiv:2305.14314) abstract: "finetune a 65B parameter model on a single 48GB GPU";
    # NF4 + double quantization, LoRA r=64 on all linear layers, paged optimizer, checkpointing;
    # qlora.py casts the LoRA layers to bf16 (--bf16), hence precision bf16 for the adapters.
    w = PlannedJob(**TRAIN, method="qlora", weights="nf4", double_quant=True, lora_rank=64, precision="bf16",
                 optimizer="paged-adamw", checkpointing="full", seq_len=512, batch=1)
    assert estimate_memory(LLAMA_65B, w).breakdown.total < 48 * GB
    lora16 = PlannedJob.model_validate({**w.model_dump(), "method": "lora", "weights": "bf16"})
    assert estimate_memory(LLAMA_65B, lora16).breakdown.total > 100 * GB


# --- logits, weight overrides, framework defaults -------------------------------------------------


def test_logits_are_a_big_term_for_large_vocab():
    b = full_sizes(LLAMA3_8B, PlannedJob(**TRAIN, seq_len=4096))
    assert b.buffers >= 4096 * 128256 * 10


def test_unknown_weight_format_is_a_value_error():
    with pytest.raises(ValueError, match="unknown weight format"):
        estimate_memory(LLAMA2_7B, PlannedJob(weights="int3"))


def test_exact_weight_bytes_override_inference():
    b = full_sizes(LLAMA2_7B, PlannedJob(n_gpus=2, parallel="tp"), weights_bytes_override=10 * GIB)
    assert b.weights == 5 * GIB


def test_framework_profiles_fill_only_what_is_unset():
    from advisor.core.job.frameworks import apply_framework

    tt = apply_framework(PlannedJob(**TRAIN, framework="torchtune"))
    assert tt.precision.value == "bf16" and tt.loss.value == "chunked" and tt.loss_chunks == 8
    assert tt.optimizer_in_backward  # single-GPU full fine-tune
    kept = apply_framework(PlannedJob(**TRAIN, framework="torchtune", precision="amp", loss="upcast"))
    assert kept.precision.value == "amp" and kept.loss.value == "upcast"
    titan = apply_framework(PlannedJob(**TRAIN, framework="torchtitan"))
    assert titan.checkpointing.value == "op-sac" and titan.precision.value == "amp"
    hf = estimate_memory(LLAMA2_7B, PlannedJob(**TRAIN)).breakdown.total
    torchtune = estimate_memory(LLAMA2_7B, PlannedJob(**TRAIN, framework="torchtune")).breakdown.total
    assert torchtune < hf * 0.7  # pure bf16, one gradient alive, chunked loss, checkpointing


def test_new_memory_options_each_save_what_they_say():
    def base(**kw):
        return PlannedJob(**TRAIN, seq_len=4096, **kw)

    acts = full_sizes(LLAMA2_7B, base()).activations
    assert full_sizes(LLAMA2_7B, base(activation_quant="fp8")).activations == pytest.approx(acts / 2)
    off = estimate_memory(LLAMA2_7B, base(activation_offload=True))
    assert off.sizes.activations < acts / 10 and off.breakdown.host > 0
    every2 = full_sizes(LLAMA2_7B, base(checkpointing="full", checkpoint_every=2)).activations
    full = full_sizes(LLAMA2_7B, base(checkpointing="full")).activations
    assert full < every2 < acts
    nvme = estimate_memory(LLAMA2_7B, base(n_gpus=2, parallel="zero3", offload=("optimizer", "params", "nvme"))).breakdown
    assert nvme.disk > 0 and nvme.optimizer == 0
    fsdp_tp = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, n_gpus=8, parallel="fsdp", tp=2))
    fsdp = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, n_gpus=8, parallel="fsdp"))
    assert fsdp_tp.activations < fsdp.activations  # TP splits the inner activations
    # (the same AdamW kernel in both: Horovod keeps PyTorch's foreach default, the HF Trainer's is fused)
    hvd = estimate_memory(LLAMA2_7B, PlannedJob(**TRAIN, n_gpus=2, parallel="ddp", framework="horovod")).sizes
    ddp = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, n_gpus=2, parallel="ddp", optimizer_kernel="foreach"))
    assert hvd.buffers < ddp.buffers  # a 128 MiB fusion buffer instead of full-size buckets


# --- properties -------------------------------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(ctx=st.integers(1, 131072), batch=st.integers(1, 64), extra=st.integers(1, 4096))
def test_inference_memory_grows_with_context_and_batch(ctx, batch, extra):
    small = estimate_memory(LLAMA3_8B, PlannedJob(context_len=ctx, batch=batch)).breakdown.total
    longer = estimate_memory(LLAMA3_8B, PlannedJob(context_len=ctx + extra, batch=batch)).breakdown.total
    wider = estimate_memory(LLAMA3_8B, PlannedJob(context_len=ctx, batch=batch + 1)).breakdown.total
    assert longer > small and wider > small


# --- framework mechanisms the benchmark maps (fidelity ``mechanisms`` column) ---------------


def test_optimizer_in_backward_keeps_one_tensors_gradient():
    from advisor.core.job.choices import Precision
    from advisor.core.memory.sharding import optimizer_in_backward_grad_bytes

    # Llama-3-8B: the 128256 × 4096 embedding (and lm_head) is the largest tensor, 2 B per gradient.
    assert optimizer_in_backward_grad_bytes(LLAMA3_8B, Precision.BF16) == 128_256 * 4096 * 2
    full = estimate_memory(LLAMA3_8B, PlannedJob(**TRAIN, method="full", precision="bf16", seq_len=2048))
    assert optimizer_in_backward_grad_bytes(LLAMA3_8B, Precision.BF16) < full.breakdown.gradients / 10


def test_full_prompt_logits_bf16_plus_fp32():
    from advisor.core.memory.activations import full_prompt_logits_bytes

    assert full_prompt_logits_bytes(LLAMA2_7B, 1000, 2) == 1000 * 2 * 32000 * 6


@pytest.mark.parametrize("engine", ["sglang", "tensorrt-llm", "deepspeed"])
def test_pooled_engines_preallocate_like_vllm(engine):
    card = 24 * GIB
    vllm = estimate_memory(LLAMA3_8B, PlannedJob(engine="vllm"), gpu_memory_bytes=card)
    other = estimate_memory(LLAMA3_8B, PlannedJob(engine=engine), gpu_memory_bytes=card)
    assert other.kv_capacity_tokens == pytest.approx(vllm.kv_capacity_tokens)


def test_ollama_is_llama_cpp_with_its_flash_attention_setting():
    # Current Ollama runs llama-server with --flash-attn auto (llm/llama_server.go at ollama fb307609): flash
    # attention by default, its compute buffer as llama.cpp's with it; turned off, the scores' buffer.
    from advisor.core.memory.activations import llama_cpp_compute_buffer_bytes

    for attention, flash in (("flash", True), ("sdpa", False)):
        w = PlannedJob(engine="ollama", weights="q4_k_m", context_len=8192, attention=attention)
        b = estimate_memory(LLAMA2_7B, w).breakdown
        assert b.buffers == pytest.approx(llama_cpp_compute_buffer_bytes(LLAMA2_7B, 8192, flash=flash))


def test_llama_cpp_prompt_batch_sets_its_compute_buffer():
    # llama.cpp --ubatch-size (n_ubatch, 512 by default: common/common.h at 001d906a): the compute buffer holds
    # one such batch's largest tensor, for Llama 2 7B with flash attention its MLP's (ubatch × 11,008 × 4 B × 3,
    # above the logits' ubatch × 32,000 × 4 B), and a few hidden-size ones (ubatch × 4,096 × 4 B × 4).
    from advisor.core.memory.activations import llama_cpp_compute_buffer_bytes

    def buffers(**kw):
        return estimate_memory(LLAMA2_7B, PlannedJob(engine="llama.cpp", weights="q4_k_m", **kw)).breakdown.buffers

    assert buffers() == pytest.approx(llama_cpp_compute_buffer_bytes(LLAMA2_7B, 4096, flash=True, ubatch=512))
    assert buffers(ubatch_tokens=2048) == pytest.approx(4 * buffers())  # every term scales with the batch
    assert buffers(ubatch_tokens=2048) - buffers() == pytest.approx(1536 * (11_008 * 4 * 3 + 4096 * 4 * 4))
    ollama = PlannedJob(engine="ollama", weights="q4_k_m", ubatch_tokens=2048)  # not llama.cpp's flag: its default
    assert estimate_memory(LLAMA2_7B, ollama).breakdown.buffers == pytest.approx(
        llama_cpp_compute_buffer_bytes(LLAMA2_7B, 4096, flash=True, ubatch=512))


def test_exl2_any_bits_per_weight_and_gguf_float_names():
    from advisor.core.memory.formats import weight_format

    assert weight_format("4.65bpw").bits_per_weight == pytest.approx(4.65)
    assert weight_format("F16").name == "fp16"
    for bad in ("0.5bpw", "17bpw", "xbpw"):
        with pytest.raises(ValueError, match="bits per weight"):
            weight_format(bad)
    exl2 = estimate_memory(LLAMA3_8B, PlannedJob(engine="exllamav2", weights="4.65bpw")).breakdown.weights
    assert 4.2 * GIB < exl2 < 4.8 * GIB  # 8.03B × 4.65 / 8 ≈ 4.35 GiB, head at 6 bits

