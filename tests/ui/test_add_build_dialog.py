"""Add-build dialog: OK waits for a visible row, the name follows the count, NVLink only where it exists."""

import pytest

from advisor.core.hardware.records import Topology
from advisor.storage.catalog_store import load_catalog
from advisor.ui.add_build_dialog import AddBuildDialog
from advisor.ui.topology_editor import TopologyEditor

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


@pytest.fixture
def gpu_dialog(qtbot, catalog):
    d = AddBuildDialog(catalog, "gpu")
    qtbot.addWidget(d)
    return d


def _select(dialog, record_id):
    lst = dialog.list_records
    row = next(i for i in range(lst.count()) if lst.item(i).data(256) == record_id)
    lst.setCurrentRow(row)


def test_ok_is_disabled_until_a_row_is_selected(gpu_dialog):
    assert not gpu_dialog.button_ok.isEnabled()
    assert gpu_dialog.entry() is None
    _select(gpu_dialog, "rtx-5090")
    assert gpu_dialog.button_ok.isEnabled()


def test_a_search_text_never_adds_a_hidden_card(gpu_dialog):
    _select(gpu_dialog, "a10")
    gpu_dialog.edit_filter.setText("48GB")  # hides the A10 (24 GB)
    assert gpu_dialog.list_records.item(gpu_dialog.list_records.currentRow()) is None \
        or not gpu_dialog.list_records.currentItem().isHidden()
    assert not gpu_dialog.button_ok.isEnabled()
    assert gpu_dialog.entry() is None
    assert gpu_dialog.edit_name.text() == ""


def test_the_name_follows_how_many(gpu_dialog):
    _select(gpu_dialog, "rtx-5090")
    gpu_dialog.spin_count.setValue(1)
    assert gpu_dialog.edit_name.text() == "1× NVIDIA GeForce RTX 5090"
    gpu_dialog.spin_count.setValue(4)
    entry = gpu_dialog.entry()
    assert entry.name == "4× NVIDIA GeForce RTX 5090" and entry.gpu_count == 4


def test_a_name_the_user_typed_is_kept(gpu_dialog):
    _select(gpu_dialog, "rtx-5090")
    gpu_dialog.edit_name.setText("my box")
    gpu_dialog.spin_count.setValue(3)
    assert gpu_dialog.entry().name == "my box"


@pytest.mark.parametrize(("gpu_id", "offered"), [("rtx-3090", True), ("rtx-4090", False), ("rtx-5090", False),
                                                  ("h100-sxm", False)])  # a module: its board's NVSwitch, no bridge
def test_nvlink_is_offered_only_for_cards_that_have_it(gpu_dialog, gpu_id, offered):
    _select(gpu_dialog, gpu_id)
    gpu_dialog.spin_count.setValue(2)
    assert gpu_dialog.topology_editor.check_nvlink.isVisibleTo(gpu_dialog) is offered
    gpu_dialog.spin_count.setValue(1)
    assert not gpu_dialog.topology_editor.check_nvlink.isVisibleTo(gpu_dialog)


def test_a_card_without_nvlink_never_gets_bridges(qtbot):
    editor = TopologyEditor(Topology(p2p=False), 2, nvlink_possible=False)
    editor.check_nvlink.setChecked(True)  # even if set before: hidden means off
    editor.set_nvlink_possible(False)
    assert editor.topology().nvlink_pairs == ()


