"""The escalation's skips: a job short everywhere is settled in few probes, and the plan chosen is what a
search of every plan chooses."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.core.hardware.catalog import resolve_build
from advisor.core.job.choices import (
    Checkpointing,
    Method,
    Mode,
    Offload,
)
from advisor.core.job.planned import Plan, PlannedJob
from advisor.core.plan import escalation, probes
from advisor.core.plan import planner as plan_search
from advisor.core.plan.planner import (
    FitStatus,
    best_plan,
)
from tests.plan_strategies import TRAIN_MODELS, exhaustive, training_jobs



def test_a_job_that_runs_only_with_everything_offloaded_skips_the_levels_where_zero3_is_short(catalog):
    # LoRA of Llama 3.1 8B at batch 8 on two RTX 3090s (the window's six-build benchmark): it runs only
    # with optimizer and parameters offloaded and full checkpointing.
    arch = catalog.models["llama-3.1-8b"]
    job = PlannedJob(mode=Mode.TRAIN, method=Method.LORA, batch=8, seq_len=1024)
    build = resolve_build(catalog, "2x-rtx-3090-nvlink")
    chosen = best_plan(arch, job, build)
    assert chosen.plan.offload == (Offload.OPTIMIZER, Offload.PARAMS)
    assert chosen.plan.checkpointing is Checkpointing.FULL
    # At the job's own level, DDP (the first choice) and ZeRO-3, both short of GPU memory, so no scheme runs
    # there; at each of the seven levels between, ZeRO-3 alone (short there too); at the last, ZeRO-3 (probed
    # first: not short there, so the levels between are tried) and DDP, which runs.
    assert chosen.considered == 2 + 7 + 2
    assert chosen.plan == exhaustive(arch, job, build).plan


@settings(max_examples=60, deadline=None)
@given(job=training_jobs(), model=st.sampled_from(TRAIN_MODELS[:4]),
       build_id=st.sampled_from(["2x-rtx-3090-nvlink", "2x-rtx-4090-pcie-x16", "4x-rtx-3090", "8x-h100-sxm",
                                 "1x-rtx-5090"]))
def test_dropping_schemes_chooses_what_the_exhaustive_search_chooses(catalog, job, model, build_id):
    arch = catalog.models[model]
    build = resolve_build(catalog, build_id)
    chosen = best_plan(arch, job, build)
    reference = exhaustive(arch, job, build)
    assert chosen.plan == reference.plan
    assert chosen.estimate.fit.need_per_gpu_bytes == pytest.approx(reference.fit.need_per_gpu_bytes)


def test_a_job_that_fits_nowhere_is_settled_in_two_levels(catalog):
    # Full fine-tuning of a 70B model on two 24 GB cards: short of GPU memory at every level.
    arch = catalog.models["llama-3.1-70b"]
    job = PlannedJob(mode=Mode.TRAIN, method=Method.FULL, seq_len=4096, batch=8)
    build = resolve_build(catalog, "2x-rtx-4090-pcie-x16")
    chosen = best_plan(arch, job, build)
    assert chosen.status is FitStatus.NO
    # At the job's own level, DDP and ZeRO-3 (short: no scheme runs there); at the last, every scheme (each
    # short: none runs at any level). The closest plan is among those at the last level: each of the others at
    # the job's own level has less headroom than ZeRO-3 there or than itself at the last level.
    assert chosen.considered == 2 + len(plan_search.TRAIN_SCHEMES)
    assert chosen.plan == exhaustive(arch, job, build).plan


def test_the_closest_plan_probes_only_the_skipped_plans_that_could_be_it():
    # Nothing runs; at the job's own level (0) only DDP (0) and ZeRO-3 (5) were probed. A plan skipped there
    # has no more headroom than ZeRO-3 at level 0, nor than itself at the last level (2): it is probed only
    # when both reach the best headroom probed (-5 GB), so that an equal one at the job's own level still wins.
    from advisor.core.estimation.estimator import FitFigures

    gb = 1e9

    def probe(headroom_gb: float, status: FitStatus = FitStatus.NO):
        fit = FitFigures(fits=False, need_per_gpu_bytes=30 * gb - headroom_gb * gb, usable_per_gpu_bytes=30 * gb,
                         host_need_bytes=0.0)
        return probes.Probe(Plan(n_gpus=2), PlannedJob(), (), fit, status, None)

    last = {0: -8, 1: -5, 2: -7, 3: -5, 4: -6, 5: -5}  # each scheme at the last level, GB of headroom
    probed = {(0, 0): probe(-12), (0, 5): probe(-5)} | {(2, s): probe(h) for s, h in last.items()}
    probed[2, 2] = probe(-9, FitStatus.BLOCKED)  # refused at the last level: its need bounds level 0's all the same
    asked = []

    def at(level, s):
        if (level, s) not in probed:
            asked.append((level, s))
            probed[level, s] = probe(-5)
        return probed[level, s]

    escalation.complete_for_closest(probed, at, 6, 5, 2)
    assert asked == [(0, 1), (0, 3)]  # ZeRO-1 and FSDP (grad-op) at level 0 could tie the best; the others cannot
    probed_before = dict(probed)
    escalation.complete_for_closest(probed, at, 6, 5, 2)
    assert probed == probed_before and asked == [(0, 1), (0, 3)]  # nothing asked twice


def test_plans_of_equal_need_are_equal_within_a_rounding_far_above_the_estimators():
    # HEADROOM_ROUNDING: relative; the property tests hold the escalation's needs to 1e-12 of each other, and a
    # real difference between two plans' needs is a whole tensor (far above 1e-9 of a GPU's need).
    assert escalation.HEADROOM_ROUNDING == 1e-9
