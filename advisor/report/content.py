"""What the PDF says (Qt-free): the comparison's results turned into a ``ReportDocument``.

It reads the same ``Results`` the window shows (one computation, ``advisor.core.advice.evaluate``),
so the screen and the paper carry the same numbers. Every price carries its date, every
build its catalog sources, and the recommendation is derived from the numbers alone.
"""

from __future__ import annotations

import datetime as dt
import re

from advisor import APP_NAME, __version__
from advisor.core.advice.comparison import Comparison
from advisor.core.advice.evaluate import BuildResult, Results
from advisor.core.advice.formulas import formulas
from advisor.core.advice.recommend import recommendation
from advisor.core.cost.machine import price_words
from advisor.core.cost.running import (
    ELECTRICITY_SOURCE,
    IDLE_SOURCE,
    CostSettings,
)
from advisor.core.estimate.job_checks import message_of
from advisor.core.estimate.job_words import job_rows, say
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.engine_versions import as_run
from advisor.core.job.workload import Mode, Workload
from advisor.core.memory.inference import base_format_name
from advisor.core.memory.results import MEMORY_TERMS, term_label
from advisor.core.model.arch import ModelArch
from advisor.core.speed.scores import unfused_reason
from advisor.core.units import GB, GIB, format_usd
from advisor.core.units import format_params as fmt_params
from advisor.report.document import (
    Bullets,
    Chart,
    Heading,
    Paragraph,
    ReportDocument,
    Table,
    builds_title,
    report_title,
)
from advisor.storage.error_bands import speed_basis

CHARTS = (("fit", "Fit: a whole model's memory by size; each build's line where its largest model meets the job's curve"),
          ("memory", "Memory per GPU by term, against capacity"),
          ("speed", "Speed, with the share lost to GPU-to-GPU traffic"),
          ("value", "Value: price against capability, and running cost per million tokens"))


def _gib(n_bytes: float | None, unit: str = "GiB") -> str:
    if n_bytes is None:
        return "unknown"
    return f"{n_bytes / (GIB if unit == 'GiB' else GB):,.1f} {unit}"


def _usd(value: float | None, per: str = "") -> str:
    if value is None:
        return "unknown"
    return format_usd(value) + per


def workload_rows(arch: ModelArch, w: Workload, params_total: float | None) -> tuple[tuple[str, str], ...]:
    """The model, then every setting that matters for this job in its declared words (``job_words.job_rows``,
    as the command line prints it), then what the estimate made of them where a setting alone does not say it
    (a TensorRT-LLM version's kernels, a request, a prompt attention that is not fused)."""
    kv = f"{arch.n_heads} / {arch.n_kv_heads}"
    rows = [("Model", f"{arch.name} ({fmt_params(params_total)} parameters)"),
            ("Architecture", f"{arch.n_layers} layers, hidden {arch.hidden_size}, heads / KV heads {kv}, "
                             f"head dim {arch.head_dim}, FFN {arch.ffn_size}, vocab {arch.vocab_size:,}"
                             + (f", MoE {arch.moe.n_active} of {arch.moe.n_experts} experts" if arch.moe else "")
                             + (f", attention {arch.attention.kind.value}" if arch.attention.kind.value != "full" else ""))]
    settings = dict(job_rows(w))
    if w.mode is Mode.INFERENCE:
        run = as_run(arch, w)  # as the named TensorRT-LLM version runs it (16-bit experts, per-head decoding)
        if run.weights != w.weights:
            experts = say("weights", run.weights)
            settings["Weights"] += f" (experts in {experts}: no FP8 path for MoE experts before 0.10)"
        if run.decode_attention is not w.decode_attention or "Decode attention" in settings:
            kernel = say("decode_attention", run.decode_attention)
            per_head = run.decode_attention.value != "grouped"
            settings["Decode attention"] = f"{kernel}: one query head at a time on the CUDA cores" if per_head else kernel
    rows += settings.items()
    if w.is_request:
        rows.append(("Request", f"{w.prompt_tokens:,} prompt tokens, {w.context_len - w.prompt_tokens:,} "
                                "generated: speed is that request's (decode at the middle of the generation)"))
    if w.mode is Mode.INFERENCE and w.scores_in_memory:
        rows.append(("Prompt attention", f"not fused ({unfused_reason(w)}): the prompt's attention scores go "
                                         "through the card's memory"))
    rows.append(("GPUs and parallelism", "chosen for each build (see the plan in Verdict per build)"))
    return tuple(rows)


