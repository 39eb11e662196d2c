"""Generated hostile inputs through every reader: tracebacks, hangs, peak memory and user files a failed command changed.

Every case is made from (family, seed) alone, written where the command reads it (a user record,
hidden.json, settings.json, a comparison, a bundle, a price CSV, a config.json, a GGUF or safetensors
file, a detection tool's output) or passed as a flag value, and ``llm-advisor`` runs on it in a worker
process (in-process ``main``, a fresh user folder per case). Per case the worker records the exit
code, whether a traceback escaped (an exception out of ``main`` or "Traceback" in its output), the
error lines on stderr, the time, the process's peak resident memory (Linux: reset through
``/proc/self/clear_refs`` before each case, read from ``VmHWM`` after; absolute, imports included)
and, for a command that failed, whether any user file changed (the locks' own files aside). The parent
gives each case a time limit; a worker past it is killed, the case counted as a hang, and a new worker
goes on. A worker is replaced every ``RECYCLE_AFTER`` cases, so a case's peak includes at most what the
99 before it left in the process (a CLI command is a process of its own). The window family starts
the real main window (offscreen, a process per start) with a hostile last comparison or user record:
it must start, and name the file when the file is bad.

    .venv/bin/python benchmarks/hostile_inputs.py [--cases 10500] [--workers 2] [--seed 44] [--json out.json] [--no-scale]

The issue's large inputs come first, each alone in a fresh worker (``SCALE``): a 99 MB GGUF, a 48 MB
safetensors header, 20,000 user records, price imports of 1,000 and 10,000 rows.

A single case, to look at it: ``--show FAMILY SEED``.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import errno
import hashlib
import io
import json
import os
import random
import select
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "catalog"
CASE_LIMIT_S = 90.0
#: A worker is replaced after this many cases (a window after each: one start per process, as a user's), so
#: what one case leaves in the process (caches, a closed window) is not counted against the next.
RECYCLE_AFTER = 100
#: The share of the cases each family gets (the window's starts are slow: a few hundred of them).
FAMILIES = {
    "record": 26, "hidden": 4, "settings": 7, "comparison": 9, "bundle": 5, "prices": 7, "config": 7,
    "gguf": 5, "safetensors": 4, "flag": 17, "detect": 5, "stdout": 2, "window": 2,
}
BIG_INTS = ["9" * 4301, "-" + "7" * 5000, "1" + "0" * 400, "1" + "0" * 30]
HOSTILE_NUMBERS = [*BIG_INTS, "1e308", "-1e308", "1e400", "4.9e-324", "1e-320", "-1", "0", "-0", "73", "65537",
                   "100001", "2147483648", "18446744073709551616", "0.5", "1e-6"]
HOSTILE_VALUES = [*HOSTILE_NUMBERS, '""', '"x"', "null", "true", "[]", "{}", '"٣"', '"\\ud800"', '"' + "x" * 5000 + '"',
                  "[" * 300 + "]" * 300]


# --- building blocks ---------------------------------------------------------------------------------

def _shipped(kind_folder: str) -> list[Path]:
    return sorted((CATALOG / kind_folder).glob("*.json"))


def _leaves(doc: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(doc, dict):
        return [p for k, v in doc.items() for p in _leaves(v, (*path, k))] + ([path] if path else [])
    if isinstance(doc, list):
        return [p for i, v in enumerate(doc) for p in _leaves(v, (*path, i))] + ([path] if path else [])
    return [path]


def _numeric_leaves(doc: Any) -> list[tuple]:
    out = []

    def walk(d, path):
        if isinstance(d, dict):
            for k, v in d.items():
                walk(v, (*path, k))
        elif isinstance(d, list):
            for i, v in enumerate(d):
                walk(v, (*path, i))
        elif isinstance(d, int | float) and not isinstance(d, bool):
            out.append(path)

    walk(doc, ())
    return out


def _set(doc: Any, path: tuple, value: Any) -> None:
    for p in path[:-1]:
        doc = doc[p]
    doc[path[-1]] = value


def mutate_json(rng: random.Random, doc: Any) -> bytes:
    """One hostile change of a JSON document, as the bytes a file would hold."""
    doc = copy.deepcopy(doc)
    how = rng.choice(["number", "number", "number", "value", "drop", "extra", "truncate", "nest", "bytes", "dup"])
    numeric = _numeric_leaves(doc)
    if how == "number" and numeric:
        _set(doc, rng.choice(numeric), "@@")
        return json.dumps(doc).replace('"@@"', rng.choice(HOSTILE_NUMBERS)).encode()
    if how in ("value", "number") and _leaves(doc):
        _set(doc, rng.choice(_leaves(doc)), "@@")
        return json.dumps(doc).replace('"@@"', rng.choice(HOSTILE_VALUES)).encode()
    if how == "drop" and isinstance(doc, dict) and doc:
        doc.pop(rng.choice(sorted(doc)))
        return json.dumps(doc).encode()
    if how == "extra" and isinstance(doc, dict):
        doc[rng.choice(["x", "schema_version", "id", "__metadata__"])] = "@@"
        return json.dumps(doc).replace('"@@"', rng.choice(HOSTILE_VALUES)).encode()
    text = json.dumps(doc).encode()
    if how == "truncate":
        return text[: rng.randrange(max(1, len(text)))]
    if how == "nest":
        depth = rng.choice([50, 199, 201, 1000, 100_000])
        return b'{"notes": ' + b"[" * depth + b"]" * depth + b"}"
    if how == "dup" and text.startswith(b"{") and len(text) > 2:
        return text[:-1] + b"," + text[1:]  # every key twice
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice([b"\xff", b"\x00", b"\xed\xa0\x80", b"\xef\xbb\xbf"]) + text[at:]


def _csv_cell(rng: random.Random) -> str:
    return rng.choice(["", " ", "-5", "0", "1e400", "inf", "nan", "1_000", "0x10", "$1,5,00", "2999-01-01", "0001-01-01",
                       "2026-13-40", "2026-W01-1", "gpu:", "cloud:rtx-3090", "hourly", "new", "used", "rtx-3090",
                       "https://", "notaurl", '"', "a\nb", "\x00", "٣", "9" * 5000, "x" * 300])


def _gguf_bytes(rng: random.Random) -> bytes:
    def s(b: bytes) -> bytes:
        return struct.pack("<Q", len(b)) + b

    keys = [s(b"general.architecture") + struct.pack("<I", 8) + s(b"llama")]
    for k, v in (("llama.block_count", 2), ("llama.embedding_length", 64), ("llama.attention.head_count", 4),
                 ("llama.feed_forward_length", 128), ("llama.context_length", 4096)):
        keys.append(s(k.encode()) + struct.pack("<II", 4, v))
    for i in range(rng.randrange(0, 6)):
        etype = rng.choice([0, 4, 6, 8, 9, 13, 99])
        count = rng.choice([0, 1, 4096, 4097, 2**31, 2**62, 2**64 - 1])
        keys.append(s(f"junk.{i}".encode()) + struct.pack("<IIQ", 9, etype, count) + b"\x01" * rng.choice([0, 8, 4096]))
    n_tensors = rng.choice([0, 1, 2, 100_001, 2**63])
    tensor = s(rng.choice([b"token_embd.weight", b"t" * 64, b"\xff\xfe", b""])) + struct.pack(
        "<I", rng.choice([0, 1, 2, 5])) + struct.pack("<QQ", rng.choice([64, 0, 2**40]), 1000) + struct.pack(
        "<IQ", rng.choice([0, 1, 2, 12, 255]), rng.choice([0, 2**60]))
    head = b"GGUF" + struct.pack("<IQQ", rng.choice([3, 3, 3, 2, 1, 4, 2**31]), n_tensors,
                                 rng.choice([len(keys), len(keys), 2**40, 0]))
    body = head + b"".join(keys) + tensor
    body += b"\0" * (-len(body) % 32) + b"\0" * rng.choice([0, 256_000, 1000])
    if rng.random() < 0.3:
        body = body[: rng.randrange(len(body))]
    return body


def _safetensors_bytes(rng: random.Random) -> bytes:
    entries = {f"t{i}": {"dtype": rng.choice(["F16", "BF16", "F32", "I4", "X"]),
                         "shape": [rng.choice([1, 64, 0]) for _ in range(rng.randrange(0, 4))],
                         "data_offsets": [2 * i, 2 * i + 2]} for i in range(rng.randrange(1, 20))}
    header = mutate_json(rng, entries) if rng.random() < 0.8 else json.dumps(entries).encode()
    length = rng.choice([len(header), len(header), 0, 7, 2**63, len(header) + 10])
    return struct.pack("<Q", length) + header + b"\0" * 64


LLAMA_CONFIG = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32,
                "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000,
                "max_position_embeddings": 8192, "rope_theta": 500000.0, "rms_norm_eps": 1e-5,
                "torch_dtype": "bfloat16", "tie_word_embeddings": False}
MIXTRAL_CONFIG = {**LLAMA_CONFIG, "model_type": "mixtral", "num_local_experts": 8, "num_experts_per_tok": 2}


# --- the cases: (files to write, argv, what the case reads) ----------------------------------------------------

def make_case(family: str, seed: int, home: Path, work: Path) -> tuple[list[str], dict[str, Any]]:
    """Write the case's inputs under ``home`` (the user folder) and ``work``; return the argv and notes."""
    if family not in _CASES:
        raise ValueError(family)
    rng = random.Random(f"{family}:{seed}")
    note: dict[str, Any] = {}
    return _CASES[family](_Case(rng, seed, home, work, home / "data" / "catalog", note)), note


