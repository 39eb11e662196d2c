"""The catalog editor's size: the one the user left it at (or the default), never larger than the screen."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QWidget

DEFAULT_SIZE = (1640, 900)
MIN_SIZE = (480, 360)
TITLE_BAR_PX = 40  # room kept for the window manager's title bar


def _size_store() -> QSettings:
    from advisor.storage import paths

    return QSettings(str(paths.user_config_dir() / "catalog-editor.ini"), QSettings.Format.IniFormat)


def restore_size(window: QWidget) -> None:
    """The size the user left it at (or the default), cut to the screen's free area."""
    store = _size_store()
    w = int(store.value("width", DEFAULT_SIZE[0]))
    h = int(store.value("height", DEFAULT_SIZE[1]))
    screen = window.screen() if window.screen() is not None else QApplication.primaryScreen()
    if screen is not None:
        free = screen.availableGeometry()
        w, h = min(w, free.width()), min(h, free.height() - TITLE_BAR_PX)
    window.resize(max(w, MIN_SIZE[0]), max(h, MIN_SIZE[1]))


def save_size(window: QWidget) -> None:
    store = _size_store()
    store.setValue("width", window.width())
    store.setValue("height", window.height())
    store.sync()