def job_line(arch: ModelArch | None, w: Workload) -> str:
    """Page 1's line about the job, whole: the model and what is done with it (weights, engine, sequences and
    context; or method, objective, base, micro-batch and sequence length), not the model alone."""
    model = arch.name if arch is not None else "no model"
    if w.mode is Mode.INFERENCE:
        return (f"Job: {model}, inference with {say('engine', w.engine)} — {say('weights', w.weights)} weights, "
                f"{w.batch:,} sequence{'s' if w.batch > 1 else ''} of {w.context_len:,} tokens")
    method = say("method", w.method)
    method += "" if "fine-tun" in method else " fine-tuning"
    objective = "" if w.objective.value == "sft" else f" ({say('objective', w.objective)})"
    return (f"Job: {model}, {method}{objective} — {say('weights', base_format_name(w))} base, micro-batch "
            f"{w.batch:,} of {w.seq_len:,}-token sequences")


def _links(b: ResolvedBuild) -> str:
    t = b.topology
    parts = []
    if t.nvswitch:
        fabric = next((g.nvlink for g in b.gpus if g.nvlink is not None), None)
        parts.append(fabric.board_name if fabric else "NVSwitch")
    if t.nvlink_pairs:
        parts.append(f"NVLink bridge × {len(t.nvlink_pairs)}")
    lanes = "/".join(f"x{n}" for n in t.pcie_lanes_per_gpu) if t.pcie_lanes_per_gpu else "card width"
    parts.append(f"PCIe {t.pcie_gen}.0 {lanes}")
    if b.gpu_count > 1:
        parts.append("P2P on" if t.p2p else "no P2P")
    if b.nodes > 1 or b.network is not None:
        parts.append(_network(b))
    return ", ".join(parts)


def _network(b: ResolvedBuild) -> str:
    """Between machines (issue 21): '2 machines joined by 8× ConnectX-7 … (InfiniBand, 3,200 Gb/s each)'."""
    net = b.network
    card = (f"{net.count}× {net.nic.name} ({net.nic.nic_fabric.words if net.nic.nic_fabric else 'network'}, "
            f"{net.gbit_per_s:,.0f} Gb/s each)") if net is not None else "no network card named"
    return f"{b.nodes} machines joined by {card}" if b.nodes > 1 else f"network: {card}"


def _price_cell(r: BuildResult) -> str:
    """Today's price the ranking uses (``BuildResult.price``), dated, with what it includes; the other kind after it."""
    if r.usd_per_hour is not None:
        return f"{_usd(r.usd_per_hour, '/h')} on demand"
    if r.price is None or r.price.usd is None:
        return "no price" + (f": {'; '.join(r.price.missing)}" if r.price is not None and r.price.missing else "")
    lines = [price_words(r.price)]
    if r.price.platform:
        lines[0] += f", {r.price.platform}"
    other = r.price_new if r.price.kind_words != "new" else r.price_used
    if other is not None and other.usd is not None and other.usd != r.price.usd:
        lines.append(f"{other.choice.value}: {price_words(other)}")
    return "; ".join(lines)


