"""The fit plot's curves: per technique, the memory a whole copy of a generic decoder needs at each model size.

The curves are memory without a build (speed is not plotted per size); each build's largest model per
technique comes from its own plan search (``largest``), not from these curves.
"""

from __future__ import annotations

import math
from collections.abc import Generator

import numpy as np
import numpy.typing as npt

from advisor.core.estimation.job_checks import check_job
from advisor.core.estimation.job_words import say
from advisor.core.job.choices import Method, Mode
from advisor.core.job.job import Job
from advisor.core.job.planned import alone, job_of
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.generic import generic_decoder

#: One curve: per-GPU bytes at each of ``CURVE_PARAMS`` (NaN: no estimate at that size).
Curve = npt.NDArray[np.float64]
#: Model sizes of the fit plot: 0.5 B to 1 T parameters, log-spaced (6 per decade).
CURVE_PARAMS: Curve = np.geomspace(0.5e9, 1e12, 21)
#: Inference techniques drawn on the fit plot (weight formats), label → Job.weights.
INFERENCE_TECHNIQUES = {"bf16": "bf16", "fp8": "fp8", "int8 (LLM.int8)": "int8", "4-bit AWQ": "awq", "GGUF Q4_K_M": "q4_k_m"}
#: Training techniques drawn on the fit plot, label → Job.method.
TRAINING_TECHNIQUES = {"full fine-tune": Method.FULL, "LoRA": Method.LORA, "QLoRA": Method.QLORA}


def technique_workloads(workload: Job) -> tuple[dict[str, Job], str]:
    """The fit plot's techniques under the current settings, and which one is current."""
    if workload.mode is Mode.TRAIN:
        return _training_techniques(workload)
    current = next((k for k, w in INFERENCE_TECHNIQUES.items() if w == workload.weights.lower()), None)
    # Only the formats the job's engine loads (llama.cpp runs no fp8 or AWQ, vLLM no GGUF): the job's own is kept,
    # its verdict says why where it cannot run.
    variants = {k: workload.model_copy(update={"weights": w}) for k, w in INFERENCE_TECHNIQUES.items()
                if k == current or _engine_loads(workload.model_copy(update={"weights": w}))}
    if current is None:
        current = f"{say('weights', workload.weights, workload)} (current)"
        variants[current] = workload
    return variants, current


def _training_techniques(workload: Job) -> tuple[dict[str, Job], str]:
    # Each method on the base it trains: LoRA and full on 16 bits, QLoRA on 4-bit NF4 (Dettmers et al. 2023).
    base = {Method.FULL: "bf16", Method.LORA: "bf16", Method.QLORA: "nf4"}
    variants = {k: workload.model_copy(update={"method": m, "weights": base[m] if m is not workload.method
                                               else workload.weights}) for k, m in TRAINING_TECHNIQUES.items()}
    current = next((k for k, m in TRAINING_TECHNIQUES.items() if m is workload.method), None)
    if current is None:  # LitGPT's adapters: drawn as the current technique beside the three
        current = f"{say('method', workload.method)} (current)"
        variants[current] = workload
    return variants, current


def _engine_loads(workload: Job) -> bool:
    """The engine loads the job's weight format on some build (no problem with the weights before any build)."""
    return not any(p.field == "weights" for p in check_job(generic_decoder(8e9), job_of(workload)))


def _point(workload: Job, n_params: float) -> float:
    """Per-GPU bytes of the generic decoder of ``n_params``; memory only (speed is not plotted per
    size). NaN for an impossible point: it leaves a gap in the curve, not a crash."""
    try:
        return estimate_memory(generic_decoder(float(n_params)), alone(workload), detail=False).breakdown.total
    except ValueError:
        return math.nan


def fit_curve_steps(workload: Job) -> Generator[None, None, tuple[dict[str, Curve], str]]:
    """``fit_curves`` one point at a time: yields after each model size, returns what ``fit_curves``
    returns. The window computes the sweep a few points per turn of its event loop, so typing stays
    responsive while a sweep of training techniques runs."""
    variants, current = technique_workloads(workload)
    curves: dict[str, Curve] = {}
    for label, w in variants.items():
        curve = np.full(len(CURVE_PARAMS), np.nan)
        for i, n in enumerate(CURVE_PARAMS):
            curve[i] = _point(w, float(n))
            yield
        curves[label] = curve
    return curves, current


def fit_curves(workload: Job) -> tuple[dict[str, Curve], str]:
    """Per technique, the per-GPU bytes of a whole copy of a generic decoder at each ``CURVE_PARAMS``
    size, and the label of the job's own technique."""
    steps = fit_curve_steps(workload)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            out: tuple[dict[str, Curve], str] = done.value
            return out


def largest_fitting(curve: Curve, usable_bytes: float) -> float | None:
    """Largest size on the (monotonic) curve whose need is ≤ usable, log-log interpolated.

    None when even the smallest size does not fit; the top of the range when all fit.
    """
    ok = np.isfinite(curve)
    x, y = np.log(CURVE_PARAMS[ok]), curve[ok]
    if len(x) == 0 or y[0] > usable_bytes:
        return None
    above = np.nonzero(y > usable_bytes)[0]
    if len(above) == 0:
        return float(math.exp(x[-1]))
    j = above[0]
    ly0, ly1, lu = math.log(y[j - 1]), math.log(y[j]), math.log(usable_bytes)
    t = (lu - ly0) / (ly1 - ly0) if ly1 != ly0 else 0.0
    return float(math.exp(x[j - 1] + t * (x[j] - x[j - 1])))
