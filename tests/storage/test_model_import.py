"""Offline import: presets, config.json, safetensors folders (plain and sharded), GGUF files."""

import json
import struct

import numpy as np
import pytest
from gguf import GGMLQuantizationType, GGUFWriter
from gguf.quants import quantize
from safetensors.numpy import save_file

from advisor.core.model.arch import AttentionKind
from advisor.core.model.params import count_params
from advisor.storage.model_import import ImportedModel, ModelImportError, arch_from_hf_config, load_model

LLAMA2_7B_CONFIG = {  # meta-llama/Llama-2-7b-hf config.json (keys the import reads)
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
    "intermediate_size": 11008, "num_attention_heads": 32, "num_hidden_layers": 32,
    "num_key_value_heads": 32, "max_position_embeddings": 4096, "tie_word_embeddings": False,
    "vocab_size": 32000, "torch_dtype": "float16",
}


def _write(path, data):
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# --- presets --------------------------------------------------------------------------------


def test_preset_id():
    model = load_model("llama-2-7b")
    assert model.origin == "preset" and model.arch.id == "llama-2-7b"
    assert count_params(model.arch).total == 6_738_415_616
    assert model.weights_bytes_override is None and model.params_exact is None


def test_user_override_of_a_preset_wins(tmp_path):
    from advisor.storage import paths

    user_models = paths.user_catalog_dir() / "models"
    user_models.mkdir(parents=True, exist_ok=True)
    record = load_model("llama-2-7b").arch.model_copy(update={"name": "My Llama", "max_context": 8192})
    (user_models / "llama-2-7b.json").write_text(record.model_dump_json(), encoding="utf-8")
    assert load_model("llama-2-7b").arch.name == "My Llama"


def test_unknown_preset_names_the_id_and_lists_presets():
    with pytest.raises(ModelImportError, match="unknown model 'no-such-model'.*llama-2-7b"):
        load_model("no-such-model")


@pytest.mark.parametrize("text", ["./missing/config.json", "missing.gguf", "/nonexistent/dir"])
def test_missing_path_is_named(text):
    with pytest.raises(ModelImportError, match="no such file"):
        load_model(text)


# --- config.json ----------------------------------------------------------------------------


def test_llama_config_matches_preset(tmp_path):
    model = load_model(_write(tmp_path / "config.json", LLAMA2_7B_CONFIG))
    assert model.origin == "config"
    assert count_params(model.arch).total == 6_738_415_616


def test_mixtral_config_is_moe(tmp_path):
    cfg = {"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
           "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000, "num_local_experts": 8,
           "num_experts_per_tok": 2, "max_position_embeddings": 32768, "sliding_window": None}
    arch = load_model(_write(tmp_path / "config.json", cfg)).arch
    assert arch.moe.n_experts == 8 and arch.moe.n_active == 2
    assert count_params(arch).total == pytest.approx(46.7e9, rel=0.005)
    assert arch.attention.kind is AttentionKind.FULL


def test_mistral_sliding_window(tmp_path):
    cfg = {"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
           "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000, "sliding_window": 4096,
           "max_position_embeddings": 32768}
    att = load_model(_write(tmp_path / "config.json", cfg)).arch.attention
    assert att.kind is AttentionKind.SLIDING and att.sliding_window == 4096 and att.sliding_layers is None


def test_gemma3_multimodal_wrapper_uses_text_config(tmp_path):
    cfg = {"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"], "text_config": {
        "model_type": "gemma3_text", "hidden_size": 5376, "intermediate_size": 21504, "num_attention_heads": 32,
        "num_hidden_layers": 62, "num_key_value_heads": 16, "head_dim": 128, "vocab_size": 262208,
        "sliding_window": 1024, "sliding_window_pattern": 6, "max_position_embeddings": 131072}}
    arch = load_model(_write(tmp_path / "config.json", cfg)).arch
    assert arch.tied_embeddings and arch.attention.sliding_layers == 52
    assert count_params(arch).total == pytest.approx(27e9, rel=0.01)


def test_gemma2_alternating(tmp_path):
    cfg = {"model_type": "gemma2", "hidden_size": 3584, "intermediate_size": 14336, "num_attention_heads": 16,
           "num_hidden_layers": 42, "num_key_value_heads": 8, "head_dim": 256, "vocab_size": 256000,
           "sliding_window": 4096, "max_position_embeddings": 8192}
    arch = load_model(_write(tmp_path / "config.json", cfg)).arch
    assert arch.attention.sliding_layers == 21 and arch.tied_embeddings


