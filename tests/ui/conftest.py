"""A real main window (offscreen) with the shipped catalog loaded."""

import pytest


@pytest.fixture
def app_window(qtbot):
    from advisor.ui.app import build_window

    session, window = build_window()
    window.skip_unsaved_prompt = True  # no modal question when the test closes it
    qtbot.addWidget(window)
    window.show()
    window.finish_start()
    yield session, window
    window.close()

