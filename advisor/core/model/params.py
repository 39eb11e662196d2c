"""Parameter counts from a model's shapes: total, per-token active, per module, LoRA.

Source: the module shapes of Hugging Face ``transformers`` ``LlamaForCausalLM``
(``models/llama/modeling_llama.py``: q/k/v/o projections, gate/up/down MLP, two RMSNorms
per layer, final norm, embeddings and an untied ``lm_head``), ``MixtralSparseMoeBlock``
(router ``gate`` + experts) and DeepSeek-V3's MLA (``modeling_deepseek.py``:
``q_a_proj``/``q_b_proj``, ``kv_a_proj_with_mqa``/``kv_b_proj``, latent RMSNorms).
Checked in tests against published totals (Llama-2-7B: 6,738,415,616 parameters).
LoRA adds ``r × (d_in + d_out)`` per adapted matrix (Hu et al. 2021, arXiv:2106.09685 §4).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from types import MappingProxyType

from pydantic import Field

from advisor.core.model.arch import AttentionKind, ModelArch
from advisor.core.schema import Frozen


class ParamCounts(Frozen):
    total: float = Field(description="Every parameter stored")
    active: float = Field(description="Parameters a token passes through (MoE: routed experts in use)")
    embedding: float
    lm_head: float = Field(description="0 when tied to the embedding")
    attention: float = Field(description="All layers' attention projections (and MLA norms)")
    mlp: float = Field(description="All layers' MLP / expert weights, every expert counted")
    norms: float
    linear: float = Field(description="Weights of the transformer blocks' linear layers (what quantization touches)")


def _attention_params(arch: ModelArch) -> int:
    h, nh, hd = arch.hidden_size, arch.n_heads, arch.head_dim
    att = arch.attention
    if att.kind is AttentionKind.MLA:
        rope = att.qk_rope_head_dim or 0
        nope = att.qk_nope_head_dim or hd
        v_dim = att.v_head_dim or hd
        q_dim = nh * (nope + rope)
        q = h * att.q_lora_rank + att.q_lora_rank + att.q_lora_rank * q_dim if att.q_lora_rank else h * q_dim
        kv_rank = att.latent_kv_rank
        kv = h * (kv_rank + rope) + kv_rank + kv_rank * nh * (nope + v_dim)
        return q + kv + nh * v_dim * h
    kv_dim = arch.n_kv_heads * hd
    return h * nh * hd * 2 + h * kv_dim * 2


def mlp_matrices(arch: ModelArch) -> int:
    """Weight matrices of one MLP (or one expert): SwiGLU / GeGLU's gate, up and down, or a plain MLP's two."""
    return 3 if arch.gated_mlp else 2


def layer_mlp_params(arch: ModelArch, moe_layer: bool, active_only: bool = False) -> int:
    """One layer's MLP weights: a dense layer's, or a MoE layer's experts (all of them, or the ``n_active`` a token
    runs), its shared experts and its router."""
    h, m, moe = arch.hidden_size, mlp_matrices(arch), arch.moe
    if not moe_layer or moe is None:
        return m * h * arch.ffn_size
    experts = (moe.n_active if active_only else moe.n_experts) + moe.n_shared
    return experts * m * h * moe.expert_ffn_size + h * moe.n_experts


def _mlp_params(arch: ModelArch, active_only: bool) -> int:
    n_dense = arch.n_layers if arch.moe is None else min(arch.moe.n_dense_layers, arch.n_layers)
    return (n_dense * layer_mlp_params(arch, moe_layer=False)
            + (arch.n_layers - n_dense) * layer_mlp_params(arch, moe_layer=True, active_only=active_only))


@cache
def count_params(arch: ModelArch) -> ParamCounts:
    """Parameter counts derived from the shapes (biases are ignored: < 0.01 % in Qwen2)."""
    h = arch.hidden_size
    embedding = arch.vocab_size * h
    lm_head = 0 if arch.tied_embeddings else arch.vocab_size * h
    attention = arch.n_layers * _attention_params(arch)
    mlp = _mlp_params(arch, active_only=False)
    mlp_active = _mlp_params(arch, active_only=True)
    norms = arch.n_layers * 2 * h + h
    total = embedding + lm_head + attention + mlp + norms
    return ParamCounts(
        total=total,
        active=total - mlp + mlp_active,
        embedding=embedding,
        lm_head=lm_head,
        attention=attention,
        mlp=mlp,
        norms=norms,
        linear=attention + mlp,
    )


@cache
def linear_shapes(arch: ModelArch) -> Mapping[str, tuple[int, int, int]]:
    """Per LoRA target name: (d_in, d_out, how many such matrices in the whole model).

    Remembered per model, read-only (the plan search asks for it on every training probe).

    MoE layers count one matrix per expert (PEFT adapts each expert's Linear); MLA has no
    separate k/v projections, so 'k' and 'v' map to its ``kv_b_proj`` and 'q' to ``q_b_proj``
    (or ``q_proj``).
    """
    h, nh, hd, L = arch.hidden_size, arch.n_heads, arch.head_dim, arch.n_layers
    att = arch.attention
    shapes: dict[str, tuple[int, int, int]] = {}
    if att.kind is AttentionKind.MLA:
        rope, nope = att.qk_rope_head_dim or 0, att.qk_nope_head_dim or hd
        v_dim = att.v_head_dim or hd
        shapes["q"] = (att.q_lora_rank or h, nh * (nope + rope), L)
        shapes["k"] = (att.latent_kv_rank, nh * nope, L)
        shapes["v"] = (att.latent_kv_rank, nh * v_dim, L)
        shapes["o"] = (nh * v_dim, h, L)
    else:
        kv_dim = arch.n_kv_heads * hd
        shapes.update(q=(h, nh * hd, L), k=(h, kv_dim, L), v=(h, kv_dim, L), o=(nh * hd, h, L))
    moe = arch.moe
    n_dense, ffn_dense, moe_mats, expert = L, arch.ffn_size, 0, 0
    if moe is not None:
        n_dense = min(moe.n_dense_layers, L)
        moe_mats = (L - n_dense) * (moe.n_experts + moe.n_shared)
        expert = moe.expert_ffn_size
    mlp_targets = ("gate", "up", "down") if arch.gated_mlp else ("up", "down")
    for name in mlp_targets:
        dense_in, dense_out = (ffn_dense, h) if name == "down" else (h, ffn_dense)
        shapes[name] = (dense_in, dense_out, n_dense)
        if moe_mats:
            shapes[f"{name}_expert"] = (expert, h, moe_mats) if name == "down" else (h, expert, moe_mats)
    return MappingProxyType(shapes)


@lru_cache(maxsize=1024)
def lora_params(arch: ModelArch, rank: int, targets: tuple[str, ...]) -> int:
    """Trainable LoRA parameters: Σ r·(d_in + d_out) over adapted matrices (Hu et al. 2021).

    ``targets`` uses q,k,v,o,gate,up,down; 'all-linear' means all of them (as PEFT's
    ``target_modules="all-linear"``, which excludes ``lm_head``). MoE experts are adapted
    when their projection name is targeted.
    """
    wanted = set(targets)
    if "all-linear" in wanted:
        wanted = {"q", "k", "v", "o", "gate", "up", "down"}
    total = 0
    for name, (d_in, d_out, count) in linear_shapes(arch).items():
        if name.removesuffix("_expert") in wanted:
            total += rank * (d_in + d_out) * count
    return total


# LitGPT's adapter methods, as their code defines them at commit 26857050 (2026-06-29):
# https://github.com/Lightning-AI/litgpt/blob/26857050fe3ff627cd714fe92f5838f51a3d5efa/litgpt/adapter.py
# ``Config.adapter_prompt_length = 10`` and ``adapter_start_layer = 2``; every block from
# ``adapter_start_layer`` on gets ``adapter_wte = nn.Embedding(adapter_prompt_length, n_embd)``
# (the learnable prompt) and ``gating_factor`` of shape (1, 1, n_head, 1) (``adapter_filter``:
# "adapter_wte" or "gating_factor" train, nothing else).
# https://github.com/Lightning-AI/litgpt/blob/26857050fe3ff627cd714fe92f5838f51a3d5efa/litgpt/adapter_v2.py
# adds ``AdapterV2Linear``: every Linear (qkv, proj, the MLP's fc_1/fc_2/proj, the MoE router
# and experts, and ``lm_head``) gets ``adapter_bias`` and ``adapter_scale`` of out_features
# each, and the norms (``norm_1``, ``norm_2``, ``ln_f``) train.
ADAPTER_PROMPT_LENGTH = 10
ADAPTER_START_LAYER = 2


def adapter_params(arch: ModelArch, v2: bool = False, prompt_length: int = ADAPTER_PROMPT_LENGTH,
                   start_layer: int = ADAPTER_START_LAYER) -> int:
    """Trainable parameters of LitGPT's LLaMA-Adapter (``v2``: LLaMA-Adapter V2), per its code
    (constants above): (n_layers − start_layer) × (prompt_length × hidden + n_heads), and for v2
    2 × out_features of every Linear (lm_head's is the vocabulary) plus the norm weights.

    Checked against LitGPT's resource tables (tutorials/resource-tables.md): Llama 2 7B
    1,229,760 (adapter) and 4,279,744 (adapter v2) trainable parameters.
    """
    adapted_layers = max(0, arch.n_layers - start_layer)
    total = adapted_layers * (prompt_length * arch.hidden_size + arch.n_heads)
    if v2:
        outs = sum(d_out * n for _, d_out, n in linear_shapes(arch).values())
        if arch.moe is not None:  # LLaMAMoE's router is an AdapterV2Linear(n_embd, n_expert)
            outs += (arch.n_layers - min(arch.moe.n_dense_layers, arch.n_layers)) * arch.moe.n_experts
        outs += arch.vocab_size  # lm_head
        total += 2 * outs + int(count_params(arch).norms)
    return total
