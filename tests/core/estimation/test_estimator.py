"""The estimate facade: fit against usable memory, speed only with a build, and workload checks."""

import pytest
from pydantic import ValidationError

from advisor.core.estimation.estimator import estimate
from advisor.core.estimation.job_checks import check_planned
from advisor.core.hardware.memory import DRIVER_RESERVED_BYTES, usable_memory_bytes
from advisor.core.hardware.records import Gpu, ResolvedBuild
from advisor.core.job.planned import PlannedJob
from advisor.core.model.params import count_params, lora_params
from advisor.core.units import GIB, MIB
from tests.core.speed.speed_fixtures import (
    SRC,
    hgx_h100,
    llama2_7b,
    llama2_70b,
    one_4090,
    pair_3090_nvlink,
    pair_4090_pcie,
    rtx4090,
)


def test_usable_memory_of_a_4090_is_what_cuda_reports():
    # thamada/nvidia-smi gls/RTX4090_deviceQuery.py: 25,386,352,640 bytes total global memory.
    assert usable_memory_bytes(rtx4090()) == 25_386_352_640
    assert DRIVER_RESERVED_BYTES == pytest.approx(366 * MIB, rel=0.01)


def test_usable_memory_of_an_apple_soc_is_metals_working_set():
    mac = Gpu(id="m2-16", sources=SRC, vendor="Apple", name="M2 16GB", segment="unified-memory",
              memory_gib=16, memory_gb_marketing=16, mem_bandwidth_gb_per_s=100)
    # ggml_metal_init on a 16 GB Mac: recommendedMaxWorkingSetSize = 11453.25 MB (decimal megabytes: it divides by
    # 1e6 now; 10,922.67 MiB when it divided by 1024²): two thirds of 16 GiB
    assert usable_memory_bytes(mac) == pytest.approx(11_453.25e6, rel=1e-6) == pytest.approx(16 * 1024 * MIB * 2 / 3)


def test_without_a_build_memory_only():
    e = estimate(llama2_7b(), PlannedJob())
    assert e.fit is None
    assert e.speed.decode_tokens_per_s is None and e.speed.train_tokens_per_s is None
    assert e.speed.notes and "build" in e.speed.notes[0]
    assert e.memory.weights == pytest.approx(count_params(llama2_7b()).total * 2)
    assert e.params_total == count_params(llama2_7b()).total and e.params_trainable == 0
    assert e.rule_of_thumb is not None and e.rule_of_thumb.total_bytes > 0


def test_with_a_build_fit_and_speed():
    ok = estimate(llama2_7b(), PlannedJob(context_len=2048), one_4090())
    assert ok.fit.fits and ok.fit.usable_per_gpu_bytes == usable_memory_bytes(rtx4090())
    assert ok.fit.need_per_gpu_bytes == pytest.approx(ok.memory.total)
    assert ok.speed.decode_tokens_per_s > 0 and ok.speed.time_to_first_token_s > 0
    too_big = estimate(llama2_70b(), PlannedJob(), one_4090())
    assert not too_big.fit.fits and "usable" in too_big.fit.reason
    assert too_big.fit.headroom_bytes < 0


def test_canonical_pair_70b_4bit_fits_both_and_differs_in_speed_only():
    w = PlannedJob(weights="q4_k_m", engine="llama.cpp", n_gpus=2, parallel="layer-split", context_len=4096)
    e3, e4 = estimate(llama2_70b(), w, pair_3090_nvlink()), estimate(llama2_70b(), w, pair_4090_pcie())
    assert e3.fit.fits and e4.fit.fits
    assert e3.memory == e4.memory
    assert e4.speed.decode_tokens_per_s > e3.speed.decode_tokens_per_s


def test_trainable_params_by_method():
    a = llama2_7b()
    assert estimate(a, PlannedJob(mode="train", method="full")).params_trainable == count_params(a).total
    lora = estimate(a, PlannedJob(mode="train", method="lora", lora_rank=8)).params_trainable
    assert lora == lora_params(a, 8, PlannedJob().lora_targets)


def test_more_gpus_than_the_build_does_not_fit_and_has_no_speed():
    e = estimate(llama2_7b(), PlannedJob(n_gpus=4, parallel="tp"), pair_4090_pcie())
    assert not e.fit.fits and "has 2" in e.fit.reason
    assert e.speed.decode_tokens_per_s is None


