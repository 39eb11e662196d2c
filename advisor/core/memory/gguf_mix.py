"""The bytes of a llama.cpp K-quant file, tensor by tensor, as ``llama-quantize`` types each tensor.

``llama_tensor_get_type_impl`` (ggml-org/llama.cpp src/llama-quant.cpp at 007dbbf3) gives each tensor of a
mix (Q4_K_M, Q3_K_M …) its own block type: ``output.weight`` (or a tied embedding) Q6_K; ``attn_v`` (and
``attn_qkv``, MLA's ``attn_kv_b``) and ``ffn_down`` — the routed and shared experts' too — a higher type on the
layers ``use_more_bits`` picks (i < n/8, i ≥ 7n/8, every third between: half of them), or on the first few;
in an 8-expert model (Mixtral) ``attn_v`` and ``attn_k`` Q8_0 and ``attn_output`` Q5_K; in an 80-layer
model (``LLM_TYPE_70B``) ``attn_v`` one step up; the MoE router (``ffn_gate_inp``) and the norms are not
quantized (f32); a tensor whose row is not a whole number of blocks falls back to a 32-weight type
(``tensor_type_fallback``: ``_bits``). One average width per mix cannot follow that: DeepSeek-V3 is mostly routed
experts, a third of them ``ffn_down`` at Q6_K on half the layers, so its Q4_K_M file averages 4.84 bits per
weight, not Llama-3.1-8B's 4.89 with its larger attention share — and the published file weighs 404.43 GB
(376.7 GiB; bartowski/deepseek-ai_DeepSeek-V3-0324-GGUF, llama.cpp b4944), not the 349 GiB one average gave.
"""

from __future__ import annotations

from collections.abc import Callable

from advisor.core.memory.formats import GGML_BLOCK_SIZES, gguf_block_bits
from advisor.core.model.arch import AttentionKind, ModelArch
from advisor.core.model.params import count_params, linear_shapes

F32_BITS = 32.0
#: ``tensor_type_fallback``: a K type whose blocks do not divide a tensor's row falls back to these.
FALLBACK = {"q2_k": "q4_0", "q3_k": "q4_0", "q4_k": "q5_0", "q5_k": "q5_1", "q6_k": "q8_0"}
GENERIC_FAMILY = "generic"  # ``model.generic.generic_decoder``'s family
LAYERS_70B = 80  # llama.cpp types an 80-layer Llama / Qwen2 model LLM_TYPE_70B (src/llama-model.cpp)


def use_more_bits(i: int, n: int) -> bool:
    """llama-quant.cpp's ``use_more_bits``: the first and last eighth of the layers and every third between."""
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


#: Per mix: (default type, attn_v type for layer i of n, ffn_down type for layer i of n, attn_output type).
Rule = Callable[[int, int], str]
_MIXES: dict[str, tuple[str, Rule, Rule, str]] = {
    "q2_k": ("q2_k", lambda i, n: "q4_k", lambda i, n: "q3_k", "q3_k"),  # attn_v: Q4_K with GQA >= 4 (below)
    "q3_k_s": ("q3_k", lambda i, n: "q3_k", lambda i, n: "q3_k", "q3_k"),
    "q3_k_m": ("q3_k", lambda i, n: "q5_k" if i < 2 else "q4_k", lambda i, n: "q5_k" if i < n // 16 else "q4_k",
               "q4_k"),
    "q3_k_l": ("q3_k", lambda i, n: "q5_k", lambda i, n: "q5_k", "q5_k"),
    "q4_k_s": ("q4_k", lambda i, n: "q5_k" if i < 4 else "q4_k", lambda i, n: "q5_k" if i < n // 8 else "q4_k",
               "q4_k"),
    "q4_k_m": ("q4_k", lambda i, n: "q6_k" if use_more_bits(i, n) else "q4_k",
               lambda i, n: "q6_k" if use_more_bits(i, n) else "q4_k", "q4_k"),
    "q5_k_s": ("q5_k", lambda i, n: "q5_k", lambda i, n: "q5_k", "q5_k"),
    "q5_k_m": ("q5_k", lambda i, n: "q6_k" if use_more_bits(i, n) else "q5_k",
               lambda i, n: "q6_k" if use_more_bits(i, n) else "q5_k", "q5_k"),
    "q6_k": ("q6_k", lambda i, n: "q6_k", lambda i, n: "q6_k", "q6_k"),
    "q8_0": ("q8_0", lambda i, n: "q8_0", lambda i, n: "q8_0", "q8_0"),
}
#: Mixes whose attn_output an 8-expert model stores as Q5_K (llama-quant.cpp, ATTENTION_OUTPUT branch).
_EIGHT_EXPERT_OUTPUT_Q5K = ("q2_k", "q3_k_s", "q3_k_m", "q4_k_s", "q4_k_m")
MIXES: tuple[str, ...] = tuple(_MIXES)


