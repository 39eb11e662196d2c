"""Memos by identity for the core's hot paths: the last argument's result, or results held by objects.

Keyed by identity, not by value, so a lookup hashes no model, build or job."""

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
        self._last: tuple[A, R] | None = None

    def __call__(self, arg: A) -> R:
        last = self._last
        if last is not None and last[0] is arg:
            return last[1]
        result = self._fn(arg)
        self._last = (arg, result)
        return result

    def clear(self) -> None:
        """Forget the kept pair (a cold start: tests, benchmarks)."""
        self._last = None


class HeldById(Generic[R]):
    """Results kept by the identities of the objects they were computed from (a model, a build, a job), with a
    hashable ``extra`` for the rest of the key: a lookup hashes no model. The objects are held beside each
    result, so an id is never taken for that of another object made since; at most ``size`` results, all
    forgotten when it is reached. Results are never None (``get``'s answer for "not kept")."""

    def __init__(self, size: int):
        self.size = size
        self._kept: dict[tuple[object, ...], tuple[tuple[object, ...], R]] = {}

    def get(self, objs: tuple[object, ...], extra: object = None) -> R | None:
        if len(objs) == 1:  # the usual case, on hot paths: one object, no iterator
            obj = objs[0]
            got = self._kept.get((id(obj), extra))
            return got[1] if got is not None and got[0][0] is obj else None
        got = self._kept.get((*map(id, objs), extra))
        if got is None:
            return None
        for held, obj in zip(got[0], objs, strict=True):
            if held is not obj:
                return None
        return got[1]

    def put(self, objs: tuple[object, ...], extra: object, result: R) -> R:
        if len(self._kept) >= self.size:
            self._kept.clear()
        self._kept[(id(objs[0]), extra) if len(objs) == 1 else (*map(id, objs), extra)] = (objs, result)
        return result

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)
