"""The session: the one holder of the app's mutable state, and the one place that recomputes.

Views never keep their own copy of the workload or the builds: they call the setters
here and redraw from the signals. Every setter is an undoable edit on ``undo_stack``
(``advisor.ui.history``); opening or starting a comparison clears it.

A change is computed in two steps (issue 20): each build's estimate, checks, price and the
ranking first (the table and the verdict), then the fit plot's sweep over model sizes, drawn after
the table has painted. The builds run on the UI thread a few per turn of the event loop
(``SLICE_MS``), so a key typed meanwhile waits at most one turn; the sweep, which depends on the job
alone, is sent at the change to a process of its own (``advisor.ui.core_process``) and computed
there beside the builds — on the UI thread in the same turns as the builds until that process is
ready, or if it cannot run. What follows a long turn of computing (the table's redraw after the
builds, the plot's after the sweep) waits for the next turn (``SPLIT_AFTER_MS``); a newer change
drops the sweep under way, and a sweep for a workload no longer current is kept, never shown. The
search for what would make a build fit runs in the same process (on a worker thread if that process
cannot run) once the job stays put (``SUGGEST_DELAY_MS``).
"""

from __future__ import annotations

import dataclasses
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal
from PySide6.QtGui import QUndoStack

from advisor.core.advice.comparison import (
    MAX_BUILDS,
    MIN_BUILDS,
    BuildEntry,
    Comparison,
    ModelRef,
    canonical_comparison,
    unique_name,
)
from advisor.core.advice.criterion import Criterion
from advisor.core.job.plan import PlanPins
from advisor.core.job.workload import Workload
from advisor.core.model.arch import ModelArch
from advisor.storage.settings import Settings
from advisor.ui.history import Snapshot, SnapshotCommand, workload_edit_text

if TYPE_CHECKING:
    from advisor.core.advice.ranking import Ranking

#: Sweeps remembered by workload: an undo, a redo or a value typed again draws at once.
CURVE_CACHE_SIZE = 8
#: The search for what would make a build fit starts once the job has stayed the same this long:
#: it takes 0.1-0.5 s for six builds in training, so it is not started for each key typed (the
#: table and the plots are; issue 20). It runs in the core's process (on the worker thread, where
#: every Python call of the UI thread waited for the interpreter lock, only if that cannot run).
SUGGEST_DELAY_MS = 250
#: The builds' estimates run on the UI thread a few builds per turn of the event loop: another build
#: is started in the same turn only while the turn has used less than this (a key typed meanwhile
#: waits at most this plus one build: 2-9 ms each for a training job's plan search). A change made
#: before the last build is done starts the pass again for the new state (issue 20). The fit sweep
#: runs in turns of the same length, one model size (0.05-0.2 ms) at a time: on a worker thread it
#: took longer and stalled the UI thread more, both threads taking turns at the interpreter lock
#: (``benchmarks/ui_recompute.py --train --stages``; figures in benchmarks/README.md).
SLICE_MS = 8.0
#: A turn that spent this long computing builds (or model sizes of the sweep) leaves what follows
#: them — the ranking and the table's redraw, or the Fit plot's redraw — to the next turn: the two
#: together, then the paint, were the window's longest stalls with six builds in training (a
#: 6 ms pass, 5 ms of ranking and table, 5-20 ms of paint: 17-24 ms; ``benchmarks/ui_stalls.py``).
#: Below it (an inference job's quick pass) the table follows in the same turn, a turn earlier.
SPLIT_AFTER_MS = 2.0


class _WorkerSignals(QObject):
    finished = Signal(object, object)  # the job's key, its result or the exception it raised


class _WorkerJob(QRunnable):
    """A pure core function off the UI thread (frozen models in, frozen results out); the result
    comes back to the UI thread through a queued signal (Qt objects stay there)."""

    def __init__(self, key, fn) -> None:
        super().__init__()
        self.key, self.fn = key, fn
        self.signals = _WorkerSignals()

    def run(self) -> None:
        try:
            out = self.fn()
        except Exception as exc:  # noqa: BLE001 - said on the status bar, never lost in the worker
            out = exc
        try:
            self.signals.finished.emit(self.key, out)
        except RuntimeError:  # the app quit while it ran: nobody is left to draw it
            pass


