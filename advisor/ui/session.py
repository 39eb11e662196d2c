"""The session: the one holder of the window's state, made of the document and the recompute scheduler.

Views never keep their own copy of the workload or the builds: they call the setters here and redraw
from the signals. The comparison itself (job, model, builds, rank-by, its file and its undo stack) is the
``ComparisonDocument`` (``advisor.ui.document``); when and where a change is computed is the
``RecomputeScheduler`` (``advisor.ui.recompute``). The session adds the catalog, the display
preferences, the ranking and the recommendation, and — for the views that show them — what the renderers
read and compute nothing of: each build's speed basis and its running cost under the preferences' cost
settings (``finished``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from advisor.core import BuildEntry, Comparison, Criterion, Job, ModelArch, ModelRef, PlanPins
from advisor.storage.settings import Settings
from advisor.ui.document import ComparisonDocument
from advisor.ui.recompute.scheduler import Inputs, RecomputeScheduler

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoStack

    from advisor.core import Catalog, Ranking, ResolvedBuild, Results
    from advisor.ui.core_process import CoreProcess


class Session(QObject):
    """Catalog, document and results of the open comparison.

    Signals (past-tense events):
      catalog_loaded()            the catalog was (re)loaded; problems in ``catalog_problems``
      workload_changed(object)    the Job was replaced
      model_changed(object)       the ModelRef changed (arch in ``arch``, None if unresolved)
      builds_changed()            builds were added, removed, moved, renamed or replaced
      results_computed(object)    ``evaluate.Results`` for the current state: every build's estimate,
                                  checks, price, running cost and the ranking; the fit sweep may still be
                                  running (``sweep_pending``: no curves and no largest fits yet)
      curves_computed(object)     the fit sweep of the current workload is in ``results`` (curves and
                                  each build's largest fits)
      suggestions_computed(object) what would make each build that does not fit fit, and each build's
                                  largest model, are in ``results`` (``suggestions_pending`` until then)
      document_changed()          path or unsaved-changes flag changed
      problem_reported(str)       something the user asked for failed; the text says why
      prefs_changed()             display preferences (GB/GiB, currency, running-cost settings) changed
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
        self.catalog: Catalog | None = None
        self.catalog_problems: list[str] = []
        self.prefs = Settings()
        self.ranking: Ranking | None = None
        self.recommendation = ""
        self._finished: tuple[object, object, Results | None] = (None, None, None)  # (results, cost, finished)
        self.document = ComparisonDocument(self._resolve, self)
        self.scheduler = RecomputeScheduler(self)
        d, s = self.document, self.scheduler
        for source, target in ((d.workload_changed, self.workload_changed), (d.model_changed, self.model_changed),
                               (d.builds_changed, self.builds_changed), (d.document_changed, self.document_changed),
                               (d.problem_reported, self.problem_reported), (s.problem_reported, self.problem_reported),
                               (s.curves_computed, self.curves_computed)):
            source.connect(target)
        d.state_changed.connect(self._on_state_changed)
        s.results_computed.connect(self._on_results)
        s.suggestions_computed.connect(self._on_suggestions)

    # --- the document's state -----------------------------------------------------------
    @property
    def workload(self) -> Job:
        return self.document.workload

    @property
    def model(self) -> ModelRef:
        return self.document.model

    @property
    def arch(self) -> ModelArch | None:
        return self.document.arch

    @property
    def builds(self) -> tuple[BuildEntry, ...]:
        return self.document.builds

    @property
    def criterion(self) -> Criterion:
        return self.document.criterion

    @property
    def title(self) -> str:
        return self.document.title

    @property
    def path(self) -> Path | None:
        return self.document.path

    @property
    def dirty(self) -> bool:
        return self.document.dirty

    @property
    def undo_stack(self) -> QUndoStack:
        return self.document.undo_stack

    # --- the scheduler's state ------------------------------------------------------------
    @property
    def results(self) -> Results | None:
        """The current state's results (the previous state's while ``results_pending``)."""
        return self.scheduler.results

    @property
    def results_pending(self) -> bool:
        return self.scheduler.results_pending

    @property
    def sweep_pending(self) -> bool:
        return self.scheduler.sweep_pending

    @property
    def suggestions_pending(self) -> bool:
        return self.scheduler.suggestions_pending

    @property
    def slice_ms(self) -> float:
        """How long a turn of the event loop may compute (``recompute.scheduler.SLICE_MS``; inf: at once)."""
        return self.scheduler.slice_ms

    @slice_ms.setter
    def slice_ms(self, value: float) -> None:
        self.scheduler.slice_ms = value

    @property
    def core_process(self) -> CoreProcess | None:
        return self.scheduler.core_process

    @core_process.setter
    def core_process(self, process: CoreProcess | None) -> None:
        self.scheduler.core_process = process

    def set_core_process(self, process: CoreProcess | None) -> None:
        """The process that computes the sweeps and the search (``advisor.ui.core_process.CoreProcess``)."""
        self.scheduler.set_core_process(process)

    # --- loading ------------------------------------------------------------------------
    def set_prefs(self, prefs: Settings) -> None:
        self.prefs = prefs
        self.prefs_changed.emit()

    def load_catalog(self) -> None:
        from advisor.storage.catalog_store import load_catalog

        try:
            loaded = load_catalog()
            self.catalog, self.catalog_problems = loaded.catalog, [str(p) for p in loaded.problems]
        except OSError as exc:  # an unreadable catalog folder: said, and the app runs on
            self.catalog, self.catalog_problems = None, [f"the catalog could not be loaded: {exc}"]
        self.scheduler.forget_prepared()  # builds resolve, price and check against the new catalog
        self.catalog_loaded.emit()
        self.document.arch = self.document.resolve_model(self.model, report=False)
        self.model_changed.emit(self.model)
        self.recompute()

    def _resolve(self, ref: ModelRef) -> ModelArch:
        from advisor.core import resolve_model

        return resolve_model(self.catalog, ref)

    def resolved(self, index: int) -> ResolvedBuild | None:
        """The ResolvedBuild of a build (for duplicate-and-tweak), or None with a message."""
        from advisor.core import resolve_entry

        try:
            return resolve_entry(self.catalog, self.builds[index])
        except (LookupError, ValueError) as exc:
            self.problem_reported.emit(f"{self.builds[index].name}: {exc}")
            return None

    # --- computing ------------------------------------------------------------------------
    def recompute(self) -> None:
        """The one computation after any change; views redraw from ``results_computed`` (every build's
        numbers), then ``curves_computed`` (the fit sweep, after the table paints) and
        ``suggestions_computed`` (what would make a build fit). ``results`` stays the previous state's
        until the builds are in (``results_pending``)."""
        from advisor.storage.error_bands import median_pct

        band = median_pct(self.workload)  # "tight": a fit within the estimate's measured median error
        margin = band / 100 if band is not None else 0.0
        self.scheduler.recompute(Inputs(self.catalog, self.arch, self.workload, self.builds, margin))

    def _on_state_changed(self, changed: frozenset[str]) -> None:
        if changed - {"criterion"}:
            self.recompute()
        elif self.results is not None:  # rank-by alone: the estimates stand, only the winner is chosen again
            self._rank()
            self.results_computed.emit(self.results)

    def finished(self, results: Results) -> Results:
        """``results`` with what the renderers read and compute nothing of: each build's speed basis (from the
        measured table) and its running cost under the preferences' cost settings, today. The views that show
        them ask (the Value tab, the builds table's speed tooltip, the Details tab); computed once per results
        and settings, so a change that no such view shows does not pay for them."""
        from advisor.core import with_running_costs, with_speed_bases
        from advisor.storage.error_bands import speed_basis_table

        cost = self.prefs.cost
        last_results, last_cost, last = self._finished
        if last_results is results and last_cost == cost and last is not None:
            return last
        inputs = self.scheduler.results_inputs  # the job the results are of (a newer one may be computing)
        arch, workload = (inputs.arch, inputs.workload) if inputs is not None else (self.arch, self.workload)
        out = with_speed_bases(results, workload, speed_basis_table())
        out = with_running_costs(out, arch, workload, cost, dt.date.today())
        self._finished = (results, cost, out)
        return out

    def _on_results(self, results: Results) -> None:
        self._rank()
        self.results_computed.emit(results)

    def _on_suggestions(self, results: Results) -> None:
        self._rank()  # the recommendation names what would make the runner-up fit
        self.suggestions_computed.emit(results)

    def _rank(self) -> None:
        """The winner and the recommendation: the core's words, as the PDF prints them."""
        from advisor.core import rank, recommendation

        if self.results is None:  # nothing evaluated yet: nothing to rank
            return
        self.ranking = rank(self.results, self.workload, self.criterion)
        self.recommendation = recommendation(self.results, self.workload, self.criterion)

    def close(self) -> None:
        """The window is closing: nothing more is computed in the background (``RecomputeScheduler.close``)."""
        self.scheduler.close()

    # --- edits: the document's, each one undoable ------------------------------------------
    def set_workload(self, workload: Job) -> None:
        self.document.set_workload(workload)

    def set_model(self, ref: ModelRef) -> None:
        self.document.set_model(ref)

    def import_model(self, path: str) -> bool:
        return self.document.import_model(path)

    def set_builds(self, builds: tuple[BuildEntry, ...], text: str) -> None:
        self.document.set_builds(builds, text)

    def can_add(self) -> bool:
        return self.document.can_add()

    def can_remove(self) -> bool:
        return self.document.can_remove()

    def add_build(self, entry: BuildEntry) -> None:
        self.document.add_build(entry)

    def remove_build(self, index: int) -> None:
        self.document.remove_build(index)

    def move_build(self, index: int, delta: int) -> None:
        self.document.move_build(index, delta)

    def rename_build(self, index: int, name: str) -> bool:
        return self.document.rename_build(index, name)

    def replace_build(self, index: int, entry: BuildEntry) -> None:
        self.document.replace_build(index, entry)

    def set_build_plan(self, index: int, pins: PlanPins) -> None:
        self.document.set_build_plan(index, pins)

    def set_criterion(self, criterion: Criterion | str) -> None:
        self.document.set_criterion(criterion)

    # --- documents --------------------------------------------------------------------------
    def comparison(self) -> Comparison:
        return self.document.comparison()

    def apply(self, comparison: Comparison, path: Path | None) -> None:
        self.document.apply(comparison, path)

    def new(self, workload: Job | None = None) -> None:
        self.document.new(workload)

    def open(self, path: str | Path) -> bool:
        return self.document.open(path)

    def save(self, path: str | Path) -> bool:
        return self.document.save(path)
