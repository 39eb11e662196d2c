"""Hugging Face ``config.json`` → ``ModelArch``.

Keys follow each ``transformers`` ``configuration_<model>.py`` (Llama, Mistral, Mixtral,
Qwen2/3(-MoE), Gemma 2/3, Phi-3, DeepSeek-V3, Falcon …). Every value read is type-checked:
a wrong type is a ``ModelImportError`` naming the key, never a traceback or a silent guess
(files seen: ``num_local_experts: "8"``, string ``first_k_dense_replace``, integer
``mlp_only_layers`` …).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from advisor.core import ModelArch
from advisor.storage.model_import.common import ModelImportError, validate_arch

# tie_word_embeddings default of each configuration class when the key is absent.
_TIED_BY_DEFAULT = {"gemma", "gemma2", "gemma3", "gemma3_text", "falcon", "RefinedWeb", "RefinedWebModel",
                    "gpt2", "gpt_neox_japanese", "opt", "bloom"}
_PLAIN_MLP = {"falcon", "RefinedWeb", "RefinedWebModel", "gpt2", "gpt_neox", "gptj", "opt", "bloom", "phi",
              "starcoder2", "gpt_bigcode"}
_FALCON = ("falcon", "RefinedWeb", "RefinedWebModel")
# Norm layout (it changes the training activations), per each transformers modeling_<model>.py: LayerNorm
# instead of RMSNorm; one norm shared by attention and MLP side by side (PhiDecoderLayer's
# input_layernorm, GPTJBlock's ln_1, FalconDecoderLayer's input_layernorm when parallel_attn without
# new_decoder_architecture or with num_ln_in_parallel_attn 1); side by side with a norm each
# (FalconDecoderLayer's ln_attn and ln_mlp with new_decoder_architecture, num_ln_in_parallel_attn 2
# by default; GPTNeoXLayer with use_parallel_residual, its default); Gemma 2/3's
# post_attention_layernorm and post_feedforward_layernorm besides the two pre-norms.
_LAYER_NORM = {"gpt2", "gpt_neox", "gptj", "opt", "bloom", "phi", "gpt_bigcode", "starcoder2", *_FALCON}
_POST_NORMS = {"gemma2", "gemma3", "gemma3_text"}


class _Config:
    """Typed access to one config dict; errors name the file and the key."""

    def __init__(self, cfg: dict[str, Any], path: Path) -> None:
        self.cfg, self.path = cfg, path

    def first_key(self, *keys: str) -> str | None:
        return next((k for k in keys if self.cfg.get(k) is not None), None)

    def int(self, *keys: str, minimum: int = 0, required: bool = False) -> int | None:
        """The first of ``keys`` present, an integer ≥ ``minimum`` (None when absent and not required)."""
        key = self.first_key(*keys)
        if key is None:
            if required:
                raise ModelImportError(f"{self.path}: config has no {keys[0]!r}")
            return None
        value = self.cfg[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            what = "a positive integer" if minimum >= 1 else "an integer ≥ 0"
            raise ModelImportError(f"{self.path}: {key!r} must be {what}, not {_show(value)}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.cfg.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ModelImportError(f"{self.path}: {key!r} must be true or false, not {_show(value)}")
        return value

    def list(self, key: str) -> list[Any]:
        value = self.cfg.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise ModelImportError(f"{self.path}: {key!r} must be a list, not {_show(value)}")
        return value

    def text(self, key: str) -> str:
        value = self.cfg.get(key)
        return value if isinstance(value, str) else ""


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-._")
    return (slug or "imported-model")[:80]


def _sliding_layers(c: _Config, model_type: str, n_layers: int) -> int:
    layer_types = c.list("layer_types")
    if layer_types:
        return sum(1 for t in layer_types if t == "sliding_attention")
    if model_type == "gemma2":
        return (n_layers + 1) // 2  # even layers are local (Gemma2DecoderLayer)
    if model_type in ("gemma3", "gemma3_text"):
        pattern = c.int("sliding_window_pattern", minimum=1) or 6  # every 6th layer global
        return n_layers - n_layers // pattern
    return n_layers


def _attention(c: _Config, model_type: str, n_layers: int, max_ctx: int) -> dict[str, Any]:
    if c.int("kv_lora_rank"):
        return {"kind": "mla", "kv_lora_rank": c.int("kv_lora_rank"), "q_lora_rank": c.int("q_lora_rank"),
                "qk_rope_head_dim": c.int("qk_rope_head_dim"), "qk_nope_head_dim": c.int("qk_nope_head_dim"),
                "v_head_dim": c.int("v_head_dim")}
    window = c.int("sliding_window")
    if not window or window >= max_ctx or c.cfg.get("use_sliding_window") is False:
        return {"kind": "full"}
    if model_type == "phi3":
        return {"kind": "full"}  # Phi-3 windows (2047) sit next to the 4k context: treated as full
    n_sliding = _sliding_layers(c, model_type, n_layers)
    if n_sliding == 0:
        return {"kind": "full"}
    return {"kind": "sliding", "sliding_window": window, "sliding_layers": None if n_sliding == n_layers else n_sliding}


def _moe(c: _Config, n_layers: int) -> dict[str, Any] | None:
    n_experts = c.int("num_local_experts", "n_routed_experts", "num_experts")
    if not n_experts or n_experts < 2:
        return None
    expert_ffn = c.int("moe_intermediate_size", "intermediate_size", minimum=1)
    n_shared = c.int("n_shared_experts") or 0
    shared_size = c.int("shared_expert_intermediate_size")
    if shared_size and expert_ffn:  # Qwen2-MoE: one shared expert k times as wide = k experts
        n_shared = max(1, round(shared_size / expert_ffn))
    n_dense = c.int("first_k_dense_replace") or len(c.list("mlp_only_layers"))
    return {"n_experts": n_experts, "n_active": c.int("num_experts_per_tok", minimum=1) or 2, "n_shared": n_shared,
            "expert_ffn_size": expert_ffn, "n_dense_layers": min(n_dense, n_layers)}


def _head_dim(c: _Config, hidden: int, n_heads: int) -> int:
    if c.int("kv_lora_rank"):
        mla = (c.int("qk_nope_head_dim") or 0) + (c.int("qk_rope_head_dim") or 0)
        if mla:
            return mla
    head_dim = c.int("head_dim", minimum=1)
    if head_dim:
        return head_dim
    if hidden % n_heads:
        raise ModelImportError(f"{c.path}: hidden size {hidden} is not a multiple of {n_heads} heads and no head_dim")
    return hidden // n_heads


def arch_from_hf_config(cfg: dict[str, Any], path: Path, model_id: str | None = None) -> ModelArch:
    """Map a ``config.json`` (Llama, Mistral, Mixtral, Qwen2/3(-MoE), Gemma 2/3, Phi-3, DeepSeek-V3, Falcon …)."""
    if isinstance(cfg.get("text_config"), dict) and "num_hidden_layers" not in cfg:
        cfg = {**cfg, **cfg["text_config"]}  # multimodal wrapper (Gemma 3, Mistral 3): the text decoder
    c = _Config(cfg, path)
    model_type = c.text("model_type")
    n_layers = c.int("num_hidden_layers", "n_layer", "num_layers", minimum=1, required=True)
    hidden = c.int("hidden_size", "n_embd", "d_model", minimum=1, required=True)
    n_heads = c.int("num_attention_heads", "n_head", "num_heads", minimum=1, required=True)
    n_kv = c.int("num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num", minimum=1)
    if model_type in _FALCON and not cfg.get("new_decoder_architecture"):
        n_kv = 1 if c.flag("multi_query", True) else n_heads  # Falcon-7B: multi-query
    max_ctx = c.int("max_position_embeddings", "n_positions", "seq_length", "max_sequence_length", minimum=1) or 4096
    name = c.text("_name_or_path") or model_id or path.parent.name or "imported model"
    data = {
        "id": _slug(model_id or name.rsplit("/", 1)[-1]), "name": name, "family": model_type,
        "n_layers": n_layers, "hidden_size": hidden, "n_heads": n_heads, "n_kv_heads": n_kv or n_heads,
        "head_dim": _head_dim(c, hidden, n_heads),
        "ffn_size": c.int("intermediate_size", "ffn_hidden_size", "n_inner", minimum=1) or 4 * hidden,
        "vocab_size": c.int("vocab_size", "padded_vocab_size", minimum=1, required=True),
        "tied_embeddings": c.flag("tie_word_embeddings", model_type in _TIED_BY_DEFAULT),
        "gated_mlp": model_type not in _PLAIN_MLP,
        "attention": _attention(c, model_type, n_layers, max_ctx), "max_context": max_ctx,
        "notes": f"Imported from {path}",
    }
    if model_type in _LAYER_NORM:
        data["layer_norm"] = True
    if model_type in ("phi", "gptj"):
        data["parallel_block"] = True
    elif model_type == "gpt_neox" and c.flag("use_parallel_residual", True):
        data["parallel_residual"] = True
    elif model_type in _FALCON and (c.flag("new_decoder_architecture", False) or c.flag("parallel_attn", True)):
        norms = c.int("num_ln_in_parallel_attn", minimum=1)
        two_norms = c.flag("new_decoder_architecture", False) and norms in (None, 2)
        data["parallel_residual" if two_norms else "parallel_block"] = True
    if model_type in _POST_NORMS:
        data["post_norms"] = True
    moe = _moe(c, n_layers)
    if moe:
        data["moe"] = moe
    return validate_arch(data, path)
