"""Model files the import tests write: a Llama-2 config, tiny safetensors, tiny GGUF files."""

import json

import numpy as np
from gguf import GGMLQuantizationType, GGUFWriter
from gguf.quants import quantize

LLAMA2_7B_CONFIG = {  # meta-llama/Llama-2-7b-hf config.json (keys the import reads)
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
    "intermediate_size": 11008, "num_attention_heads": 32, "num_hidden_layers": 32,
    "num_key_value_heads": 32, "max_position_embeddings": 4096, "tie_word_embeddings": False,
    "vocab_size": 32000, "torch_dtype": "float16",
}


def write_json(path, data):
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def tiny_llama_tensors(dtype=np.float16):
    return {
        "model.embed_tokens.weight": np.zeros((10, 4), dtype=dtype),
        "model.layers.0.self_attn.q_proj.weight": np.zeros((4, 4), dtype=dtype),
        "model.layers.0.mlp.up_proj.weight": np.zeros((6, 4), dtype=dtype),
        "model.norm.weight": np.zeros((4,), dtype=np.float32),
        "lm_head.weight": np.zeros((10, 4), dtype=dtype),
    }


def write_gguf(path, *, tied=False, arch="llama", extra=None):
    """A tiny Llama GGUF written by the gguf package; ``extra(writer)`` adds or overrides keys."""
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
    if extra is not None:
        extra(writer)
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
