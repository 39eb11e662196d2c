"""The core's slow, pure work in a process of its own, beside the UI thread.

Two computations leave the UI thread for one worker process:

* the Fit plot's sweep (``evaluate.fit_curves``: each technique's memory at every model size of the
  plot), which depends on the job alone, so it is sent the moment the job changes and runs on
  another core while the UI thread estimates the builds and paints the table;
* the search for what would make each build fit (``evaluate.suggestions_for``, a good part of a
  second for six builds in training), once the job stays put. On a worker thread it took turns with the UI thread
  at the interpreter lock, and a change typed meanwhile stalled the window.

The worker (started with ``spawn``: a fresh interpreter, nothing of the window in it) takes one
request at a time. It is started once the window's first results are in, and does its imports and
two warm-up sweeps before it says it is ready. The UI thread writes each request to a pipe and is
woken when an answer is there (a socket notifier on the pipe; on Windows, where pipes cannot be
watched, a 1 ms poll while an answer is awaited): no thread of this process stands between them
(a ``ProcessPoolExecutor``'s threads waited for the interpreter lock while the UI thread computed,
and answers came late). A request still waiting when a newer one comes is skipped, and a search stops within one
plan search when a newer request comes (``cancelled``). Until the worker is ready, when it cannot
start, or once it has died, ``submit_*`` say no and the session computes on its own as before.

The worker's garbage collections wait for a pause (``PauseCollector``), as the window's do
(``advisor.ui.idle_gc``): with CPython's thresholds a full collection ran every few requests, in
the middle of one, over the worker's whole heap (``gc.callbacks`` around
``suggestions_for`` of the six builds of ``benchmarks/ui_recompute.py`` in training), and the sweep
a newer change asked for came that much later.
"""

from __future__ import annotations

import gc
import multiprocessing
import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSocketNotifier, Qt, QTimer, Signal

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

#: Windows cannot watch a pipe with a socket notifier: there the UI thread polls it every 1 ms, and only
#: while an answer is awaited (the worker's "ready", or a request's).
POLL_PIPE = sys.platform == "win32"
SKIPPED = "skipped"  # the worker's answer to a request a newer one made useless
_READY = "ready"
SWEEP, SEARCH = "sweep", "search"


#: How long the worker waits without a request before its full collection (s): a user typing sends a
#: request per change, so the collection comes when they pause (the window's own idle collection of its
#: young generations comes sooner, ``idle_gc.YOUNG_IDLE_MS``: it costs less).
IDLE_COLLECT_S = 0.5


class PauseCollector:
    """The worker's garbage collections, out of the way of its answers.

    ``settle`` (once its imports and warm-up are done): one full collection, then ``gc.freeze()``
    (docs.python.org/3.11/library/gc.html: frozen objects are ignored by all future collections) —
    the modules, the catalog and the warm-up's caches live as long as the worker — and the oldest
    generation collected by counts only after ``idle_gc.OLDEST_THRESHOLD`` collections of the
    middle one (CPython's default is 10). ``wait`` before each request: if a request was answered
    since the last collection and none comes within ``idle_s``, the full collection runs then
    (``gc.collect()``; short once the start-up's objects are frozen; it grows with what the core's caches hold).
    """

    def __init__(self, idle_s: float = IDLE_COLLECT_S) -> None:
        self.idle_s = idle_s
        self.collections = 0
        self._dirty = False  # a request was answered since the last collection

    def settle(self) -> None:
        from advisor.ui.idle_gc import OLDEST_THRESHOLD  # noqa: PLC0415 - the window's bound, in the worker

        self.collect()
        gc.freeze()
        t0, t1, t2 = gc.get_threshold()
        gc.set_threshold(t0, t1, max(t2, OLDEST_THRESHOLD))

    def wait(self, conn) -> None:
        """Before a request is read: a pause since the last answer gets the full collection."""
        if self._dirty and not conn.poll(self.idle_s):
            self.collect()
            self.collections += 1
            self._dirty = False

    def answered(self) -> None:
        self._dirty = True

    def collect(self) -> None:
        gc.collect()


