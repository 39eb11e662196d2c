"""The core's and the validators' words, said in the window's words (Qt-free).

The core names workload fields and CLI flags (``n_gpus: … (--gpus)``, ``use --method qlora
or lora``) because the CLI is where a user types them; the window has labelled controls
instead. Here each field name becomes the label the user sees and each flag the control
that sets it, both from the setting's declaration (``advisor.core.job.settings``). The CLI keeps
its own wording: nothing here changes the core.
"""

from __future__ import annotations

#: Where the window says a flag phrase its own way (the control to use), before the core's words for the
#: others (``job_checks.FLAG_PHRASES``).
_PHRASES: tuple[tuple[str, str], ...] = (
    ("(--gpus)", "(right-click the build ▸ Plan… to set its GPUs)"),
)


def label(field: str) -> str:
    """The label of the control that edits a workload field (its declaration's: ``core.job.settings``); a
    plan setting says it is the build's plan; another name in words."""
    from advisor.core import Widget, setting  # noqa: PLC0415 - the core loads after the first paint

    try:
        s = setting(field)
    except KeyError:
        return field.replace("_", " ").capitalize()
    return f"{s.label} (the build's plan)" if s.widget is Widget.PLAN else s.label


def flag_label(name: str) -> str:
    """The label of the control a CLI flag's setting has ("gpus" → "GPUs used (the build's plan)")."""
    from advisor.core import by_flag  # noqa: PLC0415 - the core loads after the first paint

    s = by_flag(f"--{name}")
    return label(s.name) if s is not None else name.replace("-", " ").capitalize()


def without_flags(message: str) -> str:
    """A core message with every CLI flag named as the control that sets it."""
    from advisor.core import flags_said  # noqa: PLC0415 - the core loads after the first paint

    for flag_text, words in _PHRASES:
        message = message.replace(flag_text, words)
    return flags_said(message, flag_label)


def problem(line: str) -> str:
    """One ``field: message`` line of ``check_planned`` as the window says it."""
    field, sep, message = line.partition(": ")
    from advisor.core import PlannedJob  # noqa: PLC0415 - the core loads after the first paint

    if sep and field in PlannedJob.model_fields:
        return f"{label(field)}: {without_flags(message)}"
    return without_flags(line)


def problem_message(line: str) -> str:
    """The message alone, without the field it is about (for a cell that has little room)."""
    from advisor.core import message_of  # noqa: PLC0415 - the core loads after the first paint

    return without_flags(message_of(line, flags=True))


_PYDANTIC: dict[str, str] = {
    "greater_than": "must be more than {gt}",
    "greater_than_equal": "must be at least {ge}",
    "less_than": "must be less than {lt}",
    "less_than_equal": "must be at most {le}",
    "int_parsing": "must be a whole number",
    "float_parsing": "must be a number",
    "enum": "must be one of the listed choices",
    "literal_error": "must be one of the listed choices",
    "string_too_short": "cannot be empty",
    "missing": "is needed",
}


def validation_sentence(error: dict) -> str:
    """One pydantic error (``ValidationError.errors()[i]``) as a sentence about the control."""
    loc = [str(p) for p in error.get("loc", ()) if not isinstance(p, int)]
    what = label(loc[0]) if loc else "This value"
    ctx = {k: f"{v:,g}" if isinstance(v, (int, float)) else v for k, v in (error.get("ctx") or {}).items()}
    template = _PYDANTIC.get(error.get("type", ""))
    if template is not None:
        try:
            return f"{what} {template.format(**ctx)}; the previous value is kept."
        except (KeyError, IndexError):
            pass
    return f"{what} cannot take that value; the previous value is kept."
