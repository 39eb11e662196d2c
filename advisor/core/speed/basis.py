"""What a speed estimate stands on: measurements of that GPU family with that software, or nothing.

Engines and frameworks choose kernels per backend and per compute capability (or gfx target), so
a figure fitted on Ampere and Hopper says little about a Pascal card under llama.cpp or a Mac under
MLX. Each (GPU family × engine or training framework) pair is *calibrated* when trusted published
measurements of it were scored (``benchmarks/speed_fidelity.py``; the table is written to
``resources/fidelity.json`` by ``benchmarks/ui_error_bands.py``), and *extrapolated* otherwise.
An extrapolated estimate carries the band the benchmark measured for families it had not seen
(the table's ``extrapolated`` entry: rows of sources held out of every fit whose family had no calibration
row with that software) where one was measured, and says so. A calibrated pair's entry also gives the
band of its held-out rows (``held_out``) where it has any: what the estimate did there on runs it was not
fitted to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field

from advisor.core.hardware.records import Gpu
from advisor.core.job.choices import Mode
from advisor.core.job.frameworks import FRAMEWORK_NAMES
from advisor.core.job.job import Job
from advisor.core.schema import Frozen

#: The table entry whose band applies to families without measurements of their own.
EXTRAPOLATED_KEY = "extrapolated"
#: The training frameworks as the table names them: PyTorch trainers that share a family's kernels.
TRAINING_SOFTWARE = frozenset(FRAMEWORK_NAMES.values())


def software_of(job: Job) -> str:
    """The engine (inference) or the training framework a job's speed depends on, as its users write it
    (``Engine.label``, ``FRAMEWORK_NAMES``): the table's second key."""
    if job.mode is Mode.INFERENCE:
        return job.engine.label
    return FRAMEWORK_NAMES[job.framework]


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
    held_out_rows: int = Field(0, ge=0, description="Of those, runs of sources held out of every fit")
    held_out_median_pct: float | None = Field(None, ge=0, description="Median absolute error on them, %")
    measured_with: str = Field("", description="Training: the framework the family's runs used where it is not "
                                               "the job's own ('' when it is)")

    @property
    def calibrated(self) -> bool:
        return self.rows > 0

    @property
    def words(self) -> str:
        """'measured: 12 runs of NVIDIA sm_86 with llama.cpp, ±9 % median' or 'extrapolated: …'."""
        band = f", ±{self.median_pct:.0f} % median" if self.median_pct is not None else ""
        if self.calibrated:
            runs = "run" if self.rows == 1 else "runs"
            if self.measured_with:
                return (f"measured: {self.rows} {runs} of {self.family} with {self.measured_with}, {self.software}'s "
                        f"share measured on another family{band}")
            return f"measured: {self.rows} {runs} of {self.family} with {self.software}{band}"
        return f"extrapolated: no measurement of {self.family} with {self.software}{band}"

    @property
    def sentence(self) -> str:
        """What the speed stands on, for a buyer: the window's speed tooltip, the CLI, the PDF."""
        runs = "published run" if self.rows == 1 else "published runs"
        if self.calibrated and self.measured_with:
            band = f": within ±{self.median_pct:.0f} % of them at the median" if self.median_pct is not None else ""
            return (f"Speed measured on this GPU family ({self.family}) with {self.measured_with}, {self.rows} {runs}"
                    f"{band}; {self.software}'s own share of it was measured on another GPU family.")
        if self.calibrated:
            if self.median_pct is None:
                return f"Speed measured on this GPU family ({self.family}) with {self.software}: {self.rows} {runs}."
            nine = f", ±{self.p90_pct:.0f} % for nine in ten" if self.p90_pct is not None else ""
            held = (f" (±{self.held_out_median_pct:.0f} % median on the {self.held_out_rows} never used to fit it)"
                    if self.held_out_rows and self.held_out_median_pct is not None else "")
            return (f"Speed measured on this GPU family ({self.family}) with {self.software}: within "
                    f"±{self.median_pct:.0f} % of {self.rows} {runs} at the median{nine}{held}.")
        band = (f"; on families it was not measured on, the estimate has been off by ±{self.median_pct:.0f} % at the "
                f"median" + (f", ±{self.p90_pct:.0f} % for nine in ten" if self.p90_pct is not None else "")
                if self.median_pct is not None else "; its error there is not measured")
        return (f"Speed extrapolated: no published run of this GPU family ({self.family}) with {self.software}"
                f"{band}.")

    @property
    def mark(self) -> str:
        """A short mark beside the figure: '' when measured, 'extrapolated' otherwise."""
        return "" if self.calibrated else "extrapolated"


