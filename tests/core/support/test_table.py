"""The support table: one row per (feature, backend), each with its source, and one case per row here."""

import pytest

from advisor.core.hardware.backend import Backend
from advisor.core.support.check import judge
from advisor.core.support.table import RULES, TABLE, Feature, Verdict, rule_for
from advisor.storage.catalog_store import load_catalog

F = Feature


@pytest.fixture(scope="module")
def gpus():
    return load_catalog().catalog.gpus


def _older(card, cc: str):
    """A catalog card with an older compute capability than any shipped one (Kepler 3.7, Maxwell 5.2)."""
    return card.model_copy(update={"compute_capability": cc, "name": f"card of compute capability {cc}"})


#: (feature, GPU id or (GPU id, older compute capability), runs): each row of the table is exercised by one case
#: at least (``test_every_rule_has_a_case``), on the side of its condition the row decides.
CASES = [
    (F.TRANSFORMERS, "rtx-4090", True), (F.TRANSFORMERS, "mi300x", True),
    (F.TRANSFORMERS, "apple-m2-ultra-192gb", True), (F.TRANSFORMERS, "arc-pro-b60", True),
    (F.VLLM, "tesla-p100-16gb-pcie", False), (F.VLLM, "v100-pcie-32gb", True), (F.VLLM, "mi50-32gb", False),
    (F.VLLM, "mi300x", True), (F.VLLM, "rx-7900-xtx", True), (F.VLLM, "ryzen-ai-max-plus-395", True),
    (F.VLLM, "arc-pro-b60", True), (F.VLLM, "apple-m3-ultra-512gb", False),
    (F.SGLANG, "h100-sxm", True), (F.SGLANG, "mi300x", True), (F.SGLANG, "arc-b580", True),
    (F.SGLANG, "apple-m3-ultra-512gb", False),
    (F.LLAMA_CPP, "tesla-p40", True), (F.LLAMA_CPP, "mi50-32gb", True), (F.LLAMA_CPP, "apple-m1-max-32gb", True),
    (F.LLAMA_CPP, "arc-a770", True),
    (F.OLLAMA, "tesla-p40", True), (F.OLLAMA, ("tesla-p40", "3.7"), False), (F.OLLAMA, "mi50-32gb", True),
    (F.OLLAMA, "apple-m4-max-128gb", True), (F.OLLAMA, "arc-a770", True),
    (F.EXLLAMAV2, "rtx-3090", True), (F.EXLLAMAV2, "rx-7900-xtx", True), (F.EXLLAMAV2, "apple-m2-max-96gb", False),
    (F.EXLLAMAV2, "arc-pro-b60", False),
    (F.TENSORRT_LLM, "t4", False), (F.TENSORRT_LLM, "a100-80gb-sxm", True), (F.TENSORRT_LLM, "mi300x", False),
    (F.DEEPSPEED_FASTGEN, "v100-sxm2-32gb", False), (F.DEEPSPEED_FASTGEN, "a100-80gb-sxm", True),
    (F.DEEPSPEED_FASTGEN, "apple-m2-ultra-192gb", False),
    (F.UNSLOTH, "rtx-4090", True), (F.UNSLOTH, "mi300x", True), (F.UNSLOTH, "arc-pro-b60", True),
    (F.UNSLOTH, "apple-m4-max-128gb", False),
    (F.BNB_4BIT, "tesla-p100-16gb-pcie", True), (F.BNB_4BIT, ("tesla-p100-16gb-pcie", "5.2"), False),
    (F.BNB_4BIT, "mi50-32gb", False), (F.BNB_4BIT, "rx-7900-xtx", True), (F.BNB_4BIT, "arc-pro-b60", True),
    (F.BNB_4BIT, "apple-m3-ultra-512gb", True),
    (F.BNB_INT8, "t4", True), (F.BNB_INT8, "v100-pcie-32gb", False), (F.BNB_INT8, "mi50-32gb", False),
    (F.BNB_INT8, "mi300x", True), (F.BNB_INT8, "arc-a770", True), (F.BNB_INT8, "apple-m2-ultra-192gb", True),
    (F.BNB_OPTIMIZER, "tesla-p100-16gb-pcie", True), (F.BNB_OPTIMIZER, "mi50-32gb", False),
    (F.BNB_OPTIMIZER, "mi210", True), (F.BNB_OPTIMIZER, "arc-pro-b60", True),
    (F.BNB_OPTIMIZER, "apple-m3-ultra-512gb", False),
    (F.GGUF_IN_TRANSFORMERS, "rtx-3090", True),
    (F.FP8_VLLM, "t4", True), (F.FP8_VLLM, "v100-pcie-32gb", False), (F.FP8_VLLM, "mi210", False),
    (F.FP8_VLLM, "mi300x", True), (F.FP8_VLLM, "arc-pro-b60", False),
    (F.FP8_TRANSFORMERS, "rtx-4090", False), (F.FP8_TRANSFORMERS, "h100-sxm", True),
    (F.FP8_TENSORRT_LLM, "rtx-3090", False), (F.FP8_TENSORRT_LLM, "rtx-4090", True),
    (F.FP8_KV_TENSORRT_LLM, "rtx-3090", False), (F.FP8_KV_TENSORRT_LLM, "l40s", True),
    (F.FP8_KV_LLAMA_CPP, "rtx-4090", False),
    (F.FLASH_ATTENTION_2, "t4", False), (F.FLASH_ATTENTION_2, "a100-80gb-sxm", True),
    (F.FLASH_ATTENTION_2, "mi50-32gb", False), (F.FLASH_ATTENTION_2, "mi300x", True),
    (F.FLASH_ATTENTION_2, "radeon-ai-pro-r9700", True), (F.FLASH_ATTENTION_2, "apple-m2-max-32gb", False),
    (F.FLASH_ATTENTION_2, "arc-b580", False),
    (F.MXFP4_GGML, "rtx-4090", True), (F.MXFP4_GGML, "mi50-32gb", True), (F.MXFP4_GGML, "apple-m2-max-32gb", True),
    (F.MXFP4_GGML, "arc-pro-b60", False),
    (F.MXFP4_VLLM, "t4", False), (F.MXFP4_VLLM, "a100-80gb-sxm", True), (F.MXFP4_VLLM, "mi210", False),
    (F.MXFP4_VLLM, "mi300x", True), (F.MXFP4_VLLM, "arc-pro-b60", False),
    (F.MXFP4_TRANSFORMERS, "tesla-p100-16gb-pcie", False), (F.MXFP4_TRANSFORMERS, "t4", True),
    (F.MXFP4_TRANSFORMERS, "mi300x", False), (F.MXFP4_OTHER, "h100-sxm", False),
    (F.MXFP4_SGLANG, "h100-sxm", True), (F.MXFP4_SGLANG, "a100-80gb-sxm", True), (F.MXFP4_SGLANG, "t4", False),
    (F.MXFP4_SGLANG, "mi355x", True), (F.MXFP4_SGLANG, "mi300x", False), (F.MXFP4_SGLANG, "apple-m2-max-32gb", False),
]


