"""A job's settings in a buyer's words, from their declarations (``advisor.core.job.settings``): the
window, the PDF's job table and the command line's text all say a value the same way. The JSON
output and the flags keep the ids ('q4_k_m', 'amp'); what a person reads does not."""

from __future__ import annotations

from advisor.core.job.choices import Mode
from advisor.core.job.frameworks import apply_framework
from advisor.core.job.job import Job
from advisor.core.job.settings import (
    SETTINGS,
    Section,
    Setting,
    applies,
    choice_label,
    default_of,
    setting,
)
from advisor.core.memory.format_words import format_words, kv_words
from advisor.core.memory.held import base_format_name


def say(name: str, value: object, job: Job | None = None) -> str:
    """One value of setting ``name`` in words: a weight format with its bits ('Q4_K_M (GGUF, 4.9 bits)'), a
    choice by its declared words ('mixed precision'), a number with its unit ('8,192 tokens').
    ``job`` gives the weights their group size and double quantization."""
    s = setting(name)
    if value is None:
        if s.none_means is not None:
            return say(name, s.none_means, job)
        unset = s.choice(None)
        return s.unset or (unset.label if unset else "not set")
    if name == "weights":
        return format_words(str(value), *((job.quant_group_size, job.double_quant) if job else ()))
    if name == "kv_dtype":
        return kv_words(str(value))
    if isinstance(value, tuple):
        return ", ".join(say_part(s, v) for v in value) or "none"
    if isinstance(value, bool) and s.choice(value) is None:
        return "on" if value else "off"
    if s.choice(value) is not None:
        return choice_label(name, value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = value / s.scale
        text = f"{number:,.{s.decimals}f}" if s.decimals else f"{number:,g}" if s.scale != 1 else f"{value:,}"
        return f"{text} {_unit(s.unit, value)}".strip()
    return str(value)


def _unit(unit: str, count: float) -> str:
    """'sequences' for 16, 'sequence' for 1 ('micro-batch', 'token', 'GPU')."""
    if count != 1 or not unit.endswith("s"):
        return unit
    return unit[:-2] if unit.endswith("ches") else unit[:-1]


def say_part(s: Setting, value: object) -> str:
    c = s.choice(value)
    return c.label if c is not None and c.label else str(getattr(value, "value", value))


def _shown(s: Setting, value: object) -> bool:
    """A row of the job table: the headline settings, and any other one the job sets to something."""
    return s.brief or (value != default_of(s.name) and value not in (None, False, ()))


def job_rows(job: Job) -> tuple[tuple[str, str], ...]:
    """The job as (label, words) rows, the mode and its own section first: every setting that applies to it and is
    worth a line (``Setting.brief``, or set to something other than its default), with the values the
    estimate uses (the framework's defaults filled in, a QLoRA base as the 4-bit format it is stored in). The
    plan's settings are each build's, not here."""
    effective = apply_framework(job)
    own = Section.TRAINING if job.mode is Mode.TRAIN else Section.INFERENCE
    rank = {s.name: (s.name != "mode", s.section is not own, i) for i, s in enumerate(SETTINGS)}
    rows = []
    for s in sorted(SETTINGS, key=lambda s: rank[s.name]):
        if s.section is Section.PLAN or not applies(s, job):
            continue
        value = base_format_name(effective) if s.name == "weights" else getattr(effective, s.name)
        if not _shown(s, value):
            continue
        words = say(s.name, value, effective)
        c = s.choice(value)
        if c is not None and c.tip:
            words += f": {c.tip}"
        rows.append((s.label_in(job.mode), words))
    return tuple(rows)
