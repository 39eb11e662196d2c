"""The core's sweep and search in a process of their own, beside the UI thread."""

import multiprocessing
import threading
import time

import numpy as np
import pytest

from advisor.core.advice import evaluate, fit_curves
from advisor.core.advice.comparison import canonical_comparison
from advisor.core.job.choices import Method, Mode
from advisor.ui import core_process
from advisor.ui.core_process import SEARCH, SKIPPED, SWEEP, CoreProcess, serve

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]

START_S = 60  # a fresh interpreter importing the core on a loaded CI machine


def _same_sweep(out, workload):
    curves, current = out
    want, want_current = evaluate.fit_curves(workload)
    assert current == want_current and set(curves) == set(want)
    for label, y in want.items():
        np.testing.assert_array_equal(curves[label], y)


def test_the_worker_skips_requests_a_newer_one_made_useless():
    """Requests waiting when the worker takes one are answered ``skipped`` (the user typed on), the
    newest is computed as the core computes it, and the worker ends when the window says so."""
    ours, theirs = multiprocessing.Pipe()
    base = canonical_comparison().workload
    jobs = [base.model_copy(update={"batch": b}) for b in (3, 4, 5)]
    for k, job in enumerate(jobs, 1):
        ours.send((k, SWEEP, job))  # all waiting when the worker, its imports done, takes the first
    worker = threading.Thread(target=serve, args=(theirs,))
    worker.start()
    answers = []
    while len(answers) < 4 and ours.poll(30):
        answers.append(ours.recv())
    ours.send(None)
    worker.join(30)
    assert not worker.is_alive()
    assert answers[0] == "ready"
    assert answers[1:3] == [(1, SKIPPED), (2, SKIPPED)]
    key, out = answers[3]
    assert key == 3 and len(answers) == 4
    _same_sweep(out, jobs[2])


def test_a_failed_sweep_is_answered_with_its_exception(monkeypatch):
    ours, theirs = multiprocessing.Pipe()

    def broken(_workload):
        raise ValueError("no curve")

    base = canonical_comparison().workload
    worker = threading.Thread(target=serve, args=(theirs,))
    worker.start()
    assert ours.poll(30) and ours.recv() == "ready"
    monkeypatch.setattr(fit_curves, "technique_workloads", broken)  # after the warm-up sweeps
    ours.send((1, SWEEP, base))
    assert ours.poll(30)
    key, out = ours.recv()
    ours.send(None)
    worker.join(30)
    assert key == 1 and isinstance(out, ValueError) and "no curve" in str(out)


def _ready(qtbot, worker):
    worker.start()
    qtbot.waitUntil(lambda: worker.ready or worker.failed, timeout=START_S * 1000)
    assert worker.ready, "the worker process did not start"


def test_the_worker_process_answers_on_the_ui_thread_and_ends_when_closed(qtbot):
    worker = CoreProcess()
    assert not worker.submit_sweep(canonical_comparison().workload)  # not started: the caller sweeps itself
    _ready(qtbot, worker)
    job = canonical_comparison().workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA, "batch": 7})
    with qtbot.waitSignal(worker.swept, timeout=20000) as answer:
        assert worker.submit_sweep(job) and worker.pending(job)
    workload, out = answer.args
    assert workload == job and not worker.pending(job)
    _same_sweep(out, job)
    process = worker._process
    worker.close()
    process.join(20)
    assert process.exitcode == 0  # it read the closed pipe and returned


def test_the_window_draws_the_sweep_from_its_process_not_from_the_ui_thread(app_window, qtbot, drawn, monkeypatch):
    session, window = app_window
    session.slice_ms = 8.0  # as in the app (the fixture computes every change at once)
    _ready(qtbot, session.core_process)
    here = []
    real_steps = evaluate.fit_curve_steps
    monkeypatch.setattr(evaluate, "fit_curve_steps", lambda w: here.append(w) or real_steps(w))
    job = session.workload.model_copy(update={"batch": 13, "context_len": 3000})
    with qtbot.waitSignal(session.curves_computed, timeout=20000):
        session.set_workload(job)
        assert session.core_process.pending(job)  # sent at the change, before the builds are estimated
    drawn(window)
    assert session.results.curves and not here
    _same_sweep((session.results.curves, session.results.current_technique), job)
    assert session.results.builds[0].largest_fit  # the largest fits follow the curves


