"""Edit ▸ Preferences: memory unit, how prices are written, the engine of a new comparison, and the
running-cost settings."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
)

from advisor.core import Engine
from advisor.storage.settings import Settings


class PreferencesDialog(QDialog):
    def __init__(self, prefs: Settings, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.prefs = prefs
        form = QFormLayout(self)
        self.combo_memory_unit = QComboBox()
        self.combo_memory_unit.addItems(["GiB", "GB"])
        self.combo_memory_unit.setCurrentText(prefs.memory_unit)
        self.combo_memory_unit.setToolTip("GiB = 1024³ bytes (what the card reports); GB = 10⁹ bytes (the box)")
        form.addRow("Memory sizes in", self.combo_memory_unit)
        self.combo_currency_style = QComboBox()
        self.combo_currency_style.addItem("$1,234", "symbol")
        self.combo_currency_style.addItem("1,234 USD", "code")
        self.combo_currency_style.setCurrentIndex(0 if prefs.currency_style == "symbol" else 1)
        form.addRow("Prices shown as", self.combo_currency_style)
        self.combo_default_engine = QComboBox()
        for e in Engine:
            self.combo_default_engine.addItem(e.label, e.value)
        self.combo_default_engine.setCurrentIndex(self.combo_default_engine.findData(prefs.default_engine.value))
        form.addRow("Engine of a new comparison", self.combo_default_engine)
        # Running cost: defaults and sources in advisor.core.cost.running.
        from advisor.core import ELECTRICITY_SOURCE

        self.spin_electricity = self._spin(prefs.electricity_usd_per_kwh, 0.001, 5.0, 4, 0.01)
        self.spin_electricity.setToolTip(f"What a kWh costs you. Default: {ELECTRICITY_SOURCE}")
        form.addRow("Electricity price ($/kWh)", self.spin_electricity)
        self.spin_hours = self._spin(prefs.hours_per_day, 0.5, 24.0, 1, 1.0)
        self.spin_hours.setToolTip("Hours a day the machine works (8: a working day; 24: a server around the clock)")
        form.addRow("Hours of use per day", self.spin_hours)
        self.spin_years = self._spin(prefs.years, 0.5, 20.0, 1, 0.5)
        self.spin_years.setToolTip("Years you keep the hardware: its price is spread over the hours of use in them")
        form.addRow("Years of ownership", self.spin_years)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    @staticmethod
    def _spin(value: float, low: float, high: float, decimals: int, step: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setRange(low, high)
        spin.setDecimals(decimals)
        spin.setSingleStep(step)
        spin.setValue(value)
        return spin

    def result_prefs(self) -> Settings:
        # Validated again (the spin boxes' ranges sit inside the settings' bounds).
        return Settings.model_validate({**self.prefs.model_dump(), **{
            "memory_unit": self.combo_memory_unit.currentText(),
            "currency_style": self.combo_currency_style.currentData(),
            "default_engine": Engine(self.combo_default_engine.currentData()),
            "electricity_usd_per_kwh": self.spin_electricity.value(),
            "hours_per_day": self.spin_hours.value(),
            "years": self.spin_years.value(),
        }})
