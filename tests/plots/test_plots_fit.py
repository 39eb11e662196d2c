"""The Fit plot, its "Largest model that fits" table and the verdicts say one thing, whatever the job:
the star is under a build's line exactly when that build runs the job, and the build's largest model
(current technique) reaches the job's model exactly then; the plot draws only formats the engine loads."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor import plots
from advisor.core.advice import evaluate
from advisor.core.advice.comparison import BuildEntry
from advisor.core.estimation.job_checks import check_job
from advisor.core.job.choices import Engine, Method, Mode
from advisor.core.job.defaults import default_job
from advisor.core.job.planned import PlannedJob, job_of
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
    lambda method, batch, seq: PlannedJob(mode=Mode.TRAIN, method=method, batch=batch, seq_len=seq,
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
            loads = not any(p.field == "weights" for p in check_job(generic_decoder(8e9), job_of(w)))
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
    job = PlannedJob(mode=Mode.TRAIN, method=Method.FULL)
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


def test_curve_at_interpolates_between_the_curves_sizes_and_is_none_off_them():
    params = np.array([1e9, 10e9, 100e9])
    curve = np.array([2e9, 20e9, np.nan])  # no estimate at the top size
    assert plots.curve_at(params, curve, 1e9) == pytest.approx(2e9)
    assert plots.curve_at(params, curve, math.sqrt(10) * 1e9) == pytest.approx(math.sqrt(10) * 2e9)  # log-log
    assert plots.curve_at(params, curve, 50e9) is None and plots.curve_at(params, curve, 0.5e9) is None
    assert plots.curve_at(params, None, 1e9) is None and plots.curve_at(params, curve, None) is None


def test_the_largest_model_in_words_names_the_top_of_the_search():
    assert plots.fmt_largest(20.5e9, 1e12) == "20.5 B" and plots.fmt_largest(None, 1e12) == "—"
    assert plots.fmt_largest(1e12, 1e12) == "1 T or more" and plots.fmt_largest(2e12, 2e12) == "2 T or more"


def test_the_plot_draws_at_the_sizes_the_results_carry(qapp):
    """The curves' x are the results' own model sizes (``Results.curve_params``): the plot computes none."""
    results = evaluate.evaluate(CATALOG, CATALOG.models["llama-3.1-8b"], default_job(), BUILDS[:2])
    assert results.curve_params is evaluate.CURVE_PARAMS
    plot = plots.FitPlot()
    plot.update(results, "GiB", "Llama")
    x, _y = plot.curves[results.current_technique].getOriginalDataset()
    ok = np.isfinite(results.curves[results.current_technique])
    np.testing.assert_array_equal(x, results.curve_params[ok])
