"""``llm-advisor advise [MODEL] [job flags] [--budget USD] …``: which builds in the catalog run a
job within a budget, best first (``advisor.core.advice.catalog_search``)."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from typing import Any

from advisor.cli._job_args import (
    MAC_GPU_LIMIT_HELP,
    gpu_memory_limit,
    machine_count,
    positive_int,
)
from advisor.cli._job_flags import add_workload_arguments
from advisor.cli._prices import price_json

SORTS = ("best", "price", "speed", "value")


def _amount(text: str, unit: str, least: float) -> float:
    try:
        value = float(text.replace(",", "").lstrip("$"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an amount in {unit}, not {text!r}") from None
    if not least <= value < 1e9:
        raise argparse.ArgumentTypeError(f"must be from {least:g} to 1,000,000,000 {unit}, not {text}")
    return value


def _money(text: str) -> float:
    """A budget: from a cent (an hourly budget with --cloud) to a billion dollars."""
    return _amount(text, "USD", 0.01)


def _watts(text: str) -> float:
    """A power limit: from 1 W (no GPU draws less) up."""
    return _amount(text, "W", 1.0)


def _tokens_per_s(text: str) -> float:
    """A speed floor: from a hundredth of a token a second up."""
    return _amount(text, "tokens/s", 0.01)


def _hours(text: str) -> float:
    """A training run's time limit: from a hundredth of an hour (36 s) up."""
    return _amount(text, "hours", 0.01)


