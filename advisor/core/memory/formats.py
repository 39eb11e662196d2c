"""Weight formats and KV-cache element types: bits per weight, and which tensors stay 16-bit.

Sources, per format (each ``WeightFormat.source`` repeats its own):

* bitsandbytes NF4/FP4: 4-bit codes in blocks of 64 with one fp32 absmax per block
  (4 + 32/64 = 4.5 bits); double quantization stores the absmax as 8-bit in blocks of 256
  with one fp32 constant each: 4 + 8/64 + 32/(64·256) = 4.127 bits (Dettmers et al. 2023,
  QLoRA, arXiv:2305.14314 §3 "Double Quantization").
* LLM.int8(): int8 weights with one fp32 scale per output row (Dettmers et al. 2022,
  arXiv:2208.07339); the per-row term is < 0.01 bit and left out.
* GPTQ / AWQ (AutoGPTQ / AutoAWQ packing): 4-bit weights plus, per group of ``g`` input
  weights, an fp16 scale and a 4-bit packed zero point: 4 + (16 + 4)/g bits. 8-bit GPTQ ("GPTQ-Int8"
  checkpoints, e.g. Qwen's): AutoGPTQ packs ``qweight`` and ``qzeros`` at the same ``bits`` into int32
  (auto_gptq/nn_modules/qlinear ``pack``): 8 + (16 + 8)/g bits.
* bitsandbytes, GPTQ and AWQ replace only the transformer blocks' ``nn.Linear`` layers:
  ``lm_head`` is skipped (transformers ``get_keys_to_not_convert``) and ``nn.Embedding`` /
  RMSNorm weights are not Linear, so they stay at 16 bit.
* GGUF block types: bits per weight = 8 · bytes per block / weights per block from
  ``gguf.GGML_QUANT_SIZES`` (mirrors ggml's ``block_q4_0`` … structs in ggml-common.h).
* GGUF file types: llama.cpp's ``llama_tensor_get_type`` (src/llama-quant.cpp) stores
  ``output.weight`` (or the tied token embedding) as Q6_K — Q5_K for the IQ1/IQ2/IQ3_XXS
  types, unchanged for Q8_0 — and, in the mixes (Q4_K_M, Q3_K_M …), some ``attn_v`` /
  ``ffn_down`` layers at a higher type. We model the output tensor at its type and the rest
  at an effective "body" width: for the mixes, derived from the published whole-model average
  ("bits/weight" column of llama.cpp tools/quantize/README.md, Llama-3.1-8B; Q3_K_M from the
  same README's Llama-2-7B table) by removing that model's output tensor; for single types,
  the block layout. ``bits_per_weight`` is that body width; ``output_bits_per_weight`` the
  output tensor's.
* MXFP4 (OCP Microscaling Formats (MX) Specification v1.0, §5 and §6.3: blocks of 32 FP4 E2M1 elements sharing one
  E8M0 scale, 4 + 8/32 = 4.25 bits; ggml's ``block_mxfp4`` {uint8 e; 16 B qs} = 17 bytes per 32 weights, gguf-py
  ``GGML_QUANT_SIZES[MXFP4] = (32, 17)``). gpt-oss ships only its MoE experts so: its config.json's
  ``quantization_config`` {"quant_method": "mxfp4", "modules_to_not_convert": ["model.layers.*.self_attn",
  "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"]} (https://huggingface.co/openai/gpt-oss-20b/blob/main/
  config.json): attention, router, embeddings, lm_head and norms stay BF16 (``mxfp4``). The GGUF files
  (ggml-org/gpt-oss-20b-GGUF, -120b-GGUF) are llama.cpp's file type MXFP4_MOE: the experts repacked bit for bit into
  ``block_mxfp4`` (convert_hf_to_gguf.py GptOssModel ``repack_mxfp4``, ggml-org/llama.cpp at a458664f and its
  conversion/gpt_oss.py), every other 2-D tensor Q8_0 and the output Q8_0 (src/llama-quant.cpp
  ``LLAMA_FTYPE_MOSTLY_MXFP4_MOE``: "MoE tensors -> MXFP4, other tensors -> Q8_0"), 1-D tensors and the router
  (``ffn_gate_inp``) F32 (``mxfp4_moe``; the router's and the 1-D tensors' few bytes are counted at Q8_0's width).
  Both quantize only the routed experts (``WeightFormat.experts_only``); a dense model has none, and is refused.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field

from advisor.core.schema import Frozen

LLAMA_CPP_QUANTIZE_README = "llama.cpp tools/quantize/README.md (bits/weight, Llama-3.1-8B table)"

BNB_BLOCK = 64  # bitsandbytes 4-bit blocksize (QLoRA §3)
BNB_DQ_BLOCK = 256  # second-level block of double quantization (QLoRA §3)
#: Bits of each grouped format's codes; each group's zero point is packed at the same width (AutoGPTQ / AutoAWQ
#: ``qzeros``, int32-packed).
GROUPED_CODE_BITS = {"gptq": 4, "awq": 4, "gptq-int8": 8}
GPTQ_SCALE_BITS = 16  # fp16 scale per group

# Whole-model average bits/weight that llama-quantize produces (see module docstring).
GGUF_MIX_BPW: dict[str, float] = {
    "iq1_s": 2.0042, "iq1_m": 2.1460, "iq2_xxs": 2.3824, "iq2_xs": 2.5882, "iq2_s": 2.7403,
    "iq2_m": 2.9294, "iq3_xxs": 3.2548, "iq3_xs": 3.4977, "iq3_s": 3.6606, "iq3_m": 3.7628,
    "iq4_xs": 4.4597, "iq4_nl": 4.6818, "q2_k_s": 2.9697, "q2_k": 3.1593, "q3_k_s": 3.6429,
    "q3_k_l": 4.2979, "q4_k_s": 4.6672, "q4_k_m": 4.8944, "q5_k_s": 5.5704, "q5_k_m": 5.7036,
    "q6_k": 6.5633, "q8_0": 8.5008,
}
GGUF_MIX_BPW_LLAMA2 = {"q3_k_m": 3.91}  # same README, Llama-2-7B table (no 3.1-8B row)

# GGUF names that are one block type (no mix in the name): bits straight from the block layout.
GGUF_BLOCK_TYPES = ("q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "q2_k", "q3_k", "q4_k", "q5_k", "q6_k",
                    "iq2_xxs", "iq2_xs", "iq2_s", "iq3_xxs", "iq3_s", "iq4_nl", "iq4_xs", "iq1_s", "iq1_m")


class WeightFormat(Frozen):
    name: str = Field(description="Lower-case name as accepted by weight_format()")
    bits_per_weight: float = Field(gt=0, description="Average stored bits per quantized weight, scales included")
    keeps_embeddings_16bit: bool = Field(
        description="Embeddings, lm_head and norms stay at 16 bit; only block linears use bits_per_weight")
    source: str
    output_bits_per_weight: float | None = Field(
        None, description="GGUF: bits of output.weight (or the tied embedding); None = same as the rest")
    experts_only: bool = Field(
        False, description="Only the MoE layers' routed experts are stored at bits_per_weight; every other parameter "
                           "(attention, router, shared experts, embeddings, lm_head, norms) at rest_bits_per_weight")
    rest_bits_per_weight: float | None = Field(
        None, gt=0, description="experts_only: bits of every parameter outside the routed experts")

    @property
    def non_linear_bytes_per_param(self) -> float:
        """Bytes a parameter outside the blocks' Linear weights (embeddings, lm_head, norms) takes: 2 where the format
        keeps them 16-bit, the rest's width where only the experts are quantized, else its own bits."""
        if self.experts_only:
            return self.outside_experts_bits / 8
        return 2.0 if self.keeps_embeddings_16bit else self.bits_per_weight / 8

    @property
    def outside_experts_bits(self) -> float:
        """Bits of a parameter outside the routed experts: ``rest_bits_per_weight`` where only the experts are
        quantized, else ``bits_per_weight``."""
        if self.experts_only and self.rest_bits_per_weight is not None:
            return self.rest_bits_per_weight
        return self.bits_per_weight


