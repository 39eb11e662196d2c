"""The planned job: the job with one build's plan applied — what the memory and speed models take.

The job (``Job``) knows nothing of a build. A plan (``Plan``) says how it runs on one: the GPUs it uses, how
they share the work, what is kept in host RAM, the activation checkpointing and, for llama.cpp, the layers
whose MoE experts stay in host RAM. A build's plan is chosen for it (``advisor.core.plan.planner.best_plan``)
or pinned, in part, by the user (``PlanPins``: a comparison's build entries, the command line's ``--gpus``,
``--parallel``, ``--offload`` and ``--moe-offload-layers``). ``apply_plan`` makes the ``PlannedJob``.

Activation checkpointing is a setting of both. The job's is the user's (or the framework's) baseline: the
window sets it with the other training settings, and a plan may add more of it to fit, never less unless
pinned. The planned job carries the plan's.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from advisor.core.job.choices import Checkpointing, Offload, Parallel
from advisor.core.job.job import Job
from advisor.core.memo import HeldById
from advisor.core.schema import Frozen

#: The fields a plan sets on the planned job.
PLAN_FIELDS = ("n_gpus", "parallel", "offload", "checkpointing", "moe_offload_layers")
#: Of those, the ones that belong to the build alone: ``PlannedJob`` adds them to ``Job``.
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


class PlannedJob(Job):
    """A job with one build's plan applied (``apply_plan``): what the memory and speed models take.

    Its ``checkpointing`` is the plan's; the other plan fields are the build's alone."""

    # The largest published training runs used 16K (Llama 3) to about 100K GPUs.
    n_gpus: int = Field(1, ge=1, le=100_000, description="GPUs the job uses")
    parallel: Parallel = Parallel.NONE
    offload: tuple[Offload, ...] = ()
    # Layers of a model (DeepSeek-V3: 61); the model's own count caps it when the estimate plans.
    moe_offload_layers: int = Field(0, ge=0, le=100_000,
                                    description="llama.cpp --n-cpu-moe: layers whose routed experts stay in host RAM")

    @property
    def plan(self) -> Plan:
        """The plan this job runs with."""
        return Plan(**{name: getattr(self, name) for name in PLAN_FIELDS})


#: Each job as a planned job on one GPU (``alone``), by the job object: ``apply_plan`` copies it with the plan's
#: fields. ``model_construct`` takes four times as long as a copy, and a plan search applies thousands of plans
#: to one job.
_ALONE: HeldById[PlannedJob] = HeldById(64)


def alone(job: Job) -> PlannedJob:
    """``job`` on one GPU, with no parallel scheme, nothing offloaded and its own checkpointing: how its memory is
    counted without a build (the fit plot's curves, an estimate without hardware). A planned job is itself."""
    if isinstance(job, PlannedJob):
        return job
    held = _ALONE.get((job,))
    if held is None:  # the job's fields are valid already: no second validation
        held = _ALONE.put((job,), None, PlannedJob.model_construct(
            _fields_set=set(job.model_fields_set), **{name: getattr(job, name) for name in Job.model_fields}))
    return held


def apply_plan(job: Job, plan: Plan) -> PlannedJob:
    """``job`` run with ``plan``: the planned job the estimator takes. Both are validated models, so the copy
    needs no second validation (the planner makes thousands of these per search)."""
    return alone(job).model_copy(update={name: getattr(plan, name) for name in PLAN_FIELDS})


def job_of(planned: Job) -> Job:
    """The job alone: ``planned`` without its build-only plan fields (a ``Job`` is itself)."""
    if not isinstance(planned, PlannedJob):
        return planned
    return Job.model_construct(_fields_set=planned.model_fields_set - set(BUILD_ONLY_FIELDS),
                               **{name: getattr(planned, name) for name in Job.model_fields})


def pins_of(planned: Job) -> PlanPins:
    """Pins for the build-only plan fields ``planned`` sets explicitly (as the command line's flags do); a job
    alone pins nothing."""
    return PlanPins(**{name: getattr(planned, name) for name in BUILD_ONLY_FIELDS if name in planned.model_fields_set})


def split_plan_fields(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A job as an older file held it (a dict that may carry the build-only plan fields, as the job's "workload"
    did) → (the job's fields, the pins those plan fields ask for). Values at the old defaults (one GPU, no
    scheme, no offload, no MoE layers in host RAM) were no choice and pin nothing; every other value becomes a
    pin, so nothing the file said is lost."""
    job = dict(data)
    pins = {name: job.pop(name) for name in BUILD_ONLY_FIELDS if name in job}
    for name, default in (("n_gpus", 1), ("parallel", Parallel.NONE.value), ("moe_offload_layers", 0)):
        if name in pins and pins[name] == default:
            del pins[name]
    if "offload" in pins and not pins["offload"]:
        del pins["offload"]
    return job, pins
