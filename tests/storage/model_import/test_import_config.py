"""config.json → ModelArch: the families the import maps, and clear errors for bad configs."""

import json

import pytest

from advisor.core.model.arch import AttentionKind
from advisor.core.model.params import count_params
from advisor.storage.model_import import ModelImportError, arch_from_hf_config, load_model
from tests.storage.model_import.model_files import LLAMA2_7B_CONFIG, write_json


def test_llama_config_matches_preset(tmp_path):
    model = load_model(write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG))
    assert model.origin == "config"
    assert count_params(model.arch).total == 6_738_415_616


def test_mixtral_config_is_moe(tmp_path):
    cfg = {"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
           "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000, "num_local_experts": 8,
           "num_experts_per_tok": 2, "max_position_embeddings": 32768, "sliding_window": None}
    arch = load_model(write_json(tmp_path / "config.json", cfg)).arch
    assert arch.moe.n_experts == 8 and arch.moe.n_active == 2
    assert count_params(arch).total == pytest.approx(46.7e9, rel=0.005)
    assert arch.attention.kind is AttentionKind.FULL


def test_mistral_sliding_window(tmp_path):
    cfg = {"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
           "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000, "sliding_window": 4096,
           "max_position_embeddings": 32768}
    att = load_model(write_json(tmp_path / "config.json", cfg)).arch.attention
    assert att.kind is AttentionKind.SLIDING and att.sliding_window == 4096 and att.sliding_layers is None


def test_gemma3_multimodal_wrapper_uses_text_config(tmp_path):
    cfg = {"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"], "text_config": {
        "model_type": "gemma3_text", "hidden_size": 5376, "intermediate_size": 21504, "num_attention_heads": 32,
        "num_hidden_layers": 62, "num_key_value_heads": 16, "head_dim": 128, "vocab_size": 262208,
        "sliding_window": 1024, "sliding_window_pattern": 6, "max_position_embeddings": 131072}}
    arch = load_model(write_json(tmp_path / "config.json", cfg)).arch
    assert arch.tied_embeddings and arch.attention.sliding_layers == 52
    assert count_params(arch).total == pytest.approx(27e9, rel=0.01)


def test_gemma2_alternating(tmp_path):
    cfg = {"model_type": "gemma2", "hidden_size": 3584, "intermediate_size": 14336, "num_attention_heads": 16,
           "num_hidden_layers": 42, "num_key_value_heads": 8, "head_dim": 256, "vocab_size": 256000,
           "sliding_window": 4096, "max_position_embeddings": 8192}
    arch = load_model(write_json(tmp_path / "config.json", cfg)).arch
    assert arch.attention.sliding_layers == 21 and arch.tied_embeddings


def test_deepseek_v3_config_is_mla_moe(tmp_path):
    cfg = {"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
           "moe_intermediate_size": 2048, "num_attention_heads": 128, "num_hidden_layers": 61,
           "num_key_value_heads": 128, "vocab_size": 129280, "n_routed_experts": 256, "n_shared_experts": 1,
           "num_experts_per_tok": 8, "first_k_dense_replace": 3, "kv_lora_rank": 512, "q_lora_rank": 1536,
           "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "max_position_embeddings": 163840}
    arch = load_model(write_json(tmp_path / "config.json", cfg)).arch
    assert arch.attention.kind is AttentionKind.MLA and arch.moe.n_dense_layers == 3
    assert count_params(arch).total == pytest.approx(671e9, rel=0.005)


def test_qwen3_moe_config(tmp_path):
    cfg = {"model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144, "moe_intermediate_size": 768,
           "num_attention_heads": 32, "num_hidden_layers": 48, "num_key_value_heads": 4, "head_dim": 128,
           "vocab_size": 151936, "num_experts": 128, "num_experts_per_tok": 8, "mlp_only_layers": [],
           "tie_word_embeddings": False, "sliding_window": None, "max_position_embeddings": 40960}
    arch = load_model(write_json(tmp_path / "config.json", cfg)).arch
    assert count_params(arch).total == pytest.approx(30.5e9, rel=0.01)


def test_falcon_config_is_plain_mlp_and_tied(tmp_path):
    cfg = {"model_type": "falcon", "hidden_size": 8192, "num_attention_heads": 128, "num_hidden_layers": 60,
           "num_kv_heads": 8, "new_decoder_architecture": True, "vocab_size": 65024, "parallel_attn": True}
    arch = load_model(write_json(tmp_path / "config.json", cfg)).arch
    assert not arch.gated_mlp and arch.tied_embeddings and arch.n_kv_heads == 8 and arch.ffn_size == 4 * 8192


def test_falcon_7b_is_multi_query(tmp_path):
    cfg = {"model_type": "falcon", "hidden_size": 4544, "num_attention_heads": 71, "num_hidden_layers": 32,
           "multi_query": True, "vocab_size": 65024}
    assert load_model(write_json(tmp_path / "config.json", cfg)).arch.n_kv_heads == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not JSON"), ("[1, 2]", "expected a JSON object"),
     (json.dumps({"model_type": "llama"}), "no 'num_hidden_layers'"),
     (json.dumps({**LLAMA2_7B_CONFIG, "num_hidden_layers": "32"}), "must be a positive integer"),
     (json.dumps({**LLAMA2_7B_CONFIG, "num_key_value_heads": 64}), "n_kv_heads")],
)
def test_bad_config_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "config.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ModelImportError, match=message) as info:
        load_model(path)
    assert str(path) in str(info.value)