@dataclasses.dataclass
class _SweepRun:
    """The fit sweep of one workload being computed, a few model sizes per turn (``Session``)."""

    workload: Workload
    steps: object  # evaluate.fit_curve_steps(workload), a generator
    out: object = None  # its answer, once computed (redrawn in the next turn: ``SPLIT_AFTER_MS``)


@dataclasses.dataclass
class _Pass:
    """One state's builds being estimated (``Session.recompute``): its inputs and the builds done."""

    catalog: object
    arch: object
    workload: Workload
    entries: tuple
    prepared: tuple
    curves: tuple
    margin: float
    done: list = dataclasses.field(default_factory=list)


def with_curves(results, curves: tuple[dict, str]):
    """``results`` with the fit sweep in: each technique's curve (each build's largest model comes with
    the search, ``evaluate.background_search``)."""
    curve_map, current = curves
    return dataclasses.replace(results, curves=curve_map, current_technique=current)


class Session(QObject):
    """Catalog, workload, model and builds of the open comparison, and their results.

    Signals (past-tense events):
      catalog_loaded()            the catalog was (re)loaded; problems in ``catalog_problems``
      workload_changed(object)    the Workload was replaced
      model_changed(object)       the ModelRef changed (arch in ``arch``, None if unresolved)
      builds_changed()            builds were added, removed, moved, renamed or replaced
      results_computed(object)    ``evaluate.Results`` for the current state: every build's estimate,
                                  checks, price and the ranking; the fit sweep may still be running
                                  (``sweep_pending``: no curves and no largest fits yet)
      curves_computed(object)     the fit sweep of the current workload is in ``results`` (curves and
                                  each build's largest fits)
      suggestions_computed(object) what would make each build that does not fit fit, and each build's
                                  largest model, are in ``results`` (found in the core's process or on the
                                  worker thread; ``suggestions_pending`` until then)
      document_changed()          path or unsaved-changes flag changed
      problem_reported(str)       something the user asked for failed; the text says why
      prefs_changed()             display preferences (GB/GiB, currency) changed
    """

    catalog_loaded = Signal()
    workload_changed = Signal(object)
    model_changed = Signal(object)
    builds_changed = Signal()
    results_computed = Signal(object)
    curves_computed = Signal(object)
    suggestions_computed = Signal(object)
    document_changed = Signal()
    problem_reported = Signal(str)
    prefs_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.catalog = None
        self.catalog_problems: list[str] = []
        start = canonical_comparison()
        self.workload: Workload = start.workload
        self.model: ModelRef = start.model
        self.arch: ModelArch | None = None
        self.builds: tuple[BuildEntry, ...] = start.builds
        self.title = start.title
        self.results = None  # evaluate.Results (the core module loads after the first paint)
        self.ranking: Ranking | None = None
        self.recommendation = ""
        self.criterion = Criterion.SPEED
        self.path: Path | None = None
        self.dirty = False
        self._curve_cache: dict[Workload, tuple] = {}  # workload → (curves, current technique), newest last
        self._worker = QThreadPool(self)  # the search for what would make a build fit
        self._worker.setMaxThreadCount(1)
        self._sweep_run: _SweepRun | None = None  # the fit sweep under way (one at a time)
        # The core's own process (``advisor.ui.core_process``; the window sets one): started with the
        # first results, it computes each change's sweep beside the builds' estimates, and the search.
        self.core_process = None
        # The "what would make it fit" search running: its job on the worker thread, or the generation it
        # was sent to the core's process for.
        self._suggest_job: _WorkerJob | int | None = None
        self._suggest_pending = False  # the current results still lack their suggestions
        self._generation = 0  # counts recomputes: a search's answer is shown only for its own
        self._prepared: dict = {}  # BuildEntry → PreparedBuild, for the catalog loaded now
        self._closed = False  # ``close``: the window went; nothing more is started
        self._pass: _Pass | None = None  # the builds' estimates being computed, a few per turn
        self.slice_ms: float = SLICE_MS  # tests set it to inf: every change computed at once
        self._pass_timer = QTimer(self)
        self._pass_timer.setSingleShot(True)
        self._pass_timer.setInterval(0)
        self._pass_timer.timeout.connect(self._continue_pass)
        # The sweep starts after the table and the verdict have painted: a QTimer object with a 0 ms
        # interval fires after the pending paint (QTimer.singleShot(0) would run before it).
        self._sweep_timer = QTimer(self)
        self._sweep_timer.setSingleShot(True)
        self._sweep_timer.setInterval(0)
        self._sweep_timer.timeout.connect(self._start_background)
        self._sweep_step_timer = QTimer(self)  # the sweep's next turn
        self._sweep_step_timer.setSingleShot(True)
        self._sweep_step_timer.setInterval(0)
        self._sweep_step_timer.timeout.connect(self._continue_sweep)
        self._suggest_timer = QTimer(self)
        self._suggest_timer.setSingleShot(True)
        self._suggest_timer.setInterval(SUGGEST_DELAY_MS)
        self._suggest_timer.timeout.connect(self._start_search)
        self.prefs = Settings()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def set_prefs(self, prefs: Settings) -> None:
        self.prefs = prefs
        self.prefs_changed.emit()

    # --- loading ---------------------------------------------------------------------
    def load_catalog(self) -> None:
        from advisor.storage.catalog_store import load_catalog

        try:
            loaded = load_catalog()
            self.catalog, self.catalog_problems = loaded.catalog, [str(p) for p in loaded.problems]
        except OSError as exc:  # an unreadable catalog folder: said, and the app runs on
            self.catalog, self.catalog_problems = None, [f"the catalog could not be loaded: {exc}"]
        self._prepared.clear()  # builds resolve, price and check against the new catalog
        self.catalog_loaded.emit()
        self.arch = self._resolve_model(self.model, report=False)
        self.model_changed.emit(self.model)
        self.recompute()

    def _resolve_model(self, ref: ModelRef, report: bool = True) -> ModelArch | None:
        from advisor.core.advice import evaluate

        try:
            return evaluate.resolve_model(self.catalog, ref)
        except (LookupError, ValueError) as exc:  # unknown preset, size out of range: said, not raised
            if report:
                self.problem_reported.emit(f"model: {exc}")
            return None

    # --- edits (each one undoable) ---------------------------------------------------
    def _snapshot(self) -> Snapshot:
        return Snapshot(workload=self.workload, model=self.model, arch=self.arch, builds=self.builds,
                        criterion=self.criterion)

    def _edit(self, text: str, **changes) -> None:
        """Push one edit on the undo stack; pushing applies it (``SnapshotCommand.redo``)."""
        before = self._snapshot()
        after = Snapshot(**{**before.__dict__, **changes})
        if before.changed(after):
            self.undo_stack.push(SnapshotCommand(self._restore, text, before, after))

    def _restore(self, state: Snapshot) -> None:
        """Put a snapshot in place and say what changed (an edit, its undo or its redo)."""
        changed = self._snapshot().changed(state)
        self.workload, self.model, self.arch = state.workload, state.model, state.arch
        self.builds, self.criterion = state.builds, state.criterion
        if "workload" in changed:
            self.workload_changed.emit(self.workload)
        if changed & {"model", "arch"}:
            self.model_changed.emit(self.model)
        if "builds" in changed:
            self.builds_changed.emit()
        if changed - {"criterion"}:
            self.recompute()
        else:  # rank-by alone: the estimates stand, only the winner is chosen again
            self._rank()
            self.results_computed.emit(self.results)

    def _on_clean_changed(self, clean: bool) -> None:
        self.dirty = not clean
        self.document_changed.emit()

    def set_workload(self, workload: Workload) -> None:
        if workload == self.workload:
            return
        self._edit(workload_edit_text(self.workload, workload), workload=workload)

    def set_model(self, ref: ModelRef) -> None:
        arch = self._resolve_model(ref)
        if ref.kind == "preset":  # the file stands alone: keep the preset's arch inline
            ref = ref.model_copy(update={"arch": arch})
        name = arch.name if arch is not None else "model"
        self._edit(f"Choose {name}", model=ref, arch=arch)

    def import_model(self, path: str) -> bool:
        from advisor.storage.model_import import ModelImportError, load_model

        try:
            arch = load_model(path).arch
        except ModelImportError as exc:  # every import failure is a message
            self.problem_reported.emit(f"{path}: {exc}")
            return False
        self.set_model(ModelRef(imported_path=str(path), arch=arch))
        return True

    def _set_builds(self, builds: tuple[BuildEntry, ...], text: str) -> None:
        self._edit(text, builds=builds)

    def can_add(self) -> bool:
        return len(self.builds) < MAX_BUILDS

    def can_remove(self) -> bool:
        return len(self.builds) > MIN_BUILDS

    def add_build(self, entry: BuildEntry) -> None:
        if not self.can_add():
            self.problem_reported.emit(f"a comparison holds at most {MAX_BUILDS} builds")
            return
        name = unique_name(entry.name, {b.name for b in self.builds})
        self._set_builds((*self.builds, entry.model_copy(update={"name": name})), f"Add “{name}”")

    def remove_build(self, index: int) -> None:
        if not self.can_remove():
            self.problem_reported.emit(f"a comparison needs at least {MIN_BUILDS} builds")
            return
        self._set_builds(self.builds[:index] + self.builds[index + 1:], f"Remove “{self.builds[index].name}”")

    def move_build(self, index: int, delta: int) -> None:
        j = index + delta
        if not (0 <= index < len(self.builds) and 0 <= j < len(self.builds)):
            return
        b = list(self.builds)
        b[index], b[j] = b[j], b[index]
        self._set_builds(tuple(b), f"Move “{b[j].name}” {'up' if delta < 0 else 'down'}")

    def rename_build(self, index: int, name: str) -> bool:
        name = name.strip()
        others = {b.name for i, b in enumerate(self.builds) if i != index}
        if not name or name in others or len(name) > 120:
            self.problem_reported.emit(f"“{name}” cannot be a build's name: a name has 1 to 120 characters "
                                       "and differs from the other builds' names")
            return False
        b = list(self.builds)
        old = b[index].name
        b[index] = b[index].model_copy(update={"name": name})
        self._set_builds(tuple(b), f"Rename “{old}” to “{name}”")
        return True

    def replace_build(self, index: int, entry: BuildEntry) -> None:
        b = list(self.builds)
        others = {x.name for i, x in enumerate(self.builds) if i != index}
        b[index] = entry.model_copy(update={"name": unique_name(entry.name, others)})
        self._set_builds(tuple(b), f"Replace “{self.builds[index].name}”")

    def set_build_plan(self, index: int, pins: PlanPins) -> None:
        """Pin (or, with empty pins, unpin) parts of one build's plan."""
        if not 0 <= index < len(self.builds) or self.builds[index].plan == pins:
            return
        b = list(self.builds)
        b[index] = b[index].model_copy(update={"plan": pins})
        self._set_builds(tuple(b), f"{'Pin' if pins.any else 'Unpin'} the plan of “{b[index].name}”")

    def set_criterion(self, criterion: Criterion) -> None:
        """What the winner is chosen on: speed, price or value (price per token/s)."""
        criterion = Criterion(criterion)  # a combo box hands back the plain string
        if criterion is self.criterion:
            return
        self._edit(f"Rank by {criterion.value}", criterion=criterion)

    def resolved(self, index: int):
        """The ResolvedBuild of a build (for duplicate-and-tweak), or None with a message."""
        from advisor.core.advice import evaluate

        try:
            return evaluate.resolve_entry(self.catalog, self.builds[index])
        except (LookupError, ValueError) as exc:
            self.problem_reported.emit(f"{self.builds[index].name}: {exc}")
            return None

    # --- computing -------------------------------------------------------------------
    def recompute(self) -> None:
        """The one computation after any change; views redraw from ``results_computed`` (every
        build's numbers), then ``curves_computed`` (the fit sweep, computed after the table paints)
        and ``suggestions_computed`` (what would make a build fit, found on the worker thread).

        The builds' estimates, then the sweep, are computed a few at a time per turn of the event
        loop (``SLICE_MS``), at once when they are quick; ``results_pending`` until the last build
        is in, ``results`` stays the previous state's until then."""
        from advisor.core.advice import evaluate
        from advisor.storage.error_bands import median_pct

        curves = self._curve_cache.get(self.workload)
        band = median_pct(self.workload)  # "tight": a fit within the estimate's measured median error
        self._margin = band / 100 if band is not None else 0.0
        # Without the sweep: no curves and no largest fits until it is in (``with_curves``).
        given = curves if curves is not None else ({}, evaluate.technique_workloads(self.workload)[1])
        self._generation += 1
        self._suggest_pending = False  # looked for again once this state's builds are in
        self._suggest_timer.stop()
        if self._sweep_run is not None and self._sweep_run.workload != self.workload:
            if self._sweep_run.out is not None and not isinstance(self._sweep_run.out, Exception):
                self._cache_curves(self._sweep_run.workload, self._sweep_run.out)  # computed: kept, not drawn
            self._drop_sweep()  # superseded: this state's sweep starts after its builds are in
        if curves is None and self._process_ready():
            self.core_process.submit_sweep(self.workload)  # beside the builds' estimates, on another core
        self._pass = _Pass(self.catalog, self.arch, self.workload, self.builds, self._prepare(), given, self._margin)
        self._continue_pass()

    @property
    def results_pending(self) -> bool:
        """True while the builds' estimates of the current state are still being computed."""
        return self._pass is not None

    def _continue_pass(self) -> None:
        from advisor.core.advice import evaluate

        p = self._pass
        if p is None:
            return
        start = time.perf_counter()
        computed = False
        while len(p.done) < len(p.entries):
            i = len(p.done)
            p.done.append(evaluate.evaluate_build(p.catalog, p.arch, p.workload, p.entries[i], p.margin, False,
                                                  p.prepared[i], quick=True))  # the Details tab adds the rest
            computed = True
            if (time.perf_counter() - start) * 1e3 >= self.slice_ms and not self._closed:
                self._pass_timer.start()  # the next builds, or the table, in the next turn: keys first
                return
        if computed and self._split(start):
            self._pass_timer.start()  # the ranking and the table in the next turn (``SPLIT_AFTER_MS``)
            return
        self._pass = None
        cached = self._curve_cache.get(p.workload)  # the sweep may have come in while the builds were done
        self.results = evaluate.assemble(p.arch, p.workload, p.done, cached or p.curves)
        # The search after the job stays put: what would make a build fit, and every build's largest model.
        self._suggest_pending = p.arch is not None and any(r.planned is not None for r in self.results.builds)
        self._rank()
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

    def _prepare(self) -> tuple:
        """Each build's resolution, price and checks, kept by entry until the catalog changes."""
        from advisor.core.advice.evaluate import prepare_build

        if len(self._prepared) > 64:  # entries edited away long ago
            self._prepared.clear()
        out = []
        for entry in self.builds:
            try:
                p = self._prepared.get(entry)
            except TypeError:  # an inline build holding lists (this machine): prepared each time
                out.append(prepare_build(self.catalog, entry))
                continue
            if p is None:
                p = self._prepared[entry] = prepare_build(self.catalog, entry)
            out.append(p)
        return tuple(out)

    @property
    def sweep_pending(self) -> bool:
        """True while the fit curves of the current results are still being computed."""
        return self.results is not None and self.workload not in self._curve_cache

    @property
    def suggestions_pending(self) -> bool:
        """True while what would make the current results' builds fit is still being looked for."""
        return self._suggest_pending

    def _start_background(self) -> None:
        """The fit sweep of the current workload (the visible plot waits on it), once the builds'
        estimates are in and the table has painted."""
        if self._pass is not None or self._closed or not self.sweep_pending:
            return
        if self._sweep_run is None:
            if self.core_process is not None and self.core_process.pending(self.workload):
                return  # the core's process computes it (``_on_swept`` draws it)
            from advisor.core.advice.evaluate import fit_curve_steps

            self._sweep_run = _SweepRun(self.workload, fit_curve_steps(self.workload))
        elif self._sweep_step_timer.isActive():
            return  # under way: its next turn is due
        elif self._sweep_run.out is not None:  # from its process: drawn a turn after the table's paint,
            self._sweep_step_timer.start()     # not in one stall with it
            return
        self._continue_sweep()

    def _continue_sweep(self) -> None:
        """One turn of the sweep: model sizes until the turn has used ``SLICE_MS``, then the next
        turn; at the end, ``_on_sweep_finished``."""
        run = self._sweep_run
        if run is None or self._pass is not None:
            return  # none, or paused while the builds' estimates are computed (their end resumes it)
        if run.out is not None:  # computed in the last turn: now its redraw
            self._sweep_run = None
            self._on_sweep_finished(run.workload, run.out)
            return
        start = time.perf_counter()
        try:
            while True:
                next(run.steps)
                if (time.perf_counter() - start) * 1e3 >= self.slice_ms and not self._closed:
                    self._sweep_step_timer.start()  # keys and paints first
                    return
        except StopIteration as done:
            out = done.value
        except Exception as exc:  # noqa: BLE001 - said on the status bar; the table and other plots stand
            out = exc
        if self._split(start):
            run.out = out
            self._sweep_step_timer.start()  # the plot's redraw in the next turn (``SPLIT_AFTER_MS``)
            return
        self._sweep_run = None
        self._on_sweep_finished(run.workload, out)

    def _split(self, start: float) -> bool:
        """Whether this turn has computed long enough that what follows goes to the next one."""
        return (time.perf_counter() - start) * 1e3 >= min(self.slice_ms, SPLIT_AFTER_MS) and not self._closed \
            and self.slice_ms != math.inf

    def _drop_sweep(self) -> None:
        self._sweep_run = None
        self._sweep_step_timer.stop()

    def set_core_process(self, process) -> None:
        """The process that computes the sweeps and the search (``advisor.ui.core_process.CoreProcess``);
        None: the UI thread and the worker thread."""
        self.core_process = process
        if process is not None:
            process.swept.connect(self._on_swept)
            process.found.connect(self._on_found)

    def _process_ready(self) -> bool:
        return (self.core_process is not None and self.core_process.ready and self.slice_ms != math.inf
                and not self._closed)

    def _on_found(self, generation: int, out) -> None:
        """The search's answer from the core's process; None: it was stopped or skipped for a newer
        change, or the process died (then the worker thread searches)."""
        if self._closed:
            return
        if out is None:
            self._suggest_job = None
            self._start_search()  # for the state on screen, if it still needs one
            return
        self._on_suggestions_found(generation, out)

    def _on_swept(self, workload: Workload, out) -> None:
        """A sweep from its process: drawn once the table has painted (as a sweep computed here
        would be), kept for undo if the job has changed since; if the process died, the UI thread
        sweeps."""
        if self._closed:
            return
        if out is None:  # the process died
            self._start_background()  # this change's sweep, here (no more are sent there)
            return
        if workload != self.workload:
            if not isinstance(out, Exception):
                self._cache_curves(workload, out)
            return
        if workload in self._curve_cache:
            return  # drawn already
        self._drop_sweep()
        self._sweep_run = _SweepRun(workload, None, out)
        if self._pass is None and self.results is not None and not self._sweep_timer.isActive():
            self._continue_sweep()  # the table has painted: the plot's redraw now
        # else the end of the builds' pass, then the table's paint, come first (``_sweep_timer``)

    def _start_search(self) -> None:
        """What would make the current results' builds fit, in the core's process (else on the worker
        thread); a newer change stops it within one plan search (its answer would not be shown;
        ``find_suggestions``' ``cancelled``)."""
        if (self._suggest_job is not None or not self._suggest_pending or self._suggest_timer.isActive()
                or self._pass is not None or self._closed):
            return  # one runs (its end starts this one), none is needed, or the job is still changing
        from advisor.core.advice import evaluate

        arch, workload, results, margin, generation = self.arch, self.workload, self.results, self._margin, self._generation
        inputs, fits = evaluate.suggestion_inputs(results), evaluate.fit_inputs(results)
        if self._process_ready() and self.core_process.submit_search(generation, arch, workload, inputs, margin, fits):
            self._suggest_job = generation  # answered by ``found`` (``_on_found``)
            return

        def search():
            cancelled = lambda: generation != self._generation  # noqa: E731
            found = evaluate.find_suggestions(arch, workload, results, margin, cancelled=cancelled)
            largest = None if found is None else evaluate.largest_fits_for(workload, fits, margin, cancelled)
            return None if largest is None else evaluate.SearchAnswer(found, largest)

        self._suggest_job = self._run(generation, search, self._on_suggestions_found)

    def _run(self, key, fn, slot) -> _WorkerJob:
        job = _WorkerJob(key, fn)
        job.signals.finished.connect(slot)
        self._worker.start(job)
        return job  # kept: its signals object lives until it reports

    def _on_sweep_finished(self, workload: Workload, out) -> None:
        if isinstance(out, Exception):  # said once; the table and the other plots stand
            self.problem_reported.emit(f"fit curves: {out}")
            return
        self._cache_curves(workload, out)
        if workload == self.workload and self.results is not None and self._pass is None:
            self.results = with_curves(self.results, out)
            self.curves_computed.emit(self.results)
        else:  # not for the state on screen now: kept (a pass of its workload takes it), not shown
            self._start_background()

    def _cache_curves(self, workload: Workload, out) -> None:
        self._curve_cache.pop(workload, None)
        self._curve_cache[workload] = out
        while len(self._curve_cache) > CURVE_CACHE_SIZE:
            del self._curve_cache[next(iter(self._curve_cache))]

    def _on_suggestions_found(self, generation: int, out) -> None:
        from advisor.core.advice.evaluate import with_search

        self._suggest_job = None
        if generation != self._generation:  # a newer change came while it ran: look again for that one
            self._start_search()
            return
        self._suggest_pending = False
        if isinstance(out, Exception):  # said once; the numbers stand without the suggestions
            self.problem_reported.emit(f"what would make it fit: {out}")
            self.suggestions_computed.emit(self.results)  # the views waiting on it draw what there is
            return
        self.results = with_search(self.results, out)
        self._rank()  # the recommendation names what would make the runner-up fit
        self.suggestions_computed.emit(self.results)

    def close(self) -> None:
        """The window is closing: no pass, sweep or search starts any more (their timers are
        stopped, a sweep under way is dropped), and the job running on the worker is waited for — a job left running, or started
        by a timer after the window went, would report to a session being destroyed (a crash, or a
        pool that waits for it while holding the interpreter lock)."""
        self._closed = True
        self._generation += 1  # a search under way on the worker thread stops within one plan search
        self._pass = None  # a pass left half done is dropped (after this, a change is computed at once)
        self._drop_sweep()
        for timer in (self._pass_timer, self._sweep_timer, self._suggest_timer):
            timer.stop()
        self._worker.waitForDone()
        if self.core_process is not None:
            self.core_process.close()


    def _rank(self) -> None:
        """The winner and the recommendation: the core's words, as the PDF prints them."""
        from advisor.core.advice.ranking import rank
        from advisor.core.advice.recommend import recommendation

        self.ranking = rank(self.results, self.workload, self.criterion)
        self.recommendation = recommendation(self.results, self.workload, self.criterion)

    # --- documents -------------------------------------------------------------------
    def comparison(self) -> Comparison:
        return Comparison(title=self.title, rank_by=self.criterion, workload=self.workload, model=self.model,
                          builds=self.builds)

    def apply(self, comparison: Comparison, path: Path | None) -> None:
        self.title, self.workload, self.builds = comparison.title, comparison.workload, comparison.builds
        self.criterion = comparison.rank_by
        self.model = comparison.model
        self.arch = self._resolve_model(self.model)
        self.path, self.dirty = path, False
        self.undo_stack.clear()  # another document: the edits of the last one are not undone into it
        self.workload_changed.emit(self.workload)
        self.model_changed.emit(self.model)
        self.builds_changed.emit()
        self.document_changed.emit()
        self.recompute()

    def new(self, workload: Workload | None = None) -> None:
        c = canonical_comparison()
        if workload is not None:
            c = c.model_copy(update={"workload": workload})
        self.apply(c, None)

    def open(self, path: str | Path) -> bool:
        from advisor.storage import comparison_file

        try:
            c = comparison_file.load_comparison(path)
        except comparison_file.ComparisonFileError as exc:
            self.problem_reported.emit(str(exc))
            return False
        self.apply(c, Path(path))
        return True

    def save(self, path: str | Path) -> bool:
        from advisor.storage import comparison_file

        try:
            written = comparison_file.save_comparison(path, self.comparison())
        except (comparison_file.ComparisonFileError, ValueError) as exc:
            self.problem_reported.emit(str(exc))
            return False
        self.path, self.dirty = written, False
        self.undo_stack.setClean()  # undoing back to here is "saved" again
        self.document_changed.emit()
        return True
