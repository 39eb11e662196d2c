"""No plot label overlaps another or leaves the view, with 2 and 6 builds.

Rectangles are taken in scene coordinates: the legend's labels and samples, the axes' tick
texts (``AxisItem.generateDrawSpecs``, what pyqtgraph paints) and the words under empty bars.
"""

import datetime as dt
import itertools

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from advisor import plots
from advisor.core.advice.comparison import BuildEntry, canonical_comparison
from advisor.core.advice.evaluate import evaluate, resolve_model
from advisor.core.advice.running import with_running_costs
from advisor.core.cost.running import CostSettings
from advisor.storage.catalog_store import load_catalog

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]

SIX = (
    BuildEntry(name="2× RTX 3090 (NVLink)", build_id="2x-rtx-3090-nvlink"),
    BuildEntry(name="2× RTX 4090 (PCIe)", build_id="2x-rtx-4090-pcie-x16"),
    BuildEntry(name="Mac Studio M3 Ultra 96GB", system_id="apple-mac-studio-m3-ultra-96gb"),
    BuildEntry(name="NVIDIA DGX-2 (sixteen V100)", system_id="nvidia-dgx-2"),
    BuildEntry(name="RunPod H200 (Secure Cloud)", cloud_id="runpod-h200-secure-cloud"),
    BuildEntry(name="1× RTX 5090", gpu_id="rtx-5090", gpu_count=1),
)
SIZES = ((940, 380), (680, 300))  # the plot area of a 1280×800 and of a 1024×700 window


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def _results(catalog, n):
    comp = canonical_comparison()
    arch = resolve_model(catalog, comp.model)
    results = evaluate(catalog, arch, comp.workload, SIX[:n])  # with running costs, as the session adds them
    return with_running_costs(results, arch, comp.workload, CostSettings(), dt.date.today()), arch.name


def _canvas(qtbot, builder, size):
    canvas = pg.GraphicsLayoutWidget()
    qtbot.addWidget(canvas)
    for row, item in enumerate(builder.items):
        canvas.addItem(item, row=row, col=0)
    canvas.resize(*size)
    canvas.show()
    for _ in range(3):
        qtbot.wait(10)
    return canvas


def _axis_texts(axis) -> list[tuple[QRectF, str]]:
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(axis.mapRectToScene(rect), text) for rect, _, text in texts]


def _assert_apart(rects, view: QRectF):
    for (a, ta), (b, tb) in itertools.combinations(rects, 2):
        assert not a.intersects(b), f"{ta!r} overlaps {tb!r}"
    for r, t in rects:
        assert view.contains(r), f"{t!r} leaves the view ({r} not in {view})"


def _shrink(r: QRectF) -> QRectF:
    """Text rectangles touch by a pixel where lines meet; overlap means more than that."""
    return r.adjusted(0.5, 0.5, -0.5, -0.5)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("n", [2, 6])
def test_fit_plot_labels_never_overlap(qtbot, catalog, n, size):
    results, model = _results(catalog, n)
    fit = plots.FitPlot()
    canvas = _canvas(qtbot, fit, size)
    fit.update(results, "GiB", model)
    for _ in range(5):
        qtbot.wait(10)
    view = QRectF(canvas.rect())
    legend = [(_shrink(label.sceneBoundingRect()), label.text) for _, label in fit.legend.items]
    samples = [(_shrink(s.sceneBoundingRect()), f"sample of {label.text}") for s, label in fit.legend.items]
    ticks = [(_shrink(r), t) for side in ("left", "bottom") for r, t in _axis_texts(fit.item.getAxis(side))]
    _assert_apart(legend + samples + ticks, view)
    data = fit.item.vb.sceneBoundingRect()
    assert not any(data.intersects(r) for r, _ in legend + samples), "the legend sits on the data"
    usable = [t for _, t in legend if ": up to " in t and t.split(":")[0] not in (model,)]
    assert len(usable) >= sum(1 for r in results.builds if r.estimate is not None and not r.problems and r.estimate.fit)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("n", [2, 6])
