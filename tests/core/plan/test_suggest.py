"""What would make a job fit: every suggestion is re-estimated and really fits."""

import pytest

from advisor.core.estimation.estimator import estimate
from advisor.core.hardware.catalog import gpu_build, resolve_build
from advisor.core.job.choices import Checkpointing, Engine, Method, Mode, Offload
from advisor.core.job.planned import PlannedJob, PlanPins
from advisor.core.plan.suggest import suggestions, with_more_gpus
from advisor.storage.catalog_store import load_catalog


def _really_fits(arch, s, build):
    target = s.chosen.estimate
    direct = estimate(arch, s.chosen.planned, build if s.kind != "gpus" else with_more_gpus(build, s.chosen.plan.n_gpus))
    return direct.fit.fits and direct == target


def test_70b_q4_on_one_5090(catalog):
    arch = catalog.models["llama-3.1-70b"]
    build = resolve_build(catalog, "1x-rtx-5090")
    job = PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP, context_len=4096)
    assert not estimate(arch, job, build).fit.fits
    found = {s.kind: s for s in suggestions(arch, job, build)}
    assert found["weights"].chosen.planned.weights == "q2_k"  # q3_k_m (34 GB) is still too big for 31.6 GiB
    assert found["gpus"].chosen.plan.n_gpus == 2 and found["gpus"].extra_cost_usd == pytest.approx(
        catalog.gpus["rtx-5090"].prices[0].usd, rel=1) and found["gpus"].extra_cost_usd > 0
    for s in found.values():
        assert _really_fits(arch, s, build), s.change
        assert s.chosen.headline_tokens_per_s > 0


def test_shorter_context_or_fewer_sequences_is_the_largest_that_fits(catalog):
    arch = catalog.models["llama-3.1-8b"]
    build = gpu_build(catalog, "rtx-4090", 1)
    job = PlannedJob(context_len=32768, batch=8)
    found = {s.kind: s for s in suggestions(arch, job, build)}
    ctx, batch = found["context_len"].chosen.planned.context_len, found["batch"].chosen.planned.batch
    assert estimate(arch, job.model_copy(update={"context_len": ctx}), build).fit.fits
    assert not estimate(arch, job.model_copy(update={"context_len": ctx + 1}), build).fit.fits
    assert estimate(arch, job.model_copy(update={"batch": batch}), build).fit.fits
    assert not estimate(arch, job.model_copy(update={"batch": batch + 1}), build).fit.fits
    kv = {s.kind: s for s in suggestions(arch, PlannedJob(context_len=16384, batch=3), build)}["kv_cache"]
    assert kv.chosen.planned.kv_dtype == "fp8" and kv.change == "KV cache in FP8"


def test_pinned_savers_are_suggested_when_they_help(catalog):
    arch = catalog.models["llama-3.1-8b"]
    build = resolve_build(catalog, "2x-rtx-4090-pcie-x16")
    job = PlannedJob(mode=Mode.TRAIN, method=Method.FULL, seq_len=2048)
    pins = PlanPins(offload=(), checkpointing=Checkpointing.NONE)
    found = {s.kind: s for s in suggestions(arch, job, build, pins)}
    assert "offload" in found and Offload.OPTIMIZER in found["offload"].chosen.plan.offload
    assert found["offload"].host_ram_bytes > 0 and "GiB" in found["offload"].change
    assert found["method"].chosen.planned.method in (Method.LORA, Method.QLORA)


def test_no_suggestion_is_made_up_when_nothing_helps(catalog):
    arch = catalog.models["llama-3.1-405b"]
    build = gpu_build(catalog, "rtx-3060-12gb" if "rtx-3060-12gb" in catalog.gpus else "rtx-4060-ti-16gb", 1)
    job = PlannedJob(context_len=4096)
    for s in suggestions(arch, job, build):
        assert _really_fits(arch, s, build)


def test_suggestions_never_propose_what_the_software_does_not_run():
    # TensorRT-LLM's FP8 KV cache needs Ada (SM89): on an RTX 3090 the KV step is not offered (it had been).
    # A change the software cannot run re-plans as "cannot run", which is not a fit (``_first_running``).
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.plan.suggest import suggestions

    catalog = load_catalog().catalog
    arch = catalog.models["llama-3.1-8b"]
    job = PlannedJob(engine="tensorrt-llm", batch=64, context_len=16384)
    for gpu, fp8_ok in (("rtx-3090", False), ("rtx-4090", True)):
        found = suggestions(arch, job, gpu_build(catalog, gpu, 1))
        kinds = {s.kind: s for s in found}
        assert ("kv_cache" in kinds) is fp8_ok, (gpu, [s.change for s in found])
        assert all(s.chosen.status.runs and not s.chosen.problems for s in found)
