"""A per-head decode attention kernel (TensorRT-LLM's masked MHA) against a grouped one:
its cost is query heads × context on the CUDA cores, so GQA saves it nothing."""

import pytest

from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job import engine_versions as ev
from advisor.core.job.choices import DecodeAttention
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.speed.decode import per_head_attention_flops_per_s
from advisor.core.speed import engine_speed as es
from advisor.core.speed import inference as sp
from advisor.core.speed.flops import attention_flops_per_token, fp32_lanes_per_sm
from advisor.storage.catalog_store import load_catalog
from tests.core.speed.speed_fixtures import h100, llama2_7b, llama2_70b


def one_h100() -> ResolvedBuild:
    return ResolvedBuild(name="1x H100", gpus=(h100(),), topology=Topology(pcie_gen=5))


def decode(arch, **kw):
    w = PlannedJob(engine="tensorrt-llm", weights="fp8", kv_dtype="fp8", **kw)
    build = one_h100()
    return sp.estimate_speed(arch, w, build, estimate_memory(arch, w).breakdown).decode_tokens_per_s


def test_default_is_grouped():
    assert PlannedJob().decode_attention is DecodeAttention.GROUPED


def test_share_is_the_calibration_fit():
    # benchmarks/speed_calibration.py, 2026-11-25 (fourth session, per-kernel decode step): TensorRT-LLM
    # v0.5.0 / v0.7a H200 rows.
    assert es.PER_HEAD_ATTENTION_SHARE == 0.11
    # ... on H200s: the share is of an SM of the H200's FP32 lanes (CUDA C++ Programming Guide, compute capability 9.0).
    h200 = load_catalog().catalog.gpus["h200-sxm"]
    assert es.PER_HEAD_ATTENTION_SHARE_LANES == fp32_lanes_per_sm(h200.architecture) == 128


def test_per_head_is_never_faster_and_costs_nothing_at_one_short_sequence():
    for arch in (llama2_7b(), llama2_70b()):
        for batch, ctx in ((1, 256), (64, 2048), (256, 1152)):
            g = decode(arch, batch=batch, context_len=ctx)
            p = decode(arch, batch=batch, context_len=ctx, decode_attention="per-head")
            assert p <= g
    # one sequence of 256 tokens: 0.1 ms of CUDA-core attention beside a 31 ms weight read
    assert decode(llama2_70b(), batch=1, context_len=256, decode_attention="per-head") == \
        pytest.approx(decode(llama2_70b(), batch=1, context_len=256), rel=0.01)


def test_gqa_saves_a_per_head_kernel_nothing():
    # Llama-2-70B (64 query heads, 8 KV heads) at a large batch: the per-head kernel's time is the
    # attention FLOPs at the FP32 peak's fitted share, far longer than reading the 8-head KV cache.
    arch, batch, ctx = llama2_70b(), 128, 2048
    g = decode(arch, batch=batch, context_len=ctx)
    p = decode(arch, batch=batch, context_len=ctx, decode_attention="per-head")
    assert p < 0.6 * g
    extra = batch / p - batch / g
    attn = batch * attention_flops_per_token(arch, ctx) / (67e12 * es.PER_HEAD_ATTENTION_SHARE)
    assert extra == pytest.approx(attn - 0.0, rel=0.35)  # less the KV read it replaces
    assert extra < attn


def test_per_head_rate_is_the_fp32_peak_share():
    assert per_head_attention_flops_per_s(one_h100(), 1) == (67e12 * es.PER_HEAD_ATTENTION_SHARE,)


@pytest.mark.parametrize(("architecture", "lanes"), [
    ("Ampere (GA100)", 64), ("Ampere (GA102)", 128), ("Ampere", 128), ("Volta (GV100)", 64), ("Volta", 64),
    ("Turing", 64), ("Turing (TU102)", 64), ("Pascal (GP100)", 64), ("Pascal (GP102)", 128), ("Hopper", 128),
    ("Ada Lovelace (AD102)", 128), ("Blackwell (GB202)", 128), ("", 128),
])
def test_fp32_lanes_per_sm_by_chip_then_generation(architecture, lanes):
    # CUDA C++ Programming Guide, throughput table: 64 FP32 results per clock per SM on compute capability
    # 6.0, 7.x and 8.0; 128 on 6.1, 8.6, 8.9, 9.0 (shader units / SMs in the TechPowerUp database agree for
    # every NVIDIA card of the catalog).
    assert fp32_lanes_per_sm(architecture) == lanes


