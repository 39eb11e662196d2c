"""How the report writes a size, a price and a duration in a cell (Qt-free)."""

from __future__ import annotations

from advisor.core import GB, GIB, format_usd


def gib(n_bytes: float | None, unit: str = "GiB") -> str:
    if n_bytes is None:
        return "unknown"
    return f"{n_bytes / (GIB if unit == 'GiB' else GB):,.1f} {unit}"


def usd(value: float | None, per: str = "") -> str:
    if value is None:
        return "unknown"
    return format_usd(value) + per


def hours(h: float | None) -> str:
    if h is None:
        return "—"
    return f"{h:,.0f} h" if h >= 10 else f"{h:,.1f} h"
