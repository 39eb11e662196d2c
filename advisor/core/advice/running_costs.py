"""The running costs of a comparison's builds, as data: what ``running.running_costs`` computes once and
the window's Value tab, its plot and the PDF read (so none of them computes a cost of its own).

Types only: ``evaluate.Results`` carries a ``RunningCosts`` without importing the functions that make it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from advisor.core.cost.running import CHINCHILLA_SOURCE, CostSettings, RunningCost


@dataclass(frozen=True)
class BreakEven:
    owned: str
    price_usd: float
    energy_usd_per_hour: float | None
    hours: float | None  # None: renting costs no more per hour than the owned build's power, or power unknown

    @property
    def verdict(self) -> str:
        """Why there are no break-even hours, in words: unknown (power not stated) is not "never"."""
        if self.hours is not None:
            return ""
        if self.energy_usd_per_hour is None:
            return "break-even not known: its power is not stated"
        return "never breaks even: renting costs less per hour than its electricity"


@dataclass(frozen=True)
class RentVsBuy:
    cloud: str | None  # the cheapest rented build in the comparison that runs the job
    cloud_usd_per_hour: float | None
    rows: tuple[BreakEven, ...]
    why_none: str = ""  # when there is no comparison: why, in words


@dataclass(frozen=True)
class ChinchillaRow:
    name: str
    hours: float | None
    gpu_days: float | None
    usd: float | None


@dataclass(frozen=True)
class ChinchillaPlan:
    params: float
    tokens: float
    flops: float
    rows: tuple[ChinchillaRow, ...]
    source: str = CHINCHILLA_SOURCE


@dataclass(frozen=True)
class RunningCosts:
    """Every build's running cost under one set of cost settings on one day, and what follows from them."""

    settings: CostSettings
    today: dt.date
    builds: tuple[RunningCost, ...]  # one per build of the results, in order
    gaps: tuple[str, ...]  # per build, what its cost per million tokens lacks, in words ("" when it has one)
    rent_vs_buy: RentVsBuy
    chinchilla: ChinchillaPlan | None = None  # when the job is a compute-optimal pre-training run
