"""One evaluation of a comparison: every build's estimate, checks, price, and the fit curves.

The window (after each change), the PDF and ``llm-advisor report`` all call ``evaluate``,
so screen and paper carry the same numbers. A build that cannot be resolved or estimated
becomes a message on that build, never a crash and never a made-up number.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

import numpy as np

from advisor.core.advice.comparison import BuildEntry, ModelRef
from advisor.core.advice.largest import SIZE_HI, FitInput, anchored, largest_fits
from advisor.core.advice.running_costs import RunningCosts
from advisor.core.cost.machine import (
    MachinePrice,
    PriceChoice,
    hourly_price,
    machine_price,
)
from advisor.core.estimate.estimator import estimate
from advisor.core.estimate.job_checks import check_job, check_planned
from advisor.core.estimate.job_words import say
from advisor.core.estimate.results import Estimate
from advisor.core.hardware.catalog import (
    Catalog,
    resolve_build,
    resolve_cloud,
    resolve_system,
    with_network,
    with_nodes,
)
from advisor.core.hardware.checks import check_build
from advisor.core.hardware.machines import machine_build, on_platform, price_tier
from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Method, Mode
from advisor.core.job.job import Job
from advisor.core.job.planned import PlanPins, alone, job_of
from advisor.core.memo import KeepLast
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.arch import ModelArch
from advisor.core.model.generic import generic_decoder
from advisor.core.model.params import count_params
from advisor.core.plan.planner import ChosenPlan, FitStatus, best_plan
from advisor.core.plan.suggest import SearchCancelled, Suggestion, suggestions
from advisor.core.plan.words import plan_words
from advisor.core.speed.basis import SpeedBasis

#: Model sizes of the fit plot: 0.5 B to 1 T parameters, log-spaced (6 per decade).
CURVE_PARAMS = np.geomspace(0.5e9, 1e12, 21)
#: Inference techniques drawn on the fit plot (weight formats), label → Job.weights.
INFERENCE_TECHNIQUES = {"bf16": "bf16", "fp8": "fp8", "int8 (LLM.int8)": "int8", "4-bit AWQ": "awq", "GGUF Q4_K_M": "q4_k_m"}
#: Training techniques drawn on the fit plot, label → Job.method.
TRAINING_TECHNIQUES = {"full fine-tune": Method.FULL, "LoRA": Method.LORA, "QLoRA": Method.QLORA}


@dataclass(frozen=True)
class BuildResult:
    """What the headline, the tables, the plots and the PDF show for one build."""

    entry: BuildEntry
    resolved: ResolvedBuild | None = None
    estimate: Estimate | None = None
    chosen: ChosenPlan | None = None  # the plan this build runs the job with, and how it was chosen
    plan_text: str = ""  # the plan in words
    status: FitStatus | None = None  # fits / tight / does not fit / cannot run as set (None: no estimate)
    suggestions: tuple[Suggestion, ...] = ()  # what would make it fit (when it does not, or is tight)
    problems: tuple[str, ...] = ()  # the workload contradicts itself or this build (check_planned)
    warnings: tuple[str, ...] = ()  # the build's own checks: PSU, spacing, bridge, lanes
    error: str | None = None  # no estimate at all, and why
    price_new_usd: float | None = None
    price_used_usd: float | None = None
    usd_per_hour: float | None = None
    power_w: float | None = None
    price_note: str = ""  # what the price includes, or why there is none
    price_gpus_only: bool = False  # never True now: a machine is priced whole or not at all (kept for readers)
    price_date: dt.date | None = None  # oldest date among the parts of ``price``
    #: Today's price the comparison ranks on and every screen shows (``advisor.core.cost.machine``): the lower of
    #: the new and used prices of the whole machine; a cloud instance's hourly rate.
    price: MachinePrice | None = None
    price_new: MachinePrice | None = None
    price_used: MachinePrice | None = None
    #: technique → the largest generic decoder this build's plan search runs (``largest``), None: not even 0.5 B
    largest_fit: dict[str, float | None] = field(default_factory=dict)
    #: What the build's speed stands on (measured on its GPU family with the job's software, or extrapolated),
    #: added by the caller that reads the measured table (``speed_bases.with_speed_bases``); None until then.
    speed_basis: SpeedBasis | None = None
    #: False: the estimate leaves out the rule of thumb, the parameter counts and the assumptions (the
    #: window's pass: ``evaluate_build(quick=True)``); ``detailed`` adds them, nothing else differs.
    detailed: bool = True

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def runs(self) -> bool:
        return self.status is not None and self.status.runs


@dataclass(frozen=True)
class Results:
    builds: tuple[BuildResult, ...]
    curves: dict[str, np.ndarray]  # technique label → per-GPU bytes at CURVE_PARAMS (NaN: no estimate)
    current_technique: str
    chosen_params: float | None
    chosen_need_bytes: float | None
    notice: str | None = None  # why something could not be computed, said once
    fits_found: bool = False  # each build's largest model is in (``with_largest_fits``)
    #: Every build's running cost under the user's cost settings, added by the caller that holds them
    #: (``running.with_running_costs``); None until then. Renderers read it and compute no cost.
    running: RunningCosts | None = None
    #: The model sizes of ``curves`` (parameters): the fit plot's x axis.
    curve_params: np.ndarray = field(default_factory=lambda: CURVE_PARAMS)
    #: The top of each build's largest-model search (parameters): a largest fit there runs that size or more.
    largest_top_params: float = SIZE_HI


def resolve_entry(catalog: Catalog | None, entry: BuildEntry) -> ResolvedBuild:
    """A comparison entry → the build the estimator takes (catalog lookups by id), as
    ``entry.nodes`` machines with the entry's network card where it names one (issue 21)."""
    resolved = _resolve_one(catalog, entry)
    if entry.nic_id is not None:
        if catalog is None:
            raise LookupError("the catalog is not loaded")
        resolved = with_network(catalog, resolved, entry.nic_id, entry.nics)
    if entry.nodes > 1 and entry.nodes != resolved.nodes:  # an inline build may carry its own machines
        resolved = with_nodes(resolved, entry.nodes)
    return resolved


