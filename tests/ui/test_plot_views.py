"""The plot tabs follow the session: legend per mode, labels that fit, a contradiction from the panel, the text
under a plot."""

import contextlib

import pytest
from PySide6.QtCore import Qt

from tests.qt_widgets import shown

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def _legend_labels(fit):
    return fit.technique_labels()


def test_fit_legend_lists_only_the_current_modes_techniques(app_window, drawn):
    session, window = app_window
    fit = window.tabs.view(0).builder
    assert "bf16" in _legend_labels(fit) and "QLoRA" not in _legend_labels(fit)
    panel = window.workload_panel
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "train")))
    assert session.workload.mode.value == "train"
    drawn(window)  # the fit sweep comes from a worker thread, after the table
    assert _legend_labels(fit) == ["full fine-tune", "LoRA", "QLoRA"]
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "inference")))
    drawn(window)
    assert "bf16" in _legend_labels(fit) and "LoRA" not in _legend_labels(fit)


def test_qlora_with_fp32_weights_is_explained_in_the_panel(app_window, qtbot):
    session, window = app_window
    panel = window.workload_panel
    panel.combo_mode.setCurrentIndex(panel.combo_mode.findText(shown("mode", "train")))
    panel.combo_method.setCurrentIndex(panel.combo_method.findText(shown("method", "qlora")))
    panel.combo_weights.setEditText("fp32")  # typed, then Enter
    qtbot.keyClick(panel.combo_weights.lineEdit(), Qt.Key.Key_Return)
    assert session.workload.weights == "fp32"
    assert "QLoRA" in panel.label_problems.text()
    qtbot.waitUntil(lambda: "QLoRA" in window.builds_panel.label_messages.text(), timeout=5000)  # a turn later


def test_fit_legend_names_come_back_whole_when_the_window_grows(app_window, qapp):
    """Names cut while the window was small are whole again once it is large (seen at 1920×1080)."""
    session, window = app_window
    fit = window.tabs.view(0).builder
    window.resize(700, 500)
    for _ in range(5):
        qapp.processEvents()
    window.resize(1900, 1050)
    for _ in range(5):
        qapp.processEvents()
    names = [b.name for b in session.comparison().builds]
    labels = fit.side.labels()
    assert all(any(label.startswith(name) for label in labels) for name in names), labels


def test_fit_legend_kept_rows_draw_as_a_fresh_legend(app_window, drawn, qapp):
    """The Fit legend keeps each item's row and re-lays out only when the set of rows changes:
    after changes of values, of mode (other techniques) and of builds (lines gone and back), the
    plot draws pixel for pixel as a new plot given the last results only."""
    import pyqtgraph as pg
    from PySide6.QtGui import QImage, QPainter

    from advisor import plots
    from advisor.core.advice.comparison import BuildEntry
    from advisor.core.job.choices import Method, Mode

    session, window = app_window
    six = tuple(BuildEntry(name=n, **src) for n, src in (
        ("2× RTX 3090 (NVLink)", {"build_id": "2x-rtx-3090-nvlink"}),
        ("Mac Studio M3 Ultra 96GB", {"system_id": "apple-mac-studio-m3-ultra-96gb"}),
        ("1× RTX 5090", {"gpu_id": "rtx-5090", "gpu_count": 1}),
        ("2× RTX 4090 (PCIe)", {"build_id": "2x-rtx-4090-pcie-x16"}),
    ))
    base = session.workload
    states = []
    for builds, update in ((six, {"batch": 2}), (six, {"mode": Mode.TRAIN, "method": Method.LORA}),
                           (six[:2], {"batch": 3}), (six, {"batch": 9, "context_len": 4096})):
        session.set_builds(builds, "builds")
        session.set_workload(base.model_copy(update=update))
        drawn(window)
        states.append(session.results)

    def render(results_seq) -> QImage:
        fit = plots.FitPlot()
        view = pg.GraphicsLayoutWidget()
        view.addItem(fit.item)
        view.resize(900, 420)
        view.show()
        for results in results_seq:
            fit.update(results, "GiB", "Llama")
            qapp.processEvents()
        image = QImage(view.size(), QImage.Format.Format_ARGB32)
        image.fill(0)
        painter = QPainter(image)
        view.render(painter)
        painter.end()
        view.close()
        return image

    kept, fresh = render(states), render(states[-1:])
    assert kept == fresh


