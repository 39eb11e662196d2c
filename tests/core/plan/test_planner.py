"""Each build gets its own plan: all of its GPUs, the engine's layout, the least offload that fits."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.core.advice import evaluate as compute
from advisor.core.advice.comparison import BuildEntry, Comparison, canonical_comparison
from advisor.core.estimate.estimator import estimate
from advisor.core.hardware.catalog import gpu_build, resolve_build, resolve_cloud
from advisor.core.job.choices import (
    Checkpointing,
    Engine,
    Framework,
    Method,
    Mode,
    Offload,
    Optimizer,
    Parallel,
    Precision,
)
from advisor.core.job.planned import Plan, PlannedJob, PlanPins, apply_plan
from advisor.core.memory.peak import estimate_memory
from advisor.core.plan import planner as plan_search
from advisor.core.plan.planner import (
    SPEED_TIE,
    FitStatus,
    best_plan,
    fit_status,
    schemes_for,
)
from advisor.storage.catalog_store import load_catalog

Q4_70B = PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP, context_len=4096)


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def test_the_issue_report_gives_each_build_its_own_gpus(catalog):
    # 'report --model llama-3.1-70b --weights q4_k_m --engine llama.cpp --gpus 2 --parallel layer-split
    #  --build 2x-rtx-3090-nvlink --build 1x-rtx-pro-6000' said the RTX PRO 6000 "has 0.0 GiB usable".
    arch = catalog.models["llama-3.1-70b"]
    entries = (BuildEntry(name="3090s", build_id="2x-rtx-3090-nvlink"), BuildEntry(name="pro", build_id="1x-rtx-pro-6000"))
    results = compute.evaluate(catalog, arch, Q4_70B, entries)
    pair, pro = results.builds
    assert pair.chosen.plan == Plan(n_gpus=2, parallel=Parallel.LAYER_SPLIT)
    assert pro.chosen.plan == Plan(n_gpus=1)
    assert pair.status is FitStatus.FITS and pro.status is FitStatus.FITS
    assert pair.plan_text == "2 GPUs, split by layers over NVLink, no offload"


def test_mixed_gpu_counts_in_one_comparison(catalog):
    arch = catalog.models["llama-3.1-8b"]
    entries = (BuildEntry(name="one", build_id="1x-rtx-5090"), BuildEntry(name="two", build_id="2x-rtx-4090-pcie-x16"),
               BuildEntry(name="mac", build_id="mac-studio-m3-ultra"))
    results = compute.evaluate(catalog, arch, PlannedJob(), entries)
    assert [r.chosen.plan.n_gpus for r in results.builds] == [1, 2, 1]
    assert all(r.status is FitStatus.FITS and not r.problems for r in results.builds)


def test_a_cloud_8_gpu_instance_is_computed_on_8(catalog):
    cloud_id = next(k for k, v in catalog.cloud.items() if v.gpu_count == 8)
    build = resolve_cloud(catalog, cloud_id)
    chosen = best_plan(catalog.models["llama-3.1-70b"], PlannedJob(engine=Engine.VLLM), build)
    assert chosen.plan.n_gpus == 8 and chosen.planned.n_gpus == 8


def test_a_pinned_plan_is_kept_and_marked(catalog):
    arch = catalog.models["llama-3.1-8b"]
    entry = BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink", plan=PlanPins(parallel=Parallel.PP))
    r = compute.evaluate_build(catalog, arch, canonical_comparison().workload, entry)
    assert r.chosen.plan.parallel is Parallel.PP and r.chosen.pinned
    assert r.plan_text.endswith("(pinned)") and "pipeline parallel" in r.plan_text


def test_a_pinned_count_above_the_build_is_capped_and_said(catalog):
    build = resolve_build(catalog, "1x-rtx-5090")
    chosen = best_plan(catalog.models["llama-3.1-8b"], PlannedJob(), build, PlanPins(n_gpus=2))
    assert chosen.plan.n_gpus == 1 and "has 1" in chosen.notes[0]


def test_vllm_prefers_tensor_parallel_within_the_tie_band(catalog):
    build = resolve_build(catalog, "2x-rtx-3090-nvlink")
    job = canonical_comparison().workload
    chosen = best_plan(catalog.models["llama-3.1-8b"], job, build)
    assert chosen.plan.parallel is Parallel.TP
    rivals = [estimate(catalog.models["llama-3.1-8b"], apply_plan(job, Plan(n_gpus=2, parallel=p)), build)
              for p in schemes_for(job, 2)]
    fastest = max(e.speed.decode_tokens_per_s for e in rivals)
    assert chosen.estimate.speed.decode_tokens_per_s >= fastest * (1 - SPEED_TIE)


def test_training_escalates_only_as_far_as_needed(catalog):
    # Full fine-tune of 8B on 2x 24 GB: no plan fits without putting the optimizer in host RAM.
    arch = catalog.models["llama-3.1-8b"]
    job = PlannedJob(mode=Mode.TRAIN, method=Method.FULL, seq_len=2048)
    chosen = best_plan(arch, job, resolve_build(catalog, "2x-rtx-4090-pcie-x16"))
    assert chosen.status.runs
    assert Offload.OPTIMIZER in chosen.plan.offload or chosen.plan.checkpointing is not Checkpointing.NONE
    lora = best_plan(arch, job.model_copy(update={"method": Method.LORA}), resolve_build(catalog, "2x-rtx-4090-pcie-x16"))
    assert lora.plan.offload == ()  # recompute is cheaper than moving states to host RAM: no offload


def test_tight_is_a_fit_within_the_error_margin(catalog):
    build = gpu_build(catalog, "rtx-4090", 1)
    arch = catalog.models["llama-3.1-8b"]
    est = estimate(arch, PlannedJob(context_len=8192, batch=2), build)
    need, usable = est.fit.need_per_gpu_bytes, est.fit.usable_per_gpu_bytes
    assert est.fit.fits
    assert fit_status(est, (), margin=0.0) is FitStatus.FITS
    assert fit_status(est, (), margin=(usable / need - 1) + 0.01) is FitStatus.TIGHT


def test_old_comparison_files_migrate_their_global_plan_to_pins():
    # Saved by version 1 (before plans per build): one GPU count and scheme for every build.
    v1 = {"schema_version": 1, "title": "old", "model": {"preset_id": "llama-3.1-8b"},
          "workload": {"engine": "vllm", "n_gpus": 2, "parallel": "tp", "batch": 4},
          "builds": [{"name": "a", "build_id": "2x-rtx-3090-nvlink"}, {"name": "b", "gpu_id": "rtx-5090"}]}
    c = Comparison.model_validate(v1)
    assert c.schema_version == 2 and c.workload.batch == 4 and "n_gpus" not in c.workload.model_fields_set
    assert all(b.plan == PlanPins(n_gpus=2, parallel=Parallel.TP) for b in c.builds)


def test_schemes_follow_the_engine():
    assert schemes_for(PlannedJob(engine=Engine.LLAMA_CPP), 2) == (Parallel.LAYER_SPLIT,)
    assert schemes_for(PlannedJob(engine=Engine.VLLM), 2)[0] is Parallel.TP
    assert schemes_for(PlannedJob(mode=Mode.TRAIN), 2)[0] is Parallel.DDP
    assert schemes_for(PlannedJob(), 1) == (Parallel.NONE,)


@pytest.mark.parametrize("method", [Method.FULL, Method.LORA, Method.QLORA])
@pytest.mark.parametrize("build_id", ["2x-rtx-3090-nvlink", "2x-rtx-4090-pcie-x16", "4x-rtx-3090", "8x-h100-sxm"])
def test_training_stops_at_the_first_fitting_scheme_without_losing_speed(catalog, method, build_id):
    # The search stops at the first scheme that fits (TRAIN_SCHEMES never lowers traffic); an
    # exhaustive search over the same level must find nothing faster beyond the tie band.
    from advisor.core.plan.planner import TRAIN_SCHEMES, plan_for

    arch = catalog.models["llama-3.1-8b"]
    build = resolve_build(catalog, build_id)
    job = PlannedJob(mode=Mode.TRAIN, method=method, seq_len=2048)
    chosen = best_plan(arch, job, build)
    if not chosen.status.runs:
        return
    level = chosen.plan
    rivals = [plan_for(arch, job, build, level.model_copy(update={"parallel": p})) for p in TRAIN_SCHEMES]
    fastest = max((r.estimate.speed.train_tokens_per_s or 0) for r in rivals if r.status is FitStatus.FITS)
    assert (chosen.estimate.speed.train_tokens_per_s or 0) >= fastest * (1 - SPEED_TIE)


def test_moe_experts_go_to_host_ram_only_as_far_as_needed(catalog):
    # llama.cpp --n-cpu-moe: Qwen3-235B-A22B Q4_K_M does not fit 2x 24 GB; the planner keeps the
    # routed experts of the fewest layers in host RAM that make the rest fit.
    arch = catalog.models["qwen3-235b-a22b"]
    build = resolve_build(catalog, "2x-rtx-3090-nvlink")
    job = PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP)
    chosen = best_plan(arch, job, build)
    k = chosen.plan.moe_offload_layers
    assert chosen.status is FitStatus.FITS and 0 < k < arch.n_layers
    assert chosen.estimate.memory.host > 0 and f"experts of {k} layers in host RAM" in chosen.plan_text \
        if hasattr(chosen, "plan_text") else True
    from advisor.core.plan.planner import plan_for

    fewer = plan_for(arch, job, build, chosen.plan.model_copy(update={"moe_offload_layers": k - 1}))
    assert fewer.status is not FitStatus.FITS
    more = plan_for(arch, job, build, chosen.plan.model_copy(update={"moe_offload_layers": k + 10}))
    assert more.estimate.speed.decode_tokens_per_s < chosen.estimate.speed.decode_tokens_per_s
    dense = best_plan(catalog.models["llama-3.1-70b"], job, resolve_build(catalog, "1x-rtx-5090"))
    assert dense.plan.moe_offload_layers == 0  # dense models have no experts to move


# --- the last level needs the least GPU memory: the search drops schemes short even there ------

TRAIN_MODELS = ("llama-3.1-8b", "llama-3.1-70b", "qwen2.5-0.5b", "mixtral-8x7b", "gemma-2-9b", "phi-3-mini")


def _training_jobs():
    return st.builds(
        lambda method, batch, seq, precision, optimizer, framework, ckpt: PlannedJob(
            mode=Mode.TRAIN, method=method, batch=batch, seq_len=seq, precision=precision, optimizer=optimizer,
            framework=framework, checkpointing=ckpt),
        st.sampled_from([Method.FULL, Method.LORA, Method.QLORA]), st.integers(1, 64),
        st.sampled_from([128, 512, 2048, 8192, 32768]), st.sampled_from([Precision.BF16, Precision.AMP]),
        st.sampled_from([Optimizer.ADAMW, Optimizer.ADAMW_8BIT, Optimizer.SGD]),
        st.sampled_from([Framework.HF, Framework.LITGPT, Framework.TORCHTUNE]), st.sampled_from(list(Checkpointing)))


@settings(max_examples=150, deadline=None)
@given(job=_training_jobs(), model=st.sampled_from(TRAIN_MODELS), n_gpus=st.sampled_from([1, 2, 4, 8]),
       scheme=st.sampled_from(plan_search.TRAIN_SCHEMES))
def test_the_last_level_of_escalation_needs_the_least_gpu_memory(catalog, job, model, n_gpus, scheme):
    # What lets best_plan drop a scheme that is short of GPU memory at the last level: offloading
    # a state or recomputing an activation never adds to the busiest GPU's peak.
    arch = catalog.models[model]
    levels = plan_search._levels(job, PlanPins())
    parallel = scheme if n_gpus > 1 else Parallel.NONE
    need = [estimate_memory(arch, apply_plan(job, Plan(n_gpus=n_gpus, parallel=parallel, offload=o, checkpointing=c)))
            .breakdown.total for o, c in levels]
    assert min(need) == pytest.approx(need[-1], rel=1e-12), list(zip(levels, need, strict=True))


@settings(max_examples=150, deadline=None)
@given(job=_training_jobs(), model=st.sampled_from(TRAIN_MODELS), n_gpus=st.sampled_from([1, 2, 4, 8]),
       scheme=st.sampled_from(plan_search.TRAIN_SCHEMES))
def test_full_checkpointing_needs_the_least_gpu_memory_of_its_offload(catalog, job, model, n_gpus, scheme):
    # What lets best_plan skip a further offload's other levels for a scheme short of GPU memory
    # with that offload and full checkpointing: recomputing activations never adds to the peak.
    arch = catalog.models[model]
    parallel = scheme if n_gpus > 1 else Parallel.NONE
    by_offload: dict = {}
    for o, c in plan_search._levels(job, PlanPins()):
        need = estimate_memory(arch, apply_plan(job, Plan(n_gpus=n_gpus, parallel=parallel, offload=o,
                                                          checkpointing=c))).breakdown.total
        by_offload.setdefault(o, {})[c] = need
    for o, needs in by_offload.items():
        if Checkpointing.FULL in needs:
            assert min(needs.values()) == pytest.approx(needs[Checkpointing.FULL], rel=1e-12), (o, needs)


@settings(max_examples=150, deadline=None)
@given(job=_training_jobs(), model=st.sampled_from(TRAIN_MODELS), n_gpus=st.sampled_from([2, 4, 8]))
def test_zero3_needs_the_least_gpu_memory_of_the_schemes_at_every_level(catalog, job, model, n_gpus):
    # What lets best_plan skip a whole level once ZeRO-3 is short of GPU memory there.
    arch = catalog.models[model]
    for o, c in plan_search._levels(job, PlanPins()):
        need = {s: estimate_memory(arch, apply_plan(job, Plan(n_gpus=n_gpus, parallel=s, offload=o,
                                                              checkpointing=c))).breakdown.total
                for s in plan_search.TRAIN_SCHEMES}
        least = need[plan_search.LEAST_MEMORY_SCHEME]
        assert all(least <= v * (1 + 1e-12) for v in need.values()), (o, c, need)


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
    assert chosen.plan == _exhaustive(arch, job, build).plan


def _exhaustive(arch, job, build):
    """The search before it dropped schemes: every level, every scheme, in order."""
    n = build.gpu_count
    schemes = plan_search.schemes_for(job, n) if n > 1 else (Parallel.NONE,)
    tried = []
    for offload, ckpt in plan_search._levels(job, PlanPins()):
        running = []
        for scheme in schemes:
            probe = plan_search._probe(arch, job, build, Plan(n_gpus=n, parallel=scheme, offload=offload,
                                                              checkpointing=ckpt), 0.0, None)
            tried.append(probe)
            if probe.status.runs:
                running.append(probe)
                if probe.status is FitStatus.FITS:
                    break
        if running:
            comfortable = [p for p in running if p.status is FitStatus.FITS] or running
            return comfortable[0] if len(comfortable) == 1 else plan_search._fastest_probe(
                arch, build, comfortable, schemes, None)
    unblocked = [p for p in tried if p.status is not FitStatus.BLOCKED] or tried
    return max(unblocked, key=lambda p: p.fit.headroom_bytes)


@settings(max_examples=60, deadline=None)
@given(job=_training_jobs(), model=st.sampled_from(TRAIN_MODELS[:4]),
       build_id=st.sampled_from(["2x-rtx-3090-nvlink", "2x-rtx-4090-pcie-x16", "4x-rtx-3090", "8x-h100-sxm",
                                 "1x-rtx-5090"]))
def test_dropping_schemes_chooses_what_the_exhaustive_search_chooses(catalog, job, model, build_id):
    arch = catalog.models[model]
    build = resolve_build(catalog, build_id)
    chosen = best_plan(arch, job, build)
    reference = _exhaustive(arch, job, build)
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
    assert chosen.plan == _exhaustive(arch, job, build).plan


def test_the_closest_plan_probes_only_the_skipped_plans_that_could_be_it():
    # Nothing runs; at the job's own level (0) only DDP (0) and ZeRO-3 (5) were probed. A plan skipped there
    # has no more headroom than ZeRO-3 at level 0, nor than itself at the last level (2): it is probed only
    # when both reach the best headroom probed (-5 GB), so that an equal one at the job's own level still wins.
    from advisor.core.estimate.estimator import FitFigures

    gb = 1e9

    def probe(headroom_gb: float, status: FitStatus = FitStatus.NO):
        fit = FitFigures(fits=False, need_per_gpu_bytes=30 * gb - headroom_gb * gb, usable_per_gpu_bytes=30 * gb,
                         host_need_bytes=0.0)
        return plan_search._Probe(Plan(n_gpus=2), PlannedJob(), (), fit, status, None)

    last = {0: -8, 1: -5, 2: -7, 3: -5, 4: -6, 5: -5}  # each scheme at the last level, GB of headroom
    probed = {(0, 0): probe(-12), (0, 5): probe(-5)} | {(2, s): probe(h) for s, h in last.items()}
    probed[2, 2] = probe(-9, FitStatus.BLOCKED)  # refused at the last level: its need bounds level 0's all the same
    asked = []

    def at(level, s):
        if (level, s) not in probed:
            asked.append((level, s))
            probed[level, s] = probe(-5)
        return probed[level, s]

    plan_search._complete_for_closest(probed, at, 6, 5, 2)
    assert asked == [(0, 1), (0, 3)]  # ZeRO-1 and FSDP (grad-op) at level 0 could tie the best; the others cannot
    probed_before = dict(probed)
    plan_search._complete_for_closest(probed, at, 6, 5, 2)
    assert probed == probed_before and asked == [(0, 1), (0, 3)]  # nothing asked twice


def test_a_job_with_torchtitans_op_level_checkpointing_is_planned(catalog):
    # --checkpointing op-sac on a build raised "tuple.index(x): x not in tuple" from the search: the
    # escalation is the job's own policy, then full recomputation (the least GPU memory).
    arch = catalog.models["llama-3.1-8b"]
    build = resolve_build(catalog, "2x-rtx-3090-nvlink")
    job = PlannedJob(mode=Mode.TRAIN, method=Method.FULL, checkpointing=Checkpointing.OP_SAC)
    assert [c for _, c in plan_search._levels(job, PlanPins())][:2] == [Checkpointing.OP_SAC, Checkpointing.FULL]
    chosen = best_plan(arch, job, build)
    assert chosen.plan.checkpointing in (Checkpointing.OP_SAC, Checkpointing.FULL)
    light = best_plan(arch, job.model_copy(update={"method": Method.LORA, "seq_len": 512}), build)
    assert light.status.runs and light.plan.checkpointing is Checkpointing.OP_SAC  # fits as the job set it
    assert "op-level selective activation checkpointing" in compute.evaluate(
        catalog, arch, job, (BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"),)).builds[0].plan_text


@settings(max_examples=120, deadline=None)
@given(job=_training_jobs(), model=st.sampled_from(TRAIN_MODELS), n_gpus=st.sampled_from([1, 2, 8]),
       scheme=st.sampled_from(plan_search.TRAIN_SCHEMES), offload=st.sampled_from(plan_search.OFFLOAD_STEPS))
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


@pytest.mark.parametrize("build_id", ["2x-rtx-3090-nvlink", "1x-rtx-5090", "8x-h100-sxm"])
def test_the_catalog_searchs_quick_estimate_times_a_request_as_the_estimate_shown(catalog, build_id):
    # A job with a prompt shorter than its context is one request (PlannedJob.is_request): the estimate shown times
    # it with request_speed. The catalog search's quick estimate used the steady speed at the whole context
    # instead (71.1 against 76.5 tokens/s for this job on the 3090 pair), so Find builds ranked by another number.
    arch = catalog.models["llama-3.1-8b"]
    job = PlannedJob(prompt_tokens=2000, batch=4, context_len=4096)
    build = resolve_build(catalog, build_id)
    quick, full = best_plan(arch, job, build, quick=True), best_plan(arch, job, build)
    assert job.is_request and quick.plan == full.plan
    assert quick.estimate.speed.decode_tokens_per_s == pytest.approx(full.estimate.speed.decode_tokens_per_s)
    assert quick.estimate.speed.request_s == pytest.approx(full.estimate.speed.request_s)


def test_plans_of_equal_need_are_equal_within_a_rounding_far_above_the_estimators():
    # HEADROOM_ROUNDING: relative; the property tests hold the escalation's needs to 1e-12 of each other, and a
    # real difference between two plans' needs is a whole tensor (far above 1e-9 of a GPU's need).
    assert plan_search.HEADROOM_ROUNDING == 1e-9
