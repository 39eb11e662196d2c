"""Add build ▸ GPU × count with different cards: an RTX 3090 beside an RTX 4090 is
saved as a user build, joins the comparison by its id, and its estimate and checks say what mixing costs."""

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from advisor.core.advice.candidates import catalog_candidates
from advisor.core.hardware.catalog import RecordKind
from advisor.core.hardware.memory import usable_memory_bytes
from advisor.core.hardware.records import BuildGpu
from advisor.core.job.choices import Engine
from advisor.core.speed.decode import stage_shares
from advisor.storage import paths
from advisor.storage.catalog_store import load_catalog, user_record_path
from advisor.ui.add_build_dialog import AddBuildDialog
from advisor.ui.builds_table_model import CHECKS_COLUMN

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


def _select(dialog, record_id):
    lst = dialog.list_records
    lst.setCurrentRow(next(i for i in range(lst.count()) if lst.item(i).data(256) == record_id))


def _fill_mixed(dialog, first="rtx-3090", other="rtx-4090", first_count=1, other_count=1):
    _select(dialog, first)
    dialog.spin_count.setValue(first_count)
    row = dialog.add_card_row()
    row.set_card(other)
    row.spin_count.setValue(other_count)
    return row


def _user_files():
    root = paths.user_catalog_dir()
    return sorted(p.relative_to(root) for p in root.rglob("*.json")) if root.exists() else []


@pytest.fixture
def gpu_dialog(qtbot, app_window):
    session, window = app_window
    d = AddBuildDialog(session.catalog, "gpu", window)
    qtbot.addWidget(d)
    return d


def test_one_card_stays_as_simple_as_before(gpu_dialog):
    """No other card: nothing new to read, and OK adds the same plain entry as before."""
    _select(gpu_dialog, "rtx-3090")
    assert gpu_dialog.label_other_cards.text() == "" and gpu_dialog.card_rows == []
    assert not gpu_dialog.label_mixing.isVisibleTo(gpu_dialog)
    assert gpu_dialog.label_count.text() == "How many"
    assert gpu_dialog.button_more.isVisibleTo(gpu_dialog)
    gpu_dialog.accept()
    entry = gpu_dialog.entry()
    assert (entry.gpu_id, entry.gpu_count, entry.build_id) == ("rtx-3090", 2, None)
    assert gpu_dialog.saved_build is None and _user_files() == []


def test_the_same_card_twice_is_one_card_counted(gpu_dialog):
    _fill_mixed(gpu_dialog, "rtx-3090", "rtx-3090", 2, 1)
    assert not gpu_dialog.is_mixed()
    assert gpu_dialog.topology_editor.check_nvlink.isVisibleTo(gpu_dialog)  # three 3090s may still be bridged
    gpu_dialog.accept()
    entry = gpu_dialog.entry()
    assert (entry.gpu_id, entry.gpu_count, entry.name) == ("rtx-3090", 3, "3× NVIDIA GeForce RTX 3090")
    assert _user_files() == []


def test_a_row_without_a_card_holds_ok_back(gpu_dialog):
    _select(gpu_dialog, "rtx-3090")
    row = gpu_dialog.add_card_row()
    assert not gpu_dialog.button_ok.isEnabled()
    assert "Choose a card" in gpu_dialog.label_mixing.text()
    row.combo_card.setEditText("RTX 40")  # a search text is not a card
    assert not gpu_dialog.button_ok.isEnabled() and gpu_dialog.entry() is None
    gpu_dialog.remove_card_row(row)
    assert gpu_dialog.button_ok.isEnabled() and gpu_dialog.edit_name.text() == "2× NVIDIA GeForce RTX 3090"


def test_a_unified_memory_computer_takes_no_other_card(gpu_dialog, app_window):
    session, _ = app_window
    apple = next(gid for gid, g in session.catalog.gpus.items() if g.segment.value == "unified-memory")
    _select(gpu_dialog, apple)
    assert not gpu_dialog.button_more.isEnabled()
    _select(gpu_dialog, "rtx-3090")
    row = gpu_dialog.add_card_row()
    offered = {row.combo_card.itemData(i) for i in range(row.combo_card.count())}
    assert "rtx-4090" in offered and apple not in offered
    _select(gpu_dialog, apple)  # chosen after the other card was added
    assert not gpu_dialog.button_ok.isEnabled() and "unified memory" in gpu_dialog.label_mixing.text()


