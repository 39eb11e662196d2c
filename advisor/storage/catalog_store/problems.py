"""What reading or writing the catalog can report: problems (never raised) and refusals."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from advisor.core import CatalogRecord


@dataclass(frozen=True)
class LoadProblem:
    """One reason a file did not load (or loaded with a caveat)."""

    path: Path
    record_id: str | None
    field: str | None
    message: str

    def __str__(self) -> str:
        parts = [str(self.path)]
        if self.record_id:
            parts.append(f"id {self.record_id!r}")
        if self.field:
            parts.append(self.field)
        return ": ".join(parts) + f": {self.message}"


@dataclass(frozen=True)
class RecordRead:
    """What reading one record file gave: the record, or the problems; and its version."""

    record: CatalogRecord | None
    problems: list[LoadProblem]
    from_version: int | None = None


class CatalogStoreError(Exception):
    """A save or remove that was refused or failed; the message names the file and why."""


class RefusedOverwrite(CatalogStoreError):
    """The file to replace currently fails validation: not overwritten without force."""


def _loc_part(part: object) -> str:
    # A key from the file is shown as typed, unless it would break the one-line message.
    text = str(part)
    return (text if text.isprintable() else repr(text))[:80]


def validation_problems(path: Path, rid: str | None, exc: ValidationError) -> list[LoadProblem]:
    out = []
    for err in exc.errors(include_url=False, include_input=False):
        field = ".".join(_loc_part(p) for p in err["loc"]) or None
        # "Value error, …" is pydantic's prefix for a check of ours: the message after it is the one to read.
        out.append(LoadProblem(path, rid, field, err["msg"].replace("\n", " ").removeprefix("Value error, ")))
    return out
