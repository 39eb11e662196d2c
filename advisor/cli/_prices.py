"""A machine's price as the CLI's JSON says it (``advise`` and ``estimate`` alike)."""

from __future__ import annotations

from typing import Any


def price_json(price) -> dict[str, Any] | None:
    """A machine's price as the JSON says it: amount, kind, date, what it includes, how stale."""
    if price is None:
        return None
    return {"usd": price.usd, "kind": price.kind_words if price.usd is not None else None,
            "date": price.date.isoformat() if price.date else None, "stale": price.stale,
            "uncertainty": round(price.uncertainty, 3), "includes": price.includes, "platform": price.platform,
            "missing": list(price.missing), "sources": list(price.sources)}