def _resolve_one(catalog: Catalog | None, entry: BuildEntry) -> ResolvedBuild:
    if entry.inline is not None:
        return entry.inline
    if catalog is None:
        raise LookupError("the catalog is not loaded")
    if entry.build_id is not None:
        return on_platform(catalog, resolve_build(catalog, entry.build_id))
    if entry.cloud_id is not None:
        return resolve_cloud(catalog, entry.cloud_id)
    if entry.system_id is not None:
        return resolve_system(catalog, entry.system_id)
    resolved = machine_build(catalog, entry.gpu_id, entry.gpu_count)
    if entry.topology is not None:  # the user's own links and slots over the tier's
        resolved = resolved.model_copy(update={"topology": entry.topology})
    return resolved


def resolve_model(catalog: Catalog | None, ref: ModelRef) -> ModelArch:
    """The architecture a comparison names: inline, a generic size, or a catalog preset."""
    if ref.arch is not None:
        return ref.arch
    if ref.generic_params is not None:
        return generic_decoder(ref.generic_params)
    if catalog is None:
        raise LookupError("the catalog is not loaded")
    try:
        return catalog.models[ref.preset_id]
    except KeyError:
        raise LookupError(f"no model preset {ref.preset_id!r} in the catalog") from None


def money(catalog: Catalog | None, entry: BuildEntry, resolved: ResolvedBuild,
          today: dt.date | None = None) -> dict[str, object]:
    """The build's prices today (``advisor.core.cost.machine``: new, used, and ``price`` — the lower of the two,
    what the comparison ranks on — each a whole machine with its date and what it includes), cloud $/h and
    power; None where unknown (``price_note`` says why)."""
    today = today or dt.date.today()
    power = build_power(resolved)
    out: dict[str, object] = {"power_w": power.total_w if power.total_w is not None else power.gpus_w,
                              "price_gpus_only": False}
    if entry.cloud_id is not None and catalog is not None:
        inst = catalog.cloud.get(entry.cloud_id)
        rate = hourly_price(inst.prices if inst is not None else (), today, resolved.nodes)
        return out | {"price": rate, "price_new": None, "price_used": None, "price_new_usd": None,
                      "price_used_usd": None, "usd_per_hour": rate.usd, "price_date": rate.date,
                      "price_note": "rented by the hour" + (f": {resolved.nodes} instances" if resolved.nodes > 1 else "")}
    tier = price_tier(catalog, resolved) if catalog is not None else resolved.tier
    new, used, either = (machine_price(resolved, c, today, tier) for c in (PriceChoice.NEW, PriceChoice.USED,
                                                                              PriceChoice.EITHER))
    note = either.includes if either.usd is not None else "no price: " + "; ".join(either.missing)
    return out | {"price": either, "price_new": new, "price_used": used, "price_new_usd": new.usd,
                  "price_used_usd": used.usd, "usd_per_hour": None, "price_date": either.date, "price_note": note}