def test_deepseek_v3_config_is_mla_moe(tmp_path):
    cfg = {"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
           "moe_intermediate_size": 2048, "num_attention_heads": 128, "num_hidden_layers": 61,
           "num_key_value_heads": 128, "vocab_size": 129280, "n_routed_experts": 256, "n_shared_experts": 1,
           "num_experts_per_tok": 8, "first_k_dense_replace": 3, "kv_lora_rank": 512, "q_lora_rank": 1536,
           "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "max_position_embeddings": 163840}
    arch = load_model(_write(tmp_path / "config.json", cfg)).arch
    assert arch.attention.kind is AttentionKind.MLA and arch.moe.n_dense_layers == 3
    assert count_params(arch).total == pytest.approx(671e9, rel=0.005)


def test_qwen3_moe_config(tmp_path):
    cfg = {"model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144, "moe_intermediate_size": 768,
           "num_attention_heads": 32, "num_hidden_layers": 48, "num_key_value_heads": 4, "head_dim": 128,
           "vocab_size": 151936, "num_experts": 128, "num_experts_per_tok": 8, "mlp_only_layers": [],
           "tie_word_embeddings": False, "sliding_window": None, "max_position_embeddings": 40960}
    arch = load_model(_write(tmp_path / "config.json", cfg)).arch
    assert count_params(arch).total == pytest.approx(30.5e9, rel=0.01)


def test_falcon_config_is_plain_mlp_and_tied(tmp_path):
    cfg = {"model_type": "falcon", "hidden_size": 8192, "num_attention_heads": 128, "num_hidden_layers": 60,
           "num_kv_heads": 8, "new_decoder_architecture": True, "vocab_size": 65024, "parallel_attn": True}
    arch = load_model(_write(tmp_path / "config.json", cfg)).arch
    assert not arch.gated_mlp and arch.tied_embeddings and arch.n_kv_heads == 8 and arch.ffn_size == 4 * 8192


def test_falcon_7b_is_multi_query(tmp_path):
    cfg = {"model_type": "falcon", "hidden_size": 4544, "num_attention_heads": 71, "num_hidden_layers": 32,
           "multi_query": True, "vocab_size": 65024}
    assert load_model(_write(tmp_path / "config.json", cfg)).arch.n_kv_heads == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not valid JSON"), ("[1, 2]", "expected a JSON object"),
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


# --- safetensors ------------------------------------------------------------------------------


def _tiny_llama_tensors(dtype=np.float16):
    return {
        "model.embed_tokens.weight": np.zeros((10, 4), dtype=dtype),
        "model.layers.0.self_attn.q_proj.weight": np.zeros((4, 4), dtype=dtype),
        "model.layers.0.mlp.up_proj.weight": np.zeros((6, 4), dtype=dtype),
        "model.norm.weight": np.zeros((4,), dtype=np.float32),
        "lm_head.weight": np.zeros((10, 4), dtype=dtype),
    }


def test_safetensors_folder_exact_counts(tmp_path):
    _write(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    save_file(_tiny_llama_tensors(), str(tmp_path / "model.safetensors"))
    model = load_model(tmp_path)
    assert model.origin == "safetensors"
    assert model.params_exact == 40 + 16 + 24 + 4 + 40
    assert model.dtypes == {"F16": 120, "F32": 4}
    assert model.weights_bytes_override == 120 * 2 + 4 * 4
    assert model.weight_format == "fp16"
    assert model.arch.n_layers == 32  # architecture from config.json
    assert load_model(tmp_path / "model.safetensors") == model  # the file itself resolves to its folder


def test_sharded_safetensors_via_index(tmp_path):
    _write(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    tensors = _tiny_llama_tensors(np.float32)
    names = sorted(tensors)
    first, second = dict((n, tensors[n]) for n in names[:2]), dict((n, tensors[n]) for n in names[2:])
    save_file(first, str(tmp_path / "model-00001-of-00002.safetensors"))
    save_file(second, str(tmp_path / "model-00002-of-00002.safetensors"))
    weight_map = {n: "model-00001-of-00002.safetensors" for n in first}
    weight_map |= {n: "model-00002-of-00002.safetensors" for n in second}
    _write(tmp_path / "model.safetensors.index.json", {"metadata": {"total_size": 0}, "weight_map": weight_map})
    # A stray file not in the index (e.g. consolidated.safetensors) must not be counted twice.
    save_file(tensors, str(tmp_path / "consolidated.safetensors"))
    model = load_model(tmp_path)
    assert model.params_exact == 124 and model.weights_bytes_override == 124 * 4
    assert model.weight_format == "fp32"


def test_missing_shard_is_named(tmp_path):
    _write(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    _write(tmp_path / "model.safetensors.index.json", {"weight_map": {"a": "model-00001-of-00002.safetensors"}})
    with pytest.raises(ModelImportError, match="model-00001-of-00002.safetensors: shard listed"):
        load_model(tmp_path)


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"abc", "too short"), (struct.pack("<Q", 10**9) + b"{}", "corrupt safetensors header"),
     (struct.pack("<Q", 5) + b"nope!", "not JSON"),
     (struct.pack("<Q", 26) + b'{"t": {"dtype": "F16"}}   ', "malformed header entry")],
)
def test_corrupt_safetensors(tmp_path, content, message):
    _write(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    (tmp_path / "model.safetensors").write_bytes(content)
    with pytest.raises(ModelImportError, match=message) as info:
        load_model(tmp_path)
    assert "model.safetensors" in str(info.value)


def test_quantized_checkpoint_keeps_bytes_but_not_count(tmp_path):
    _write(tmp_path / "config.json", {**LLAMA2_7B_CONFIG, "quantization_config": {"quant_method": "gptq", "bits": 4}})
    save_file({"model.layers.0.mlp.up_proj.qweight": np.zeros((2, 6), dtype=np.int32),
               "model.layers.0.mlp.up_proj.scales": np.zeros((1, 6), dtype=np.float16)},
              str(tmp_path / "model.safetensors"))
    model = load_model(tmp_path)
    assert model.params_exact is None and model.weights_bytes_override == 12 * 4 + 6 * 2
    assert model.weight_format is None


def test_folder_without_config(tmp_path):
    save_file(_tiny_llama_tensors(), str(tmp_path / "model.safetensors"))
    with pytest.raises(ModelImportError, match="no config.json"):
        load_model(tmp_path)


def test_folder_with_config_only(tmp_path):
    _write(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    model = load_model(tmp_path)
    assert model.origin == "config" and model.weights_bytes_override is None


# --- GGUF ---------------------------------------------------------------------------------------


def _write_gguf(path, *, tied=False, arch="llama"):
    writer = GGUFWriter(str(path), arch)
    writer.add_name("Tiny Llama")
    writer.add_block_count(2)
    writer.add_embedding_length(64)
    writer.add_feed_forward_length(172)
    writer.add_head_count(4)
    writer.add_head_count_kv(2)
    writer.add_context_length(2048)
    writer.add_vocab_size(32)
    writer.add_file_type(7)  # MOSTLY_Q8_0
    writer.add_tensor("token_embd.weight", np.zeros((32, 64), dtype=np.float16))
    q8 = quantize(np.zeros((172, 64), dtype=np.float32), GGMLQuantizationType.Q8_0)
    writer.add_tensor("blk.0.ffn_gate.weight", q8, raw_dtype=GGMLQuantizationType.Q8_0)
    writer.add_tensor("blk.0.attn_norm.weight", np.zeros(64, dtype=np.float32))
    if not tied:
        writer.add_tensor("output.weight", np.zeros((32, 64), dtype=np.float16))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_gguf_metadata_and_exact_bytes(tmp_path):
    model = load_model(_write_gguf(tmp_path / "tiny.gguf"))
    assert isinstance(model, ImportedModel) and model.origin == "gguf"
    arch = model.arch
    assert (arch.n_layers, arch.hidden_size, arch.n_heads, arch.n_kv_heads, arch.ffn_size) == (2, 64, 4, 2, 172)
    assert arch.vocab_size == 32 and arch.max_context == 2048 and not arch.tied_embeddings and arch.gated_mlp
    assert model.dtypes == {"F16": 2 * 32 * 64, "Q8_0": 172 * 64, "F32": 64}
    assert model.params_exact == 2 * 32 * 64 + 172 * 64 + 64
    q8_bytes = 172 * 64 // 32 * 34  # Q8_0 blocks: 32 weights in 34 bytes (ggml-common.h)
    assert model.weights_bytes_override == 2 * 32 * 64 * 2 + q8_bytes + 64 * 4
    assert model.weight_format == "q8_0"


def test_gguf_without_output_tensor_is_tied(tmp_path):
    assert load_model(_write_gguf(tmp_path / "tied.gguf", tied=True)).arch.tied_embeddings


@pytest.mark.parametrize("content", [b"", b"GGUF", b"not a gguf file at all" * 10])
def test_corrupt_gguf(tmp_path, content):
    path = tmp_path / "bad.gguf"
    path.write_bytes(content)
    with pytest.raises(ModelImportError, match="not a readable GGUF file") as info:
        load_model(path)
    assert str(path) in str(info.value)


def test_gguf_vocab_from_tokenizer_tokens(tmp_path):
    path = tmp_path / "tok.gguf"
    writer = GGUFWriter(str(path), "llama")
    for add, value in ((writer.add_block_count, 1), (writer.add_embedding_length, 64),
                       (writer.add_feed_forward_length, 172), (writer.add_head_count, 4),
                       (writer.add_context_length, 512)):
        add(value)
    writer.add_token_list([f"t{i}" for i in range(40)])
    writer.add_tensor("token_embd.weight", np.zeros((40, 64), dtype=np.float16))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    arch = load_model(path).arch
    assert arch.vocab_size == 40 and arch.n_kv_heads == 4 and arch.tied_embeddings
