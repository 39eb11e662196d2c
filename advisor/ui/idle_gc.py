"""Python's cyclic garbage collector in the window: full collections when the user has paused, not mid-change (issue 20).

CPython starts a collection by allocation counts (docs.python.org/3.11/library/gc.html,
``gc.set_threshold``): generation 0 when allocations minus deallocations pass ``threshold0``,
generation 1 after ``threshold1`` collections of generation 0, and the oldest generation after
``threshold2`` collections of generation 1. A workload change allocates enough to run the oldest
one every fifty changes or so, in the middle of a change: 45–75 ms over the whole heap (a
``gc.callbacks`` trace of ``benchmarks/ui_recompute.py --train``), for nothing found: the app's
objects are freed by reference counting (those full collections collected 0 objects).

So, once the window's content is there (``start``):

* ``gc.set_threshold(threshold0, threshold1, OLDEST_THRESHOLD)``: the young generations are
  collected by allocation counts as before (cheap: they hold only the newest objects), the oldest
  one only after ``OLDEST_THRESHOLD`` collections of generation 1 (some 400 training changes in a row
  without a pause: a bound on what waits, not a time the user meets);
* the collection itself is run here when nothing changes (``poke`` restarts the wait at every
  change of the session and at the end of its work): ``gc.collect(1)`` after ``YOUNG_IDLE_MS``, then
  ``gc.collect(2)`` (docs, ``gc.collect(generation)``: the oldest generation is 2, a full collection)
  after ``FULL_IDLE_MS`` without a change. A change in between cancels what has not run yet.
* after the first of those full collections (the first pause after start-up), ``gc.freeze()``
  (docs: "Freeze all the objects tracked by the garbage collector; move them to a permanent
  generation and ignore them in all the future collections"): the modules, the catalog and the
  window, alive for the whole session, are not gone over again by the later ones.

Only that first pause's survivors are frozen, once per process (garbage was collected just before,
so none is pinned): whatever the app drops later is collected by the full collection of the next
pause, so memory stays where the caches keep it (500 training changes with pauses: the same RSS as
without this module; the pause's full collection grows with the caches, 3 → 30 ms).

Written for CPython 3.11's generational collector (the venv's). CPython 3.14's incremental one
gives ``threshold1`` and ``gc.collect(1)`` other meanings (the docs of each version); the idle
collections stay correct there, only the thresholds would need a look.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

YOUNG_IDLE_MS = 500  # without a change: collect generations 0 and 1
FULL_IDLE_MS = 2000  # without a change: collect all generations
OLDEST_THRESHOLD = 100  # CPython's default is 10 collections of generation 1 between full ones (one per ~4 changes)

_frozen = False  # the start-up's objects were frozen (once per process: tests open many windows)


class IdleCollector(QObject):
    """Runs the collections the app needs while the session is idle.

    ``watch(session)`` pokes on every change of the session and at the end of each step of its
    work; ``collections`` counts what ran here, per generation (tests read it).
    """

    def __init__(self, parent: QObject | None = None, young_ms: int = YOUNG_IDLE_MS, full_ms: int = FULL_IDLE_MS,
                 oldest_threshold: int = OLDEST_THRESHOLD) -> None:
        super().__init__(parent)
        self.young_ms, self.full_ms, self.oldest_threshold = young_ms, full_ms, oldest_threshold
        self.collections = {1: 0, 2: 0}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._collect)
        self._next = 1  # the generation the timer collects next
        self._thresholds: tuple[int, int, int] | None = None  # CPython's before ``start``

    def start(self) -> None:
        """Make full collections by counts rare and wait for a pause."""
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            t0, t1, _ = self._thresholds
            gc.set_threshold(t0, t1, max(self.oldest_threshold, self._thresholds[2]))
        self.poke()

    def stop(self) -> None:
        """CPython's thresholds back (the frozen objects stay frozen); nothing more runs from here."""
        self._timer.stop()
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def watch(self, session) -> None:
        for signal in (session.workload_changed, session.model_changed, session.builds_changed,
                       session.results_computed, session.curves_computed, session.suggestions_computed):
            signal.connect(self.poke)

    def poke(self, *_args) -> None:
        """A change or a step of work: the wait for a pause starts again."""
        if self._thresholds is None:
            return
        self._next = 1
        self._timer.start(self.young_ms)

    @property
    def waiting(self) -> bool:
        return self._timer.isActive()

    def _collect(self) -> None:
        global _frozen
        generation = self._next
        gc.collect(generation)
        self.collections[generation] += 1
        if generation == 1:
            self._next = 2
            self._timer.start(max(self.full_ms - self.young_ms, 0))
        elif not _frozen:  # the first pause: what is alive now (start-up's modules, catalog, window) stays
            _frozen = True
            gc.freeze()


_collector: IdleCollector | None = None


def watch(session) -> IdleCollector:
    """The app's collector (one per process, under the QApplication), started, poked by ``session``'s changes."""
    global _collector
    if _collector is None:
        from PySide6.QtCore import QCoreApplication

        _collector = IdleCollector(QCoreApplication.instance())
        _collector.start()
    _collector.watch(session)
    _collector.poke()
    return _collector