def _entry(table: Mapping[str, Any], key: str) -> Mapping[str, Any] | None:
    entry = table.get(key)
    return entry if isinstance(entry, Mapping) else None


def _number(entry: Mapping[str, Any], name: str) -> float | None:
    value = entry.get(name)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0 else None


def _rows(entry: Mapping[str, Any] | None) -> int:
    rows = entry.get("rows") if entry is not None else None
    return rows if isinstance(rows, int) and not isinstance(rows, bool) and rows > 0 else 0


def _measured(table: Mapping[str, Any], family: str, software: str) -> tuple[Mapping[str, Any], str] | None:
    """The entry that measures ``software`` on ``family`` and the software it names ('' when ``software`` itself):
    the pair's own; for a training framework measured on some family, the family's runs with another training
    framework, the one with the most runs (module docstring)."""
    own = _entry(table, basis_key(family, software))
    if own is not None and _rows(own):
        return own, ""
    if software not in TRAINING_SOFTWARE:
        return None
    if not any(_rows(_entry(table, basis_key(f, software))) for f in _families(table)):
        return None  # the framework's own share is measured nowhere
    others = [(s, e) for s in sorted(TRAINING_SOFTWARE - {software})
              if (e := _entry(table, basis_key(family, s))) is not None and _rows(e)]
    if not others:
        return None
    name, entry = max(others, key=lambda se: _rows(se[1]))
    return entry, name


def measured_in(table: Mapping[str, Any], family: str, software: str) -> bool:
    """Whether ``table`` measures ``software`` on ``family`` as ``basis_of`` reads it: the pair's own runs, or for a
    training framework the family's runs with another (``_measured``)."""
    return _measured(table, family, software) is not None


def _families(table: Mapping[str, Any]) -> set[str]:
    return {k.split("|", 1)[0] for k in table if "|" in k}


def _held_out(entry: Mapping[str, Any], rows: int) -> tuple[int, float | None]:
    """(rows, median %) of the entry's held-out check; (0, None) when it has none or it claims more rows than
    the entry."""
    held = _entry(entry, "held_out")
    held_rows = held.get("rows") if held is not None else None
    if held is None or not isinstance(held_rows, int) or isinstance(held_rows, bool) or not 0 < held_rows <= rows:
        return 0, None
    return held_rows, _number(held, "median_pct")


def basis_of(table: Mapping[str, Any], gpus: Sequence[Gpu], software: str) -> SpeedBasis:
    """The basis of a build's speed: the least-measured of its GPUs' families (a mixed build is as
    trustworthy as its least-known card)."""
    bases = []
    for family in dict.fromkeys(g.speed_family for g in gpus):
        found = _measured(table, family, software)
        if found is not None:
            entry, other = found
            rows = _rows(entry)
            held_rows, held_median = _held_out(entry, rows)
            bases.append(SpeedBasis(family=family, software=software, rows=rows,
                                    median_pct=_number(entry, "median_pct"), p90_pct=_number(entry, "p90_pct"),
                                    held_out_rows=held_rows, held_out_median_pct=held_median, measured_with=other))
            continue
        wide = _entry(table, EXTRAPOLATED_KEY)
        bases.append(SpeedBasis(family=family, software=software,
                                median_pct=_number(wide, "median_pct") if wide else None,
                                p90_pct=_number(wide, "p90_pct") if wide else None))
    if not bases:
        raise ValueError("a build has at least one GPU")
    return min(bases, key=lambda b: b.rows)