def test_if_the_process_dies_the_ui_thread_sweeps(app_window, qtbot, drawn):
    session, window = app_window
    session.slice_ms = 8.0
    _ready(qtbot, session.core_process)
    session.core_process._process.kill()
    session.core_process._process.join(20)
    job = session.workload.model_copy(update={"batch": 11})
    with qtbot.waitSignal(session.curves_computed, timeout=20000):
        session.set_workload(job)
    drawn(window)
    assert session.core_process.failed and not session.core_process.ready
    _same_sweep((session.results.curves, session.results.current_technique), job)
    later = job.model_copy(update={"batch": 12})
    with qtbot.waitSignal(session.curves_computed, timeout=20000):
        session.set_workload(later)  # from now on, here
    assert not session.core_process.pending(later)


def test_no_worker_where_processes_cannot_start(qtbot, monkeypatch):
    class NoProcesses:
        def Pipe(self):  # noqa: N802 - multiprocessing's name
            raise OSError("no processes here")

    monkeypatch.setattr(core_process.multiprocessing, "get_context", lambda _method: NoProcesses())
    worker = CoreProcess()
    worker.start()
    assert worker.failed and not worker.ready and not worker.submit_sweep(canonical_comparison().workload)


def test_closing_the_window_ends_the_worker(app_window, qtbot):
    session, window = app_window
    session.slice_ms = 8.0
    _ready(qtbot, session.core_process)
    process = session.core_process._process
    window.close()
    session.close()
    deadline = time.monotonic() + 20
    while process.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not process.is_alive()


def _training_results():
    """Six builds of different kinds and a LoRA job too big or tight for each: every build is searched."""
    from advisor.core.advice.comparison import BuildEntry
    from advisor.storage.catalog_store import load_catalog

    catalog = load_catalog().catalog
    c = canonical_comparison()
    arch = evaluate.resolve_model(catalog, c.model)
    job = c.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA, "batch": 40, "seq_len": 4096})
    six = ({"build_id": "2x-rtx-3090-nvlink"}, {"build_id": "2x-rtx-4090-pcie-x16"},
           {"system_id": "apple-mac-studio-m3-ultra-96gb"}, {"system_id": "nvidia-dgx-h100"},
           {"cloud_id": "runpod-h200-secure-cloud"}, {"gpu_id": "rtx-5090", "gpu_count": 1})
    done = [evaluate.evaluate_build(catalog, arch, job, BuildEntry(name=f"build {i}", **src), 0.05, False)
            for i, src in enumerate(six)]
    return arch, job, evaluate.assemble(arch, job, done, evaluate.fit_curves(job))


class _Paced:
    """The worker's end of the pipe, paced by the test: once ``searching`` is set, the search's
    first check for a newer request waits until the test has sent one (``asked``, then ``sent``).
    Without it the outcome hangs on thread timing: a search whose estimates are cached can end
    before the newer request arrives, and its answer is then rightly sent."""

    def __init__(self, conn) -> None:
        self._conn = conn
        self.searching, self.asked, self.sent = threading.Event(), threading.Event(), threading.Event()

    def recv(self):
        return self._conn.recv()

    def send(self, obj) -> None:
        self._conn.send(obj)

    def poll(self, *timeout):
        if self.searching.is_set() and not self.sent.is_set():
            self.asked.set()
            assert self.sent.wait(30)
        return self._conn.poll(*timeout)


