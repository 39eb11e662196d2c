"""Add-build dialog: OK waits for a visible row, the name follows the count, NVLink only where it exists."""

import pytest

from advisor.core.hardware.records import Topology
from advisor.storage.catalog_store import load_catalog
from advisor.ui.dialogs import AddBuildDialog, TopologyEditor

pytestmark = [pytest.mark.gui]


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


@pytest.mark.parametrize(("gpu_id", "offered"), [("rtx-3090", True), ("rtx-4090", False), ("rtx-5090", False)])
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
    if kind == "system":  # a system that cannot be evaluated (no verified GPUs) is not offered (issue 40)
        assert "NVIDIA DGX-2" not in texts and "Mentor-100" not in texts
    assert not any("unknown (" in t or "Apple Apple" in t or "NVIDIA NVIDIA" in t for t in texts)
    if kind == "cloud":
        raw_ids = {f"× {c.gpu_id}" for c in catalog.cloud.values()}  # "(8× h200-sxm)" before issue 17
        assert not any(t.endswith(raw) or f"{raw})" in t for t in texts for raw in raw_ids)