def builds_table(results: Results, unit: str) -> Table:
    rows = []
    for r in results.builds:
        b = r.resolved
        if b is None:
            rows.append((r.name, r.error or "could not be resolved", "", "", "", "", ""))
            continue
        names = sorted({g.name for g in b.gpus})
        per_gpu = min(g.memory_gib for g in b.gpus) * GIB
        total = sum(g.memory_gib for g in b.gpus) * GIB
        gpus = f"{b.gpu_count}× {' + '.join(names)}" + (f" ({b.nodes} machines × {b.gpus_per_node})" if b.nodes > 1 else "")
        rows.append((r.name, gpus, f"{_gib(per_gpu, unit)} / {_gib(total, unit)}",
                     _links(b), _gib(b.host_ram_gib * GIB, unit) if b.host_ram_gib else "unknown",
                     _price_cell(r), f"{r.power_w:,.0f} W" if r.power_w is not None else "unknown"))
    return Table(columns=("Build", "GPUs", "Memory per GPU / total", "Links", "Host RAM", "Price", "Power"),
                 rows=tuple(rows), column_weights=(1.3, 1.4, 1.1, 1.5, 0.8, 1.8, 0.7), small=True)


def _basis(r: BuildResult, w: Workload):
    """What the build's speed stands on (``advisor.core.speed.basis``): measured on its GPU family with the
    job's engine or framework, or extrapolated; None without a build."""
    if r.resolved is None:
        return None
    job = r.planned.workload if r.planned is not None else w
    return speed_basis(job, r.resolved.gpus[:max(1, min(job.n_gpus, r.resolved.gpu_count))])


def _speed_cell(r: BuildResult, w: Workload) -> str:
    basis = _basis(r, w)
    mark = f" ({basis.mark})" if basis is not None and basis.mark else ""
    return _speed_figures(r, w) + mark


def _speed_figures(r: BuildResult, w: Workload) -> str:
    s = r.estimate.speed
    if w.mode is Mode.TRAIN:
        if s.train_tokens_per_s is None:
            return "unknown"
        return f"{s.train_tokens_per_s:,.0f} tok/s train; 1 B tokens in {1e9 / s.train_tokens_per_s / 3600:,.1f} h"
    dec = f"decode {s.decode_tokens_per_s:,.0f} tok/s" if s.decode_tokens_per_s else "decode speed not known"
    pre = f"prefill {s.prefill_tokens_per_s:,.0f} tok/s" if s.prefill_tokens_per_s else "no prefill figure"
    if s.request_s is not None:  # a request of the job's prompt and generated tokens (``prompt_tokens``)
        return f"{dec}, {pre}; whole request {s.request_s:,.1f} s ({s.request_tokens_per_s:,.0f} tok/s with prefill)"
    return f"{dec}, {pre}"


def verdict_table(results: Results, w: Workload, unit: str, cost: CostSettings | None = None,
                  today: dt.date | None = None) -> Table:
    """One row per build. Its cost is one unit for all: dollars per million tokens generated (or trained),
    an owned build's price spread over its hours of use plus its energy, a rented one's hourly rate (the
    column mixed $ per tok/s and $ per M tokens)."""
    from advisor.core.advice.running import build_running_cost, cost_per_token_gap

    cost, today = cost or CostSettings(), today or dt.date.today()
    rows = []
    for r in results.builds:
        e = r.estimate
        if e is None or e.fit is None:
            rows.append((r.name, "", "no estimate", r.error or "", "", "", ""))
            continue
        verdict = r.status.value if r.status is not None else ("fits" if e.fit.fits else "does not fit")
        if r.planned is not None and r.planned.unsupported:  # the software does not run it here
            verdict = "cannot run"
        need = f"{_gib(e.fit.need_per_gpu_bytes, unit)} of {_gib(e.fit.usable_per_gpu_bytes, unit)}"
        if not r.runs:  # a build that does not run the job has no speed to sell: say why instead
            # A refusal's first clause (to a ';' or a ':'), as the window's cell says it: the whole of it is in the
            # recommendation above and the per-build notes.
            why = re.split(r"[;:] ", message_of(r.problems[0]), maxsplit=1)[0] if r.problems else e.fit.reason
            rows.append((r.name, r.plan_text, verdict, need, why, "—", "—"))
            continue
        bottleneck = e.speed.bottleneck.value if e.speed.bottleneck else "unknown"
        link = f"{e.speed.interconnect_share:.0%}" + (f", mostly {e.speed.comm_link}" if e.speed.comm_link and r.resolved.nodes > 1 else "")
        c = build_running_cost(r, w, cost, today)
        per = _usd(c.usd_per_million_tokens) if c.usd_per_million_tokens is not None else cost_per_token_gap(r, c, w)
        rows.append((r.name, r.plan_text, verdict, need, f"{bottleneck}; link {link}", _speed_cell(r, w), per))
    kind = "trained" if w.mode is Mode.TRAIN else "generated"
    return Table(columns=("Build", "Plan", "Verdict", "Per-GPU need of usable", "Bottleneck; time on links", "Speed",
                          f"Cost per million {kind} tokens"),
                 rows=tuple(rows), column_weights=(1.2, 1.5, 0.8, 1.1, 1.2, 1.5, 1.0), small=True)


