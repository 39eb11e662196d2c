"""Sequence parallelism in torchtitan's 2-D FSDP × TP: the residual stream between blocks is split along
the sequence (advisor.core.memory.activations, torchtitan's apply_tp), so each layer's kept input and the
norms' tensors are divided by the tensor-parallel degree; the gathered Linear inputs stay whole."""

import pytest

from advisor.core.job.choices import AttentionImpl, Checkpointing
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.activations import (
    FULL_TRAINING,
    norm_bytes_per_token,
    train_activation_bytes,
)
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.arch import ModelArch
from advisor.storage.catalog_store import load_catalog

TINY = ModelArch(id="tiny", name="Tiny", n_layers=4, hidden_size=64, n_heads=4, n_kv_heads=2, head_dim=16,
                 ffn_size=128, vocab_size=1000)


def test_full_checkpointing_keeps_a_sequence_shard_of_each_layer_input():
    whole = train_activation_bytes(TINY, 32, 2, AttentionImpl.FLASH, Checkpointing.FULL, tp=4)
    split = train_activation_bytes(TINY, 32, 2, AttentionImpl.FLASH, Checkpointing.FULL, tp=4, sequence_parallel=True)
    kept = 32 * 2 * 2 * 64 * 4  # tokens × 2 B × h × layers
    norms = 32 * 2 * norm_bytes_per_token(TINY, FULL_TRAINING)  # the one recomputed layer's norms
    assert norms == 32 * 2 * 2 * (4 * 64 + 2 * 64)  # two RMSNorms: fp32 input and bf16 output
    assert whole - split == pytest.approx(kept * (1 - 1 / 4) + norms * (1 - 1 / 4))
    assert train_activation_bytes(TINY, 32, 2, AttentionImpl.FLASH, Checkpointing.FULL, tp=1,
                                  sequence_parallel=True) == train_activation_bytes(
        TINY, 32, 2, AttentionImpl.FLASH, Checkpointing.FULL, tp=1)


def test_torchtitans_70b_fsdp_by_tp8_job_keeps_an_eighth_of_the_layer_inputs():
    # torchtitan docs/performance.md at eaea6f6a, Table 4: Llama 3.1 70B, FSDP 32 × TP 8, local batch 16 ×
    # 8,192 tokens, full checkpointing: 67.6-71.9 GiB reserved per GPU. The layer inputs alone are
    # 16 × 8,192 × 8,192 × 2 B × 80 layers = 160 GiB whole; an eighth of that under sequence parallelism.
    arch = load_catalog().catalog.models["llama-3.1-70b"]
    job = PlannedJob(mode="train", method="full", precision="amp", framework="torchtitan", n_gpus=256, parallel="fsdp",
                   tp=8, batch=16, seq_len=8192, checkpointing="full", attention="sdpa")
    result = estimate_memory(arch, job)
    acts = result.sizes.activations
    assert 160 / 8 < acts / 2**30 < 160 / 8 + 20
    assert result.breakdown.peak_reserved / 2**30 < 80
    assert any("sequence parallel over the 8 tensor-parallel ranks" in n for n in result.assumptions)
