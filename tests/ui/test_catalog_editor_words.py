"""Catalog editor for people: labels with units, NVLink as widgets, no jumping, no raw validator text (issue 17)."""

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