def fixes_blocks(results: Results, w: Workload, unit: str) -> list:
    """For each build that does not fit (or is tight): the smallest changes that make it fit."""
    blocks = []
    for r in results.builds:
        if not r.suggestions:
            continue
        items = []
        for s in r.suggestions:
            rate = s.planned.headline_tokens_per_s
            parts = [f"{_gib(s.per_gpu_bytes, unit)} per GPU"]
            if rate:
                parts.append(f"{rate:,.1f} {'training ' if w.mode is Mode.TRAIN else ''}tokens/s")
            if s.extra_cost_usd is not None:
                parts.append(f"{_usd(s.extra_cost_usd)} more")
            items.append(f"{s.change}: {', '.join(parts)}")
        label = "is tight; more room with" if r.status is not None and r.status.value == "tight" else "would fit with"
        blocks += [Paragraph(text=f"{r.name} {label}:", small=True), Bullets(items=tuple(items), small=True)]
    return ([Heading(text="What would make it fit")] + blocks) if blocks else []


def memory_table(results: Results, unit: str) -> Table:
    builds = [r for r in results.builds if r.estimate is not None]
    # The terms some build has: an inference job lists no gradients, optimizer states or adapters.
    rows = [(term_label(term), *(_gib(getattr(r.estimate.memory, term), unit) for r in builds)) for term in MEMORY_TERMS
            if term == "weights" or any(getattr(r.estimate.memory, term) for r in builds)]
    rows.append(("total per GPU", *(_gib(r.estimate.memory.total, unit) for r in builds)))
    rows.append(("host RAM", *(_gib(r.estimate.memory.host, unit) for r in builds)))
    return Table(columns=("Term", *(r.name for r in builds)), rows=tuple(rows))


def _per_build_notes(results: Results, workload: Workload) -> list:
    blocks = []
    for r in results.builds:
        lines = [f"Problem: {message_of(p)}" for p in r.problems] + [f"Check: {w}" for w in r.warnings]
        if r.estimate is not None:
            basis = _basis(r, workload) if r.runs else None
            lines += ([basis.sentence] if basis is not None else []) + list(r.estimate.speed.notes)
        if r.price_note:
            lines.append(f"Price: {r.price_note}")
        if lines:
            blocks += [Heading(text=r.name, level=3), Bullets(items=tuple(lines), small=True)]
    return blocks


def _assumptions(results: Results, error_band: str, unit: str) -> list:
    first = next((r.estimate for r in results.builds if r.estimate is not None), None)
    if first is None:
        return []
    blocks = [Paragraph(text=f"Expected error of the estimate: {error_band}.", small=True)]
    if first.rule_of_thumb is not None:
        rt = first.rule_of_thumb
        blocks.append(Paragraph(text=f"Rule of thumb ({rt.rule}): {_gib(rt.total_bytes, unit)}. {rt.why_different}", small=True))
    blocks.append(Bullets(items=first.assumptions, small=True))
    return blocks