#: (weights per block, bytes per block) of the GGUF block types, copied from gguf-py 0.19.0
#: ``gguf.constants.GGML_QUANT_SIZES`` (which mirrors the ``block_*`` structs of ggml-common.h);
#: a table here so that an estimate does not import gguf (74 ms of start-up the command line need not pay). A test compares it
#: with gguf's own table whenever gguf is installed.
GGML_BLOCK_SIZES: dict[str, tuple[int, int]] = {
    "q4_0": (32, 18), "q4_1": (32, 20), "q5_0": (32, 22), "q5_1": (32, 24), "q8_0": (32, 34),
    "q2_k": (256, 84), "q3_k": (256, 110), "q4_k": (256, 144), "q5_k": (256, 176), "q6_k": (256, 210),
    "iq2_xxs": (256, 66), "iq2_xs": (256, 74), "iq2_s": (256, 82), "iq3_xxs": (256, 98), "iq3_s": (256, 110),
    "iq4_nl": (32, 18), "iq4_xs": (256, 136), "iq1_s": (256, 50), "iq1_m": (256, 56), "mxfp4": (32, 17),
}


def gguf_block_bits(type_name: str) -> float:
    """Bits per weight of one GGUF block type (``GGML_BLOCK_SIZES``, ggml-common.h)."""
    block_weights, block_bytes = GGML_BLOCK_SIZES[type_name.lower()]
    return 8 * block_bytes / block_weights