def test_heads_not_dividing_hidden_without_head_dim(tmp_path):
    cfg = {**LLAMA2_7B_CONFIG, "num_attention_heads": 30, "num_key_value_heads": 30}
    with pytest.raises(ModelImportError, match="not a multiple of 30 heads"):
        arch_from_hf_config(cfg, tmp_path / "config.json")


# --- wrong types are one clear error, never a traceback or a silent guess -------------------------

MOE = {**LLAMA2_7B_CONFIG, "num_local_experts": 8, "num_experts_per_tok": 2}


@pytest.mark.parametrize(("over", "key"), [
    ({**MOE, "num_local_experts": "8"}, "num_local_experts"),
    ({**MOE, "first_k_dense_replace": "3"}, "first_k_dense_replace"),
    ({**MOE, "mlp_only_layers": 3}, "mlp_only_layers"),
    ({**MOE, "num_experts_per_tok": [2]}, "num_experts_per_tok"),
    ({**MOE, "n_shared_experts": 1.5}, "n_shared_experts"),
    ({**MOE, "moe_intermediate_size": None, "intermediate_size": "big"}, "intermediate_size"),
    ({**LLAMA2_7B_CONFIG, "model_type": "gemma3", "sliding_window": 1024, "sliding_window_pattern": "6"},
     "sliding_window_pattern"),
    ({**LLAMA2_7B_CONFIG, "sliding_window": "4096"}, "sliding_window"),
    ({**LLAMA2_7B_CONFIG, "sliding_window": 1024, "layer_types": "sliding_attention"}, "layer_types"),
    ({**LLAMA2_7B_CONFIG, "kv_lora_rank": "512"}, "kv_lora_rank"),
    ({**LLAMA2_7B_CONFIG, "kv_lora_rank": 512, "qk_rope_head_dim": {"a": 1}}, "qk_rope_head_dim"),
    ({**LLAMA2_7B_CONFIG, "head_dim": 128.0}, "head_dim"),
    ({**LLAMA2_7B_CONFIG, "max_position_embeddings": True}, "max_position_embeddings"),
    ({**LLAMA2_7B_CONFIG, "tie_word_embeddings": "false"}, "tie_word_embeddings"),
    ({**LLAMA2_7B_CONFIG, "num_key_value_heads": -8}, "num_key_value_heads"),
    ({**LLAMA2_7B_CONFIG, "vocab_size": 10**400}, "vocab_size"),
    ({**LLAMA2_7B_CONFIG, "hidden_size": 2**70}, "hidden_size"),
    ({**LLAMA2_7B_CONFIG, "model_type": "falcon", "multi_query": "yes"}, "multi_query"),
])
def test_a_wrong_type_names_the_key(tmp_path, over, key):
    path = write_json(tmp_path / "config.json", over)
    before = path.read_bytes()
    with pytest.raises(ModelImportError, match=key) as info:
        load_model(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)
    assert path.read_bytes() == before


