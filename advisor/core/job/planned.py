"""How one job runs on one build: GPUs used, parallel scheme, offload, activation checkpointing.

The job (``Workload``'s model-and-task fields) knows nothing of a build; the plan is chosen per
build (``advisor.core.plan.planner.best_plan``) or pinned, in part, by the user (``PlanPins``).
``apply_plan`` gives the complete ``Workload`` the memory and speed models take.
"""

from __future__ import annotations

from pydantic import Field

from advisor.core.job.workload import Checkpointing, Offload, Parallel, Workload
from advisor.core.schema import Frozen

#: The fields of ``Workload`` a plan sets.
PLAN_FIELDS = ("n_gpus", "parallel", "offload", "checkpointing", "moe_offload_layers")
#: Of those, the ones that belong to the build alone. The job's activation checkpointing is the
#: user's baseline: a plan may add more of it (to fit), never less, unless pinned.
BUILD_ONLY_FIELDS = ("n_gpus", "parallel", "offload", "moe_offload_layers")


class PlanPins(Frozen):
    """The parts of one build's plan the user fixed; ``None`` = chosen automatically."""

    n_gpus: int | None = Field(None, ge=1, le=100_000, description="GPUs the job uses on this build")
    parallel: Parallel | None = Field(None, description="How the GPUs share the work")
    offload: tuple[Offload, ...] | None = Field(None, description="What is kept in host RAM (empty: nothing)")
    checkpointing: Checkpointing | None = Field(None, description="Activation checkpointing (training)")
    moe_offload_layers: int | None = Field(None, ge=0, le=100_000,
                                           description="llama.cpp: layers whose MoE experts stay in host RAM")

    @property
    def any(self) -> bool:
        return any(getattr(self, name) is not None for name in PLAN_FIELDS)


class Plan(Frozen):
    """A complete plan: every choice made."""

    n_gpus: int = Field(ge=1, le=100_000)
    parallel: Parallel = Parallel.NONE
    offload: tuple[Offload, ...] = ()
    checkpointing: Checkpointing = Checkpointing.NONE
    moe_offload_layers: int = Field(0, ge=0, le=100_000)

    @classmethod
    def of(cls, workload: Workload) -> Plan:
        """The plan a complete workload carries."""
        return cls(**{name: getattr(workload, name) for name in PLAN_FIELDS})


def apply_plan(job: Workload, plan: Plan) -> Workload:
    """The job run with ``plan``: the workload the estimator takes. Both are validated models, so
    the copy needs no second validation (the planner makes thousands of these per search)."""
    return job.model_copy(update={name: getattr(plan, name) for name in PLAN_FIELDS})


def pins_from_workload(workload: Workload) -> PlanPins:
    """Pins for the build-only plan fields a workload sets explicitly (as flags or an old comparison file did)."""
    return PlanPins(**{name: getattr(workload, name) for name in BUILD_ONLY_FIELDS if name in workload.model_fields_set})


def job_of(workload: Workload) -> Workload:
    """The workload without the build-only plan fields (back at their defaults): the job alone."""
    data = {k: getattr(workload, k) for k in workload.model_fields_set if k not in BUILD_ONLY_FIELDS}
    return Workload.model_validate(data)
