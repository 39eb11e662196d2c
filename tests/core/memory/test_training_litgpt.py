"""LitGPT's memory mechanisms in the training estimate, counted by hand on a tiny
Llama-shaped model: LoRA dropout copies and masks, k/v repeated to every head, fp32 chunked loss,
a separate lm_head for a tied checkpoint, a 4-bit lm_head and its fp16 + bf16 dequantized copies."""

import pytest

from advisor.core.job.choices import AttentionImpl, Checkpointing, Framework
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.activations import (
    LORA_DROPOUT_BYTES,
    SavedInputs,
    dropout_bytes_per_token,
    lora_saved_inputs,
    train_activation_bytes,
)
from advisor.core.memory.formats import weight_format
from advisor.core.memory.loss_logits import FABRIC_CHUNKED_LOSS_BYTES_PER_ELEMENT, fabric_chunked_loss_logits_bytes
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.train_buffers import as_trained
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params

# h 64, q 64, kv 32, f 128, vocab 1000, tied embeddings.
TINY = ModelArch(id="tiny", name="Tiny", n_layers=4, hidden_size=64, n_heads=4, n_kv_heads=2, head_dim=16,
                 ffn_size=128, vocab_size=1000, tied_embeddings=True)


def job(**kw) -> PlannedJob:
    base = dict(mode="train", method="lora", lora_rank=8, lora_targets=("q", "v"), seq_len=32, batch=1,
                attention="sdpa", precision="bf16", optimizer="adamw", optimizer_kernel="foreach")  # LitGPT's
    return PlannedJob(**(base | kw))


def test_dropout_constant_and_widths():
    assert LORA_DROPOUT_BYTES == 3  # 16-bit dropped copy + bool mask
    # qkv (h) + o (q) + fc_1 (h) + fc_2 (h) + proj (f)
    assert dropout_bytes_per_token(TINY, ("qkv", "o", "fc1", "fc2", "down")) == 3 * (64 + 64 + 64 + 64 + 128)
    plain = TINY.model_copy(update={"gated_mlp": False})
    assert dropout_bytes_per_token(plain, ("fc1", "fc2")) == 3 * 64  # one fc module without a gate


def test_dropout_replaces_the_plain_input_unless_bnb_keeps_it():
    with_dropout = lora_saved_inputs(("q", "v"), quantized=False, dropout=True)
    assert with_dropout.dropout == ("qkv",) and not with_dropout.qkv_input
    legacy = lora_saved_inputs(("q", "v"), quantized=True, legacy_bnb=True, dropout=True)
    assert legacy.qkv_input and legacy.down_input and legacy.dropout == ("qkv",)
    every = lora_saved_inputs(("all-linear",), quantized=False, dropout=True)
    assert every.dropout == ("qkv", "o", "fc1", "fc2", "down")
    # Per token and layer: the 2h input becomes 2h copy + 1h mask.
    plain = train_activation_bytes(TINY, 32, 1, AttentionImpl.SDPA, Checkpointing.NONE, 1,
                                   saved=lora_saved_inputs(("q", "v"), False))
    dropped = train_activation_bytes(TINY, 32, 1, AttentionImpl.SDPA, Checkpointing.NONE, 1, saved=with_dropout)
    assert dropped - plain == 32 * 1 * 64


def test_kv_repeated_to_every_head():
    base = train_activation_bytes(TINY, 32, 1, AttentionImpl.FLASH, Checkpointing.NONE, 1, saved=SavedInputs())
    full = train_activation_bytes(TINY, 32, 1, AttentionImpl.FLASH, Checkpointing.NONE, 1,
                                  saved=SavedInputs(kv_full_heads=True))
    assert full - base == 32 * 4 * (64 - 32)  # k and v at q width instead of kv width, 2 B each