def technique_workloads(workload: Job) -> tuple[dict[str, Job], str]:
    """The fit plot's techniques under the current settings, and which one is current."""
    if workload.mode is Mode.TRAIN:
        # Each method on the base it trains: LoRA and full on 16 bits, QLoRA on 4-bit NF4 (Dettmers et al. 2023).
        base = {Method.FULL: "bf16", Method.LORA: "bf16", Method.QLORA: "nf4"}
        variants = {k: workload.model_copy(update={"method": m, "weights": base[m] if m is not workload.method
                                                   else workload.weights}) for k, m in TRAINING_TECHNIQUES.items()}
        current = next((k for k, m in TRAINING_TECHNIQUES.items() if m is workload.method), None)
        if current is None:  # LitGPT's adapters: drawn as the current technique beside the three
            current = f"{say('method', workload.method)} (current)"
            variants[current] = workload
        return variants, current
    current = next((k for k, w in INFERENCE_TECHNIQUES.items() if w == workload.weights.lower()), None)
    # Only the formats the job's engine loads (llama.cpp runs no fp8 or AWQ, vLLM no GGUF): the job's own is kept,
    # its verdict says why where it cannot run.
    variants = {k: workload.model_copy(update={"weights": w}) for k, w in INFERENCE_TECHNIQUES.items()
                if k == current or _engine_loads(workload.model_copy(update={"weights": w}))}
    if current is None:
        current = f"{say('weights', workload.weights, workload)} (current)"
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


def fit_curve_steps(workload: Job) -> Generator[None, None, tuple[dict[str, np.ndarray], str]]:
    """``fit_curves`` one point at a time: yields after each model size, returns what ``fit_curves``
    returns. The window computes the sweep a few points per turn of its event loop (issue 20)."""
    variants, current = technique_workloads(workload)
    curves: dict[str, np.ndarray] = {}
    for label, w in variants.items():
        curve = np.full(len(CURVE_PARAMS), np.nan)
        for i, n in enumerate(CURVE_PARAMS):
            curve[i] = _point(w, n)
            yield
        curves[label] = curve
    return curves, current


def fit_curves(workload: Job) -> tuple[dict[str, np.ndarray], str]:
    """Per technique, the per-GPU bytes of a whole copy of a generic decoder at each ``CURVE_PARAMS``
    size, and the label of the job's own technique."""
    steps = fit_curve_steps(workload)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


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


@KeepLast
def _job_of(workload: Job) -> Job:
    """``job_of(workload)``; the last one is kept, so every build of a pass plans the same job object (the
    plan search shares a training job's probes between builds of as many GPUs)."""
    return job_of(workload)


def _problem_lines(problems) -> tuple[str, ...]:
    return tuple(f"{p.field}: {p.message}" if p.field else p.message for p in problems)


@dataclass(frozen=True)
class PreparedBuild:
    """What a build is before any job: its resolution, price, power and checks (``prepare_build``).

    The window keeps these by comparison entry until the catalog changes (issue 20: resolving six
    builds, pricing them and running their checks was a fifth of each change's work)."""

    resolved: ResolvedBuild | None
    money: dict[str, object]
    warnings: tuple[str, ...] = ()
    error: str | None = None


def prepare_build(catalog: Catalog | None, entry: BuildEntry) -> PreparedBuild:
    try:
        resolved = resolve_entry(catalog, entry)
    except (LookupError, ValueError) as exc:  # unknown id, incomplete system: said on the build
        return PreparedBuild(resolved=None, money={}, error=f"cannot resolve: {exc}")
    warnings = tuple(f"{w.severity.value}: {w.message}" for w in check_build(resolved))
    return PreparedBuild(resolved=resolved, money=money(catalog, entry, resolved), warnings=warnings)


def needs_suggestions(r: BuildResult) -> bool:
    """A build that does not fit, or fits tightly: what would make it fit is worth finding."""
    return r.chosen is not None and r.resolved is not None and r.status in (FitStatus.NO, FitStatus.TIGHT)


def find_suggestions(arch: ModelArch, workload: Job, results: Results, margin: float = 0.0,
                     cancelled: Callable[[], bool] | None = None) -> tuple[tuple[Suggestion, ...] | None, ...] | None:
    """Per build of ``results``: what would make it fit (None where nothing is looked for).

    The slow part of an evaluation (a plan search per change tried: 20–470 ms for six builds in
    training, measured with benchmarks/ui_recompute.py's builds), so the window runs it off its UI
    thread after the table is on screen; ``evaluate`` runs it inline unless told not to.
    ``cancelled``: asked before each build and each re-estimate within one; when it says True the
    search stops and returns None (a newer change waits at most one plan search for the worker)."""
    return suggestions_for(arch, workload, suggestion_inputs(results), margin, cancelled)


