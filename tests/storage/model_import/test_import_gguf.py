"""GGUF files written by the gguf package: metadata → architecture, exact bytes from the tensor table."""

import numpy as np
import pytest
from gguf import GGUFWriter

from advisor.storage.model_import import ImportedModel, ModelImportError, load_model
from tests.storage.model_import.model_files import write_gguf


def test_gguf_metadata_and_exact_bytes(tmp_path):
    model = load_model(write_gguf(tmp_path / "tiny.gguf"))
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
    assert load_model(write_gguf(tmp_path / "tied.gguf", tied=True)).arch.tied_embeddings


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


# --- wrong metadata types and hostile files ------------------------------------------------------


@pytest.mark.parametrize(("key", "value", "message"), [
    ("llama.feed_forward_length", ["a", "b"], "array of 2 items, not per-layer numbers"),
    ("llama.expert_count", "eight", "must be a number"),
    ("llama.attention.head_count", [4.5, 2.0], "non-empty list of integers"),
    ("llama.block_count", True, "must be a number"),
])
def test_a_wrongly_typed_key_is_named(tmp_path, key, value, message):
    def extra(w):
        w.kv_data[0].pop(key, None)  # replace the writer's own value, if any
        if isinstance(value, list):
            w.add_array(key, value)
        elif isinstance(value, bool):
            w.add_bool(key, value)
        else:
            w.add_string(key, value)

    path = write_gguf(tmp_path / "w.gguf", extra=extra)
    before = path.read_bytes()
    with pytest.raises(ModelImportError, match=message) as info:
        load_model(path)
    assert key in str(info.value) and path.read_bytes() == before


def test_the_57_byte_file_declaring_2_to_the_62_elements_fails_at_once(tmp_path):
    import struct

    path = tmp_path / "b.gguf"
    key = b"tokenizer"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", len(key)) + key
                     + struct.pack("<IIQ", 9, 0, 2**62))  # an array of 2^62 uint8
    assert path.stat().st_size == 64 - 7  # 57 bytes
    with pytest.raises(ModelImportError, match="not a readable GGUF file.*declares"):
        load_model(path)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs")
def test_a_fifo_gguf_is_refused(tmp_path):
    import os

    os.mkfifo(tmp_path / "f.gguf")  # `mkfifo f.gguf; llm-advisor estimate f.gguf` hung
    with pytest.raises(ModelImportError, match="FIFO"):
        load_model(tmp_path / "f.gguf")


def test_an_empty_per_layer_array_is_named(tmp_path):
    import struct

    def key(name):
        return struct.pack("<Q", len(name)) + name.encode()

    arch = key("general.architecture") + struct.pack("<I", 8) + key("llama")  # a string value
    heads = key("llama.attention.head_count") + struct.pack("<IIQ", 9, 5, 0)  # an empty int32 array (GGUFWriter skips these)
    path = tmp_path / "e.gguf"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 2) + arch + heads)
    with pytest.raises(ModelImportError, match="llama.attention.head_count must be a number or a non-empty list"):
        load_model(path)
