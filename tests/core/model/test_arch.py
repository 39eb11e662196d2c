"""A model's architecture record: heads that divide, MLA's latent widths, MoE experts, side-by-side blocks."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from advisor.core.model.arch import AttentionKind, AttentionLayout, ModelArch, Moe
from tests.catalog_fixtures import model_data


@pytest.mark.parametrize(("heads", "kv_heads", "match"), [(4, 8, "exceeds n_heads"), (6, 4, "not a multiple")])
def test_kv_heads_divide_the_heads(heads, kv_heads, match):
    with pytest.raises(ValidationError, match=match):
        ModelArch.model_validate(model_data(n_heads=heads, n_kv_heads=kv_heads))


def test_mla_needs_its_latent_widths_and_says_its_kv_rank():
    with pytest.raises(ValidationError, match="MLA needs kv_lora_rank"):
        AttentionLayout(kind=AttentionKind.MLA, kv_lora_rank=512)
    mla = AttentionLayout(kind=AttentionKind.MLA, kv_lora_rank=512, qk_rope_head_dim=64)
    assert mla.latent_kv_rank == 512
    with pytest.raises(ValueError, match="not an MLA layout"):
        _ = AttentionLayout().latent_kv_rank


def test_sliding_attention_needs_its_window():
    with pytest.raises(ValidationError, match="sliding_window"):
        AttentionLayout(kind=AttentionKind.SLIDING)


def test_active_experts_are_at_most_the_experts():
    with pytest.raises(ValidationError, match="n_active exceeds n_experts"):
        Moe(n_experts=8, n_active=9, expert_ffn_size=128)


def test_one_shared_norm_and_a_norm_each_exclude_each_other_and_both_are_side_by_side():
    assert ModelArch.model_validate(model_data(parallel_block=True)).side_by_side
    assert ModelArch.model_validate(model_data(parallel_residual=True)).side_by_side
    assert not ModelArch.model_validate(model_data()).side_by_side
    with pytest.raises(ValidationError, match="exclude each other"):
        ModelArch.model_validate(model_data(parallel_block=True, parallel_residual=True))
