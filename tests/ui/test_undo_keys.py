"""Undo and Redo keys: each shortcut bound once per window, Redo's key works, and Ctrl+Z in a field
undoes its uncommitted typing, else the window's last change."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QWidget

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints", "This plugin does not support raise")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def _bindings(top):
    """Every key bound in ``top`` (its own actions and shortcuts, not those of its child windows)."""
    keys = []
    for obj in (*top.findChildren(QAction), *top.findChildren(QShortcut)):
        parent = obj.parent()
        if not isinstance(parent, QWidget) or parent.window() is not top:
            continue
        keys += [k.toString() for k in (obj.shortcuts() if isinstance(obj, QAction) else (obj.key(),)) if not k.isEmpty()]
    return keys


def test_no_key_is_bound_twice_in_any_window(app_window):
    _session, window = app_window
    window.catalog_editor_requested.emit()
    editor = window.catalog_editor
    for top in (window, editor):
        keys = _bindings(top)
        assert keys and len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
        assert top.action_redo.shortcuts() == QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        assert top.action_undo.shortcuts() == QKeySequence.keyBindings(QKeySequence.StandardKey.Undo)
    editor.close()


def _press(qtbot, widget, key, mods=Qt.KeyboardModifier.ControlModifier):
    qtbot.keyClick(widget, key, mods)
    QApplication.processEvents()


def _focus(qtbot, window, widget):
    window.activateWindow()
    widget.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None and widget.isAncestorOf(QApplication.focusWidget())
                    or QApplication.focusWidget() is widget)


def test_redo_key_redoes_in_the_main_window(app_window, qtbot):
    session, window = app_window
    before = session.workload.batch
    window.workload_panel.spin_batch.setValue(7)
    _focus(qtbot, window, window.builds_panel.table_builds)
    _press(qtbot, window.builds_panel.table_builds, Qt.Key.Key_Z)
    assert session.workload.batch == before
    _press(qtbot, window.builds_panel.table_builds, Qt.Key.Key_Z,
           Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert session.workload.batch == 7
    _press(qtbot, window.builds_panel.table_builds, Qt.Key.Key_Z)
    _press(qtbot, window.builds_panel.table_builds, Qt.Key.Key_Y)
    assert session.workload.batch == 7


def test_ctrl_z_in_a_committed_field_undoes_the_window_change(app_window, qtbot):
    session, window = app_window
    spin = window.workload_panel.spin_batch
    before = session.workload.batch
    _focus(qtbot, window, spin)
    spin.selectAll()
    qtbot.keyClicks(spin, "7")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert session.workload.batch == 7
    _press(qtbot, spin, Qt.Key.Key_Z)
    assert session.workload.batch == before and spin.value() == before
    _press(qtbot, spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert session.workload.batch == 7 and spin.value() == 7
    assert not window.action_redo.isEnabled()  # redone, not a new edit: nothing left to redo


def test_ctrl_z_in_a_field_being_typed_undoes_the_typing(app_window, qtbot):
    session, window = app_window
    spin = window.workload_panel.spin_batch
    window.workload_panel.spin_context_len.setValue(2048)  # an earlier change Ctrl+Z must not undo
    _focus(qtbot, window, spin)
    before = spin.text()
    spin.selectAll()
    qtbot.keyClicks(spin, "9")
    assert spin.text() == "9" and session.workload.batch != 9
    _press(qtbot, spin, Qt.Key.Key_Z)
    assert spin.text() == before and session.workload.context_len == 2048
