"""One-entry memo by identity, for the core's hot paths (issue 20)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Generic, TypeVar

A = TypeVar("A")
R = TypeVar("R")


class KeepLast(Generic[A, R]):
    """``fn(arg)``, with the last argument (by identity) and its result kept: a pass asks for the same
    object many times in a row (the fit sweep's workload on 21 model sizes, every build of a pass the
    same job). One tuple, read and replaced whole: safe across threads."""

    def __init__(self, fn: Callable[[A], R]):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._last: tuple[object, R | None] = (None, None)

    def __call__(self, arg: A) -> R:
        last = self._last
        if last[0] is arg:
            return last[1]  # type: ignore[return-value]
        result = self._fn(arg)
        self._last = (arg, result)
        return result

    def clear(self) -> None:
        """Forget the kept pair (a cold start: tests, benchmarks)."""
        self._last = (None, None)
