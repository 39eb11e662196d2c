"""The job's flags, built from the settings' declarations (``advisor.core.job.settings``): one option per
setting, its help, its choices and its bounds, and the ``Job`` fields the given flags describe.
A flag given for a setting the job ignores is refused (``job_rules.ignored``), as every bad value is:
a ``UsageError`` naming the flag."""

from __future__ import annotations

import argparse
import textwrap
import types
import typing
from enum import Enum
from typing import Any

from advisor.cli import UsageError
from advisor.cli._job_args import (
    ARCH_FLAGS,
    engine_version_arg,
    lora_targets_arg,
    positive_int,
    positive_number,
)
from advisor.core import (
    SETTINGS,
    PlannedJob,
    Section,
    Setting,
    bounds_of,
    default_job_words,
    default_of,
    strict_floor,
    whole_bounds,
)

#: Settings whose text the command line reads itself: checked where the core knows their rules.
TEXT_FLAGS = {"weights": str, "kv_dtype": str, "engine_version": engine_version_arg, "lora_targets": str,
              "dataset_tokens": str}
#: The settings the default job sets (``core.job.defaults``): their help points to it.
DEFAULT_JOB = ("engine", "context_len", "batch")
#: Job field → the flag that sets it (error messages name it).
FIELD_FLAGS = {s.name: s.flag for s in SETTINGS if s.flag}
GROUPS = {Section.TASK: "the job", Section.INFERENCE: "inference", Section.TRAINING: "fine-tuning",
          Section.TRAINING_RUN: "training run (its time and cost)",
          Section.FRAMEWORK: "training framework and memory options", Section.PLAN: "GPU use"}


def _inner(annotation: object) -> tuple[object, bool]:
    """(type, optional?) of a field's annotation: ``int | None`` → (int, True)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0], True
    return annotation, False


def whole_in(s: Setting):
    """An argparse type: a whole number in ASCII digits within the field's bounds."""
    least, most = whole_bounds(s.name)

    def parse(text: str) -> int:
        stripped = text.strip()
        if not (stripped.isascii() and stripped.lstrip("+").isdigit()) or len(stripped) > 12:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}")
        value = int(stripped)
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"a whole number from {least:,} to {most:,}, not {value:,}")
        return value

    return parse


def number_in(s: Setting):
    """An argparse type: a finite number within the field's bounds."""
    lo, hi = bounds_of(s.name)

    def parse(text: str) -> float:
        value = positive_number(text) if lo is not None and lo >= 0 else float(text)
        above = lo is None or (value > lo if strict_floor(s.name) else value >= lo)
        if not (above and (hi is None or value <= hi)):
            floor = "" if lo is None else f"{'above' if strict_floor(s.name) else 'from'} {lo:g}"
            raise argparse.ArgumentTypeError(f"a number {floor}{' to ' + format(hi, 'g') if hi else ''}, not {text!r}")
        return value

    return parse


def _help(s: Setting) -> str:
    """The declaration's help, the choices in words where they say more than their ids, and the default."""
    text = s.help
    worded = [c for c in s.choices if c.label and not isinstance(c.value, bool) and c.value is not None
              and c.label != str(getattr(c.value, "value", c.value))]
    if worded and s.name not in ("engine", "lora_targets"):
        text += " (" + "; ".join(f"{getattr(c.value, 'value', c.value)}: {c.label}" for c in worded) + ")"
    if s.name in DEFAULT_JOB:
        return text + "; default: the default job's (below)"
    default = default_of(s.name)
    if default is True:
        return text + "; default: on"
    if "default" in s.help or isinstance(default, bool | tuple):  # said by the help, or off / all
        return text
    if default is None:
        none = s.choice(None)
        words = s.none_means if s.none_means is not None else s.unset or (none.label if none else "")
        return text + (f"; default: {words}" if words != "" else "")
    return f"{text}; default: {getattr(default, 'value', default)}"


