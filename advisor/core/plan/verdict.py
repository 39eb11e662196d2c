"""What the plan search answers: whether a plan runs (``FitStatus``) and the plan chosen for a build.

``SPEED_TIE`` lives here too: the planner, the ranking and the catalog search all read a speed lead within it
as no lead.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from advisor.core.estimation.estimator import FitFigures
from advisor.core.estimation.job_checks import Problem
from advisor.core.estimation.results import Estimate, Fit
from advisor.core.job.choices import Mode
from advisor.core.job.planned import Plan, PlannedJob

#: Speeds within 15 % are a tie: the speed estimate's own error is about that large (median
#: error of single-GPU llama.cpp decode against published llama-bench rows, benchmarks/README.md), so a
#: smaller lead is not evidence enough to leave the engine's usual layout.
SPEED_TIE = 0.15


class FitStatus(StrEnum):
    FITS = "fits"
    TIGHT = "tight"  # fits, but within the estimate's measured error of the usable memory
    NO = "does not fit"
    BLOCKED = "cannot run as set"  # the job contradicts itself or this build

    @property
    def runs(self) -> bool:
        return self in (FitStatus.FITS, FitStatus.TIGHT)


@dataclass(frozen=True)
class ChosenPlan:
    """The plan chosen for one build and one job, the planned job and its estimate, and how it was chosen."""

    plan: Plan
    planned: PlannedJob  # the job with the plan applied
    estimate: Estimate
    status: FitStatus
    pinned: bool = False
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()
    considered: int = 1

    @property
    def unsupported(self) -> bool:
        """The software does not run the job on this build (``advisor.core.support``): "cannot run", where a
        contradiction of the settings is "cannot run as set"."""
        return bool(self.problems) and self.problems[0].support

    @property
    def headline_tokens_per_s(self) -> float | None:
        s = self.estimate.speed
        return s.train_tokens_per_s if self.planned.mode is Mode.TRAIN else s.decode_tokens_per_s


def fit_status(est: Estimate, problems: tuple[Problem, ...], margin: float) -> FitStatus:
    """Fits / tight / does not fit / blocked. ``margin``: the estimate's relative error (e.g. the
    measured median of its group), inside which a fit is called tight."""
    return status_of(est.fit, problems, margin)


def status_of(fit: Fit | FitFigures | None, problems: tuple[Problem, ...], margin: float) -> FitStatus:
    """``fit_status`` from the fit's figures alone (a probe has no estimate)."""
    if problems:
        return FitStatus.BLOCKED
    if fit is None or not fit.fits:
        return FitStatus.NO
    return FitStatus.TIGHT if fit.need_per_gpu_bytes * (1 + margin) > fit.usable_per_gpu_bytes else FitStatus.FITS
