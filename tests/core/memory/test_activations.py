"""Saved activations of a training step: a Llama block per Korthikanti et al. 2022, by checkpointing policy, tensor
and pipeline parallelism, and what LoRA's frozen Linears keep (``memory.activations``)."""

import pytest

from advisor.core.job.choices import AttentionImpl, Checkpointing
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.activations import train_activation_bytes

from tests.core.memory.memory_fixtures import LLAMA2_7B, LLAMA3_8B, TRAIN, full_sizes


def test_llama_layer_activation_bytes_per_token():
    per_token_layer = train_activation_bytes(LLAMA2_7B, 1, 1, AttentionImpl.FLASH, Checkpointing.NONE, n_layers=1)
    h, f = 4096, 11008
    assert per_token_layer == 16 * h + 4 * h + 4 * h + 8 * f + 4 * 32  # + fp32 log-sum-exp per head


def test_checkpointing_and_attention_ordering():
    def acts(ckpt, impl):
        w = PlannedJob(**TRAIN, checkpointing=ckpt, attention=impl, seq_len=4096)
        return full_sizes(LLAMA2_7B, w).activations
    assert acts("full", "eager") < acts("selective", "eager") < acts("none", "eager")
    assert acts("selective", "flash") == acts("none", "flash")  # flash has no s² term to drop
    assert acts("none", "flash") < acts("none", "sdpa") < acts("none", "eager")
    # Full checkpointing keeps each layer's input: 2·s·h bytes per layer, plus one layer recomputed.
    assert acts("full", "flash") == pytest.approx(2 * 4096 * 4096 * 32 + acts("none", "flash") / 32)


def test_tensor_parallel_splits_inner_activations_only():
    one = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN)).activations
    tp = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, n_gpus=4, parallel="tp")).activations
    assert one / 4 < tp < one


def test_pipeline_first_stage_holds_in_flight_microbatches():
    w = PlannedJob(**TRAIN, n_gpus=4, parallel="pp", grad_accum_steps=8)
    b = full_sizes(LLAMA2_7B, w)
    one = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN))
    assert b.activations == pytest.approx(one.activations)  # L/p layers × p micro-batches (Korthikanti §4.2.3)
    assert b.optimizer < one.optimizer / 3


def test_op_sac_keeps_q_v_gate_down_outputs_attention_output_and_block_input():
    from advisor.core.memory.activations import op_sac_layer_bytes

    h, q, kv, f, heads = 4096, 4096, 1024, 14336, 32  # Llama-3-8B
    expected = 2 * (h + (q + kv + f + h) + q + 2 * heads)
    assert op_sac_layer_bytes(LLAMA3_8B, AttentionImpl.SDPA) == expected == 63_616


def test_op_sac_sits_between_full_checkpointing_and_none():
    from advisor.core.memory.activations import op_sac_activation_bytes

    args = (LLAMA3_8B, 8192, 2, AttentionImpl.SDPA)
    op = op_sac_activation_bytes(*args)
    assert train_activation_bytes(*args, Checkpointing.FULL) < op < train_activation_bytes(*args, Checkpointing.NONE)


def test_qlora_4bit_linears_keep_no_input_since_bitsandbytes_0_43_2():
    from advisor.core.memory.activations import lora_saved_inputs

    args = (LLAMA2_7B, 1304, 1, AttentionImpl.SDPA, Checkpointing.NONE)
    lora = lora_saved_inputs(("q", "v"), quantized=False)
    assert lora_saved_inputs(("q", "v"), quantized=True) == lora
    legacy = lora_saved_inputs(("q", "v"), quantized=True, legacy_bnb=True)
    assert legacy.o_input and legacy.gate_up_input and legacy.down_input and not lora.down_input
    extra = train_activation_bytes(*args, saved=legacy) - train_activation_bytes(*args, saved=lora)
    # Per token and layer: o_proj's input (SDPA's transposed output copy, 2q), the gate/up input (2h)
    # and the down input (2f).
    assert extra == 1304 * 32 * (2 * 4096 + 2 * 4096 + 2 * 11008)
    assert lora_saved_inputs(("all-linear",), True) == lora_saved_inputs(("all-linear",), True, legacy_bnb=True)
