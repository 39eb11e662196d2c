"""A model folder: ``config.json`` for the architecture, safetensors headers for exact sizes.

A safetensors file starts with an 8-byte little-endian header length and a JSON header of
``{name: {dtype, shape, data_offsets}}`` (huggingface/safetensors ``docs``, "Format");
sharded checkpoints list their shards in ``model.safetensors.index.json`` (``weight_map``).
Only the headers are read. Every entry is checked as the safetensors library checks it:
a shape is a list of integers ≥ 0, the offsets are two integers in order inside the file,
and for a known dtype they span exactly shape × dtype size bytes (unchecked, a shape
``"64"`` had counted as 24 parameters, a negative shape as negative ones).
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from advisor.storage.model_import.common import (
    ImportedModel,
    ModelImportError,
    read_json,
)
from advisor.storage.model_import.import_config import arch_from_hf_config
from advisor.storage.safe_read import is_regular_file, open_regular

MAX_SAFETENSORS_HEADER_BYTES = 100_000_000  # safetensors itself refuses headers over 100 MB
INDEX_NAME = "model.safetensors.index.json"
MAX_INDEX_BYTES = 50_000_000

# Bytes per element (safetensors ``Dtype``); sub-byte and unknown dtypes are not size-checked.
_DTYPE_BYTES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "I16": 2, "U16": 2,
                "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}
_ST_TO_FORMAT = {"BF16": "bf16", "F16": "fp16", "F32": "fp32", "F8_E4M3": "fp8", "F8_E5M2": "fp8"}


def load_folder(folder: Path) -> ImportedModel:
    """A Hugging Face model folder: config.json, and the safetensors files if there are any."""
    config = folder / "config.json"
    cfg = read_json(config)
    arch = arch_from_hf_config(cfg, config, model_id=folder.name)
    shards = _shard_files(folder)
    if not shards:
        return ImportedModel(arch=arch, origin="config", path=str(folder),
                             notes=("no .safetensors files: sizes are estimated from the config",))
    dtypes, elements, n_bytes = read_safetensors_headers(shards)
    quantized = cfg.get("quantization_config") is not None
    notes = [f"{len(shards)} safetensors file(s); exact tensor bytes from their headers"]
    if quantized:
        notes.append("quantized checkpoint: packed tensors do not count parameters, so the count comes from the config")
    return ImportedModel(
        arch=arch, origin="safetensors", path=str(folder), params_exact=None if quantized else elements,
        weights_bytes_override=float(n_bytes), dtypes=dtypes, weight_format=None if quantized else _st_format(dtypes),
        notes=tuple(notes),
    )


def _shard_files(folder: Path) -> list[Path]:
    index = folder / INDEX_NAME
    if not index.exists():
        return sorted(p for p in folder.glob("*.safetensors") if not p.name.startswith("."))
    weight_map = read_json(index, MAX_INDEX_BYTES).get("weight_map")
    if not isinstance(weight_map, dict) or not weight_map or not all(isinstance(v, str) for v in weight_map.values()):
        raise ModelImportError(f"{index}: no 'weight_map' of tensor → shard file")
    names = sorted(set(weight_map.values()))
    for name in names:  # a shard is a file beside the index: no folders, no '..'
        if Path(name).name != name or name in ("", ".", ".."):
            raise ModelImportError(f"{index}: shard {name!r} is not a file name in the model folder")
    shards = [folder / name for name in names]
    for shard in shards:
        if not is_regular_file(shard):
            raise ModelImportError(f"{shard}: shard listed in {INDEX_NAME} is missing")
    return shards


def _st_format(dtypes: dict[str, int]) -> str | None:
    """The dominant dtype in Job spelling (bf16, fp16, fp32, fp8) when one holds ≥ 90 %."""
    total = sum(dtypes.values())
    if not total:
        return None
    top = max(dtypes, key=dtypes.__getitem__)
    return _ST_TO_FORMAT.get(top) if dtypes[top] >= 0.9 * total else None


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _entry(file: Path, name: str, info: Any, data_bytes: int) -> tuple[str, int, int]:
    """(dtype, elements, bytes) of one header entry, checked."""
    def bad(why: str) -> ModelImportError:
        return ModelImportError(f"{file}: tensor {name[:80]!r} has a malformed header entry ({why})")

    if not isinstance(info, dict):
        raise bad("not an object")
    dtype, shape, offsets = info.get("dtype"), info.get("shape"), info.get("data_offsets")
    if not isinstance(dtype, str) or not dtype:
        raise bad("no dtype")
    if not isinstance(shape, list) or len(shape) > 8 or not all(_is_count(d) for d in shape):
        raise bad("shape must be a list of integers ≥ 0")
    if not isinstance(offsets, list) or len(offsets) != 2 or not all(_is_count(x) for x in offsets):
        raise bad("data_offsets must be two integers ≥ 0")
    start, end = offsets
    if not start <= end <= data_bytes:
        raise bad(f"data_offsets [{start}, {end}] are not in order inside the {data_bytes:,} data bytes")
    count = 1
    for dim in shape:
        count *= dim
    size = _DTYPE_BYTES.get(dtype)
    if size is not None and count * size != end - start:
        raise bad(f"shape {shape} of {dtype} needs {count * size:,} bytes; the offsets span {end - start:,}")
    return dtype, count, end - start


def read_safetensors_headers(files: list[Path]) -> tuple[dict[str, int], int, int]:
    """(elements per dtype, total elements, total tensor bytes) from the files' JSON headers only."""
    dtypes: dict[str, int] = {}
    elements = n_bytes = 0
    for file in files:
        text, data_bytes = _safetensors_header(file)
        seen: set[str] = set()
        for name, info in _header_entries(file, text):
            if name == "__metadata__":
                continue
            if name in seen:
                raise ModelImportError(f"{file}: tensor {name[:80]!r} is listed twice in the header")
            seen.add(name)
            dtype, count, size = _entry(file, name, info, data_bytes)
            dtypes[dtype] = dtypes.get(dtype, 0) + count
            elements += count
            n_bytes += size
    return dtypes, elements, n_bytes


