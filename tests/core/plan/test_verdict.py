"""A plan's verdict: fits, tight within the estimate's error, does not fit, or cannot run as set."""


from advisor.core.estimation.estimator import FitFigures, estimate
from advisor.core.estimation.job_checks import Problem
from advisor.core.hardware.catalog import gpu_build
from advisor.core.job.planned import Plan, PlannedJob
from advisor.core.plan.verdict import ChosenPlan, FitStatus, fit_status, status_of


def test_tight_is_a_fit_within_the_error_margin(catalog):
    build = gpu_build(catalog, "rtx-4090", 1)
    arch = catalog.models["llama-3.1-8b"]
    est = estimate(arch, PlannedJob(context_len=8192, batch=2), build)
    need, usable = est.fit.need_per_gpu_bytes, est.fit.usable_per_gpu_bytes
    assert est.fit.fits
    assert fit_status(est, (), margin=0.0) is FitStatus.FITS
    assert fit_status(est, (), margin=(usable / need - 1) + 0.01) is FitStatus.TIGHT


def _fit(need_gb: float, usable_gb: float) -> FitFigures:
    return FitFigures(fits=need_gb <= usable_gb, need_per_gpu_bytes=need_gb * 1e9, usable_per_gpu_bytes=usable_gb * 1e9,
                      host_need_bytes=0.0)


def test_a_problem_blocks_whatever_the_memory_says():
    refused = (Problem(field="weights", message="not on this engine"),)
    assert status_of(_fit(10, 20), refused, 0.0) is FitStatus.BLOCKED
    assert status_of(None, (), 0.0) is FitStatus.NO  # no fit at all: not a fit
    assert status_of(_fit(21, 20), (), 0.0) is FitStatus.NO


def test_tight_is_within_the_margin_of_the_usable_memory():
    # 18 GB of 20: 11 % to spare. A 10 % error margin still fits; a 12 % one may not, so it is tight.
    assert status_of(_fit(18, 20), (), 0.10) is FitStatus.FITS
    assert status_of(_fit(18, 20), (), 0.12) is FitStatus.TIGHT
    assert FitStatus.TIGHT.runs and FitStatus.FITS.runs
    assert not FitStatus.NO.runs and not FitStatus.BLOCKED.runs


def test_a_chosen_plan_says_whether_the_software_refused_it(catalog):
    arch = catalog.models["llama-3.1-8b"]
    build = gpu_build(catalog, "rtx-4090", 1)
    est = estimate(arch, PlannedJob(), build)
    support = Problem(field="engine", message="does not run on these GPUs", support=True)
    contradiction = Problem(field="batch", message="contradicts the context")
    chosen = ChosenPlan(Plan(n_gpus=1), PlannedJob(), est, FitStatus.BLOCKED, problems=(support,))
    assert chosen.unsupported
    assert not ChosenPlan(Plan(n_gpus=1), PlannedJob(), est, FitStatus.BLOCKED, problems=(contradiction,)).unsupported
    assert chosen.headline_tokens_per_s == est.speed.decode_tokens_per_s  # inference: generated tokens/s
