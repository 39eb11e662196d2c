"""The rules of the job's settings in one place (``advisor.core.estimation.job_rules``): the window's lists,
its switches and the command line's refusals read the same rules the core's checks apply."""

import pytest

from advisor.core.estimation.job_checks import check_planned
from advisor.core.estimation.job_rules import (
    LLAMA_CPP_KV,
    engine_caches,
    engine_loads,
    fit_to_engine,
    ignored,
    settled,
    weights_choices,
    weights_key,
)
from advisor.core.job.choices import Engine, Method, Mode, Precision
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings.inference import KV_CHOICES
from advisor.core.job.settings.task import WEIGHT_CHOICES
from advisor.core.memory.formats import MXFP4_FORMATS
from advisor.core.model.arch import Moe
from advisor.core.model.generic import generic_decoder

ARCH = generic_decoder(8e9)
MOE_ARCH = ARCH.model_copy(update={"moe": Moe(n_experts=32, n_active=4, expert_ffn_size=2048)})


@pytest.mark.parametrize("engine", list(Engine))
def test_what_an_engine_loads_is_what_the_checks_let_through(engine):
    for weights in WEIGHT_CHOICES:
        # MXFP4 quantizes a MoE model's experts only: judged on one (a dense model is refused it whatever the engine).
        arch = MOE_ARCH if weights in MXFP4_FORMATS else ARCH
        refused = any(p.field == "weights" for p in check_planned(arch, PlannedJob(engine=engine, weights=weights)))
        assert refused is not engine_loads(engine, weights), (engine, weights)
    for kv in KV_CHOICES:
        refused = any(p.field == "kv_dtype" for p in check_planned(ARCH, PlannedJob(engine=engine, kv_dtype=kv)))
        assert refused is not engine_caches(engine, kv), (engine, kv)
    assert set(LLAMA_CPP_KV) <= set(KV_CHOICES)


def test_a_switch_of_engine_puts_choices_it_runs_in_words():
    assert fit_to_engine(Engine.LLAMA_CPP, "gptq", "bf16") == (
        "q4_k_m", "bf16", "Weights set to Q4_K_M (GGUF, 4.9 bits): llama.cpp does not load GPTQ (4.2 bits).")
    weights, kv, note = fit_to_engine(Engine.VLLM, "q4_k_m", "q8_0")
    assert (weights, kv) == ("awq", "fp8") and "KV cache type set to FP8 (8 bits)" in note
    assert fit_to_engine(Engine.TRANSFORMERS, "bf16", "bf16")[2] == ""
    for engine in Engine:  # whatever it puts in place, the engine runs
        for w in WEIGHT_CHOICES:
            new, kv, _ = fit_to_engine(engine, w, "q4_0")
            assert engine_loads(engine, new) and engine_caches(engine, kv)


def test_each_kind_of_weights_and_its_choices():
    assert weights_key(Mode.INFERENCE, Method.QLORA) is Mode.INFERENCE
    assert weights_key(Mode.TRAIN, Method.LORA) is Method.LORA
    assert weights_choices(Method.FULL, Precision.FP32) == ("fp32",)
    assert weights_choices(Method.QLORA) == ("nf4", "fp4")
    assert weights_choices(Mode.INFERENCE) == WEIGHT_CHOICES
    for method in Method:  # every base offered for a method trains without a complaint
        for w in weights_choices(method):
            job = PlannedJob(mode="train", method=method, weights=w)
            assert not [p for p in check_planned(ARCH, job) if p.field == "weights"], (method, w)


def test_a_switch_resets_what_no_longer_applies_and_keeps_the_rest():
    job = PlannedJob(mode="train", method="full", lora_rank=32, seq_len=4096, objective="sft", precompute_ref=True)
    s = settled(job)
    assert s.lora_rank is None and "lora_rank" not in s.model_fields_set and not s.precompute_ref
    assert s.seq_len == 4096  # kept: it still applies
    inference = settled(PlannedJob(mode="inference", seq_len=4096, engine="vllm", engine_version="0.9"))
    assert inference.seq_len == 4096 and inference.engine_version is None  # kept for a switch back; reset
    assert settled(PlannedJob()) == PlannedJob()


def test_only_given_settings_that_do_not_apply_are_refused():
    job = PlannedJob(mode="train", method="full", lora_rank=8)
    assert [(p.field, p.message) for p in ignored(job, {"lora_rank", "seq_len"})] == [
        ("lora_rank", "only applies to --method lora or qlora")]
    assert ignored(job, {"seq_len"}) == []


def test_exllamav2_runs_exl2_4bit_gptq_and_16bit_and_nothing_else_runs_exl2():
    # turboderp-org/exllamav2 README: "supports the same 4-bit GPTQ models as V1, but also a new EXL2 format".
    for w in ("4.65bpw", "8.0bpw", "gptq", "bf16", "fp16"):
        assert engine_loads(Engine.EXLLAMAV2, w), w
    for w in ("int8", "nf4", "fp8", "awq", "gptq-int8", "q4_k_m"):
        assert not engine_loads(Engine.EXLLAMAV2, w), w
    for engine in Engine:
        assert engine_loads(engine, "4.65bpw") is (engine is Engine.EXLLAMAV2)
    problems = check_planned(ARCH, PlannedJob(engine="exllamav2", weights="int8"))
    assert any("ExLlamaV2 cannot load INT8 (8 bits) weights" in p.message for p in problems)
    problems = check_planned(ARCH, PlannedJob(engine="vllm", weights="4.65bpw"))
    assert any("is ExLlamaV2's format: run it with ExLlamaV2" in p.message for p in problems)
    # A switch puts the format of about the same size in place.
    assert fit_to_engine(Engine.EXLLAMAV2, "q8_0", "bf16")[0] == "8.0bpw"
    assert fit_to_engine(Engine.EXLLAMAV2, "awq", "bf16")[0] == "4.0bpw"
    assert fit_to_engine(Engine.LLAMA_CPP, "6.5bpw", "bf16")[0] == "q8_0"
    assert fit_to_engine(Engine.VLLM, "4.65bpw", "bf16")[0] == "awq"
