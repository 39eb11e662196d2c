"""Builds ▸ Find builds…: the catalog search in the window, its plot and adding what it found."""

import pytest

from advisor.core.advice.candidates import PriceChoice
from advisor.core.advice.comparison import ModelRef
from advisor.core.job.choices import Engine, Method, Mode
from advisor.ui.find_builds import FindBuildsDialog

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


def test_find_builds_lists_fitting_builds_within_budget_and_adds_them(app_window, qtbot):
    session, window = app_window
    session.set_model(ModelRef(preset_id="llama-3.1-70b"))
    session.set_workload(session.workload.model_copy(update={"weights": "q4_k_m", "engine": Engine.LLAMA_CPP,
                                                             "batch": 1, "context_len": 4096}))
    d = FindBuildsDialog(session, window)
    qtbot.addWidget(d)
    assert d.list_jobs.count() == 1 and "Llama 3.1 70B" in d.list_jobs.item(0).text()
    d.spin_budget.setValue(4000)
    d.combo_price.setCurrentIndex(d.combo_price.findData(PriceChoice.EITHER))
    d.button_search.click()
    assert d.table_found.rowCount() == len(d.found) > 0
    assert all(f.candidate.price_usd <= 4000 for f in d.found)
    names = [d.table_found.item(r, 0).text() for r in range(d.table_found.rowCount())]
    assert any("3090" in n for n in names)
    assert len(d.front.getData()[0]) >= 1  # the Pareto front is drawn
    assert not d.button_add.isEnabled()
    row = next(r for r, n in enumerate(names) if "3090" in n)
    d.table_found.selectRow(row)
    assert d.button_add.isEnabled()
    before = len(session.builds)
    for entry in d.chosen_entries():
        session.add_build(entry)
    assert len(session.builds) == before + 1 and session.results.builds[-1].runs


def test_two_jobs_and_the_menu_entry(app_window, qtbot):
    session, window = app_window
    assert window.action_find_builds.isEnabled() and window.builds_panel.button_find.isVisible() in (True, False)
    d = FindBuildsDialog(session, window)
    qtbot.addWidget(d)
    session.set_workload(session.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.QLORA}))
    d.add_current_job()
    assert d.list_jobs.count() == 2
    d.spin_budget.setValue(10000)
    d.button_search.click()
    assert all(len(f.chosen) == 2 for f in d.found)


@pytest.mark.parametrize("size", [(1024, 700), (1280, 800)])
def test_before_a_search_it_says_what_search_does_and_after_it_shows_six_whole_rows(app_window, qtbot, size):
    session, window = app_window
    session.set_model(ModelRef(preset_id="llama-3.1-70b"))
    session.set_workload(session.workload.model_copy(update={"weights": "q4_k_m", "engine": Engine.LLAMA_CPP,
                                                             "batch": 1, "context_len": 4096}))
    d = FindBuildsDialog(session, window)
    qtbot.addWidget(d)
    d.resize(min(1000, size[0]), min(720, size[1] - 40))  # as the dialog cuts itself to such a screen
    d.show()
    qtbot.wait(20)
    assert not d.plot.isVisible() and d.label_before_search.isVisible()  # no empty 0–1 plot
    assert "Press Search" in d.label_before_search.text()
    d.spin_budget.setValue(4000)
    d.button_search.click()
    qtbot.wait(20)
    assert d.plot.isVisible() and not d.label_before_search.isVisible()
    t = d.table_found
    assert t.rowCount() >= 1  # dominated machines fold under the one above them, so the rows may be few
    assert t.viewport().height() // t.rowHeight(0) >= 6  # room for six whole rows
    assert d.frameGeometry().height() <= size[1]
