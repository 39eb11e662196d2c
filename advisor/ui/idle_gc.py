"""Python's cyclic garbage collector in the window: full collections when the user has paused, not mid-change.

CPython starts a collection by allocation counts (docs.python.org/3.11/library/gc.html,
``gc.set_threshold``): generation 0 when allocations minus deallocations pass ``threshold0``,
generation 1 after ``threshold1`` collections of generation 0, and the oldest generation after
``threshold2`` collections of generation 1. A workload change allocates enough to run the oldest
one every fifty changes or so, in the middle of a change: the longest stall of all, over the whole heap
(a ``gc.callbacks`` trace of ``benchmarks/ui_recompute.py --train``; figures in benchmarks/README.md),
for nothing found: the app's
objects are freed by reference counting (those full collections collected 0 objects).

The young generations cost less but not nothing: a six-build training change allocates past CPython's
``threshold0`` of 700 twice, and every tenth of those collections is one of generation 1: 35 of 40 changes
ran a collection before the table's paint (``benchmarks/ui_recompute.py --train --stages``).

So, once the window's content is there (``start``):

* ``gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLDEST_THRESHOLD)``: generation 0 is collected by
  allocation counts once per change or so instead of two or three times, generation 1 after as many
  changes as before (a user who types without a pause pays the same collections in fewer, larger
  steps), the oldest one only after ``OLDEST_THRESHOLD`` collections of generation 1 (a bound on what
  waits, not a time the user meets);
* the collections themselves are run here when nothing changes (``poke`` restarts the wait at every
  change of the session and at the end of its work): ``gc.collect(1)`` after ``YOUNG_IDLE_MS`` (so a
  change made after a pause, however short, starts with empty young generations and runs no collection),
  then ``gc.collect(2)`` (docs, ``gc.collect(generation)``: the oldest generation is 2, a full
  collection) after ``FULL_IDLE_MS`` without a change. A change in between cancels what has not run yet.
  The young collection is a full one when the collections of generation 1 since the last full one are
  halfway to ``OLDEST_THRESHOLD`` (each counts toward it): a user who pauses often but never for
  ``FULL_IDLE_MS`` gets the full collections in the short pauses, not in a change.
* after the first of those full collections (the first pause after start-up), ``gc.freeze()``
  (docs: "Freeze all the objects tracked by the garbage collector; move them to a permanent
  generation and ignore them in all the future collections"): the modules, the catalog and the
  window, alive for the whole session, are not gone over again by the later ones.

Only that first pause's survivors are frozen, once per process (garbage was collected just before,
so none is pinned): whatever the app drops later is collected by the full collection of the next
pause, so memory stays where the caches keep it (500 training changes with pauses: the same RSS as
without this module; the pause's full collection grows with the caches).

Written for CPython 3.11's generational collector (the venv's). CPython 3.14's incremental one
gives ``threshold1`` and ``gc.collect(1)`` other meanings (the docs of each version); the idle
collections stay correct there, only the thresholds would need a look.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

YOUNG_IDLE_MS = 150  # without a change: collect generations 0 and 1 (a few ms, between two keys typed)
FULL_IDLE_MS = 2000  # without a change: collect all generations
#: Allocations (less deallocations) of tracked objects between collections of generation 0. CPython's default is
#: 700; a six-build training change, from one change to the next, counts 1,514 (p50) to 1,671 (max) of them
#: (``gc.get_count()`` with collections held off, ``ui_recompute.py --train``, 20 changes).
YOUNG_THRESHOLD = 2_500
#: Collections of generation 0 between those of generation 1: CPython's 10 × 700 allocations, kept about the
#: same in allocations (3 × 2,500), so a collection of generation 1 goes over as many objects as before.
MIDDLE_THRESHOLD = 3
OLDEST_THRESHOLD = 100  # CPython's default is 10 collections of generation 1 between full ones (one per ~4 changes)

_frozen = False  # the start-up's objects were frozen (once per process: tests open many windows)


class IdleCollector(QObject):
    """Runs the collections the app needs while the session is idle.

    ``watch(session)`` pokes on every change of the session and at the end of each step of its
    work; ``collections`` counts what ran here, per generation (tests read it).
    """

    def __init__(self, parent: QObject | None = None, young_ms: int = YOUNG_IDLE_MS, full_ms: int = FULL_IDLE_MS,
                 oldest_threshold: int = OLDEST_THRESHOLD, young_threshold: int = YOUNG_THRESHOLD,
                 middle_threshold: int = MIDDLE_THRESHOLD) -> None:
        super().__init__(parent)
        self.young_ms, self.full_ms, self.oldest_threshold = young_ms, full_ms, oldest_threshold
        self.young_threshold, self.middle_threshold = young_threshold, middle_threshold
        self.collections = {1: 0, 2: 0}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._collect)
        self._next = 1  # the generation the timer collects next
        self._thresholds: tuple[int, int, int] | None = None  # CPython's before ``start``

    def start(self) -> None:
        """Make collections by counts rarer and wait for a pause."""
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            t0, _t1, t2 = self._thresholds
            gc.set_threshold(max(self.young_threshold, t0), self.middle_threshold, max(self.oldest_threshold, t2))
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
        if generation == 1 and gc.get_count()[2] >= gc.get_threshold()[2] // 2:
            # Each collection of generation 1, these included, counts toward a full one by counts: after
            # ``OLDEST_THRESHOLD`` of them, the next change to run a collection would run a full one (the
            # slowest collections of changes made a second apart, ``ui_recompute.py --train --stages
            # --idle-ms 1000``). Halfway there, the full collection runs in this pause instead.
            generation = 2
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
