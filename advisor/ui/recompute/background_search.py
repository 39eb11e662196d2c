"""The search for what would make each build fit, and each build's largest model, off the UI thread.

It runs in the core's process (``advisor.ui.core_process``) when that is ready, else on a worker
thread of its own (where every Python call of the UI thread waits for the interpreter lock, so the
process is preferred). One search at a time; the scheduler says when one is due and which change it
is for (its generation), and drops an answer for a change no longer on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QThreadPool, Signal

from advisor.ui.worker import WorkerJob, start_job

if TYPE_CHECKING:
    from advisor.core import Job, ModelArch, Results, SearchAnswer
    from advisor.ui.core_process import CoreProcess


class SearchRunner(QObject):
    """Runs one search at a time, in the core's process or on its worker thread.

    Signals (past-tense events):
      answered(int, object)  the generation asked for, and its ``SearchAnswer``, the exception the search
                             raised, or None: stopped or skipped for a newer change, or the core's process
                             died (ask again: it then runs on the worker thread)
    """

    answered = Signal(int, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self.process: CoreProcess | None = None
        self.job: WorkerJob | int | None = None  # the job on the worker thread, or the generation sent to the process

    @property
    def busy(self) -> bool:
        return self.job is not None

    def set_process(self, process: CoreProcess | None) -> None:
        self.process = process
        if process is not None:
            process.found.connect(self._on_answered)

    def submit(self, generation: int, arch: ModelArch, workload: Job, results: Results, margin: float,
               use_process: bool, cancelled: Callable[[], bool]) -> None:
        """Search for ``results`` of ``generation``; ``cancelled`` (on the worker thread) stops it within one
        plan search once a newer change has come (``find_suggestions``)."""
        from advisor.core import SearchAnswer, find_suggestions, fit_inputs, largest_fits_for, suggestion_inputs

        inputs, fits = suggestion_inputs(results), fit_inputs(results)
        if use_process and self.process is not None and self.process.submit_search(
                generation, arch, workload, inputs, margin, fits):
            self.job = generation  # answered through ``found``
            return

        def search() -> SearchAnswer | None:
            found = find_suggestions(arch, workload, results, margin, cancelled=cancelled)
            largest = None if found is None else largest_fits_for(workload, fits, margin, cancelled)
            return None if found is None or largest is None else SearchAnswer(found, largest)

        self.job = start_job(self._pool, generation, search, self._on_answered)

    def _on_answered(self, generation: int, out: Any) -> None:
        self.job = None
        self.answered.emit(generation, out)

    def close(self) -> None:
        """Wait for the job on the worker thread (it stops within one plan search once cancelled)."""
        self._pool.waitForDone()