def _sources(results: Results) -> list:
    items = []
    seen: set[str] = set()
    for r in results.builds:
        if r.resolved is None:
            continue
        for g in r.resolved.gpus:
            if g.id in seen:
                continue
            seen.add(g.id)
            urls = [str(u) for u in g.sources] + [f"{p.kind.value} price {p.date_seen}: {p.source}" for p in g.prices]
            items.append(f"{g.name}: " + " · ".join(urls))
    return [Bullets(items=tuple(items), small=True)]


def _hours(h: float | None) -> str:
    if h is None:
        return "—"
    return f"{h:,.0f} h" if h >= 10 else f"{h:,.1f} h"


def running_cost_blocks(results: Results, arch: ModelArch | None, w: Workload, cost: CostSettings,
                        today: dt.date) -> list:
    """Running cost per build and owning against renting (issue 18), under the user's settings."""
    from advisor.core.advice.running import build_running_cost, chinchilla_plan, cost_per_token_gap, rent_vs_buy

    training = w.mode is Mode.TRAIN
    kind = "trained" if training else "generated"
    blocks: list = [Heading(text="Running cost"), Paragraph(text=(
        f"Electricity ${cost.electricity_usd_per_kwh:.4g}/kWh, {cost.hours_per_day:g} hours of use a day, "
        f"{cost.years:g} years of ownership. Energy per year = power at load × hours a day × 365 × price per kWh "
        "(the machine off outside the hours of use); an owned build's hour of use costs its energy plus its "
        "price spread over the hours of use while owned; a rented one its hourly rate. Default electricity "
        f"price: {ELECTRICITY_SOURCE}. Idle: {IDLE_SOURCE}."), small=True)]
    rows = []
    with_run = training and w.dataset_tokens is not None
    for r in results.builds:
        c = build_running_cost(r, w, cost, today)
        per_m = c.usd_per_million_tokens
        if c.price_usd is None:
            price = "no price"
        elif c.rented:
            price = _usd(c.price_usd, "/h")
        else:
            price = f"{_usd(c.price_usd)} {c.price_kind}"
        if c.price_usd is not None and c.price_date is not None:
            price += f", seen {c.price_date.isoformat()}" + (" (stale)" if c.price_stale else "")
        power = "rented" if c.rented else (
            f"{c.load_w:,.0f} W / {c.idle_w:,.0f} W" if c.load_w is not None and c.idle_w is not None
            else f"{c.load_w:,.0f} W / —" if c.load_w is not None else "not stated")
        row = [r.name, price, power, "—" if c.rented else _usd(c.energy_usd_per_year),
               _usd(c.usd_per_hour, "/h") if c.usd_per_hour is not None else ("no price" if c.price_usd is None else "—"),
               _usd(per_m) if per_m is not None else cost_per_token_gap(r, c, w),
               "—" if c.rented else _usd(c.tco_usd)]
        if with_run:
            row.append(f"{_hours(c.train_hours)}, {_usd(c.train_usd)}" if c.train_hours is not None else "—")
        rows.append(tuple(row))
    columns = ["Build", "Price", "Power load / idle", "Energy per year", "Per hour of use",
               f"Per million {kind} tokens", f"Ownership, {cost.years:g} years"]
    if with_run:
        columns.append(f"Training run ({w.dataset_tokens / 1e9:,.3g}B tokens × {w.epochs:g})")
    blocks.append(Table(columns=tuple(columns), rows=tuple(rows)))
    rvb = rent_vs_buy(results, w, cost)
    blocks.append(Heading(text="Owning vs renting", level=2))
    if rvb.cloud is None or not rvb.rows:
        blocks.append(Paragraph(text=f"No break-even: {rvb.why_none}."))
    else:
        items = []
        for b in rvb.rows:
            if b.hours is None:
                items.append(f"{b.owned} ({_usd(b.price_usd)}) against {rvb.cloud}: {b.verdict}.")
            else:
                days = b.hours / cost.hours_per_day
                items.append(f"{b.owned} ({_usd(b.price_usd)}) costs as much as {_hours(b.hours)} of {rvb.cloud} "
                             f"({_usd(rvb.cloud_usd_per_hour, '/h')}, the cheapest cloud instance here that runs the job): "
                             f"about {days:,.0f} days at {cost.hours_per_day:g} h a day"
                             + (f", within the {cost.years:g} years owned." if days <= cost.years * 365 else
                                f", beyond the {cost.years:g} years owned."))
        blocks.append(Bullets(items=tuple(items)))
        blocks.append(Paragraph(text="Break-even hours = price / (cloud rate − the owned build's electricity per "
                                     "hour); speed differences and resale value are not counted.", small=True))
    plan = chinchilla_plan(arch, results, w, cost, today) if arch is not None else None
    if plan is not None:
        blocks.append(Heading(text="Pre-training compute-optimally", level=2))
        blocks.append(Paragraph(text=(
            f"{plan.params / 1e9:,.2f}B parameters: {plan.tokens / 1e9:,.0f}B tokens, {plan.flops:.2e} FLOPs "
            f"({plan.source}). At each build's estimated training speed:")))
        blocks.append(Bullets(items=tuple(
            f"{row.name}: " + ("speed not estimated" if row.hours is None else
                               f"{_hours(row.hours)}, {row.gpu_days:,.0f} GPU-days, {_usd(row.usd)}"
                               if row.usd is not None else f"{_hours(row.hours)}, {row.gpu_days:,.0f} GPU-days, no price")
            for row in plan.rows)))
    return blocks


