"""The catalog editor drives the real storage layer in a per-test user directory."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from advisor.core.hardware.catalog import Origin, RecordKind, gpu_build, with_record
from advisor.storage import catalog_store as store
from advisor.ui.catalog_editor.table_model import RECORD_ROLE, RecordTableModel
from advisor.ui.catalog_editor.window import CatalogEditor

# The offscreen plugin cannot size or raise top-level windows and says so; real platforms do.
OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints",
                                            r"This plugin does not support raise\(\)")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]
NEW_ID = "rtx-4090-48gb-mod"


@pytest.fixture
def answers():
    """What the editor's Yes/No questions get, in order (a missing answer fails the test)."""
    return []


@pytest.fixture
def editor(qtbot, answers):
    ed = CatalogEditor()
    asked = []

    def ask(title, text):
        asked.append((title, text))
        assert answers, f"unexpected question: {title}: {text}"
        return answers.pop(0)

    ed.ask = ask
    ed.asked = asked
    ed.skip_unsaved_prompt = True
    qtbot.addWidget(ed)
    ed.show()
    yield ed
    ed.close()


def _form(ed, kind=RecordKind.GPU):
    return ed.record_forms[kind]


def _type(ed, field, text, kind=RecordKind.GPU):
    widget = _form(ed, kind).form.editors[field].widget
    widget.setText(text)


def _error(ed, field, kind=RecordKind.GPU) -> str:
    label = _form(ed, kind).form.errors[field]
    return label.text() if label.isVisibleTo(ed) else ""


def _select(ed, record_id, kind=RecordKind.GPU):
    ed.tabs.setCurrentIndex(list(RecordKind).index(kind))
    assert ed.kind_tabs[kind].select(record_id)


def _user_file(kind, rid):
    return store.user_record_path(kind, rid)


def _add_48gb_card(ed, qtbot):
    _select(ed, "rtx-4090")
    ed.action_duplicate.trigger()
    assert _form(ed).is_new
    _type(ed, "id", NEW_ID)
    _type(ed, "name", "GeForce RTX 4090 48GB (modded)")
    _type(ed, "memory_gib", "48")
    _type(ed, "memory_gb_marketing", "48")
    assert not _form(ed).button_save.isEnabled()  # a copy has the specs, not the sources: its own are needed
    _form(ed).form.editors["sources"].widget.setPlainText("https://example.com/rtx-4090-48gb-review")
    assert _form(ed).button_save.isEnabled(), _form(ed).form.field_messages
    qtbot.mouseClick(_form(ed).button_save, Qt.MouseButton.LeftButton)


# --- models --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(RecordKind))
def test_each_table_model_passes_the_model_tester(qtmodeltester, kind):
    catalog = store.load_catalog().catalog
    some = next(iter(catalog.of(kind).values()))
    catalog = with_record(catalog, some)  # an override, so every origin is drawn
    model = RecordTableModel(kind, catalog)
    qtmodeltester.check(model)
    assert model.rowCount() == len(catalog.of(kind))
    row = model.row_of(some.id)
    assert model.index(row, 0).data(RECORD_ROLE) == some
    assert model.index(row, model.origin_column).data() == "edited"


def test_filters_vendor_segment_and_memory_range(editor):
    tab = editor.kind_tabs[RecordKind.GPU]
    catalog = editor.repo.catalog
    tab.combo_vendor.setCurrentIndex(tab.combo_vendor.findData("AMD"))
    assert tab.proxy.rowCount() == sum(g.vendor == "AMD" for g in catalog.gpus.values()) > 0
    tab.combo_vendor.setCurrentIndex(0)
    tab.combo_segment.setCurrentIndex(tab.combo_segment.findData("consumer"))
    tab.spin_memory_min.setValue(20)
    tab.spin_memory_max.setValue(32)
    expected = {g.id for g in catalog.gpus.values() if g.segment.value == "consumer" and 20 <= g.memory_gib <= 32}
    shown = {tab.proxy.index(r, 0).data(RECORD_ROLE).id for r in range(tab.proxy.rowCount())}
    assert shown == expected and "rtx-4090" in shown
    tab.edit_search.setText("4090")  # matches ids, names and notes (the 3090's notes compare it to the 4090)
    found = {tab.proxy.index(r, 0).data(RECORD_ROLE).id for r in range(tab.proxy.rowCount())}
    assert "rtx-4090" in found and "rtx-4080" not in found and found < shown


