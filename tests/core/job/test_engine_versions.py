"""What a TensorRT-LLM version runs: XQA kernels since 0.7 for the layouts they were precompiled for until 0.9,
FP8 MoE experts since 0.10."""

import pytest

from advisor.core.job.choices import DecodeAttention, Engine, Mode
from advisor.core.job.engine_versions import (
    MOE_FP8_SINCE,
    XQA_SINCE,
    as_run,
    experts_in_16_bit,
    runs_per_head,
    trt_llm_version,
    version_tuple,
    xqa_covers,
)
from advisor.core.job.job import Job
from advisor.core.model.arch import ModelArch, Moe

# 64 query heads on 8 KV heads of 128: 8 per KV head, a layout XQA was precompiled for.
GQA8 = ModelArch(id="gqa8", name="GQA 8", n_layers=80, hidden_size=8192, n_heads=64, n_kv_heads=8, head_dim=128,
                 ffn_size=28672, vocab_size=32000)
# 32 query heads on 8 KV heads: 4 per KV head, a layout it was not.
GQA4 = GQA8.model_copy(update={"id": "gqa4", "n_heads": 32})
MOE = GQA8.model_copy(update={"id": "moe", "moe": Moe(n_experts=8, n_active=2, expert_ffn_size=14336)})


@pytest.mark.parametrize(("text", "version"), [("0.9.0", (0, 9)), ("0.7a", (0, 7)), (" 1.2 ", (1, 2)),
                                               ("v0.9", None), ("", None), (None, None)])
def test_version_tuple(text, version):
    assert version_tuple(text) == version


def test_only_a_tensorrt_llm_inference_job_has_a_version():
    assert trt_llm_version(Job(engine=Engine.TENSORRT_LLM, engine_version="0.9.0")) == (0, 9)
    assert trt_llm_version(Job(engine=Engine.VLLM, engine_version="0.9.0")) is None
    assert trt_llm_version(Job(mode=Mode.TRAIN, engine=Engine.TENSORRT_LLM, engine_version="0.9.0")) is None


def test_xqa_covers_its_precompiled_layouts_until_0_9_and_every_layout_after():
    assert xqa_covers(GQA8) and not xqa_covers(GQA4)
    assert runs_per_head(GQA8, (0, 6))  # before XQA_SINCE
    assert not runs_per_head(GQA8, XQA_SINCE) and runs_per_head(GQA4, XQA_SINCE)
    assert runs_per_head(GQA4, (0, 9)) and not runs_per_head(GQA4, (0, 10))


def test_as_run_applies_what_the_named_version_lacks():
    old = Job(engine=Engine.TENSORRT_LLM, engine_version="0.8.0", weights="fp8")
    assert experts_in_16_bit(MOE, old, (0, 8)) and not experts_in_16_bit(MOE, old, MOE_FP8_SINCE)
    run = as_run(MOE, old)
    assert run.weights == "fp16" and run.kv_dtype == old.kv_dtype
    assert as_run(GQA4, old).decode_attention is DecodeAttention.PER_HEAD
    unnamed = Job(engine=Engine.TENSORRT_LLM, weights="fp8")
    assert as_run(MOE, unnamed) is unnamed  # no version named: the job as set
    assert as_run(GQA8, Job(engine=Engine.TENSORRT_LLM, engine_version="0.10.0")).decode_attention \
        is not DecodeAttention.PER_HEAD