@pytest.mark.parametrize("kind", ["speed", "value", "memory"])
def test_bar_plot_labels_never_overlap(qtbot, catalog, kind, n, size):
    results, _ = _results(catalog, n)
    builder = {"speed": plots.SpeedPlot, "value": plots.ValuePlot, "memory": plots.MemoryPlot}[kind]()
    canvas = _canvas(qtbot, builder, size)
    if kind == "memory":
        builder.update(results, "GiB")
    else:
        builder.update(results, False)
    qtbot.wait(10)
    view = QRectF(canvas.rect())
    for item in builder.items:
        names = _axis_texts(item.getAxis("bottom"))
        assert len(names) == n, "a build's name was dropped under its bar"
        _assert_apart([(_shrink(r), t) for r, t in names], view)
    assert canvas.isVisible()


def test_the_interconnect_key_is_in_the_title_not_on_a_bar(qtbot, catalog):
    results, _ = _results(catalog, 6)
    speed = plots.SpeedPlot()
    canvas = _canvas(qtbot, speed, SIZES[0])
    speed.update(results, False)
    assert canvas.isVisible() and getattr(speed.top, "legend", None) is None
    assert "lost to GPU-to-GPU traffic" in speed.top.titleLabel.text


def test_builds_that_do_not_fit_get_no_speed_and_no_price_per_token(qtbot, catalog):
    results, _ = _results(catalog, 6)
    speed, value = plots.SpeedPlot(), plots.ValuePlot()
    speed.update(results, False)
    value.update(results, False)
    cannot = {i for i, r in enumerate(results.builds) if not plots.runs(r)}
    assert cannot, "the six builds should include one that cannot run the job"
    assert not cannot & set(speed.top_bars.kept.opts["x"].astype(int))
    assert not cannot & set(value.tps_bars.kept.opts["x"].astype(int))
    words = set(value.tps_bars.note_texts().values())
    assert words & {"does not fit", "cannot run as set", "cannot run", "no estimate"}
    assert set(value.tps_bars.note_texts()) == cannot | set(value.gb_bars.note_texts())


def test_a_build_without_a_price_says_so_under_its_value_bars(qtbot, catalog):
    results, _ = _results(catalog, 6)
    value = plots.ValuePlot()
    value.update(results, False)
    unpriced = [i for i, r in enumerate(results.builds)
                if r.price_new_usd is None and r.price_used_usd is None and r.usd_per_hour is None and r.resolved]
    words = value.gb_bars.note_texts()
    assert [i for i, w in words.items() if w == "no price"] == unpriced
    assert "rented" in words.values()  # the cloud build: see rent vs buy under the plot
    labels = value.per_gb.getAxis("bottom")._labels
    assert all(labels[i].endswith("(no price)") for i in unpriced)


def test_the_value_text_never_asks_for_a_cloud_instance_that_is_there(catalog):
    from advisor.storage.settings import Settings
    from advisor.ui.plot_views import _rent_vs_buy_html

    results, _ = _results(catalog, 6)
    text = _rent_vs_buy_html(results, Settings())
    assert "Add a cloud instance" not in text and "RunPod H200" in text
    unpriced = [r.name for r in results.builds if r.price_new_usd is None and r.price_used_usd is None
                and r.entry.cloud_id is None]
    assert all(name in text for name in unpriced)
    two, _ = _results(catalog, 2)
    assert "Add a cloud instance" in _rent_vs_buy_html(two, Settings())


def test_a_scale_with_no_bar_shows_no_numbers(qtbot, catalog):
    """When no build runs the job, the Speed chart said '0.5' and '1.0' tokens/s on an empty scale."""
    from advisor.core.advice.comparison import ModelRef

    comp = canonical_comparison()
    too_big = resolve_model(catalog, ModelRef(generic_params=2e12))
    speed = plots.SpeedPlot()
    speed.update(evaluate(catalog, too_big, comp.workload, SIX[:3]), False)
    assert not len(speed.top_bars.kept.opts["x"])
    assert speed.top.getAxis("left").style["showValues"] is False
    speed.update(_results(catalog, 3)[0], False)  # the same chart, now with bars: numbers again
    assert len(speed.top_bars.kept.opts["x"]) and speed.top.getAxis("left").style["showValues"] is True
