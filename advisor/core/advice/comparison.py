"""The comparison document: one workload, one model, 2–6 candidate builds.

This is what the desktop app saves and opens, what ``llm-advisor report COMPARISON.json``
and the PDF read. It stands alone: an imported model carries its resolved ``ModelArch``
and a build the catalog does not know ("This machine", a tweaked copy) carries its GPU
records inline, so the file still means the same thing on another computer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Final, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from advisor.core.advice.criterion import Criterion
from advisor.core.hardware.records import (
    MAX_NODES,
    ResolvedBuild,
    Topology,
    topology_problem,
)
from advisor.core.job.defaults import default_job
from advisor.core.job.job import Job
from advisor.core.job.planned import BUILD_ONLY_FIELDS, PlannedJob, PlanPins, job_of
from advisor.core.model.arch import ModelArch
from advisor.core.schema import Frozen, RecordId, exact_int

#: Version 2 (this one) plans each build on its own (``BuildEntry.plan``); version 1 had one
#: GPU count, scheme and offload for every build in its workload (``migrate_v1``).
COMPARISON_VERSION: Final = 2
READABLE_VERSIONS = (1, 2)

MIN_BUILDS = 2
MAX_BUILDS = 6

#: The first-launch comparison: the pair the product grew from.
CANONICAL_BUILD_IDS = ("2x-rtx-3090-nvlink", "2x-rtx-4090-pcie-x16")
#: Preset of the first-launch model (Llama 3.1 8B; catalog/models/).
CANONICAL_MODEL_ID = "llama-3.1-8b"


class ModelRef(Frozen):
    """Which model: exactly one of a catalog preset, a generic size, or an imported file.

    ``arch`` is the resolved architecture, stored inline so the file stands alone; it is
    required for an import (the path may not exist elsewhere) and optional otherwise.
    """

    preset_id: RecordId | None = Field(None, description="Id of a model in catalog/models/")
    generic_params: float | None = Field(
        None, gt=0, le=1e13, description="Parameter count of a generic dense decoder (any size)"
    )
    imported_path: str | None = Field(
        None, min_length=1, description="config.json, model folder or .gguf the model came from"
    )
    arch: ModelArch | None = Field(None, description="The resolved architecture, inline")

    @model_validator(mode="after")
    def _exactly_one(self) -> ModelRef:
        chosen = [n for n in ("preset_id", "generic_params", "imported_path") if getattr(self, n) is not None]
        if len(chosen) != 1:
            raise ValueError(
                "a model is exactly one of preset_id, generic_params or imported_path "
                f"(got {', '.join(chosen) or 'none'})"
            )
        if self.imported_path is not None and self.arch is None:
            raise ValueError("an imported model needs its resolved arch inline")
        return self

    @property
    def kind(self) -> Literal["preset", "generic", "imported"]:
        if self.preset_id is not None:
            return "preset"
        return "generic" if self.generic_params is not None else "imported"


_BUILD_SOURCES = ("build_id", "gpu_id", "cloud_id", "system_id", "inline")


class BuildEntry(Frozen):
    """One candidate: a display name and exactly one source of hardware."""

    name: str = Field(min_length=1, max_length=120, description="Name shown in tables, plots and the PDF")
    build_id: RecordId | None = Field(None, description="A catalog build")
    gpu_id: RecordId | None = Field(None, description="A catalog GPU, used gpu_count times")
    gpu_count: int = Field(1, ge=1, le=72, description="How many of gpu_id (only with gpu_id)")
    topology: Topology | None = Field(None, description="How the gpu_id cards are linked (only with gpu_id)")
    cloud_id: RecordId | None = Field(None, description="A catalog cloud instance")
    system_id: RecordId | None = Field(None, description="A catalog prebuilt system")
    inline: ResolvedBuild | None = Field(
        None, description="A build with its GPU records inline: 'This machine' or a tweaked copy"
    )
    plan: PlanPins = Field(PlanPins(), description="The parts of this build's plan the user pinned")
    # Defaulted, so files written before the field existed load unchanged (no version bump).
    nodes: int = Field(1, ge=1, le=MAX_NODES, description="Identical machines of this build, joined by its network")
    nic_id: RecordId | None = Field(None, description="A catalog network card ('nic' part) each machine gets, "
                                                      "replacing the build's own")
    nics: int = Field(1, ge=1, le=64, description="How many of nic_id each machine gets")

    @model_validator(mode="after")
    def _exactly_one_source(self) -> BuildEntry:
        chosen = [n for n in _BUILD_SOURCES if getattr(self, n) is not None]
        if len(chosen) != 1:
            raise ValueError(
                f"build {self.name!r} needs exactly one of {', '.join(_BUILD_SOURCES)} "
                f"(got {', '.join(chosen) or 'none'})"
            )
        if self.gpu_id is None and (self.gpu_count != 1 or self.topology is not None):
            raise ValueError(f"build {self.name!r}: gpu_count and topology go with gpu_id only")
        if self.topology is not None and (problem := topology_problem(self.topology, self.gpu_count)):
            raise ValueError(f"build {self.name!r}: {problem}")  # the estimate indexes the GPUs by it
        return self

    @property
    def source_kind(self) -> str:
        return next(n for n in _BUILD_SOURCES if getattr(self, n) is not None)


class Comparison(Frozen):
    """A saved side-by-side comparison (``*.json``)."""

    schema_version: Annotated[Literal[2], BeforeValidator(exact_int)] = COMPARISON_VERSION
    title: str = Field("", max_length=200, description="Optional title for the window and the PDF")
    rank_by: Criterion = Field(Criterion.SPEED, description="What the winner is chosen on (window and PDF alike)")
    workload: Job = Job()
    model: ModelRef
    builds: tuple[BuildEntry, ...] = Field(
        min_length=MIN_BUILDS, max_length=MAX_BUILDS, description="The candidates, in display order"
    )

    @model_validator(mode="before")
    @classmethod
    def _migrate(cls, data: object) -> object:
        return migrate_v1(data) if isinstance(data, dict) and data.get("schema_version") == 1 else data

    @field_validator("workload", mode="before")
    @classmethod
    def _job_alone(cls, value: object) -> object:
        """The job only: each build plans itself (``BuildEntry.plan``). A file saved before the job and its plan
        were two types has the build-only plan fields in its workload (every such file, at their defaults),
        which no estimate read: they are checked as they were (a bad value is still a bad file), then dropped. A file
        saved while the engine's own all-reduce was a three-way choice holds ``null`` for "the engine's default",
        which is on (``Job.custom_all_reduce``)."""
        if isinstance(value, dict) and value.get("custom_all_reduce", True) is None:
            value = {**value, "custom_all_reduce": True}
        if isinstance(value, dict) and any(k in value for k in BUILD_ONLY_FIELDS):
            return job_of(PlannedJob.model_validate(value))
        return job_of(value) if isinstance(value, PlannedJob) else value

    @model_validator(mode="after")
    def _names_unique(self) -> Comparison:
        names = [b.name for b in self.builds]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"build names must be unique; repeated: {', '.join(dupes)}")
        return self


def migrate_v1(data: dict[str, object]) -> dict[str, object]:
    """A version-1 document as version 2: the GPU count, scheme and offload its workload set for
    every build become pins on each build (what the file said still holds, now per build, and
    each can be unpinned); a pinned count above a build's GPUs is capped when it is planned."""
    if type(data.get("schema_version")) is not int:  # noqa: E721 (true or 1.0 are not version 1)
        return data
    out = dict(data)
    raw = out.get("workload") or {}
    if not isinstance(raw, dict):  # not a workload at all: validation says so, nothing is moved
        return data
    workload: dict[str, object] = dict(raw)
    pins = {k: workload.pop(k) for k in BUILD_ONLY_FIELDS if k in workload}
    if pins.get("n_gpus") == 1:
        pins.pop("n_gpus")  # version 1's default: one GPU, not a choice
    if pins.get("parallel") == "none":
        pins.pop("parallel")
    if not pins.get("offload"):
        pins.pop("offload", None)
    builds = out.get("builds")
    if pins and isinstance(builds, list):
        out["builds"] = [dict(b, plan={**pins, **(b.get("plan") or {})}) if isinstance(b, dict) else b for b in builds]
    out["workload"] = workload
    out["schema_version"] = COMPARISON_VERSION
    return out


