"""Each build's speed basis on the results: the basis of the GPUs its plan uses, for the job as planned, from the
measured table the caller passes (the core reads no file)."""

from __future__ import annotations

from advisor.core.advice import evaluate
from advisor.core.advice.comparison import BuildEntry
from advisor.core.advice.speed_bases import speed_basis_of, with_speed_bases
from advisor.core.job.planned import PlannedJob
from advisor.core.speed.basis import basis_key, software_of
from advisor.storage.catalog_store import load_catalog


def test_a_measured_family_is_measured_and_another_extrapolated():
    catalog = load_catalog().catalog
    job = PlannedJob(weights="q4_k_m", engine="llama.cpp")
    builds = (BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"),
              BuildEntry(name="old", gpu_id="tesla-p100-16gb-pcie", gpu_count=2),
              BuildEntry(name="gone", build_id="no-such-build"))
    results = evaluate.evaluate(catalog, catalog.models["llama-3.1-8b"], job, builds, suggest=False)
    assert all(r.speed_basis is None for r in results.builds)  # until the caller adds them
    pair = results.builds[0]
    family = pair.resolved.gpus[0].speed_family
    table = {basis_key(family, software_of(job)): {"rows": 4, "median_pct": 9.0}, "extrapolated": {"median_pct": 40.0}}
    based = with_speed_bases(results, job, table)
    first, old, gone = based.builds
    assert first.speed_basis.calibrated and first.speed_basis.rows == 4 and first.speed_basis.median_pct == 9.0
    assert not old.speed_basis.calibrated and old.speed_basis.median_pct == 40.0 and old.speed_basis.mark == "extrapolated"
    assert gone.speed_basis is None  # no build resolved: nothing to stand on
    assert speed_basis_of(pair, job, table) == first.speed_basis
    assert [r.estimate for r in based.builds] == [r.estimate for r in results.builds]  # nothing else changes


def test_a_build_without_a_plan_takes_the_basis_of_one_gpu():
    """No model chosen: the build resolves but has no plan; the user's job (no GPU count of its own) stands
    alone on one GPU instead of failing on a plan field it does not have."""
    from advisor.core.job.job import Job

    catalog = load_catalog().catalog
    job = Job(weights="q4_k_m", engine="llama.cpp")
    results = evaluate.evaluate(catalog, None, job, (BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"),),
                                suggest=False)
    (pair,) = results.builds
    assert pair.chosen is None and pair.resolved is not None
    family = pair.resolved.gpus[0].speed_family
    table = {basis_key(family, software_of(job)): {"rows": 4, "median_pct": 9.0}, "extrapolated": {"median_pct": 40.0}}
    basis = speed_basis_of(pair, job, table)
    assert basis is not None and basis.calibrated and basis.rows == 4
