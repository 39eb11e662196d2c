"""Save and open comparison files (``*.json``): atomic writes, one clear error on bad input.

Opening reads a regular file of at most ``MAX_BYTES`` and checks what the schema alone
cannot: JSON nested too deeply, and a generic model size outside what the
generic decoder is defined for. A file that fails is one ``ComparisonFileError``.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from advisor.core import COMPARISON_VERSION, MAX_PARAMS, MIN_PARAMS, READABLE_VERSIONS, Comparison
from advisor.storage import json_text
from advisor.storage.atomic import atomic_write_text
from advisor.storage.safe_read import read_text_limited

SUFFIX = ".json"
#: A comparison of six builds with inline GPUs is ~30 KB.
MAX_BYTES = 5_000_000


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
        data = json_text.loads(text)
    except json_text.JSONTextError as exc:
        raise ComparisonFileError(f"{origin}: {exc}") from None
    if not isinstance(data, dict):
        raise ComparisonFileError(f"{origin}: expected a JSON object, found {type(data).__name__}")
    version = data.get("schema_version")
    if version is not None and (type(version) is not int or version not in READABLE_VERSIONS):  # noqa: E721
        raise ComparisonFileError(
            f"{origin}: schema_version {version!r} is not supported by this version (expected {COMPARISON_VERSION})"
        )
    try:
        comparison = Comparison.model_validate(data)
    except ValidationError as exc:
        raise ComparisonFileError(f"{origin}: not a valid comparison: {_first_error(exc)}") from exc
    except (RecursionError, ValueError, TypeError, ArithmeticError) as exc:  # what pydantic did not wrap
        raise ComparisonFileError(f"{origin}: not a valid comparison: {str(exc)[:200]}") from None
    generic = comparison.model.generic_params
    if generic is not None and not MIN_PARAMS <= generic <= MAX_PARAMS:
        raise ComparisonFileError(f"{origin}: not a valid comparison: model.generic_params: {generic:.3g} is outside "
                                  f"{MIN_PARAMS:.0e} to {MAX_PARAMS:.0e} parameters")
    return comparison


def load_comparison(path: str | os.PathLike[str]) -> Comparison:
    """Read and validate a comparison file; every failure is one ComparisonFileError."""
    source = Path(path)
    try:
        text = read_text_limited(source, MAX_BYTES)
    except FileNotFoundError as exc:
        raise ComparisonFileError(f"{source}: no such file") from exc
    except OSError as exc:
        raise ComparisonFileError(f"{source}: could not read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ComparisonFileError(f"{source}: could not read: not UTF-8 text ({exc.reason})") from exc
    return parse_comparison(text, str(source))
