"""Work done a turn of the event loop at a time (Qt-free): the builds' estimates and the fit sweep.

Each piece of work runs until the turn has used ``slice_ms`` and then hands the UI thread back, so a
key typed meanwhile waits at most one turn; the scheduler (``advisor.ui.recompute.scheduler``)
starts the next turn from a timer. What follows a long turn of computing (the table's redraw after
the builds, the plot's after the sweep) goes to the next turn (``Turn.split``).
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from advisor.core import BuildEntry, BuildResult, Catalog, Job, ModelArch, PreparedBuild

#: A turn that spent this long computing builds (or model sizes of the sweep) leaves what follows
#: them — the ranking and the table's redraw, or the Fit plot's redraw — to the next turn: the two
#: together, then the paint, made the window's longest stalls with six builds in training
#: (``benchmarks/ui_stalls.py``). Below it (an inference job's quick pass) the table follows in the
#: same turn, a turn earlier.
SPLIT_AFTER_MS = 2.0

#: Each technique's fit curve (bytes at the plot's model sizes) and the job's own technique.
Curves = tuple[dict[str, Any], str]


class Turn:
    """The time used in one turn of the event loop, against its budget ``slice_ms`` (inf: no limit)."""

    def __init__(self, slice_ms: float) -> None:
        self.slice_ms = slice_ms
        self.start = time.perf_counter()

    def used_ms(self) -> float:
        return (time.perf_counter() - self.start) * 1e3

    def spent(self) -> bool:
        """The turn has used its budget: the rest waits for the next one (keys and paints first)."""
        return self.used_ms() >= self.slice_ms

    def split(self) -> bool:
        """This turn computed long enough that what follows the work goes to the next one."""
        return self.slice_ms != math.inf and self.used_ms() >= min(self.slice_ms, SPLIT_AFTER_MS)


class Progress(enum.Enum):
    SPENT = "spent"  # the turn's budget is used: come back in the next turn
    COMPUTED = "computed"  # the work is done, some of it in this turn
    IDLE = "idle"  # the work was done already: nothing computed in this turn


@dataclass
class BuildsPass:
    """One state's builds being estimated, a few per turn: its inputs and the builds done."""

    catalog: Catalog | None
    arch: ModelArch | None
    workload: Job
    entries: tuple[BuildEntry, ...]
    prepared: tuple[PreparedBuild, ...]
    curves: Curves
    margin: float
    done: list[BuildResult] = field(default_factory=list)

    def advance(self, turn: Turn) -> Progress:
        """Estimate builds until all are in or the turn is spent (the Details tab adds what ``quick`` leaves out)."""
        from advisor.core import evaluate_build

        computed = False
        while len(self.done) < len(self.entries):
            i = len(self.done)
            self.done.append(evaluate_build(self.catalog, self.arch, self.workload, self.entries[i],
                                            self.margin, False, self.prepared[i], quick=True))
            computed = True
            if turn.spent():
                return Progress.SPENT
        return Progress.COMPUTED if computed else Progress.IDLE


@dataclass
class SweepRun:
    """The fit sweep of one workload, a few model sizes per turn; ``out`` once computed (the curves, or
    the exception the sweep raised), then drawn in the same or the next turn."""

    workload: Job
    steps: Generator[None, None, Curves] | None  # ``evaluate.fit_curve_steps(workload)``; None: ``out`` came whole
    out: Curves | Exception | None = None

    def advance(self, turn: Turn) -> Progress:
        """Model sizes until the sweep is done (``out`` set) or the turn is spent."""
        if self.out is not None or self.steps is None:
            return Progress.IDLE
        try:
            while True:
                next(self.steps)
                if turn.spent():
                    return Progress.SPENT
        except StopIteration as done:
            self.out = done.value
        except Exception as exc:  # noqa: BLE001 - said on the status bar; the table and other plots stand
            self.out = exc
        return Progress.COMPUTED


class CurveCache:
    """Sweeps kept by workload, newest last: an undo, a redo or a value typed again draws at once."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._curves: dict[Job, Curves] = {}

    def get(self, workload: Job) -> Curves | None:
        return self._curves.get(workload)

    def __contains__(self, workload: object) -> bool:
        return workload in self._curves

    def put(self, workload: Job, curves: Curves) -> None:
        self._curves.pop(workload, None)
        self._curves[workload] = curves
        while len(self._curves) > self.size:
            del self._curves[next(iter(self._curves))]
