"""Weight formats and KV element sizes against their published layouts."""

import pytest

from advisor.core.job.planned import PlannedJob
from advisor.core.memory.formats import (
    KV_DTYPES,
    WEIGHT_FORMATS,
    gguf_block_bits,
    is_gguf,
    kv_bytes_per_element,
    weight_format,
)
from advisor.core.memory.inference import weights_bytes
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params

from tests.core.memory.memory_fixtures import LLAMA2_7B


# Bytes per block from the ggml-common.h structs (llama.cpp), weights per block in brackets:
# block_q4_0 {fp16 d; 16 B qs} [32]; block_q8_0 {fp16 d; 32 B qs} [32]; block_q4_K {2 fp16;
# 12 B scales; 128 B qs} [256]; block_q6_K {128 ql; 64 qh; 16 scales; fp16 d} [256];
# block_q2_K {16 scales; 64 qs; 2 fp16} [256]; block_q3_K {32 hmask; 64 qs; 12 scales; fp16}
# [256]; block_q5_K {2 fp16; 12 scales; 32 qh; 128 qs} [256]; block_iq2_xxs {fp16; 64 B} [256];
# block_iq4_xs {fp16 d; u16 scales_h; 4 scales_l; 128 qs} [256].
@pytest.mark.parametrize(
    ("name", "bits"),
    [
        ("q4_0", 18 * 8 / 32),
        ("q8_0", 34 * 8 / 32),
        ("q4_k", 144 * 8 / 256),
        ("q6_k", 210 * 8 / 256),
        ("q2_k", 84 * 8 / 256),
        ("q3_k", 110 * 8 / 256),
        ("q5_k", 176 * 8 / 256),
        ("iq2_xxs", 66 * 8 / 256),
        ("iq4_xs", 136 * 8 / 256),
    ],
)
def test_gguf_block_bits_match_ggml_structs(name, bits):
    assert gguf_block_bits(name) == pytest.approx(bits)


LLAMA31_8B = ModelArch(id="llama-3.1-8b", name="Llama 3.1 8B", n_layers=32, hidden_size=4096, n_heads=32,
                       n_kv_heads=8, head_dim=128, ffn_size=14336, vocab_size=128256)


# llama.cpp tools/quantize/README.md, Llama-3.1-8B table, "bits/weight" column; output.weight
# type from llama_tensor_get_type (Q6_K; Q5_K for IQ2/IQ3_XXS; Q8_0 stays Q8_0).
@pytest.mark.parametrize(
    ("name", "bpw", "base", "output"),
    [("q4_k_m", 4.8944, "q4_k", "q6_k"), ("q5_k_m", 5.7036, "q5_k", "q6_k"), ("q6_k", 6.5633, "q6_k", "q6_k"),
     ("iq2_xxs", 2.3824, "iq2_xxs", "q5_k"), ("iq4_xs", 4.4597, "iq4_xs", "q6_k"), ("q8_0", 8.5008, "q8_0", "q8_0")],
)
def test_gguf_mixes_reproduce_published_average(name, bpw, base, output):
    fmt = weight_format(name)
    assert fmt.output_bits_per_weight == gguf_block_bits(output)
    assert fmt.bits_per_weight >= gguf_block_bits(base) - 0.01  # the mix only adds higher types
    assert not fmt.keeps_embeddings_16bit and "llama.cpp" in fmt.source
    total = count_params(LLAMA31_8B).total
    # The K mixes are sized tensor by tensor (memory.gguf_mix), which lands on the README's figure to its last
    # digit; the I-quant mixes keep the README's average.
    rel = 2e-5 if name in ("q4_k_m", "q5_k_m", "q6_k", "q8_0") else 1e-9
    assert weights_bytes(LLAMA31_8B, PlannedJob(weights=name, engine="llama.cpp")) * 8 / total == pytest.approx(bpw, rel=rel)


def test_q3_k_m_from_llama2_table():
    total = count_params(LLAMA2_7B).total  # same README, Llama 2 7B table: 3.91 bits/weight (two decimals)
    assert weights_bytes(LLAMA2_7B, PlannedJob(weights="q3_k_m", engine="llama.cpp")) * 8 / total == pytest.approx(
        3.91, abs=0.005)


def test_llama2_7b_q4_k_m_close_to_its_own_table():
    # Tensor by tensor, the Llama 2 7B Q4_K_M average lands on the README's 4.84.
    total = count_params(LLAMA2_7B).total
    assert weights_bytes(LLAMA2_7B, PlannedJob(weights="q4_k_m", engine="llama.cpp")) * 8 / total == pytest.approx(
        4.84, abs=0.005)


def test_a_gguf_file_in_transformers_is_sized_dequantized():
    # transformers dequantizes a GGUF file at load (its GGUF docs: to fp32), so its memory is not the file's.
    gguf = weights_bytes(LLAMA31_8B, PlannedJob(weights="q4_k_m", engine="llama.cpp"))
    dequantized = weights_bytes(LLAMA31_8B, PlannedJob(weights="q4_k_m"))
    assert dequantized == weights_bytes(LLAMA31_8B, PlannedJob(weights="fp32")) and dequantized > 6 * gguf