def test_memory_column_sorts_as_numbers(editor):
    tab = editor.kind_tabs[RecordKind.GPU]
    col = [c.header for c in tab.model.columns].index("Memory")
    tab.table.sortByColumn(col, Qt.SortOrder.DescendingOrder)
    first = tab.proxy.index(0, 0).data(RECORD_ROLE)
    assert first.memory_gib == max(g.memory_gib for g in editor.repo.catalog.gpus.values())


# --- the new-card story ----------------------------------------------------------------------


def test_a_duplicated_card_is_saved_and_usable_everywhere_after_a_restart(app_window, qtbot, capsys):
    session, window = app_window
    assert window.action_catalog.isEnabled()
    window.action_catalog.trigger()
    ed = window.catalog_editor
    ed.skip_unsaved_prompt = True
    ed.ask = lambda title, text: pytest.fail(f"unexpected question: {title}: {text}")
    _add_48gb_card(ed, qtbot)
    path = _user_file(RecordKind.GPU, NEW_ID)
    assert json.loads(path.read_text())["memory_gib"] == 48
    assert NEW_ID in session.catalog.gpus  # the app's session reloaded at once
    assert ed.repo.catalog.origin(RecordKind.GPU, NEW_ID) is Origin.USER
    ed.close()

    from advisor.core.estimation.estimator import estimate
    from advisor.core.job.planned import alone
    from advisor.ui.session import Session

    fresh = Session()
    fresh.load_catalog()  # a new start over the same user directory
    gpu = fresh.catalog.gpus[NEW_ID]
    assert gpu.memory_gib == 48 and gpu.bf16_tflops_dense == fresh.catalog.gpus["rtx-4090"].bf16_tflops_dense
    build = gpu_build(fresh.catalog, NEW_ID, 2)
    arch = fresh.catalog.models["llama-3.1-8b"]
    big = estimate(arch, alone(fresh.workload), build)
    small = estimate(arch, alone(fresh.workload), gpu_build(fresh.catalog, "rtx-4090", 2))
    assert big.fit.usable_per_gpu_bytes > 1.9 * small.fit.usable_per_gpu_bytes  # the 48 GiB is used

    from advisor.cli import main

    capsys.readouterr()
    assert main(["estimate", "llama-3.1-8b", "--gpu", NEW_ID, "--json"]) == 0
    assert NEW_ID in capsys.readouterr().out


def test_a_new_id_is_required_and_unique(editor):
    _select(editor, "rtx-4090")
    editor.action_duplicate.trigger()
    _type(editor, "id", "rtx-3090")
    assert "already exists" in _error(editor, "id")
    assert not _form(editor).button_save.isEnabled()
    _type(editor, "id", "Not An Id!")
    assert "lower-case letters" in _error(editor, "id")
    _type(editor, "id", NEW_ID)
    assert _error(editor, "id") == "" and not _form(editor).button_save.isEnabled()  # its own sources still needed
    _form(editor).form.editors["sources"].widget.setPlainText("https://example.com/card")
    assert _form(editor).button_save.isEnabled()


@pytest.mark.parametrize(("text", "message"), [
    ("abc", "Enter a number."), ("-48", "Must be more than 0."), ("nan", "Enter a number."), ("", "Enter a number."),
])
def test_an_impossible_value_is_refused_next_to_its_field(editor, text, message):
    _select(editor, "rtx-4090")
    _type(editor, "memory_gib", text)
    assert message in _error(editor, "memory_gib")
    assert not _form(editor).button_save.isEnabled()
    assert not _user_file(RecordKind.GPU, "rtx-4090").exists()


