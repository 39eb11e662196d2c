"""Weight formats and KV-cache types in a buyer's words: 'Q4_K_M (GGUF, 4.9 bits)', with the bits
``formats`` computes (the published average for a GGUF mix, the block layout for one GGUF type)."""

from __future__ import annotations

from advisor.core.memory.formats import (
    GGUF_MIX_BPW,
    GGUF_MIX_BPW_LLAMA2,
    LLAMA_CPP_KV,
    is_exl2,
    is_gguf,
    kv_bytes_per_element,
    weight_format,
)


def _bits(value: float) -> str:
    return f"{value:g} bits" if float(value).is_integer() else f"{value:.1f} bits"


def format_words(name: str, group_size: int = 128, double_quant: bool = False) -> str:
    """'BF16 (16 bits)', 'NF4 (4.5 bits)', 'Q4_K_M (GGUF, 4.9 bits)', 'EXL2 (4.65 bits)': short enough for the
    window's list (the weights' tooltip says what each is); the name as given where it is not a known format
    (the estimate says what is wrong with it)."""
    key = name.strip().lower()
    try:
        fmt = weight_format(key, group_size, double_quant)
    except ValueError:
        return name
    if is_exl2(key):
        return f"EXL2 ({fmt.bits_per_weight:g} bits)"
    if fmt.experts_only:  # MXFP4: 'MXFP4 (experts 4.25 bits, rest 16 bits)'
        kind = "GGUF, " if is_gguf(key) else ""
        return f"{fmt.name.upper()} ({kind}experts {fmt.bits_per_weight:g} bits, rest {_bits(fmt.outside_experts_bits)})"
    if is_gguf(key):
        average = GGUF_MIX_BPW.get(key, GGUF_MIX_BPW_LLAMA2.get(key, fmt.bits_per_weight))
        return f"{fmt.name.upper()} (GGUF, {_bits(average)})"
    return f"{fmt.name.upper()} ({_bits(fmt.bits_per_weight)})"


def kv_words(dtype: str) -> str:
    """'BF16 (16 bits)', 'Q8_0 (llama.cpp, 8.5 bits)'; the name as given where it is not a known type."""
    key = dtype.strip().lower()
    try:
        bits = kv_bytes_per_element(key) * 8
    except ValueError:
        return dtype
    key = {"f16": "fp16", "f32": "fp32"}.get(key, key)
    return f"{key.upper()} ({'llama.cpp, ' if key in LLAMA_CPP_KV else ''}{_bits(bits)})"