@pytest.mark.parametrize(
    ("name", "double_quant", "bits"),
    [
        ("nf4", False, 4.5),  # 4 + 32/64 (QLoRA §3: fp32 absmax per 64-block)
        ("fp4", False, 4.5),
        ("nf4", True, 4 + 8 / 64 + 32 / (64 * 256)),  # QLoRA §3: 0.5 → 0.127 bits of constants
    ],
)
def test_bitsandbytes_4bit(name, double_quant, bits):
    fmt = weight_format(name, double_quant=double_quant)
    assert fmt.bits_per_weight == pytest.approx(bits)
    assert fmt.keeps_embeddings_16bit


def test_double_quant_saves_0373_bits_as_qlora_states():
    saved = weight_format("nf4").bits_per_weight - weight_format("nf4", double_quant=True).bits_per_weight
    assert saved == pytest.approx(0.373, abs=0.001)  # "0.373 bits per parameter" (QLoRA §3)


@pytest.mark.parametrize(("name", "group", "bits"), [("gptq", 128, 4 + 20 / 128), ("awq", 32, 4 + 20 / 32),
                                                     ("gptq-int8", 128, 8 + 24 / 128), ("gptq-int8", 32, 8 + 24 / 32)])
def test_gptq_awq_group_overhead(name, group, bits):
    fmt = weight_format(name, group_size=group)
    assert fmt.bits_per_weight == pytest.approx(bits)
    assert fmt.keeps_embeddings_16bit


@pytest.mark.parametrize(("name", "bits", "keeps16"),
                         [("fp32", 32, False), ("bf16", 16, False), ("fp16", 16, False), ("fp8", 8, True),
                          ("int8", 8, True)])
def test_plain_formats(name, bits, keeps16):
    fmt = weight_format(name)
    assert (fmt.bits_per_weight, fmt.keeps_embeddings_16bit) == (bits, keeps16)


def test_names_are_case_insensitive_and_listed():
    assert weight_format("Q4_K_M") == weight_format("q4_k_m")
    for name in ("fp32", "bf16", "fp16", "fp8", "int8", "nf4", "fp4", "gptq", "awq", "q8_0", "q6_k",
                 "q5_k_m", "q4_k_m", "q4_0", "q3_k_m", "q2_k", "iq4_xs", "iq3_xxs", "iq2_xxs"):
        assert name in WEIGHT_FORMATS
        weight_format(name)
    assert is_gguf("q4_k_m") and not is_gguf("nf4") and not is_gguf("bf16")


def test_unknown_format_lists_valid_names():
    with pytest.raises(ValueError, match="valid: .*q4_k_m"):
        weight_format("q4_k_xl")


@pytest.mark.parametrize(("dtype", "nbytes"),
                         [("fp32", 4), ("bf16", 2), ("fp16", 2), ("fp8", 1), ("q8_0", 34 / 32), ("q4_0", 18 / 32)])
def test_kv_bytes(dtype, nbytes):
    assert kv_bytes_per_element(dtype) == pytest.approx(nbytes)
    assert dtype in KV_DTYPES


def test_unknown_kv_dtype():
    with pytest.raises(ValueError, match="valid: fp32"):
        kv_bytes_per_element("int3")


def test_block_sizes_match_gguf_py():
    """The copied GGUF block table equals gguf-py's GGML_QUANT_SIZES (copied so estimate need not import gguf, for its start time)."""
    gguf = pytest.importorskip("gguf")
    from advisor.core.memory.formats import GGML_BLOCK_SIZES

    for name, size in GGML_BLOCK_SIZES.items():
        assert gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType[name.upper()]] == size, name


def test_estimate_imports_no_qt_no_gguf_no_pdf():
    """``llm-advisor estimate`` on a preset loads neither Qt, pyqtgraph, gguf nor the report code (its start time)."""
    import subprocess
    import sys

    code = ("import sys; from advisor.cli import main; "
            "main(['estimate', 'llama-3.1-8b', '--build', '2x-rtx-3090-nvlink', '--json']); "
            "print(sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'gguf')}"
            " | {m for m in sys.modules if m.startswith(('advisor.report', 'advisor.ui', 'advisor.plots'))}), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stderr.strip().splitlines()[-1] == "[]", proc.stderr[-500:]


def test_parameters_outside_the_linears_take_16_bits_where_the_format_keeps_them():
    # One rule for the embedding, lm_head and norms, read by weights_bytes and by the decode step's unread embedding.
    assert weight_format("awq").non_linear_bytes_per_param == 2.0  # GPTQ/AWQ quantize only the blocks' Linears
    q8 = weight_format("q8_0")
    assert q8.non_linear_bytes_per_param == pytest.approx(q8.bits_per_weight / 8)
    counts = count_params(LLAMA2_7B)
    awq = weight_format("awq")
    assert weights_bytes(LLAMA2_7B, PlannedJob(weights="awq")) == pytest.approx(
        counts.linear * awq.bits_per_weight / 8 + (counts.total - counts.linear) * 2)