def test_the_dialog_builds_a_3090_and_4090_machine(qtbot, app_window):
    """Through the menu's own path: the build is saved in the user's catalog, joins the table by
    its id, its layers follow each card's usable memory and the mixing warning is in its checks."""
    session, window = app_window
    seen = {}

    def drive():
        d = QApplication.activeModalWidget()
        seen["dialog"] = d
        _fill_mixed(d)
        assert d.edit_name.text() == "RTX 3090 + RTX 4090"
        assert d.label_count.text() == "How many RTX 3090"
        assert not d.topology_editor.check_nvlink.isVisibleTo(d)  # no bridge joins a 3090 to a 4090
        assert "slowest card" in d.label_mixing.text() and d.label_mixing.isVisibleTo(d)
        d.button_ok.click()

    QTimer.singleShot(0, drive)
    window.add_build("gpu")
    saved = seen["dialog"].saved_build
    assert saved is not None and not seen["dialog"].label_error.isVisibleTo(seen["dialog"])
    path = user_record_path(RecordKind.BUILD, saved.id, paths.user_catalog_dir())
    assert path.is_file()
    on_disk = load_catalog().catalog.user.builds[saved.id]
    assert on_disk.gpus == (BuildGpu(gpu_id="rtx-3090", count=1), BuildGpu(gpu_id="rtx-4090", count=1))
    assert on_disk.name == "RTX 3090 + RTX 4090" and on_disk.topology.nvlink_pairs == ()
    assert saved.id in session.catalog.builds  # the window's catalog was read again
    found = [c for c in catalog_candidates(session.catalog) if c.id == saved.id]  # what Find builds searches
    assert found and found[0].entry.build_id == saved.id

    entry = session.builds[-1]
    assert (entry.build_id, entry.name) == (saved.id, "RTX 3090 + RTX 4090")
    model = window.builds_panel.model
    row = model.rowCount() - 1
    assert model.index(row, 0).data() == "RTX 3090 + RTX 4090"
    tip = model.index(row, CHECKS_COLUMN).data(0x03)  # ToolTipRole
    assert "mixed GPUs (GeForce RTX 3090, GeForce RTX 4090)" in tip and "slowest card" in tip
    assert "smallest card" not in tip  # both have 24 GB: an even split wastes no memory
    assert model.index(row, CHECKS_COLUMN).data() != "ok"

    session.set_workload(session.workload.model_copy(update={"engine": Engine.LLAMA_CPP}))
    result = session.results.builds[-1]
    assert result.resolved is not None and [g.id for g in result.resolved.gpus] == ["rtx-3090", "rtx-4090"]
    # 16 sequences of 8k: a whole copy of the 8B model fits each 24 GB card (23.0 of 23.6 GiB, llama.cpp keeping the
    # input embedding in host RAM), so each card serves 8 of them — faster than taking turns on one split model
    assert result.chosen.plan.parallel.value == "none"
    usable = [usable_memory_bytes(g) for g in result.resolved.gpus]
    assert stage_shares(result.resolved, 2) == pytest.approx(tuple(u / sum(usable) for u in usable))


def test_layers_follow_usable_memory_on_unequal_cards(gpu_dialog, app_window):
    """A 3090 (24 GB) beside a 5090 (32 GB): the larger card holds the larger share of the layers.
    (The 3090 and 4090 both have 24 GB, so their shares are equal — by the same rule.)"""
    session, window = app_window
    _fill_mixed(gpu_dialog, "rtx-3090", "rtx-5090")
    gpu_dialog.accept()
    window.add_from_dialog(gpu_dialog)
    session.set_workload(session.workload.model_copy(update={"engine": Engine.LLAMA_CPP}))
    result = session.results.builds[-1]
    assert result.entry.build_id == gpu_dialog.saved_build.id
    small, large = stage_shares(result.resolved, 2)
    assert small < 0.45 < 0.55 < large
    usable = [usable_memory_bytes(g) for g in result.resolved.gpus]
    assert large / small == pytest.approx(usable[1] / usable[0])
    assert result.runs and result.estimate.speed.decode_tokens_per_s > 0
    mixing = next(w for w in result.warnings if "mixed GPUs" in w)
    assert "holds no more than the smallest card" in mixing and "in proportion to its memory" in mixing


def test_the_same_mix_twice_gets_two_ids(gpu_dialog, qtbot, app_window):
    session, _ = app_window
    _fill_mixed(gpu_dialog)
    gpu_dialog.accept()
    again = AddBuildDialog(session.catalog, "gpu")  # the catalog as read before the first save
    qtbot.addWidget(again)
    _fill_mixed(again)
    again.accept()
    assert again.saved_build.id != gpu_dialog.saved_build.id
    assert len(load_catalog().catalog.user.builds) == 2


def test_cancelling_writes_nothing(gpu_dialog, app_window):
    session, window = app_window
    before = session.builds
    _fill_mixed(gpu_dialog)
    gpu_dialog.reject()
    assert gpu_dialog.saved_build is None and gpu_dialog.entry() is None
    assert _user_files() == [] and session.builds == before


