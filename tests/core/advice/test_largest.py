"""The largest model each build runs: the plan search's own verdict, and the current technique held to the
verdict on the job's own model."""

import pytest

from advisor.core.advice.largest import REL_TOL, SIZE_HI, SIZE_LO, anchored, largest_fits, runs_at
from advisor.core.hardware.catalog import gpu_build
from advisor.core.job.planned import PlannedJob, PlanPins
from advisor.storage.catalog_store import load_catalog


def test_a_build_that_runs_the_job_runs_at_least_its_model():
    assert anchored({"bf16": 7e9, "fp8": 14e9}, "bf16", 8e9, runs=True) == {"bf16": 8e9, "fp8": 14e9}
    assert anchored({"bf16": None}, "bf16", 8e9, runs=True) == {"bf16": 8e9}


def test_a_build_that_does_not_run_it_runs_less_than_its_model():
    out = anchored({"bf16": 9e9}, "bf16", 8e9, runs=False)
    assert out["bf16"] == pytest.approx(8e9 / (1 + REL_TOL)) and out["bf16"] < 8e9
    assert anchored({"bf16": 0.5e9}, "bf16", 0.5e9, runs=False) == {"bf16": None}  # below the smallest: none
    assert anchored({"bf16": 5e9}, "bf16", 8e9, runs=False) == {"bf16": 5e9}  # already below: kept


def test_nothing_to_hold_to_leaves_the_sizes_as_found():
    found = {"bf16": 5e9}
    assert anchored(found, "bf16", None, runs=True) == found
    assert anchored(found, "QLoRA", 8e9, runs=True) == found
    assert anchored(found, "bf16", None, runs=True) is not found  # a copy


def test_the_largest_size_runs_and_the_next_step_up_does_not():
    catalog = load_catalog().catalog
    build = gpu_build(catalog, "rtx-4090", 1)
    job = PlannedJob(weights="q4_k_m", engine="llama.cpp", context_len=4096)
    (found,) = largest_fits({"q4": job}, ((build, PlanPins()),), 0.0)
    size = found["q4"]
    assert SIZE_LO < size < SIZE_HI
    assert runs_at(size, job, build, PlanPins(), 0.0)
    assert not runs_at(size * (1 + 2 * REL_TOL), job, build, PlanPins(), 0.0)
    assert largest_fits({"q4": job}, ((build, PlanPins()), None), 0.0, cancelled=lambda: True) is None
