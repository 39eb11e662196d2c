"""Model folders: exact counts and bytes from safetensors headers (plain and sharded), corrupt headers."""

import struct

import numpy as np
import pytest
from safetensors.numpy import save_file

from advisor.storage.model_import import ModelImportError, load_model
from tests.storage.model_import.model_files import LLAMA2_7B_CONFIG, tiny_llama_tensors, write_json


def test_safetensors_folder_exact_counts(tmp_path):
    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    save_file(tiny_llama_tensors(), str(tmp_path / "model.safetensors"))
    model = load_model(tmp_path)
    assert model.origin == "safetensors"
    assert model.params_exact == 40 + 16 + 24 + 4 + 40
    assert model.dtypes == {"F16": 120, "F32": 4}
    assert model.weights_bytes_override == 120 * 2 + 4 * 4
    assert model.weight_format == "fp16"
    assert model.arch.n_layers == 32  # architecture from config.json
    assert load_model(tmp_path / "model.safetensors") == model  # the file itself resolves to its folder


def test_sharded_safetensors_via_index(tmp_path):
    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    tensors = tiny_llama_tensors(np.float32)
    names = sorted(tensors)
    first, second = dict((n, tensors[n]) for n in names[:2]), dict((n, tensors[n]) for n in names[2:])
    save_file(first, str(tmp_path / "model-00001-of-00002.safetensors"))
    save_file(second, str(tmp_path / "model-00002-of-00002.safetensors"))
    weight_map = {n: "model-00001-of-00002.safetensors" for n in first}
    weight_map |= {n: "model-00002-of-00002.safetensors" for n in second}
    write_json(tmp_path / "model.safetensors.index.json", {"metadata": {"total_size": 0}, "weight_map": weight_map})
    # A stray file not in the index (e.g. consolidated.safetensors) must not be counted twice.
    save_file(tensors, str(tmp_path / "consolidated.safetensors"))
    model = load_model(tmp_path)
    assert model.params_exact == 124 and model.weights_bytes_override == 124 * 4
    assert model.weight_format == "fp32"


def test_missing_shard_is_named(tmp_path):
    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    write_json(tmp_path / "model.safetensors.index.json", {"weight_map": {"a": "model-00001-of-00002.safetensors"}})
    with pytest.raises(ModelImportError, match="model-00001-of-00002.safetensors: shard listed"):
        load_model(tmp_path)


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"abc", "too short"), (struct.pack("<Q", 10**9) + b"{}", "corrupt safetensors header"),
     (struct.pack("<Q", 5) + b"nope!", "not JSON"),
     (struct.pack("<Q", 26) + b'{"t": {"dtype": "F16"}}   ', "malformed header entry")],
)
def test_corrupt_safetensors(tmp_path, content, message):
    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    (tmp_path / "model.safetensors").write_bytes(content)
    with pytest.raises(ModelImportError, match=message) as info:
        load_model(tmp_path)
    assert "model.safetensors" in str(info.value)


def test_quantized_checkpoint_keeps_bytes_but_not_count(tmp_path):
    write_json(tmp_path / "config.json", {**LLAMA2_7B_CONFIG, "quantization_config": {"quant_method": "gptq", "bits": 4}})
    save_file({"model.layers.0.mlp.up_proj.qweight": np.zeros((2, 6), dtype=np.int32),
               "model.layers.0.mlp.up_proj.scales": np.zeros((1, 6), dtype=np.float16)},
              str(tmp_path / "model.safetensors"))
    model = load_model(tmp_path)
    assert model.params_exact is None and model.weights_bytes_override == 12 * 4 + 6 * 2
    assert model.weight_format is None


def test_folder_without_config(tmp_path):
    save_file(tiny_llama_tensors(), str(tmp_path / "model.safetensors"))
    with pytest.raises(ModelImportError, match="no config.json"):
        load_model(tmp_path)


def test_folder_with_config_only(tmp_path):
    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    model = load_model(tmp_path)
    assert model.origin == "config" and model.weights_bytes_override is None


# --- hostile headers ---------------------------------------------------------------------------


def _raw_header(header_text: str, data_bytes: int = 16) -> bytes:
    body = header_text.encode()
    return struct.pack("<Q", len(body)) + body + b"\0" * data_bytes


@pytest.mark.parametrize(("entry", "message"), [
    ('{"dtype": "F16", "shape": [4], "data_offsets": [8, 0]}', "not in order"),
    ('{"dtype": "F16", "shape": [1e400], "data_offsets": [0, 8]}', "shape must be a list of integers"),
    ('{"dtype": "F16", "shape": [4], "data_offsets": [0, 1e309]}', "data_offsets must be two integers"),
    ('{"dtype": "F16", "shape": [4], "data_offsets": [0, 100000000000000000000000]}', "not in order inside"),
    ('{"dtype": "F16", "shape": "64", "data_offsets": [0, 8]}', "shape must be a list"),
    ('{"dtype": "F16", "shape": [-4, -1], "data_offsets": [0, 8]}', "integers ≥ 0"),
    ('{"dtype": "F16", "shape": [true], "data_offsets": [0, 8]}', "integers ≥ 0"),
    ('{"dtype": "F16", "shape": [1000], "data_offsets": [0, 8]}', "needs 2,000 bytes"),
    ('{"dtype": 5, "shape": [4], "data_offsets": [0, 8]}', "no dtype"),
    ('[1, 2]', "not an object"),
])
def test_a_malformed_entry_is_named(tmp_path, entry, message):
    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    shard = tmp_path / "model.safetensors"
    shard.write_bytes(_raw_header('{"w": ' + entry + "}"))
    before = shard.read_bytes()
    with pytest.raises(ModelImportError, match=message) as info:
        load_model(tmp_path)
    assert "model.safetensors" in str(info.value) and shard.read_bytes() == before


def test_a_deeply_nested_header_is_one_error(tmp_path):
    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    (tmp_path / "model.safetensors").write_bytes(_raw_header('{"a": ' + "[" * 50_000 + "]" * 50_000 + "}"))
    with pytest.raises(ModelImportError, match="nested too deeply"):
        load_model(tmp_path)


def test_an_index_cannot_name_shards_outside_the_folder(tmp_path):
    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    write_json(tmp_path / "model.safetensors.index.json", {"weight_map": {"w": "../elsewhere.safetensors"}})
    with pytest.raises(ModelImportError, match="not a file name in the model folder"):
        load_model(tmp_path)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs")
def test_a_fifo_shard_is_refused(tmp_path):
    import os

    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    os.mkfifo(tmp_path / "model.safetensors")
    with pytest.raises(ModelImportError, match="FIFO"):
        load_model(tmp_path)


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

entry_value = st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(), st.text(max_size=6),
                        st.lists(st.one_of(st.integers(-5, 10**12), st.floats(), st.text(max_size=3)), max_size=4))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=st.fixed_dictionaries({}, optional={"dtype": st.sampled_from(["F16", "BF16", "F32", "I8", "Q"]) | entry_value,
                                                 "shape": entry_value, "data_offsets": entry_value}))
def test_fuzzed_header_entries_import_or_are_one_clear_error(tmp_path, entry):
    import json

    write_json(tmp_path / "config.json", LLAMA2_7B_CONFIG)
    shard = tmp_path / "model.safetensors"
    shard.write_bytes(_raw_header(json.dumps({"w": entry}), data_bytes=64))
    try:
        model = load_model(tmp_path)
    except ModelImportError as exc:
        assert "\n" not in str(exc)
    else:
        assert model.params_exact >= 0 and model.weights_bytes_override <= 64