@pytest.mark.parametrize(("kind", "record_id", "expect"), [
    ("system", "apple-mac-studio-m3-ultra-96gb", "Apple Mac Studio (M3 Ultra, base config)"),
    ("system", "nvidia-dgx-h100", "NVIDIA DGX H100 (reference)"),
    ("system", "answerai-fsdp-qlora-2x24gb", "2x 24 GB consumer GPUs (Answer.AI FSDP+QLoRA 70B recipe)"),
    ("cloud", "runpod-h200-secure-cloud", "RunPod H200 (Secure Cloud) · 1× NVIDIA H200 SXM"),
])
def test_catalog_names_read_as_names(qtbot, catalog, kind, record_id, expect):
    d = AddBuildDialog(catalog, kind)
    qtbot.addWidget(d)
    texts = [d.list_records.item(i).text() for i in range(d.list_records.count())]
    assert expect in texts
    if kind == "system":  # a system that cannot be evaluated (no verified GPUs) is not offered
        assert "NVIDIA DGX-2" not in texts and "Mentor-100" not in texts
    assert not any("unknown (" in t or "Apple Apple" in t or "NVIDIA NVIDIA" in t for t in texts)
    if kind == "cloud":
        raw_ids = {f"× {c.gpu_id}" for c in catalog.cloud.values()}  # not "(8× h200-sxm)"
        assert not any(t.endswith(raw) or f"{raw})" in t for t in texts for raw in raw_ids)


def _click(qtbot, dialog, record_id):
    """Choose a row with the mouse, as a user does (the current row changes before the selection)."""
    from PySide6.QtCore import Qt

    lst = dialog.list_records
    item = next(lst.item(i) for i in range(lst.count()) if lst.item(i).data(256) == record_id)
    lst.scrollToItem(item)
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=lst.visualItemRect(item).center())


def test_a_clicked_card_is_named_with_its_default_count(qtbot, gpu_dialog):
    gpu_dialog.show()
    _click(qtbot, gpu_dialog, "rtx-5090")
    assert gpu_dialog.spin_count.value() == 2 and gpu_dialog.edit_name.text() == "2× NVIDIA GeForce RTX 5090"
    entry = gpu_dialog.entry()
    assert entry.name == "2× NVIDIA GeForce RTX 5090" and entry.gpu_count == 2


@pytest.mark.parametrize("gpu_id", ["rtx-pro-6000-blackwell", "rtx-3090", "rtx-5090", "h100-pcie"])
def test_the_links_default_to_the_cards_own(qtbot, catalog, gpu_dialog, gpu_id):
    from advisor.core.hardware.catalog import gpu_build

    gpu_dialog.show()
    _click(qtbot, gpu_dialog, gpu_id)
    own = gpu_build(catalog, gpu_id, 2).topology
    assert gpu_dialog.topology_editor.spin_pcie_gen.value() == own.pcie_gen == catalog.gpus[gpu_id].pcie_gen
    assert gpu_dialog.entry().topology.pcie_gen == own.pcie_gen and gpu_dialog.entry().topology.p2p == own.p2p


def test_an_sxm_module_group_keeps_its_baseboard(qtbot, catalog, gpu_dialog):
    gpu_dialog.show()
    _click(qtbot, gpu_dialog, "h100-sxm")
    gpu_dialog.spin_count.setValue(8)
    assert gpu_dialog.entry().topology.nvswitch
    assert gpu_dialog.button_ok.isEnabled() and not gpu_dialog.label_mixing.isVisibleTo(gpu_dialog)
    # Past the board: refused in words that say how to build it (machines are a column of the builds table).
    gpu_dialog.spin_count.setValue(16)
    assert not gpu_dialog.button_ok.isEnabled() and gpu_dialog.label_mixing.isVisibleTo(gpu_dialog)
    assert "One NVSwitch board holds at most 8 H100 SXM 80GB" in gpu_dialog.label_mixing.text()
    assert "set Machines to 2" in gpu_dialog.label_mixing.text()
    gpu_dialog.spin_count.setValue(4)
    assert gpu_dialog.button_ok.isEnabled() and not gpu_dialog.label_mixing.isVisibleTo(gpu_dialog)


def test_a_generation_the_user_set_stays_when_the_count_changes(qtbot, gpu_dialog):
    gpu_dialog.show()
    _click(qtbot, gpu_dialog, "rtx-pro-6000-blackwell")
    gpu_dialog.topology_editor.spin_pcie_gen.setValue(4)  # the board runs the slots at 4.0
    gpu_dialog.spin_count.setValue(3)
    assert gpu_dialog.entry().topology.pcie_gen == 4 and gpu_dialog.entry().name.startswith("3× ")
