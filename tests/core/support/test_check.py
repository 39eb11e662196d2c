"""A job's features judged on a build's GPUs: refusals before any memory figure, and the default attention
replaced where FlashAttention-2 does not run."""

import json

import pytest

from advisor.core.hardware.catalog import gpu_build
from advisor.core.job.choices import AttentionImpl
from advisor.core.job.planned import PlannedJob
from advisor.core.plan.planner import FitStatus, best_plan
from advisor.core.support.check import as_run_on, job_features, refusals
from advisor.core.support.table import Feature


@pytest.mark.parametrize(("job", "features"), [
    (PlannedJob(engine="vllm", weights="fp8", kv_dtype="fp8"), (Feature.VLLM, Feature.FP8_VLLM)),
    (PlannedJob(engine="tensorrt-llm", weights="fp8", kv_dtype="fp8"),
     (Feature.TENSORRT_LLM, Feature.FP8_TENSORRT_LLM, Feature.FP8_KV_TENSORRT_LLM)),
    (PlannedJob(weights="nf4"), (Feature.TRANSFORMERS, Feature.BNB_4BIT)),
    (PlannedJob(weights="int8", attention="flash"), (Feature.TRANSFORMERS, Feature.BNB_INT8, Feature.FLASH_ATTENTION_2)),
    (PlannedJob(weights="q4_k_m"), (Feature.TRANSFORMERS, Feature.GGUF_IN_TRANSFORMERS)),
    (PlannedJob(engine="llama.cpp", weights="q4_k_m", kv_dtype="fp8"), (Feature.LLAMA_CPP, Feature.FP8_KV_LLAMA_CPP)),
    (PlannedJob(mode="train", method="qlora", optimizer="paged-adamw-8bit"), (Feature.BNB_4BIT, Feature.BNB_OPTIMIZER)),
    (PlannedJob(mode="train", framework="unsloth", attention="flash"), (Feature.UNSLOTH,)),  # its own attention
    (PlannedJob(mode="train", framework="torchtune"), ()),  # the default attention is not asked for by name
])
def test_what_a_job_asks_of_the_software(job, features):
    assert job_features(job) == features


def test_the_issue_s_examples_cannot_run(catalog):
    mac = gpu_build(catalog, "apple-m3-ultra-512gb", 1)
    assert [r.field for r in refusals(PlannedJob(engine="vllm"), mac.gpus)] == ["engine"]
    trt = refusals(PlannedJob(engine="tensorrt-llm", kv_dtype="fp8"), gpu_build(catalog, "rtx-3090", 1).gpus)
    assert [r.field for r in trt] == ["kv_dtype"] and "compute capability 8.9" in trt[0].message
    p100 = refusals(PlannedJob(engine="vllm"), gpu_build(catalog, "tesla-p100-16gb-pcie", 1).gpus)
    assert p100 and "Volta or newer" in p100[0].message
    # A mixed build is judged by every card it uses: the older card refuses.
    mixed = gpu_build(catalog, "rtx-4090", 1).model_copy(
        update={"gpus": (catalog.gpus["rtx-4090"], catalog.gpus["rtx-3090"])})
    assert refusals(PlannedJob(engine="tensorrt-llm", weights="fp8"), mixed.gpus)
    assert not refusals(PlannedJob(engine="tensorrt-llm", weights="fp8"), mixed.gpus[:1])


def test_qlora_on_a_mac_runs_from_bitsandbytes_0_50_but_not_its_8_bit_optimizers(catalog):
    # bitsandbytes 0.50.0's accelerator table (2026-07-24): QLoRA 4-bit on Metal, 8-bit optimizers 'planned'.
    mac = gpu_build(catalog, "apple-m3-ultra-512gb", 1)
    assert not refusals(PlannedJob(mode="train", method="qlora"), mac.gpus)
    paged = refusals(PlannedJob(mode="train", method="qlora", optimizer="paged-adamw-8bit"), mac.gpus)
    assert [r.field for r in paged] == ["optimizer"]


def test_flash_attention_left_at_its_default_becomes_sdpa_where_it_cannot_run(catalog):
    job = PlannedJob(mode="train", method="qlora")
    assert job.attention is AttentionImpl.FLASH and "attention" not in job.model_fields_set
    t4 = gpu_build(catalog, "t4", 1)
    run, notes = as_run_on(job, t4.gpus)
    assert run.attention is AttentionImpl.SDPA and notes and "the T4" in notes[0]
    assert as_run_on(job, gpu_build(catalog, "a100-80gb-sxm", 1).gpus) == (job, ())
    chosen = best_plan(catalog.models["llama-3.1-8b"], job, t4)
    assert chosen.planned.attention is AttentionImpl.SDPA and chosen.status.runs and notes[0] in chosen.notes
    # Chosen by name, it is the user's: refused, not replaced.
    asked = PlannedJob(mode="train", method="qlora", attention="flash")
    assert as_run_on(asked, t4.gpus) == (asked, ())
    refused = best_plan(catalog.models["llama-3.1-8b"], asked, t4)
    assert refused.status is FitStatus.BLOCKED and refused.problems[0].field == "attention"
    assert refused.estimate.speed.decode_tokens_per_s is None and refused.estimate.speed.train_tokens_per_s is None


def test_estimate_says_cannot_run_with_the_reason(capsys):
    from advisor.cli import main

    assert main(["estimate", "llama-3.1-8b", "--engine", "vllm", "--gpu", "apple-m3-ultra-512gb", "--json"]) == 0
    fit = json.loads(capsys.readouterr().out)["fit"]
    assert fit["status"] == "cannot run as set"
    assert fit["problems"][0]["field"] == "engine" and fit["problems"][0]["software"]
    assert "vLLM-Metal" in fit["problems"][0]["message"]
    assert main(["estimate", "llama-3.1-8b", "--engine", "vllm", "--gpu", "apple-m3-ultra-512gb"]) == 0
    assert "Fit: cannot run (no vLLM on Mac GPUs; its Mac build runs on the CPU, and vLLM-Metal" in capsys.readouterr().out
