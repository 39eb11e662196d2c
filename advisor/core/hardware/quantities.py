"""Numbers with physical ranges and dated prices: the value types every hardware record shares
(GPUs, builds, systems, platform parts and platform tiers)."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, Field, HttpUrl, model_validator

from advisor.core.schema import Frozen, NonNegativeFloat, PositiveFloat


def _number(x: float) -> str:
    return f"{x:,.0f}" if x >= 1 and float(x).is_integer() else f"{x:g}"


def physical_range(lo: float, hi: float, unit: str) -> AfterValidator:
    """A physical range, named in the error: without one a TDP of 1e308 W or a bandwidth of 1e-308 GB/s
    would pass the schema and overflow the power and cost sums downstream."""

    def check(value: float) -> float:
        if not lo <= value <= hi:
            raise ValueError(f"must be between {_number(lo)} and {_number(hi)} {unit}")
        return value

    return AfterValidator(check)


# Physical ranges: well beyond any product (B200: 8 TB/s, 1,400 W; a 72-GPU rack: $3.9 M), far from overflow.
Gib = Annotated[PositiveFloat, physical_range(0.25, 1_048_576, "GiB")]
GbMemory = Annotated[PositiveFloat, physical_range(0.25, 10_000_000, "GB")]
GbPerS = Annotated[PositiveFloat, physical_range(1, 100_000, "GB/s")]
Tflops = Annotated[PositiveFloat, physical_range(0.01, 1_000_000, "TFLOP/s")]
Watts = Annotated[PositiveFloat, physical_range(1, 1_000_000, "W")]
PlatformWatts = Annotated[NonNegativeFloat, physical_range(0, 1_000_000, "W")]
Usd = Annotated[PositiveFloat, physical_range(0.01, 100_000_000, "USD")]
PlatformUsd = Annotated[NonNegativeFloat, physical_range(0, 100_000_000, "USD")]
UsdPerHour = Annotated[PositiveFloat, physical_range(0.0001, 100_000, "USD/h")]
GpuIndex = Annotated[int, Field(ge=0, le=575)]  # a position in a build of at most 576 GPUs


class PriceKind(StrEnum):
    LAUNCH_MSRP = "launch_msrp"
    STREET_NEW = "street_new"
    USED = "used"
    LIST = "list"


class PricePoint(Frozen):
    """One dated price seen at one source. A band (used market) has a low and a high."""

    kind: PriceKind
    usd: Usd = Field(description="Price in USD (the middle of a band)")
    usd_low: Usd | None = Field(None, description="Low end of a price band, USD")
    usd_high: Usd | None = Field(None, description="High end of a price band, USD")
    date_seen: dt.date = Field(description="Day the price was seen at the source")
    source: HttpUrl
    note: str = ""

    @model_validator(mode="after")
    def _band_ordered(self) -> PricePoint:
        if self.usd_low is not None and self.usd_high is not None and self.usd_low > self.usd_high:
            raise ValueError("usd_low is above usd_high")
        return self
