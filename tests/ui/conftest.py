"""A real main window (offscreen) with the shipped catalog loaded."""

import pytest


def wait_until_drawn(qtbot, window, timeout_ms: int = 10000) -> None:
    """Wait for what follows a change after the table (issue 20): the fit sweep from its worker
    thread, then the visible tab's redraw."""
    qtbot.waitUntil(lambda: not window.session.sweep_pending and window.tabs.up_to_date(), timeout=timeout_ms)


@pytest.fixture
def drawn(qtbot):
    """``drawn(window)``: wait until the plots show the session's current results."""
    return lambda window: wait_until_drawn(qtbot, window)


@pytest.fixture
def app_window(qtbot):
    from advisor.ui.app import build_window

    session, window = build_window()
    window.skip_unsaved_prompt = True  # no modal question when the test closes it
    qtbot.addWidget(window)
    window.show()
    window.finish_start()
    wait_until_drawn(qtbot, window)
    yield session, window
    window.close()
    session.wait_for_sweeps()
