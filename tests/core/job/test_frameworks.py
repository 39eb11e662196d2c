"""The litgpt profile's memory mechanisms (issue 14): each pinned to LitGPT's code at
``LITGPT_COMMIT``, Lightning Fabric's bitsandbytes plugin and bitsandbytes 0.42.0, as cited in
``advisor/core/job/frameworks.py``; the other frameworks keep the defaults they had."""

from advisor.core.job.frameworks import (
    BNB_DEQUANT_BYTES,
    FABRIC_BNB_DEQUANT_BYTES,
    LITGPT_COMMIT,
    LITGPT_LORA_DROPOUT,
    PROFILES,
    Profile,
)
from advisor.core.job.workload import Framework


def test_litgpt_constants_are_the_cited_ones():
    assert LITGPT_COMMIT == "00af8b0d9b43eaa3f8c812e3e8bd53ef38cbb49d"
    assert LITGPT_LORA_DROPOUT == 0.05  # finetune/lora.py setup(lora_dropout=0.05), config_hub lora_dropout: 0.05
    assert FABRIC_BNB_DEQUANT_BYTES == 2 + 2  # fp16 dequantized matrix + its .to(bf16) copy
    assert BNB_DEQUANT_BYTES == 2


def test_litgpt_profile_follows_its_code():
    p = PROFILES[Framework.LITGPT]
    assert p.untied_lm_head and p.kv_full_heads and p.quantize_lm_head
    assert p.fused_qkv_view and p.lora_pad_saved  # issue 14: LITGPT_QKV_VIEW, LITGPT_LORA_PAD
    assert p.fsdp_mixed_units and p.accumulate_unsharded  # issue 14: FSDP_MIXED_UNITS, FSDP_NO_SYNC
    assert p.lora_dropout == LITGPT_LORA_DROPOUT
    assert not p.chunked_loss_upcast
    assert p.dequant_bytes == FABRIC_BNB_DEQUANT_BYTES


def test_other_frameworks_keep_the_plain_defaults():
    plain = Profile()
    for fw, p in PROFILES.items():
        if fw is Framework.LITGPT:
            continue
        assert (p.untied_lm_head, p.kv_full_heads, p.quantize_lm_head, p.lora_dropout, p.chunked_loss_upcast,
                p.dequant_bytes, p.fused_qkv_view, p.lora_pad_saved, p.fsdp_mixed_units, p.accumulate_unsharded) == (
                    plain.untied_lm_head, plain.kv_full_heads, plain.quantize_lm_head, plain.lora_dropout,
                    plain.chunked_loss_upcast, plain.dequant_bytes, plain.fused_qkv_view, plain.lora_pad_saved,
                    plain.fsdp_mixed_units, plain.accumulate_unsharded), fw
    assert (plain.lora_dropout, plain.dequant_bytes, plain.chunked_loss_upcast) == (0.0, 2, True)
