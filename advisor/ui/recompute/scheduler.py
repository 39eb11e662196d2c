"""The recompute scheduler: when and where each part of a change is computed.

A change is computed in two steps: each build's estimate, checks and price first (the table and the
verdict), then the fit plot's sweep over model sizes, drawn after the table has painted. The builds
run on the UI thread a few per turn of the event loop (``SLICE_MS``, ``turns.BuildsPass``), so a key
typed meanwhile waits at most one turn; the sweep, which depends on the job alone, is sent at the
change to the core's own process (``advisor.ui.core_process``) and computed there beside the builds
— on the UI thread in the same turns as the builds until that process is ready, or if it cannot run.
What follows a long turn of computing waits for the next turn (``turns.SPLIT_AFTER_MS``); a newer
change drops the sweep under way, and a sweep for a workload no longer current is kept, never shown.
The search for what would make a build fit runs in the same process (on a worker thread if that
process cannot run) once the job stays put (``SUGGEST_DELAY_MS``; ``search.SearchRunner``). Each
change is a new generation: an answer for an older one is never shown.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from advisor.ui.recompute import turns
from advisor.ui.recompute.background_search import SearchRunner
from advisor.ui.recompute.turns import BuildsPass, CurveCache, Progress, SweepRun, Turn

if TYPE_CHECKING:
    from advisor.core import BuildEntry, Catalog, Job, ModelArch, PreparedBuild, Results
    from advisor.ui.core_process import CoreProcess

#: Sweeps remembered by workload: an undo, a redo or a value typed again draws at once.
CURVE_CACHE_SIZE = 8
#: The search for what would make a build fit starts once the job has stayed the same this long: it
#: takes a good part of a second for six builds in training, so it is not started for each key typed (the table and
#: the plots are).
SUGGEST_DELAY_MS = 250
#: The builds' estimates run on the UI thread a few builds per turn of the event loop: another build
#: is started in the same turn only while the turn has used less than this (a key typed meanwhile
#: waits at most this plus one build). A change made before the last build is done starts the pass
#: again for the new state. The fit sweep runs in turns of the same length, one model size at a time:
#: on a worker thread it stalled the UI thread more, both threads taking turns at the interpreter lock
#: (``benchmarks/ui_recompute.py --train --stages``; figures in benchmarks/README.md).
SLICE_MS = 8.0
#: Prepared builds kept at most (entries edited away long ago are dropped).
PREPARED_KEPT = 64


@dataclasses.dataclass(frozen=True)
class Inputs:
    """What a change is computed from: the catalog, the model, the job and the builds, and the memory
    estimate's relative error inside which a fit is "tight"."""

    catalog: Catalog | None
    arch: ModelArch | None
    workload: Job
    builds: tuple[BuildEntry, ...]
    margin: float = 0.0


def with_curves(results: Results, curves: turns.Curves) -> Results:
    """``results`` with the fit sweep in: each technique's curve (each build's largest model comes with
    the search, ``evaluate.background_search``)."""
    curve_map, current = curves
    return dataclasses.replace(results, curves=curve_map, current_technique=current)