def test_a_record_level_rule_is_shown_above_the_form(editor):
    _select(editor, "rtx-4090")
    _type(editor, "memory_gib", "100")
    form = _form(editor).form
    assert form.form_error.isVisibleTo(editor)
    assert form.form_error.text().startswith("Memory reported (100 GiB) does not match the advertised 24 GB")
    assert not _form(editor).button_save.isEnabled()


def test_in_place_table_edit_is_validated_by_the_core(editor):
    tab = editor.kind_tabs[RecordKind.GPU]
    model = tab.model
    col = [c.header for c in model.columns].index("TDP")
    index = model.index(model.row_of("rtx-3090"), col)
    assert not model.setData(index, "-5")
    assert not _user_file(RecordKind.GPU, "rtx-3090").exists()
    assert model.setData(index, "300")
    assert editor.repo.catalog.gpus["rtx-3090"].tdp_w == 300


# --- undo, prices, hide, reset ----------------------------------------------------------------


def test_undo_and_redo_restore_memory_and_disk(editor, qtbot):
    _select(editor, "rtx-3090")
    _type(editor, "tdp_w", "300")
    qtbot.mouseClick(_form(editor).button_save, Qt.MouseButton.LeftButton)
    path = _user_file(RecordKind.GPU, "rtx-3090")
    assert json.loads(path.read_text())["tdp_w"] == 300
    assert editor.repo.catalog.origin(RecordKind.GPU, "rtx-3090") is Origin.OVERRIDE
    assert "Board power (W): 350.0 → 300.0" in _form(editor).changes.text()
    editor.action_undo.trigger()
    assert not path.exists() and editor.repo.catalog.gpus["rtx-3090"].tdp_w == 350
    assert store.load_catalog().catalog.gpus["rtx-3090"].tdp_w == 350
    editor.action_redo.trigger()
    assert store.load_catalog().catalog.gpus["rtx-3090"].tdp_w == 300


def test_a_price_point_is_added_and_the_history_kept(editor, qtbot):
    _select(editor, "rtx-4090")
    old = editor.repo.catalog.gpus["rtx-4090"].prices
    prices = _form(editor).form.editors["prices"]
    assert prices.table.rowCount() == len(old) >= 2
    point = {"kind": "used", "usd": 1700, "usd_low": 1500, "usd_high": 1900, "date_seen": "2026-11-20",
             "source": "https://example.com/listing"}
    prices.add_point(point)
    qtbot.mouseClick(_form(editor).button_save, Qt.MouseButton.LeftButton)
    saved = store.load_catalog().catalog.gpus["rtx-4090"].prices
    n = len(old)
    assert saved[:n] == old and saved[n].usd == 1700 and len(saved) == n + 1
    assert prices.table.item(0, prices.columns.index("date_seen")).text() == "2026-11-20"  # newest first
    used = prices.chart.series["used"]  # the chart shows the new point last on its kind's line, in date order
    assert used[-1][1] == 1700 and [r[0] for r in used] == sorted(r[0] for r in used)
    assert sum(len(v) for v in prices.chart.series.values()) == n + 1
    prices.chart.widget.grab()  # paints it: a bad chart item raises here (pytest-qt fails on it)


def test_the_price_chart_groups_points_by_kind_in_date_order_and_draws_bands():
    from advisor.ui.catalog_editor.price_history import KIND_STYLE, chart_series

    pts = [{"kind": "used", "usd": 800, "usd_low": 700, "usd_high": 900, "date_seen": "2025-06-01"},
           {"kind": "used", "usd": 650, "date_seen": "2024-01-15"},
           {"kind": "launch_msrp", "usd": 1499, "date_seen": "2020-09-24"},
           {"kind": "used", "usd": 1.0, "date_seen": "not a day"}]  # unreadable date: table only
    series = chart_series(pts)
    assert sorted(series) == ["launch_msrp", "used"] and set(series) <= set(KIND_STYLE)
    assert [r[1] for r in series["used"]] == [650, 800] and series["used"][1][2:] == (700, 900)
    assert series["launch_msrp"][0][0] == 1600905600.0  # 2020-09-24 00:00 UTC