def test_the_worker_searches_as_the_core_does_and_a_newer_request_stops_it(monkeypatch):
    arch, job, results = _training_results()
    inputs = evaluate.suggestion_inputs(results)
    assert sum(i is not None for i in inputs) >= 4
    want = evaluate.find_suggestions(arch, job, results, 0.05)
    ours, theirs = multiprocessing.Pipe()
    paced = _Paced(theirs)
    worker = threading.Thread(target=serve, args=(paced,))
    worker.start()
    assert ours.poll(30) and ours.recv() == "ready"
    ours.send((1, SEARCH, (arch, job, inputs, 0.05)))
    assert ours.poll(30)
    key, out = ours.recv()
    assert key == 1 and out == want and any(f for f in out)

    search = evaluate.background_search

    def searching(*args, **kwargs):
        paced.searching.set()
        return search(*args, **kwargs)

    monkeypatch.setattr(evaluate, "background_search", searching)
    ours.send((2, SEARCH, (arch, job, inputs, 0.05)))
    assert paced.asked.wait(30)  # the search has started and asks whether a newer request came
    ours.send((3, SWEEP, job))
    paced.sent.set()
    answers = dict(ours.recv() for _ in range(2) if ours.poll(30))
    ours.send(None)
    worker.join(30)
    assert answers[2] is None  # stopped at its first check, not skipped, not finished
    _same_sweep(answers[3], job)


def test_the_windows_search_runs_in_the_process_and_starts_again_after_a_change(app_window, qtbot, drawn,
                                                                                monkeypatch):
    from advisor.core.advice.comparison import BuildEntry
    from advisor.ui.recompute import background_search as search

    session, window = app_window
    for name, src in (("DGX", {"system_id": "nvidia-dgx-h100"}), ("5090", {"gpu_id": "rtx-5090"})):
        session.add_build(BuildEntry(name=name, **src))
    session.slice_ms = 8.0
    _ready(qtbot, session.core_process)
    threads = []
    real_start = search.start_job
    monkeypatch.setattr(search, "start_job", lambda *a: threads.append(a) or real_start(*a))
    big = session.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA, "batch": 40, "seq_len": 4096})
    session.set_workload(big)
    qtbot.waitUntil(lambda: session.scheduler.search.job is not None, timeout=20000)  # the search was sent …
    bigger = big.model_copy(update={"batch": 48})
    with qtbot.waitSignal(session.suggestions_computed, timeout=60000):
        session.set_workload(bigger)  # … and a change came while it ran: searched again for this one
    drawn(window)
    assert not threads  # never on the worker thread
    want = evaluate.find_suggestions(session.arch, session.workload, session.results, session.scheduler.inputs.margin)
    assert tuple(r.suggestions if f is not None else None for r, f in zip(session.results.builds, want)) == want


def test_a_worker_that_stops_answering_is_sent_no_more_than_max_asked():
    """A worker that no longer answers (stopped, swapped out) would fill the pipe until a send blocked
    the UI thread: beyond ``MAX_ASKED`` unanswered requests nothing more is sent, the caller computes."""
    worker = CoreProcess()
    ours, _theirs = multiprocessing.Pipe()  # nobody reads the other end
    worker._conn, worker.ready = ours, True
    base = canonical_comparison().workload
    sent = [worker.submit_sweep(base.model_copy(update={"batch": b})) for b in range(1, CoreProcess.MAX_ASKED + 3)]
    assert sent == [True] * CoreProcess.MAX_ASKED + [False, False]
    worker._conn = None


def test_a_worker_whose_window_went_before_it_was_ready_ends_quietly(capfd):
    """A window closed within its first second: the worker finds the pipe closed when it says it is
    ready, and ends without a traceback on the terminal."""
    ours, theirs = multiprocessing.Pipe()
    ours.close()
    serve(theirs)  # returns
    assert "Traceback" not in capfd.readouterr().err


