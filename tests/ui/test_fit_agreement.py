"""The Fit plot, its "Largest model that fits" table and the verdicts say one thing, whatever the job:
the star is under a build's line exactly when that build runs the job, and the build's largest model
(current technique) reaches the job's model exactly then; the plot draws only formats the engine loads."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor import plots
from advisor.core.advice import evaluate
from advisor.core.advice.comparison import BuildEntry
from advisor.core.estimate.job_checks import check_workload
from advisor.core.job.defaults import default_job
from advisor.core.job.plan import job_of
from advisor.core.job.workload import Engine, Method, Mode, Workload
from advisor.core.model.generic import generic_decoder
from advisor.storage.catalog_store import load_catalog

pytestmark = [pytest.mark.gui]

CATALOG = load_catalog().catalog
BUILDS = (BuildEntry(name="2× 3090 NVLink", build_id="2x-rtx-3090-nvlink"),
          BuildEntry(name="Mac", system_id="apple-mac-studio-m1-max-32gb"),
          BuildEntry(name="one 4090", gpu_id="rtx-4090", gpu_count=1),
          BuildEntry(name="8× H100", system_id="nvidia-dgx-h100"))
MODELS = ("llama-3.2-1b", "llama-3.1-8b", "qwen2.5-32b", "llama-3.1-70b", "mixtral-8x7b")
WEIGHTS = ("bf16", "fp8", "int8", "awq", "q4_k_m", "q8_0")

inference_jobs = st.builds(
    lambda engine, weights, batch, context: default_job(engine=engine).model_copy(
        update={"weights": weights, "batch": batch, "context_len": context}),
    st.sampled_from(list(Engine)), st.sampled_from(WEIGHTS), st.integers(1, 64), st.sampled_from((512, 2048, 8192, 32768)))
training_jobs = st.builds(
    lambda method, batch, seq: Workload(mode=Mode.TRAIN, method=method, batch=batch, seq_len=seq,
                                        weights="nf4" if method is Method.QLORA else "bf16"),
    st.sampled_from((Method.FULL, Method.LORA, Method.QLORA)), st.integers(1, 16), st.sampled_from((512, 2048, 4096)))


def _check(results, plot):
    current = results.current_technique
    params = results.chosen_params
    for i, r in enumerate(results.builds):
        if r.problems or r.estimate is None:
            assert i not in plot.line_y  # a build that cannot run as set gets no line
            continue
        size = r.largest_fit.get(current)
        assert (size is not None and size >= params) == r.runs, (r.name, r.status, size, params)
        if r.runs:
            assert i in plot.line_y and plot.star_y <= plot.line_y[i], (r.name, plot.star_y, plot.line_y.get(i))
        elif i in plot.line_y:
            assert plot.star_y > plot.line_y[i], (r.name, r.status, plot.star_y, plot.line_y[i])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(job=st.one_of(inference_jobs, training_jobs), model=st.sampled_from(MODELS))
def test_the_plot_and_the_table_agree_with_the_verdicts(qapp, job, model):
    arch = CATALOG.models[model]
    results = evaluate.evaluate(CATALOG, arch, job, BUILDS, margin=0.05)
    plot = plots.FitPlot()
    plot.update(results, "GiB", arch.name)
    _check(results, plot)
    if job.mode is Mode.INFERENCE:
        variants, current = evaluate.technique_workloads(job)
        for label, w in variants.items():
            loads = not any(p.field == "weights" for p in check_workload(generic_decoder(8e9), job_of(w)))
            assert loads or label == current, (job.engine, label)


def test_a_fresh_new_comparison_with_transformers_draws_its_verdict(qapp):
    """16 × 8,192 tokens on transformers: too big on both canonical pairs, and the star above both lines
    (it was under both 47.3 GiB lines)."""
    job = default_job().model_copy(update={"engine": Engine.TRANSFORMERS})
    arch = CATALOG.models["llama-3.1-8b"]
    results = evaluate.evaluate(CATALOG, arch, job, BUILDS[:1] + (BuildEntry(name="2× 4090", build_id="2x-rtx-4090-pcie-x16"),))
    plot = plots.FitPlot()
    plot.update(results, "GiB", arch.name)
    assert not any(r.runs for r in results.builds)
    _check(results, plot)


def test_a_70b_full_fine_tune_that_runs_is_drawn_under_the_line(qapp):
    arch = CATALOG.models["llama-3.1-70b"]
    job = Workload(mode=Mode.TRAIN, method=Method.FULL)
    results = evaluate.evaluate(CATALOG, arch, job, BUILDS)
    plot = plots.FitPlot()
    plot.update(results, "GiB", arch.name)
    assert any(r.runs for r in results.builds) and not all(r.runs for r in results.builds)
    _check(results, plot)


def test_llama_cpp_draws_no_format_it_cannot_load(qapp):
    job = default_job(engine=Engine.LLAMA_CPP).model_copy(update={"weights": "q4_k_m"})
    results = evaluate.evaluate(CATALOG, CATALOG.models["llama-3.1-8b"], job, BUILDS[:2])
    plot = plots.FitPlot()
    plot.update(results, "GiB", "Llama")
    assert set(plot.technique_labels()) == {"bf16", "GGUF Q4_K_M"}


def test_a_bar_inside_its_box_that_does_not_fit_says_why(qapp):
    """A full fine-tune on one 4090 in its desktop: its GPU share fits once the states are offloaded, the
    desktop's RAM does not hold them; the Memory chart (window and PDF) says so under its name, as the verdict
    does. (A Mac plans no offload: its "host RAM" is the pool its GPU already uses.)"""
    arch = CATALOG.models["llama-3.1-8b"]
    job = Workload(mode=Mode.TRAIN, method=Method.FULL)
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
