"""What a speed estimate stands on: measurements of that GPU family with that software, or nothing.

Engines and frameworks choose kernels per backend and per compute capability (or gfx target), so
a figure fitted on Ampere and Hopper says little about a Pascal card under llama.cpp or a Mac under
MLX. Each (GPU family × engine or training framework) pair is *calibrated* when trusted published
measurements of it were scored (``benchmarks/speed_fidelity.py``; the table is written to
``resources/fidelity.json`` by ``benchmarks/ui_error_bands.py``), and *extrapolated* otherwise.
An extrapolated estimate carries the band the benchmark measured for families it had not seen
(the table's ``extrapolated`` entry) where one was measured, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field

from advisor.core.hardware.records import Gpu
from advisor.core.schema import Frozen

#: The table entry whose band applies to families without measurements of their own.
EXTRAPOLATED_KEY = "extrapolated"


def basis_key(family: str, software: str) -> str:
    """The table's key for a family and an engine or framework: 'NVIDIA sm_86|llama.cpp'."""
    return f"{family}|{software}"


class SpeedBasis(Frozen):
    """Whether a speed was measured on its GPU family with its software, and the error measured there."""

    family: str = Field(description="GPU family ('NVIDIA sm_86', 'AMD gfx1100', 'Apple M2')")
    software: str = Field(description="Engine (inference) or framework (training), as its users write it")
    rows: int = Field(0, ge=0, description="Trusted measurements of this family with this software")
    median_pct: float | None = Field(None, ge=0, description="Median absolute error there, %")
    p90_pct: float | None = Field(None, ge=0, description="90th percentile absolute error there, %")

    @property
    def calibrated(self) -> bool:
        return self.rows > 0

    @property
    def words(self) -> str:
        """'measured: 12 runs of NVIDIA sm_86 with llama.cpp, ±9 % median' or 'extrapolated: …'."""
        band = f", ±{self.median_pct:.0f} % median" if self.median_pct is not None else ""
        if self.calibrated:
            runs = "run" if self.rows == 1 else "runs"
            return f"measured: {self.rows} {runs} of {self.family} with {self.software}{band}"
        return f"extrapolated: no measurement of {self.family} with {self.software}{band}"


def _entry(table: Mapping[str, Any], key: str) -> Mapping[str, Any] | None:
    entry = table.get(key)
    return entry if isinstance(entry, Mapping) else None


def _number(entry: Mapping[str, Any], name: str) -> float | None:
    value = entry.get(name)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0 else None


def basis_of(table: Mapping[str, Any], gpus: Sequence[Gpu], software: str) -> SpeedBasis:
    """The basis of a build's speed: the least-measured of its GPUs' families (a mixed build is as
    trustworthy as its least-known card)."""
    bases = []
    for family in dict.fromkeys(g.speed_family for g in gpus):
        entry = _entry(table, basis_key(family, software))
        rows = entry.get("rows") if entry is not None else None
        if entry is not None and isinstance(rows, int) and not isinstance(rows, bool) and rows > 0:
            bases.append(SpeedBasis(family=family, software=software, rows=rows,
                                    median_pct=_number(entry, "median_pct"), p90_pct=_number(entry, "p90_pct")))
            continue
        wide = _entry(table, EXTRAPOLATED_KEY)
        bases.append(SpeedBasis(family=family, software=software,
                                median_pct=_number(wide, "median_pct") if wide else None,
                                p90_pct=_number(wide, "p90_pct") if wide else None))
    if not bases:
        raise ValueError("a build has at least one GPU")
    return min(bases, key=lambda b: b.rows)