def test_where_the_pipe_is_polled_it_is_polled_only_while_an_answer_is_awaited(qtbot, monkeypatch):
    """Windows cannot watch a pipe with a socket notifier; a 1 ms timer there runs until the worker is
    ready and while a request waits for its answer, never while the window is idle."""
    monkeypatch.setattr(core_process, "POLL_PIPE", True)
    worker = CoreProcess()
    worker.start()
    timer = worker._watch
    assert timer.isActive()
    qtbot.waitUntil(lambda: worker.ready or worker.failed, timeout=START_S * 1000)
    assert worker.ready and not timer.isActive()
    job = canonical_comparison().workload.model_copy(update={"batch": 9})
    with qtbot.waitSignal(worker.swept, timeout=20000) as answer:
        assert worker.submit_sweep(job) and timer.isActive()
    _same_sweep(answer.args[1], job)
    assert not timer.isActive()
    worker.close()


def test_the_workers_full_collections_wait_for_a_pause():
    """Its garbage collections come when the user pauses, not in the middle of an answer (a full
    collection by allocation counts delayed a change's sweep 16-40 ms while the search ran)."""

    class Recorded(core_process.PauseCollector):
        def __init__(self) -> None:
            super().__init__(idle_s=1.0)
            self.calls: list[str] = []

        def settle(self) -> None:  # (the real one freezes this whole test process's objects)
            self.calls.append("settle")

        def collect(self) -> None:
            self.calls.append("collect")

    collector = Recorded()
    ours, theirs = multiprocessing.Pipe()
    worker = threading.Thread(target=serve, args=(theirs, collector))
    worker.start()
    assert ours.poll(30) and ours.recv() == "ready"
    assert collector.calls == ["settle"]  # after the imports and the warm-up, before any request
    base = canonical_comparison().workload
    for k, batch in enumerate((3, 4, 5), 1):  # a user typing: each request right after the last answer
        ours.send((k, SWEEP, base.model_copy(update={"batch": batch})))
        assert ours.poll(30) and ours.recv()[0] == k
    assert collector.calls == ["settle"]
    deadline = time.monotonic() + 30  # a pause: idle_s, and the worker thread's wake-up on a loaded machine
    while len(collector.calls) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert collector.calls == ["settle", "collect"] and collector.collections == 1
    time.sleep(1.6)  # nothing asked since: nothing more to collect
    assert collector.calls == ["settle", "collect"]
    ours.send((4, SWEEP, base.model_copy(update={"batch": 6})))
    assert ours.poll(30) and ours.recv()[0] == 4
    ours.send(None)
    worker.join(30)
    assert not worker.is_alive()
    assert collector.calls == ["settle", "collect"]  # the window went before a pause: no collection


def test_the_worker_process_settles_its_collector(monkeypatch):
    """The process's entry hands ``serve`` the collector (a ``serve`` on a thread, as above, has none)."""
    import signal

    seen = []
    monkeypatch.setattr(signal, "signal", lambda *_a: None)  # (this process's Ctrl+C stays as it is)
    monkeypatch.setattr(core_process, "serve", lambda conn, collector=None: seen.append(collector))
    core_process._worker_main(None)
    assert len(seen) == 1 and type(seen[0]) is core_process.PauseCollector
    assert seen[0].idle_s == core_process.IDLE_COLLECT_S


def test_settling_freezes_what_lives_on_and_makes_full_collections_by_counts_rare():
    """In a process of its own (``gc.freeze`` acts on the whole process)."""
    import subprocess
    import sys

    from advisor.ui.idle_gc import OLDEST_THRESHOLD

    code = ("import gc; from advisor.ui.core_process import PauseCollector; before = gc.get_threshold(); "
            "PauseCollector().settle(); print(gc.get_freeze_count(), *before, *gc.get_threshold())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    frozen, *thresholds = map(int, out.stdout.split())
    before, after = thresholds[:3], thresholds[3:]
    assert frozen > 1000  # the modules' objects
    assert after[:2] == before[:2] and after[2] == max(before[2], OLDEST_THRESHOLD) > before[2]
