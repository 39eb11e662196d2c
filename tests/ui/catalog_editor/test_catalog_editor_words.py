"""Catalog editor for people: labels with units, NVLink as widgets, no jumping, no raw validator text."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import RecordKind
from advisor.ui.catalog_editor.model_form import field_label, words_for
from advisor.ui.catalog_editor.window import CatalogEditor

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


@pytest.fixture
def editor(qtbot):
    ed = CatalogEditor()
    ed.skip_unsaved_prompt = True
    qtbot.addWidget(ed)
    ed.show()
    yield ed
    ed.close()


def _gpu_form(ed, record_id="rtx-3090"):
    ed.tabs.setCurrentIndex(list(RecordKind).index(RecordKind.GPU))
    assert ed.kind_tabs[RecordKind.GPU].select(record_id)
    return ed.record_forms[RecordKind.GPU].form


@pytest.mark.parametrize(("name", "label"), [
    ("pcie_gen", "PCIe generation"), ("tdp_w", "Board power (W)"), ("p2p_supported", "PCIe peer-to-peer"),
    ("memory_gb_marketing", "Memory advertised (GB)"), ("mem_bandwidth_gb_per_s", "Memory bandwidth (GB/s)"),
])
def test_labels_are_words_with_units(name, label):
    assert field_label(name) == label


def test_no_label_is_a_field_name(editor):
    form = _gpu_form(editor)
    from PySide6.QtWidgets import QLabel

    labels = [w.text() for w in form.findChildren(QLabel) if w.text()]
    assert not any("_" in t or t in ("Pcie gen", "Tdp (W)", "P2p supported") for t in labels)


def test_nvlink_is_edited_with_widgets_and_saved_as_the_record_has_it(editor):
    form = _gpu_form(editor, "rtx-3090")
    nv = form.editors["nvlink"]
    assert nv.check_has.isChecked() and nv.edit_bandwidth.text() == "112.5"
    nv.edit_bandwidth.setText("100")
    record = form.revalidate()
    assert record is not None and record.nvlink.total_gb_per_s_per_gpu == 100
    nv.check_has.setChecked(False)
    assert form.revalidate().nvlink is None
    nv.check_has.setChecked(True)
    nv.edit_bandwidth.setText("fast")
    assert form.revalidate() is None
    assert "Bandwidth per GPU" in form.errors["nvlink"].text() and "Enter a number." in form.errors["nvlink"].text()


def test_nothing_is_said_before_anything_is_typed(editor):
    ed = editor
    ed.tabs.setCurrentIndex(list(RecordKind).index(RecordKind.GPU))
    form_widget = ed.record_forms[RecordKind.GPU]
    form_widget.new()  # a blank record: every required field is empty
    form = form_widget.form
    assert all(label.text() == "" for label in form.errors.values())
    assert form.form_error.text() == ""
    assert not form_widget.button_save.isEnabled()


def test_a_message_does_not_move_the_fields_below(editor, qtbot):
    form = _gpu_form(editor, "rtx-3090")
    below = form.editors["tdp_w"].widget
    y = below.mapTo(form, below.rect().topLeft()).y()
    form.editors["memory_gib"].widget.setText("abc")
    qtbot.wait(10)
    assert form.errors["memory_gib"].text() == "Enter a number."
    assert below.mapTo(form, below.rect().topLeft()).y() == y


def test_validator_text_becomes_a_sentence_about_the_field():
    err = {"type": "value_error", "msg": "Value error, memory_gib 48.0 is not close to memory_gb_marketing 24.0"}
    assert words_for(err) == ("Memory reported (48 GiB) does not match the advertised 24 GB: "
                              "a card reports roughly the size on its box.")
    assert words_for({"type": "greater_than", "msg": "Input should be greater than 0", "ctx": {"gt": 0.0}}) == "Must be more than 0."


def test_the_editor_fits_the_screen_and_remembers_its_size(qtbot):
    first = CatalogEditor()
    first.skip_unsaved_prompt = True
    qtbot.addWidget(first)
    free = first.screen().availableGeometry()
    assert first.width() <= free.width() and first.height() <= free.height()
    first.resize(700, 500)
    first.close()
    second = CatalogEditor()
    qtbot.addWidget(second)
    assert (second.width(), second.height()) == (min(700, free.width()), min(500, free.height() - 40))
    second.skip_unsaved_prompt = True
    second.close()


def test_duplicate_copies_the_specs_not_the_provenance(editor):
    _gpu_form(editor, "rtx-3090")
    source = editor.repo.catalog.gpus["rtx-3090"]
    assert source.sources and source.notes and source.pci_device_ids and source.prices and source.launch_date
    editor.action_duplicate.trigger()
    record_form = editor.record_forms[RecordKind.GPU]
    form = record_form.form
    assert form.errors["sources"].text() == "Needed." and not record_form.button_save.isEnabled()
    assert "New GPU" in record_form.title.text() and "gpu" not in record_form.title.text().replace("GPU", "")
    form.editors["sources"].widget.setPlainText("https://example.com/new-card")
    copy = form.revalidate()
    provenance = {"sources", "notes", "pci_device_ids", "launch_date", "prices"}
    assert {k: v for k, v in copy if k not in provenance | {"id"}} == {k: v for k, v in source if k not in provenance | {"id"}}
    assert (copy.notes, copy.pci_device_ids, copy.prices, copy.launch_date) == ("", (), (), None)


def test_the_record_message_does_not_move_the_form(editor, qtbot):
    form = _gpu_form(editor, "rtx-3090")
    first = form.editors["id"].widget
    y = first.mapTo(form, first.rect().topLeft()).y()
    form.editors["memory_gib"].widget.setText("100")  # a record-wide rule: memory reported vs advertised
    qtbot.wait(10)
    assert form.form_error.text().startswith("Memory reported (100 GiB)")
    assert first.mapTo(form, first.rect().topLeft()).y() == y
    assert form.form_error.toolTip() == form.form_error.text()


def test_undoing_the_save_of_a_new_record_takes_it_off_the_screen(editor):
    _gpu_form(editor, "rtx-3090")
    editor.action_duplicate.trigger()
    record_form = editor.record_forms[RecordKind.GPU]
    form = record_form.form
    form.editors["id"].widget.setText("my-card")
    form.editors["sources"].widget.setPlainText("https://example.com/my-card")
    record_form.button_save.click()
    assert "my-card" in editor.repo.catalog.gpus and "<b>my-card</b>" in record_form.title.text()
    editor.action_undo.trigger()
    assert "my-card" not in editor.repo.catalog.gpus
    assert not form.isEnabled() and "my-card" not in record_form.title.text()
    editor.action_redo.trigger()
    editor.kind_tabs[RecordKind.GPU].select("my-card")
    form.editors["tdp_w"].widget.setText("123")  # edits under way when the save is undone
    editor.action_undo.trigger()
    assert "my-card" not in editor.repo.catalog.gpus
    assert "no longer in the catalog" in record_form.title.text() and record_form.is_new
    assert form.candidate()[0]["tdp_w"] == "123" and record_form.button_save.isEnabled()  # kept; Save adds it again
    record_form.button_save.click()
    assert editor.repo.catalog.gpus["my-card"].tdp_w == 123


def test_choices_and_undo_texts_are_words(editor):
    from PySide6.QtWidgets import QComboBox

    from advisor.core.hardware.records import PricePoint
    from advisor.ui.catalog_editor.price_history import PriceDialog

    dialog = PriceDialog(PricePoint)
    combo = dialog.form.editors["kind"].widget
    items = [combo.itemText(i) for i in range(combo.count())]
    assert "new" in items and combo.currentText() == "new" and not any("_" in t for t in items)
    for kind in RecordKind:
        editor.tabs.setCurrentIndex(list(RecordKind).index(kind))
        for c in editor.record_forms[kind].findChildren(QComboBox):
            assert not any("_" in c.itemText(i) for i in range(c.count())), (kind, c.objectName())
    form = _gpu_form(editor, "rtx-3090")
    form.editors["tdp_w"].widget.setText("300")
    editor.record_forms[RecordKind.GPU].button_save.click()
    assert editor.action_undo.text() == "&Undo save GPU rtx-3090"