def _fixed(name: str, bits: float, keeps16: bool, source: str) -> WeightFormat:
    return WeightFormat(name=name, bits_per_weight=bits, keeps_embeddings_16bit=keeps16, source=source)


def _bnb4(name: str, double_quant: bool) -> WeightFormat:
    bits = 4 + 32 / BNB_BLOCK
    if double_quant:
        bits = 4 + 8 / BNB_BLOCK + 32 / (BNB_BLOCK * BNB_DQ_BLOCK)
    dq = " with double quantization" if double_quant else ""
    return _fixed(name, bits, True, f"bitsandbytes {name.upper()}{dq}: QLoRA arXiv:2305.14314 §3")


# Reference models of the README tables: (total parameters, output.weight parameters).
_LLAMA31_8B = (8_030_261_248, 128_256 * 4096)
_LLAMA2_7B = (6_738_415_616, 32_000 * 4096)
_OUTPUT_Q5_K = ("iq1_s", "iq1_m", "iq2_xxs", "iq2_xs", "iq2_s", "iq2_m", "iq3_xxs")


def gguf_output_bits(name: str) -> float:
    """Type llama.cpp gives output.weight for file type ``name`` (llama_tensor_get_type)."""
    if name == "q8_0":
        return gguf_block_bits("q8_0")
    return gguf_block_bits("q5_k" if name in _OUTPUT_Q5_K else "q6_k")


def _body_bits(average: float, reference: tuple[int, int], output_bits: float) -> float:
    total, output = reference
    return (average * total - output_bits * output) / (total - output)


def _gguf(name: str) -> WeightFormat:
    out = gguf_output_bits(name)
    if name in GGUF_MIX_BPW:
        body, source = _body_bits(GGUF_MIX_BPW[name], _LLAMA31_8B, out), LLAMA_CPP_QUANTIZE_README
    elif name in GGUF_MIX_BPW_LLAMA2:
        body = _body_bits(GGUF_MIX_BPW_LLAMA2[name], _LLAMA2_7B, out)
        source = "llama.cpp tools/quantize/README.md (bits/weight, Llama-2-7B table)"
    else:
        body, source = gguf_block_bits(name), "GGUF block layout (ggml-common.h, as gguf-py 0.19.0 GGML_QUANT_SIZES)"
    fmt = _fixed(name, body, False, source + "; output.weight per llama_tensor_get_type")
    return fmt.model_copy(update={"output_bits_per_weight": out})


#: MXFP4 experts with the rest at 16 bits (the safetensors checkpoint as OpenAI ships gpt-oss) or at Q8_0 (llama.cpp's
#: MXFP4_MOE file type, what ggml-org publishes); module docstring.
MXFP4_FORMATS = ("mxfp4", "mxfp4_moe")
#: The GGUF file type that llama.cpp and Ollama run for a format they have no loader of their own for.
GGUF_EQUIVALENTS = {"mxfp4": "mxfp4_moe"}


def _mxfp4(name: str) -> WeightFormat:
    spec = ("OCP MX v1.0 MXFP4 (32 E2M1 + one E8M0 scale; ggml block_mxfp4, 17 B / 32) on the routed experts")
    if name == "mxfp4":
        rest, source = 16.0, spec + "; the rest BF16 (gpt-oss config.json modules_to_not_convert)"
    else:
        rest = gguf_block_bits("q8_0")
        source = spec + "; the rest Q8_0 (llama.cpp src/llama-quant.cpp LLAMA_FTYPE_MOSTLY_MXFP4_MOE)"
    return WeightFormat(name=name, bits_per_weight=gguf_block_bits("mxfp4"), keeps_embeddings_16bit=rest == 16.0,
                        experts_only=True, rest_bits_per_weight=rest, source=source)


_SIMPLE = {
    "fp32": (32.0, False, "IEEE binary32"),
    "bf16": (16.0, False, "bfloat16"),
    "fp16": (16.0, False, "IEEE binary16"),
    "fp8": (8.0, True, "FP8 E4M3 with per-tensor scale (vLLM/transformers FP8; lm_head and embeddings stay 16-bit)"),
    "int8": (8.0, True, "bitsandbytes LLM.int8(), arXiv:2208.07339 (per-row fp32 scale < 0.01 bit)"),
}
_GPTQ_LIKE = tuple(GROUPED_CODE_BITS)
WEIGHT_FORMATS: tuple[str, ...] = tuple(
    sorted(set(_SIMPLE) | {"nf4", "fp4"} | set(_GPTQ_LIKE) | set(GGUF_MIX_BPW) | set(GGUF_MIX_BPW_LLAMA2)
           | set(GGUF_BLOCK_TYPES) | set(MXFP4_FORMATS))
)


