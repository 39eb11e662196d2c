"""Settings a build cannot run (e.g. FP8 weights on cards an engine does not run them on)."""

import pytest

from advisor.core.estimation.job_checks import check_planned, message_of
from advisor.core.hardware.catalog import gpu_build
from advisor.core.job.choices import (
    Engine,
    Method,
    Mode,
    Optimizer,
    Parallel,
    Precision,
)
from advisor.core.job.planned import PlannedJob


def _fp8(catalog, engine, gpu):
    arch = catalog.models["llama-3.1-8b"]
    return [p for p in check_planned(arch, PlannedJob(engine=engine, weights="fp8"), gpu_build(catalog, gpu, 1))
            if p.field == "weights"]


def test_the_cited_figures():
    # The FP8 rows of the support table (advisor.core.support.table, each with its source): vLLM from compute
    # capability 7.5 (Turing: weight-only W8A16 through FP8 Marlin), transformers from 9.0 (H100), TensorRT-LLM
    # from Ada (SM89).
    from advisor.core.hardware.backend import Backend
    from advisor.core.support.table import Feature, rule_for

    assert {f: rule_for(f, Backend.CUDA).min_cc for f in (Feature.FP8_VLLM, Feature.FP8_TRANSFORMERS,
                                                           Feature.FP8_TENSORRT_LLM)} == {
        Feature.FP8_VLLM: (7, 5), Feature.FP8_TRANSFORMERS: (9, 0), Feature.FP8_TENSORRT_LLM: (8, 9)}


@pytest.mark.parametrize(("engine", "gpu", "refused"), [
    (Engine.TRANSFORMERS, "rtx-3090", True), (Engine.TRANSFORMERS, "rtx-4090", True),
    (Engine.TRANSFORMERS, "h100-sxm", False), (Engine.VLLM, "rtx-3090", False), (Engine.VLLM, "rtx-2080-ti", False),
    (Engine.VLLM, "v100-pcie-32gb", True), (Engine.SGLANG, "v100-pcie-32gb", False),  # no sourced figure: not judged
    (Engine.VLLM, "mi300x", False), (Engine.VLLM, "mi210", True),  # ROCm: MI300 and later (vLLM's table)
    (Engine.TENSORRT_LLM, "a100-80gb-sxm", True), (Engine.TENSORRT_LLM, "rtx-3090", True),
    (Engine.TENSORRT_LLM, "l40s", False), (Engine.TENSORRT_LLM, "rtx-4090", False),
    (Engine.TENSORRT_LLM, "h100-sxm", False),
])
def test_fp8_weights_on_a_card_the_engine_does_not_run_them_on(catalog, engine, gpu, refused):
    problems = _fp8(catalog, engine, gpu)
    assert bool(problems) is refused
    if refused:
        assert "FP8 weights" in problems[0].message and problems[0].message.endswith("pick 8-bit integer or 4-bit weights")
        assert all(p.support for p in problems)


def test_what_would_make_it_fit_skips_fp8_where_it_cannot_run(catalog, capsys):
    from advisor.cli import main

    assert main(["estimate", "llama-3.1-8b", "--engine", "transformers", "--batch", "1", "--gpu", "rtx-3060-12gb"]) == 0
    out = capsys.readouterr().out
    assert "What would make it fit:" in out and "FP8" not in out.split("What would make it fit:")[1].split("\n\n")[0]


def test_a_context_past_the_trained_one_is_refused_except_by_an_engine_that_runs_it(catalog):
    # Falcon 180B's config gives max_position_embeddings 2048. TensorRT-LLM sizes an engine by its build's
    # lengths and NVIDIA's 0.9.0 tables run it at 2,048 + 2,048 tokens (docs/source/performance.md at
    # 250d9c29): RUNS_PAST_TRAINED_CONTEXT. Every other engine is held to the model's figure.
    from advisor.core.estimation.estimator import estimate
    from advisor.core.estimation.job_checks import (
        RUNS_PAST_TRAINED_CONTEXT,
        past_trained_context,
    )

    assert RUNS_PAST_TRAINED_CONTEXT == (Engine.TENSORRT_LLM,)
    falcon = catalog.models["falcon-180b"]
    build = gpu_build(catalog, "h100-sxm", 8)
    for engine in Engine:
        job = PlannedJob(engine=engine, weights="fp8" if engine is Engine.TENSORRT_LLM else "bf16", n_gpus=8,
                       parallel="tp", context_len=4096, prompt_tokens=2048)
        refused = [p for p in check_planned(falcon, job, build) if p.field == "context_len"]
        assert bool(refused) is (engine is not Engine.TENSORRT_LLM), engine
        if refused:
            assert refused[0].message == "Falcon 180B takes at most 2048 tokens"
    trt = PlannedJob(engine="tensorrt-llm", weights="fp8", n_gpus=8, parallel="tp", context_len=4096, prompt_tokens=2048)
    note = past_trained_context(falcon, trt)
    assert note is not None and note.startswith("4,096 tokens per sequence, past the 2,048 Falcon 180B was trained on")
    assert note in estimate(falcon, trt, build).speed.notes  # the whole request's length, not its mid-point's
    within = trt.model_copy(update={"context_len": 2048, "prompt_tokens": 1024})
    assert past_trained_context(falcon, within) is None
    assert not any("trained on" in n for n in estimate(falcon, within, build).speed.notes)



