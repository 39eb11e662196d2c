"""Dialogs: add a build from the catalog, tweak a build's links, preferences, text pages."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
)

from advisor.core.advice.comparison import BuildEntry
from advisor.core.hardware.catalog import cloud_display_name, display_name
from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job.workload import Engine
from advisor.storage.settings import Settings

KINDS = {"gpu": "GPU × count", "build": "Catalog build", "system": "Prebuilt system", "cloud": "Cloud instance"}
NAME_ROLE = Qt.ItemDataRole.UserRole + 1  # the record's display name, the build name's stem


class TopologyEditor(QFormLayout):
    """The links between a build's GPUs: NVLink bridges, P2P, PCIe generation and lanes."""

    def __init__(self, topology: Topology, n_gpus: int, nvlink_possible: bool = True) -> None:
        super().__init__()
        self.n_gpus = n_gpus
        self.check_nvlink = QCheckBox("NVLink bridge on each pair (0–1, 2–3 …)")
        self.check_nvlink.setToolTip("A bridge joins two cards directly (RTX 3090: 112.5 GB/s total); "
                                     "tensor-parallel all-reduces then skip PCIe and host memory.")
        self.check_nvlink.setChecked(bool(topology.nvlink_pairs))
        self.check_p2p = QCheckBox("PCIe peer-to-peer")
        self.check_p2p.setToolTip("Cards copy to each other over PCIe without staging in host memory "
                                  "(off on GeForce RTX 4090 with stock drivers).")
        self.check_p2p.setChecked(topology.p2p)
        self.spin_pcie_gen = QSpinBox()
        self.spin_pcie_gen.setRange(1, 7)
        self.spin_pcie_gen.setValue(topology.pcie_gen)
        self.spin_pcie_lanes = QSpinBox()
        self.spin_pcie_lanes.setRange(0, 32)
        self.spin_pcie_lanes.setSpecialValueText("card's own")
        self.spin_pcie_lanes.setValue(topology.pcie_lanes_per_gpu[0] if topology.pcie_lanes_per_gpu else 0)
        self.spin_pcie_lanes.setToolTip("Electrical lanes each slot gives its card (x8/x8 on many desktop boards)")
        self.addRow(self.check_nvlink)
        self.addRow(self.check_p2p)
        self.addRow("PCIe generation", self.spin_pcie_gen)
        self.addRow("Lanes per GPU", self.spin_pcie_lanes)
        self.base = topology
        self.set_nvlink_possible(nvlink_possible or bool(topology.nvlink_pairs))

    def set_nvlink_possible(self, possible: bool) -> None:
        """Offer the bridge only for cards that have NVLink (issue 17): hidden and off otherwise."""
        self.check_nvlink.setVisible(possible)
        if not possible:
            self.check_nvlink.setChecked(False)

    def topology(self) -> Topology:
        pairs = tuple((i, i + 1) for i in range(0, self.n_gpus - 1, 2)) if self.check_nvlink.isChecked() else ()
        lanes = self.spin_pcie_lanes.value()
        return self.base.model_copy(update={
            "nvlink_pairs": pairs, "p2p": self.check_p2p.isChecked(), "pcie_gen": self.spin_pcie_gen.value(),
            "pcie_lanes_per_gpu": (lanes,) * self.n_gpus if lanes else (),
            "lane_sources": self.base.lane_sources if len(self.base.lane_sources) == self.n_gpus else (),
        })