def test_per_head_rate_follows_the_sms_issue_not_their_fp32_lanes():
    """An A100 (GA100, 64 FP32 lanes per SM) reaches twice the share of its FP32 peak that an H100 (128)
    reaches: the kernel's per-key shuffles issue at the same rate per SM on both (the
    TensorRT-LLM 0.9.0 A100 rows of Mistral 7B, Mixtral and Falcon 180B had been 18-37 % slow)."""
    a100 = h100().model_copy(update={"id": "a100-80gb-sxm", "architecture": "Ampere (GA100)", "fp32_tflops": 19.5})
    build = ResolvedBuild(name="1x A100", gpus=(a100,), topology=Topology(pcie_gen=4))
    assert per_head_attention_flops_per_s(build, 1) == pytest.approx((2 * 19.5e12 * es.PER_HEAD_ATTENTION_SHARE,))
    catalog = load_catalog().catalog
    for gpu_id in ("a100-40gb-pcie", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm", "a30"):
        assert fp32_lanes_per_sm(catalog.gpus[gpu_id].architecture) == 64, gpu_id


def test_xqa_layouts_are_the_precompiled_kernels():
    # cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/cubin/xqa_kernel_cubin.h at 2340c776:
    # 8 query heads per KV head, head size 128 or 256.
    assert ev.XQA_LAYOUTS == {(8, 128), (8, 256)}
    assert ev.xqa_covers(llama2_70b())  # 64 heads / 8 KV heads, head size 128
    assert not ev.xqa_covers(llama2_7b())  # multi-head attention: 1 per KV head


def _notes(arch, **kw):
    w = PlannedJob(weights="fp8", kv_dtype="fp8", batch=8, context_len=2048, **kw)
    return sp.estimate_speed(arch, w, one_h100(), estimate_memory(arch, w).breakdown).notes


def test_trt_llm_says_when_its_xqa_kernels_do_not_cover_the_model():
    """A user choosing TensorRT-LLM for a model its precompiled XQA kernels do not cover, without naming a
    version, is told that a version with only those kernels decodes it per head, and to set the version."""
    def xqa(notes):
        return [n for n in notes if "XQA" in n]

    said = xqa(_notes(llama2_7b(), engine="tensorrt-llm"))
    assert len(said) == 1 and "1 per KV head" in said[0] and "set the TensorRT-LLM version" in said[0]
    assert not xqa(_notes(llama2_70b(), engine="tensorrt-llm"))  # covered
    assert not xqa(_notes(llama2_7b(), engine="tensorrt-llm", decode_attention="per-head"))  # already chosen
    assert not xqa(_notes(llama2_7b(), engine="vllm"))  # another engine


def test_trt_llm_says_fp8_moe_experts_need_0_10():
    """A user choosing TensorRT-LLM and fp8 weights for an MoE model, without naming a version, is told that
    versions before 0.10 (``MOE_FP8_SINCE``) run its experts in 16-bit, and to set the version."""
    def moe(notes):
        return [n for n in notes if "MoE experts" in n]

    assert ev.MOE_FP8_SINCE == (0, 10)  # tensorrt_llm/layers/moe.py at 250d9c29; 0.10.0 release notes
    from advisor.storage.catalog_store import load_catalog

    mixtral = load_catalog().catalog.models["mixtral-8x7b"]
    said = moe(_notes(mixtral, engine="tensorrt-llm"))  # (fp8 weights and KV cache)
    assert len(said) == 1 and "before 0.10" in said[0] and "set the TensorRT-LLM version" in said[0]
    assert not moe(_notes(llama2_70b(), engine="tensorrt-llm"))  # dense: FP8 ran
    assert not moe(_notes(mixtral, engine="vllm"))  # another engine
    w = PlannedJob(engine="tensorrt-llm", weights="fp16", kv_dtype="fp8", batch=8, context_len=2048)
    assert not moe(sp.estimate_speed(mixtral, w, one_h100(), estimate_memory(mixtral, w).breakdown).notes)



def test_a_named_tensorrt_llm_version_runs_the_job_as_that_version_did():
    """``--engine-version``: the job as that version runs it (``engine_versions.as_run``). Before 0.7
    (``XQA_SINCE``: the XQA kernels came with 0.7a, blogs/Falcon180B-H200.md at 3c44cb97) every model decodes per
    head; up to 0.9 (``XQA_PRECOMPILED_UNTIL``: 0.9.0's own tables ran Mistral 7B, Mixtral, Falcon 180B per
    head) a layout outside ``XQA_LAYOUTS`` does; before 0.10 (``MOE_FP8_SINCE``) an FP8 MoE build's experts
    are 16-bit. Later versions, other engines and training are left as set."""
    from advisor.storage.catalog_store import load_catalog

    assert (ev.XQA_SINCE, ev.XQA_PRECOMPILED_UNTIL, ev.MOE_FP8_SINCE) == ((0, 7), (0, 9), (0, 10))
    assert [ev.version_tuple(v) for v in ("0.9.0", "0.7a", "0.10.0rc1", "1.2", "", None)] == \
        [(0, 9), (0, 7), (0, 10), (1, 2), None, None]
    mixtral = load_catalog().catalog.models["mixtral-8x7b"]

    def run(arch, version, engine="tensorrt-llm", **kw):
        w = PlannedJob(engine=engine, weights="fp8", kv_dtype="fp8", engine_version=version, **kw)
        out = ev.as_run(arch, w)
        return out.decode_attention.value, out.weights, out.kv_dtype

    assert run(llama2_70b(), "0.5.0") == ("per-head", "fp8", "fp8")  # no XQA before 0.7
    assert run(llama2_70b(), "0.7a") == ("grouped", "fp8", "fp8")  # 8 per KV head, 128: covered
    assert run(llama2_7b(), "0.9.0") == ("per-head", "fp8", "fp8")  # 1 per KV head: not covered
    assert run(llama2_7b(), "0.10.0") == ("grouped", "fp8", "fp8")  # later: not judged
    assert run(mixtral, "0.9.0") == ("per-head", "fp16", "fp8")  # 4 per KV head; experts 16-bit
    assert run(mixtral, "0.10.0") == ("grouped", "fp8", "fp8")
    assert run(mixtral, None) == ("grouped", "fp8", "fp8")  # no version: a current one
    assert run(mixtral, "0.9.0", engine="vllm") == ("grouped", "fp8", "fp8")  # another engine
    w = PlannedJob(mode="train", engine="tensorrt-llm", engine_version="0.5.0")
    assert ev.as_run(llama2_7b(), w) is w


def test_the_named_version_changes_memory_and_speed_and_says_so():
    # Mixtral 8x7B fp8 on TensorRT-LLM 0.9.0: 16-bit experts (twice the weight bytes) and masked MHA; the
    # notes name the version and why, instead of asking for it.
    from advisor.storage.catalog_store import load_catalog

    mixtral = load_catalog().catalog.models["mixtral-8x7b"]
    base = PlannedJob(engine="tensorrt-llm", weights="fp8", kv_dtype="fp8", batch=8, context_len=2048)
    old = base.model_copy(update={"engine_version": "0.9.0"})
    m_new, m_old = estimate_memory(mixtral, base).breakdown, estimate_memory(mixtral, old).breakdown
    assert m_old.weights == pytest.approx(2 * m_new.weights, rel=0.05)
    s_old = sp.estimate_speed(mixtral, old, one_h100(), m_old)
    s_new = sp.estimate_speed(mixtral, base, one_h100(), m_new)
    assert s_old.decode_tokens_per_s < s_new.decode_tokens_per_s
    assert "TensorRT-LLM 0.9.0 decodes this model one query head at a time: its precompiled XQA kernels cover 8 " \
           "query heads per KV head (head size 128 or 256), and this model has 4 (head size 128)" in s_old.notes
    assert "TensorRT-LLM 0.9.0 has no FP8 path for MoE experts (it came in 0.10): this model's experts run in " \
           "16-bit, the KV cache as set" in s_old.notes
    assert not any("set the TensorRT-LLM version" in n for n in s_old.notes)


def test_a_version_before_0_13_says_its_default_build_does_not_split_attention():
    """Multi-block mode is on by default from 0.13 (release notes at 001eaece: "[BREAKING CHANGE] Enabled
    `multi_block_mode` by default"): a named earlier version says its default build does not split one sequence's
    attention, which the estimate does; 0.13 and later, and no version, say nothing of it."""
    assert ev.MULTI_BLOCK_SINCE == (0, 13)

    def multi(version):
        return [n for n in _notes(llama2_70b(), engine="tensorrt-llm", engine_version=version) if "multi-block" in n]

    said = multi("0.12.0")
    assert len(said) == 1 and said[0].startswith("TensorRT-LLM 0.12.0 splits") and "from 0.13" in said[0]
    assert multi("0.9") and multi("0.5.0")
    assert not multi("0.13.0") and not multi("1.0") and not multi(None)
