"""Which undo Ctrl+Z reaches in the main window: a field's typing or the window's last change.

Every committed field change in the main window is one step on the session's undo stack, so the
field's own text undo would only undo text the window already took — and turn the Edit menu's
Redo into a new edit. The rule (said in the README): while a number or list field holds typing
not yet committed (Enter or leaving the field commits it), Ctrl+Z and Redo edit that typing;
otherwise they undo and redo the window's last change, whichever field has the focus. A plain text
field (a build's name being typed in the table) keeps its own undo.

Qt first offers a shortcut's key to the focused widget as a ``ShortcutOverride`` event (QLineEdit
takes its undo keys); the filter here, kept on the focused widget only, declines it for a field
with nothing uncommitted, so the window's Undo and Redo actions get the key.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget

UNDO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


def _field_of(widget: QWidget | None) -> QWidget | None:
    """The spin box or combo box whose line edit ``widget`` is, or ``widget`` itself."""
    parent = widget.parentWidget() if isinstance(widget, QLineEdit) else None
    return parent if isinstance(parent, QSpinBox | QDoubleSpinBox | QComboBox) else widget


def window_takes_undo(widget: QWidget | None) -> bool:
    """A number or list field showing its committed value: the undo keys are the window's."""
    field = _field_of(widget)
    if isinstance(field, QSpinBox | QDoubleSpinBox):
        shown = (field.specialValueText() if field.specialValueText() and field.value() == field.minimum()
                 else field.prefix() + field.textFromValue(field.value()) + field.suffix())
        return field.lineEdit().text() == shown
    if isinstance(field, QComboBox):
        return not field.isEditable() or field.currentText() == field.itemText(field.currentIndex())
    return False


class WindowUndoKeys(QObject):
    """Kept on whichever widget of ``window`` has the focus (moved on each focus change)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._watched: QWidget | None = None
        app = QApplication.instance()
        assert isinstance(app, QApplication)  # a window exists, so a widgets application does
        app.focusChanged.connect(self._on_focus_changed)

    def _on_focus_changed(self, _old, new) -> None:
        if self._watched is not None:
            try:
                self._watched.removeEventFilter(self)
            except RuntimeError:  # the widget is gone already
                pass
        self._watched = new if new is not None and new.window() is self._window else None
        if self._watched is not None:
            self._watched.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if (event.type() == QEvent.Type.ShortcutOverride and any(event.matches(k) for k in UNDO_KEYS)
                and window_takes_undo(obj)):
            event.ignore()  # not overridden: the shortcut (Edit ▸ Undo / Redo) takes the key
            return True
        return False
