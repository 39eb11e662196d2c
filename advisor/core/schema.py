"""What every record shares: the frozen base model, record ids, sources, schema version.

Every domain type in the core derives from ``Frozen`` (immutable, unknown keys and
NaN/inf rejected); catalog records from ``Record``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, HttpUrl

SCHEMA_VERSION: Literal[1] = 1

RecordId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=80,
        pattern=r"^[a-z0-9][a-z0-9._-]*$",
        description="Stable id: lower-case letters, digits, '.', '_' and '-'; also the file name",
    ),
]
PositiveFloat = Annotated[float, Field(gt=0, allow_inf_nan=False)]
NonNegativeFloat = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Sources = Annotated[list[HttpUrl], Field(min_length=1, description="Where the numbers come from (≥ 1 URL)")]


class Frozen(BaseModel):
    """Base of every domain record: immutable, unknown keys rejected, NaN/inf rejected."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


#: The schema version of a record: the integer 1 itself (``true`` and ``1.0`` equal 1 in Python but
#: are not a version number a file may carry).
def exact_int(value: object) -> object:
    """Refuse a bool or a float where a version number (an int) is expected."""
    if type(value) is not int:  # noqa: E721 (bool is an int subclass; 1.0 == 1)
        raise ValueError(f"schema_version must be a whole number, not {value!r}")
    return value


SchemaVersion = Annotated[Literal[1], BeforeValidator(exact_int)]


class Record(Frozen):
    """A catalog record: has an id, its sources and the schema version of its file."""

    schema_version: SchemaVersion = SCHEMA_VERSION
    id: RecordId
    sources: Sources
    notes: str = ""