def _bits(kind: str, row: int, exact: bool = True) -> float:
    """Bits per weight of ``kind`` for a tensor of ``row`` weights per row, with llama.cpp's fallback where the
    row is not a whole number of the type's blocks (Qwen2.5-72B's 29,568-wide ffn_down: Q4_K → Q5_0; F16 where
    not even the fallback's). ``exact=False``: a generic decoder's solved sizes (``model.generic``), which stand
    for real models' 256-multiples: no fallback."""
    if exact and row % GGML_BLOCK_SIZES[kind][0]:
        kind = FALLBACK.get(kind, "f16")
        if kind == "f16" or row % GGML_BLOCK_SIZES[kind][0]:
            return 16.0
    return gguf_block_bits(kind)


def io_bits(arch: ModelArch, name: str) -> tuple[float, float]:
    """(bits of ``token_embd``, bits of ``output.weight``) in a ``name`` file (``name`` in ``MIXES``): the embedding
    at the mix's default type, the output at Q6_K (Q8_0 in a Q8_0 file); a tied embedding is stored once, at the
    output's type (``_mix_layout``)."""
    default = _MIXES[name][0]
    out_bits = gguf_block_bits("q8_0" if name == "q8_0" else "q6_k")
    emb_bits = out_bits if arch.tied_embeddings else _bits(default, arch.hidden_size, arch.family != GENERIC_FAMILY)
    return emb_bits, out_bits


def _layer_tensors(arch: ModelArch) -> dict[str, tuple[int, int]]:
    """Per layer: tensor role -> (weights, row length); MoE layers' experts under ffn_*_exps."""
    shapes = linear_shapes(arch)
    h = arch.hidden_size
    out: dict[str, tuple[int, int]] = {}
    for role in ("q", "k", "v", "o"):
        d_in, d_out, _ = shapes[role]
        out[role] = (d_in * d_out, d_in)
    att = arch.attention
    if att.kind is AttentionKind.MLA:  # q_a (when q is low-rank) and kv_a_mqa: not in the LoRA targets
        rope = att.qk_rope_head_dim or 0
        extra = h * (att.latent_kv_rank + rope) + (h * att.q_lora_rank if att.q_lora_rank else 0)
        out["q_a_kv_a"] = (extra, h)
    return out


#: (id(arch), mix) -> (the arch, its layout): asked at every plan probe; kept by identity, not by the model's hash
#: (a frozen model's hash reads every field).
_LAYOUTS: dict[tuple[int, str], tuple[ModelArch, tuple[float, float, float]]] = {}


def mix_layout(arch: ModelArch, name: str) -> tuple[float, float, float]:
    """(whole-model bytes, bytes of every MoE layer's routed experts together, bits of output.weight) of a
    ``name`` file of ``arch`` (``name`` in ``MIXES``)."""
    held = _LAYOUTS.get((id(arch), name))
    if held is not None and held[0] is arch:
        return held[1]
    if len(_LAYOUTS) >= 1024:
        _LAYOUTS.clear()
    layout = _mix_layout(arch, name)
    _LAYOUTS[id(arch), name] = (arch, layout)
    return layout


def _mix_layout(arch: ModelArch, name: str) -> tuple[float, float, float]:
    default, v_rule, down_rule, o_type = _MIXES[name]
    n = arch.n_layers
    moe = arch.moe
    eight = moe is not None and moe.n_experts == 8
    gqa = arch.n_heads // max(1, arch.n_kv_heads)
    tensors = _layer_tensors(arch)
    counts = count_params(arch)
    shapes = linear_shapes(arch)
    out_bits = gguf_block_bits("q8_0" if name == "q8_0" else "q6_k")
    exact = arch.family != GENERIC_FAMILY
    total = counts.norms * F32_BITS
    h = arch.hidden_size
    total += counts.embedding * (out_bits if arch.tied_embeddings else _bits(default, h, exact))
    total += counts.lm_head * out_bits
    experts = 0.0
    for i in range(n):
        v_type = v_rule(i, n)
        if name == "q2_k" and gqa < 4:
            v_type = "q3_k"
        if n == LAYERS_70B and v_type in ("q3_k", "q4_k"):
            v_type = "q5_k"
        if eight:
            v_type = "q8_0"
        k_type = "q8_0" if eight else v_type if arch.attention.kind is AttentionKind.MLA else default  # MLA: kv_b
        o = "q5_k" if eight and name in _EIGHT_EXPERT_OUTPUT_Q5K else o_type
        for role, (weights, row) in tensors.items():
            kind = {"v": v_type, "k": k_type, "o": o}.get(role, default)
            total += weights * _bits(kind, row, exact)
        layer_moe = moe if moe is not None and i >= min(moe.n_dense_layers, n) else None  # None: a dense MLP
        down_type = down_rule(i, n)
        for role in ("gate", "up", "down") if arch.gated_mlp else ("up", "down"):
            kind = down_type if role == "down" else default
            d_in, d_out, _ = shapes[role]
            if layer_moe is None:
                total += d_in * d_out * _bits(kind, d_in, exact)
                continue
            e_in, e_out, _ = shapes[f"{role}_expert"]
            routed = layer_moe.n_experts * e_in * e_out * _bits(kind, e_in, exact)
            experts += routed
            total += routed + layer_moe.n_shared * e_in * e_out * _bits(kind, e_in, exact)
        if layer_moe is not None:
            total += h * layer_moe.n_experts * F32_BITS  # the router, ffn_gate_inp: never quantized
    return total / 8, experts / 8, out_bits
