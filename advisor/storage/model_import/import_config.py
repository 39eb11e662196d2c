"""Offline model import: a preset id, a Hugging Face ``config.json``, a model folder, a ``.gguf``.

``load_model`` turns any of these into an ``ImportedModel``: the ``ModelArch`` plus what the
files state exactly (parameter count, weight bytes, dtypes). Nothing is downloaded and no
tensor is loaded:

* safetensors: the file starts with an 8-byte little-endian header length and a JSON header
  of ``{name: {dtype, shape, data_offsets}}`` (huggingface/safetensors ``docs``, "Format");
  sharded checkpoints list their shards in ``model.safetensors.index.json`` (``weight_map``).
* GGUF: ``gguf.GGUFReader`` memory-maps the file and reads the key/value metadata and the
  tensor table (type, element count, bytes) without touching tensor data.
* ``config.json`` keys follow each ``transformers`` ``configuration_<model>.py``.

Every failure is a ``ModelImportError`` whose message names the path and what is wrong.
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from advisor.core.memory.formats import WEIGHT_FORMATS
from advisor.core.model.arch import ModelArch
from advisor.core.schema import Frozen
from advisor.storage import shipped

MAX_CONFIG_BYTES = 5_000_000
MAX_SAFETENSORS_HEADER_BYTES = 100_000_000  # safetensors itself refuses headers over 100 MB
INDEX_NAME = "model.safetensors.index.json"


class ModelImportError(Exception):
    """A model that could not be read; the message names the path (or id) and why."""


class ImportedModel(Frozen):
    """A model architecture plus what its files state exactly (None where unknown)."""

    arch: ModelArch
    origin: str = Field(description="'preset', 'config', 'safetensors' or 'gguf'")
    path: str | None = Field(None, description="File or folder it was read from")
    params_exact: int | None = Field(None, description="Parameters counted in the weight files")
    weights_bytes_override: float | None = Field(
        None, ge=0, description="Exact bytes of all weight tensors in the files (use instead of the estimate)")
    dtypes: dict[str, int] = Field(default_factory=dict, description="Elements per stored dtype / GGUF type")
    weight_format: str | None = Field(None, description="The files' weight format in Workload spelling, if one")
    notes: tuple[str, ...] = ()


# --- entry point --------------------------------------------------------------------------


def load_model(path_or_id: str | Path, catalog_dir: Path | None = None) -> ImportedModel:
    """Resolve a preset id, a ``config.json``, a model folder or a ``.gguf`` file."""
    text = str(path_or_id).strip()
    if not text:
        raise ModelImportError("empty model name")
    path = Path(text).expanduser()
    if path.exists():
        return _load_path(path)
    if isinstance(path_or_id, Path) or "/" in text or "\\" in text or path.suffix in (".json", ".gguf"):
        raise ModelImportError(f"{text}: no such file or folder")
    return ImportedModel(arch=_preset(text, catalog_dir), origin="preset")


def _load_path(path: Path) -> ImportedModel:
    if path.is_dir():
        return _load_folder(path)
    name = path.name.lower()
    if name.endswith(".gguf"):
        return load_gguf(path)
    if name == INDEX_NAME or name.endswith(".safetensors"):
        return _load_folder(path.parent)
    if name.endswith(".json"):
        data = _read_json(path)
        if "n_layers" in data:  # a ModelArch record (a preset file kept elsewhere)
            return ImportedModel(arch=_validate_arch(data, path), origin="preset", path=str(path))
        return ImportedModel(arch=arch_from_hf_config(data, path), origin="config", path=str(path))
    raise ModelImportError(f"{path}: not a config.json, .safetensors, .gguf or model folder")


def _preset(model_id: str, catalog_dir: Path | None) -> ModelArch:
    """A model record by id: the catalog store (user overrides included) if present, else the shipped folder."""
    models: dict[str, ModelArch] = {}
    try:
        from advisor.core.hardware.catalog import RecordKind
        from advisor.storage.catalog_store import load_catalog

        catalog = load_catalog(catalog_dir, migrate_user_files=False).catalog  # read-only lookup
        models = dict(catalog.of(RecordKind.MODEL))
    except ImportError:  # catalog store not available: read the shipped folder directly
        folder = (catalog_dir or shipped.catalog_dir()) / "models"
        file = folder / f"{model_id}.json"
        if file.is_file():
            models[model_id] = _validate_arch(_read_json(file), file)
    if model_id not in models:
        known = ", ".join(sorted(models)) or "none found"
        raise ModelImportError(f"unknown model {model_id!r}: not a preset id and not a file (presets: {known})")
    return models[model_id]


def _read_json(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ModelImportError(f"{path}: file too large for a config ({path.stat().st_size:,} bytes)")
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ModelImportError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except UnicodeDecodeError:
        raise ModelImportError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise ModelImportError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not isinstance(data, dict):
        raise ModelImportError(f"{path}: expected a JSON object")
    return data


def _validate_arch(data: dict[str, Any], path: Path) -> ModelArch:
    try:
        return ModelArch.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err["loc"]) or "record"
        raise ModelImportError(f"{path}: {where}: {err['msg']}") from None


# --- Hugging Face config.json -------------------------------------------------------------

# tie_word_embeddings default of each configuration class when the key is absent.
_TIED_BY_DEFAULT = {"gemma", "gemma2", "gemma3", "gemma3_text", "falcon", "RefinedWeb", "RefinedWebModel",
                    "gpt2", "gpt_neox_japanese", "opt", "bloom"}
_PLAIN_MLP = {"falcon", "RefinedWeb", "RefinedWebModel", "gpt2", "gpt_neox", "gptj", "opt", "bloom", "phi",
              "starcoder2", "gpt_bigcode"}


def _first(cfg: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if cfg.get(key) is not None:
            return cfg[key]
    return None


def _need(cfg: dict[str, Any], path: Path, *keys: str) -> int:
    value = _first(cfg, *keys)
    if value is None:
        raise ModelImportError(f"{path}: config has no {keys[0]!r}")
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ModelImportError(f"{path}: {keys[0]!r} must be a positive integer, not {value!r}")
    return value


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-._")
    return (slug or "imported-model")[:80]


def _attention(cfg: dict[str, Any], model_type: str, n_layers: int, max_ctx: int) -> dict[str, Any]:
    if cfg.get("kv_lora_rank"):
        return {"kind": "mla", "kv_lora_rank": cfg["kv_lora_rank"], "q_lora_rank": cfg.get("q_lora_rank"),
                "qk_rope_head_dim": cfg.get("qk_rope_head_dim"), "qk_nope_head_dim": cfg.get("qk_nope_head_dim"),
                "v_head_dim": cfg.get("v_head_dim")}
    window = cfg.get("sliding_window")
    if not isinstance(window, int) or window <= 0 or window >= max_ctx or cfg.get("use_sliding_window") is False:
        return {"kind": "full"}
    layer_types = cfg.get("layer_types")
    if isinstance(layer_types, list) and layer_types:
        n_sliding = sum(1 for t in layer_types if t == "sliding_attention")
    elif model_type == "gemma2":
        n_sliding = (n_layers + 1) // 2  # even layers are local (Gemma2DecoderLayer)
    elif model_type in ("gemma3", "gemma3_text"):
        pattern = cfg.get("sliding_window_pattern") or 6  # every 6th layer global
        n_sliding = n_layers - n_layers // pattern
    elif model_type == "phi3":
        return {"kind": "full"}  # Phi-3 windows (2047) sit next to the 4k context: treated as full
    else:
        n_sliding = n_layers
    if n_sliding == 0:
        return {"kind": "full"}
    return {"kind": "sliding", "sliding_window": window, "sliding_layers": None if n_sliding == n_layers else n_sliding}


def _moe(cfg: dict[str, Any], n_layers: int) -> dict[str, Any] | None:
    n_experts = _first(cfg, "num_local_experts", "n_routed_experts", "num_experts")
    if not n_experts or n_experts < 2:
        return None
    expert_ffn = _first(cfg, "moe_intermediate_size", "intermediate_size")
    n_shared = cfg.get("n_shared_experts") or 0
    shared_size = cfg.get("shared_expert_intermediate_size")
    if shared_size and expert_ffn:  # Qwen2-MoE: one shared expert k times as wide = k experts
        n_shared = max(1, round(shared_size / expert_ffn))
    n_dense = cfg.get("first_k_dense_replace") or len(cfg.get("mlp_only_layers") or [])
    return {"n_experts": n_experts, "n_active": cfg.get("num_experts_per_tok") or 2, "n_shared": n_shared,
            "expert_ffn_size": expert_ffn, "n_dense_layers": min(n_dense, n_layers)}


def arch_from_hf_config(cfg: dict[str, Any], path: Path, model_id: str | None = None) -> ModelArch:
    """Map a ``config.json`` (Llama, Mistral, Mixtral, Qwen2/3(-MoE), Gemma 2/3, Phi-3, DeepSeek-V3, Falcon …)."""
    if isinstance(cfg.get("text_config"), dict) and "num_hidden_layers" not in cfg:
        cfg = {**cfg, **cfg["text_config"]}  # multimodal wrapper (Gemma 3, Mistral 3): the text decoder
    model_type = str(cfg.get("model_type") or "")
    n_layers = _need(cfg, path, "num_hidden_layers", "n_layer", "num_layers")
    hidden = _need(cfg, path, "hidden_size", "n_embd", "d_model")
    n_heads = _need(cfg, path, "num_attention_heads", "n_head", "num_heads")
    n_kv = _first(cfg, "num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num")
    if model_type in ("falcon", "RefinedWeb", "RefinedWebModel") and not cfg.get("new_decoder_architecture"):
        n_kv = 1 if cfg.get("multi_query", True) else n_heads  # Falcon-7B: multi-query
    n_kv = n_kv or n_heads
    max_ctx = _first(cfg, "max_position_embeddings", "n_positions", "seq_length", "max_sequence_length") or 4096
    head_dim = cfg.get("head_dim")
    if cfg.get("kv_lora_rank"):
        head_dim = (cfg.get("qk_nope_head_dim") or 0) + (cfg.get("qk_rope_head_dim") or 0) or None
    if not head_dim:
        if hidden % n_heads:
            raise ModelImportError(f"{path}: hidden size {hidden} is not a multiple of {n_heads} heads and no head_dim")
        head_dim = hidden // n_heads
    ffn = _first(cfg, "intermediate_size", "ffn_hidden_size", "n_inner") or 4 * hidden
    tied = cfg.get("tie_word_embeddings", model_type in _TIED_BY_DEFAULT)
    name = str(cfg.get("_name_or_path") or model_id or path.parent.name or "imported model")
    data = {
        "id": _slug(model_id or name.rsplit("/", 1)[-1]), "name": name, "family": model_type,
        "n_layers": n_layers, "hidden_size": hidden, "n_heads": n_heads, "n_kv_heads": n_kv,
        "head_dim": head_dim, "ffn_size": ffn, "vocab_size": _need(cfg, path, "vocab_size", "padded_vocab_size"),
        "tied_embeddings": bool(tied), "gated_mlp": model_type not in _PLAIN_MLP,
        "attention": _attention(cfg, model_type, n_layers, max_ctx), "max_context": max_ctx,
        "notes": f"Imported from {path}",
    }
    moe = _moe(cfg, n_layers)
    if moe:
        data["moe"] = moe
    return _validate_arch(data, path)


# --- folders and safetensors --------------------------------------------------------------


def _load_folder(folder: Path) -> ImportedModel:
    config = folder / "config.json"
    ggufs = sorted(folder.glob("*.gguf"))
    if not config.is_file():
        if len(ggufs) == 1:
            return load_gguf(ggufs[0])
        raise ModelImportError(f"{folder}: no config.json (needed for the architecture)")
    cfg = _read_json(config)
    arch = arch_from_hf_config(cfg, config, model_id=folder.name)
    shards = _shard_files(folder)
    if not shards:
        return ImportedModel(arch=arch, origin="config", path=str(folder),
                             notes=("no .safetensors files: sizes are estimated from the config",))
    dtypes, elements, n_bytes = read_safetensors_headers(shards)
    quantized = cfg.get("quantization_config") is not None
    notes = [f"{len(shards)} safetensors file(s); exact tensor bytes from their headers"]
    if quantized:
        notes.append("quantized checkpoint: packed tensors do not count parameters, so the count comes from the config")
    return ImportedModel(
        arch=arch, origin="safetensors", path=str(folder), params_exact=None if quantized else elements,
        weights_bytes_override=float(n_bytes), dtypes=dtypes, weight_format=None if quantized else _st_format(dtypes),
        notes=tuple(notes),
    )


def _shard_files(folder: Path) -> list[Path]:
    index = folder / INDEX_NAME
    if not index.is_file():
        return sorted(folder.glob("*.safetensors"))
    weight_map = _read_json(index).get("weight_map")
    if not isinstance(weight_map, dict) or not weight_map:
        raise ModelImportError(f"{index}: no 'weight_map' of tensor → shard file")
    shards = [folder / name for name in sorted(set(map(str, weight_map.values())))]
    for shard in shards:
        if not shard.is_file():
            raise ModelImportError(f"{shard}: shard listed in {INDEX_NAME} is missing")
    return shards


_ST_TO_FORMAT = {"BF16": "bf16", "F16": "fp16", "F32": "fp32", "F8_E4M3": "fp8", "F8_E5M2": "fp8"}


def _st_format(dtypes: dict[str, int]) -> str | None:
    """The dominant dtype in Workload spelling (bf16, fp16, fp32, fp8) when one holds ≥ 90 %."""
    total = sum(dtypes.values())
    if not total:
        return None
    top = max(dtypes, key=dtypes.__getitem__)
    return _ST_TO_FORMAT.get(top) if dtypes[top] >= 0.9 * total else None


def read_safetensors_headers(files: list[Path]) -> tuple[dict[str, int], int, int]:
    """(elements per dtype, total elements, total tensor bytes) from the files' JSON headers only."""
    dtypes: dict[str, int] = {}
    elements = n_bytes = 0
    for file in files:
        for name, info in _safetensors_header(file).items():
            if name == "__metadata__":
                continue
            try:
                count = 1
                for dim in info["shape"]:
                    count *= int(dim)
                start, end = (int(x) for x in info["data_offsets"])
                dtype = str(info["dtype"])
            except (KeyError, TypeError, ValueError):
                raise ModelImportError(f"{file}: tensor {name!r} has a malformed header entry") from None
            dtypes[dtype] = dtypes.get(dtype, 0) + count
            elements += count
            n_bytes += end - start
    return dtypes, elements, n_bytes


