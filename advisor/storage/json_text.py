"""JSON text to Python values for every reader of the user's files: one error type, one line.

``json.loads`` raises more than ``JSONDecodeError``: an integer of over 4,300 digits is a plain
``ValueError`` (Python's limit on int-from-string conversion, ``sys.set_int_max_str_digits``,
CPython 3.11+), and nesting deep enough a ``RecursionError``. A reader that caught only the first
printed a traceback, or Python's own advice to raise the limit. ``loads`` turns every way the text
can fail into ``JSONTextError`` whose message is one line a user can act on.

pydantic-core's parser goes first (2-3x faster than ``json.loads``, and it refuses nesting deeper
than 200); whatever it refuses goes to ``json.loads``, so valid JSON that only pydantic-core
refuses (a lone surrogate escape) still reads, and an error's line and column are ``json``'s.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic_core import from_json

_DIGITS = re.compile(r"[0-9]+")  # linear: each run of digits matched once

#: CPython's default ``sys.get_int_max_str_digits()`` (docs: "Integer string conversion length limitation").
INT_MAX_DIGITS = 4_300


class JSONTextError(ValueError):
    """The text is not JSON this app reads; ``str(exc)`` is one line (no path: the caller adds it)."""


def loads(text: str | bytes) -> Any:
    """The JSON value of ``text`` (bytes must be UTF-8); every failure is ``JSONTextError``."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONTextError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        return from_json(text)
    except ValueError:
        pass
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JSONTextError(f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise JSONTextError("JSON nested too deeply") from None
    except ValueError as exc:  # an integer past the int-from-string limit (the only other ValueError)
        raise JSONTextError(_number_message(text, exc)) from None


def _number_message(text: str, exc: ValueError) -> str:
    if "digits" not in str(exc):
        return f"not JSON ({str(exc).splitlines()[0][:120] if str(exc) else 'unreadable'})"
    line, column = _first_long_number(text)
    return (f"not JSON (line {line}, column {column}: a number of over {INT_MAX_DIGITS:,} digits; "
            "no value in these files is near that long)")


def _first_long_number(text: str) -> tuple[int, int]:
    """Line and column (1-based) of the first run of over ``INT_MAX_DIGITS`` digits."""
    start = next((m.start() for m in _DIGITS.finditer(text) if m.end() - m.start() > INT_MAX_DIGITS), 0)
    line = text.count("\n", 0, start) + 1
    return line, start - (text.rfind("\n", 0, start) + 1) + 1