def build_document(comparison: Comparison, arch: ModelArch | None, results: Results, *, catalog_date: str,
                   error_band: str, made_on: dt.date | None = None, unit: str = "GiB",
                   cost: CostSettings | None = None) -> ReportDocument:
    """The whole report for one comparison."""
    w = comparison.workload
    made_on = made_on or dt.date.today()
    title = report_title(comparison.title, [r.name for r in results.builds])  # all builds, never a stale two
    params = next((r.estimate.params_total for r in results.builds if r.estimate is not None), None)
    blocks: list = [Heading(text="Recommendation"), Paragraph(text=recommendation(results, w, comparison.rank_by)),
                    Heading(text="Verdict per build"), verdict_table(results, w, unit, cost, made_on)]
    if arch is not None:  # the job beside its verdicts, on the first pages (it came on page 3, after the costs)
        blocks += [Heading(text="Workload"),
                   Table(columns=("Setting", "Value"), rows=workload_rows(arch, w, params), column_weights=(1, 3))]
    blocks += [*fixes_blocks(results, w, unit), Heading(text="Builds"), builds_table(results, unit),
               *running_cost_blocks(results, arch, w, cost or CostSettings(), made_on)]
    blocks += [Heading(text="Charts")]  # no forced break: a page left 40-60 % blank before it (issue 41)
    # A bar chart may be drawn a quarter shorter to finish a page (a page was left 40-60 % blank); the Fit
    # chart less (its legend of techniques and builds needs the height: at 70 % it took two columns, names cut).
    blocks += [Chart(kind=kind, title=caption, height_mm=130 if kind == "value" else 95,
                     shrink=0.85 if kind == "fit" else 0.75) for kind, caption in CHARTS]
    blocks += [Heading(text="Memory per GPU by term"), memory_table(results, unit)]
    blocks += [Heading(text="Notes per build"), *_per_build_notes(results, w)]
    blocks += [Heading(text="Assumptions"), *_assumptions(results, error_band, unit)]
    blocks += [Heading(text="Formulas and sources"),
               Bullets(items=tuple(f"{f.term}: {f.formula} Sources: {'; '.join(f.sources)}." for f in formulas()), small=True),
               Heading(text="Catalog sources of each build's numbers", level=2), *_sources(results)]
    return ReportDocument(
        title=title,
        subtitle_lines=(job_line(arch, w),
                        f"Made {made_on.isoformat()} with {APP_NAME} {__version__} · catalog {catalog_date}"),
        footer_left=f"{APP_NAME} {__version__} · {builds_title([r.name for r in results.builds])}",
        blocks=tuple(blocks),
    )
