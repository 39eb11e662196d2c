"""The seeds' rules of thumb, next to the detailed estimate, with why the two differ.

Rules (from the project's seed notes, numbers checked):

* Inference, weights only: parameters × bytes per weight at the nominal width — 4 (fp32),
  2 (bf16/fp16), 1 (8-bit), 0.5 (4-bit): "7B: 28 GB fp32, 14 GB bf16, 7 GB int8, 3.5 GB int4".
  (The seed's 70B bf16 cell says 150 GB; its own rule gives 140 GB.)
* Full fine-tuning: ~16 bytes per parameter ("~16 GB per 1B parameters": weights, gradients
  and Adam states; 7B → 112 GB), the mixed-precision Adam count of ZeRO (arXiv:1910.02054).
* LoRA ≈ 1/4 of full fine-tuning; QLoRA: "LoRA to QLoRA [8-bit] ~60 %", "QLoRA to QLoRA
  half precision [4-bit] 1/2" — so 4-bit QLoRA ≈ 0.25 × 0.6 × 0.5 = 7.5 % of full
  fine-tuning. The seed's source table (a lost screenshot) is not available to check.
"""

from __future__ import annotations

import re

from advisor.core.estimation.results import RuleOfThumb
from advisor.core.job.choices import Method, Mode
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.formats import is_exl2
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.results import MemoryBreakdown
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params
from advisor.core.terms import MEMORY_TERMS, term_label
from advisor.core.units import GIB

FULL_FT_BYTES_PER_PARAM = 16.0
LORA_SHARE_OF_FULL = 0.25
QLORA8_SHARE_OF_LORA = 0.6
QLORA4_SHARE_OF_QLORA8 = 0.5
_NOMINAL_BITS = {"fp32": 32, "bf16": 16, "fp16": 16, "fp8": 8, "int8": 8, "nf4": 4, "fp4": 4, "gptq": 4, "gptq-int8": 8, "awq": 4,
                "mxfp4": 4, "mxfp4_moe": 4}  # MXFP4: "int4" in the rule's words (4-bit experts)


def nominal_bits(weights: str) -> float:
    """The width a format's name suggests (q4_k_m → 4, iq2_xxs → 2, 4.65bpw → 4.65), as the rule uses it."""
    key = weights.strip().lower()
    key = {"f16": "fp16", "f32": "fp32"}.get(key, key)
    if key in _NOMINAL_BITS:
        return _NOMINAL_BITS[key]
    if is_exl2(key):
        return float(key.removesuffix("bpw"))
    match = re.match(r"i?q(\d)", key)
    if match is None:
        raise ValueError(f"no nominal width for weight format {weights!r}")
    return int(match.group(1))


def _rule(arch: ModelArch, job: Job) -> tuple[float, str]:
    n = count_params(arch).total
    if job.mode is Mode.INFERENCE:
        bits = nominal_bits(job.weights)
        return n * bits / 8, f"weights only: {n / 1e9:.1f}B params × {bits / 8:g} bytes"
    full = n * FULL_FT_BYTES_PER_PARAM
    if job.method is Method.FULL:
        return full, f"full fine-tuning: ~16 bytes per parameter ({n / 1e9:.1f}B params)"
    lora = full * LORA_SHARE_OF_FULL
    if job.method is Method.LORA or (job.method.litgpt_adapter and job.weights.lower() not in ("nf4", "fp4")):
        return lora, ("LoRA" if job.method is Method.LORA else "adapter (as LoRA)") + \
            " ≈ 1/4 of full fine-tuning (16 bytes/param)"
    return lora * QLORA8_SHARE_OF_LORA * QLORA4_SHARE_OF_QLORA8, "4-bit QLoRA ≈ LoRA × 0.6 × 0.5"


def _differences(arch: ModelArch, planned: PlannedJob, rule_bytes: float, detailed: MemoryBreakdown) -> str:
    per_gpu = f" per GPU over {planned.n_gpus} GPUs" if planned.n_gpus > 1 else ""
    total = detailed.total  # a computed field: read once
    parts = [f"detailed estimate {total / GIB:.1f} GiB{per_gpu} vs rule {rule_bytes / GIB:.1f} GiB"]
    terms = sorted(((getattr(detailed, t), t) for t in MEMORY_TERMS), reverse=True)
    listed = ", ".join(f"{term_label(t)} {v / GIB:.1f}" for v, t in terms if v >= 0.01 * total)
    parts.append(f"detailed terms (GiB): {listed}")
    if planned.mode is Mode.INFERENCE:
        parts.append("the rule counts weights only: no KV cache (grows with context × batch), activations, "
                     "runtime; and nominal bits, without quantization scales or 16-bit embeddings/lm_head")
    else:
        parts.append("the rule ignores activations and logits (grow with sequence × micro-batch; "
                     "checkpointing shrinks them), the optimizer and precision chosen, sharding across GPUs, "
                     "offload, and the CUDA context")
        if planned.method is not Method.FULL:
            parts.append("LoRA/QLoRA/adapter memory is mostly the frozen base weights plus activations, "
                         "not a fixed share of full fine-tuning")
    return "; ".join(parts)


def rule_of_thumb(arch: ModelArch, planned: PlannedJob, breakdown: MemoryBreakdown | None = None) -> RuleOfThumb:
    """The seeds' rule of thumb for this workload, and why the detailed estimate differs.

    ``breakdown``: the detailed estimate already computed for this workload (``estimate`` passes
    its own, so the comparison names the figure shown and ``estimate_memory`` runs once);
    computed here when omitted.
    """
    total, rule = _rule(arch, planned)
    detailed = estimate_memory(arch, planned).breakdown if breakdown is None else breakdown
    return RuleOfThumb(total_bytes=total, rule=rule, why_different=_differences(arch, planned, total, detailed))