class AddBuildDialog(QDialog):
    """Pick a catalog GPU (× count, with its links), build, prebuilt system or cloud instance."""

    def __init__(self, catalog, kind: str = "build", parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add a build")
        self.catalog = catalog
        lay = QVBoxLayout(self)
        self.combo_kind = QComboBox()
        for k, label in KINDS.items():
            self.combo_kind.addItem(label, k)
        lay.addWidget(self.combo_kind)
        self.edit_filter = QLineEdit()
        self.edit_filter.setPlaceholderText("Search…")
        self.edit_filter.setClearButtonEnabled(True)
        lay.addWidget(self.edit_filter)
        self.list_records = QListWidget()
        lay.addWidget(self.list_records, 1)
        form = QFormLayout()
        self.spin_count = QSpinBox()
        self.spin_count.setRange(1, 72)
        self.spin_count.setValue(2)
        form.addRow("How many", self.spin_count)
        self.edit_name = QLineEdit()
        form.addRow("Name", self.edit_name)
        lay.addLayout(form)
        self.topology_editor = TopologyEditor(Topology(p2p=False), 2)
        lay.addLayout(self.topology_editor)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.button_ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        lay.addWidget(buttons)
        self._auto_name = ""  # the name the dialog wrote; a name the user typed is kept
        self.combo_kind.currentIndexChanged.connect(self._fill)
        self.edit_filter.textChanged.connect(self._filter)
        self.list_records.currentItemChanged.connect(self._on_current_changed)
        self.list_records.itemSelectionChanged.connect(self._update_ok)
        self.spin_count.valueChanged.connect(self._on_count_changed)
        self.combo_kind.setCurrentIndex(list(KINDS).index(kind))
        self._fill()
        self.resize(460, 560)

    def _records(self) -> dict:
        kind = self.combo_kind.currentData()
        if self.catalog is None:
            return {}
        return {"gpu": self.catalog.gpus, "build": self.catalog.builds, "system": self.catalog.systems, "cloud": self.catalog.cloud}[kind]

    def _label(self, rec) -> tuple[str, str]:
        """(list text, build name stem): names as people read them, no ids or vendor notes."""
        if hasattr(rec, "instance_type"):
            return cloud_display_name(self.catalog, rec), f"{rec.provider} {rec.instance_type}"
        if hasattr(rec, "vendor") and hasattr(rec, "kind"):
            name = display_name(rec.vendor, rec.name)
            return name, name
        if hasattr(rec, "memory_gib"):
            name = display_name(rec.vendor, rec.name)
            return f"{name} · {rec.memory_gb_marketing:g} GB", name
        return rec.name, rec.name

    def _fill(self) -> None:
        self.list_records.clear()
        for rid, rec in self._records().items():
            text, name = self._label(rec)
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, rid)
            item.setData(NAME_ROLE, name)
            self.list_records.addItem(item)
        is_gpu = self.combo_kind.currentData() == "gpu"
        self.spin_count.setEnabled(is_gpu)
        for i in range(self.topology_editor.rowCount()):
            for role in (QFormLayout.ItemRole.FieldRole, QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.SpanningRole):
                it = self.topology_editor.itemAt(i, role)
                if it is not None and it.widget() is not None:
                    it.widget().setEnabled(is_gpu)
        self._filter(self.edit_filter.text())
        # Nothing is chosen for the user: OK waits for a row (issue 17: a search text alone
        # once added a hidden, unrelated card).
        self.list_records.setCurrentRow(-1)
        self._on_current_changed(None)

    def _filter(self, text: str) -> None:
        t = text.lower()
        for i in range(self.list_records.count()):
            item = self.list_records.item(i)
            item.setHidden(bool(t) and t not in item.text().lower() and t not in item.data(Qt.ItemDataRole.UserRole))
        current = self.list_records.currentItem()
        if current is not None and current.isHidden():
            self.list_records.setCurrentRow(-1)  # a hidden row is never what OK adds
        self._update_ok()

    def _chosen(self) -> QListWidgetItem | None:
        item = self.list_records.currentItem()
        return item if item is not None and not item.isHidden() and item.isSelected() else None

    def _update_ok(self) -> None:
        self.button_ok.setEnabled(self._chosen() is not None)

    def _on_current_changed(self, item, _prev=None) -> None:
        is_gpu = self.combo_kind.currentData() == "gpu"
        rec = self._records().get(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None
        self.topology_editor.set_nvlink_possible(is_gpu and getattr(rec, "nvlink", None) is not None
                                                 and self.spin_count.value() > 1)
        self._set_auto_name()
        self._update_ok()

    def _on_count_changed(self, _count: int) -> None:
        self._on_current_changed(self.list_records.currentItem())

    def _set_auto_name(self) -> None:
        """The name follows the record and "How many" until the user types one of their own."""
        item = self._chosen()
        if item is None:
            auto = ""
        elif self.combo_kind.currentData() == "gpu":
            auto = f"{self.spin_count.value()}× {item.data(NAME_ROLE)}"
        else:
            auto = item.data(NAME_ROLE)
        if self.edit_name.text().strip() in ("", self._auto_name):
            self.edit_name.setText(auto)
        self._auto_name = auto

    def entry(self) -> BuildEntry | None:
        item = self._chosen()
        if item is None:
            return None
        rid = item.data(Qt.ItemDataRole.UserRole)
        name = self.edit_name.text().strip() or item.data(NAME_ROLE)
        kind = self.combo_kind.currentData()
        if kind == "gpu":
            n = self.spin_count.value()
            self.topology_editor.n_gpus = n
            return BuildEntry(name=name, gpu_id=rid, gpu_count=n, topology=self.topology_editor.topology())
        return BuildEntry(name=name, **{f"{kind}_id": rid})


class TweakDialog(QDialog):
    """Duplicate a build and change its links: e.g. the same pair with and without the bridge."""

    def __init__(self, name: str, resolved: ResolvedBuild, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Duplicate and tweak: {name}")
        self.resolved = resolved
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.edit_name = QLineEdit(f"{name} (tweaked)")
        form.addRow("Name", self.edit_name)
        lay.addLayout(form)
        nvlink = resolved.gpu_count > 1 and all(g.nvlink is not None for g in resolved.gpus)
        self.topology_editor = TopologyEditor(resolved.topology, resolved.gpu_count, nvlink_possible=nvlink)
        lay.addLayout(self.topology_editor)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def entry(self) -> BuildEntry:
        try:
            inline = self.resolved.model_copy(update={"topology": self.topology_editor.topology(), "name": self.edit_name.text()})
            inline = ResolvedBuild.model_validate(inline.model_dump())
        except ValueError:
            inline = self.resolved
        return BuildEntry(name=self.edit_name.text().strip() or "tweaked", inline=inline)


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
        self.combo_default_engine.addItems([e.value for e in Engine])
        self.combo_default_engine.setCurrentText(prefs.default_engine.value)
        form.addRow("Engine of a new comparison", self.combo_default_engine)
        # Running cost (issue 18): defaults and sources in advisor.core.cost.running.
        from advisor.core.cost.running import ELECTRICITY_SOURCE

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
            "default_engine": Engine(self.combo_default_engine.currentText()),
            "electricity_usd_per_kwh": self.spin_electricity.value(),
            "hours_per_day": self.spin_hours.value(),
            "years": self.spin_years.value(),
        }})


def text_dialog(parent, title: str, html: str) -> QDialog:
    d = QDialog(parent)
    d.setWindowTitle(title)
    lay = QVBoxLayout(d)
    view = QTextBrowser()
    view.setOpenExternalLinks(True)
    view.setHtml(html)
    lay.addWidget(view)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(d.reject)
    lay.addWidget(buttons)
    d.resize(640, 520)
    return d
