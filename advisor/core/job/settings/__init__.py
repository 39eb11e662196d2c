"""Each job setting declared once, and where it applies.

``SETTINGS`` lists every ``Job`` field, and every part of a build's plan a user may pin (``PlanPins``),
with its flag, label, help, unit, control and choices (``declare.Setting``); the command line's options, the window's fields and their enabled states, the
tooltips and the PDF's job table are built from it. ``applies`` and ``why_not`` read its ``Where``.
A new setting: a field on ``Job`` (type, default, bounds), one declaration in the module of its
section here, and its formula.

May import: ``advisor.core.job`` (the model and the framework profiles).
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.job.choices import Mode
from advisor.core.job.frameworks import apply_framework
from advisor.core.job.job import Job
from advisor.core.job.settings import framework, inference, plan, task, training
from advisor.core.job.settings.declare import (
    Choice,
    Section,
    Setting,
    Where,
    Widget,
    bounds_of,
    default_of,
    whole_bounds,
)

__all__ = ["SETTINGS", "Choice", "Reason", "Section", "Setting", "Where", "Widget", "applies", "bounds_of",
           "by_flag", "choice_label", "default_of", "reason_words", "setting", "whole_bounds",
           "why_not"]

SETTINGS: tuple[Setting, ...] = (*task.SETTINGS, *inference.SETTINGS, *training.SETTINGS, *framework.SETTINGS,
                                 *plan.SETTINGS)
_BY_NAME = {s.name: s for s in SETTINGS}
_BY_FLAG = {s.flag: s for s in SETTINGS if s.flag}


def setting(name: str) -> Setting:
    """The declaration of the ``Job`` field (or plan pin) ``name`` (KeyError for a name that is not one)."""
    return _BY_NAME[name]


def by_flag(flag: str) -> Setting | None:
    """The setting a command-line flag sets ('--context' → context_len), None for another flag."""
    return _BY_FLAG.get(flag)


def choice_label(name: str, value: object) -> str:
    """A value of a setting in its declared words ('amp' → 'mixed precision'); the value itself
    where the declaration gives no words for it (a number, a typed weight format)."""
    c = _BY_NAME[name].choice(value) if name in _BY_NAME else None
    if c is not None and c.label:
        return c.label
    return str(getattr(value, "value", value))


@dataclass(frozen=True)
class Reason:
    """Why a setting does not apply: the setting it depends on and the values under which it would."""

    name: str  # 'mode', 'method', 'engine', 'framework' or a ``Where.when`` setting
    values: tuple[object, ...]


def why_not(s: Setting, job: Job) -> Reason | None:
    """The first condition of ``s.where`` that ``job`` misses (None: the setting applies). ``when`` is read
    after the framework's defaults (a framework's chunked loss makes the chunk count apply)."""
    w = s.where
    if w.modes and job.mode not in w.modes:
        return Reason("mode", w.modes)
    training = job.mode is Mode.TRAIN
    if training and w.methods and job.method not in w.methods:
        return Reason("method", w.methods)
    if not training and w.engines and job.engine not in w.engines:
        return Reason("engine", w.engines)
    if training and w.frameworks and job.framework not in w.frameworks:
        return Reason("framework", w.frameworks)
    effective = apply_framework(job) if w.when else job
    for name, values in w.when:
        if not _among(getattr(effective, name), values):
            return Reason(name, values)
    return None


def applies(s: Setting | str, job: Job) -> bool:
    """Whether setting ``s`` (or the setting of that name) means anything for ``job``."""
    return why_not(_BY_NAME[s] if isinstance(s, str) else s, job) is None


def _among(value: object, values: tuple[object, ...]) -> bool:
    if isinstance(value, str) and not hasattr(value, "value"):  # a weight format: any case, spaces around
        return value.strip().lower() in values
    return value in values


def reason_words(reason: Reason, flags: bool = False) -> str:
    """Why not, in the window's and the PDF's words ('applies only to fine-tuning', 'applies only with
    objective set to DPO (preferences)'); with ``flags``, as the command line says it ('only applies to
    --objective dpo')."""
    s = _BY_NAME[reason.name]
    if flags:
        return f"only applies to {s.flag} {_or([str(getattr(v, 'value', v)) for v in reason.values])}"
    values = _or([choice_label(reason.name, v) if (c := s.choice(v)) is not None and c.label else str(v).upper()
                  for v in reason.values])
    if reason.name == "mode":
        return f"applies only to {values}"
    if reason.name in ("method", "engine", "framework"):
        return f"applies only with {values}"
    return f"applies only with {s.label.lower()} set to {values}"


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