def test_host_ram_counts_for_offload():
    w = PlannedJob(mode="train", method="full", seq_len=256, offload=("optimizer", "params"))
    small_host = one_4090().model_copy(update={"host_ram_gib": 8})
    e = estimate(llama2_7b(), w, small_host)
    assert e.memory.host > 8 * GIB
    assert not e.fit.fits and "host RAM" in e.fit.reason


# --- check_planned: one row per impossible / contradictory setting --------------------------

@pytest.mark.parametrize(
    ("workload", "build", "field"),
    [
        (dict(mode="train", method="qlora", weights="int8"), None, "weights"),
        (dict(mode="train", method="full", weights="nf4"), None, "weights"),
        (dict(mode="train", method="lora", lora_targets=("q", "qkv_proj")), None, "lora_targets"),
        (dict(mode="train", precision="fp32", optimizer="adamw-8bit"), None, "optimizer"),
        (dict(mode="train", n_gpus=2), None, "parallel"),
        (dict(n_gpus=4, parallel="tp"), pair_4090_pcie(), "n_gpus"),
        (dict(n_gpus=3, parallel="tp"), hgx_h100(8), "n_gpus"),  # 32 heads / 3
        (dict(weights="q3_x"), None, "weights"),
        (dict(kv_dtype="int2"), None, "kv_dtype"),
        (dict(kv_dtype="q8_0", engine="vllm"), None, "kv_dtype"),
        (dict(weights="gptq", engine="llama.cpp"), None, "weights"),
        (dict(weights="q4_k_m", engine="vllm"), None, "weights"),
        (dict(parallel="tp"), None, "parallel"),  # one GPU
        (dict(offload=("params",)), None, "offload"),
        (dict(n_gpus=2, parallel="fsdp"), None, "parallel"),
        (dict(context_len=8192), None, "context_len"),
    ],
)
def test_check_planned_names_the_field(workload, build, field):
    problems = check_planned(llama2_7b(), PlannedJob(**workload), build)
    assert field in [p.field for p in problems], problems
    assert all(p.message for p in problems)


def test_a_setting_that_does_not_apply_is_ignored_not_a_contradiction():
    # A LoRA rank kept while the job is a full fine-tune, or a precomputed reference without DPO, is ignored by
    # the estimate (the window greys it); only a flag typed for it is refused (job_rules.ignored).
    for job in (PlannedJob(mode="train", method="full", lora_rank=16), PlannedJob(mode="train", precompute_ref=True)):
        assert check_planned(llama2_7b(), job) == []


def test_training_past_the_trained_context_is_long_context_fine_tuning_with_a_warning():
    # Llama 2 was trained on 4,096 tokens; Position Interpolation (arXiv:2306.15595) fine-tunes such models to
    # 32,768: allowed, and the estimate says what it means.
    from advisor.core.estimation.estimator import estimate

    job = PlannedJob(mode="train", seq_len=8192)
    assert check_planned(llama2_7b(), job) == []
    notes = estimate(llama2_7b(), job).speed.notes
    assert any(n.startswith("8,192-token training sequences, past the 4,096 Llama-2-7B was trained on: long-context")
               for n in notes), notes
    assert not any("trained on" in n for n in estimate(llama2_7b(), PlannedJob(mode="train", seq_len=4096)).speed.notes)


@pytest.mark.parametrize(
    ("workload", "build"),
    [
        (dict(mode="train", method="qlora", weights="int8"), one_4090()),
        (dict(mode="train", n_gpus=2), pair_4090_pcie()),
        (dict(n_gpus=4, parallel="tp"), pair_4090_pcie()),
        (dict(n_gpus=3, parallel="tp"), hgx_h100(8)),
        (dict(offload=("params",)), one_4090()),
        (dict(n_gpus=2, parallel="fsdp"), pair_4090_pcie()),
        (dict(kv_dtype="q8_0", engine="vllm"), one_4090()),
        (dict(mode="train", method="lora", lora_targets=("q", "qkv_proj")), one_4090()),
    ],
)
def test_estimate_survives_settings_check_planned_reports(workload, build):
    e = estimate(llama2_7b(), PlannedJob(**workload), build)
    assert e.memory.total > 0


@pytest.mark.parametrize(("workload", "field"), [(dict(weights="q3_x"), "weight format"), (dict(kv_dtype="int2"), "KV")])
def test_estimate_refuses_unknown_formats_with_a_clear_message(workload, field):
    with pytest.raises(ValueError, match=field):
        estimate(llama2_7b(), PlannedJob(**workload), one_4090())