def suggestion_inputs(results: Results) -> tuple[tuple[ResolvedBuild, PlanPins] | None, ...]:
    """What ``find_suggestions`` reads of each build: the build and its pinned plan, or None where
    nothing is looked for (a fraction of the results, for a search run in another process)."""
    return tuple((r.resolved, r.entry.plan or PlanPins()) if needs_suggestions(r) else None for r in results.builds)


def suggestions_for(arch: ModelArch, workload: Job, inputs: tuple[tuple[ResolvedBuild, PlanPins] | None, ...],
                    margin: float = 0.0, cancelled: Callable[[], bool] | None = None
                    ) -> tuple[tuple[Suggestion, ...] | None, ...] | None:
    """``find_suggestions`` from ``suggestion_inputs``."""
    job = job_of(workload)
    found: list[tuple[Suggestion, ...] | None] = []
    for one in inputs:
        if cancelled is not None and cancelled():
            return None
        try:
            found.append(None if one is None else tuple(suggestions(arch, job, one[0], one[1], margin, cancelled)))
        except SearchCancelled:
            return None
    return tuple(found)


def fit_inputs(results: Results) -> tuple[FitInput, ...]:
    """What the search for each build's largest model reads (``largest.largest_fits``): the build and its
    pinned plan, or None where it has no plan (unresolved, no model)."""
    return tuple((r.resolved, r.entry.plan or PlanPins()) if r.chosen is not None and r.resolved is not None else None
                 for r in results.builds)


def largest_fits_for(workload: Job, inputs: tuple[FitInput, ...], margin: float = 0.0,
                     cancelled: Callable[[], bool] | None = None) -> tuple[dict[str, float | None] | None, ...] | None:
    """Per build: the largest generic decoder its plan search runs, per fit-plot technique (None: cancelled)."""
    return largest_fits(technique_workloads(workload)[0], inputs, margin, cancelled)


def with_largest_fits(results: Results, found: tuple[dict[str, float | None] | None, ...]) -> Results:
    """``results`` with each build's largest sizes in, the current technique's held to its verdict
    (``largest.anchored``)."""
    builds = tuple(r if f is None else dataclasses.replace(
        r, largest_fit=anchored(f, results.current_technique, results.chosen_params, r.runs))
        for r, f in zip(results.builds, found, strict=True))
    return dataclasses.replace(results, builds=builds, fits_found=True)


@dataclass(frozen=True)
class SearchAnswer:
    """``background_search``'s answer: per build, what would make it fit and its largest models."""

    suggestions: tuple[tuple[Suggestion, ...] | None, ...]
    largest: tuple[dict[str, float | None] | None, ...]


def background_search(arch: ModelArch, workload: Job, inputs: tuple[tuple[ResolvedBuild, PlanPins] | None, ...],
                      margin: float = 0.0, fits: tuple[FitInput, ...] | None = None,
                      cancelled: Callable[[], bool] | None = None):
    """What the window computes once the job stays put: what would make each build fit
    (``suggestions_for``) and, given ``fits``, each build's largest model (``largest_fits_for``) in a
    ``SearchAnswer``; None when cancelled. Without ``fits``: the suggestions alone."""
    found = suggestions_for(arch, workload, inputs, margin, cancelled)
    if fits is None or found is None:
        return found
    largest = largest_fits_for(workload, fits, margin, cancelled)
    return None if largest is None else SearchAnswer(found, largest)


def with_search(results: Results, out: SearchAnswer | tuple) -> Results:
    """``results`` with ``background_search``'s answer in."""
    if isinstance(out, SearchAnswer):
        return with_largest_fits(with_suggestions(results, out.suggestions), out.largest)
    return with_suggestions(results, out)


def with_suggestions(results: Results, found: tuple[tuple[Suggestion, ...] | None, ...]) -> Results:
    """``results`` with ``find_suggestions``' answer in (the other fields untouched)."""
    builds = tuple(r if f is None else dataclasses.replace(r, suggestions=f)
                   for r, f in zip(results.builds, found, strict=True))
    return dataclasses.replace(results, builds=builds)


