"""The catalog editor with 10,000 records: the rows come from a model, the search and the
sort give what Qt's own filtering and sorting over the same cells gave."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import QWidget

from advisor.core.hardware.catalog import Catalog, CatalogLayer, RecordKind, with_record
from advisor.core.hardware.records import Gpu
from advisor.storage import catalog_store as store
from advisor.ui.catalog_editor.kind_tab import FIT_ROWS, KindTab
from advisor.ui.catalog_editor.table_model import RECORD_ROLE, SORT_ROLE, RecordTableModel
from tests.catalog_fixtures import gpu_data, price

# The offscreen plugin cannot size top-level windows and says so; real platforms do.
pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]
N = 10_000


def _gpus(n: int, seed: int = 20) -> dict[str, Gpu]:
    rng = random.Random(seed)
    out = {}
    for i in range(n):
        gib = rng.choice([8, 12, 16, 24, 48, 80])
        prices = [price("street_new", round(rng.uniform(100, 9_000), 2), "2026-05-01")] if rng.random() < 0.7 else []
        gpu = Gpu.model_validate(gpu_data(f"card-{i:05d}", vendor=rng.choice(["Acme", "Bolt", "Core"]),
                                          name=f"{rng.choice(['RTX', 'Radeon', 'Arc'])} {rng.randrange(1000, 9999)}",
                                          memory_gib=gib, memory_gb_marketing=gib, prices=prices,
                                          tdp_w=rng.choice([None, 150, 300, 450]), notes=f"note {rng.randrange(50)}"))
        out[gpu.id] = gpu
    return out


@pytest.fixture(scope="module")
def big_catalog() -> Catalog:
    """The shipped catalog with N user GPUs (and one shipped GPU edited, so every origin shows)."""
    shipped = store.load_catalog().catalog
    catalog = Catalog(shipped=shipped.shipped, user=CatalogLayer(gpus=_gpus(N)))
    return with_record(catalog, shipped.gpus["rtx-4090"].model_copy(update={"name": "RTX 4090 (mine)"}))


def _shown_ids(proxy) -> list[str]:
    return [proxy.index(r, 0).data(RECORD_ROLE).id for r in range(proxy.rowCount())]


def _search_by_cells(model: RecordTableModel, text: str) -> list[str]:
    """The search as it was: every cell's shown text (through Qt) and the notes, per row."""
    words = text.lower().split()
    out = []
    for row in range(model.rowCount()):
        cells = " ".join(str(model.index(row, c).data() or "") for c in range(model.columnCount()))
        record = model.index(row, 0).data(RECORD_ROLE)
        if all(w in cells.lower() + " " + record.notes.lower() for w in words):
            out.append(record.id)
    return out


def test_ten_thousand_rows_come_from_the_model_not_from_widgets(qtbot, big_catalog):
    small = KindTab(RecordKind.GPU, Catalog(shipped=big_catalog.shipped))
    tab = KindTab(RecordKind.GPU, big_catalog)
    for t in (small, tab):
        qtbot.addWidget(t)
        t.show()
        t.table.viewport().repaint()
    assert tab.model.rowCount() == tab.proxy.rowCount() == len(big_catalog.gpus) > N
    assert len(tab.findChildren(QWidget)) == len(small.findChildren(QWidget))  # no widget per row
    assert all(tab.table.indexWidget(tab.proxy.index(r, 0)) is None for r in range(0, tab.proxy.rowCount(), 997))
    assert tab.table.horizontalHeader().resizeContentsPrecision() == FIT_ROWS < N
    assert tab.model.row_of("card-09999") >= 0 and tab.select("card-09999")
    assert tab.selected().id == "card-09999"


@pytest.mark.parametrize("text", ["rtx", "RTX 4", "acme note 1", "yours", "edited", "unknown", "24 acme", "zzz", ""])
def test_the_search_finds_what_searching_every_cell_found(qtbot, big_catalog, text):
    tab = KindTab(RecordKind.GPU, big_catalog)
    qtbot.addWidget(tab)
    tab.edit_search.setText(text)  # filters at once
    assert sorted(_shown_ids(tab.proxy)) == sorted(_search_by_cells(tab.model, text))


def test_search_and_filters_combine(qtbot, big_catalog):
    tab = KindTab(RecordKind.GPU, big_catalog)
    qtbot.addWidget(tab)
    tab.combo_vendor.setCurrentIndex(tab.combo_vendor.findData("Bolt"))
    tab.spin_memory_min.setValue(40)
    tab.combo_origin.setCurrentIndex(tab.combo_origin.findData("user|override"))
    tab.edit_search.setText("radeon")
    expected = {g.id for g in big_catalog.user.gpus.values()
                if g.vendor == "Bolt" and g.memory_gib >= 40 and "radeon" in g.name.lower()}
    assert set(_shown_ids(tab.proxy)) == expected and expected
    tab.edit_search.setText("")
    tab.combo_origin.setCurrentIndex(0)
    tab.combo_vendor.setCurrentIndex(0)
    tab.spin_memory_min.setValue(0)
    assert tab.proxy.rowCount() == len(big_catalog.gpus)


@pytest.mark.parametrize("kind", list(RecordKind))
def test_each_column_sorts_as_qt_sorted_the_sort_role(qtbot, kind):
    """The model's sort against a plain QSortFilterProxyModel sorting by SORT_ROLE, both ways, every column."""
    catalog = store.load_catalog().catalog
    tab = KindTab(kind, catalog)
    qtbot.addWidget(tab)
    plain = QSortFilterProxyModel()
    plain.setSourceModel(RecordTableModel(kind, catalog))
    plain.setSortRole(SORT_ROLE)
    for column in range(tab.model.columnCount()):
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            tab.table.sortByColumn(column, order)
            plain.sort(column, order)
            assert _shown_ids(tab.proxy) == _shown_ids(plain), (tab.model.headerData(column, Qt.Orientation.Horizontal),
                                                                 order)


def test_the_selection_follows_its_record_through_a_sort_and_a_refresh(qtbot, big_catalog):
    tab = KindTab(RecordKind.GPU, big_catalog)
    qtbot.addWidget(tab)
    assert tab.select("card-04321")
    memory = [c.header for c in tab.model.columns].index("Memory")
    tab.table.sortByColumn(memory, Qt.SortOrder.DescendingOrder)
    assert tab.selected().id == "card-04321"
    first = tab.proxy.index(0, 0).data(RECORD_ROLE)
    assert first.memory_gib == max(g.memory_gib for g in big_catalog.gpus.values())
    smallest = big_catalog.user.gpus["card-04321"].model_copy(update={"memory_gib": 0.25, "memory_gb_marketing": 0.25})
    tab.set_catalog(with_record(big_catalog, smallest))  # same ids, one record moves to the end
    assert tab.selected().id == "card-04321" and tab.selected().memory_gib == 0.25
    assert tab.proxy.index(tab.proxy.rowCount() - 1, 0).data(RECORD_ROLE).id == "card-04321"
    tab.edit_search.setText("card-04321")
    assert _shown_ids(tab.proxy) == ["card-04321"]


def test_the_proxy_passes_the_model_tester(qtmodeltester, big_catalog):
    tab = KindTab(RecordKind.GPU, Catalog(shipped=big_catalog.shipped, user=CatalogLayer(gpus=_gpus(300))))
    tab.edit_search.setText("acme")
    tab.table.sortByColumn(4, Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(tab.proxy)
