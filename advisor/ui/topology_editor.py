"""The links between a build's GPUs as a form (NVLink bridges, peer-to-peer, PCIe generation and lanes), and
Duplicate & tweak: the same build with other links."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QSpinBox, QVBoxLayout

from advisor.core import BuildEntry, ResolvedBuild, Topology, bridge_pairs


class TopologyEditor(QFormLayout):
    """The links between a build's GPUs: NVLink bridges, P2P, PCIe generation and lanes."""

    def __init__(self, topology: Topology, n_gpus: int, nvlink_possible: bool = True) -> None:
        super().__init__()
        self.n_gpus = n_gpus
        self.check_nvlink = QCheckBox("NVLink bridge on each pair (0–1, 2–3 …)")
        self.check_nvlink.setToolTip("A bridge joins two cards directly (RTX 3090: 112.5 GB/s total); "
                                     "tensor-parallel all-reduces then skip PCIe and host memory, and vLLM, SGLang "
                                     "and TensorRT-LLM reduce with their own faster kernel.")
        self.check_nvlink.setChecked(bool(topology.nvlink_pairs))
        self.check_p2p = QCheckBox("PCIe peer-to-peer")
        self.check_p2p.setToolTip("Cards copy to each other over PCIe without staging in host memory "
                                  "(off on GeForce RTX 4090 with stock drivers); vLLM and SGLang then reduce two "
                                  "cards' results with their own faster kernel.")
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

    def set_base(self, topology: Topology, widgets: bool) -> None:
        """The links the chosen cards have by themselves (``gpu_build``: their PCIe generation, peer-to-peer,
        an NVSwitch baseboard); ``widgets``: the fields show them too (a card was chosen, not a count)."""
        self.base = topology
        if widgets:
            self.check_p2p.setChecked(topology.p2p)
            self.spin_pcie_gen.setValue(topology.pcie_gen)

    def set_nvlink_possible(self, possible: bool) -> None:
        """Offer the bridge only for cards that have NVLink: hidden and off otherwise."""
        self.check_nvlink.setVisible(possible)
        if not possible:
            self.check_nvlink.setChecked(False)

    def topology(self) -> Topology:
        pairs = bridge_pairs(self.n_gpus) if self.check_nvlink.isChecked() else ()
        lanes = self.spin_pcie_lanes.value()
        return self.base.model_copy(update={
            "nvlink_pairs": pairs, "p2p": self.check_p2p.isChecked(), "pcie_gen": self.spin_pcie_gen.value(),
            "pcie_lanes_per_gpu": (lanes,) * self.n_gpus if lanes else (),
            "lane_sources": self.base.lane_sources if len(self.base.lane_sources) == self.n_gpus else (),
        })


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
