"""A call off the UI thread: its result, or the exception it raised, comes back on the UI thread with its key."""

from __future__ import annotations

import threading

from PySide6.QtCore import QThreadPool

from advisor.ui.worker import start_job


def test_the_result_comes_back_on_the_ui_thread_with_its_key(qapp, qtbot):
    pool = QThreadPool()
    ran_on, seen = [], []
    job = start_job(pool, "key", lambda: ran_on.append(threading.current_thread()) or 42,
                    lambda key, out: seen.append((key, out, threading.current_thread())))
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    assert seen == [("key", 42, threading.main_thread())] and ran_on[0] is not threading.main_thread()
    assert job.key == "key"
    pool.waitForDone()


def test_an_exception_is_the_answer_never_lost_in_the_worker(qapp, qtbot):
    pool = QThreadPool()
    seen = []

    def fails():
        raise RuntimeError("driver went away")

    start_job(pool, 3, fails, lambda key, out: seen.append((key, out)))
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    assert seen[0][0] == 3 and isinstance(seen[0][1], RuntimeError) and str(seen[0][1]) == "driver went away"
    pool.waitForDone()
