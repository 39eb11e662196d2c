"""The garbage collector's full collections wait for a pause (``advisor.ui.idle_gc``)."""

import gc

import pytest

from advisor.ui import idle_gc

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


@pytest.fixture
def app_collector_stopped():
    """The process's own collector (``idle_gc.watch``, started by an earlier test's window) stays stopped
    while a test counts collections: its timer would run a full collection of its own in the middle."""
    app = idle_gc._collector
    if app is not None:
        app.stop()
    yield
    if app is not None:
        app.start()


@pytest.fixture
def generations(app_collector_stopped):
    """The generation of every collection that ends while the test runs, in order."""
    seen: list[int] = []

    def callback(phase, info):
        if phase == "stop":
            seen.append(info["generation"])

    gc.callbacks.append(callback)
    yield seen
    gc.callbacks.remove(callback)


@pytest.fixture
def no_freeze(monkeypatch):
    """Record ``gc.freeze`` calls instead of freezing the test process's heap."""
    calls = []
    monkeypatch.setattr(idle_gc, "_frozen", False)
    monkeypatch.setattr(idle_gc.gc, "freeze", lambda: calls.append(True))
    return calls


def _cycles(n: int) -> None:
    """Allocate ``n`` small reference cycles and drop them: work for the collector."""
    for _ in range(n):
        a: list = []
        a.append(a)


def test_a_pause_runs_the_young_then_the_full_collection_and_freezes_once(qtbot, generations, no_freeze):
    collector = idle_gc.IdleCollector(young_ms=20, full_ms=80)
    before = gc.get_threshold()
    gc.collect()  # no collections of generation 1 counted toward a full one yet
    del generations[:]
    collector.start()
    try:
        assert gc.get_threshold() == (max(idle_gc.YOUNG_THRESHOLD, before[0]), idle_gc.MIDDLE_THRESHOLD,
                                      max(idle_gc.OLDEST_THRESHOLD, before[2]))
        collector.poke()
        qtbot.waitUntil(lambda: collector.collections[2] == 1, timeout=5000)
        assert collector.collections == {1: 1, 2: 1}
        assert 2 in generations
        assert not collector.waiting  # nothing more until the next change
        assert no_freeze == [True]  # the first pause's survivors are frozen
        collector.poke()
        qtbot.waitUntil(lambda: collector.collections[2] == 2, timeout=5000)
        assert no_freeze == [True]  # once per process
    finally:
        collector.stop()
    assert gc.get_threshold() == before


def test_no_full_collection_during_a_burst_of_changes(qtbot, generations, no_freeze):
    collector = idle_gc.IdleCollector(young_ms=300, full_ms=600, young_threshold=700, middle_threshold=10)  # CPython's
    gc.collect()  # no collections of generation 1 counted toward a full one yet
    del generations[:]
    collector.start()
    try:
        for _ in range(200):  # a change every few ms: the pause never comes
            _cycles(2000)
            collector.poke()
            qtbot.wait(1)
        assert generations.count(1) > 10  # CPython's default would have run the oldest generation
        assert 2 not in generations
        assert collector.collections == {1: 0, 2: 0}
        qtbot.waitUntil(lambda: collector.collections[2] == 1, timeout=5000)  # then the pause: the full collection
        assert generations[-1] == 2 and generations.count(2) == 1
    finally:
        collector.stop()


@pytest.fixture
def paused(qtbot, no_freeze, app_collector_stopped):
    """The app's collector after its first short pause: the young collection has run, the full one is far off."""
    collector = idle_gc.IdleCollector(young_ms=20, full_ms=10_000)
    gc.collect()  # no collections of generation 1 counted toward a full one yet
    collector.start()
    try:
        collector.poke()
        qtbot.waitUntil(lambda: collector.collections[1] == 1, timeout=5000)
        yield collector
    finally:
        collector.stop()


def test_a_change_after_a_pause_runs_no_collection(paused, generations):
    # A six-build training change allocates some 1,500-1,700 objects more than it frees: past CPython's 700 twice.
    # After the pause's young collection, as much runs none.
    del generations[:]
    kept = [[] for _ in range(3 * 700)]  # a change's worth of new objects, and more
    assert generations == []
    assert gc.get_count()[0] > 2 * 700 and len(kept) == 3 * 700  # past CPython's threshold twice: counted only


def test_a_short_pause_runs_the_full_collection_once_enough_young_ones_counted(qtbot, paused, generations):
    # Each collection of generation 1 counts toward a full one: a user who pauses often but never long
    # gets the full collection in a short pause, before the counts would run it in the middle of a change.
    assert paused.collections == {1: 1, 2: 0}  # one counted so far: a young collection
    for _ in range(gc.get_threshold()[2] // 2):
        gc.collect(1)
    paused.poke()
    qtbot.waitUntil(lambda: paused.collections[2] == 1, timeout=5000)
    assert paused.collections == {1: 1, 2: 1} and gc.get_count()[2] == 0
    assert generations[-1] == 2


def test_the_window_pokes_the_app_collector(app_window, qtbot):
    session, _window = app_window
    collector = idle_gc._collector
    assert collector is not None and collector.oldest_threshold == idle_gc.OLDEST_THRESHOLD
    collector._timer.stop()
    session.set_workload(session.workload.model_copy(update={"batch": session.workload.batch + 1}))
    assert collector.waiting  # the change restarted the wait for a pause


def test_the_idle_waits_are_the_measured_ones():
    # YOUNG_IDLE_MS 150 (was 500): a change made after a pause of 150 ms or more starts with empty young
    # generations (fourteenth session, ui_recompute.py --train --stages --idle-ms 300: 0 of 40 changes collected
    # against 35 of 40); FULL_IDLE_MS 2 s and the thresholds as measured (YOUNG_THRESHOLD, MIDDLE_THRESHOLD).
    assert (idle_gc.YOUNG_IDLE_MS, idle_gc.FULL_IDLE_MS) == (150, 2000)
    assert (idle_gc.YOUNG_THRESHOLD, idle_gc.MIDDLE_THRESHOLD, idle_gc.OLDEST_THRESHOLD) == (2_500, 3, 100)
