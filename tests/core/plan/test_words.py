"""A plan in one line of words: GPUs, the scheme and the link it runs over, offload, checkpointing, pins."""


from advisor.core.hardware.catalog import gpu_build, resolve_build
from advisor.core.job.choices import Checkpointing, Mode, Offload, Parallel
from advisor.core.job.planned import Plan
from advisor.core.plan.words import plan_words


def test_one_gpu_says_its_count_and_no_offload(catalog):
    build = gpu_build(catalog, "rtx-4090", 1)
    assert plan_words(Plan(n_gpus=1), build, Mode.INFERENCE) == "1 GPU, no offload"


def test_a_split_names_its_scheme_and_the_link_it_runs_over(catalog):
    pair = resolve_build(catalog, "2x-rtx-3090-nvlink")
    words = plan_words(Plan(n_gpus=2, parallel=Parallel.TP), pair, Mode.INFERENCE)
    assert words.startswith("2 GPUs, ") and " over NVLink" in words and words.endswith("no offload")
    # Independent replicas share nothing: no link is named.
    assert " over " not in plan_words(Plan(n_gpus=2, parallel=Parallel.NONE), pair, Mode.INFERENCE)


def test_idle_gpus_offload_and_checkpointing_are_said_only_where_they_apply(catalog):
    pair = resolve_build(catalog, "2x-rtx-3090-nvlink")
    plan = Plan(n_gpus=1, offload=(Offload.OPTIMIZER, Offload.PARAMS), checkpointing=Checkpointing.FULL)
    assert plan_words(plan, pair, Mode.TRAIN) == ("1 GPU, 1 idle, optimizer and parameters in host RAM, "
                                                  "full activation checkpointing")
    assert "checkpointing" not in plan_words(plan, pair, Mode.INFERENCE)  # inference recomputes nothing
    nvme = Plan(n_gpus=1, offload=(Offload.OPTIMIZER, Offload.NVME))
    assert "optimizer on NVMe" in plan_words(nvme, pair, Mode.TRAIN)
    assert plan_words(Plan(n_gpus=1, moe_offload_layers=12), pair, Mode.INFERENCE, pinned=True) == (
        "1 GPU, 1 idle, no offload, experts of 12 layers in host RAM (pinned)")
