"""One call off the UI thread, its answer back on it: the window's thread-pool jobs.

A job runs a plain function (the core's pure functions: frozen models in, frozen results out; or
the hardware probe) on a ``QThreadPool`` thread. Its answer, or the exception it raised, comes back
through a queued signal, so the slot runs on the UI thread where the Qt objects live.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class WorkerSignals(QObject):
    """Signals (past-tense events):
      finished(object, object)  the job's key, and its result or the exception it raised
    """

    finished = Signal(object, object)


class WorkerJob(QRunnable):
    """``fn()`` on a pool thread; ``signals.finished(key, result or exception)`` on the UI thread."""

    def __init__(self, key: object, fn: Callable[[], Any]) -> None:
        super().__init__()
        self.key, self.fn = key, fn
        self.signals = WorkerSignals()

    def run(self) -> None:
        try:
            out = self.fn()
        except Exception as exc:  # noqa: BLE001 - the slot says it; never lost in the worker
            out = exc
        try:
            self.signals.finished.emit(self.key, out)
        except RuntimeError:  # the app quit while it ran: nobody is left to draw it
            pass


def start_job(pool: QThreadPool, key: object, fn: Callable[[], Any], slot: Callable[[Any, Any], None]) -> WorkerJob:
    """Run ``fn`` on ``pool``; ``slot(key, out)`` gets its answer. Keep the job returned until it reports:
    its signals object must outlive the run."""
    job = WorkerJob(key, fn)
    job.signals.finished.connect(slot)
    pool.start(job)
    return job