def test_deeply_nested_config_is_one_error(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ModelImportError, match="nested too deeply"):
        load_model(path)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs")
def test_a_fifo_named_config_json_is_refused(tmp_path):
    import os

    os.mkfifo(tmp_path / "config.json")
    with pytest.raises(ModelImportError, match="FIFO"):
        load_model(tmp_path / "config.json")
    with pytest.raises(ModelImportError, match="FIFO"):
        load_model(tmp_path)  # the folder


# --- fuzz: any value in any key the import reads ----------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
                      st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=10))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=8), inner, max_size=3), max_leaves=10)
KEYS = sorted({*LLAMA2_7B_CONFIG, "num_local_experts", "n_routed_experts", "first_k_dense_replace",
               "mlp_only_layers", "sliding_window", "sliding_window_pattern", "layer_types", "kv_lora_rank",
               "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim", "head_dim", "text_config",
               "n_shared_experts", "shared_expert_intermediate_size", "moe_intermediate_size", "use_sliding_window",
               "num_experts_per_tok", "_name_or_path", "new_decoder_architecture", "multi_query"})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.dictionaries(st.sampled_from(KEYS), json_value, min_size=1, max_size=4),
       base=st.sampled_from([LLAMA2_7B_CONFIG, MOE, {**LLAMA2_7B_CONFIG, "model_type": "gemma3", "sliding_window": 512}]))
def test_fuzzed_config_imports_or_is_one_clear_error(tmp_path, changes, base):
    try:
        arch_from_hf_config({**base, **changes}, tmp_path / "config.json")
    except ModelImportError as exc:
        assert "\n" not in str(exc)


def test_norm_layout_follows_the_model_type(tmp_path):
    phi = {"model_type": "phi", "hidden_size": 2048, "intermediate_size": 8192, "num_attention_heads": 32,
           "num_hidden_layers": 24, "vocab_size": 51200}
    arch = load_model(write_json(tmp_path / "config.json", phi)).arch
    assert arch.layer_norm and arch.parallel_block and not arch.post_norms
    gemma = {"model_type": "gemma2", "hidden_size": 3584, "intermediate_size": 14336, "num_attention_heads": 16,
             "num_hidden_layers": 42, "num_key_value_heads": 8, "head_dim": 256, "vocab_size": 256000}
    arch = load_model(write_json(tmp_path / "config.json", gemma)).arch
    assert arch.post_norms and not arch.layer_norm and not arch.parallel_block
    falcon40 = {"model_type": "falcon", "hidden_size": 8192, "num_attention_heads": 128, "num_hidden_layers": 60,
                "num_kv_heads": 8, "new_decoder_architecture": True, "vocab_size": 65024}
    arch = load_model(write_json(tmp_path / "config.json", falcon40)).arch
    assert arch.layer_norm and not arch.parallel_block and arch.parallel_residual  # ln_attn and ln_mlp: two norms
    falcon11 = {**falcon40, "num_ln_in_parallel_attn": 1}  # Falcon2-11B: one input_layernorm for both
    arch = load_model(write_json(tmp_path / "config.json", falcon11)).arch
    assert arch.parallel_block and not arch.parallel_residual
    falcon7 = {k: v for k, v in falcon40.items() if k not in ("new_decoder_architecture", "num_kv_heads")}
    arch = load_model(write_json(tmp_path / "config.json", {**falcon7, "parallel_attn": True})).arch
    assert arch.parallel_block and not arch.parallel_residual
    arch = load_model(write_json(tmp_path / "config.json", {**falcon7, "parallel_attn": False})).arch
    assert not arch.side_by_side
    neox = {"model_type": "gpt_neox", "hidden_size": 6144, "intermediate_size": 24576, "num_attention_heads": 64,
            "num_hidden_layers": 44, "vocab_size": 50432}  # GPT-NeoX-20B: use_parallel_residual by default
    arch = load_model(write_json(tmp_path / "config.json", neox)).arch
    assert arch.parallel_residual and not arch.parallel_block
    arch = load_model(write_json(tmp_path / "config.json", {**neox, "use_parallel_residual": False})).arch
    assert not arch.side_by_side
    arch = load_model(write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)).arch
    assert not (arch.layer_norm or arch.parallel_block or arch.post_norms)
