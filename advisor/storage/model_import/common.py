"""What every importer shares: the result type, the one error type, bounded JSON reading."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from advisor.core import Frozen, ModelArch
from advisor.storage import json_text
from advisor.storage.safe_read import read_bytes_limited

MAX_CONFIG_BYTES = 5_000_000


class ModelImportError(Exception):
    """A model that could not be read; the message names the path (or id) and why."""


class ImportedModel(Frozen):
    """A model architecture plus what its files state exactly (None where unknown)."""

    arch: ModelArch
    origin: str = Field(description="'preset', 'config', 'safetensors' or 'gguf'")
    path: str | None = Field(None, description="File or folder it was read from")
    params_exact: int | None = Field(None, ge=0, description="Parameters counted in the weight files")
    weights_bytes_override: float | None = Field(
        None, ge=0, description="Exact bytes of all weight tensors in the files (use instead of the estimate)")
    dtypes: dict[str, int] = Field(default_factory=dict, description="Elements per stored dtype / GGUF type")
    weight_format: str | None = Field(None, description="The files' weight format in Job spelling, if one")
    notes: tuple[str, ...] = ()


def read_json(path: Path, limit: int = MAX_CONFIG_BYTES) -> dict[str, Any]:
    """A JSON object from a regular file of at most ``limit`` bytes; ``ModelImportError`` otherwise."""
    try:
        data = json_text.loads(read_bytes_limited(path, limit))
    except json_text.JSONTextError as exc:
        raise ModelImportError(f"{path}: {exc}") from None
    except OSError as exc:
        raise ModelImportError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not isinstance(data, dict):
        raise ModelImportError(f"{path}: expected a JSON object")
    return data


def validate_arch(data: dict[str, Any], path: Path) -> ModelArch:
    try:
        return ModelArch.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err["loc"]) or "record"
        raise ModelImportError(f"{path}: {where}: {err['msg']}") from None