def _gpus_per_machine(text: str) -> int:
    from advisor.core import MAX_GPUS_PER_MACHINE

    value = positive_int(text)
    if value > MAX_GPUS_PER_MACHINE:  # no machine holds more (the search's builds would not validate)
        raise argparse.ArgumentTypeError(f"a whole number from 1 to {MAX_GPUS_PER_MACHINE}, not {value}")
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
    s.add_argument("--max-gpus", type=_gpus_per_machine, default=8, metavar="N", help="at most N GPUs per machine (default 8)")
    s.add_argument("--max-nodes", type=machine_count, metavar="N",
                   help="at most N machines of one system or cloud instance (default: 4 for training, else 1)")
    s.add_argument("--max-power", type=_watts, metavar="W", help="at most W watts at load")
    s.add_argument("--min-speed", type=_tokens_per_s, metavar="TOK/S", default=None,
                   help="usable speed of an inference job: generated tokens/s per sequence (default 5.3, reading "
                        "speed)")
    s.add_argument("--mac-gpu-limit", type=gpu_memory_limit, metavar="GIB", dest="macs_gpu_limit",
                   help=MAC_GPU_LIMIT_HELP + "; applied to every Mac offered")
    s.add_argument("--max-hours", type=_hours, metavar="H",
                   help="usable speed of a training job: the run (--dataset-tokens) ends within H hours")
    s.add_argument("--sort", choices=SORTS, default="best",
                   help="best: the most speed for the money among machines at a usable speed (default); "
                        "price, speed or value (price per token/s) alone")
    s.add_argument("--top", type=positive_int, default=10, metavar="K", help="show the best K (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=run, gpu=None, build=None)


def _gib(n: float | None) -> float | None:
    return None if n is None else round(n / 2**30, 3)


def candidate_json(found) -> dict[str, Any]:
    c, first = found.candidate, found.chosen[0]
    speed, fit = first.estimate.speed, first.estimate.fit
    return {
        "id": c.id, "name": c.name, "kind": c.kind, "gpus": [g.id for g in c.build.gpus],
        "plan": found.plans_text[0], "plans": list(found.plans_text), "fits": True, "status": first.status.value,
        "per_gpu_gib": _gib(fit.need_per_gpu_bytes), "usable_per_gpu_gib": _gib(fit.usable_per_gpu_bytes),
        "host_ram_gib": c.build.host_ram_gib,
        "decode_tokens_per_s": speed.decode_tokens_per_s, "prefill_tokens_per_s": speed.prefill_tokens_per_s,
        "train_tokens_per_s": speed.train_tokens_per_s, "price_usd": c.price_usd,
        "price_kind": c.price_kind if c.price_kind != "owned" else None,
        "price_date": c.price_date.isoformat() if c.price_date else None,
        "price_includes": c.price.includes if c.price is not None else "already yours",
        "price": price_json(c.price), "power_w": c.power_w,
        "price_stale": _stale(c), "nodes": c.build.nodes, **_run_cost(found),
        "usable": found.usable, "not_usable_because": found.unusable,
        "speed_basis": [b.words for b in found.basis], "speed_calibrated": found.calibrated,
        "speed_for_ranking": found.rank_speed,
        "folded": [{"id": f.candidate.id, "name": f.candidate.name, "price_usd": f.candidate.price_usd,
                    "speed": f.speed_score} for f in found.folded],
        "reasons": list(found.reasons) + ([] if c.price_usd is not None else ["no price"]),
    }


def _run_cost(found) -> dict[str, float | None]:
    """A training run on this candidate (``--dataset-tokens``): hours and cost, rented (per hour ×
    machines) or owned (energy plus the price spread over its hours of use, as ``advisor.core.cost.running`` rules)."""
    from advisor.core import train_hours, train_usd

    c, first = found.candidate, found.chosen[0]
    w = first.planned
    hours = train_hours(w.dataset_tokens, w.epochs, first.estimate.speed.train_tokens_per_s)
    if c.price_kind == "per_hour":
        usd = train_usd(hours, cloud_usd_per_hour=c.price_usd)
    else:
        usd = train_usd(hours, price_usd=c.price_usd, load_w=c.power_w)
    return {"train_hours": hours, "train_usd": usd}


def _stale(c) -> bool:
    """A price partly older than a year: shown with its date and 'over a year old'."""
    return c.price is not None and c.price.usd is not None and c.price.stale


def _price_text(c) -> str:
    from advisor.core import price_words

    return "already yours" if c.price is None else price_words(c.price)


def _speed_text(f, d) -> str:
    rate = d["train_tokens_per_s"] or d["decode_tokens_per_s"]
    if rate is None:
        return "speed not estimated"  # the reasons say why
    basis = "" if f.calibrated else " (extrapolated)"
    return f"{rate:,.1f} tokens/s{basis}"


def _text(result, request) -> str:
    if not result.ranked:
        return "No build in the catalog runs this job within the limits.\n" + "\n".join(
            f"  - {a}" for a in result.assumptions)
    lines = []
    for i, f in enumerate(result.ranked, 1):
        c, d = f.candidate, candidate_json(f)
        slow = "" if f.usable else f" — below a usable speed: {f.unusable}"
        lines.append(f"{i:>2}. {c.name}: {_price_text(c)}; {_speed_text(f, d)}{slow}")
        if c.price is not None and c.price.includes:
            lines.append(f"    price: {c.price.includes}")
        lines.append(f"    plan: {f.plans_text[0]}; {d['per_gpu_gib']:.1f} of {d['usable_per_gpu_gib']:.1f} GiB per GPU"
                     + (f"; {'; '.join(f.reasons)}" if f.reasons else ""))
        lines.append(f"    speed: {'; '.join(d['speed_basis'])}")
        if d["train_hours"] is not None:
            usd = "cost not known" if d["train_usd"] is None else f"${d['train_usd']:,.0f}"
            lines.append(f"    training run: {d['train_hours']:,.1f} h, {usd}")
        if f.folded:
            names = ", ".join(f"{g.candidate.name} ({_price_text(g.candidate)})" for g in f.folded[:4])
            more = f" and {len(f.folded) - 4} more" if len(f.folded) > 4 else ""
            lines.append(f"    no better, folded under it: {names}{more}")
    lines += ["", "Assumptions"] + [f"  - {a}" for a in result.assumptions]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from advisor.cli.estimate import _check, build_request
    from advisor.core import Criterion, ModelJob, PriceChoice, SearchRequest, Where, job_of, search
    from advisor.storage.catalog_store import load_catalog
    from advisor.storage.error_bands import (
        extrapolated_band_pct,
        median_pct,
        speed_basis_table,
    )

    catalog = load_catalog(migrate_user_files=False).catalog  # read once: the model preset and the search
    request = build_request(args, catalog)
    job = job_of(request.workload)
    _check(request.__class__(request.arch, job, None, request.imported, None, request.notes))
    search_request = SearchRequest(
        budget_usd=args.budget, price=PriceChoice.EITHER if args.used else PriceChoice.NEW,
        where=Where.CLOUD if args.cloud else Where.OWNED, max_gpus=args.max_gpus, max_nodes=args.max_nodes,
        max_power_w=args.max_power, max_hours=args.max_hours, gpu_memory_limit_gib=args.macs_gpu_limit,
        sort=Criterion(args.sort), top=args.top, **({} if args.min_speed is None else {"min_tokens_per_s": args.min_speed}))
    band = median_pct(job)
    result = search(catalog, (ModelJob(arch=request.arch, job=job),), search_request, today=dt.date.today(),
                     margin=band / 100 if band is not None else 0.0, basis_table=speed_basis_table(),
                     fallback_band_pct=extrapolated_band_pct())
    assumptions = list(request.notes) + list(result.assumptions)
    if args.used:
        assumptions.append("--used: each part at the lower of its used-market and new price (dated above)")
    if args.budget is None:
        assumptions.append("no --budget: every price; candidates without a price come last")
    if args.json:
        print(json.dumps({"candidates": [candidate_json(f) for f in result.ranked], "assumptions": assumptions},
                         indent=2))
    else:
        print(_text(result, search_request))
    return 0