@dataclass(frozen=True)
class _Case:
    """What a family's writer gets: the case's random numbers, the folders, and the notes it fills in."""

    rng: random.Random
    seed: int
    home: Path
    work: Path
    user: Path  # the user's catalog folder
    note: dict[str, Any]


def _case_record(case: _Case) -> list[str]:
    rng, user = case.rng, case.user
    folder = rng.choice(["gpus", "builds", "systems", "cloud", "models", "parts"])
    source = rng.choice(_shipped(folder))
    doc = json.loads(source.read_text())
    if folder == "cloud" and rng.random() < 0.2:  # an NVLink pair past the instance's GPUs
        doc["topology"] = {**doc.get("topology", {}), "nvlink_pairs": [[0, doc["gpu_count"] + rng.randrange(0, 500)]]}
        data = json.dumps(doc).encode()
    else:
        data = mutate_json(rng, doc)
    (user / folder).mkdir(parents=True)
    (user / folder / source.name).write_bytes(data)
    rid = source.stem
    argv = rng.choice([["catalog", "validate"], ["catalog", "list", "--json"], ["catalog", "show", rid],
                       ["estimate", "--params", "8b", *(["--gpu", rid] if folder == "gpus" else
                                                        ["--build", rid] if folder in ("builds", "systems", "cloud")
                                                        else [])],
                       ["estimate", rid] if folder == "models" else ["estimate", "--params", "1b"]])
    return argv


