"""Banners above the editor's tables: files that did not load, and changes made elsewhere.

A user file that fails validation is listed with its path, field and message; it is
never rewritten silently. The user may look at its backup (``<id>.json.bak``, the
previous version the storage layer kept) and, on explicit request, restore it.

Signals:
  restore_requested(object)  Path of a broken file whose backup the user wants back
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from advisor.storage.atomic import backup_path
from advisor.storage.catalog_store import LoadProblem

WARN_STYLE = "QFrame#banner_problems { background: #fff4e5; border: 1px solid #e0a040; } QLabel { color: #5a3a00; }"
INFO_STYLE = "QFrame#banner_changes { background: #e8f1fb; border: 1px solid #6a9fd8; } QLabel { color: #10355e; }"


class ProblemsBanner(QFrame):
    restore_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner_problems")
        self.setStyleSheet(WARN_STYLE)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.list = QListWidget()
        self.list.setMaximumHeight(90)
        self.button_show = QPushButton("Show backup…")
        self.button_restore = QPushButton("Restore from backup…")
        self.button_show.clicked.connect(self._on_show_clicked)
        self.button_restore.clicked.connect(self._on_restore_clicked)
        self.list.currentRowChanged.connect(self._update_buttons)
        buttons = QVBoxLayout()
        buttons.addWidget(self.button_show)
        buttons.addWidget(self.button_restore)
        buttons.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.list, 1)
        row.addLayout(buttons)
        lay = QVBoxLayout(self)
        lay.addWidget(self.label)
        lay.addLayout(row)
        self.set_problems([])

    def set_problems(self, problems: list[LoadProblem]) -> None:
        self.list.clear()
        for p in problems:
            item = QListWidgetItem(str(p))
            item.setData(256, str(p.path))
            item.setToolTip(str(p))
            self.list.addItem(item)
        files = len({p.path for p in problems})
        self.label.setText(
            f"<b>{files} catalog file(s) did not load.</b> They are left exactly as they are; an edit that would "
            "replace one asks first. Select a line to see or restore the file's backup (.bak).")
        self.setVisible(bool(problems))
        if problems:
            self.list.setCurrentRow(0)
        self._update_buttons()

    def selected_path(self) -> Path | None:
        item = self.list.currentItem()
        return Path(item.data(256)) if item else None

    def _update_buttons(self, *_args) -> None:
        path = self.selected_path()
        has_backup = path is not None and backup_path(path).is_file()
        self.button_show.setEnabled(has_backup)
        self.button_restore.setEnabled(has_backup)
        self.button_show.setToolTip("" if has_backup else "no .bak file next to this one")

    def _on_show_clicked(self) -> None:
        path = self.selected_path()
        if path is not None:
            BackupDialog(path, self).exec()

    def _on_restore_clicked(self) -> None:
        path = self.selected_path()
        if path is not None:
            self.restore_requested.emit(path)


class BackupDialog(QDialog):
    """The backup's text, read-only, beside the broken file's path."""

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        bak = backup_path(path)
        self.setWindowTitle(f"Backup of {path.name}")
        text = QPlainTextEdit()
        text.setReadOnly(True)
        try:
            text.setPlainText(bak.read_text(encoding="utf-8", errors="replace"))
        except OSError as exc:
            text.setPlainText(f"could not read {bak}: {exc.strerror or exc}")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(f"Backup: {bak}\nBroken file: {path}"))
        lay.addWidget(text)
        lay.addWidget(buttons)
        self.resize(640, 480)


class ChangesBanner(QFrame):
    """'Changed on disk by another program: … — reloaded' (dismissable)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner_changes")
        self.setStyleSheet(INFO_STYLE)
        self.label = QLabel()
        self.label.setWordWrap(True)
        close = QPushButton("Dismiss")
        close.clicked.connect(self.hide)
        lay = QHBoxLayout(self)
        lay.addWidget(self.label, 1)
        lay.addWidget(close)
        self.setVisible(False)

    def say(self, text: str) -> None:
        self.label.setText(text)
        self.setVisible(True)