def test_fit_legend_new_figures_keep_the_names_cut_and_set_each_label_once(app_window, drawn, qapp, monkeypatch):
    """With names cut to fit a narrow plot, a workload change that only moves the figures sets each
    label at most once: starting again from whole names set every build's label two or three times
    per change; the legend ends as a fresh one given the same results would."""
    import pyqtgraph as pg

    from advisor import plots
    from advisor.core.advice.comparison import BuildEntry

    session, window = app_window
    session.set_builds(tuple(BuildEntry(name=f"A long build name number {i} (PCIe)", gpu_id="rtx-5090",
                                         gpu_count=i) for i in range(1, 6)), "five")
    window.resize(1024, 700)
    drawn(window)
    for _ in range(5):
        qapp.processEvents()
    fit = window.tabs.view(0).builder
    assert any("…" in label for label in fit.side.labels()), fit.side.labels()  # cut at this width
    calls = []
    real = pg.LabelItem.setText
    monkeypatch.setattr(pg.LabelItem, "setText", lambda self, text, **kw: calls.append(self) or real(self, text, **kw))
    for batch in (3, 5, 9):
        calls.clear()
        session.set_workload(session.workload.model_copy(update={"batch": batch}))
        drawn(window)
        assert len(calls) == len(set(map(id, calls))), "a label was set twice in one change"
    fresh = plots.FitPlot()
    view = pg.GraphicsLayoutWidget()
    view.addItem(fresh.item)
    canvas = window.tabs.view(0).canvas
    view.resize(canvas.size())
    view.show()
    fresh.update(session.results, session.prefs.memory_unit, session.arch.name)
    qapp.processEvents()
    assert fresh.side.labels() == fit.side.labels()
    view.close()


def test_new_text_under_a_plot_keeps_a_shown_scroll_bar_and_lays_out_once(app_window, drawn):
    """The text under the Fit plot overflows its box at 1280×800 with six builds in training; new text
    there emptied the box first, its scroll bar went and came back and the text was laid out at both
    widths (and the tab repainted) on every change. The bar now stays while the text is
    replaced; it goes when the new text fits."""
    _session, window = app_window
    window.resize(1280, 800)
    window.tabs.setCurrentIndex(0)
    tab = window.tabs.view(0)
    drawn(window)
    browser = tab.label_below
    browser.setHtml("<br>".join(f"line {i}" for i in range(40)))  # overflowing, whatever the fonts
    bar = browser.verticalScrollBar()
    assert bar.isVisible()
    with _resizes(browser.viewport()) as resized:
        tab._below_html = ""
        tab._text = "<br>".join(f"other line {i}" for i in range(40))
        tab._show_text()
    assert resized == [] and bar.isVisible() and "other line 39" in browser.toPlainText()
    tab._text = "one line"
    tab._show_text()
    assert not bar.isVisible() and browser.toPlainText() == "one line"  # the new text fits: the bar goes


def test_axes_and_legend_labels_are_painted_from_a_cache(app_window, drawn):
    """The Fit plot's axes (with the grid) and legend labels keep a pixmap cache: a repaint that changes
    nothing in them (the plot beside a table that grew, a window uncovered) blits them instead of drawing
    their text again (benchmarks/README.md has the figures). The PDF
    draws them without it (tests/report/test_charts.py)."""
    from PySide6.QtWidgets import QGraphicsItem

    _session, window = app_window
    window.tabs.setCurrentIndex(0)
    drawn(window)
    builder = window.tabs.view(0).builder
    cached = QGraphicsItem.CacheMode.DeviceCoordinateCache
    assert all(builder.item.getAxis(side).cacheMode() == cached for side in ("left", "bottom"))
    labels = [label for _sample, label in builder.side.legend.items]
    assert labels and all(label.item.cacheMode() == cached for label in labels)


def test_the_details_tab_keeps_its_scroll_bar_across_a_change(app_window, drawn):
    """The Details tab's text (always longer than its box) is replaced through the same helper as the
    text under the plots: a change does not make its scroll bar go and come back."""
    session, window = app_window
    window.resize(1280, 800)
    index = next(i for i in range(window.tabs.count()) if window.tabs.tabText(i) == "Details")
    window.tabs.setCurrentIndex(index)
    drawn(window)
    details = window.tabs.view(index)
    assert details.verticalScrollBar().isVisible()
    with _resizes(details.viewport()) as resized:
        session.set_workload(session.workload.model_copy(update={"batch": 3}))
        drawn(window)
    assert resized == [] and details.verticalScrollBar().isVisible()


def test_the_details_tab_shows_what_the_windows_quick_pass_leaves_out(app_window, drawn):
    """The window's pass estimates each build without the rule of thumb, the parameter counts and the
    assumptions; the Details tab adds them when it is drawn."""
    session, window = app_window
    session.set_workload(session.workload.model_copy(update={"batch": 5}))
    drawn(window)
    assert session.results.builds and not any(r.detailed for r in session.results.builds if r.estimate is not None)
    index = next(i for i in range(window.tabs.count()) if window.tabs.tabText(i) == "Details")
    window.tabs.setCurrentIndex(index)
    drawn(window)
    text = window.tabs.view(index).toPlainText()
    for r in session.results.builds:
        assert r.name in text
    assert text.count("Rule of thumb") == len(session.results.builds)
    assert text.count("Parameters: 8.03 B total") == len(session.results.builds)
    assert "usable memory: card size minus" in text


@contextlib.contextmanager
def _resizes(widget):
    """The sizes ``widget`` is given while the block runs (a Qt event filter)."""
    from PySide6.QtCore import QEvent, QObject

    seen = []

    class Spy(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Resize:
                seen.append(event.size())
            return False

    spy = Spy()
    widget.installEventFilter(spy)
    try:
        yield seen
    finally:
        widget.removeEventFilter(spy)