def _worker_main(conn) -> None:
    """The worker process's entry."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in the terminal is the window's to handle
    serve(conn, PauseCollector())


def serve(conn, collector: PauseCollector | None = None) -> None:
    """The worker: its imports, then one answer per request until the pipe closes. A request is
    ``(key, SWEEP, workload)`` or ``(key, SEARCH, (arch, workload, inputs, margin[, fit inputs]))``; the
    answer ``(key, out)``: the sweep, the search's (None if a newer request stopped it),
    ``SKIPPED``, or the exception raised. ``collector``: the worker process's collections (none
    for a ``serve`` run on a thread of another process, as the tests do)."""
    from advisor.core import (  # noqa: PLC0415
        Method,
        Mode,
        canonical_comparison,  # noqa: PLC0415
    )
    from advisor.core import fit_curves  # noqa: PLC0415 - in the worker

    start = canonical_comparison().workload  # one sweep of each kind first: the core's first calls are slow
    for workload in (start, start.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA})):
        fit_curves(workload)
    if collector is not None:
        collector.settle()
    try:
        conn.send(_READY)
        while True:
            if collector is not None:
                collector.wait(conn)
            request = _newest_request(conn)
            if request is None:
                return
            key, kind, payload = request
            conn.send((key, _answer(kind, payload, conn)))
            if collector is not None:
                collector.answered()
    except (EOFError, OSError):  # the window went (a closed pipe: EOF reading, BrokenPipeError writing)
        return


def _newest_request(conn):
    """The newest request waiting (the older ones are answered ``SKIPPED``: not worth computing);
    None when the window asks the worker to stop."""
    request = conn.recv()
    while request is not None and conn.poll():
        conn.send((request[0], SKIPPED))
        request = conn.recv()
    return request


def _answer(kind: str, payload, conn) -> object:
    """The sweep's or the search's answer, or the exception it raised (said on the window's status bar)."""
    from advisor.core import background_search, fit_curves  # noqa: PLC0415 - in the worker

    try:
        if kind == SWEEP:
            return fit_curves(payload)
        # (arch, workload, inputs, margin[, fit inputs])
        return background_search(*payload, cancelled=conn.poll)
    except Exception as exc:  # noqa: BLE001 - sent back, said on the window's status bar
        return exc


class CoreProcess(QObject):
    """The worker process and what was asked of it (owned by the session, used on the UI thread)."""

    swept = Signal(object, object)  # the workload, and (curves, current technique), an exception, or None if it died
    found = Signal(object, object)  # the search's tag, and its answer; None if stopped, skipped or the worker died

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._watch: QTimer | QSocketNotifier | None = None  # what wakes the UI thread for answers
        self.ready = False  # the worker has done its imports: requests go to it
        self.failed = False  # it could not start, or died: the UI thread computes from now on
        self._asked: dict[int, tuple[str, object]] = {}  # request number -> (kind, workload or search tag)
        self._count = 0

    def start(self) -> None:
        """Start the worker (once); ``ready`` once it has done its imports."""
        if self._process is not None or self.failed:
            return
        ctx = multiprocessing.get_context("spawn")
        try:
            self._conn, child = ctx.Pipe()
            self._process = ctx.Process(target=_worker_main, args=(child,), name="advisor-core", daemon=True)
            self._process.start()
        except (OSError, RuntimeError):  # no processes here (a sandbox, a frozen build without them)
            self._fail()
            return
        child.close()
        if POLL_PIPE:
            self._watch = QTimer(self)
            self._watch.setTimerType(Qt.TimerType.PreciseTimer)
            self._watch.setInterval(1)
            self._watch.timeout.connect(self._read)
            self._watch.start()  # until "ready" (``_read`` stops it when nothing is awaited)
        else:
            self._watch = QSocketNotifier(self._conn.fileno(), QSocketNotifier.Type.Read, self)
            self._watch.activated.connect(self._read)

    def pending(self, workload) -> bool:
        """``workload``'s sweep was asked for and not answered yet."""
        return (SWEEP, workload) in self._asked.values()

    def submit_sweep(self, workload) -> bool:
        """Ask for ``workload``'s sweep (``swept`` answers); False when the worker cannot take it."""
        return self.pending(workload) or self._send(SWEEP, workload, workload)

    def submit_search(self, tag, arch, workload, inputs, margin: float, fits=None) -> bool:
        """Ask what would make the builds fit and, given ``fits``, each build's largest model
        (``evaluate.background_search``; ``found`` answers with ``tag``); False when the worker cannot take it."""
        return self._send(SEARCH, tag, (arch, workload, inputs, margin) if fits is None
                          else (arch, workload, inputs, margin, fits))

    def close(self) -> None:
        """Nothing more is asked; the worker exits once it sees the pipe closed (after what it runs)."""
        self.ready = False
        self._asked.clear()
        self._unwatch()
        if self._conn is not None:
            try:
                self._conn.send(None)
            except (OSError, ValueError):
                pass
            self._conn.close()
            self._conn = None

    #: Requests left unanswered beyond which nothing more is sent (a worker that stopped answering
    #: would otherwise fill the pipe until a send blocked the UI thread): the UI thread computes.
    MAX_ASKED = 8

    def _send(self, kind: str, ident, payload) -> bool:
        if not self.ready or self._conn is None or len(self._asked) >= self.MAX_ASKED:
            return False
        self._count += 1
        try:
            self._conn.send((self._count, kind, payload))
        except (OSError, ValueError):  # the worker died
            self._died()
            return False
        self._asked[self._count] = (kind, ident)
        if isinstance(self._watch, QTimer) and not self._watch.isActive():
            self._watch.start()
        return True

    def _read(self) -> None:
        """Every answer the pipe holds (the UI thread was woken for them)."""
        try:
            while self._conn is not None and self._conn.poll():
                message = self._conn.recv()
                if message == _READY:
                    self.ready = True
                    continue
                key, out = message
                kind, ident = self._asked.pop(key, (None, None))
                skipped = isinstance(out, str) and out == SKIPPED
                if kind == SWEEP and not skipped:
                    self.swept.emit(ident, out)
                elif kind == SEARCH:
                    self.found.emit(ident, None if skipped else out)
        except (EOFError, OSError, ValueError):  # the worker died: the UI thread computes from now on
            self._died()
            return
        if isinstance(self._watch, QTimer) and self.ready and not self._asked:
            self._watch.stop()  # nothing awaited: no polling while the window is idle

    def _died(self) -> None:
        asked = list(self._asked.values())
        self._fail()
        for kind, ident in asked:
            (self.swept if kind == SWEEP else self.found).emit(ident, None)

    def _fail(self) -> None:
        self.ready, self.failed = False, True
        self._asked.clear()
        self._unwatch()
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _unwatch(self) -> None:
        if isinstance(self._watch, QSocketNotifier):
            self._watch.setEnabled(False)
        elif self._watch is not None:
            self._watch.stop()
