"""Parameter counts against totals the model authors publish."""

import pytest

from advisor.core.model.arch import AttentionLayout, ModelArch, Moe
from advisor.core.model.params import count_params, layer_mlp_params, lora_params

LLAMA2_7B = ModelArch(
    id="llama-2-7b", name="Llama 2 7B", n_layers=32, hidden_size=4096, n_heads=32, n_kv_heads=32,
    head_dim=128, ffn_size=11008, vocab_size=32000,
)
# https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json
LLAMA3_8B = ModelArch(
    id="llama-3-8b", name="Llama 3 8B", n_layers=32, hidden_size=4096, n_heads=32, n_kv_heads=8,
    head_dim=128, ffn_size=14336, vocab_size=128256,
)
# https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json
MIXTRAL = ModelArch(
    id="mixtral-8x7b", name="Mixtral 8x7B", n_layers=32, hidden_size=4096, n_heads=32, n_kv_heads=8,
    head_dim=128, ffn_size=14336, vocab_size=32000,
    moe=Moe(n_experts=8, n_active=2, expert_ffn_size=14336),
)
# https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json
DEEPSEEK_V3 = ModelArch(
    id="deepseek-v3", name="DeepSeek-V3", n_layers=61, hidden_size=7168, n_heads=128, n_kv_heads=128,
    head_dim=192, ffn_size=18432, vocab_size=129280,
    attention=AttentionLayout(kind="mla", kv_lora_rank=512, q_lora_rank=1536, qk_rope_head_dim=64,
                              qk_nope_head_dim=128, v_head_dim=128),
    moe=Moe(n_experts=256, n_active=8, n_shared=1, expert_ffn_size=2048, n_dense_layers=3),
)


@pytest.mark.parametrize(
    ("arch", "published", "tolerance"),
    [
        (LLAMA2_7B, 6_738_415_616, 0),  # exact: safetensors index of meta-llama/Llama-2-7b-hf
        (LLAMA3_8B, 8_030_261_248, 0),  # exact: Meta-Llama-3-8B model card "8.03B"
        (MIXTRAL, 46.7e9, 0.005),  # Mistral AI: "46.7B total parameters, 12.9B active"
        (DEEPSEEK_V3, 671e9, 0.005),  # DeepSeek-V3 report: 671B total (without the 14B MTP module)
    ],
)
def test_total_matches_published(arch, published, tolerance):
    total = count_params(arch).total
    assert abs(total - published) <= tolerance * published


@pytest.mark.parametrize(("arch", "active"), [(MIXTRAL, 12.9e9), (DEEPSEEK_V3, 37e9)])
def test_active_params_of_moe_match_published(arch, active):
    assert count_params(arch).active == pytest.approx(active, rel=0.03)


def test_lora_rank16_all_linear_llama2_7b():
    # r·(d_in+d_out) per matrix: 4 attention (8192 each) + 3 MLP (15104 each) per layer.
    expected = 16 * (4 * 8192 + 3 * 15104) * 32
    assert lora_params(LLAMA2_7B, 16, ("all-linear",)) == expected == 39_976_960


def test_lora_qv_rank8_llama2_7b_matches_peft_print():
    # PEFT print_trainable_parameters for r=8 on q_proj,v_proj: "trainable params: 4,194,304".
    assert lora_params(LLAMA2_7B, 8, ("q", "v")) == 4_194_304


def test_one_layers_mlp_weights():
    # A dense SwiGLU layer: gate, up and down. Mixtral's MoE layer: 8 experts of the same shape and the router; a token
    # runs 2 of them (and the router) — the layers' sum is count_params' MLP part.
    assert layer_mlp_params(LLAMA3_8B, moe_layer=False) == 3 * 4096 * 14336
    assert layer_mlp_params(MIXTRAL, moe_layer=True) == 8 * 3 * 4096 * 14336 + 4096 * 8
    assert layer_mlp_params(MIXTRAL, moe_layer=True, active_only=True) == 2 * 3 * 4096 * 14336 + 4096 * 8
    assert layer_mlp_params(LLAMA3_8B, moe_layer=True) == layer_mlp_params(LLAMA3_8B, moe_layer=False)  # no experts
    assert count_params(MIXTRAL).mlp == 32 * layer_mlp_params(MIXTRAL, moe_layer=True)
