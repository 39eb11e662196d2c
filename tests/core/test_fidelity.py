"""Pins the memory estimator's error on trusted published measurements (benchmarks/fidelity.py).

Each pinned row's absolute % error must stay within its bound (today's error rounded up
plus about two points), so a change that makes a trusted comparison worse fails here. Rows
with a known modelling gap are listed in ``fidelity.KNOWN_GAPS`` with the reason and not
pinned; see the "Fidelity" section of benchmarks/README.md.
"""

import importlib.util
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("fidelity", ROOT / "benchmarks" / "fidelity.py")
fidelity = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("fidelity", fidelity)  # dataclasses look their module up while executing it
_spec.loader.exec_module(fidelity)

ROWS = {row["id"]: row for row in fidelity.load_rows()}

# row id → largest allowed absolute error in %.
PINNED = {
    "litgpt-l2-7b-inf-bf16": 2, "litgpt-l2-13b-inf-bf16": 2,
    "litgpt-l2-7b-inf-nf4": 8, "litgpt-l2-7b-inf-nf4dq": 8, "litgpt-l2-13b-inf-nf4": 6, "litgpt-l2-13b-inf-nf4dq": 6,
    "litgpt-codellama-34b-inf-nf4": 4, "litgpt-codellama-34b-inf-nf4dq": 4, "litgpt-l2-70b-inf-nf4dq": 3,
    "litgpt-falcon-40b-inf-nf4": 10, "litgpt-falcon-40b-inf-nf4dq": 10,
    "litgpt-l2-7b-lora-mb1": 9, "litgpt-l2-7b-lora-mb2": 13, "litgpt-l2-13b-lora-mb1": 9,
    "litgpt-l2-7b-qlora-mb1": 16, "litgpt-l2-7b-qlora-dq-mb1": 16, "litgpt-l2-13b-qlora-mb1": 15,
    "litgpt-l2-13b-qlora-dq-mb1": 16,
    "litgpthub-l2-7b-lora-a10g": 8, "litgpthub-mistral-7b-lora-a10g": 6, "litgpthub-l2-7b-qlora-a10g": 25,
    "vllm-l3-8b-tp1-weights": 1, "vllm-l3-8b-tp2-weights": 1,
    "gguf-l31-70b-q4_0-size": 1, "gguf-gemma-2-27b-q8_0-file": 1,
    "gguf-mixtral-8x7b-instruct-q4_k_m-file": 8, "gguf-mixtral-8x7b-q3_k_m-file": 13, "gguf-mixtral-8x7b-q2_k-file": 12,
    "optimum-l2-13b-prefill-b1-fp16": 6, "optimum-l2-13b-prefill-b16-fp16": 7, "optimum-l2-13b-gen-b1-fp16": 8,
    "optimum-l2-13b-prefill-b1-gptq": 14, "optimum-l2-13b-prefill-b16-gptq": 13, "optimum-l2-13b-gen-b1-gptq": 19,
    "optimum-l2-13b-gen-b4-fp16": 14,
    "qwen-qwen3-8b-in1-bf16": 3, "qwen-qwen3-8b-in1-fp8": 4, "qwen-qwen3-8b-in1-awq": 4,
    "qwen-qwen3-32b-in1-bf16": 3, "qwen-qwen3-32b-in1-fp8": 3, "qwen-qwen3-32b-in1-awq": 3,
    "qwen-qwen3-30b-a3b-in1-bf16": 3, "qwen-qwen3-30b-a3b-in1-fp8": 3, "qwen-qwen3-30b-a3b-in30720-bf16": 5,
    "qwen-qwen3-32b-in30720-bf16": 10,
    "peft-l2-70b-qlora-zero3-2x40gb": 24, "tt-l31-70b-full-8xa100-offload": 19,
}

KNOWN_GAPS = fidelity.KNOWN_GAPS


@pytest.mark.parametrize("row_id", sorted(PINNED))
def test_trusted_row_error_within_pinned_bound(row_id):
    if row_id not in ROWS:
        pytest.skip(f"{row_id} no longer in the measurement table")
    outcome = fidelity.evaluate(ROWS[row_id])
    assert outcome.trusted
    assert outcome.estimate_bytes is not None, outcome.skipped
    assert outcome.error_pct <= PINNED[row_id], f"{row_id}: {outcome.error_pct:.1f} % > {PINNED[row_id]} %"


def test_every_row_evaluates_or_says_why_not():
    assert len(ROWS) >= 40
    for row in ROWS.values():
        outcome = fidelity.evaluate(row)
        assert outcome.estimate_bytes is not None or outcome.skipped, row["id"]


def test_pinned_inference_median_meets_target():
    errors = [fidelity.evaluate(ROWS[r]).error_pct for r in PINNED if r in ROWS and ROWS[r]["group"] == "inference"]
    assert statistics.median(errors) <= 8


def test_known_gaps_are_not_pinned():
    assert not set(KNOWN_GAPS) & set(PINNED)


@pytest.mark.parametrize(
    ("value", "unit", "nbytes"),
    [("1", "GiB", 1024**3), ("1", "GB", 1e9), ("2048", "MiB", 2 * 1024**3), ("1500", "MB", 1.5e9)],
)
def test_units(value, unit, nbytes):
    assert fidelity.measured_bytes({"measured_value": value, "measured_unit": unit}) == nbytes


@pytest.mark.parametrize(
    ("kind", "notes", "sees"),
    [("max_memory_allocated", "", False), ("max_memory_reserved", "", False), ("nvidia-smi", "", True),
     ("reported", "logs via torch.cuda.max_memory_allocated", False), ("reported", "screenshot", True)],
)
def test_like_with_like(kind, notes, sees):
    assert fidelity.sees_runtime({"measured_kind": kind, "notes": notes}) is sees


def test_paged_optimizer_is_invisible_to_torch_statistics():
    row = dict(ROWS.get("tt-l31-8b-full-4090") or pytest.skip("row gone"))
    paged = fidelity.evaluate(row).estimate_bytes
    row["optimizer"] = "adamw-8bit"
    assert fidelity.evaluate(row).estimate_bytes > paged
