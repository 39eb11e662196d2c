"""The slow answers of an evaluation: what would make each build fit, and each build's largest model.

Each is a plan search per change tried or per model size, so the window runs them off its UI thread
(or in another process) after the table is on screen; ``evaluate`` runs them inline unless told not to.
The ``*_inputs`` functions pick what a search reads of the results, small enough to send to a process.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from advisor.core.advice.build_results import BuildResult, Results, SearchAnswer
from advisor.core.advice.fit_curves import technique_workloads
from advisor.core.advice.largest import FitInput, anchored, largest_fits
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.job import Job
from advisor.core.job.planned import PlanPins, job_of
from advisor.core.model.arch import ModelArch
from advisor.core.plan.planner import FitStatus
from advisor.core.plan.suggest import SearchCancelled, Suggestion, suggestions

#: Per build: the build and its pinned plan, or None where nothing is looked for.
SuggestionInput = tuple[ResolvedBuild, PlanPins] | None
#: Per build: what would make it fit, or None where nothing was looked for.
Found = tuple[tuple[Suggestion, ...] | None, ...]
#: Per build: technique → the largest generic decoder it runs, or None where nothing was looked for.
Largest = tuple[dict[str, float | None] | None, ...]


def needs_suggestions(r: BuildResult) -> bool:
    """A build that does not fit, or fits tightly: what would make it fit is worth finding."""
    return r.chosen is not None and r.resolved is not None and r.status in (FitStatus.NO, FitStatus.TIGHT)


def find_suggestions(arch: ModelArch, workload: Job, results: Results, margin: float = 0.0,
                     cancelled: Callable[[], bool] | None = None) -> Found | None:
    """Per build of ``results``: what would make it fit (None where nothing is looked for).

    The slow part of an evaluation (a plan search per change tried: 20–470 ms for six builds in
    training, measured with benchmarks/ui_recompute.py's builds), so the window runs it off its UI
    thread after the table is on screen; ``evaluate`` runs it inline unless told not to.
    ``cancelled``: asked before each build and each re-estimate within one; when it says True the
    search stops and returns None (a newer change waits at most one plan search for the worker)."""
    return suggestions_for(arch, workload, suggestion_inputs(results), margin, cancelled)


def suggestion_inputs(results: Results) -> tuple[SuggestionInput, ...]:
    """What ``find_suggestions`` reads of each build: the build and its pinned plan, or None where
    nothing is looked for (a fraction of the results, for a search run in another process)."""
    return tuple(_build_and_pins(r) if needs_suggestions(r) else None for r in results.builds)


def _build_and_pins(r: BuildResult) -> SuggestionInput:
    return None if r.resolved is None else (r.resolved, r.entry.plan or PlanPins())


def suggestions_for(arch: ModelArch, workload: Job, inputs: tuple[SuggestionInput, ...],
                    margin: float = 0.0, cancelled: Callable[[], bool] | None = None) -> Found | None:
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
    return tuple(_build_and_pins(r) if r.chosen is not None else None for r in results.builds)


def largest_fits_for(workload: Job, inputs: tuple[FitInput, ...], margin: float = 0.0,
                     cancelled: Callable[[], bool] | None = None) -> Largest | None:
    """Per build: the largest generic decoder its plan search runs, per fit-plot technique (None: cancelled)."""
    return largest_fits(technique_workloads(workload)[0], inputs, margin, cancelled)


def with_largest_fits(results: Results, found: Largest) -> Results:
    """``results`` with each build's largest sizes in, the current technique's held to its verdict
    (``largest.anchored``)."""
    builds = tuple(r if f is None else dataclasses.replace(
        r, largest_fit=anchored(f, results.current_technique, results.chosen_params, r.runs))
        for r, f in zip(results.builds, found, strict=True))
    return dataclasses.replace(results, builds=builds, fits_found=True)


def background_search(arch: ModelArch, workload: Job, inputs: tuple[SuggestionInput, ...],
                      margin: float = 0.0, fits: tuple[FitInput, ...] | None = None,
                      cancelled: Callable[[], bool] | None = None) -> SearchAnswer | Found | None:
    """What the window computes once the job stays put: what would make each build fit
    (``suggestions_for``) and, given ``fits``, each build's largest model (``largest_fits_for``) in a
    ``SearchAnswer``; None when cancelled. Without ``fits``: the suggestions alone."""
    found = suggestions_for(arch, workload, inputs, margin, cancelled)
    if fits is None or found is None:
        return found
    largest = largest_fits_for(workload, fits, margin, cancelled)
    return None if largest is None else SearchAnswer(found, largest)


def with_search(results: Results, out: SearchAnswer | Found) -> Results:
    """``results`` with ``background_search``'s answer in."""
    if isinstance(out, SearchAnswer):
        return with_largest_fits(with_suggestions(results, out.suggestions), out.largest)
    return with_suggestions(results, out)


def with_suggestions(results: Results, found: Found) -> Results:
    """``results`` with ``find_suggestions``' answer in (the other fields untouched)."""
    builds = tuple(r if f is None else dataclasses.replace(r, suggestions=f)
                   for r, f in zip(results.builds, found, strict=True))
    return dataclasses.replace(results, builds=builds)
