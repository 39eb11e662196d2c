"""A candidate the catalog search found, with its plans and speed, and the search's answer.

Apart from the search so that its passes (``passes``) can name what they reorder without importing the search.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.core.advice.candidates import Candidate
from advisor.core.plan.planner import ChosenPlan
from advisor.core.speed.basis import SpeedBasis


@dataclass(frozen=True)
class Found:
    candidate: Candidate
    chosen: tuple[ChosenPlan, ...]  # one per job
    plans_text: tuple[str, ...]
    speed_score: float | None  # geometric mean of the jobs' headline tokens/s
    reasons: tuple[str, ...] = field(default=())
    basis: tuple[SpeedBasis, ...] = ()  # per job: calibrated or extrapolated, with its band
    factor: float = 1.0  # what the ranking multiplies the speed by (extrapolated: the low end of its band)
    unusable: str | None = None  # why some job does not run at a usable speed (None: usable)
    folded: tuple[Found, ...] = ()  # candidates no better than this one, folded under it

    @property
    def rank_speed(self) -> float | None:
        """The speed the ranking compares: the estimate, or the low end of its band when extrapolated."""
        return self.speed_score * self.factor if self.speed_score else None

    @property
    def usable(self) -> bool:
        return self.unusable is None

    @property
    def calibrated(self) -> bool:
        return bool(self.basis) and all(b.calibrated for b in self.basis)

    @property
    def value(self) -> float | None:
        """Price per token/s (the ranking's: stale price parts at their high end, extrapolated speeds low)."""
        c = self.candidate
        return c.rank_usd / self.rank_speed if c.rank_usd is not None and self.rank_speed else None


@dataclass(frozen=True)
class SearchResult:
    ranked: tuple[Found, ...]
    pareto: tuple[Found, ...]
    considered: int
    assumptions: tuple[str, ...]
