"""The plan search's probes: the levels of escalation and the memory bounds each skip rests on, a probe's
memory against the full estimate's, and training probes shared between builds."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.core.advice import evaluate as compute
from advisor.core.advice.comparison import BuildEntry
from advisor.core.job.choices import (
    Checkpointing,
    Method,
    Mode,
    Parallel,
)
from advisor.core.job.planned import Plan, PlannedJob, PlanPins, apply_plan
from advisor.core.memory.peak import estimate_memory
from advisor.core.plan import probes
from advisor.core.plan import planner as plan_search
from tests.plan_strategies import TRAIN_MODELS, training_jobs



@settings(max_examples=150, deadline=None)
@given(job=training_jobs(), model=st.sampled_from(TRAIN_MODELS), n_gpus=st.sampled_from([1, 2, 4, 8]),
       scheme=st.sampled_from(plan_search.TRAIN_SCHEMES))
def test_the_last_level_of_escalation_needs_the_least_gpu_memory(catalog, job, model, n_gpus, scheme):
    # What lets best_plan drop a scheme that is short of GPU memory at the last level: offloading
    # a state or recomputing an activation never adds to the busiest GPU's peak.
    arch = catalog.models[model]
    levels = probes.levels(job, PlanPins())
    parallel = scheme if n_gpus > 1 else Parallel.NONE
    need = [estimate_memory(arch, apply_plan(job, Plan(n_gpus=n_gpus, parallel=parallel, offload=o, checkpointing=c)))
            .breakdown.total for o, c in levels]
    assert min(need) == pytest.approx(need[-1], rel=1e-12), list(zip(levels, need, strict=True))


@settings(max_examples=150, deadline=None)
@given(job=training_jobs(), model=st.sampled_from(TRAIN_MODELS), n_gpus=st.sampled_from([1, 2, 4, 8]),
       scheme=st.sampled_from(plan_search.TRAIN_SCHEMES))
def test_full_checkpointing_needs_the_least_gpu_memory_of_its_offload(catalog, job, model, n_gpus, scheme):
    # What lets best_plan skip a further offload's other levels for a scheme short of GPU memory
    # with that offload and full checkpointing: recomputing activations never adds to the peak.
    arch = catalog.models[model]
    parallel = scheme if n_gpus > 1 else Parallel.NONE
    by_offload: dict = {}
    for o, c in probes.levels(job, PlanPins()):
        need = estimate_memory(arch, apply_plan(job, Plan(n_gpus=n_gpus, parallel=parallel, offload=o,
                                                          checkpointing=c))).breakdown.total
        by_offload.setdefault(o, {})[c] = need
    for o, needs in by_offload.items():
        if Checkpointing.FULL in needs:
            assert min(needs.values()) == pytest.approx(needs[Checkpointing.FULL], rel=1e-12), (o, needs)


@settings(max_examples=150, deadline=None)
@given(job=training_jobs(), model=st.sampled_from(TRAIN_MODELS), n_gpus=st.sampled_from([2, 4, 8]))
def test_zero3_needs_the_least_gpu_memory_of_the_schemes_at_every_level(catalog, job, model, n_gpus):
    # What lets best_plan skip a whole level once ZeRO-3 is short of GPU memory there.
    arch = catalog.models[model]
    for o, c in probes.levels(job, PlanPins()):
        need = {s: estimate_memory(arch, apply_plan(job, Plan(n_gpus=n_gpus, parallel=s, offload=o,
                                                              checkpointing=c))).breakdown.total
                for s in plan_search.TRAIN_SCHEMES}
        least = need[probes.LEAST_MEMORY_SCHEME]
        assert all(least <= v * (1 + 1e-12) for v in need.values()), (o, c, need)


@settings(max_examples=120, deadline=None)
@given(job=training_jobs(), model=st.sampled_from(TRAIN_MODELS), n_gpus=st.sampled_from([1, 2, 8]),
       scheme=st.sampled_from(plan_search.TRAIN_SCHEMES), offload=st.sampled_from(probes.OFFLOAD_STEPS))
def test_a_probe_without_the_words_has_the_same_memory(catalog, job, model, n_gpus, scheme, offload):
    # For speed, the plan search's probes and the fit sweep ask for the memory without the assumptions'
    # words and the terms' full sizes; every figure is the one the full estimate gives.
    from advisor.core.memory.training import estimate_training

    w = apply_plan(job, Plan(n_gpus=n_gpus, parallel=scheme if n_gpus > 1 else Parallel.NONE, offload=offload,
                             checkpointing=job.checkpointing))
    full, quick = estimate_training(catalog.models[model], w), estimate_training(catalog.models[model], w, detail=False)
    assert quick.breakdown == full.breakdown
    assert (quick.params_total, quick.params_trainable) == (full.params_total, full.params_trainable)
    assert full.assumptions and full.sizes is not None and quick.assumptions == () and quick.sizes is None


def test_builds_of_as_many_gpus_share_a_training_jobs_probes_and_keep_their_own_figures(catalog):
    # For speed, a pass plans one job object on every build; a training job's probes (its memory under each
    # plan, which no card changes) are shared between builds of as many GPUs. Each build keeps its own fit.
    arch = catalog.models["llama-3.1-8b"]
    job = PlannedJob(mode=Mode.TRAIN, method=Method.LORA, batch=6)
    entries = (BuildEntry(name="3090s", build_id="2x-rtx-3090-nvlink"),
               BuildEntry(name="5090s", gpu_id="rtx-5090", gpu_count=2))
    together = compute.evaluate(catalog, arch, job, entries).builds
    alone = [compute.evaluate(catalog, arch, job.model_copy(), (e,)).builds[0] for e in entries]
    assert together[0].estimate.fit != together[1].estimate.fit  # 24 and 32 GB cards
    for t, a in zip(together, alone, strict=True):
        assert (t.chosen.plan, t.status, t.estimate) == (a.chosen.plan, a.status, a.estimate)