def test_fabric_chunked_loss_keeps_fp32_logits_and_log_probs():
    # Fabric casts the model's output (the bf16 logit chunks) to fp32; the loop keeps them (4 B) and
    # each chunk's cross-entropy keeps its fp32 log-probabilities (4 B).
    assert FABRIC_CHUNKED_LOSS_BYTES_PER_ELEMENT == 4 + 4
    assert fabric_chunked_loss_logits_bytes(TINY, 32, 2) == 32 * 2 * 1000 * 8
    lit = estimate_memory(TINY, job(framework="litgpt")).sizes
    plain = estimate_memory(TINY, job(framework="litgpt", loss="upcast")).sizes
    assert lit.buffers - plain.buffers == pytest.approx(32 * 1000 * (8 - 10))  # vs bf16 + fp32 + fp32 (10 B)


def test_litgpt_unties_the_lm_head_only_for_itself():
    assert not as_trained(TINY, job(framework="litgpt")).tied_embeddings
    assert as_trained(TINY, job(framework="hf")) is TINY
    assert count_params(as_trained(TINY, job(framework="litgpt"))).lm_head == 1000 * 64


def test_litgpt_lora_weights_count_the_separate_lm_head():
    hf = estimate_memory(TINY, job(framework="hf")).breakdown
    lit = estimate_memory(TINY, job(framework="litgpt", loss="upcast")).breakdown
    assert lit.weights - hf.weights == pytest.approx(1000 * 64 * 2)


def test_litgpt_qlora_lm_head_is_four_bit_and_dequantized_via_fp16():
    hf = estimate_memory(TINY, job(method="qlora", weights="nf4", framework="hf")).sizes
    lit = estimate_memory(TINY, job(method="qlora", weights="nf4", framework="litgpt", loss="upcast")).sizes
    nf4 = weight_format("nf4", 128, False).bits_per_weight / 8
    assert lit.weights - hf.weights == pytest.approx(1000 * 64 * nf4)  # the untied lm_head, in 4 bits
    # Forward buffers: hf dequantizes the largest block matrix (gate/up 64×128) to bf16; LitGPT
    # the 1000×64 lm_head, fp16 then bf16 (4 B per element).
    r = estimate_memory(TINY, job(method="qlora", weights="nf4", framework="litgpt", loss="upcast"))
    assert any("lm_head the largest" in a and "4 bytes per element" in a for a in r.assumptions)
    assert lit.buffers - hf.buffers == pytest.approx(1000 * 64 * 4 - 64 * 128 * 2)


def test_framework_notes_say_what_litgpt_keeps():
    notes = " ".join(estimate_memory(TINY, job(framework="litgpt")).assumptions)
    assert "separate lm_head" in notes and "k and v repeated" in notes and "LoRA dropout 0.05" in notes
    assert Framework.LITGPT.value in notes


MHA = TINY.model_copy(update={"n_kv_heads": 4})  # q 64, kv 64: one query head per KV head


def test_v_view_keeps_the_fused_qkv_output_without_grouped_queries():
    base = train_activation_bytes(MHA, 32, 1, AttentionImpl.SDPA, Checkpointing.NONE, 1, saved=SavedInputs())
    view = train_activation_bytes(MHA, 32, 1, AttentionImpl.SDPA, Checkpointing.NONE, 1,
                                  saved=SavedInputs(qkv_view=True))
    assert view - base == 32 * 2 * (64 + 64)  # q and k of the fused output besides v, 2 B each
    notes = " ".join(estimate_memory(MHA, job(framework="litgpt")).assumptions)
    assert "view of the fused q|k|v output" in notes
    # Grouped queries: k and v are expanded and copied instead (kv_full_heads), no view.
    gqa = " ".join(estimate_memory(TINY, job(framework="litgpt")).assumptions)
    assert "view of the fused" not in gqa and "k and v repeated" in gqa
    assert "view of the fused" not in " ".join(estimate_memory(MHA, job(framework="hf")).assumptions)


def test_lora_on_part_of_qkv_keeps_its_padded_output():
    base = train_activation_bytes(TINY, 32, 1, AttentionImpl.SDPA, Checkpointing.NONE, 1, saved=SavedInputs())
    padded = train_activation_bytes(TINY, 32, 1, AttentionImpl.SDPA, Checkpointing.NONE, 1,
                                    saved=SavedInputs(pad_source=("q", "v")))
    assert padded - base == 32 * 2 * (64 + 32)  # the LoRA outputs of q (64) and v (32)
    lit = estimate_memory(TINY, job(framework="litgpt", loss="upcast"))
    assert any("padded to the fused" in a for a in lit.assumptions)
    for targets in (("q", "k", "v"), ("all-linear",), ("o", "gate")):
        r = estimate_memory(TINY, job(framework="litgpt", loss="upcast", lora_targets=targets))
        assert not any("padded to the fused" in a for a in r.assumptions), targets
    assert not any("padded to the fused" in a for a in estimate_memory(TINY, job(framework="hf")).assumptions)