def test_a_refused_save_is_one_line_and_writes_nothing(gpu_dialog, app_window):
    session, _ = app_window
    root = paths.user_catalog_dir()
    root.mkdir(parents=True)
    (root / RecordKind.BUILD.folder).write_text("not a folder")  # the builds folder cannot be made
    before = session.builds
    _fill_mixed(gpu_dialog)
    gpu_dialog.show()
    gpu_dialog.button_ok.click()
    assert gpu_dialog.isVisible() and gpu_dialog.result() == 0  # still open: nothing is lost
    text = gpu_dialog.label_error.text()
    assert gpu_dialog.label_error.isVisibleTo(gpu_dialog)
    assert text.startswith("Your catalog could not store the build") and "nothing was saved" in text
    assert "\n" not in text
    assert gpu_dialog.saved_build is None and gpu_dialog.entry() is None
    assert _user_files() == [] and session.builds == before
    gpu_dialog.edit_name.setText("RTX 3090 + RTX 4090 (mine)")  # any change: the line is about the old try
    assert not gpu_dialog.label_error.isVisibleTo(gpu_dialog)



def test_the_name_counts_each_card_and_reads_short(gpu_dialog):
    _fill_mixed(gpu_dialog, "rtx-3090", "rtx-4090", 2, 1)
    assert gpu_dialog.edit_name.text() == "2× RTX 3090 + RTX 4090"
    gpu_dialog.edit_name.setText("Workshop box")  # typed: kept while the cards change
    gpu_dialog.card_rows[0].spin_count.setValue(2)
    gpu_dialog.accept()
    assert gpu_dialog.saved_build.name == "Workshop box"
    assert gpu_dialog.saved_build.gpus == (BuildGpu(gpu_id="rtx-3090", count=2), BuildGpu(gpu_id="rtx-4090", count=2))
    assert gpu_dialog.entry().name == "Workshop box"


def test_other_kinds_ignore_the_card_rows(gpu_dialog):
    _fill_mixed(gpu_dialog)
    gpu_dialog.combo_kind.setCurrentIndex(gpu_dialog.combo_kind.findData("build"))
    assert not gpu_dialog.box_other_cards.isVisibleTo(gpu_dialog) and not gpu_dialog.label_mixing.isVisibleTo(gpu_dialog)
    _select(gpu_dialog, "1x-rtx-5090")
    gpu_dialog.accept()
    assert gpu_dialog.entry().build_id == "1x-rtx-5090" and gpu_dialog.saved_build is None and _user_files() == []


def test_mixing_problems_in_words_errors_before_hints():
    """What holds OK back, Qt-free (``mixed_build.mixing_problem``): a unified-memory computer takes no other card
    and a build holds at most 72 of one card (errors), a row without a card yet is a hint."""
    from advisor.storage.catalog_store import load_catalog
    from advisor.ui.mixed_build import (
        MAX_OF_ONE_CARD,
        can_sit_beside_others,
        mixing_problem,
    )

    gpus = load_catalog().catalog.gpus
    mac = next(g for g in gpus.values() if not can_sit_beside_others(g) and not g.is_module)
    card = gpus["rtx-3090"]
    assert mixing_problem(mac, [], False)[1] and "unified memory" in mixing_problem(mac, [], False)[0]
    # An SXM module: on its own baseboard, no other card beside it, and no more than the board holds.
    sxm = gpus["h100-sxm"]
    assert not can_sit_beside_others(sxm)
    assert mixing_problem(sxm, [BuildGpu(gpu_id="h100-sxm", count=8)], False, other_rows=False) == ("", False)
    assert mixing_problem(sxm, [BuildGpu(gpu_id="h100-sxm", count=16)], False, other_rows=False) == (
        "One NVSwitch board holds at most 8 H100 SXM 80GB: 16 of them are 2 machines of 8 joined by a network: "
        "add 8, then set Machines to 2 in the builds table.", True)
    beside, is_error = mixing_problem(sxm, [BuildGpu(gpu_id="h100-sxm", count=2), BuildGpu(gpu_id="rtx-3090", count=1)],
                                      False)
    assert is_error and beside.startswith("The H100 SXM 80GB sits on its own baseboard")
    too_many = [BuildGpu.model_construct(gpu_id="rtx-3090", count=MAX_OF_ONE_CARD + 1)]  # past what a record takes
    assert mixing_problem(card, too_many, False) == (f"A build holds at most {MAX_OF_ONE_CARD} of one card.", True)
    assert mixing_problem(card, [BuildGpu(gpu_id="rtx-3090", count=2)], True) == (
        "Choose a card in each row (or remove the row).", False)
    assert mixing_problem(card, [BuildGpu(gpu_id="rtx-3090", count=2)], False) == ("", False)
