"""The window inside its screen's free area: the default 1280×800 cut to a smaller screen, moved inside it."""

import pytest

pytestmark = [pytest.mark.gui]


@pytest.mark.parametrize(("screen", "place"), [((1024, 700), (0, 0)), ((1920, 1080), (700, 400)), ((1280, 800), (0, 0))])
def test_the_window_fits_the_screens_free_area(qtbot, screen, place):
    from PySide6.QtCore import QRect

    from advisor.ui.main_window import MainWindow
    from advisor.ui.screen_fit import fit_into

    window = MainWindow()  # its frame: 1280×800
    qtbot.addWidget(window)
    window.move(*place)
    free = QRect(0, 0, *screen)
    fit_into(window, free)
    assert window.width() <= screen[0] and window.height() <= screen[1]
    assert free.contains(window.geometry())
    assert (window.width(), window.height()) == (min(1280, screen[0]), min(800, screen[1]))