def test_litgpt_mha_lora_counts_both_by_hand():
    """LitGPT LoRA on q, v of an MHA block, per token and layer (checked against autograd's saved
    storages of LitGPT's own code): RMSNorm inputs in fp32 (4h each), dropout copy + mask
    (3h), q, k, kernel output (2q each) and the whole fused qkv (2(q + 2kv)) behind v, the padded
    LoRA output of q and v (2(q + kv)), SwiGLU 6f; plus the fp32 log-sum-exp."""
    h, q, kv, f = 64, 64, 64, 128
    per_token = 8 * h + 3 * h + 3 * 2 * q + 2 * (q + 2 * kv) + 2 * (q + kv) + 6 * f + 4 * 4
    got = train_activation_bytes(MHA, 32, 1, AttentionImpl.FLASH, Checkpointing.NONE, 1,
                                 saved=lora_saved_inputs(("q", "v"), False, dropout=True)._replace(
                                     qkv_view=True, pad_source=("q", "v")))
    assert got == 32 * per_token


def fsdp_job(**kw) -> PlannedJob:
    return job(**({"framework": "litgpt", "loss": "upcast", "n_gpus": 2, "parallel": "fsdp",
                   "checkpointing": "full"} | kw))


def test_fsdp_units_mixing_frozen_and_adapters_get_block_sized_gradients():
    from advisor.core.model.params import count_params as cp
    c = cp(as_trained(MHA, fsdp_job()))
    blocks = c.total - c.embedding - c.lm_head
    lit = estimate_memory(MHA, fsdp_job()).sizes
    assert lit.gradients == pytest.approx(blocks * 2 / 2)  # bf16, sharded over 2 GPUs
    hf = estimate_memory(MHA, fsdp_job(framework="hf", precision="bf16")).sizes
    assert hf.gradients < lit.gradients / 10  # adapters only
    one = estimate_memory(MHA, fsdp_job(n_gpus=1, parallel="none")).sizes  # no FSDP: adapters only
    assert one.gradients < lit.gradients / 10
    assert any("one FSDP unit" in a for a in estimate_memory(MHA, fsdp_job()).assumptions)


def test_fsdp_accumulation_under_no_sync_holds_whole_gradients():
    once = estimate_memory(MHA, fsdp_job()).breakdown
    acc = estimate_memory(MHA, fsdp_job(grad_accum_steps=4))
    b = acc.breakdown
    assert dict(b.phases)["forward end"] - dict(once.phases)["forward end"] == pytest.approx(acc.sizes.gradients * 2)
    assert any("no_sync" in a for a in acc.assumptions)
    hf = estimate_memory(MHA, fsdp_job(framework="hf", grad_accum_steps=4))
    assert not any("no_sync" in a for a in hf.assumptions)


def test_norm_layouts_of_the_architecture():
    """Per token and layer: two RMSNorm inputs in fp32 (8h) by default; a parallel block with one
    LayerNorm saves one 16-bit input (2h) and the norm output qkv and the MLP share once; Gemma 2/3's
    norms after attention and MLP add two fp32 inputs (8h)."""
    h = 64
    saved = SavedInputs(qkv_input=True, gate_up_input=True, norms_trainable=False)

    def per_token(arch):
        return train_activation_bytes(arch, 32, 1, AttentionImpl.FLASH, Checkpointing.NONE, 1, saved=saved) / 32

    base = per_token(MHA)
    phi = per_token(MHA.model_copy(update={"layer_norm": True, "parallel_block": True}))
    assert base - phi == (2 * 4 * h - 2 * h) + 2 * h  # norms 8h -> 2h, shared norm output saved once
    gemma = per_token(MHA.model_copy(update={"post_norms": True}))
    assert gemma - base == 2 * 4 * h