def canonical_workload() -> Job:
    """The default job (``advisor.core.job.defaults``): Llama 3.1 8B served by vLLM to 16 users at 8k.

    The job only: each build plans itself (both pairs split every layer over their two cards,
    tensor parallel, vLLM's usual multi-GPU layout).

    Why this one: bf16 weights (~16 GB) plus 16 × 8,192 tokens of KV cache (~17 GB,
    128 KiB per token) do not fit one 24 GB card, so the two cards must split every
    layer (tensor parallel, Shoeybi et al. 2019, arXiv:1909.08053) and each generated
    token then crosses the GPU link twice per layer: NVLink on the 3090 pair, PCIe
    through host memory on the 4090 pair (no peer-to-peer on stock drivers). That is
    exactly where the two builds differ.
    """
    return default_job()


def canonical_comparison() -> Comparison:
    """The first-launch comparison: 2× RTX 3090 with NVLink vs 2× RTX 4090 over PCIe."""
    return Comparison(
        title="",  # derived from the build names (report_title), so it never goes stale as builds change
        workload=canonical_workload(),
        model=ModelRef(preset_id=CANONICAL_MODEL_ID),
        builds=(
            BuildEntry(name="2× RTX 3090 + NVLink", build_id=CANONICAL_BUILD_IDS[0]),
            BuildEntry(name="2× RTX 4090 PCIe", build_id=CANONICAL_BUILD_IDS[1]),
        ),
    )


def first_free(wanted: str, taken: set[str], spell: Callable[[str, int], str] = lambda w, n: f"{w} ({n})") -> str:
    """``wanted``, or its 2nd, 3rd … spelling (``spell(wanted, n)``) that ``taken`` does not hold."""
    if wanted not in taken:
        return wanted
    n = 2
    while spell(wanted, n) in taken:
        n += 1
    return spell(wanted, n)


def unique_name(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted (2)``, ``(3)`` … so build names stay unique."""
    return first_free(wanted, taken)
