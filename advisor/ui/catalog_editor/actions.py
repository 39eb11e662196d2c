"""The catalog editor's actions, toolbar and menus (Catalog, Edit); each action calls a method of the editor."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow


class EditorActions:
    """The actions ``make_actions`` gives the editor, declared for type checkers (a mixin of the window)."""

    action_undo: QAction
    action_redo: QAction
    action_new: QAction
    action_duplicate: QAction
    action_delete: QAction
    action_reset: QAction
    action_reset_all: QAction
    action_import: QAction
    action_export: QAction
    action_close: QAction


def _act(editor: QMainWindow, text: str, slot, shortcut=None, tip: str = "") -> QAction:
    action = QAction(text, editor)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.setToolTip(tip or text.replace("&", "").rstrip("…"))
    action.triggered.connect(slot)
    return action


def make_actions(editor: QMainWindow) -> None:
    """The editor's ``action_*`` attributes, its toolbar and its two menus."""
    e = editor
    e.action_undo = e.undo_stack.createUndoAction(e, "&Undo")
    e.action_undo.setShortcuts(QKeySequence.StandardKey.Undo)  # the platform's keys, each once
    e.action_redo = e.undo_stack.createRedoAction(e, "&Redo")
    e.action_redo.setShortcuts(QKeySequence.StandardKey.Redo)
    e.action_new = _act(e, "&New", e.new_record, QKeySequence.StandardKey.New, "Add a record from scratch")
    e.action_duplicate = _act(e, "&Duplicate", e.duplicate_selected, "Ctrl+D",
                              "New record copied from the selected one (the usual way to add a new card)")
    e.action_delete = _act(e, "De&lete / hide", e.delete_selected, QKeySequence.StandardKey.Delete,
                           "Delete your record; hide a shipped one (Reset brings it back)")
    e.action_reset = _act(e, "&Reset to shipped", e.reset_selected, tip="Drop your edits to this shipped record")
    e.action_reset_all = _act(e, "Reset &all…", e.reset_all, tip="Remove all your records and edits, unhide all")
    e.action_import = _act(e, "&Import bundle…", e.import_dialog, tip="Add records from a catalog bundle file")
    e.action_export = _act(e, "&Export bundle…", e.export_dialog, tip="Write your records to a bundle file")
    e.action_close = _act(e, "&Close", e.close, QKeySequence.StandardKey.Close)
    bar = e.addToolBar("Catalog")
    bar.setObjectName("toolbar_catalog")
    for a in (e.action_new, e.action_duplicate, e.action_delete, e.action_reset, None,
              e.action_undo, e.action_redo, None, e.action_import, e.action_export):
        bar.addSeparator() if a is None else bar.addAction(a)
    m = e.menuBar().addMenu("&Catalog")
    for a in (e.action_import, e.action_export, None, e.action_reset_all, None, e.action_close):
        m.addSeparator() if a is None else m.addAction(a)
    menu = e.menuBar().addMenu("&Edit")
    for a in (e.action_undo, e.action_redo, None, e.action_new, e.action_duplicate, e.action_delete, e.action_reset):
        menu.addSeparator() if a is None else menu.addAction(a)