def test_kv_heads_neither_dividing_tp_is_a_problem():
    # Llama-2-70B: 64 heads, 8 KV heads. TP 16 replicates KV heads (fine); TP 3 divides nothing.
    assert check_planned(llama2_70b(), PlannedJob(n_gpus=8, parallel="tp"), hgx_h100(8)) == []
    fields = [p.field for p in check_planned(llama2_70b(), PlannedJob(n_gpus=6, parallel="tp"), hgx_h100(8))]
    assert fields.count("n_gpus") == 2


@pytest.mark.parametrize(
    "workload",
    [
        dict(),
        dict(mode="train", method="qlora"),  # default weights → nf4 base
        dict(mode="train", method="qlora", weights="nf4", lora_rank=64),
        dict(mode="train", method="full", n_gpus=2, parallel="fsdp", offload=("optimizer",)),
        dict(weights="q4_k_m", engine="llama.cpp", kv_dtype="q8_0", n_gpus=2, parallel="layer-split"),
        dict(weights="awq", engine="vllm", n_gpus=2, parallel="tp", batch=32),
    ],
)
def test_sensible_workloads_have_no_problems(workload):
    assert check_planned(llama2_7b(), PlannedJob(**workload), pair_3090_nvlink()) == []


def test_estimate_is_a_frozen_value():
    e = estimate(llama2_7b(), PlannedJob(), one_4090())
    with pytest.raises(ValidationError, match="frozen"):
        e.params_total = 1  # type: ignore[misc]
    assert e == estimate(llama2_7b(), PlannedJob(), one_4090())


def test_build_of_other_gpus_uses_the_smallest_usable():
    small = rtx4090().model_copy(update={"id": "rtx-4080", "memory_gib": 16, "memory_gb_marketing": 16})
    b = ResolvedBuild(name="mixed", gpus=(rtx4090(), small))
    # Tensor parallel splits evenly: the smaller card limits. A layer split places layers in
    # proportion to each card's memory (as the engines split layers), so the equal-split need is judged against more.
    tp = estimate(llama2_7b(), PlannedJob(n_gpus=2, parallel="tp"), b)
    assert tp.fit.usable_per_gpu_bytes == usable_memory_bytes(small)
    e = estimate(llama2_7b(), PlannedJob(n_gpus=2, parallel="layer-split"), b)
    assert usable_memory_bytes(small) < e.fit.usable_per_gpu_bytes < usable_memory_bytes(rtx4090())


def test_a_request_of_prompt_and_generated_tokens_is_timed_as_the_throughput_tables_time_it():
    """``prompt_tokens`` set: the first token after the prompt, then the generation at the decode rate of
    its middle context (the KV read grows linearly over it), and the whole request's time and generated
    tokens/s (TensorRT-LLM's gptSessionBenchmark: batch × output tokens / total latency; benchmarks/
    speed_fidelity.py scores exactly these figures)."""
    arch, build = llama2_7b(), one_4090()
    job = PlannedJob(engine="vllm", batch=4, context_len=2048 + 512, prompt_tokens=2048)  # all 4 at once in its pool
    s = estimate(arch, job, build).speed
    mid = estimate(arch, job.model_copy(update={"context_len": 2048 + 256, "prompt_tokens": None}), build).speed
    first = estimate(arch, job.model_copy(update={"context_len": 2048, "prompt_tokens": None}), build).speed
    assert s.decode_tokens_per_s == pytest.approx(mid.decode_tokens_per_s)
    assert s.time_to_first_token_s == pytest.approx(first.time_to_first_token_s)
    assert s.request_s == pytest.approx(first.time_to_first_token_s + 512 * 4 / mid.decode_tokens_per_s)
    assert s.request_tokens_per_s == pytest.approx(512 * 4 / s.request_s)
    assert s.request_tokens_per_s < s.decode_tokens_per_s  # the prefill is part of the request
    whole = estimate(arch, job.model_copy(update={"prompt_tokens": None}), build).speed
    assert whole.request_s is None and whole.decode_tokens_per_s < s.decode_tokens_per_s  # full context: slower
    # What each figure is timed at, said once: the request's words, not the full context's.
    assert not any("at a full" in n for n in s.notes) and any("at a full 2560-token" in n for n in whole.notes)
    assert sum("a request of 2,048 prompt and 512 generated tokens" in n for n in s.notes) == 1


