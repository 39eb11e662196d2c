"""What one evaluation hands the views: each build's result and the comparison's results.

Frozen dataclasses the window, the PDF and the CLI read; ``evaluate`` builds them and the ``with_*``
functions return copies with the slower answers (suggestions, largest models, running costs) in.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TypedDict

from advisor.core.advice.comparison import BuildEntry
from advisor.core.advice.fit_curves import CURVE_PARAMS, Curve
from advisor.core.advice.largest import SIZE_HI
from advisor.core.advice.running_costs import RunningCosts
from advisor.core.cost.machine import MachinePrice
from advisor.core.estimation.results import Estimate
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.plan.planner import ChosenPlan, FitStatus
from advisor.core.plan.suggest import Suggestion
from advisor.core.speed.basis import SpeedBasis


class MoneyFields(TypedDict):
    """A build's prices and power (``resolve.money``), as ``BuildResult``'s fields of the same names."""

    power_w: float | None
    price_gpus_only: bool
    price: MachinePrice
    price_new: MachinePrice | None
    price_used: MachinePrice | None
    price_new_usd: float | None
    price_used_usd: float | None
    usd_per_hour: float | None
    price_date: dt.date | None
    price_note: str


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
    curves: dict[str, Curve]  # technique label → per-GPU bytes at CURVE_PARAMS (NaN: no estimate)
    current_technique: str
    chosen_params: float | None
    chosen_need_bytes: float | None
    notice: str | None = None  # why something could not be computed, said once
    fits_found: bool = False  # each build's largest model is in (``with_largest_fits``)
    #: Every build's running cost under the user's cost settings, added by the caller that holds them
    #: (``running.with_running_costs``); None until then. Renderers read it and compute no cost.
    running: RunningCosts | None = None
    #: The model sizes of ``curves`` (parameters): the fit plot's x axis.
    curve_params: Curve = field(default_factory=lambda: CURVE_PARAMS)
    #: The top of each build's largest-model search (parameters): a largest fit there runs that size or more.
    largest_top_params: float = SIZE_HI


@dataclass(frozen=True)
class PreparedBuild:
    """What a build is before any job: its resolution, price, power and checks (``prepare_build``).

    The window keeps these by comparison entry until the catalog changes: resolving six builds, pricing
    them and running their checks was a fifth of each change's work (benchmarks/README.md)."""

    resolved: ResolvedBuild | None
    money: MoneyFields | None
    warnings: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class SearchAnswer:
    """``background_search``'s answer: per build, what would make it fit and its largest models."""

    suggestions: tuple[tuple[Suggestion, ...] | None, ...]
    largest: tuple[dict[str, float | None] | None, ...]