def test_the_price_dialog_refuses_a_bad_url(qtbot):
    from advisor.core.hardware.records import PricePoint
    from advisor.ui.catalog_editor.price_history import PriceDialog

    d = PriceDialog(PricePoint)
    qtbot.addWidget(d)
    d.form.editors["usd"].widget.setText("999")
    d.form.editors["source"].widget.setText("not a url")
    assert not d.button_ok.isEnabled() and "web address" in d.form.errors["source"].text()
    d.form.editors["source"].widget.setText("https://example.com/p")
    assert d.button_ok.isEnabled() and d.point()["usd"] == 999


def test_hide_a_shipped_record_then_reset_all_then_undo(editor, answers):
    _select(editor, "a10")
    editor.action_delete.trigger()
    assert "a10" not in editor.repo.catalog.gpus and "a10" in editor.repo.catalog.hidden_ids(RecordKind.GPU)
    answers.append(True)
    editor.reset_all()
    assert "a10" in editor.repo.catalog.gpus
    editor.action_undo.trigger()
    assert "a10" not in store.load_catalog().catalog.gpus


# --- safety ------------------------------------------------------------------------------------


def test_a_corrupt_user_file_is_shown_and_never_overwritten_without_asking(qtbot, answers):
    path = _user_file(RecordKind.GPU, "rtx-3090")
    path.parent.mkdir(parents=True)
    garbage = b'{"id": "rtx-3090", "memory_gib": -1, oops\x00'
    path.write_bytes(garbage)
    path.with_name(path.name + ".bak").write_text(store.record_json(store.load_catalog().catalog.gpus["a10"]))
    ed = CatalogEditor()
    qtbot.addWidget(ed)
    ed.ask = lambda *_: answers.pop(0)
    ed.show()
    assert ed.problems.isVisibleTo(ed) and str(path) in ed.problems.list.item(0).text()
    assert ed.problems.button_show.isEnabled()
    # another edit: saved, the broken file untouched
    _select(ed, "rtx-4090")
    _type(ed, "tdp_w", "400")
    qtbot.mouseClick(_form(ed).button_save, Qt.MouseButton.LeftButton)
    assert _user_file(RecordKind.GPU, "rtx-4090").exists()
    assert path.read_bytes() == garbage
    # editing the broken record itself asks; No keeps the bytes
    _select(ed, "rtx-3090")
    _type(ed, "tdp_w", "320")
    answers.append(False)
    qtbot.mouseClick(_form(ed).button_save, Qt.MouseButton.LeftButton)
    assert path.read_bytes() == garbage and not answers
    ed.skip_unsaved_prompt = True
    ed.close()


def test_restoring_the_backup_keeps_the_broken_file_aside(editor, answers):
    path = _user_file(RecordKind.GPU, "rtx-3090")
    good = store.load_catalog().catalog.gpus["rtx-3090"].model_copy(update={"tdp_w": 333.0})
    store.save_record(good)
    store.save_record(good.model_copy(update={"tdp_w": 334.0}))  # .bak now holds 333
    path.write_bytes(b"garbage")
    editor.reload()
    assert editor.problems.isVisibleTo(editor)
    answers.append(True)
    editor.problems.restore_requested.emit(path)
    assert json.loads(path.read_text())["tdp_w"] == 333
    assert path.with_name(path.name + ".corrupt.bak").read_bytes() == b"garbage"
    assert not editor.problems.isVisibleTo(editor)