def _card(gpus, which):
    return _older(gpus[which[0]], which[1]) if isinstance(which, tuple) else gpus[which]


@pytest.mark.parametrize(("feature", "which", "runs"), CASES)
def test_a_rule_on_a_card(gpus, feature, which, runs):
    card = _card(gpus, which)
    found = judge(feature, card)
    assert (found is None) is runs
    if found is not None:
        rule, words = found
        assert rule is rule_for(feature, card.backend)
        assert card.name in words or rule.verdict is not Verdict.RUNS  # a condition names the card it failed on


def test_every_rule_has_a_case(gpus):
    hit = {rule_for(f, _card(gpus, w).backend) for f, w, _ in CASES}
    assert set(RULES) <= hit, [(r.feature.value, r.backend) for r in RULES if r not in hit]


def test_every_rule_has_one_cell_and_its_source():
    assert len(TABLE) == len(RULES)  # no (feature, backend) pair twice
    for rule in RULES:
        assert rule.source and rule.version, rule
        assert (rule.verdict is Verdict.RUNS) is (not rule.why), rule  # a refusal says why; a runs row needs no words
        assert rule.min_cc is None or rule.backend is Backend.CUDA
        assert not rule.gfx or rule.backend is Backend.ROCM


def test_every_engine_is_judged_on_every_backend():
    engines = [f for f in Feature if f.field == "engine"]
    for feature in engines:
        for backend in Backend:
            assert rule_for(feature, backend) is not None, (feature, backend)


def test_compute_capability_and_gfx_conditions_read_the_card():
    from advisor.core.hardware.records import Gpu, Segment

    # Cards whose stack fields are not recorded are not judged on those conditions (nothing says either way).
    bare = Gpu(id="x", sources=["https://example.org/x"], vendor="NVIDIA", name="Unknown NVIDIA", segment=Segment.CONSUMER,
               memory_gib=24, memory_gb_marketing=24)
    assert judge(F.VLLM, bare) is None
    amd = bare.model_copy(update={"vendor": "AMD", "name": "Unknown AMD"})
    assert judge(F.VLLM, amd) is None
    cpu = bare.model_copy(update={"vendor": "CPU", "name": "Ryzen 9"})  # no backend: the every-backend row
    assert judge(F.TENSORRT_LLM, cpu)[1].startswith("TensorRT-LLM runs on NVIDIA GPUs only; the Ryzen 9 is a CPU")
    assert judge(F.VLLM, cpu) is None  # vLLM has no every-backend row: not judged