def _case_hidden(case: _Case) -> list[str]:
    rng, user = case.rng, case.user
    user.mkdir(parents=True)
    (user / "hidden.json").write_bytes(mutate_json(rng, {"schema_version": 1, "hidden": {"gpu": ["rtx-4090"]}}))
    return rng.choice([["catalog", "list"], ["catalog", "validate"], ["catalog", "remove", "rtx-3090"],
                       ["estimate", "--params", "8b", "--gpu", "rtx-4090"]])


def _case_settings(case: _Case) -> list[str]:
    rng, home = case.rng, case.home
    f = home / "config" / "settings.json"
    f.parent.mkdir(parents=True)
    f.write_bytes(mutate_json(rng, {"schema_version": 1, "memory_unit": "GiB", "hours_per_day": 8, "years": 3,
                                    "electricity_usd_per_kwh": 0.15, "recent_comparisons": ["/x.json"]}))
    return ["estimate", "--params", "8b", "--gpu", "rtx-3090"]


def _case_comparison(case: _Case) -> list[str]:
    from advisor.core.advice.comparison import canonical_comparison
    from advisor.storage.comparison_file import to_json

    rng, work = case.rng, case.work
    doc = json.loads(to_json(canonical_comparison()))
    if rng.random() < 0.4:
        doc["workload"] = {**doc["workload"], "mode": "train", "grad_accum_steps": 8, "epochs": 1.0,
                           "dataset_tokens": 10**9}
    if rng.random() < 0.3:
        doc["builds"][0] = {"name": "g", "gpu_id": "rtx-3090", "gpu_count": 2,
                            "topology": {"nvlink_pairs": [[0, 1]], "pcie_gen": 4}}
    path = work / "c.json"
    path.write_bytes(mutate_json(rng, doc))
    return ["report", str(path), "--out", str(work / "c.pdf")]


def _case_bundle(case: _Case) -> list[str]:
    rng, seed, work, user = case.rng, case.seed, case.work, case.user
    records = {}
    for folder, kind in (("gpus", "gpu"), ("models", "model")):
        doc = json.loads(rng.choice(_shipped(folder)).read_text())
        records[kind] = [{**doc, "id": f"b-{kind}-{seed}"}]
    path = work / "b.json"
    path.write_bytes(mutate_json(rng, {"format": "llm-advisor-catalog-bundle", "schema_version": 1,
                                       "records": records, "hidden": {"gpu": ["rtx-4090"]}}))
    if rng.random() < 0.3:  # a user record it conflicts with
        (user / "gpus").mkdir(parents=True)
        (user / "gpus" / f"b-gpu-{seed}.json").write_text(json.dumps({**records["gpu"][0], "name": "mine"}))
    return ["catalog", "import", str(path)]


def _case_prices(case: _Case) -> list[str]:
    rng, work = case.rng, case.work
    gpus = [p.stem for p in _shipped("gpus")][:40]
    rows = [[rng.choice(gpus), rng.choice(["new", "used"]), str(rng.randrange(100, 5000)),
             f"2025-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}", f"https://example.org/{i}"]
            for i in range(rng.choice([1, 5, 50, 500, 3000]))]
    for _ in range(rng.choice([0, 1, 1, 2, 5])):
        row = rng.choice(rows)
        row[rng.randrange(5)] = _csv_cell(rng)
    lines = ["id,kind,usd,date,source_url"] + [",".join(r) for r in rows]
    if rng.random() < 0.1:
        lines[0] = rng.choice(["", "id,kind", "id,kind,usd,date,source_url,x", "\ufeffid,kind,usd,date,source_url"])
    path = work / "p.csv"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass"))
    return ["catalog", "prices", "import", str(path)] + (["--dry-run"] if rng.random() < 0.2 else [])