#: GGUF's type names for the float formats (``GGML_TYPE_F16`` / ``F32`` / ``BF16``: ``--outtype f16``).
_WEIGHT_ALIASES = {"f16": "fp16", "f32": "fp32"}
#: EXL2 (ExLlamaV2): any average bits per weight, e.g. "4.65bpw" (exllamav2 convert.py ``-b``);
#: the figure already includes the quantization scales; the output layer is stored at 6 bits
#: (convert.py ``-hb 6`` default). The embedding table is counted at the same bits (ExLlamaV2
#: keeps it in system RAM, so this errs high by its size).
EXL2_HEAD_BITS = 6.0
_BPW_RANGE = (1.0, 16.0)


def _exl2(key: str) -> WeightFormat:
    try:
        bits = float(key.removesuffix("bpw"))
    except ValueError:
        raise ValueError(f"{key!r}: bits per weight must be a number followed by bpw, e.g. 4.65bpw") from None
    if not _BPW_RANGE[0] <= bits <= _BPW_RANGE[1]:
        raise ValueError(f"{key!r}: bits per weight must be between {_BPW_RANGE[0]:g} and {_BPW_RANGE[1]:g}")
    return WeightFormat(name=key, bits_per_weight=bits, keeps_embeddings_16bit=False, output_bits_per_weight=EXL2_HEAD_BITS,
                        source=f"EXL2 at {bits:g} bits per weight, head at {EXL2_HEAD_BITS:g} (ExLlamaV2 convert.py)")


@lru_cache(maxsize=512)  # a frozen result; a training plan search asks for the same few formats hundreds of times
def weight_format(name: str, group_size: int = 128, double_quant: bool = False) -> WeightFormat:
    """The format called ``name`` (case-insensitive); ValueError listing valid names if unknown."""
    key = name.strip().lower()
    key = _WEIGHT_ALIASES.get(key, key)
    if is_exl2(key):
        return _exl2(key)
    if key in _SIMPLE:
        return _fixed(key, *_SIMPLE[key])
    if key in ("nf4", "fp4"):
        return _bnb4(key, double_quant)
    if key in MXFP4_FORMATS:
        return _mxfp4(key)
    if key in _GPTQ_LIKE:
        if group_size < 1:
            raise ValueError(f"group size must be ≥ 1, got {group_size}")
        code = GROUPED_CODE_BITS[key]
        bits = code + (GPTQ_SCALE_BITS + code) / group_size
        return _fixed(key, bits, True, f"{key.upper()} {code}-bit, group {group_size}: fp16 scale + {code}-bit zero per group")
    if key in WEIGHT_FORMATS:
        return _gguf(key)
    raise ValueError(f"unknown weight format {name!r}; valid: {', '.join(WEIGHT_FORMATS)}, f16, f32 or "
                     "Nbpw (EXL2, e.g. 4.65bpw)")


def is_exl2(name: str) -> bool:
    """ExLlamaV2's EXL2 format, named by its bits per weight ('4.65bpw')."""
    return name.strip().lower().endswith("bpw")


def is_gguf(name: str) -> bool:
    key = name.strip().lower()
    return key in WEIGHT_FORMATS and key not in _SIMPLE and key not in ("nf4", "fp4", "mxfp4", *_GPTQ_LIKE)


#: llama.cpp's quantized KV cache types (``--cache-type-k/-v``): blocks of 32 with a 16-bit scale.
LLAMA_CPP_KV = ("q8_0", "q4_0")
# KV cache element types: PyTorch dtypes, and llama.cpp's --cache-type-k/-v q8_0 / q4_0 blocks.
_KV_BYTES = {"fp32": 4.0, "bf16": 2.0, "fp16": 2.0, "fp8": 1.0, **{k: gguf_block_bits(k) / 8 for k in LLAMA_CPP_KV}}
KV_DTYPES: tuple[str, ...] = tuple(_KV_BYTES)
# llama.cpp spells its cache types f16 / f32 (``--cache-type-k f16``, common/arg.cpp).
_KV_ALIASES = {"f16": "fp16", "f32": "fp32"}


def kv_bytes_per_element(dtype: str) -> float:
    """Bytes per cached K or V element; ValueError listing valid names if unknown."""
    key = dtype.strip().lower()
    key = _KV_ALIASES.get(key, key)
    if key not in _KV_BYTES:
        raise ValueError(f"unknown KV cache dtype {dtype!r}; valid: {', '.join(KV_DTYPES)}")
    return _KV_BYTES[key]
