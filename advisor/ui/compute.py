"""One recomputation per change: every build's estimate, checks and price, and the fit curves.

Qt-free (the session calls it, the benchmarks time it, the PDF can reuse it). It only
calls the core; a piece of the core that is missing or fails becomes a message on the
build it concerns, never a crash and never a made-up number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from advisor.core.comparison import BuildEntry
from advisor.core.hardware import ResolvedBuild
from advisor.core.llm import ModelArch
from advisor.core.results import Estimate
from advisor.core.workload import Method, Mode, Workload
from advisor.ui import hooks

#: Model sizes of the fit plot: 0.5 B to 1 T parameters, log-spaced (6 per decade).
CURVE_PARAMS = np.geomspace(0.5e9, 1e12, 21)

#: Inference techniques drawn on the fit plot (weight formats), label → Workload.weights.
INFERENCE_TECHNIQUES = {"bf16": "bf16", "fp8": "fp8", "int8 (LLM.int8)": "int8", "4-bit AWQ": "awq", "GGUF Q4_K_M": "q4_k_m"}
#: Training techniques drawn on the fit plot, label → Workload.method.
TRAINING_TECHNIQUES = {"full fine-tune": Method.FULL, "LoRA": Method.LORA, "QLoRA": Method.QLORA}


@dataclass(frozen=True)
class BuildResult:
    """What the headline, the tables and the plots show for one build."""

    entry: BuildEntry
    resolved: ResolvedBuild | None = None
    estimate: Estimate | None = None
    problems: tuple[str, ...] = ()  # the workload contradicts itself or this build (check_workload)
    warnings: tuple[str, ...] = ()  # the build's own checks: PSU, spacing, bridge, lanes
    error: str | None = None  # no estimate at all, and why
    price_new_usd: float | None = None
    price_used_usd: float | None = None
    usd_per_hour: float | None = None
    power_w: float | None = None
    price_note: str = ""
    largest_fit: dict[str, float | None] = field(default_factory=dict)  # technique → params

    @property
    def name(self) -> str:
        return self.entry.name


@dataclass(frozen=True)
class Results:
    builds: tuple[BuildResult, ...]
    curves: dict[str, np.ndarray]  # technique label → per-GPU bytes at CURVE_PARAMS (NaN: no estimate)
    current_technique: str
    chosen_params: float | None
    chosen_need_bytes: float | None
    notice: str | None = None  # why something could not be computed, said once


def technique_workloads(workload: Workload) -> tuple[dict[str, Workload], str]:
    """The fit plot's techniques under the current settings, and which one is current."""
    if workload.mode is Mode.TRAIN:
        variants = {k: workload.model_copy(update={"method": m}) for k, m in TRAINING_TECHNIQUES.items()}
        current = next(k for k, m in TRAINING_TECHNIQUES.items() if m is workload.method)
        return variants, current
    variants = {k: workload.model_copy(update={"weights": w}) for k, w in INFERENCE_TECHNIQUES.items()}
    current = next((k for k, w in INFERENCE_TECHNIQUES.items() if w == workload.weights.lower()), None)
    if current is None:
        current = f"{workload.weights} (current)"
        variants[current] = workload
    return variants, current


def _curve(workload: Workload, n_params: np.ndarray) -> np.ndarray:
    out = np.full(len(n_params), np.nan)
    for i, n in enumerate(n_params):
        try:
            out[i] = hooks.memory_need_bytes(hooks.generic_decoder(float(n)), workload)
        except Exception:  # noqa: BLE001 - one impossible point leaves a gap, not a crash
            continue
    return out


def fit_curves(workload: Workload) -> tuple[dict[str, np.ndarray], str]:
    variants, current = technique_workloads(workload)
    return {label: _curve(w, CURVE_PARAMS) for label, w in variants.items()}, current


def largest_fitting(curve: np.ndarray, usable_bytes: float) -> float | None:
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


def _one_build(catalog, arch: ModelArch | None, workload: Workload, entry: BuildEntry) -> BuildResult:
    try:
        resolved = hooks.resolve_entry(catalog, entry)
    except Exception as exc:  # noqa: BLE001 - unknown id, missing catalog: said on the build
        return BuildResult(entry=entry, error=f"cannot resolve: {exc}")
    money = hooks.money(catalog, entry, resolved)
    warnings = hooks.build_warnings(catalog, resolved)
    if arch is None:
        return BuildResult(entry=entry, resolved=resolved, warnings=warnings, error="no model chosen", **money)
    problems = hooks.check_workload(arch, workload, resolved)
    try:
        est = hooks.estimate(arch, workload, resolved)
    except Exception as exc:  # noqa: BLE001 - the estimator's refusal is shown, not raised
        return BuildResult(entry=entry, resolved=resolved, problems=problems, warnings=warnings,
                           error=f"no estimate: {exc}", **money)
    return BuildResult(entry=entry, resolved=resolved, estimate=est, problems=problems,
                       warnings=warnings, **money)


def compute(catalog, arch: ModelArch | None, workload: Workload, entries: tuple[BuildEntry, ...],
            curves: tuple[dict[str, np.ndarray], str] | None = None) -> Results:
    """Everything the views need after one change (``curves`` reused when the workload did not change)."""
    if not hooks.estimator_available():
        return Results(tuple(BuildResult(entry=e, error=hooks.ESTIMATOR_MISSING) for e in entries),
                       {}, "", None, None, hooks.ESTIMATOR_MISSING)
    curve_map, current = curves if curves is not None else fit_curves(workload)
    results = []
    for entry in entries:
        r = _one_build(catalog, arch, workload, entry)
        if r.estimate is not None and r.estimate.fit is not None:
            usable = r.estimate.fit.usable_per_gpu_bytes
            r.largest_fit.update({k: largest_fitting(c, usable) for k, c in curve_map.items()})
        results.append(r)
    chosen_need = None
    chosen_params = None
    if arch is not None:
        first = next((r.estimate for r in results if r.estimate is not None), None)
        if first is not None:
            chosen_need, chosen_params = first.memory.total, first.params_total
    return Results(tuple(results), curve_map, current, chosen_params, chosen_need)
