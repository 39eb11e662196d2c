"""The job and the job under one build's plan: alone, apply_plan, job_of, pins_of and an older file's fields."""

from advisor.core.job.choices import Checkpointing, Mode, Offload, Parallel
from advisor.core.job.job import Job
from advisor.core.job.planned import (
    BUILD_ONLY_FIELDS,
    Plan,
    PlanPins,
    PlannedJob,
    alone,
    apply_plan,
    job_of,
    pins_of,
    split_plan_fields,
)


def test_a_job_alone_is_on_one_gpu_with_no_scheme_and_keeps_what_the_user_set():
    job = Job(mode=Mode.TRAIN, batch=4, checkpointing=Checkpointing.FULL)
    planned = alone(job)
    assert isinstance(planned, PlannedJob) and planned.n_gpus == 1 and planned.parallel is Parallel.NONE
    assert planned.batch == 4 and planned.checkpointing is Checkpointing.FULL
    assert planned.model_fields_set == job.model_fields_set
    assert alone(job) is planned  # kept per job object
    assert alone(planned) is planned


def test_apply_plan_then_job_of_gives_the_job_back():
    job = Job(mode=Mode.TRAIN, batch=2)
    plan = Plan(n_gpus=8, parallel=Parallel.FSDP, offload=(Offload.OPTIMIZER,), checkpointing=Checkpointing.FULL)
    planned = apply_plan(job, plan)
    assert planned.plan == plan and planned.batch == 2
    back = job_of(planned)
    assert type(back) is Job and back == job.model_copy(update={"checkpointing": Checkpointing.FULL})
    assert not set(BUILD_ONLY_FIELDS) & back.model_fields_set
    assert job_of(job) is job


def test_pins_are_the_build_only_fields_set_explicitly():
    assert pins_of(PlannedJob(n_gpus=4, parallel="tp")) == PlanPins(n_gpus=4, parallel=Parallel.TP)
    assert not pins_of(Job(batch=3)).any
    assert not pins_of(PlannedJob(checkpointing="full")).any  # the plan's checkpointing is the job's own


def test_an_older_files_plan_fields_become_pins_unless_at_the_old_defaults():
    job, pins = split_plan_fields({"batch": 2, "n_gpus": 1, "parallel": "none", "offload": [], "moe_offload_layers": 0})
    assert job == {"batch": 2} and pins == {}
    job, pins = split_plan_fields({"batch": 2, "n_gpus": 4, "parallel": "ddp", "offload": ["optimizer"]})
    assert job == {"batch": 2} and pins == {"n_gpus": 4, "parallel": "ddp", "offload": ["optimizer"]}
