"""The report's running-cost section: each build's cost of use and of ownership, owning against renting,
and a compute-optimal pre-training run (Qt-free). Every figure is read from ``Results.running``, computed
once by the caller under the user's cost settings.
"""

from __future__ import annotations

from advisor.core import (
    ELECTRICITY_SOURCE,
    IDLE_SOURCE,
    BuildResult,
    ChinchillaPlan,
    CostSettings,
    Job,
    Mode,
    RentVsBuy,
    RunningCost,
    RunningCosts,
)
from advisor.report.cells import hours, usd
from advisor.report.document import Bullets, Heading, Paragraph, Table


def running_cost_blocks(running: RunningCosts, builds: tuple[BuildResult, ...], w: Job) -> list:
    """Running cost per build, owning against renting and a pre-training run, under the user's settings."""
    cost = running.settings
    blocks: list = [Heading(text="Running cost"), Paragraph(text=(
        f"Electricity ${cost.electricity_usd_per_kwh:.4g}/kWh, {cost.hours_per_day:g} hours of use a day, "
        f"{cost.years:g} years of ownership. Energy per year = power at load × hours a day × 365 × price per kWh "
        "(the machine off outside the hours of use); an owned build's hour of use costs its energy plus its "
        "price spread over the hours of use while owned; a rented one its hourly rate. Default electricity "
        f"price: {ELECTRICITY_SOURCE}. Idle: {IDLE_SOURCE}."), small=True)]
    blocks.append(_cost_table(running, builds, w))
    blocks += _owning_vs_renting(running.rent_vs_buy, cost)
    if running.chinchilla is not None:
        blocks += _pretraining(running.chinchilla)
    return blocks


def _cost_row(name: str, c: RunningCost, gap: str) -> list[str]:
    if c.price_usd is None:
        price = "no price"
    elif c.rented:
        price = usd(c.price_usd, "/h")
    else:
        price = f"{usd(c.price_usd)} {c.price_kind}"
    if c.price_usd is not None and c.price_date is not None:
        price += f", seen {c.price_date.isoformat()}" + (" (stale)" if c.price_stale else "")
    power = "rented" if c.rented else (
        f"{c.load_w:,.0f} W / {c.idle_w:,.0f} W" if c.load_w is not None and c.idle_w is not None
        else f"{c.load_w:,.0f} W / —" if c.load_w is not None else "not stated")
    per_m = c.usd_per_million_tokens
    return [name, price, power, "—" if c.rented else usd(c.energy_usd_per_year),
            usd(c.usd_per_hour, "/h") if c.usd_per_hour is not None else ("no price" if c.price_usd is None else "—"),
            usd(per_m) if per_m is not None else gap,
            "—" if c.rented else usd(c.tco_usd)]


def _cost_table(running: RunningCosts, builds: tuple[BuildResult, ...], w: Job) -> Table:
    kind = "trained" if w.mode is Mode.TRAIN else "generated"
    with_run = w.mode is Mode.TRAIN and w.dataset_tokens is not None
    rows = []
    for r, c, gap in zip(builds, running.builds, running.gaps, strict=True):
        row = _cost_row(r.name, c, gap)
        if with_run:
            row.append(f"{hours(c.train_hours)}, {usd(c.train_usd)}" if c.train_hours is not None else "—")
        rows.append(tuple(row))
    columns = ["Build", "Price", "Power load / idle", "Energy per year", "Per hour of use",
               f"Per million {kind} tokens", f"Ownership, {running.settings.years:g} years"]
    if with_run:
        columns.append(f"Training run ({w.dataset_tokens / 1e9:,.3g}B tokens × {w.epochs:g})")
    return Table(columns=tuple(columns), rows=tuple(rows))


def _owning_vs_renting(rvb: RentVsBuy, cost: CostSettings) -> list:
    blocks: list = [Heading(text="Owning vs renting", level=2)]
    if rvb.cloud is None or not rvb.rows:
        return [*blocks, Paragraph(text=f"No break-even: {rvb.why_none}.")]
    items = []
    for b in rvb.rows:
        if b.hours is None:
            items.append(f"{b.owned} ({usd(b.price_usd)}) against {rvb.cloud}: {b.verdict}.")
            continue
        days = b.hours / cost.hours_per_day
        items.append(f"{b.owned} ({usd(b.price_usd)}) costs as much as {hours(b.hours)} of {rvb.cloud} "
                     f"({usd(rvb.cloud_usd_per_hour, '/h')}, the cheapest cloud instance here that runs the job): "
                     f"about {days:,.0f} days at {cost.hours_per_day:g} h a day"
                     + (f", within the {cost.years:g} years owned." if days <= cost.years * 365 else
                        f", beyond the {cost.years:g} years owned."))
    return [*blocks, Bullets(items=tuple(items)),
            Paragraph(text="Break-even hours = price / (cloud rate − the owned build's electricity per "
                           "hour); speed differences and resale value are not counted.", small=True)]


def _pretraining(plan: ChinchillaPlan) -> list:
    return [Heading(text="Pre-training compute-optimally", level=2),
            Paragraph(text=(f"{plan.params / 1e9:,.2f}B parameters: {plan.tokens / 1e9:,.0f}B tokens, {plan.flops:.2e} "
                            f"FLOPs ({plan.source}). At each build's estimated training speed:")),
            Bullets(items=tuple(
                f"{row.name}: " + ("speed not estimated" if row.hours is None else
                                   f"{hours(row.hours)}, {row.gpu_days:,.0f} GPU-days, {usd(row.usd)}"
                                   if row.usd is not None else f"{hours(row.hours)}, {row.gpu_days:,.0f} GPU-days, no price")
                for row in plan.rows))]