def _safetensors_header(file: Path) -> dict[str, Any]:
    try:
        size = file.stat().st_size
        with file.open("rb") as fh:
            raw = fh.read(8)
            if len(raw) < 8:
                raise ModelImportError(f"{file}: too short for a safetensors file")
            (length,) = struct.unpack("<Q", raw)
            if length > min(MAX_SAFETENSORS_HEADER_BYTES, size - 8):
                raise ModelImportError(f"{file}: corrupt safetensors header (length {length:,} for a {size:,}-byte file)")
            header = json.loads(fh.read(length).decode("utf-8"))
    except OSError as exc:
        raise ModelImportError(f"{file}: cannot read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ModelImportError(f"{file}: corrupt safetensors header (not JSON)") from None
    if not isinstance(header, dict):
        raise ModelImportError(f"{file}: corrupt safetensors header (not an object)")
    return header


# --- GGUF ---------------------------------------------------------------------------------


def _gguf_fields(reader: Any) -> dict[str, Any]:
    out = {}
    for key, field in reader.fields.items():
        if key.startswith("tokenizer.ggml.") and len(field.data) > 1:
            out[f"{key}.count"] = len(field.data)  # vocabulary arrays: only their length is needed
            continue
        try:
            out[key] = field.contents()
        except Exception:  # an exotic value type we do not need; skip it
            continue
    return out


def load_gguf(path: Path) -> ImportedModel:
    """Architecture from the GGUF metadata; exact tensor types and bytes from its tensor table."""
    try:
        from gguf import GGUFReader, LlamaFileType

        reader = GGUFReader(path)
        meta = _gguf_fields(reader)
        tensors = [(t.name, t.tensor_type.name, int(t.n_elements), int(t.n_bytes)) for t in reader.tensors]
    except ModelImportError:
        raise
    except Exception as exc:  # the reader raises ValueError/struct.error/OSError … on bad files
        raise ModelImportError(f"{path}: not a readable GGUF file ({exc})") from None
    arch_name = meta.get("general.architecture")
    if not arch_name:
        raise ModelImportError(f"{path}: GGUF metadata has no general.architecture")

    def key(name: str) -> Any:
        return meta.get(f"{arch_name}.{name}")

    names = {t[0] for t in tensors}
    n_heads = key("attention.head_count")
    if isinstance(n_heads, list):  # per-layer head counts (some architectures)
        n_heads = max(n_heads)
    n_kv = key("attention.head_count_kv")
    if isinstance(n_kv, list):
        n_kv = max(n_kv)
    vocab = key("vocab_size") or meta.get("tokenizer.ggml.tokens.count")
    if not vocab and "token_embd.weight" in names:
        vocab = next(t for t in reader.tensors if t.name == "token_embd.weight").shape[-1]
    cfg = {
        "model_type": arch_name, "num_hidden_layers": key("block_count"), "hidden_size": key("embedding_length"),
        "num_attention_heads": n_heads, "num_key_value_heads": n_kv, "intermediate_size": key("feed_forward_length"),
        "vocab_size": int(vocab) if vocab else None, "max_position_embeddings": key("context_length"),
        "sliding_window": key("attention.sliding_window"), "tie_word_embeddings": "output.weight" not in names,
        "head_dim": key("attention.key_length") if not key("attention.kv_lora_rank") else None,
        "_name_or_path": meta.get("general.name") or path.stem,
    }
    if isinstance(cfg["intermediate_size"], list):
        cfg["intermediate_size"] = max(cfg["intermediate_size"])
    if key("expert_count"):
        cfg.update(num_local_experts=key("expert_count"), num_experts_per_tok=key("expert_used_count"),
                   moe_intermediate_size=key("expert_feed_forward_length") or cfg["intermediate_size"],
                   n_shared_experts=key("expert_shared_count"), first_k_dense_replace=key("leading_dense_block_count"))
    if key("attention.kv_lora_rank"):  # DeepSeek-V2/V3 (llama.cpp 'deepseek2')
        rope = key("rope.dimension_count")
        cfg.update(kv_lora_rank=key("attention.kv_lora_rank"), q_lora_rank=key("attention.q_lora_rank"),
                   qk_rope_head_dim=rope, qk_nope_head_dim=(key("attention.key_length") or 0) - (rope or 0) or None,
                   v_head_dim=key("attention.value_length"))
    gated = any(".ffn_gate" in n for n in names)
    arch = arch_from_hf_config(cfg, path, model_id=path.stem)
    if arch.gated_mlp != gated:
        arch = arch.model_copy(update={"gated_mlp": gated})
    dtypes: dict[str, int] = {}
    for _, type_name, n, _ in tensors:
        dtypes[type_name] = dtypes.get(type_name, 0) + n
    file_type = meta.get("general.file_type")
    fmt = None
    if isinstance(file_type, int):
        try:
            label = LlamaFileType(file_type).name.removeprefix("MOSTLY_").removeprefix("ALL_").lower()
            fmt = {"f32": "fp32", "f16": "fp16"}.get(label, label)
        except ValueError:
            fmt = None
    return ImportedModel(
        arch=arch, origin="gguf", path=str(path), params_exact=sum(t[2] for t in tensors),
        weights_bytes_override=float(sum(t[3] for t in tensors)), dtypes=dtypes,
        weight_format=fmt if fmt in WEIGHT_FORMATS else None,
        notes=(f"GGUF {arch_name}: {len(tensors)} tensors; exact bytes from the tensor table",),
    )