def test_a_change_made_elsewhere_is_detected_and_reloaded(editor, qtbot):
    editor.repo.user_dir.mkdir(parents=True, exist_ok=True)
    editor._watch()
    other = editor.repo.catalog.gpus["a10"].model_copy(update={"id": "a10-cli"})
    store.save_record(other)  # what `llm-advisor catalog add` does
    qtbot.waitUntil(lambda: "a10-cli" in editor.repo.catalog.gpus, timeout=5000)
    assert editor.changes.isVisibleTo(editor) and "a10-cli.json" in editor.changes.label.text()


def test_saving_over_a_file_changed_elsewhere_asks_first(editor, qtbot, answers):
    _select(editor, "rtx-3090")
    _type(editor, "tdp_w", "300")
    qtbot.mouseClick(_form(editor).button_save, Qt.MouseButton.LeftButton)
    path = _user_file(RecordKind.GPU, "rtx-3090")
    theirs = editor.repo.catalog.gpus["rtx-3090"].model_copy(update={"tdp_w": 280.0})
    editor.watcher.blockSignals(True)  # the other program writes while this editor is not looking
    store.save_record(theirs)
    _type(editor, "tdp_w", "310")
    answers.append(False)
    qtbot.mouseClick(_form(editor).button_save, Qt.MouseButton.LeftButton)
    assert json.loads(path.read_text())["tdp_w"] == 280  # their edit survived
    assert editor.asked[-1][0] == "Changed on disk"
    assert editor.repo.catalog.gpus["rtx-3090"].tdp_w == 280  # and is what the editor now shows


# --- bundles -------------------------------------------------------------------------------------


def test_export_then_import_a_bundle_with_a_conflict(editor, qtbot, tmp_path, answers):
    _add_48gb_card(editor, qtbot)
    out = tmp_path / "bundle.json"
    editor.export_to(out)
    assert NEW_ID in out.read_text()
    mine = editor.repo.catalog.gpus[NEW_ID].model_copy(update={"tdp_w": 500.0})
    editor.save_record(mine)
    answers.append(False)  # keep mine
    editor.import_from(out)
    assert editor.asked[-1][0] == "Import conflicts"
    assert editor.repo.catalog.gpus[NEW_ID].tdp_w == 500
    answers.append(True)  # now replace
    editor.import_from(out)
    assert editor.repo.catalog.gpus[NEW_ID].tdp_w == 450
    editor.action_undo.trigger()
    assert store.load_catalog().catalog.gpus[NEW_ID].tdp_w == 500


def test_a_bad_bundle_imports_nothing(editor, tmp_path, monkeypatch):
    told = []
    monkeypatch.setattr(editor, "tell", lambda title, text: told.append(text))
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "llm-advisor-catalog-bundle", "schema_version": 1, '
                   '"records": {"gpu": [{"id": "x", "memory_gib": -1}]}}')
    assert not editor.import_from(bad)
    assert told and "problem" in told[0]
    assert not (editor.repo.user_dir / "gpus").exists()


@pytest.mark.parametrize("kind", list(RecordKind))
def test_every_shipped_record_round_trips_through_the_form(editor, kind):
    """The generic form rebuilds each record exactly: nothing reads as changed or invalid."""
    form = _form(editor, kind)
    for rid, record in editor.repo.catalog.of(kind).items():
        _select(editor, rid, kind)
        assert form.current() == record, (rid, form.form.field_messages)
        assert not form.button_save.isEnabled()


def test_reopening_the_editor_reloads_and_a_closed_one_stops_watching(app_window):
    from advisor.ui.catalog_editor import open_catalog_editor

    _session, window = app_window
    ed = open_catalog_editor(window)
    ed.skip_unsaved_prompt = True
    ed.repo.user_dir.mkdir(parents=True, exist_ok=True)
    ed._watch()
    assert ed.watcher.directories()
    ed.close()
    assert not ed.watcher.directories()
    store.save_record(store.load_catalog().catalog.gpus["a10"].model_copy(update={"id": "a10-later"}))
    again = open_catalog_editor(window)
    assert again is ed and "a10-later" in ed.repo.catalog.gpus and ed.watcher.directories()
    ed.close()