def _case_config(case: _Case) -> list[str]:
    rng, work = case.rng, case.work
    path = work / "config.json"
    path.write_bytes(mutate_json(rng, rng.choice([LLAMA_CONFIG, MIXTRAL_CONFIG])))
    return ["estimate", str(path)] + rng.choice([[], ["--gpu", "rtx-4090"], ["--mode", "train", "--method", "lora"]])


def _case_gguf(case: _Case) -> list[str]:
    rng, work = case.rng, case.work
    path = work / "m.gguf"
    path.write_bytes(_gguf_bytes(rng))
    return ["estimate", str(path)]


def _case_safetensors(case: _Case) -> list[str]:
    rng, work = case.rng, case.work
    folder = work / "model"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(LLAMA_CONFIG))
    (folder / "model.safetensors").write_bytes(_safetensors_bytes(rng))
    return ["estimate", str(folder)]


def _case_flag(case: _Case) -> list[str]:
    rng, work = case.rng, case.work
    value = rng.choice([*HOSTILE_NUMBERS, "", " ", "٣", "\udcff", "-", "--", "x" * 5000, "a,b", "nvlink"])
    command = rng.choice(["estimate", "estimate", "advise", "report", "detect"])
    if command == "detect":
        return ["detect", "--timeout", value]
    flag = rng.choice(["--layers", "--hidden", "--heads", "--kv-heads", "--head-dim", "--ffn", "--vocab",
                       "--lora-rank", "--seq-len", "--context", "--batch", "--grad-accum", "--prompt-tokens",
                       "--dataset-tokens", "--epochs", "--loss-chunks", "--checkpoint-every", "--tp", "--cp",
                       "--gpus", "--moe-offload-layers", "--electricity-usd-per-kwh", "--hours-per-day",
                       "--years", "--params", "--weights", "--kv-dtype", "--lora-targets", "--engine-version"]
                      + (["--nodes", "--nics", "--nic", "--gpu", "--build"] if command == "estimate" else [])
                      + (["--budget", "--max-gpus", "--max-nodes", "--max-power", "--top"] if command == "advise"
                         else [])
                      + (["--title", "--build", "--unit"] if command == "report" else []))
    argv = [command, f"{flag}={value}"]
    if flag != "--params":
        argv += ["--params", rng.choice(["8b", "70b"])]
    if command == "estimate" and flag not in ("--gpu", "--build"):
        argv += rng.choice([[], ["--gpu", "rtx-3090"], ["--build", "8x-h100-sxm"]])
    if command == "report":
        argv += ["--out", str(work / "r.pdf")] + ([] if flag == "--build" else
                                                 ["--build", "2x-rtx-3090-nvlink", "--build", "2x-rtx-4090-pcie-x16"])
    if command == "advise":
        argv += ["--top", "1"] if flag != "--top" else []
    if rng.random() < 0.4:
        argv += ["--mode", "train", "--method", rng.choice(["lora", "qlora", "full"])]
    return argv


def _case_detect(case: _Case) -> list[str]:
    rng, work, note = case.rng, case.work, case.note
    tools = work / "bin"
    tools.mkdir()
    kind = rng.choice(["csv", "csv", "csv", "stream", "amd"])
    if kind == "stream":
        script = "while :; do echo '0, RTX, GPU-x, 0:1:0.0, 0x2204, 24576, 1, 1, 5, 8.6, 4, 4, 16, 16, 350, 350, 400, Disabled, Disabled, [N/A]'; done"
    elif kind == "amd":
        item = {"gpu": 0, "asic": {"market_name": "MI210", "device_id": "0x740f", "vendor_id": "0x1002"},
                "bus": {"bdf": "0000:03:00.0", "max_pcie_width": 16}, "vram": {"size": {"value": 65520, "unit": "MB"}}}
        (work / "out.txt").write_bytes(mutate_json(rng, [item]))
        script = f"cat {work / 'out.txt'}"
    else:
        cells = ["0", "NVIDIA GeForce RTX 3090", "GPU-1", "00000000:01:00.0", "0x220410DE", "24576", "100",
                 "24000", "550.1", "8.6", "4", "4", "16", "16", "350", "350", "400", "Disabled", "Disabled", "[N/A]"]
        rows = []
        for i in range(rng.choice([1, 2, 8, 72, 73, 100, 500])):
            row = list(cells)
            row[0] = str(i)
            for _ in range(rng.randrange(0, 4)):
                row[rng.randrange(len(row))] = rng.choice([*HOSTILE_NUMBERS, "[N/A]", "", "a,b"])
            rows.append(", ".join(row))
        (work / "out.txt").write_text("\n".join(rows) + "\n")
        script = f"cat {work / 'out.txt'}"
    name = "amd-smi" if kind == "amd" else "nvidia-smi"
    (tools / name).write_text("#!/bin/sh\n" + script + "\n")
    (tools / name).chmod(0o755)
    note["path"] = str(tools)
    return ["detect", "--timeout", "3"] + (["--json"] if rng.random() < 0.5 else [])


