"""Other kinds of card in the Add-build dialog's machine: a row per card (type to search) × how many, and Remove."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QCompleter, QHBoxLayout, QPushButton, QSpinBox, QVBoxLayout, QWidget

MAX_OTHER_CARDS = 7  # eight kinds of card in one machine is already more than a board has slots


class CardRow(QWidget):
    """One more kind of card in the machine: the card (type to search) × how many, and Remove."""

    changed = Signal()
    remove_requested = Signal(object)

    def __init__(self, choices: list[tuple[str, str]], parent=None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.combo_card = QComboBox()
        self.combo_card.setEditable(True)
        self.combo_card.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        # As wide as the dialog gives it, not as its longest card name (which widened the dialog).
        self.combo_card.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo_card.setMinimumContentsLength(16)
        for text, gpu_id in choices:
            self.combo_card.addItem(text, gpu_id)
        completer = QCompleter(self.combo_card.model(), self.combo_card)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.combo_card.setCompleter(completer)
        self.combo_card.setCurrentIndex(-1)
        self.combo_card.lineEdit().setPlaceholderText("Type or pick a card")
        self.combo_card.setToolTip("A different card in the same machine")
        self.spin_count = QSpinBox()
        self.spin_count.setRange(1, 72)
        self.spin_count.setPrefix("× ")
        self.spin_count.setToolTip("How many of this card")
        self.button_remove = QPushButton("Remove")
        self.button_remove.setToolTip("Take this card out of the build")
        lay.addWidget(self.combo_card, 1)
        lay.addWidget(self.spin_count)
        lay.addWidget(self.button_remove)
        self.combo_card.currentTextChanged.connect(self.changed)
        self.combo_card.currentIndexChanged.connect(lambda _i: self.combo_card.lineEdit().setCursorPosition(0))
        self.spin_count.valueChanged.connect(self.changed)
        self.button_remove.clicked.connect(lambda: self.remove_requested.emit(self))

    def gpu_id(self) -> str | None:
        """The chosen card's id; None while the text names no card of the list."""
        i = self.combo_card.findText(self.combo_card.currentText().strip(), Qt.MatchFlag.MatchFixedString)
        return self.combo_card.itemData(i) if i >= 0 else None

    def set_card(self, gpu_id: str) -> None:
        self.combo_card.setCurrentIndex(self.combo_card.findData(gpu_id))


class OtherCards(QWidget):
    """The rows of other cards in the machine, then the button that adds one.

    Signals (past-tense events):
      changed()  a row was added, removed, or its card or count changed
    """

    changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[CardRow] = []
        other = QVBoxLayout(self)
        other.setContentsMargins(0, 0, 0, 0)
        self.rows_layout = QVBoxLayout()
        other.addLayout(self.rows_layout)
        self.button_more = QPushButton("Add another card")
        self.button_more.setToolTip("Put a different card in the same machine, e.g. an RTX 4090 beside an RTX 3090")
        other.addWidget(self.button_more, 0, Qt.AlignmentFlag.AlignLeft)

    def add_row(self, choices: list[tuple[str, str]]) -> CardRow | None:
        """One more row offering ``choices`` ((text, gpu id)); None when the machine has ``MAX_OTHER_CARDS``."""
        if len(self.rows) >= MAX_OTHER_CARDS:
            return None
        row = CardRow(choices, self)
        row.changed.connect(self.changed)
        row.remove_requested.connect(self.remove_row)
        self.rows_layout.addWidget(row)
        self.rows.append(row)
        row.combo_card.setFocus()
        self.changed.emit()
        return row

    def remove_row(self, row: CardRow) -> None:
        if row in self.rows:
            self.rows.remove(row)
            self.rows_layout.removeWidget(row)
            row.deleteLater()
            self.changed.emit()

    def counts(self) -> list[tuple[str, int]]:
        """(gpu id, how many) of each row with a card chosen."""
        return [(r.gpu_id(), r.spin_count.value()) for r in self.rows if r.gpu_id()]

    def incomplete(self) -> bool:
        """A row names no card yet."""
        return any(r.gpu_id() is None for r in self.rows)
