"""File ▸ Open Recent: the last comparison files, newest first, kept in the settings."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMenu

MAX_RECENT = 8


def with_recent(recent: tuple[str, ...], path: str | Path) -> tuple[str, ...]:
    """``recent`` with ``path`` first (once), at most ``MAX_RECENT`` long."""
    path = str(Path(path).resolve())
    return (path, *(p for p in recent if p != path))[:MAX_RECENT]


def without(recent: tuple[str, ...], path: str) -> tuple[str, ...]:
    return tuple(p for p in recent if p != path)


class RecentMenu(QMenu):
    """The submenu; it is rebuilt from ``paths`` each time it opens.

    Signals:
      file_chosen(str)   the user chose a recent file
      clear_requested()  the user asked to forget the list
    """

    file_chosen = Signal(str)
    clear_requested = Signal()

    def __init__(self, paths, parent=None) -> None:
        super().__init__("Open &Recent", parent)
        self._paths = paths  # a callable: the current list
        self.setToolTipsVisible(True)  # the full path
        self.aboutToShow.connect(self._on_about_to_show)
        self._on_about_to_show()

    def _on_about_to_show(self) -> None:
        self.clear()
        paths = self._paths()
        for i, path in enumerate(paths):
            name = Path(path).name.replace("&", "&&")  # a literal & in a menu text is doubled
            act = self.addAction(f"&{i + 1} {name}")
            act.setToolTip(path)
            act.setStatusTip(path)
            act.triggered.connect(lambda _=False, p=path: self.file_chosen.emit(p))
        if not paths:
            self.addAction("No recent comparisons").setEnabled(False)
            return
        self.addSeparator()
        self.addAction("Clear the list", self.clear_requested.emit)
