"""Weight formats and KV types in words, with the bits ``formats`` computes."""

from advisor.core.memory.format_words import format_words, kv_words
from advisor.core.memory.formats import GGUF_MIX_BPW


def test_formats_in_words():
    assert format_words("bf16") == "BF16 (16 bits)"
    assert format_words("Q4_K_M") == f"Q4_K_M (GGUF, {GGUF_MIX_BPW['q4_k_m']:.1f} bits)"
    assert format_words("q4_0") == "Q4_0 (GGUF, 4.5 bits)"  # one block type: 18 bytes per 32 weights
    assert format_words("nf4") == "NF4 (4.5 bits)"  # 4 + 32/64 (QLoRA §3)
    assert format_words("gptq") == "GPTQ (4.2 bits)"  # 4 + 20/128
    assert format_words("int8") == "INT8 (8 bits)"
    assert format_words("4.65bpw") == "EXL2 (4.65 bits)"
    assert format_words("not-a-format") == "not-a-format"  # the estimate says what is wrong with it


def test_kv_types_in_words():
    assert kv_words("fp8") == "FP8 (8 bits)" and kv_words("f16") == "FP16 (16 bits)"
    assert kv_words("q4_0") == "Q4_0 (llama.cpp, 4.5 bits)"
    assert kv_words("int3") == "int3"