def _safetensors_header(file: Path) -> tuple[str, int]:
    """The JSON header's text and how many data bytes follow it."""
    try:
        with open_regular(file) as (fh, size):
            raw = fh.read(8)
            if len(raw) < 8:
                raise ModelImportError(f"{file}: too short for a safetensors file")
            (length,) = struct.unpack("<Q", raw)
            if length > min(MAX_SAFETENSORS_HEADER_BYTES, size - 8):
                raise ModelImportError(f"{file}: corrupt safetensors header (length {length:,} for a {size:,}-byte file)")
            text = fh.read(length).decode("utf-8")
    except OSError as exc:
        raise ModelImportError(f"{file}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ModelImportError(f"{file}: corrupt safetensors header (not UTF-8)") from None
    return text, size - 8 - length


_SPACE = re.compile(r"[ \t\n\r]*")  # JSON whitespace (RFC 8259)
_DECODER = json.JSONDecoder()


def _header_entries(file: Path, text: str) -> Iterator[tuple[str, Any]]:
    """The header object's (name, value) pairs one at a time: only one entry's values are alive at once.

    ``json.loads`` of the whole header built every entry's dict and lists first: a 48 MB header took
    470 MB. Here the top-level object is walked by hand and each value decoded by ``json``'s own
    scanner (``raw_decode``), so what is not JSON fails as ``json.loads`` would, one entry at a time.
    """
    i = _object_start(file, text)
    if text[i:i + 1] == "}":
        i = _skip_space(text, i + 1)
    else:
        while True:
            name, value, i = _member(file, text, i)
            yield name, value
            i = _skip_space(text, i)
            if text[i:i + 1] == ",":
                i = _skip_space(text, i + 1)
                continue
            if text[i:i + 1] != "}":
                raise _corrupt(file, f"',' or '}}' was expected at character {i:,}")
            i = _skip_space(text, i + 1)
            break
    if i != len(text):
        raise _corrupt(file, f"text after the header object at character {i:,}")


def _corrupt(file: Path, why: str) -> ModelImportError:
    return ModelImportError(f"{file}: corrupt safetensors header ({why})")


def _skip_space(text: str, i: int) -> int:
    """The index of the first character at or after ``i`` that is not JSON whitespace."""
    match = _SPACE.match(text, i)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _object_start(file: Path, text: str) -> int:
    """Where the top-level object's first member (or its '}') starts; an error unless the text opens one."""
    i = _skip_space(text, 0)
    if text[i:i + 1] != "{":
        try:  # JSON of another kind, or not JSON at all (only a small header is decoded to tell)
            if len(text) > 1_000_000:
                raise ValueError
            _DECODER.raw_decode(text, i)
        except (ValueError, RecursionError):
            raise _corrupt(file, "not JSON: an object was expected") from None
        raise _corrupt(file, "not an object")
    return _skip_space(text, i + 1)


def _member(file: Path, text: str, i: int) -> tuple[str, Any, int]:
    """The member starting at ``i``: its name, its decoded value and where the value ends."""
    try:
        if text[i:i + 1] != '"':
            raise _corrupt(file, f"a tensor name was expected at character {i:,}")
        name, i = _DECODER.raw_decode(text, i)
        i = _skip_space(text, i)
        if text[i:i + 1] != ":":
            raise _corrupt(file, f"':' was expected at character {i:,}")
        value, i = _DECODER.raw_decode(text, _skip_space(text, i + 1))
    except json.JSONDecodeError as exc:
        raise _corrupt(file, f"not JSON: {exc.msg} at character {exc.pos:,}") from None
    except RecursionError:
        raise _corrupt(file, "nested too deeply") from None
    except ValueError as exc:  # a number of over 4,300 digits (Python's int-from-string limit)
        raise _corrupt(file, f"not JSON: {str(exc)[:80]}") from None
    return name, value, i
