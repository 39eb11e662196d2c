"""``estimate``'s ``cost`` section as JSON: the build's price, energy, cost per million tokens and a training
run's hours and cost, and for a compute-optimal pre-training job Chinchilla's run (null where unknown)."""

from __future__ import annotations

from typing import Any


def cost_json(request, est, chosen, settings) -> dict[str, Any]:
    """``cost``: price, energy, $/M tokens and the training run's hours and cost (null where unknown)."""
    import datetime as dt

    from advisor.cli._prices import price_json
    from advisor.core import BuildResult, build_running_cost, money

    catalog = request.catalog
    entry = request.entry
    result = BuildResult(entry=entry, resolved=request.build, estimate=est, chosen=chosen,
                         status=chosen.status if chosen is not None else None,
                         **money(catalog, entry, request.build))
    workload = chosen.planned if chosen is not None else request.workload
    c = build_running_cost(result, workload, settings, dt.date.today())
    return {
        "price_usd": c.price_usd, "price_kind": c.price_kind,
        "price_date": c.price_date.isoformat() if c.price_date else None, "price_stale": c.price_stale,
        "price_note": result.price_note or None,
        "price_includes": result.price.includes if result.price is not None and result.price.usd is not None else None,
        "prices": {"new": price_json(result.price_new), "used": price_json(result.price_used)},
        "power_load_w": c.load_w, "power_idle_w": c.idle_w,
        "energy_usd_per_year": c.energy_usd_per_year, "usd_per_hour": c.usd_per_hour,
        "usd_per_million_tokens": c.usd_per_million_tokens, "tco_usd": c.tco_usd,
        "train_hours": c.train_hours, "train_usd": c.train_usd, "gpu_days": c.gpu_days,
        "settings": settings.model_dump(), "notes": list(c.notes),
        "chinchilla": _chinchilla_json(request, result, workload, settings),
    }


def _chinchilla_json(request, result, workload, settings) -> dict[str, Any] | None:
    """Pre-training (full training): the compute-optimal dataset for this model and what it takes here."""
    import datetime as dt

    from advisor.core import Results, chinchilla_plan

    plan = chinchilla_plan(request.arch, Results((result,), {}, "", None, None), workload, settings, dt.date.today())
    if plan is None:
        return None
    row = plan.rows[0]
    return {"dataset_tokens": plan.tokens, "flops": plan.flops, "train_hours": row.hours, "gpu_days": row.gpu_days,
            "train_usd": row.usd, "source": plan.source}