def test_vllm_runs_as_many_sequences_at_once_as_its_kv_pool_holds():
    """vLLM's scheduler admits a sequence only while KV blocks are free and queues the rest (vllm/v1/core/sched/
    scheduler.py): 32 sequences of 8,192 tokens on one RTX 4090 run 4 at a time (its note said the pool holds
    40,380 tokens while the verdict and the speed counted all 32)."""
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.memory.inference import sequences_at_once
    from advisor.storage.catalog_store import load_catalog

    catalog = load_catalog().catalog
    arch, build = catalog.models["llama-3.1-8b"], gpu_build(catalog, "rtx-4090", 1)
    job = PlannedJob(engine="vllm", batch=32, context_len=8192)
    e = estimate(arch, job, build)
    assert e.fit.fits and e.fit.sequences_at_once == 4 and e.fit.reason.startswith("runs 4 of the 32 sequences at once")
    four = estimate(arch, job.model_copy(update={"batch": 4}), build)
    assert four.fit.sequences_at_once == 4 and "runs" not in four.fit.reason  # all of them: nothing to say
    assert e.speed.decode_tokens_per_s == pytest.approx(four.speed.decode_tokens_per_s)
    assert e.speed.time_to_first_token_s == pytest.approx(four.speed.time_to_first_token_s)
    assert any("8 rounds to serve all 32" in n for n in e.speed.notes)
    # A request of every sequence takes as many rounds as the pool needs.
    request = job.model_copy(update={"prompt_tokens": 4096})
    r, r4 = estimate(arch, request, build).speed, estimate(arch, request.model_copy(update={"batch": 4}), build).speed
    assert r.request_s == pytest.approx(8 * r4.request_s)
    assert r.request_tokens_per_s == pytest.approx(4096 * 32 / r.request_s)
    # Replicas on two cards hold a copy each: twice the sequences at once; max_num_seqs caps a copy at 256.
    two = job.model_copy(update={"n_gpus": 2})
    assert sequences_at_once(two, 40_380) == 8 and sequences_at_once(job.model_copy(update={"batch": 1000,
                                                                                          "context_len": 16}),
                                                                  10**9) == 256
    assert sequences_at_once(job.model_copy(update={"engine": "tensorrt-llm"}), 40_380) is None  # not judged


def test_a_request_with_no_prompt_is_generation_alone():
    """llama-bench's tg test (``prompt_tokens`` 0): no first token to wait for."""
    arch, build = llama2_7b(), one_4090()
    s = estimate(arch, PlannedJob(engine="llama.cpp", weights="q4_k_m", context_len=128, prompt_tokens=0), build).speed
    assert s.time_to_first_token_s is None and s.request_s == pytest.approx(128 / s.decode_tokens_per_s)


def test_a_prompt_longer_than_its_context_is_a_problem():
    problems = check_planned(llama2_7b(), PlannedJob(context_len=1024, prompt_tokens=2048))
    assert [p.field for p in problems] == ["prompt_tokens"] and "does not fit" in problems[0].message


@pytest.mark.parametrize("engine", ["vllm", "sglang", "tensorrt-llm"])
def test_the_words_of_an_estimate_name_the_engine_as_its_users_write_it(engine):
    """'vLLM pre-allocates…', not the option's value 'vllm' (``Engine.label``)."""
    e = estimate(llama2_7b(), PlannedJob(engine=engine, batch=1, context_len=512), one_4090())
    words = " ".join((*e.assumptions, *e.speed.notes))
    label = PlannedJob(engine=engine).engine.label
    assert label in words and f"{engine} " not in words


@pytest.mark.parametrize(("engine", "whose"), [("vllm", "vLLM profile"),
                                               ("tensorrt-llm", "TensorRT-LLM (vLLM's figures) profile"),
                                               ("sglang", "SGLang (vLLM's figures) profile")])
def test_vllms_profile_figures_say_whose_they_are(engine, whose):
    """The profile run's batched tokens and the CUDA graphs are vLLM's figures, used for every engine with a
    pre-allocated KV pool: a TensorRT-LLM estimate said 'vLLM profile', as if the job ran vLLM."""
    e = estimate(llama2_7b(), PlannedJob(engine=engine, batch=1, context_len=512), one_4090())
    assert any(a.startswith(whose) for a in e.assumptions), e.assumptions
    if engine != "vllm":
        assert not any(a.startswith("vLLM ") for a in e.assumptions), e.assumptions
