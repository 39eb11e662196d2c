"""The shape of one job setting's declaration, and what is read from the ``Job`` field (or, for a setting of
each build's plan, the ``PlanPins`` field) itself.

A declaration says what the model cannot: the flag a user types, the label and help a buyer reads,
the unit, the kind of control that edits it, the words for each choice, and where the setting
applies. The value's type, default and bounds stay on the pydantic field and are read from it here
(``default_of``, ``bounds_of``), never restated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

from pydantic.fields import FieldInfo

from advisor.core.job.choices import Engine, Framework, Method, Mode
from advisor.core.job.planned import PlannedJob


class Widget(StrEnum):
    """The kind of control that edits a setting in the window."""

    CHOICE = "choice"  # a list of the declared choices
    OPEN_CHOICE = "open-choice"  # a list that also takes a typed value (weight formats, KV cache types)
    WHOLE = "whole"  # a whole number
    DECIMAL = "decimal"  # a number with decimals
    SWITCH = "switch"  # a check box
    TARGETS = "targets"  # one check box per choice; the value is the tuple of those ticked
    PLAN = "plan"  # set per build, in its plan (the builds table's Plan column and Plan… dialog)


class Section(StrEnum):
    """Where a setting sits: the window's group boxes and the command line's option groups."""

    TASK = "Task"
    INFERENCE = "Inference"
    TRAINING = "Fine-tuning"
    TRAINING_RUN = "Training run"
    FRAMEWORK = "Framework and memory options"
    PLAN = "GPUs and parallelism"


@dataclass(frozen=True)
class Choice:
    """One value a setting takes, in a buyer's words; ``tip`` says more where the words cannot."""

    value: object
    label: str
    tip: str = ""


@dataclass(frozen=True)
class Where:
    """Where a setting applies; an empty tuple puts no limit.

    ``methods`` and ``frameworks`` limit training jobs only, ``engines`` inference jobs only.
    ``when`` names other settings and the values they must have (read after the framework's
    defaults are applied: the loss a framework picks counts as the job's)."""

    modes: tuple[Mode, ...] = ()
    methods: tuple[Method, ...] = ()
    engines: tuple[Engine, ...] = ()
    frameworks: tuple[Framework, ...] = ()
    when: tuple[tuple[str, tuple[object, ...]], ...] = ()


EVERYWHERE = Where()


@dataclass(frozen=True)
class Setting:
    """One job setting, declared once; the CLI, the window, the tooltips and the PDF are built from it.

    ``flag`` and a ``widget`` other than PLAN are what a user sets it with; ``exempt`` says why one of
    them is missing (a test holds every ``Job`` field to a flag and a control, or a reason). A setting of each
    build's plan (``Widget.PLAN``) names a ``PlanPins`` field: its flag pins that part of every build's plan."""

    name: str  # the Job field, or the PlanPins field of a plan setting
    label: str  # what the window's control and the PDF's job table call it
    help: str  # one line: the command line's help and the start of the window's tooltip
    section: Section
    widget: Widget
    flag: str | None = None
    tip: str = ""  # the window's fuller explanation with its sources
    unit: str = ""  # what the number counts ('tokens', 'sequences')
    choices: tuple[Choice, ...] = ()
    where: Where = EVERYWHERE
    train_label: str = ""  # the label in a training job, where it differs
    metavar: str = ""
    step: float = 1
    scale: float = 1  # the control shows value / scale ('M tokens': 1e6)
    decimals: int = 0
    unset: str = ""  # the words for None, where None is a value the control offers
    none_means: object = None  # the value None stands for, where it stands for one (a LoRA rank of 16)
    resets: bool = False  # back to its default when it stops applying (a switch of mode, method, engine …)
    brief: bool = False  # always a row of the PDF's job table where it applies (others: when not default)
    exempt: str = ""
    aliases: tuple[str, ...] = field(default=())  # other values the command line takes for a choice

    @property
    def pin(self) -> bool:
        """Set per build, as a pin of its plan (``PlanPins``), not on the job."""
        return self.widget is Widget.PLAN

    @property
    def tooltip(self) -> str:
        return self.tip or self.help

    def label_in(self, mode: Mode) -> str:
        return self.train_label if mode is Mode.TRAIN and self.train_label else self.label

    def choice(self, value: object) -> Choice | None:
        value = getattr(value, "value", value)
        return next((c for c in self.choices if getattr(c.value, "value", c.value) == value), None)


def field_of(name: str) -> FieldInfo:
    """The pydantic field a setting names: the ``Job``'s, or for a setting of the plan the ``PlannedJob``'s (its
    default is what a plan starts from: one GPU, no scheme, nothing offloaded; ``PlanPins`` has its bounds)."""
    return PlannedJob.model_fields[name]


def default_of(name: str) -> object:
    """The field's default, as pydantic declares it."""
    return field_of(name).get_default(call_default_factory=True)


def bounds_of(name: str) -> tuple[float | None, float | None]:
    """(least, most) the field accepts, read from its ``ge``/``gt``/``le``/``lt`` constraints
    (a strict bound is returned as itself: the control steps above it); None where it states none."""
    lo = hi = None
    for c in field_of(name).metadata:  # annotated_types' Ge, Gt, Le, Lt: one attribute each
        for attr in ("ge", "gt"):
            if getattr(c, attr, None) is not None:
                lo = float(getattr(c, attr))
        for attr in ("le", "lt"):
            if getattr(c, attr, None) is not None:
                hi = float(getattr(c, attr))
    return lo, hi


def strict_floor(name: str) -> bool:
    """Whether the least bound is strict (``gt``): the value must stay above it."""
    return any(getattr(c, "gt", None) is not None for c in field_of(name).metadata)


def whole_bounds(name: str) -> tuple[int, int]:
    """The least and most whole number the field takes (2**31 - 1 where it states no most: what a
    control and a 32-bit spin box hold)."""
    lo, hi = bounds_of(name)
    least = 0 if lo is None else math.floor(lo) + (1 if strict_floor(name) else 0)
    return least, int(min(hi, 2**31 - 1)) if hi is not None else 2**31 - 1
