"""Each job setting declared once (``advisor.core.job.settings``): every ``PlannedJob`` field has one
declaration with a flag and a control (or a reason), words for every choice, and bounds read from the model."""

from enum import Enum

import pytest

from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import (
    SETTINGS,
    Widget,
    applies,
    bounds_of,
    default_of,
    reason_words,
    setting,
    whole_bounds,
    why_not,
)


def test_every_field_is_declared_once():
    names = [s.name for s in SETTINGS]
    assert len(names) == len(set(names))
    assert set(names) == set(PlannedJob.model_fields)


@pytest.mark.parametrize("s", SETTINGS, ids=lambda s: s.name)
def test_each_setting_has_a_flag_a_control_and_words(s):
    assert s.flag and s.flag.startswith("--"), s.name
    assert s.label and s.help and s.tooltip
    assert s.widget is not Widget.PLAN or s.exempt  # a plan setting says where it is set instead
    annotation = PlannedJob.model_fields[s.name].annotation
    enums = [a for a in (getattr(annotation, "__args__", None) or (annotation,))
             if isinstance(a, type) and issubclass(a, Enum)]
    for enum in enums:  # every member in words
        for member in enum:
            c = s.choice(member)
            assert c is not None and c.label, (s.name, member)
    if s.widget in (Widget.CHOICE, Widget.OPEN_CHOICE, Widget.TARGETS):
        assert s.choices


def test_labels_and_flags_are_unique():
    assert len({s.label for s in SETTINGS}) == len(SETTINGS)
    assert len({s.flag for s in SETTINGS}) == len(SETTINGS)


def test_bounds_and_defaults_come_from_the_model():
    for name, info in PlannedJob.model_fields.items():
        assert default_of(name) == info.get_default(call_default_factory=True)
        lo, hi = bounds_of(name)
        for c in info.metadata:
            if getattr(c, "ge", None) is not None:
                assert lo == c.ge
            if getattr(c, "le", None) is not None:
                assert hi == c.le
    assert bounds_of("gpu_memory_utilization") == (0.0, 1.0)
    assert whole_bounds("batch") == (1, 100_000)
    assert whole_bounds("grad_accum_steps") == (1, 100_000)  # the model states it (a real job's range)


@pytest.mark.parametrize(("job", "name", "words", "flags"), [
    (PlannedJob(mode="train", method="full"), "lora_rank", "applies only with LoRA or QLoRA (4-bit base)",
     "only applies to --method lora or qlora"),
    (PlannedJob(mode="train"), "precompute_ref", "applies only with objective set to DPO (preferences)",
     "only applies to --objective dpo"),
    (PlannedJob(), "seq_len", "applies only to fine-tuning", "only applies to --mode train"),
    (PlannedJob(engine="vllm"), "engine_version", "applies only with TensorRT-LLM",
     "only applies to --engine tensorrt-llm"),
    (PlannedJob(mode="train"), "loss_chunks", "applies only with loss set to chunked", "only applies to --loss chunked"),
    (PlannedJob(weights="bf16"), "double_quant", "applies only with weights set to NF4 or FP4",
     "only applies to --weights nf4 or fp4"),
])
def test_where_a_setting_does_not_apply_and_why(job, name, words, flags):
    reason = why_not(setting(name), job)
    assert reason is not None and not applies(name, job)
    assert reason_words(reason) == words and reason_words(reason, flags=True) == flags


def test_conditions_read_the_frameworks_defaults():
    # torchtune's loss is chunked (its profile): the chunk count applies without --loss.
    assert applies("loss_chunks", PlannedJob(mode="train", framework="torchtune"))
    assert applies("checkpoint_every", PlannedJob(mode="train", framework="torchtune"))  # it checkpoints
    assert not applies("checkpoint_every", PlannedJob(mode="train"))
    assert applies("double_quant", PlannedJob(mode="train", method="qlora", weights="nf4"))
    assert applies("gpu_memory_utilization", PlannedJob(engine="sglang"))  # every pooled engine takes the share
