"""``llm-advisor advise [MODEL] [job flags] [--budget USD] …``: which builds in the catalog run a
job within a budget, best first (``advisor.core.advice.search``)."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from typing import Any

from advisor.cli._job_args import machine_count, positive_int
from advisor.cli._job_flags import add_workload_arguments

SORTS = ("price", "speed", "value")


def _money(text: str) -> float:
    try:
        value = float(text.replace(",", "").lstrip("$"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an amount in USD, not {text!r}") from None
    if not 0 < value < 1e9:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1,000,000,000 USD, not {text}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "advise", help="find catalog builds that run a job within a budget",
        description="Search every catalog GPU (1 to 8 cards, NVLink where the card takes a bridge), build, "
                    "prebuilt system (or, with --cloud, cloud instance) for those that run the job, best first.")
    p.add_argument("model", nargs="?", metavar="MODEL", help="preset id, config.json, model folder or .gguf file")
    p.add_argument("--params", metavar="N", help="generic dense decoder of N parameters (6.74e9, 6.74B, 70b)")
    add_workload_arguments(p)
    s = p.add_argument_group("search")
    s.add_argument("--budget", type=_money, metavar="USD", help="most you will pay (per hour with --cloud)")
    s.add_argument("--used", action="store_true", help="price cards at used-market prices (new when no used price)")
    s.add_argument("--cloud", action="store_true", help="rent instead: cloud instances, priced per hour")
    s.add_argument("--max-gpus", type=positive_int, default=8, metavar="N", help="at most N GPUs per machine (default 8)")
    s.add_argument("--max-nodes", type=machine_count, metavar="N",
                   help="at most N machines of one system or cloud instance (default: 4 for training, else 1)")
    s.add_argument("--max-power", type=_money, metavar="W", help="at most W watts at load")
    s.add_argument("--sort", choices=SORTS, default="price", help="what matters most (default price)")
    s.add_argument("--top", type=positive_int, default=10, metavar="K", help="show the best K (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=run, gpu=None, build=None)


def _gib(n: float | None) -> float | None:
    return None if n is None else round(n / 2**30, 3)


def candidate_json(found) -> dict[str, Any]:
    c, first = found.candidate, found.planned[0]
    speed, fit = first.estimate.speed, first.estimate.fit
    return {
        "id": c.id, "name": c.name, "kind": c.kind, "gpus": [g.id for g in c.build.gpus],
        "plan": found.plans_text[0], "plans": list(found.plans_text), "fits": True, "status": first.status.value,
        "per_gpu_gib": _gib(fit.need_per_gpu_bytes), "usable_per_gpu_gib": _gib(fit.usable_per_gpu_bytes),
        "decode_tokens_per_s": speed.decode_tokens_per_s, "prefill_tokens_per_s": speed.prefill_tokens_per_s,
        "train_tokens_per_s": speed.train_tokens_per_s, "price_usd": c.price_usd,
        "price_kind": c.price_kind if c.price_kind != "owned" else None,
        "price_date": c.price_date.isoformat() if c.price_date else None, "power_w": c.power_w,
        "price_stale": _stale(c), "nodes": c.build.nodes, **_run_cost(found),
        "reasons": list(found.reasons) + ([] if c.price_usd is not None else ["no price"]),
    }


def _run_cost(found) -> dict[str, float | None]:
    """A training run on this candidate (``--dataset-tokens``): hours and cost, rented (per hour ×
    machines) or owned (energy plus the price spread over its hours of use; issue 18's rule)."""
    from advisor.core.cost.running import train_hours, train_usd

    c, first = found.candidate, found.planned[0]
    w = first.workload
    hours = train_hours(w.dataset_tokens, w.epochs, first.estimate.speed.train_tokens_per_s)
    if c.price_kind == "per_hour":
        usd = train_usd(hours, cloud_usd_per_hour=c.price_usd)
    else:
        usd = train_usd(hours, price_usd=c.price_usd, load_w=c.power_w)
    return {"train_hours": hours, "train_usd": usd}


def _stale(c) -> bool:
    """A price older than a year (issue 18): shown with its date and 'stale'."""
    import datetime as dt

    from advisor.core.cost.running import is_stale

    return c.price_usd is not None and is_stale(c.price_date, dt.date.today())


def _text(result, request) -> str:
    if not result.ranked:
        return "No build in the catalog runs this job within the limits.\n" + "\n".join(
            f"  - {a}" for a in result.assumptions)
    lines = []
    for i, f in enumerate(result.ranked, 1):
        c, d = f.candidate, candidate_json(f)
        rate = d["train_tokens_per_s"] or d["decode_tokens_per_s"]
        per = "/h" if c.price_kind == "per_hour" else ""
        when = f"{c.price_date}, stale" if _stale(c) else f"{c.price_date}"
        price = f"${c.price_usd:,.0f}{per} {c.price_kind} ({when})" if c.price_usd is not None else "no price"
        speed = f"{rate:,.1f} tokens/s" if rate is not None else "speed not estimated"  # reasons say why
        lines.append(f"{i:>2}. {c.name}: {price}; {speed}; {d['per_gpu_gib']:.1f} of "
                     f"{d['usable_per_gpu_gib']:.1f} GiB per GPU")
        lines.append(f"    plan: {f.plans_text[0]}" + (f"; {'; '.join(f.reasons)}" if f.reasons else ""))
        if d["train_hours"] is not None:
            usd = "cost not known" if d["train_usd"] is None else f"${d['train_usd']:,.0f}"
            lines.append(f"    training run: {d['train_hours']:,.1f} h, {usd}")
    lines += ["", "Assumptions"] + [f"  - {a}" for a in result.assumptions]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from advisor.cli.estimate import _check, build_request
    from advisor.core.advice.candidates import PriceChoice, Where
    from advisor.core.advice.ranking import Criterion
    from advisor.core.advice.search import Job, SearchRequest, search
    from advisor.core.job.plan import job_of
    from advisor.storage.catalog_store import load_catalog
    from advisor.storage.error_bands import median_pct

    catalog = load_catalog(migrate_user_files=False).catalog  # read once: the model preset and the search
    request = build_request(args, catalog)
    job = job_of(request.workload)
    _check(request.__class__(request.arch, job, None, request.imported, None, request.notes))
    search_request = SearchRequest(
        budget_usd=args.budget, price=PriceChoice.EITHER if args.used else PriceChoice.NEW,
        where=Where.CLOUD if args.cloud else Where.OWNED, max_gpus=args.max_gpus, max_nodes=args.max_nodes,
        max_power_w=args.max_power,
        sort=Criterion(args.sort), top=args.top)
    band = median_pct(job)
    result = search(catalog, (Job(arch=request.arch, workload=job),), search_request, today=dt.date.today(),
                     margin=band / 100 if band is not None else 0.0)
    assumptions = list(request.notes) + list(result.assumptions)
    if args.used:
        assumptions.append("--used: each card at the lower of its used-market and new price (dated above)")
    if args.budget is None:
        assumptions.append("no --budget: every price; candidates without a price come last")
    if args.json:
        print(json.dumps({"candidates": [candidate_json(f) for f in result.ranked], "assumptions": assumptions},
                         indent=2))
    else:
        print(_text(result, search_request))
    return 0