def evaluate_build(catalog: Catalog | None, arch: ModelArch | None, workload: Job, entry: BuildEntry,
                   margin: float = 0.0, with_suggestions: bool = True,
                   prepared: PreparedBuild | None = None, quick: bool = False) -> BuildResult:
    """One build: its best plan for the job (or the plan pinned on the entry), estimate, checks, price.

    ``quick``: the estimate without what only the Details tab shows (``best_plan(quick=True)``: no rule of
    thumb, parameter counts or assumptions; memory, speed and fit are the same); ``detailed`` adds it. The
    window's pass after each change takes it: 13.5 % fewer instructions in a training pass of six builds, 15 % in
    an inference one (issue 20; benchmarks/README.md, fifteenth session)."""
    if prepared is None:
        prepared = prepare_build(catalog, entry)
    if prepared.resolved is None:
        return BuildResult(entry=entry, error=prepared.error)
    resolved, money_fields, warnings = prepared.resolved, prepared.money, prepared.warnings
    if arch is None:
        return BuildResult(entry=entry, resolved=resolved, warnings=warnings, error="no model chosen", **money_fields)
    job = _job_of(workload)
    pins = entry.plan or PlanPins()
    try:
        chosen = best_plan(arch, job, resolved, pins, margin, quick=quick)
    except ValueError as exc:  # the estimator's refusal (unknown format) is shown, not raised
        return BuildResult(entry=entry, resolved=resolved, warnings=warnings, error=f"no estimate: {exc}",
                           problems=_problem_lines(check_planned(arch, alone(job), resolved)), **money_fields)
    found: tuple[Suggestion, ...] = ()
    if with_suggestions and chosen.status in (FitStatus.NO, FitStatus.TIGHT):
        found = tuple(suggestions(arch, job, resolved, pins, margin))
    return BuildResult(entry=entry, resolved=resolved, estimate=chosen.estimate, chosen=chosen,
                       plan_text=plan_words(chosen.plan, resolved, job.mode, pins.any), status=chosen.status,
                       suggestions=found, problems=_problem_lines(chosen.problems), warnings=warnings,
                       detailed=not quick, **money_fields)


def detailed(arch: ModelArch | None, r: BuildResult) -> BuildResult:
    """``r`` with the whole estimate of its plan (``estimate``: the rule of thumb, the parameter counts and the
    assumptions that ``evaluate_build(quick=True)`` leaves out)."""
    if r.detailed or arch is None or r.chosen is None or r.resolved is None:
        return r
    est = estimate(arch, r.chosen.planned, r.resolved)
    return dataclasses.replace(r, estimate=est, chosen=dataclasses.replace(r.chosen, estimate=est), detailed=True)


def detailed_results(arch: ModelArch | None, results: Results) -> Results:
    """``results`` with every build ``detailed``."""
    if all(r.detailed for r in results.builds):
        return results
    return dataclasses.replace(results, builds=tuple(detailed(arch, r) for r in results.builds))


def evaluate(catalog: Catalog | None, arch: ModelArch | None, workload: Job, entries: tuple[BuildEntry, ...],
             curves: tuple[dict[str, np.ndarray], str] | None = None, margin: float = 0.0,
             prepared: tuple[PreparedBuild, ...] | None = None, suggest: bool = True) -> Results:
    """Everything the views need after one change (``curves`` reused when the workload did not change).

    The curves are the whole model's memory without a build, per technique (the plot's curves); each
    build's largest model per technique comes from its own plan search (``largest``).
    ``margin``: the memory estimate's relative error, inside which a fit is "tight".
    ``prepared``: each entry's ``prepare_build`` kept from an earlier change (same catalog).
    ``suggest=False``: neither "what would make it fit" nor the largest models (``background_search``
    adds them later).
    """
    curves = curves if curves is not None else fit_curves(job_of(workload))
    if prepared is not None and len(prepared) != len(entries):
        raise ValueError("one prepared build per entry")
    builds = [evaluate_build(catalog, arch, workload, entry, margin, suggest, prepared[i] if prepared is not None else None)
              for i, entry in enumerate(entries)]
    results = assemble(arch, workload, builds, curves)
    if suggest and arch is not None:
        results = with_largest_fits(results, largest_fits_for(workload, fit_inputs(results), margin))
    return results


def assemble(arch: ModelArch | None, workload: Job, builds: list[BuildResult],
             curves: tuple[dict[str, np.ndarray], str]) -> Results:
    """``Results`` from each build's ``evaluate_build`` (the window computes them a few at a time) and
    the chosen model's size and need (the star on the curves); the largest models come later
    (``with_largest_fits``)."""
    job = _job_of(workload)
    curve_map, current = curves
    chosen_need = chosen_params = None
    if arch is not None:
        # The marker sits on the curves' footing: memory without a build (a vLLM estimate with a
        # build is the card's pre-allocated share, which the curves do not include).
        try:  # the total only: a training job's words are not built (the same breakdown, estimate_training)
            chosen_need = estimate_memory(arch, alone(job), detail=False).breakdown.total
            chosen_params = count_params(arch).total
        except ValueError:  # unknown format: the builds already say why
            pass
    return Results(tuple(builds), curve_map, current, chosen_params, chosen_need)
