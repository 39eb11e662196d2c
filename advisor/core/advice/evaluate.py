"""One evaluation of a comparison: every build's estimate, checks, price, and the fit curves.

The window (after each change), the PDF and ``llm-advisor report`` all call ``evaluate``,
so screen and paper carry the same numbers. A build that cannot be resolved or estimated
becomes a message on that build, never a crash and never a made-up number.

The result types (``build_results``), the lookups and prices (``resolve``), the fit curves
(``fit_curves``) and the slow searches (``background``) live in their own modules; their names are
re-exported here, the one module the window, the CLI and the PDF import for an evaluation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from advisor.core.advice.background import (
    background_search,
    find_suggestions,
    fit_inputs,
    largest_fits_for,
    needs_suggestions,
    suggestion_inputs,
    suggestions_for,
    with_largest_fits,
    with_search,
    with_suggestions,
)
from advisor.core.advice.build_results import BuildResult, MoneyFields, PreparedBuild, Results, SearchAnswer
from advisor.core.advice.comparison import BuildEntry
from advisor.core.advice.fit_curves import (
    CURVE_PARAMS,
    INFERENCE_TECHNIQUES,
    TRAINING_TECHNIQUES,
    Curve,
    fit_curve_steps,
    fit_curves,
    largest_fitting,
    technique_workloads,
)
from advisor.core.advice.resolve import money, resolve_entry, resolve_model
from advisor.core.estimation.estimator import estimate
from advisor.core.estimation.job_checks import Problem, check_planned
from advisor.core.hardware.catalog import Catalog
from advisor.core.hardware.checks import check_build
from advisor.core.job.job import Job
from advisor.core.job.planned import PlanPins, alone, job_of
from advisor.core.memo import KeepLast
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params
from advisor.core.plan.planner import FitStatus, best_plan
from advisor.core.plan.suggest import Suggestion, suggestions
from advisor.core.plan.words import plan_words

__all__ = [
    "CURVE_PARAMS", "INFERENCE_TECHNIQUES", "TRAINING_TECHNIQUES", "BuildResult", "Curve", "MoneyFields",
    "PreparedBuild", "Results", "SearchAnswer", "assemble", "background_search", "detailed", "detailed_results",
    "evaluate", "evaluate_build", "find_suggestions", "fit_curve_steps", "fit_curves", "fit_inputs",
    "largest_fits_for", "largest_fitting", "money", "needs_suggestions", "prepare_build", "resolve_entry",
    "resolve_model", "suggestion_inputs", "suggestions_for", "technique_workloads", "with_largest_fits",
    "with_search", "with_suggestions",
]


@KeepLast
def _job_of(workload: Job) -> Job:
    """``job_of(workload)``; the last one is kept, so every build of a pass plans the same job object (the
    plan search shares a training job's probes between builds of as many GPUs)."""
    return job_of(workload)


def _problem_lines(problems: Iterable[Problem]) -> tuple[str, ...]:
    return tuple(f"{p.field}: {p.message}" if p.field else p.message for p in problems)


def prepare_build(catalog: Catalog | None, entry: BuildEntry) -> PreparedBuild:
    try:
        resolved = resolve_entry(catalog, entry)
    except (LookupError, ValueError) as exc:  # unknown id, incomplete system: said on the build
        return PreparedBuild(resolved=None, money=None, error=f"cannot resolve: {exc}")
    warnings = tuple(f"{w.severity.value}: {w.message}" for w in check_build(resolved))
    return PreparedBuild(resolved=resolved, money=money(catalog, entry, resolved), warnings=warnings)


def evaluate_build(catalog: Catalog | None, arch: ModelArch | None, workload: Job, entry: BuildEntry,
                   margin: float = 0.0, with_suggestions: bool = True,
                   prepared: PreparedBuild | None = None, quick: bool = False) -> BuildResult:
    """One build: its best plan for the job (or the plan pinned on the entry), estimate, checks, price.

    ``quick``: the estimate without what only the Details tab shows (``best_plan(quick=True)``: no rule of
    thumb, parameter counts or assumptions; memory, speed and fit are the same); ``detailed`` adds it. The
    window's pass after each change takes it: 13.5 % fewer instructions in a training pass of six builds, 15 % in
    an inference one (benchmarks/README.md, fifteenth session)."""
    if prepared is None:
        prepared = prepare_build(catalog, entry)
    if prepared.resolved is None or prepared.money is None:
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
             curves: tuple[dict[str, Curve], str] | None = None, margin: float = 0.0,
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
        found = largest_fits_for(workload, fit_inputs(results), margin)
        if found is not None:  # None only when cancelled, and nothing cancels this search
            results = with_largest_fits(results, found)
    return results


def assemble(arch: ModelArch | None, workload: Job, builds: list[BuildResult],
             curves: tuple[dict[str, Curve], str]) -> Results:
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
