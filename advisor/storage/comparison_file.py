"""Save and open comparison files (``*.json``): atomic writes, one clear error on bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import ValidationError

from advisor.core.advice.comparison import COMPARISON_VERSION, READABLE_VERSIONS, Comparison
from advisor.storage.atomic import atomic_write_text

SUFFIX = ".json"


class ComparisonFileError(Exception):
    """A comparison file could not be read or written; the message names the file and why."""


def to_json(comparison: Comparison) -> str:
    return comparison.model_dump_json(indent=2, exclude_defaults=False) + "\n"


def save_comparison(path: str | os.PathLike[str], comparison: Comparison) -> Path:
    """Write ``comparison`` to ``path`` atomically; returns the path written."""
    target = Path(path)
    try:
        atomic_write_text(target, to_json(comparison))
    except OSError as exc:
        raise ComparisonFileError(f"{target}: could not save: {exc.strerror or exc}") from exc
    return target


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {err['msg']}{more}"


def parse_comparison(text: str, origin: str = "<text>") -> Comparison:
    """Validate comparison JSON text; a bad document raises ComparisonFileError naming the field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ComparisonFileError(f"{origin}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    if not isinstance(data, dict):
        raise ComparisonFileError(f"{origin}: expected a JSON object, found {type(data).__name__}")
    version = data.get("schema_version")
    if version is not None and (type(version) is not int or version not in READABLE_VERSIONS):  # noqa: E721
        raise ComparisonFileError(
            f"{origin}: schema_version {version!r} is not supported by this version (expected {COMPARISON_VERSION})"
        )
    try:
        return Comparison.model_validate(data)
    except ValidationError as exc:
        raise ComparisonFileError(f"{origin}: not a valid comparison: {_first_error(exc)}") from exc


def load_comparison(path: str | os.PathLike[str]) -> Comparison:
    """Read and validate a comparison file; every failure is one ComparisonFileError."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ComparisonFileError(f"{source}: no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ComparisonFileError(f"{source}: could not read: {exc}") from exc
    return parse_comparison(text, str(source))
