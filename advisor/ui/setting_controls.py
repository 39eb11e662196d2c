"""One control per job setting, made from its declaration (``advisor.core.job.settings``).

Each control is named after the field it edits (``combo_engine`` ↔ ``Job.engine``, as glue binds
widgets to state by their names), shows a value and gives one back, and says why it is greyed. The
choices' words, the bounds and the tooltip all come from the declaration and the model: nothing here
restates a setting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QSpinBox,
    QWidget,
)

from advisor.core import Setting, Widget, bounds_of, say, strict_floor, whole_bounds

PREFIX = {Widget.CHOICE: "combo", Widget.OPEN_CHOICE: "combo", Widget.WHOLE: "spin", Widget.DECIMAL: "spin",
          Widget.SWITCH: "check", Widget.TARGETS: "checks"}


def _key(value: object) -> object:
    """A value as the job compares it: an enum by its value, a typed format by its spelling."""
    value = getattr(value, "value", value)
    return value.strip().lower() if isinstance(value, str) else value


_W = TypeVar("_W", bound=QWidget)


class Control(Generic[_W]):
    """A setting's control: ``widget`` to lay out, ``value()`` / ``show(value)``, ``on_edit(fn)``, ``grey(why)``."""

    def __init__(self, setting: Setting) -> None:
        self.setting = setting
        self.widget: _W = self._make()
        self.widget.setObjectName(f"{PREFIX[setting.widget]}_{setting.name}")
        self.widget.setToolTip(setting.tooltip)

    def _make(self) -> _W:
        raise NotImplementedError

    def value(self) -> object:
        raise NotImplementedError

    def _put(self, value: object) -> None:
        raise NotImplementedError

    def on_edit(self, fn: Callable[..., None]) -> None:
        raise NotImplementedError

    def show(self, value: object) -> None:
        """Show ``value`` without sending an edit; nothing is repainted when it is already shown."""
        if _key(self.value()) == _key(value):
            return
        self.widget.blockSignals(True)
        self._put(value)
        self.widget.blockSignals(False)

    def grey(self, why: str | None) -> None:
        """Enabled where the setting applies; greyed with the reason in its tooltip where it does not."""
        self.widget.setEnabled(why is None)
        self.widget.setToolTip(self.setting.tooltip + (f"\n\nNot used now: it {why}." if why else ""))


class ChoiceControl(Control[QComboBox]):
    """A list of the declared choices in their words; a value the list lacks (a file's) is added."""

    def _make(self) -> QComboBox:
        c = QComboBox()
        # Size to a short text, not the longest item: the panel must stay narrow at 1024 px.
        c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        c.setMinimumContentsLength(8)
        self.values: list[object] = []
        self._fill(c, [ch.value for ch in self.setting.choices])
        return c

    def _words(self, value: object) -> str:
        return say(self.setting.name, value)

    def _fill(self, c: QComboBox, values: Sequence[object]) -> None:
        c.clear()
        self.values = list(values)
        for v in self.values:
            c.addItem(self._words(v), None if v is None else str(_key(v)))  # the data: the value as the job spells it
            ch = self.setting.choice(v)
            if ch is not None and ch.tip:
                c.setItemData(c.count() - 1, f"{ch.label}: {ch.tip}.", Qt.ItemDataRole.ToolTipRole)

    def value(self) -> object:
        i = self.widget.currentIndex()
        return self.values[i] if 0 <= i < len(self.values) else None

    def _put(self, value: object) -> None:
        keys = [_key(v) for v in self.values]
        if _key(value) not in keys:  # a value from a file the list does not offer (TensorRT-LLM '0.7a')
            self.values.append(value)
            self.widget.addItem(self._words(value), str(_key(value)))
            keys.append(_key(value))
        self.widget.setCurrentIndex(keys.index(_key(value)))

    def on_edit(self, fn: Callable[..., None]) -> None:
        self.widget.currentIndexChanged.connect(fn)

    def set_values(self, values: Sequence[object]) -> None:
        """Offer ``values`` instead (a training method's bases), keeping the shown one where it is offered."""
        if [_key(v) for v in values] == [_key(v) for v in self.values]:
            return
        self.widget.blockSignals(True)
        self._fill(self.widget, values)
        self.widget.blockSignals(False)

    def grey_items(self, allowed: Callable[[object], bool]) -> None:
        """Items the job cannot take stay listed, greyed (the user sees they exist)."""
        model = self.widget.model()
        for i, v in enumerate(self.values):
            item = model.item(i) if hasattr(model, "item") else None
            if item is not None:
                item.setEnabled(bool(allowed(v)))


class OpenChoiceControl(ChoiceControl):
    """The declared choices, and any value typed in (another GGUF type, EXL2 '4.65bpw')."""

    def _make(self) -> QComboBox:
        c = super()._make()
        c.setEditable(True)
        c.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        return c

    def value(self) -> object:
        text = self.widget.currentText().strip()
        for v in self.values:
            if text == self._words(v) or text.lower() == _key(v):
                return v
        return text.lower()

    def _put(self, value: object) -> None:
        # A value the list lacks (EXL2 '8.0bpw' put in by a switch of engine, or one from a file) is added as an
        # item, as the closed list does, so that the words shown read back as that value.
        super()._put(value)
        self.widget.lineEdit().setCursorPosition(0)  # the start of the words in sight, not their end

    def on_edit(self, fn: Callable[..., None]) -> None:
        self.widget.currentIndexChanged.connect(fn)
        self.widget.lineEdit().editingFinished.connect(fn)


