"""The builds table shows and edits how many identical machines a build is."""

import pytest
from PySide6.QtCore import Qt

from advisor.core.advice.comparison import BuildEntry
from advisor.ui.builds_table_model import COLUMNS, MACHINES_COLUMN

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def test_the_machines_column_shows_and_edits_the_count(app_window, qtbot):
    session, window = app_window
    assert COLUMNS[MACHINES_COLUMN] == "Machines"
    session.add_build(BuildEntry(name="DGX", system_id="nvidia-dgx-h100"))
    row = len(session.builds) - 1
    model = window.builds_panel.table_builds.model()
    qtbot.waitUntil(lambda: model.rowCount() == len(session.builds) and model.data(model.index(row, 0)) == "DGX")
    index = model.index(row, MACHINES_COLUMN)
    assert model.data(index) == "1" and model.flags(index) & Qt.ItemFlag.ItemIsEditable
    assert model.data(index, Qt.ItemDataRole.EditRole) == 1
    with qtbot.waitSignal(session.results_computed, timeout=20000):
        assert model.setData(index, 2)
    assert session.builds[row].nodes == 2
    qtbot.waitUntil(lambda: model.data(model.index(row, MACHINES_COLUMN)) == "2 × 8 GPUs, InfiniBand", timeout=20000)
    assert "8× ConnectX-7" in model.data(model.index(row, MACHINES_COLUMN), Qt.ItemDataRole.ToolTipRole)
    with qtbot.waitSignal(session.problem_reported) as blocker:
        assert not model.setData(index, 0)
    assert "1 to 64 identical machines" in blocker.args[0] and session.builds[row].nodes == 2


def test_a_desktop_of_two_machines_says_it_has_no_network_card(app_window, qtbot):
    session, window = app_window
    model = window.builds_panel.table_builds.model()
    with qtbot.waitSignal(session.results_computed, timeout=20000):
        assert model.setData(model.index(0, MACHINES_COLUMN), 2)
    qtbot.waitUntil(lambda: "no network card" in model.data(model.index(0, MACHINES_COLUMN)), timeout=20000)
    checks = model.data(model.index(0, 6), Qt.ItemDataRole.ToolTipRole)
    assert "need a network card" in checks


def test_the_speed_tooltip_says_what_the_speed_stands_on(app_window):
    """The speed basis is the session's (``Session.finished``, once per results): the tooltip shows it and
    computes nothing."""
    from advisor.ui.builds_table_model import SPEED_COLUMN

    session, window = app_window
    model = window.builds_panel.table_builds.model()
    tips = [model.data(model.index(row, SPEED_COLUMN), Qt.ItemDataRole.ToolTipRole) for row in range(model.rowCount())]
    finished = session.finished(session.results)
    assert all(r.speed_basis is not None for r in finished.builds)
    for tip, r in zip(tips, finished.builds, strict=True):
        assert tip.startswith(r.speed_basis.sentence)