def _case_scale(case: _Case) -> list[str]:
    seed, home, work = case.seed, case.home, case.work
    return _scale_case(seed % len(SCALE), home, work)


def _case_stdout(case: _Case) -> list[str]:
    rng, note = case.rng, case.note
    note["stdout"] = rng.choice(["ENOSPC", "EIO", "ascii", "EPIPE"])
    return rng.choice([["estimate", "--params", "8b"], ["estimate", "--params", "8b", "--build", "2x-rtx-3090-nvlink"],
                       ["estimate", "--params", "8b", "--json"], ["advise", "--params", "8b", "--top", "2"],
                       ["catalog", "list"], ["catalog", "show", "2x-rtx-3090-nvlink"], ["detect", "--timeout", "1"]])


_CASES = {"record": _case_record, "hidden": _case_hidden, "settings": _case_settings, "comparison": _case_comparison, "bundle": _case_bundle, "prices": _case_prices, "config": _case_config, "gguf": _case_gguf, "safetensors": _case_safetensors, "flag": _case_flag, "detect": _case_detect, "scale": _case_scale, "stdout": _case_stdout}


#: The issue's large inputs, one case each (each in a process of its own): the memory they made the
#: reader take, and the price import's time at 1,000 and 10,000 rows (linear: about 10 times).
SCALE = ("gguf 99 MB of small arrays", "gguf 99 MB of strings", "safetensors header 48 MB",
         "20,000 user records: catalog list", "20,000 user records: a model preset",
         "20,000 user records: estimate on one GPU", "price import 1,000 rows", "price import 10,000 rows")


def _scale_case(k: int, home: Path, work: Path) -> list[str]:
    what = SCALE[k]
    if what.startswith("gguf"):
        def s(b: bytes) -> bytes:
            return struct.pack("<Q", len(b)) + b

        kvs = [s(b"general.architecture") + struct.pack("<I", 8) + s(b"llama")]
        size = i = 0
        while size < 99_000_000 and len(kvs) < 65_000:
            if "arrays" in what:
                item = s(f"k{i}".encode()) + struct.pack("<IIQ", 9, 0, 4096) + b"\x01" * 4096
            else:
                item = s(f"k{i}".encode()) + struct.pack("<I", 8) + s(b"x" * 4000)
            kvs.append(item)
            size, i = size + len(item), i + 1
        path = work / "big.gguf"
        path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + b"".join(kvs))
        return ["estimate", str(path)]
    if what.startswith("safetensors"):
        folder = work / "model"
        folder.mkdir()
        (folder / "config.json").write_text(json.dumps(LLAMA_CONFIG))
        parts, size, i = [], 0, 0
        while size < 48_000_000:
            e = f'"t{i:07d}":{{"dtype":"F16","shape":[1,1,1,1,1,1,1,1],"data_offsets":[{2 * i},{2 * i + 2}]}}'
            parts.append(e)
            size, i = size + len(e) + 1, i + 1
        header = ("{" + ",".join(parts) + "}").encode()
        (folder / "model.safetensors").write_bytes(struct.pack("<Q", len(header)) + header + b"\0" * (2 * i))
        return ["estimate", str(folder)]
    if what.startswith("20,000"):
        record = json.loads((CATALOG / "gpus" / "rtx-3090.json").read_text())
        folder = home / "data" / "catalog" / "gpus"
        folder.mkdir(parents=True)
        for i in range(20_000):
            (folder / f"u{i:05d}.json").write_text(json.dumps({**record, "id": f"u{i:05d}", "name": f"U {i}"}))
        return {"catalog list": ["catalog", "list"], "a model preset": ["estimate", "llama-3.1-8b"],
                "estimate on one GPU": ["estimate", "--params", "8b", "--gpu", "rtx-3090"]}[what.split(": ")[1]]
    rows = int(what.split()[2].replace(",", ""))
    gpus = [p.stem for p in _shipped("gpus")]
    lines = ["id,kind,usd,date,source_url"] + [
        f"gpu:{gpus[i % len(gpus)]},used,{300 + i},2025-{1 + i % 12:02d}-{1 + i % 28:02d},https://example.org/{i}"
        for i in range(rows)]
    (work / "p.csv").write_text("\n".join(lines) + "\n")
    return ["catalog", "prices", "import", str(work / "p.csv")]