def _add(group: argparse._ArgumentGroup, s: Setting) -> None:
    kind, optional = _inner(PlannedJob.model_fields[s.name].annotation)
    kw: dict[str, Any] = {"dest": s.name, "default": None, "help": _help(s)}
    if s.metavar:
        kw["metavar"] = s.metavar
    if s.name in TEXT_FLAGS:
        kw["type"] = TEXT_FLAGS[s.name]
    elif s.name == "offload":
        kw.update(action="append", choices=[c.value.value for c in s.choices])
    elif kind is bool:
        kw["action"] = argparse.BooleanOptionalAction if optional or default_of(s.name) else "store_true"
    elif isinstance(kind, type) and issubclass(kind, Enum):
        kw["choices"] = [m.value for m in kind]
    elif kind is int:
        kw["type"] = whole_in(s)
    elif kind is float:
        kw["type"] = number_in(s)
    group.add_argument(s.flag, **kw)


def add_job_arguments(p: argparse.ArgumentParser) -> None:
    """One option per declared setting with a flag, grouped by section; the default job in the epilog."""
    groups = {section: p.add_argument_group(title) for section, title in GROUPS.items()}
    for s in SETTINGS:
        if s.flag:
            _add(groups[s.section], s)
    p.epilog = textwrap.fill(f"The default job: {default_job_words()}", width=79, break_on_hyphens=False)


def add_workload_arguments(p: argparse.ArgumentParser) -> None:
    """Architecture overrides and the job's flags (shared by ``estimate``, ``advise`` and ``report``)."""
    arch = p.add_argument_group("architecture overrides")
    for flag in ARCH_FLAGS:
        arch.add_argument(f"--{flag.replace('_', '-')}", type=positive_int, metavar="N")
    add_job_arguments(p)


def given_fields(args: argparse.Namespace) -> set[str]:
    """The settings the user gave a flag for."""
    return {s.name for s in SETTINGS if s.flag and getattr(args, s.name, None) not in (None, [])}


def job_fields(args: argparse.Namespace, imported) -> dict[str, Any]:
    """The Job fields the flags give, with what the model file implies where the flags are silent
    (its weight format and, for a .gguf, llama.cpp), each checked and in its canonical spelling."""
    from advisor.core import kv_bytes_per_element, weight_format

    fields: dict[str, Any] = {name: getattr(args, name) for name in given_fields(args)}
    fields.pop("dataset_tokens", None)  # a count or 'chinchilla': read with the model (``dataset_tokens_arg``)
    fields.setdefault("mode", "inference")
    train = fields["mode"] == "train"
    if "weights" in fields:
        try:
            weight_format(fields["weights"], double_quant=bool(fields.get("double_quant")))
        except ValueError as exc:
            raise UsageError(f"--weights: {exc}") from None
        fields["weights"] = fields["weights"].strip().lower()
    elif imported is not None and imported.weight_format and not train:
        fields["weights"] = imported.weight_format
    elif train and fields.get("method") == "qlora":
        fields["weights"] = "nf4"  # QLoRA's base (Dettmers et al. 2023); said, not implied
    if "kv_dtype" in fields:
        try:
            kv_bytes_per_element(fields["kv_dtype"])
        except ValueError as exc:
            raise UsageError(f"--kv-dtype: {exc}") from None
        fields["kv_dtype"] = fields["kv_dtype"].strip().lower()
    if "engine" not in fields and imported is not None and imported.origin == "gguf" and not train:
        fields["engine"] = "llama.cpp"
    if "lora_targets" in fields:
        fields["lora_targets"] = lora_targets_arg(fields["lora_targets"])
    if "offload" in fields:
        fields["offload"] = tuple(dict.fromkeys(fields["offload"]))
    return fields


def refuse_ignored(workload: PlannedJob, given: set[str]) -> None:
    """A UsageError for the first flag given for a setting ``workload`` ignores."""
    from advisor.core import ignored

    problems = ignored(workload, given)
    if problems:
        raise UsageError(f"{FIELD_FLAGS[problems[0].field]}: {problems[0].message}")


def make_workload(fields: dict[str, Any]) -> PlannedJob:
    """The job with the plan fields the flags give (``--gpus``, ``--parallel``, ``--offload``): without hardware
    they are its plan, with a build they become pins (``planned.pins_of``)."""
    from pydantic import ValidationError

    try:
        return PlannedJob(**fields)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        field = str(err["loc"][0]) if err["loc"] else ""
        raise UsageError(f"{FIELD_FLAGS.get(field, field)}: {err['msg']}") from None
