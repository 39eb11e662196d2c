"""The Memory chart: stacked terms against each build's usable memory, the terms some build has, and why a
bar inside its box still does not run the job."""

import pytest

from advisor import plots
from advisor.core.advice import evaluate
from advisor.core.advice.comparison import BuildEntry
from advisor.core.job.choices import Method, Mode
from advisor.core.job.defaults import default_job
from advisor.core.job.planned import PlannedJob
from advisor.storage.catalog_store import load_catalog

pytestmark = [pytest.mark.gui]

CATALOG = load_catalog().catalog
BUILDS = (BuildEntry(name="2× 3090 NVLink", build_id="2x-rtx-3090-nvlink"),
          BuildEntry(name="Mac", system_id="apple-mac-studio-m1-max-32gb"),
          BuildEntry(name="one 4090", gpu_id="rtx-4090", gpu_count=1))


def test_a_bar_inside_its_box_that_does_not_fit_says_why(qapp):
    """A full fine-tune on one 4090 in its desktop: its GPU share fits once the states are offloaded, the
    desktop's RAM does not hold them; the Memory chart (window and PDF) says so under its name, as the verdict
    does. (A Mac plans no offload: its "host RAM" is the pool its GPU already uses.)"""
    arch = CATALOG.models["llama-3.1-8b"]
    job = PlannedJob(mode=Mode.TRAIN, method=Method.FULL)
    results = evaluate.evaluate(CATALOG, arch, job, (BUILDS[0], BUILDS[2]), suggest=False)
    mac = results.builds[1]
    assert mac.estimate.fit.host_short and not mac.runs
    plot = plots.MemoryPlot()
    plot.update(results, "GiB")
    notes = plot.item.getAxis("bottom").notes
    assert notes[1].startswith("host RAM short: ") and notes[0] == ""
    assert set(plot.side.labels()) >= {"weights", "usable per GPU"}


def test_the_memory_legend_lists_only_the_terms_there_are(qapp):
    results = evaluate.evaluate(CATALOG, CATALOG.models["llama-3.1-8b"], default_job(), BUILDS[:2], suggest=False)
    plot = plots.MemoryPlot()
    plot.update(results, "GiB")
    labels = set(plot.side.labels())
    assert "weights" in labels and "kv cache" in labels and "usable per GPU" in labels
    assert not labels & {"gradients", "optimizer", "adapters", "reference model"}
