"""The bounded GGUF header reader: what GGUFWriter writes reads back; what a header merely declares is never trusted.

gguf.GGUFReader loops over every declared element: a 57-byte file declaring 2^62 array
elements grew without limit. Here each count is checked against the bytes left
before anything is read, so such headers fail at once by construction (no timing asserted).
"""

from __future__ import annotations

import struct

import numpy as np
import pytest
from gguf import GGUFReader, GGUFValueType, GGUFWriter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.storage.model_import.gguf_header import (
    MAX_KEPT_ARRAY,
    MAX_TENSORS,
    GgufHeaderError,
    read_gguf_header,
)
from tests.storage.model_import.model_files import write_gguf


def _gguf_bytes(tensor_count: int, kvs: list[bytes], tail: bytes = b"") -> bytes:
    return b"GGUF" + struct.pack("<IQQ", 3, tensor_count, len(kvs)) + b"".join(kvs) + tail


def _key(name: str) -> bytes:
    raw = name.encode()
    return struct.pack("<Q", len(raw)) + raw


def _array_kv(name: str, etype: int, count: int, body: bytes = b"") -> bytes:
    return _key(name) + struct.pack("<IIQ", GGUFValueType.ARRAY, etype, count) + body


# --- agreement with the gguf package -------------------------------------------------------


def test_reads_what_gguf_writer_wrote_as_gguf_reader_does(tmp_path):
    path = write_gguf(tmp_path / "tiny.gguf", extra=lambda w: w.add_token_list([f"t{i}" for i in range(300)]))
    header = read_gguf_header(path)
    reader = GGUFReader(path)
    assert [(t.name, t.type_name, t.n_elements, t.n_bytes) for t in header.tensors] == [
        (t.name, t.tensor_type.name, int(t.n_elements), int(t.n_bytes)) for t in reader.tensors]
    meta = header.metadata
    assert meta["general.architecture"] == "llama" and meta["general.name"] == "Tiny Llama"
    assert meta["llama.block_count"] == reader.fields["llama.block_count"].contents() == 2
    assert meta["tokenizer.ggml.tokens.count"] == 300 and "tokenizer.ggml.tokens" not in meta


def test_small_numeric_arrays_are_kept_large_ones_only_counted(tmp_path):
    def extra(w: GGUFWriter) -> None:
        w.add_array("llama.attention.head_count_per_layer", [4, 8])
        w.add_array("big.scores", [0.5] * (MAX_KEPT_ARRAY + 1))
        w.add_string("tokenizer.chat_template", "x" * 10_000)

    meta = read_gguf_header(write_gguf(tmp_path / "a.gguf", extra=extra)).metadata
    assert meta["llama.attention.head_count_per_layer"] == [4, 8]
    assert meta["big.scores.count"] == MAX_KEPT_ARRAY + 1 and "big.scores" not in meta
    assert "tokenizer.chat_template" not in meta  # long strings are skipped, not kept


# --- declared sizes are checked before reading -----------------------------------------------


@pytest.mark.parametrize("etype", [GGUFValueType.UINT8, GGUFValueType.STRING, GGUFValueType.ARRAY])
def test_an_array_of_2_to_the_62_elements_fails_at_once(tmp_path, etype):
    path = tmp_path / "b.gguf"
    path.write_bytes(_gguf_bytes(0, [_array_kv("a", etype, 2**62)]))
    assert path.stat().st_size < 60  # the 57-byte file
    with pytest.raises(GgufHeaderError, match="declares 4,611,686,018,427,387,904 items"):
        read_gguf_header(path)


def test_a_string_longer_than_the_file_fails(tmp_path):
    path = tmp_path / "s.gguf"
    path.write_bytes(_gguf_bytes(0, [struct.pack("<Q", 2**60) + b"k" * 16]))
    with pytest.raises(GgufHeaderError, match="needs 1,152,921,504,606,846,976 bytes"):
        read_gguf_header(path)


@pytest.mark.parametrize(("tensors", "kvs", "message"), [
    (2**63, 0, "tensors"), (MAX_TENSORS + 1, 0, "tensors"), (0, 2**40, "key/value count"),
])
def test_huge_declared_counts_fail_at_once(tmp_path, tensors, kvs, message):
    path = tmp_path / "c.gguf"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, tensors, kvs) + b"\0" * 64)
    with pytest.raises(GgufHeaderError, match=message):
        read_gguf_header(path)


def test_arrays_nested_too_deeply_fail(tmp_path):
    nested = struct.pack("<IQ", GGUFValueType.ARRAY, 1) * 10
    path = tmp_path / "n.gguf"
    path.write_bytes(_gguf_bytes(0, [_key("deep") + struct.pack("<I", GGUFValueType.ARRAY) + nested + b"\0" * 64]))
    with pytest.raises(GgufHeaderError, match="nested more than"):
        read_gguf_header(path)


def test_a_tensor_beyond_the_end_of_the_file_fails(tmp_path):
    path = write_gguf(tmp_path / "t.gguf")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 100])  # the last tensor's bytes are cut off
    with pytest.raises(GgufHeaderError, match="beyond the end"):
        read_gguf_header(path)


def test_big_endian_files_are_read(tmp_path):
    path = tmp_path / "be.gguf"
    writer = GGUFWriter(str(path), "llama", endianess=__import__("gguf").GGUFEndian.BIG)
    writer.add_block_count(3)
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32).byteswap())
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    header = read_gguf_header(path)
    assert header.metadata["llama.block_count"] == 3 and header.tensors[0].n_elements == 32


# --- fuzz: any bytes, any mutation of a real header --------------------------------------------

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(raw=st.binary(max_size=200))
def test_arbitrary_bytes_after_the_magic(tmp_path, raw):
    path = tmp_path / "f.gguf"
    path.write_bytes(b"GGUF" + raw)
    try:
        read_gguf_header(path)
    except GgufHeaderError as exc:
        assert "\n" not in str(exc)
    assert path.read_bytes() == b"GGUF" + raw  # untouched


@pytest.fixture(scope="module")
def real_header(tmp_path_factory) -> bytes:
    path = write_gguf(tmp_path_factory.mktemp("g") / "r.gguf", extra=lambda w: w.add_token_list(["a", "b", "c"]))
    return path.read_bytes()


@FUZZ
@given(data=st.data())
def test_mutated_real_header(tmp_path, real_header, data):
    raw = bytearray(real_header)
    header_end = min(len(raw), 600)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, header_end - 8))
        raw[at:at + 8] = data.draw(st.binary(min_size=8, max_size=8))
    path = tmp_path / "m.gguf"
    path.write_bytes(bytes(raw))
    try:
        read_gguf_header(path)
    except GgufHeaderError:
        pass


@pytest.mark.parametrize("n", [1, 7, 5_000])
def test_string_arrays_of_any_length_are_walked_exactly(tmp_path, n):
    path = write_gguf(tmp_path / "v.gguf", extra=lambda w: (w.add_token_list([f"t{i}" * (i % 5) for i in range(n)]),
                                                             w.add_string("after.the.vocab", "still read")))
    meta = read_gguf_header(path).metadata
    assert meta["tokenizer.ggml.tokens.count"] == n and meta["after.the.vocab"] == "still read"


def test_a_string_array_cut_short_fails(tmp_path):
    path = tmp_path / "cut.gguf"
    path.write_bytes(_gguf_bytes(0, [_array_kv("tokens", GGUFValueType.STRING, 3, struct.pack("<Q", 1) + b"a"
                                               + struct.pack("<Q", 500) + b"b" * 10)]))
    with pytest.raises(GgufHeaderError):
        read_gguf_header(path)