# --- the worker: runs cases in its own process, one JSON line per case ----------------------------------------

class _FailingRaw(io.RawIOBase):
    def __init__(self, code: int) -> None:
        self.code = code

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        if self.code == errno.EPIPE:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")
        raise OSError(self.code, os.strerror(self.code))


#: The locks' own files: made by the first write that takes the lock, never user data.
LOCK_FILES = {".lock", ".settings.lock"}


def _fingerprint(root: Path) -> dict[str, str]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + dirnames:
            if name in LOCK_FILES:
                continue
            p = Path(dirpath) / name
            info = p.lstat()
            digest = hashlib.blake2b(p.read_bytes(), digest_size=8).hexdigest() if stat.S_ISREG(info.st_mode) else "-"
            out[str(p.relative_to(root))] = f"{digest}:{stat.S_IMODE(info.st_mode):o}"
    return out


def _hwm_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _reset_peak() -> float | None:
    """Reset the peak to the present resident size; returns that size (MB), the case's baseline."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def run_case(family: str, seed: int, scratch: Path) -> dict[str, Any]:
    """Run one case in this process; what happened, as one JSON-able dict."""
    from advisor.cli import main

    case_dir = Path(tempfile.mkdtemp(dir=scratch))
    home, work = case_dir / "home", case_dir / "work"
    home.mkdir()
    work.mkdir()
    os.environ["LLM_ADVISOR_HOME"] = str(home)
    argv, note = make_case(family, seed, home, work)
    before = _fingerprint(home)
    out, err = io.StringIO(), io.StringIO()
    saved_path = os.environ.get("PATH", "")
    if "path" in note:
        os.environ["PATH"] = f"{note['path']}{os.pathsep}{saved_path}"
    stdout_mode = note.get("stdout")
    if stdout_mode == "ascii":
        raw = io.BytesIO()
        target = io.TextIOWrapper(raw, encoding="ascii")
    elif stdout_mode:
        target = io.TextIOWrapper(io.BufferedWriter(_FailingRaw(getattr(errno, stdout_mode))), encoding="utf-8")
    else:
        target = out
    baseline = _reset_peak()
    start = time.monotonic()
    escaped = None
    real_stdout = sys.stdout
    try:
        with contextlib.redirect_stderr(err):
            sys.stdout = target
            try:
                code = main(list(argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
            except BaseException as exc:  # noqa: BLE001 - what a user would have seen as a traceback
                escaped = "".join(traceback.format_exception_only(type(exc), exc)).strip()[-300:]
                code = -1
    finally:
        sys.stdout = real_stdout
        os.environ["PATH"] = saved_path
    seconds = time.monotonic() - start
    peak = _hwm_mb()
    text_out = out.getvalue() if target is out else ""
    errors = [line for line in err.getvalue().splitlines() if line.strip() and not line.startswith("warning:")]
    # A message a user cannot read as one line per problem: an indented continuation (pydantic's
    # "  Input should be …" under a field name, "For further information visit …") or Python's own advice.
    unclear = any(line[:1].isspace() or "errors.pydantic.dev" in line or "sys.set_int_max_str_digits" in line
                  for line in err.getvalue().splitlines())
    changed = code != 0 and _fingerprint(home) != before
    shutil.rmtree(case_dir, ignore_errors=True)
    return {"family": family, "seed": seed, "argv": [a[:80] for a in argv], "code": code, "seconds": round(seconds, 3),
            "peak_mb": None if peak is None else round(peak, 1),
            "growth_mb": None if peak is None or baseline is None else round(peak - baseline, 1),
            "traceback": escaped or ("Traceback" in err.getvalue() or "Traceback" in text_out),
            "error_lines": len(errors) if code not in (0, -1) else 0, "first_error": errors[0][:200] if errors else "",
            "unclear": unclear,
            "changed_on_failure": changed}


def run_window_case(seed: int, scratch: Path, app) -> dict[str, Any]:
    """Start the real main window with a hostile last comparison (or user record); it must start and name the file."""
    import math

    from PySide6.QtCore import QCoreApplication

    from advisor.core.advice.comparison import canonical_comparison
    from advisor.storage.comparison_file import to_json
    from advisor.storage.settings import Settings, save_settings
    from advisor.ui.app import build_window

    rng = random.Random(f"window:{seed}")
    case_dir = Path(tempfile.mkdtemp(dir=scratch))
    home = case_dir / "home"
    os.environ["LLM_ADVISOR_HOME"] = str(home)
    which = rng.choice(["comparison", "record"])
    if which == "comparison":
        doc = json.loads(to_json(canonical_comparison()))
        doc["workload"] = {**doc["workload"], "mode": "train", "grad_accum_steps": 4}
        path = case_dir / "last.json"
        data = mutate_json(rng, doc)
        path.write_bytes(data)
        save_settings(Settings(last_comparison=str(path)))
    else:
        source = rng.choice(_shipped("gpus"))
        path = home / "data" / "catalog" / "gpus" / source.name
        path.parent.mkdir(parents=True)
        data = mutate_json(rng, json.loads(source.read_text()))
        path.write_bytes(data)
    invalid = _is_invalid(which, path)
    baseline = _reset_peak()
    start = time.monotonic()
    escaped, named, started = None, None, False
    try:
        session, window = build_window()
        session.slice_ms = math.inf
        window.skip_unsaved_prompt = True
        window.finish_start()
        deadline = time.monotonic() + 60
        while session.results_pending and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.005)
        started = bool(session.results.builds) and not session.results_pending
        shown = [window.statusBar().currentMessage(), *session.catalog_problems]
        opened_it = which == "comparison" and session.path is not None and Path(session.path) == path
        named = opened_it or any(str(path) in m for m in shown)
        window.close()
        session.close()
        QCoreApplication.processEvents()
    except BaseException as exc:  # noqa: BLE001
        escaped = "".join(traceback.format_exception_only(type(exc), exc)).strip()[-300:]
    seconds = time.monotonic() - start
    peak = _hwm_mb()
    # A bad file is never written; a good record of an older schema is migrated (its original kept as .v<N>.bak).
    changed = invalid and (not path.exists() or path.read_bytes() != data)
    shutil.rmtree(case_dir, ignore_errors=True)
    ok = started and (named or not invalid)
    return {"family": "window", "seed": seed, "argv": [which, "invalid" if invalid else "valid"], "code": 0 if ok else 1,
            "seconds": round(seconds, 3), "peak_mb": peak,
            "growth_mb": None if peak is None or baseline is None else round(peak - baseline, 1),
            "traceback": escaped or False, "error_lines": 0,
            "first_error": "" if ok else ("did not start" if not started else "the file was not named"),
            "changed_on_failure": changed, "started": started, "named": bool(named)}


def _is_invalid(which: str, path: Path) -> bool:
    """Whether the file the window meets is one it must refuse (and name)."""
    if which == "comparison":
        from advisor.storage.comparison_file import ComparisonFileError, load_comparison

        try:
            load_comparison(path)
        except ComparisonFileError:
            return True
        return False
    from advisor.storage.catalog_store import load_catalog

    return any(p.path == path for p in load_catalog(migrate_user_files=False).problems)


def worker(window: bool) -> int:
    scratch = Path(tempfile.mkdtemp(prefix="hostile-worker-"))
    app = None
    if window:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtWidgets import QApplication

        app = QApplication.instance() or QApplication(["llm-advisor"])
    real_out = sys.stdout
    for line in sys.stdin:
        family, seed = json.loads(line)
        result = run_window_case(seed, scratch, app) if family == "window" else run_case(family, seed, scratch)
        real_out.write(json.dumps(result) + "\n")
        real_out.flush()
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


# --- the parent: hands out cases, watches for hangs, sums up -------------------------------------------------

class _Worker:
    def __init__(self, window: bool) -> None:
        self.window = window
        env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"] + (["--window"] if window else []),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, cwd=ROOT, env=env, start_new_session=True)
        self.done = 0

    def run(self, family: str, seed: int, limit_s: float) -> dict[str, Any] | None:
        self.proc.stdin.write(json.dumps([family, seed]) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], limit_s)
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else {"family": family, "seed": seed, "crashed": True}

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.proc.pid, 9)
        self.proc.wait()


def plan(cases: int, seed: int, scale: bool = True) -> list[tuple[str, int]]:
    total = sum(FAMILIES.values())
    out = []
    for family, share in FAMILIES.items():
        out += [(family, seed * 1_000_000 + i) for i in range(round(cases * share / total))]
    random.Random(seed).shuffle(out)
    if scale:  # first: each alone in a fresh worker
        out = [("scale", k) for k in range(len(SCALE))] + out
    return out


def run_all(cases: list[tuple[str, int]], workers: int) -> list[dict[str, Any]]:
    import concurrent.futures
    import threading

    results: list[dict[str, Any]] = []
    lock = threading.Lock()
    queues = [[c for i, c in enumerate(cases) if i % workers == w] for w in range(workers)]
    start = time.monotonic()

    def drive(queue: list[tuple[str, int]]) -> None:
        pools: dict[bool, _Worker] = {}
        for family, seed in queue:
            window = family == "window"
            w = pools.get(window) or pools.setdefault(window, _Worker(window))
            result = w.run(family, seed, CASE_LIMIT_S)
            w.done += 1
            if result is None or result.get("crashed"):
                w.kill()
                pools.pop(window)
                result = {"family": family, "seed": seed, "hang": result is None, "crashed": result is not None}
            elif window or family == "scale" or w.done >= RECYCLE_AFTER:
                w.close()
                pools.pop(window)
            with lock:
                results.append(result)
                if len(results) % 500 == 0:
                    print(f"  {len(results):,} of {len(cases):,} cases, {time.monotonic() - start:,.0f} s",
                          file=sys.stderr, flush=True)
        for w in pools.values():
            w.close()

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(drive, queues))
    return results


def summary(results: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    by_family = Counter(r["family"] for r in results)
    bad = {
        "tracebacks": [r for r in results if r.get("traceback")],
        "hangs": [r for r in results if r.get("hang")],
        "worker crashes": [r for r in results if r.get("crashed")],
        "failed commands that changed a user file": [r for r in results if r.get("changed_on_failure")],
        "failures that said nothing on stderr": [r for r in results if r.get("code") not in (0, -1, None)
                                                 and r["family"] != "window" and not r.get("error_lines")],
        "unclear error output (indented lines, pydantic or Python advice)": [r for r in results if r.get("unclear")],
        "window starts that did not start or name the file": [r for r in results if r["family"] == "window"
                                                              and r.get("code") != 0],
    }
    peaks = [r["peak_mb"] for r in results if r.get("peak_mb")]
    growths = [r for r in results if r.get("growth_mb") is not None]
    most = max(growths, key=lambda r: r["growth_mb"]) if growths else {}
    worst = max(results, key=lambda r: r.get("peak_mb") or 0)
    slowest = max(results, key=lambda r: r.get("seconds") or 0)
    return {
        "cases": len(results), "seconds": round(seconds), "by_family": dict(sorted(by_family.items())),
        "exit_codes": dict(sorted(Counter(str(r.get("code")) for r in results).items())),
        "failures with one error line": sum(1 for r in results if r.get("code") not in (0, -1, None)
                                            and r["family"] != "window" and r.get("error_lines") == 1),
        "failures with one line per problem (several)": sum(1 for r in results if r.get("code") not in (0, -1, None)
                                                            and r["family"] != "window" and (r.get("error_lines") or 0) > 1),
        **{k: len(v) for k, v in bad.items()},
        "examples": {k: [{x: r.get(x) for x in ("family", "seed", "argv", "traceback", "first_error")} for r in v[:3]]
                     for k, v in bad.items() if v},
        "peak_rss_mb": max(peaks) if peaks else None, "peak_rss_case": [worst["family"], worst["seed"], worst.get("argv")],
        "largest_growth_in_one_case_mb": most.get("growth_mb"),
        "largest_growth_case": [most.get("family"), most.get("seed"), most.get("argv")],
        "slowest_s": slowest.get("seconds"), "slowest_case": [slowest["family"], slowest["seed"], slowest.get("argv")],
        "scale": {SCALE[r["seed"] % len(SCALE)]: {"code": r.get("code"), "seconds": r.get("seconds"),
                                                   "peak_mb": r.get("peak_mb"), "growth_mb": r.get("growth_mb")}
                  for r in sorted(results, key=lambda r: r["seed"]) if r["family"] == "scale"},
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=10_500)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=44)
    ap.add_argument("--json", type=Path, help="write every case's result here")
    ap.add_argument("--no-scale", action="store_true", help="leave out the issue's large inputs (a minute or two)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--window", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--show", nargs=2, metavar=("FAMILY", "SEED"), help="run one case here and print what it did")
    args = ap.parse_args()
    if args.worker:
        return worker(args.window)
    if args.show:
        scratch = Path(tempfile.mkdtemp())
        family, seed = args.show[0], int(args.show[1])
        if family == "window":
            from PySide6.QtWidgets import QApplication

            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
            print(json.dumps(run_window_case(seed, scratch, QApplication(["x"])), indent=1))
        else:
            print(json.dumps(run_case(family, seed, scratch), indent=1))
        return 0
    cases = plan(args.cases, args.seed, scale=not args.no_scale)
    start = time.monotonic()
    results = run_all(cases, args.workers)
    report = summary(results, time.monotonic() - start)
    if args.json:
        args.json.write_text(json.dumps({"summary": report, "results": results}, indent=1))
    print(json.dumps(report, indent=2))
    clean = not any(report[k] for k in ("tracebacks", "hangs", "worker crashes",
                                        "failed commands that changed a user file", "failures that said nothing on stderr",
                                        "unclear error output (indented lines, pydantic or Python advice)",
                                        "window starts that did not start or name the file"))
    return 0 if clean and (report["peak_rss_mb"] or 0) < 500 else 1


if __name__ == "__main__":
    sys.exit(main())
