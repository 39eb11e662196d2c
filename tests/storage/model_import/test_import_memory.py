"""Memory a model file can make the reader take: what the estimate needs, not what the file declares.

A 99 MB GGUF of small arrays took 826 MB (every array kept as Python ints), a 48 MB safetensors
header 470 MB (every entry decoded at once), 20,000 user records 440 MB to find one model preset.
Each family is generated and read through ``llm-advisor estimate``; the peak memory growth of the
process is measured (``tests/hostile.py``).
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.storage.model_import.gguf_header import MAX_TENSOR_NAME
from tests.hostile import assert_clean, assert_one_line, fresh_home, run

HYP = settings(max_examples=6, deadline=None, report_multiple_bugs=False, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                      HealthCheck.too_slow])
LLAMA_KEYS = {"llama.block_count": 2, "llama.embedding_length": 64, "llama.attention.head_count": 4,
              "llama.attention.head_count_kv": 2, "llama.feed_forward_length": 128, "llama.vocab_size": 1000,
              "llama.context_length": 4096}


def _s(b: bytes) -> bytes:
    return struct.pack("<Q", len(b)) + b


def _kv_u32(key: str, value: int) -> bytes:
    return _s(key.encode()) + struct.pack("<II", 4, value)


_ELEMENT = {"u8": (0, "B", 1), "u32": (4, "I", 4), "f32": (6, "f", 4)}


def _junk(kind: str, i: int, length: int) -> bytes:
    if kind in _ELEMENT:
        etype, fmt, size = _ELEMENT[kind]
        return _s(f"junk.{i}".encode()) + struct.pack("<IIQ", 9, etype, length) + b"\x01" * (size * length)
    if kind == "string":
        return _s(f"junk.{i}".encode()) + struct.pack("<I", 8) + _s(b"s" * length)
    return _s(b"k" * length + str(i).encode()) + struct.pack("<II", 4, 1)  # a long key


def _gguf(path: Path, kind: str, length: int, total_bytes: int) -> Path:
    kvs = [_s(b"general.architecture") + struct.pack("<I", 8) + _s(b"llama")]
    kvs += [_kv_u32(k, v) for k, v in LLAMA_KEYS.items()]
    size, i = 0, 0
    while size < total_bytes and len(kvs) < 65_000:
        item = _junk(kind, i, length)
        kvs.append(item)
        size, i = size + len(item), i + 1
    tensor = _s(b"token_embd.weight") + struct.pack("<IQQIQ", 2, 64, 1000, 0, 0)  # f32, 256,000 bytes
    header = b"GGUF" + struct.pack("<IQQ", 3, 1, len(kvs)) + b"".join(kvs) + tensor
    header += b"\0" * (-len(header) % 32)
    path.write_bytes(header + b"\0" * (64 * 1000 * 4))
    return path


@HYP
@given(kind=st.sampled_from(["u8", "u32", "f32", "string", "long key"]), length=st.integers(1, 4096))
def test_a_gguf_full_of_small_values_keeps_only_a_bounded_few(tmp_path, kind, length):
    path = _gguf(tmp_path / "m.gguf", kind, length, 30_000_000)
    with fresh_home():
        o = run("estimate", str(path), "--json")
    assert_clean(o, (0, 2), max_growth_mb=60)  # 30 MB of values: at most 8 MB kept, plus the estimate


def test_a_tensor_name_ggml_would_refuse_is_one_line(tmp_path):
    path = tmp_path / "m.gguf"
    name = b"t" * (MAX_TENSOR_NAME + 1)
    kvs = [_s(b"general.architecture") + struct.pack("<I", 8) + _s(b"llama")]
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 1, 1) + kvs[0] + _s(name) + struct.pack("<IQIQ", 1, 32, 0, 0))
    line = assert_one_line(run("estimate", str(path)), 2)
    assert f"at most {MAX_TENSOR_NAME}" in line


LLAMA_CONFIG = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4,
                "num_hidden_layers": 2, "num_key_value_heads": 2, "vocab_size": 1000}


def _safetensors(folder: Path, entries: int, dims: int, metadata: int) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(LLAMA_CONFIG))
    parts = [f'"__metadata__":{{{",".join(f"{chr(34)}m{i}{chr(34)}:{chr(34)}v{chr(34)}" for i in range(metadata))}}}']
    for i in range(entries):
        parts.append(f'"t{i}":{{"dtype":"F16","shape":[{",".join(["1"] * dims)}],"data_offsets":[{2 * i},{2 * i + 2}]}}')
    header = ("{" + ",".join(parts) + "}").encode()
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", len(header)) + header + b"\0" * (2 * entries))
    return len(header)


@HYP
@given(entries=st.integers(20_000, 120_000), dims=st.integers(1, 8), metadata=st.integers(0, 1000))
def test_a_large_safetensors_header_is_walked_not_held(tmp_path, entries, dims, metadata):
    size = _safetensors(tmp_path / "m", entries, dims, metadata)
    with fresh_home():
        o = run("estimate", str(tmp_path / "m"), "--json")
    assert_clean(o, 0, max_growth_mb=3 * size / 1e6 + 40)  # the text and a name per tensor; json.loads took ~10x
    assert json.loads(o.out)["model"]["params_exact"] == entries


@pytest.mark.parametrize("bad", [b'{"a":{"dtype":"F16","shape":[1],"data_offsets":[0,2]},"a":{}}', b"[1, 2]",
                                 b'{"a": 1' + b"9" * 5000 + b"}", b"{" + b'"x":{' * 300 + b"}" * 301])
def test_a_bad_safetensors_header_is_one_line(tmp_path, bad):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(LLAMA_CONFIG))
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", len(bad)) + bad + b"\0\0")
    line = assert_one_line(run("estimate", str(folder)), 2)
    assert "model.safetensors" in line


@settings(max_examples=2, deadline=None)
@given(n=st.integers(2_000, 4_000), argv=st.sampled_from([("estimate", "llama-3.1-8b", "--json"),
                                                          ("estimate", "--params", "8b", "--gpu", "u7", "--json")]))
def test_an_estimate_reads_only_the_user_records_it_needs(n, argv):
    record = json.loads((Path(__file__).resolve().parents[3] / "catalog" / "gpus" / "rtx-3090.json").read_text())
    with fresh_home() as home:
        folder = home / "data" / "catalog" / "gpus"
        folder.mkdir(parents=True)
        for i in range(n):
            (folder / f"u{i}.json").write_text(json.dumps({**record, "id": f"u{i}"}))
        o = run(*argv)
    assert_clean(o, 0, max_growth_mb=40)  # 6,000 such records take ~130 MB when read