@pytest.mark.parametrize(("engine", "gpu", "refused"), [
    (Engine.TENSORRT_LLM, "rx-7900-xtx", True), (Engine.TENSORRT_LLM, "mi300x", True),
    (Engine.TENSORRT_LLM, "apple-m2-ultra-192gb", True), (Engine.TENSORRT_LLM, "rtx-4090", False),
    (Engine.TENSORRT_LLM, "h100-sxm", False), (Engine.VLLM, "mi300x", False), (Engine.LLAMA_CPP, "rx-7900-xtx", False),
    (Engine.LLAMA_CPP, "apple-m2-ultra-192gb", False),
])
def test_an_engine_on_a_vendor_it_does_not_run_on(catalog, engine, gpu, refused):
    # TensorRT-LLM runs on NVIDIA GPUs only (its support matrix): an AMD or Apple build is refused with a word on
    # what to choose; llama.cpp runs on every backend (its README's 'Supported backends').
    arch = catalog.models["llama-3.1-8b"]
    problems = [p for p in check_planned(arch, PlannedJob(engine=engine), gpu_build(catalog, gpu, 1)) if p.field == "engine"]
    assert bool(problems) is refused
    if refused:
        card = gpu_build(catalog, gpu, 1).gpus[0]
        assert problems[0].message == (f"TensorRT-LLM runs on NVIDIA GPUs only; the {card.name} is "
                                       f"{'an' if card.vendor[0] in 'AEIOU' else 'a'} {card.vendor} GPU: "
                                       "choose another engine, such as llama.cpp")
    # Training has no engine: not judged.
    assert not [p for p in check_planned(arch, PlannedJob(mode="train", engine=engine), gpu_build(catalog, gpu, 1))
                if p.field == "engine"]


def test_tensorrt_llm_on_a_cpu_only_build_is_said_as_a_cpu(catalog):
    # This machine without a GPU is a one-"GPU" build whose vendor is CPU (ui.machine.cpu_only_entry).
    from advisor.core.hardware.records import Gpu, ResolvedBuild, Segment

    cpu = Gpu(id="local-cpu-only", sources=["https://example.org/cpu"], vendor="CPU", name="Ryzen 9 with system RAM",
              segment=Segment.UNIFIED_MEMORY, memory_gib=64.0, memory_gb_marketing=69.0, mem_bandwidth_gb_per_s=60.0)
    build = ResolvedBuild(name="This machine", gpus=(cpu,), unified_memory=True)
    problems = [p for p in check_planned(catalog.models["llama-3.1-8b"], PlannedJob(engine="tensorrt-llm"), build)
                if p.field == "engine"]
    assert [p.message for p in problems] == ["TensorRT-LLM runs on NVIDIA GPUs only; the Ryzen 9 with system RAM is "
                                             "a CPU: choose another engine, such as llama.cpp"]


@pytest.mark.parametrize("job", [
    PlannedJob(mode=Mode.TRAIN, method=Method.FULL, weights="q4_k_m"),
    PlannedJob(mode=Mode.TRAIN, method=Method.ADAPTER, weights="q8_0"),
    PlannedJob(mode=Mode.TRAIN, precision=Precision.FP32, optimizer=Optimizer.ADAMW_8BIT),
    PlannedJob(mode=Mode.TRAIN, parallel=Parallel.ZERO3),
])
def test_a_refusal_in_a_buyers_sentence_names_no_flag(catalog, job):
    # The recommendation and the PDF say a refusal with message_of: no CLI flag (the CLI's own lines keep them;
    # the window names the control instead, from the flags message_of keeps when asked).
    arch = catalog.models["llama-3.1-8b"]
    lines = [f"{p.field}: {p.message}" for p in check_planned(arch, job)]
    assert lines and any("--" in line for line in lines), lines  # the CLI's words name a flag
    for line in lines:
        said = message_of(line)
        assert "--" not in said and not said.startswith(line.split(":")[0] + ":"), said
        assert "--" in message_of(line, flags=True) or "--" not in line
