"""The Fit plot's sweep in a process of its own, beside the UI thread (issue 20).

The sweep (``evaluate.fit_curves``: each technique's memory at every model size of the plot)
depends on the job alone, not on the builds, so it can start the moment the job changes and run on
another core while the UI thread estimates the builds and paints the table; the plot then redraws
as soon as the table has painted instead of after a sweep computed on the UI thread (6 ms with a
training job, between the table's paint and the plot's). On a worker thread it could not run
beside the builds' estimates: both need the interpreter lock (``SLICE_MS`` in ``session``).

One worker process (started with ``spawn``: a fresh interpreter, nothing of the window in it)
computes one sweep at a time. It is started once the window's first results are in, and does its
imports (the core, numpy, pydantic) before it says it is ready. The UI thread writes each request
to a pipe and is woken when the answer is there (a socket notifier on the pipe; a 1 ms poll where
pipes cannot be watched, on Windows): no thread of this process stands between them (a
``ProcessPoolExecutor``'s threads waited for the interpreter lock while the UI thread computed,
and answers came 5-10 ms late). A request still waiting when a newer one comes is skipped by the
worker. Until the worker is ready, when it cannot start, or once it has died, ``submit`` says no and
the session computes the sweep on the UI thread as before.
"""

from __future__ import annotations

import multiprocessing
import sys

from PySide6.QtCore import QObject, QSocketNotifier, Qt, QTimer, Signal

SKIPPED = "skipped"  # the worker's answer to a request a newer one made useless
_READY = "ready"


def _worker_main(conn) -> None:
    """The worker process's entry."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in the terminal is the window's to handle
    serve(conn)


def serve(conn) -> None:
    """The worker: its imports, then one sweep per request until the pipe closes."""
    from advisor.core.advice.comparison import canonical_comparison  # noqa: PLC0415 - in the worker
    from advisor.core.advice.evaluate import fit_curves  # noqa: PLC0415
    from advisor.core.job.workload import Method, Mode  # noqa: PLC0415

    start = canonical_comparison().workload  # one sweep of each kind first: the core's first calls are slow
    for workload in (start, start.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA})):
        fit_curves(workload)
    conn.send(_READY)
    try:
        while True:
            request = conn.recv()
            if request is None:
                return
            while conn.poll():  # newer requests wait: the older ones are not worth computing
                conn.send((request[0], SKIPPED))
                request = conn.recv()
                if request is None:
                    return
            key, workload = request
            try:
                out = fit_curves(workload)
            except Exception as exc:  # noqa: BLE001 - sent back, said on the window's status bar
                out = exc
            conn.send((key, out))
    except (EOFError, OSError):  # the window went
        return


class SweepProcess(QObject):
    """The worker process and the sweeps asked of it (owned by the session, used on the UI thread)."""

    done = Signal(object, object)  # the workload, and (curves, current technique), an exception, or None if it died

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._process = None
        self._conn = None
        self._watch = None  # the notifier (or the poll timer) that wakes the UI thread for answers
        self.ready = False  # the worker has done its imports: sweeps go to it
        self.failed = False  # it could not start, or died: the UI thread sweeps from now on
        self._asked: dict[int, object] = {}  # request number -> workload, until answered
        self._count = 0

    def start(self) -> None:
        """Start the worker (once); ``ready`` once it has done its imports."""
        if self._process is not None or self.failed:
            return
        ctx = multiprocessing.get_context("spawn")
        try:
            self._conn, child = ctx.Pipe()
            self._process = ctx.Process(target=_worker_main, args=(child,), name="fit-sweep", daemon=True)
            self._process.start()
        except (OSError, RuntimeError):  # no processes here (a sandbox, a frozen build without them)
            self._fail()
            return
        child.close()
        if sys.platform == "win32":  # a pipe cannot be watched by a socket notifier there
            self._watch = QTimer(self)
            self._watch.setTimerType(Qt.TimerType.PreciseTimer)
            self._watch.setInterval(1)
            self._watch.timeout.connect(self._read)
            self._watch.start()
        else:
            self._watch = QSocketNotifier(self._conn.fileno(), QSocketNotifier.Type.Read, self)
            self._watch.activated.connect(self._read)

    def pending(self, workload) -> bool:
        """Asked of the worker and not answered yet."""
        return workload in self._asked.values()

    def submit(self, workload) -> bool:
        """Ask the worker for ``workload``'s sweep; False when it is not ready (the caller sweeps itself)."""
        if not self.ready:
            return False
        if self.pending(workload):
            return True
        self._count += 1
        try:
            self._conn.send((self._count, workload))
        except (OSError, ValueError):  # the worker died
            self._fail()
            return False
        self._asked[self._count] = workload
        return True

    def close(self) -> None:
        """No more sweeps; the worker exits once it sees the pipe closed (after the sweep it runs)."""
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

    def _read(self) -> None:
        """Every answer the pipe holds (the UI thread was woken for them)."""
        try:
            while self._conn is not None and self._conn.poll():
                message = self._conn.recv()
                if message == _READY:
                    self.ready = True
                    continue
                key, out = message
                workload = self._asked.pop(key, None)
                if workload is not None and not (isinstance(out, str) and out == SKIPPED):
                    self.done.emit(workload, out)
        except (EOFError, OSError, ValueError):  # the worker died: the UI thread sweeps from now on
            asked = list(self._asked.values())
            self._fail()
            for workload in asked:
                self.done.emit(workload, None)

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