class RecomputeScheduler(QObject):
    """Computes the results of the latest ``Inputs`` in steps, and says when each step is in.

    Signals (past-tense events):
      results_computed(object)     ``evaluate.Results`` of the latest inputs: every build's estimate,
                                   checks and price; the sweep may still run (``sweep_pending``)
      curves_computed(object)      the fit sweep of the latest workload is in ``results``
      suggestions_computed(object) what would make each build fit, and each build's largest model,
                                   are in ``results`` (``suggestions_pending`` until then)
      problem_reported(str)        a sweep or a search failed; the text says why (the rest stands)
    """

    results_computed = Signal(object)
    curves_computed = Signal(object)
    suggestions_computed = Signal(object)
    problem_reported = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.inputs: Inputs | None = None  # the latest state asked for
        self.results: Results | None = None  # the latest computed; the previous state's while a pass runs
        self.results_inputs: Inputs | None = None  # what ``results`` were computed from
        self.slice_ms: float = SLICE_MS  # tests set it to inf: every change computed at once
        self.core_process: CoreProcess | None = None
        self.generation = 0  # counts recomputes: a search's answer is shown only for its own
        self._closed = False  # ``close``: the window went; nothing more is started
        self._prepared: dict[BuildEntry, PreparedBuild] = {}  # for the catalog of the latest inputs
        self._pass: BuildsPass | None = None
        self._sweep_run: SweepRun | None = None  # the fit sweep under way (one at a time)
        self._curve_cache = CurveCache(CURVE_CACHE_SIZE)
        self._suggest_pending = False  # the current results still lack their suggestions
        self.search = SearchRunner(self)
        self.search.answered.connect(self._on_search_answered)
        self._pass_timer = self._timer(0, self._continue_pass)
        # The sweep starts after the table and the verdict have painted: a QTimer object with a 0 ms
        # interval fires after the pending paint (QTimer.singleShot(0) would run before it).
        self._sweep_timer = self._timer(0, self._start_sweep)
        self._sweep_step_timer = self._timer(0, self._continue_sweep)  # the sweep's next turn
        self._suggest_timer = self._timer(SUGGEST_DELAY_MS, self._start_search)

    def _timer(self, interval_ms: int, slot: Callable[[], None]) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(interval_ms)
        timer.timeout.connect(slot)
        return timer

    def set_core_process(self, process: CoreProcess | None) -> None:
        """The process that computes the sweeps and the search; None: the UI thread and the worker thread."""
        self.core_process = process
        self.search.set_process(process)
        if process is not None:
            process.swept.connect(self._on_swept)

    def forget_prepared(self) -> None:
        """Builds resolve, price and check again (a new catalog)."""
        self._prepared.clear()

    # --- state ----------------------------------------------------------------------
    @property
    def results_pending(self) -> bool:
        """True while the builds' estimates of the latest inputs are still being computed."""
        return self._pass is not None

    @property
    def sweep_pending(self) -> bool:
        """True while the fit curves of the current results are still being computed."""
        return self.results is not None and self.inputs is not None and self.inputs.workload not in self._curve_cache

    @property
    def suggestions_pending(self) -> bool:
        """True while what would make the current results' builds fit is still being looked for."""
        return self._suggest_pending

    def _slice(self) -> float:
        return math.inf if self._closed else self.slice_ms

    def _process_ready(self) -> bool:
        return (self.core_process is not None and self.core_process.ready and self.slice_ms != math.inf
                and not self._closed)

    # --- the builds' pass -------------------------------------------------------------
    def recompute(self, inputs: Inputs) -> None:
        """Compute ``inputs``: ``results_computed`` when every build is in (``results`` stays the previous
        state's until then), then ``curves_computed`` and ``suggestions_computed``."""
        from advisor.core import technique_workloads

        self.inputs = inputs
        workload = inputs.workload
        curves = self._curve_cache.get(workload)
        # Without the sweep: no curves and no largest fits until it is in (``with_curves``).
        given = curves if curves is not None else ({}, technique_workloads(workload)[1])
        self.generation += 1
        self._suggest_pending = False  # looked for again once this state's builds are in
        self._suggest_timer.stop()
        run = self._sweep_run
        if run is not None and run.workload != workload:
            if run.out is not None and not isinstance(run.out, Exception):
                self._curve_cache.put(run.workload, run.out)  # computed: kept, not drawn
            self._drop_sweep()  # superseded: this state's sweep starts after its builds are in
        if curves is None and self._process_ready():
            self.core_process.submit_sweep(workload)  # beside the builds' estimates, on another core
        self._pass = BuildsPass(inputs.catalog, inputs.arch, workload, inputs.builds, self._prepare(inputs),
                                given, inputs.margin)
        self._continue_pass()

    def _prepare(self, inputs: Inputs) -> tuple[PreparedBuild, ...]:
        """Each build's resolution, price and checks, kept by entry until the catalog changes."""
        from advisor.core import prepare_build

        if len(self._prepared) > PREPARED_KEPT:
            self._prepared.clear()
        out = []
        for entry in inputs.builds:
            try:
                p = self._prepared.get(entry)
            except TypeError:  # an inline build holding lists (this machine): prepared each time
                out.append(prepare_build(inputs.catalog, entry))
                continue
            if p is None:
                p = self._prepared[entry] = prepare_build(inputs.catalog, entry)
            out.append(p)
        return tuple(out)

    def _continue_pass(self) -> None:
        from advisor.core import assemble

        p = self._pass
        if p is None:
            return
        turn = Turn(self._slice())
        progress = p.advance(turn)
        if progress is Progress.SPENT or (progress is Progress.COMPUTED and turn.split()):
            self._pass_timer.start()  # the next builds, or the ranking and the table, in the next turn
            return
        self._pass = None
        cached = self._curve_cache.get(p.workload)  # the sweep may have come in while the builds were done
        self.results = assemble(p.arch, p.workload, p.done, cached or p.curves)
        self.results_inputs = self.inputs
        # The search after the job stays put: what would make a build fit, and every build's largest model.
        self._suggest_pending = p.arch is not None and any(r.chosen is not None for r in self.results.builds)
        self.results_computed.emit(self.results)
        if cached is not None:
            self.curves_computed.emit(self.results)
        if self._closed:
            return
        if self.core_process is not None and self.slice_ms != math.inf:
            self.core_process.start()  # once: after the first results, so never before the first paint
        if self.sweep_pending:
            self._sweep_timer.start()  # after the table's paint; a running sweep's end starts the next
        if self._suggest_pending:
            self._suggest_timer.start()  # (re)started: once the job stays put

    # --- the fit sweep -----------------------------------------------------------------
    def _start_sweep(self) -> None:
        """The fit sweep of the current workload (the visible plot waits on it), once the builds'
        estimates are in and the table has painted."""
        if self._pass is not None or self._closed or not self.sweep_pending:
            return
        workload = self.inputs.workload
        if self._sweep_run is None:
            if self.core_process is not None and self.core_process.pending(workload):
                return  # the core's process computes it (``_on_swept`` draws it)
            from advisor.core import fit_curve_steps

            self._sweep_run = SweepRun(workload, fit_curve_steps(workload))
        elif self._sweep_step_timer.isActive():
            return  # under way: its next turn is due
        elif self._sweep_run.out is not None:  # from its process: drawn a turn after the table's paint,
            self._sweep_step_timer.start()     # not in one stall with it
            return
        self._continue_sweep()

    def _continue_sweep(self) -> None:
        """One turn of the sweep: model sizes until the turn has used ``SLICE_MS``, then the next turn;
        at the end (or a turn later, after a long turn), ``_on_sweep_finished``."""
        run = self._sweep_run
        if run is None or self._pass is not None:
            return  # none, or paused while the builds' estimates are computed (their end resumes it)
        turn = Turn(self._slice())
        progress = run.advance(turn)
        if progress is Progress.SPENT:
            self._sweep_step_timer.start()  # keys and paints first
            return
        if progress is Progress.COMPUTED and turn.split():
            self._sweep_step_timer.start()  # the plot's redraw in the next turn
            return
        self._sweep_run = None
        self._on_sweep_finished(run.workload, run.out)

    def _drop_sweep(self) -> None:
        self._sweep_run = None
        self._sweep_step_timer.stop()

    def _on_swept(self, workload: Job, out: Any) -> None:
        """A sweep from the core's process: drawn once the table has painted (as a sweep computed here
        would be), kept for undo if the job has changed since; if the process died, the UI thread sweeps."""
        if self._closed:
            return
        if out is None:  # the process died
            self._start_sweep()  # this change's sweep, here (no more are sent there)
            return
        if self.inputs is None or workload != self.inputs.workload:
            if not isinstance(out, Exception):
                self._curve_cache.put(workload, out)
            return
        if workload in self._curve_cache:
            return  # drawn already
        self._drop_sweep()
        self._sweep_run = SweepRun(workload, None, out)
        if self._pass is None and self.results is not None and not self._sweep_timer.isActive():
            self._continue_sweep()  # the table has painted: the plot's redraw now
        # else the end of the builds' pass, then the table's paint, come first (``_sweep_timer``)

    def _on_sweep_finished(self, workload: Job, out: Any) -> None:
        if isinstance(out, Exception):  # said once; the table and the other plots stand
            self.problem_reported.emit(f"fit curves: {out}")
            return
        self._curve_cache.put(workload, out)
        if workload == self.inputs.workload and self.results is not None and self._pass is None:
            self.results = with_curves(self.results, out)
            self.curves_computed.emit(self.results)
        else:  # not for the state on screen now: kept (a pass of its workload takes it), not shown
            self._start_sweep()

    # --- the search for what would make a build fit ---------------------------------------
    def _start_search(self) -> None:
        """What would make the current results' builds fit; a newer change stops it within one plan
        search (its answer would not be shown)."""
        if (self.search.busy or not self._suggest_pending or self._suggest_timer.isActive()
                or self._pass is not None or self._closed):
            return  # one runs (its end starts this one), none is needed, or the job is still changing
        generation, inputs = self.generation, self.inputs
        self.search.submit(generation, inputs.arch, inputs.workload, self.results, inputs.margin,
                           self._process_ready(), cancelled=lambda: generation != self.generation)

    def _on_search_answered(self, generation: int, out: Any) -> None:
        if self._closed:
            return
        if out is None or generation != self.generation:  # stopped, skipped or lost: look again for this state
            self._start_search()
            return
        self._suggest_pending = False
        if isinstance(out, Exception):  # said once; the numbers stand without the suggestions
            self.problem_reported.emit(f"what would make it fit: {out}")
            self.suggestions_computed.emit(self.results)  # the views waiting on it draw what there is
            return
        from advisor.core import with_search

        self.results = with_search(self.results, out)
        self.suggestions_computed.emit(self.results)

    def close(self) -> None:
        """The window is closing: no pass, sweep or search starts any more (their timers are stopped, a
        sweep under way is dropped), and the job running on the worker is waited for — a job left
        running, or started by a timer after the window went, would report to a scheduler being
        destroyed (a crash, or a pool that waits for it while holding the interpreter lock)."""
        self._closed = True
        self.generation += 1  # a search under way on the worker thread stops within one plan search
        self._pass = None  # a pass left half done is dropped (after this, a change is computed at once)
        self._drop_sweep()
        for timer in (self._pass_timer, self._sweep_timer, self._suggest_timer):
            timer.stop()
        self.search.close()
        if self.core_process is not None:
            self.core_process.close()
