"""gpt-oss's MXFP4: only the routed experts at 4.25 bits, the rest 16-bit (the checkpoint) or Q8_0 (the GGUF), pinned
against the sizes OpenAI and ggml-org publish; which engines run it; one estimate on the command line."""

import pytest

from advisor.core.hardware.catalog import gpu_build
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.format_words import format_words
from advisor.core.memory.formats import GGML_BLOCK_SIZES, WEIGHT_FORMATS, gguf_block_bits, is_gguf, weight_format
from advisor.core.memory.experts import routed_expert_bytes_per_layer
from advisor.core.memory.inference import weights_bytes
from advisor.core.model.params import count_params
from advisor.core.support.check import job_features, refusals
from advisor.core.support.table import Feature
from advisor.core.units import GIB
from tests.cli_runner import run_cli, run_json


def test_mxfp4_is_32_e2m1_codes_and_one_e8m0_scale():
    # OCP MX v1.0: 32 x 4-bit E2M1 + one 8-bit E8M0 = 136 bits per 32 weights; ggml block_mxfp4 {e; qs[16]} = 17 B.
    assert GGML_BLOCK_SIZES["mxfp4"] == (32, 17)
    assert gguf_block_bits("mxfp4") == 4.25 == (32 * 4 + 8) / 32
    for name, rest in (("mxfp4", 16.0), ("mxfp4_moe", gguf_block_bits("q8_0"))):
        fmt = weight_format(name)
        assert name in WEIGHT_FORMATS and fmt.experts_only and fmt.bits_per_weight == 4.25
        assert fmt.outside_experts_bits == rest and fmt.non_linear_bytes_per_param == rest / 8
    assert not is_gguf("mxfp4") and is_gguf("mxfp4_moe")  # the checkpoint is safetensors; MXFP4_MOE a GGUF type


def test_experts_only_leaves_every_other_format_as_it_was():
    for name in ("bf16", "awq", "q4_k_m", "q8_0", "nf4", "fp8"):
        fmt = weight_format(name)
        assert not fmt.experts_only and fmt.outside_experts_bits == fmt.bits_per_weight


# The model card's Table 1 (arXiv:2508.10925): checkpoint 12.8 GiB (20b) and 60.8 GiB (120b), printed to 0.1 GiB. The
# shapes leave out the biases and sinks (6.8M and 40.1M parameters, BF16 in the checkpoint: 0.013 and 0.075 GiB).
@pytest.mark.parametrize(("model_id", "gib"), [("gpt-oss-20b", 12.8), ("gpt-oss-120b", 60.8)])
def test_the_checkpoint_is_the_size_the_model_card_states(catalog, model_id, gib):
    arch = catalog.models[model_id]
    assert weights_bytes(arch, PlannedJob(weights="mxfp4", engine="vllm")) / GIB == pytest.approx(gib, rel=0.005)


def test_llama_cpp_runs_the_mxfp4_moe_gguf_ggml_org_publishes(catalog):
    # ggml-org/gpt-oss-20b-GGUF gpt-oss-20b-mxfp4.gguf: 12,109,566,560 bytes (as recorded by two downloaders, one of
    # lmstudio-community's identical file 12,109,566,624). The file adds the tokenizer (~201k tokens and merges) and
    # keeps the router, biases, sinks and norms F32 (~36 MB); the app counts those few at Q8_0 and no metadata:
    # 0.4 % under the file. Tolerance 1 %.
    arch = catalog.models["gpt-oss-20b"]
    held = weights_bytes(arch, PlannedJob(weights="mxfp4", engine="llama.cpp"))
    assert held == weights_bytes(arch, PlannedJob(weights="mxfp4_moe", engine="llama.cpp"))
    assert held == pytest.approx(12_109_566_560, rel=0.01)
    assert held < 12_109_566_560  # what it leaves out only adds


def test_offloaded_experts_move_at_the_experts_width(catalog):
    arch = catalog.models["gpt-oss-120b"]
    per_layer = 128 * 3 * 2880 * 2880 * 17 / 32  # experts x (gate, up, down) x hidden x width, block_mxfp4
    assert routed_expert_bytes_per_layer(arch, PlannedJob(weights="mxfp4", engine="llama.cpp")) == per_layer


def test_a_dense_model_is_refused_mxfp4(capsys):
    # MXFP4 as gpt-oss ships it quantizes the experts only: on a dense model it would quantize nothing.
    rc, _, err = run_cli(capsys, "llama-3.1-8b", "--weights", "mxfp4", "--engine", "vllm", "--gpu", "h100-sxm")
    assert rc != 0 and "--weights" in err and "mixture-of-experts" in err and "Traceback" not in err


