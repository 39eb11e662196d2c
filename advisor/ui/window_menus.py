"""The main window's menus and actions: File, Edit, Builds and Help, and the ways to add a build.

Each action calls a method of the window (or emits one of its signals); the window keeps the actions
it enables later (``action_export_pdf``, ``action_catalog``) and those the tests drive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QMainWindow

from advisor.ui.recent import RecentMenu

if TYPE_CHECKING:
    from advisor.ui.undo_keys import WindowUndoKeys

#: The ways to add a build from the catalog: (the Add-build dialog's kind, the menu's words).
ADD_KINDS = (("gpu", "GPU × count"), ("build", "Catalog build"), ("system", "Prebuilt system"), ("cloud", "Cloud instance"))


class WindowActions:
    """What ``make_menus`` and the window's dialogs give the main window, declared for type checkers (a mixin
    of the window)."""

    action_this_machine: QAction
    action_find_builds: QAction
    action_export_pdf: QAction
    action_catalog: QAction
    action_undo: QAction
    action_redo: QAction
    menu_recent: RecentMenu
    undo_keys: WindowUndoKeys
    button_cpu_only: QAbstractButton  # the no-GPU dialog's (``machine_detection.no_gpu_dialog``), for the tests


def action(window: QMainWindow, text: str, slot, shortcut=None, tip: str = "") -> QAction:
    """An action of the window: its words, shortcut and tooltip (also shown on the status bar)."""
    a = QAction(text, window)
    if shortcut is not None:
        a.setShortcut(QKeySequence(shortcut))
    a.setToolTip(tip or text.replace("&", "").rstrip("…"))
    a.setStatusTip(a.toolTip())
    a.triggered.connect(slot)
    return a


def make_add_actions(window: QMainWindow) -> list[QAction]:
    """Builds ▸ Add: one action per kind of catalog record, then this machine (detected)."""
    acts = [action(window, label + "…", lambda _=False, k=k: window.add_build(k)) for k, label in ADD_KINDS]
    window.action_this_machine = action(window, "This machine (detect)", window.add_this_machine,
                                        tip="Detect this computer's GPUs (runs in the background)")
    return [*acts, window.action_this_machine]


def make_menus(window: QMainWindow, add_actions: list[QAction]) -> None:
    _file_menu(window)
    _edit_menu(window)
    b = window.menus["builds"]
    for a in add_actions:
        b.addAction(a)
    b.addSeparator()
    window.action_find_builds = action(window, "&Find builds…", window.find_builds, "Ctrl+F",
                                       tip="Search the catalog for builds that run this job within a budget")
    b.addAction(window.action_find_builds)
    h = window.menus["help"]
    h.addAction(action(window, "&Formulas && sources", window.show_formulas, QKeySequence.StandardKey.HelpContents))
    h.addAction(action(window, "&About", window.about))


def _file_menu(window: QMainWindow) -> None:
    m = window.menus["file"]
    m.addAction(action(window, "&New", window.new, QKeySequence.StandardKey.New))
    m.addAction(action(window, "&Open…", window.open_dialog, QKeySequence.StandardKey.Open))
    window.menu_recent = RecentMenu(lambda: window.settings.recent_comparisons, window)
    window.menu_recent.file_chosen.connect(window.open_recent)
    window.menu_recent.clear_requested.connect(lambda: window.set_recent(()))
    m.addMenu(window.menu_recent)
    m.addAction(action(window, "&Save", window.save, QKeySequence.StandardKey.Save))
    m.addAction(action(window, "Save &As…", window.save_as, QKeySequence.StandardKey.SaveAs))
    m.addSeparator()
    window.action_export_pdf = action(window, "&Export PDF…", window.export_pdf_requested.emit, "Ctrl+E",
                                      tip="coming with the PDF report")
    window.action_export_pdf.setEnabled(False)
    m.addAction(window.action_export_pdf)
    m.addSeparator()
    m.addAction(action(window, "&Quit", window.close, QKeySequence.StandardKey.Quit))
    m.setToolTipsVisible(True)


def _edit_menu(window: QMainWindow) -> None:
    from advisor.ui.undo_keys import WindowUndoKeys

    e = window.menus["edit"]
    stack = window.session.undo_stack
    # The platform's own keys, each once (Ctrl+Shift+Z listed twice was an ambiguous shortcut: it did nothing).
    window.action_undo = stack.createUndoAction(window, "&Undo")
    window.action_undo.setShortcuts(QKeySequence.StandardKey.Undo)
    window.action_redo = stack.createRedoAction(window, "&Redo")
    window.action_redo.setShortcuts(QKeySequence.StandardKey.Redo)
    window.undo_keys = WindowUndoKeys(window)  # Ctrl+Z in a field with nothing uncommitted: the window's undo
    e.addAction(window.action_undo)
    e.addAction(window.action_redo)
    e.addSeparator()
    window.action_catalog = action(window, "&Catalog…", window.catalog_editor_requested.emit,
                                   tip="coming with the catalog editor")
    window.action_catalog.setEnabled(False)
    e.addAction(window.action_catalog)
    e.addAction(action(window, "&Preferences…", window.preferences, QKeySequence.StandardKey.Preferences))
    e.setToolTipsVisible(True)