class WholeControl(Control[QSpinBox]):
    """A whole number within the field's bounds; None (where the setting offers it) one below them."""

    def _make(self) -> QSpinBox:
        s = QSpinBox()
        least, most = whole_bounds(self.setting.name)
        self.unset_at = least - 1 if self.setting.unset else None
        s.setRange(self.unset_at if self.unset_at is not None else least, most)
        if self.setting.unset:
            s.setSpecialValueText(self.setting.unset)
        s.setSingleStep(int(self.setting.step))
        _commit_only(s)
        return s

    def value(self) -> object:
        v = self.widget.value()
        return None if v == self.unset_at else v

    def _put(self, value: object) -> None:
        if value is None:
            value = self.setting.none_means if self.setting.none_means is not None else self.unset_at
        self.widget.setValue(int(value))

    def on_edit(self, fn: Callable[..., None]) -> None:
        self.widget.valueChanged.connect(fn)


class DecimalControl(Control[QDoubleSpinBox]):
    """A number within the field's bounds, shown divided by the declared scale ('M tokens')."""

    def _make(self) -> QDoubleSpinBox:
        s = QDoubleSpinBox()
        d, scale = self.setting.decimals, self.setting.scale
        lo, hi = bounds_of(self.setting.name)
        least = (lo or 0.0) / scale + (10.0 ** -d if strict_floor(self.setting.name) else 0.0)
        self.unset_at = 0.0 if self.setting.unset else None
        s.setDecimals(d)
        s.setRange(self.unset_at if self.unset_at is not None else least, (hi or 1e9 * scale) / scale)
        if self.setting.unset:
            s.setSpecialValueText(self.setting.unset)
        if self.setting.unit:
            s.setSuffix(f" {self.setting.unit}")
        s.setSingleStep(self.setting.step)
        _commit_only(s)
        return s

    def value(self) -> object:
        v = self.widget.value()
        if self.unset_at is not None and v <= self.unset_at:
            return None
        return round(v * self.setting.scale) if self.setting.scale != 1 else v

    def _put(self, value: object) -> None:
        self.widget.setValue(self.unset_at if value is None else float(value) / self.setting.scale)

    def on_edit(self, fn: Callable[..., None]) -> None:
        self.widget.valueChanged.connect(fn)


class SwitchControl(Control[QCheckBox]):
    def _make(self) -> QCheckBox:
        return QCheckBox(self.setting.label)

    def value(self) -> object:
        return self.widget.isChecked()

    def _put(self, value: object) -> None:
        self.widget.setChecked(bool(value))

    def on_edit(self, fn: Callable[..., None]) -> None:
        self.widget.toggled.connect(fn)


class TargetsControl(Control[QWidget]):
    """One check box per choice (three to a row: seven in one row widen the panel); the value is those ticked."""

    def _make(self) -> QWidget:
        w = QWidget()
        grid = QGridLayout(w)
        grid.setContentsMargins(0, 0, 0, 0)
        self.boxes: dict[object, QCheckBox] = {}
        for i, ch in enumerate(self.setting.choices):
            box = QCheckBox(ch.label)
            box.setObjectName(f"check_{self.setting.name}_{ch.value}")
            self.boxes[ch.value] = box
            grid.addWidget(box, i // 3, i % 3)
        return w

    def value(self) -> object:
        return tuple(v for v, box in self.boxes.items() if box.isChecked())

    def show(self, value: object) -> None:
        chosen = set(value or ())
        for v, box in self.boxes.items():
            if box.isChecked() != (v in chosen):
                box.blockSignals(True)
                box.setChecked(v in chosen)
                box.blockSignals(False)

    def on_edit(self, fn: Callable[..., None]) -> None:
        for box in self.boxes.values():
            box.toggled.connect(fn)

    def grey(self, why: str | None) -> None:
        super().grey(why)
        for box in self.boxes.values():
            box.setToolTip(self.widget.toolTip())


def _commit_only(s: QAbstractSpinBox) -> None:
    s.setKeyboardTracking(False)  # one recompute per committed number, not per keystroke
    s.setAccelerated(True)


KINDS: dict[Widget, type[Control]] = {Widget.CHOICE: ChoiceControl, Widget.OPEN_CHOICE: OpenChoiceControl,
                                      Widget.WHOLE: WholeControl, Widget.DECIMAL: DecimalControl,
                                      Widget.SWITCH: SwitchControl, Widget.TARGETS: TargetsControl}


def make_control(setting: Setting) -> Control:
    """The control of ``setting``'s kind (a PLAN setting has none here: each build's plan sets it)."""
    return KINDS[setting.widget](setting)