def test_the_format_in_a_buyer_s_words():
    assert format_words("mxfp4") == "MXFP4 (experts 4.25 bits, rest 16 bits)"
    assert format_words("mxfp4_moe") == "MXFP4_MOE (GGUF, experts 4.25 bits, rest 8.5 bits)"


@pytest.mark.parametrize(("engine", "feature"), [("llama.cpp", Feature.MXFP4_GGML), ("ollama", Feature.MXFP4_GGML),
                                                 ("vllm", Feature.MXFP4_VLLM), ("transformers", Feature.MXFP4_TRANSFORMERS),
                                                 ("sglang", Feature.MXFP4_SGLANG),
                                                 ("tensorrt-llm", Feature.MXFP4_OTHER)])
def test_each_engine_asks_for_its_own_mxfp4_kernels(engine, feature):
    assert feature in job_features(PlannedJob(engine=engine, weights="mxfp4"))


@pytest.mark.parametrize(("engine", "gpu", "runs"), [
    ("llama.cpp", "rtx-4090", True), ("llama.cpp", "rtx-3090", True), ("llama.cpp", "apple-m3-ultra-512gb", True), ("llama.cpp", "arc-a770", False),
    ("vllm", "h100-sxm", True), ("vllm", "a100-80gb-sxm", True), ("vllm", "t4", False),
    ("transformers", "t4", True), ("transformers", "tesla-p100-16gb-pcie", False),
    ("sglang", "h100-sxm", True), ("sglang", "t4", False), ("sglang", "mi300x", False), ("sglang", "mi355x", True),
    ("tensorrt-llm", "h100-sxm", False),  # not confirmed by this app's sources
])
def test_who_runs_mxfp4_where(catalog, engine, gpu, runs):
    found = refusals(PlannedJob(engine=engine, weights="mxfp4"), gpu_build(catalog, gpu, 1).gpus)
    assert (not [r for r in found if r.field == "weights"]) is runs


def test_cli_gpt_oss_20b_mxfp4_on_llama_cpp_and_an_rtx_4090(capsys):
    data = run_json(capsys, "gpt-oss-20b", "--weights", "mxfp4", "--engine", "llama.cpp",
                    "--gpu", "rtx-4090")
    assert data["fit"]["status"] == "fits"
    assert 10 < data["memory"]["peak_reserved_gib"] < 16
    assert data["speed"]["decode_tokens_per_s"] > 0 and data["speed"]["prefill_tokens_per_s"] > 0
    assert any("MXFP4_MOE" in a for a in data["assumptions"])


def test_decode_reads_the_picked_experts_at_their_own_width(catalog):
    # One token picks 4 of 32 experts a layer: the step reads the 16-bit/Q8_0 rest whole and 4/32 of the experts' bytes,
    # not 4/32 of the experts' share of the *weights* (which MXFP4 makes a smaller share of the bytes).
    from advisor.core.speed.moe_reads import moe_read_fraction, read_weight_bytes

    arch = catalog.models["gpt-oss-20b"]
    job = PlannedJob(weights="mxfp4", engine="llama.cpp")
    whole = weights_bytes(arch, job)
    experts = 24 * routed_expert_bytes_per_layer(arch, job)
    assert read_weight_bytes(arch, job, whole, 1, 1.0) == pytest.approx(whole - experts * (1 - 4 / 32))
    # Every format alike: a K-quant mix's experts at their own types; an FP8 checkpoint's 16-bit embeddings and output
    # layer make the experts a smaller share of the bytes than of the weights, so a step reads more than that fraction.
    for other in (PlannedJob(weights="q4_k_m", engine="llama.cpp"), PlannedJob(weights="fp8", engine="vllm")):
        held = weights_bytes(arch, other)
        experts = 24 * routed_expert_bytes_per_layer(arch, other)
        assert read_weight_bytes(arch, other, held, 1, 1.0) == pytest.approx(held - experts * (1 - 4 / 32))
    fp8 = PlannedJob(weights="fp8", engine="vllm")
    assert read_weight_bytes(arch, fp8, weights_bytes(arch, fp8), 1, 1.0) > 1.05 * weights_bytes(arch, fp8) * (
        moe_read_fraction(arch, 1))
    assert count_params(arch).total > 0
