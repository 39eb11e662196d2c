"""A bounded reader of the GGUF header: the key/value metadata and the tensor table.

Why not ``gguf.GGUFReader``: it loops over every element a header *declares*, so a 57-byte
file declaring an array of 2^62 elements grows without limit, and a genuine 5 MB tokenizer
array takes a minute. Here every declared count and length is checked against
the bytes left before anything is read, fixed-size arrays are skipped in one seek, only
small values are kept, and the header may not exceed ``MAX_HEADER_BYTES``. Strings are
walked a window at a time: a 262,144-token vocabulary (6.8 MB) reads in well under a second where
``GGUFReader`` takes half a minute.

Layout (ggml ``docs/gguf.md``, versions 2 and 3): ``"GGUF"``, uint32 version, uint64 tensor
count, uint64 key/value count; each key/value is a string key, a uint32 type and the value
(an array: uint32 element type, uint64 count, elements); each tensor is a string name, a
uint32 dimension count, uint64 dimensions, a uint32 ggml type and a uint64 data offset;
tensor data starts at the next multiple of ``general.alignment`` (default 32).
Strings are a uint64 byte length and UTF-8 bytes. Byte order: little-endian, or big-endian
files whose version reads byte-swapped (as ``GGUFReader`` tells them apart).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

from advisor.storage.safe_read import open_regular

MAX_HEADER_BYTES = 100_000_000
MAX_KEYS = 65_536  # real files hold ~30-60 keys
MAX_TENSORS = 100_000  # llama.cpp stores experts merged: real files hold a few thousand
MAX_WALKED_ITEMS = 2_000_000  # strings or nested arrays walked one by one (a 262k-token vocabulary: 0.3 M)
MAX_KEPT_ARRAY = 4_096  # numeric arrays up to this length are kept (per-layer values)
MAX_KEPT_STRING = 4_096  # longer strings (chat templates) are skipped
MAX_KEPT_KEY = 256  # a key longer than this names nothing the importer reads: its value is not kept
#: What all kept values together may cost in memory (bytes, counting a kept number as 36: a Python int and
#: its list slot). Real headers keep well under 100 KB; without a total, 65,536 keys of 4,096-element
#: arrays (a 99 MB file) were kept as 25 million Python ints: 826 MB.
MAX_KEPT_BYTES = 8_000_000
_KEPT_NUMBER_BYTES = 36
#: ggml refuses a tensor name of 64 bytes or more (``name.length() >= GGML_MAX_NAME``, GGML_MAX_NAME 64, in
#: ggml/src/gguf.cpp's gguf_init_from_file_impl): no file llama.cpp loads has a longer one.
MAX_TENSOR_NAME = 63
MAX_NESTING = 4
MAX_DIMS = 4  # GGML_MAX_DIMS
_WINDOW_BYTES = 4_000_000  # strings are walked in windows of this size (memory stays bounded)

# GGUFValueType → struct format of a fixed-size scalar
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9


class GgufHeaderError(ValueError):
    """The header is not a GGUF header this app can read; the message says where it breaks."""


@dataclass(frozen=True)
class GgufTensor:
    name: str
    type_name: str
    shape: tuple[int, ...]
    n_elements: int
    n_bytes: int


@dataclass
class GgufHeader:
    """What the header says: small metadata values (``<key>.count`` for every array) and the tensors."""

    version: int
    metadata: dict[str, Any] = field(default_factory=dict)
    tensors: list[GgufTensor] = field(default_factory=list)


class _Cursor:
    """Reads forward through at most ``limit`` bytes of a file, refusing to pass it."""

    def __init__(self, fh: BinaryIO, limit: int, order: str = "<") -> None:
        self.fh, self.limit, self.pos, self.order, self.walked = fh, limit, 0, order, 0
        self.kept = 0  # bytes of memory the kept values cost (MAX_KEPT_BYTES)

    def may_keep(self, cost: int) -> bool:
        """Keep a value costing ``cost`` bytes of memory, if the budget allows (then counted)."""
        if self.kept + cost > MAX_KEPT_BYTES:
            return False
        self.kept += cost
        return True

    def left(self) -> int:
        return self.limit - self.pos

    def _check(self, n: int, what: str) -> None:
        if n < 0 or n > self.left():
            raise GgufHeaderError(f"{what} needs {n:,} bytes at offset {self.pos:,}; only {self.left():,} remain")

    def take(self, n: int, what: str) -> bytes:
        self._check(n, what)
        data = self.fh.read(n)
        if len(data) != n:
            raise GgufHeaderError(f"file ends inside {what} at offset {self.pos:,}")
        self.pos += n
        return data

    def skip(self, n: int, what: str) -> None:
        self._check(n, what)
        self.fh.seek(n, 1)
        self.pos += n

    def unpack(self, fmt: str, what: str) -> Any:
        return struct.unpack(self.order + fmt, self.take(struct.calcsize(fmt), what))[0]

    def count(self, fmt: str, min_item_bytes: int, what: str, cap: int | None = None) -> int:
        """A declared count, refused when its items cannot fit in the bytes left (or exceed ``cap``)."""
        n = self.unpack(fmt, what)
        if cap is not None and n > cap:
            raise GgufHeaderError(f"{what} declares {n:,} items at offset {self.pos:,}; at most {cap:,} are allowed")
        if n * min_item_bytes > self.left():
            raise GgufHeaderError(f"{what} declares {n:,} items at offset {self.pos:,}; "
                                  f"only {self.left():,} bytes remain")
        return n

    def walk(self, what: str) -> None:
        self.walked += 1
        if self.walked > MAX_WALKED_ITEMS:
            raise GgufHeaderError(f"{what}: more than {MAX_WALKED_ITEMS:,} strings or arrays in the header")

    def skip_strings(self, n: int, what: str) -> None:
        """Walk ``n`` strings (a tokenizer's vocabulary) a window at a time: one read per window, not per string."""
        length_at = struct.Struct(self.order + "Q").unpack_from
        done = 0
        while done < n:
            window = self.fh.read(min(self.left(), _WINDOW_BYTES, max(65_536, (n - done) * 64)))
            off = walked = 0
            while done + walked < n and off + 8 <= len(window):
                (length,) = length_at(window, off)
                if off + 8 + length > len(window):
                    break
                off += 8 + length
                walked += 1
            self.fh.seek(self.pos + off)
            self.pos += off
            if walked == 0:  # a string longer than the window, or the end: read it one by one (and fail there)
                self.string(f"{what}[{done}]", keep=False)
                walked = 1
            done += walked
            self.walked += walked
            if self.walked > MAX_WALKED_ITEMS:
                raise GgufHeaderError(f"{what}: more than {MAX_WALKED_ITEMS:,} strings or arrays in the header")

    def string(self, what: str, keep: bool = True, longest: int = MAX_KEPT_STRING) -> str | None:
        n = self.unpack("Q", f"length of {what}")
        if not keep or n > longest or not self.may_keep(n + 64):
            self.skip(n, what)
            return None
        try:
            return self.take(n, what).decode("utf-8")
        except UnicodeDecodeError:
            raise GgufHeaderError(f"{what} at offset {self.pos:,} is not UTF-8") from None


def _value(cur: _Cursor, vtype: int, what: str, depth: int = 0, keep: bool = True) -> Any:
    """One value; arrays give ``(count, items or None)`` (items kept only when small and numeric)."""
    if vtype in _SCALARS:
        return cur.unpack(_SCALARS[vtype], what)
    if vtype == _STRING:
        return cur.string(what, keep=keep)
    if vtype != _ARRAY:
        raise GgufHeaderError(f"{what}: unknown value type {vtype}")
    if depth >= MAX_NESTING:
        raise GgufHeaderError(f"{what}: arrays nested more than {MAX_NESTING} deep")
    etype = cur.unpack("I", f"element type of {what}")
    if etype in _SCALARS:
        size = struct.calcsize(_SCALARS[etype])
        n = cur.count("Q", size, f"array {what}")
        if keep and n <= MAX_KEPT_ARRAY and cur.may_keep(n * _KEPT_NUMBER_BYTES):
            items = struct.unpack(f"{cur.order}{n}{_SCALARS[etype]}", cur.take(n * size, what))
            return n, list(items)
        cur.skip(n * size, what)
        return n, None
    if etype not in (_STRING, _ARRAY):
        raise GgufHeaderError(f"{what}: unknown array element type {etype}")
    n = cur.count("Q", 8 if etype == _STRING else 12, f"array {what}")
    if etype == _STRING:
        cur.skip_strings(n, what)
        return n, None
    for i in range(n):
        cur.walk(what)
        _value(cur, _ARRAY, f"{what}[{i}]", depth + 1, keep=False)  # nested arrays are walked, never kept
    return n, None


def _read_metadata(cur: _Cursor, n_keys: int) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for i in range(n_keys):
        key = cur.string(f"key {i}", longest=MAX_KEPT_KEY)
        if key is None:  # too long to be one the importer reads (or over the budget): walked, not kept
            vtype = cur.unpack("I", f"type of key {i}")
            _value(cur, vtype, f"key {i}", keep=False)
            continue
        vtype = cur.unpack("I", f"type of {key}")
        value = _value(cur, vtype, key)
        if vtype == _ARRAY:
            meta[f"{key}.count"], value = value
            if value is None:
                continue
        if value is not None:
            meta[key] = value
    return meta


def _tensor(cur: _Cursor, i: int) -> tuple[GgufTensor, int]:
    length = cur.unpack("Q", f"length of tensor {i} name")
    if length > MAX_TENSOR_NAME:
        raise GgufHeaderError(f"tensor {i}'s name is {length:,} bytes long; ggml allows at most {MAX_TENSOR_NAME}")
    try:
        name = cur.take(length, f"tensor {i} name").decode("utf-8")
    except UnicodeDecodeError:
        raise GgufHeaderError(f"tensor {i}'s name at offset {cur.pos:,} is not UTF-8") from None
    n_dims = cur.unpack("I", f"dimensions of {name}")
    if not 1 <= n_dims <= MAX_DIMS:
        raise GgufHeaderError(f"tensor {name!r} has {n_dims} dimensions (1 to {MAX_DIMS} allowed)")
    shape = struct.unpack(f"{cur.order}{n_dims}Q", cur.take(8 * n_dims, f"shape of {name}"))
    type_id = cur.unpack("I", f"type of {name}")
    offset = cur.unpack("Q", f"offset of {name}")
    try:
        qtype = GGMLQuantizationType(type_id)
        block, type_size = GGML_QUANT_SIZES[qtype]
    except (ValueError, KeyError):
        raise GgufHeaderError(f"tensor {name!r} has unknown ggml type {type_id}") from None
    n_elements = 1
    for dim in shape:
        n_elements *= dim
    if n_elements % block:
        raise GgufHeaderError(f"tensor {name!r}: {n_elements:,} elements is not a multiple of the {block}-element block")
    return GgufTensor(name, qtype.name, shape, n_elements, n_elements // block * type_size), offset


def _byte_order(raw_version: bytes) -> tuple[str, int]:
    little = struct.unpack("<I", raw_version)[0]
    if little & 0xFFFF == 0:  # a big-endian file read little-endian (GGUFReader's test)
        return ">", struct.unpack(">I", raw_version)[0]
    return "<", little


def read_gguf_header(path: Path) -> GgufHeader:
    """Parse the header of ``path``; ``GgufHeaderError`` (or ``OSError``) when it cannot be read."""
    with open_regular(path) as (fh, size):
        cur = _Cursor(fh, min(size, MAX_HEADER_BYTES))
        if cur.take(4, "magic") != b"GGUF":
            raise GgufHeaderError("does not start with 'GGUF'")
        cur.order, version = _byte_order(cur.take(4, "version"))
        if version not in (2, 3):
            raise GgufHeaderError(f"GGUF version {version} (this app reads versions 2 and 3)")
        n_tensors = cur.unpack("Q", "tensor count")
        n_keys = cur.count("Q", 13, "key/value count", MAX_KEYS)  # key length, type, 1-byte value
        if n_tensors > MAX_TENSORS:
            raise GgufHeaderError(f"declares {n_tensors:,} tensors (at most {MAX_TENSORS:,} allowed)")
        header = GgufHeader(version, _read_metadata(cur, n_keys))
        if n_tensors * 24 > cur.left():  # name length, 1 dimension, type, offset
            raise GgufHeaderError(f"declares {n_tensors:,} tensors; only {cur.left():,} header bytes remain")
        placed = [_tensor(cur, i) for i in range(n_tensors)]
    alignment = header.metadata.get("general.alignment", 32)
    if not isinstance(alignment, int) or alignment <= 0 or alignment & (alignment - 1):
        raise GgufHeaderError(f"general.alignment {alignment!r} is not a power of two")
    data_start = -(-cur.pos // alignment) * alignment
    for tensor, offset in placed:
        if data_start + offset + tensor.n_bytes > size:
            raise GgufHeaderError(f"tensor {tensor.name!r} ({tensor.n_bytes:,} bytes at offset {offset:,}) "
                                  f"lies beyond the end of the {size:,}-byte file")
        header.tensors.append(tensor)
    return header
