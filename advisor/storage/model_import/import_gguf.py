"""A ``.gguf`` file: the architecture from its metadata, exact sizes from its tensor table.

The header is read by ``gguf_header`` (bounded; no tensor data is touched). llama.cpp's
metadata keys (``<arch>.block_count``, ``<arch>.attention.head_count`` …) are renamed to
``config.json`` keys and mapped by ``import_config``. A value of the wrong type (an empty
or string array where a count belongs) is a ``ModelImportError`` naming the key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gguf import LlamaFileType

from advisor.core import WEIGHT_FORMATS
from advisor.storage.model_import.common import ImportedModel, ModelImportError
from advisor.storage.model_import.gguf_header import GgufHeader, GgufHeaderError, read_gguf_header
from advisor.storage.model_import.import_config import arch_from_hf_config


class _Meta:
    """The metadata of one architecture, with per-layer arrays reduced to their largest value."""

    def __init__(self, header: GgufHeader, path: Path) -> None:
        self.meta, self.path = header.metadata, path
        self.arch = self.meta.get("general.architecture")
        if not isinstance(self.arch, str) or not self.arch:
            raise ModelImportError(f"{path}: GGUF metadata has no general.architecture")

    def key(self, name: str) -> Any:
        """``<arch>.<name>``: a number, the largest of a per-layer array, or None when absent."""
        full = f"{self.arch}.{name}"
        value = self.meta.get(full)
        if value is None and f"{full}.count" in self.meta:
            raise ModelImportError(f"{self.path}: GGUF {full} is an array of {self.meta[full + '.count']:,} "
                                   "items, not per-layer numbers")
        if isinstance(value, list):
            if not value or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise ModelImportError(f"{self.path}: GGUF {full} must be a number or a non-empty list of integers")
            value = max(value)
        if value is not None and (isinstance(value, (bool, str)) or not isinstance(value, (int, float))):
            raise ModelImportError(f"{self.path}: GGUF {full} must be a number, not {str(value)[:40]!r}")
        return value


def _weight_format(file_type: Any) -> str | None:
    if not isinstance(file_type, int) or isinstance(file_type, bool):
        return None
    try:
        label = LlamaFileType(file_type).name.removeprefix("MOSTLY_").removeprefix("ALL_").lower()
    except ValueError:
        return None
    fmt = {"f32": "fp32", "f16": "fp16"}.get(label, label)
    return fmt if fmt in WEIGHT_FORMATS else None


def _config(m: _Meta, header: GgufHeader, names: set[str], path: Path) -> dict[str, Any]:
    key = m.key
    vocab = key("vocab_size") or m.meta.get("tokenizer.ggml.tokens.count")
    if not vocab and "token_embd.weight" in names:
        vocab = next(t for t in header.tensors if t.name == "token_embd.weight").shape[-1]
    name = m.meta.get("general.name")
    cfg = {
        "model_type": m.arch, "num_hidden_layers": key("block_count"), "hidden_size": key("embedding_length"),
        "num_attention_heads": key("attention.head_count"), "num_key_value_heads": key("attention.head_count_kv"),
        "intermediate_size": key("feed_forward_length"), "vocab_size": vocab or None,
        "max_position_embeddings": key("context_length"), "sliding_window": key("attention.sliding_window"),
        "tie_word_embeddings": "output.weight" not in names,
        "head_dim": key("attention.key_length") if not key("attention.kv_lora_rank") else None,
        "_name_or_path": name if isinstance(name, str) and name else path.stem,
    }
    if key("expert_count"):
        cfg.update(num_local_experts=key("expert_count"), num_experts_per_tok=key("expert_used_count"),
                   moe_intermediate_size=key("expert_feed_forward_length") or cfg["intermediate_size"],
                   n_shared_experts=key("expert_shared_count"), first_k_dense_replace=key("leading_dense_block_count"))
    if key("attention.kv_lora_rank"):  # DeepSeek-V2/V3 (llama.cpp 'deepseek2')
        rope = key("rope.dimension_count")
        cfg.update(kv_lora_rank=key("attention.kv_lora_rank"), q_lora_rank=key("attention.q_lora_rank"),
                   qk_rope_head_dim=rope, qk_nope_head_dim=(key("attention.key_length") or 0) - (rope or 0) or None,
                   v_head_dim=key("attention.value_length"))
    return cfg


def load_gguf(path: Path) -> ImportedModel:
    """Architecture from the GGUF metadata; exact tensor types and bytes from its tensor table."""
    try:
        header = read_gguf_header(path)
    except GgufHeaderError as exc:
        raise ModelImportError(f"{path}: not a readable GGUF file ({exc})") from None
    except OSError as exc:
        raise ModelImportError(f"{path}: cannot read ({exc.strerror or exc})") from None
    m = _Meta(header, path)
    names = {t.name for t in header.tensors}
    arch = arch_from_hf_config(_config(m, header, names, path), path, model_id=path.stem)
    gated = any(".ffn_gate" in n for n in names)
    if arch.gated_mlp != gated:
        arch = arch.model_copy(update={"gated_mlp": gated})
    dtypes: dict[str, int] = {}
    for t in header.tensors:
        dtypes[t.type_name] = dtypes.get(t.type_name, 0) + t.n_elements
    return ImportedModel(
        arch=arch, origin="gguf", path=str(path), params_exact=sum(t.n_elements for t in header.tensors),
        weights_bytes_override=float(sum(t.n_bytes for t in header.tensors)), dtypes=dtypes,
        weight_format=_weight_format(m.meta.get("general.file_type")),
        notes=(f"GGUF {m.arch}: {len(header.tensors)} tensors; exact bytes from the tensor table",),
    )
