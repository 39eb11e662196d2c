"""Text for the headline table, the messages and the details (Qt-free; the PDF can reuse it)."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from advisor.core import GB, GIB, Job, Mode
from advisor.core import format_params as fmt_params
from advisor.storage.error_bands import error_band_text, median_pct
from advisor.ui import words

if TYPE_CHECKING:  # the estimator loads after the window's first paint
    from advisor.core import BuildResult, Results

UNKNOWN = "not known"  # the cell's tooltip says what is unknown (never a bare "?")
#: A pinned plan, in words: the pin emoji drew as an empty box with the fonts the README installs (DejaVu).
PINNED = " (pinned)"


def mem(n_bytes: float, prefs) -> str:
    unit = prefs.memory_unit
    return f"{n_bytes / (GIB if unit == 'GiB' else GB):.1f} {unit}"


def usd(value: float | None, prefs, per: str = "") -> str:
    if value is None:
        return UNKNOWN
    text = f"{value:,.0f}" if value >= 100 else f"{value:,.2f}"
    return (f"${text}" if prefs.currency_style == "symbol" else f"{text} USD") + per


def mem_pair(need_bytes: float, have_bytes: float, prefs) -> str:
    """'21.8 / 23.6 GiB': two sizes in one unit, said once."""
    unit = prefs.memory_unit
    scale = GIB if unit == "GiB" else GB
    return f"{need_bytes / scale:.1f} / {have_bytes / scale:.1f} {unit}"


def fit_header(workload: Job) -> str:
    """The verdict column's header: the estimate's error band is the job's, one for every build."""
    band = median_pct(workload)
    return "Fits? need / usable\nper GPU" + (f", ±{band:.0f}%" if band is not None else "")


def speed_text(r: BuildResult, workload: Job) -> str:
    """The Speed cell; tokens/s in its header (``SPEED_HEADERS``). Only for a build with an estimate (one
    without shows its error)."""
    assert r.estimate is not None
    s = r.estimate.speed
    if workload.mode is Mode.TRAIN:
        if s.train_tokens_per_s is None:
            return UNKNOWN
        return f"{s.train_tokens_per_s:,.0f} · 1 B in {1e9 / s.train_tokens_per_s / 3600:,.1f} h"
    dec = f"{s.decode_tokens_per_s:,.0f}" if s.decode_tokens_per_s is not None else UNKNOWN
    if s.prefill_tokens_per_s is None:
        return f"{dec} / —"  # no prefill figure for this build and plan (the tooltip says why)
    return f"{dec} / {s.prefill_tokens_per_s:,.0f}"


def cell(r: BuildResult, col: int, prefs, workload: Job) -> str:
    if r.error and col in (1, 2, 3, 4):
        return "—" if col != 2 else r.error
    if col == 1:
        return plan_short(r)
    if col == 2:
        return verdict_text(r, prefs, workload)
    if col == 3:
        return speed_text(r, workload) if r.runs else "—"
    if col == 4:
        return price_cell(r, prefs)
    if col == 5:
        return f"{r.power_w:,.0f} W" if r.power_w is not None else "not stated"
    if col == 6:
        n = len(r.problems) + len(r.warnings)
        return "ok" if n == 0 else f"{n} to read"
    if col == 7:
        return machines_text(r)
    return ""


def machines_text(r: BuildResult) -> str:
    """The Machines column: '1', or '2 × 8 GPUs, InfiniBand' for identical machines joined by a network."""
    b = r.resolved
    nodes = b.nodes if b is not None else r.entry.nodes
    if nodes == 1:
        return "1"
    net = b.network if b is not None else None
    link = net.nic.nic_fabric.words if net is not None and net.nic.nic_fabric else "no network card"
    return f"{nodes} × {b.gpus_per_node} GPUs, {link}" if b is not None else f"{nodes}, {link}"


def machines_tip(r: BuildResult) -> str:
    b = r.resolved
    if b is None:
        return "Identical machines of this build (double-click to change)"
    net = b.network
    card = (f"{net.count}× {net.nic.name} per machine, {net.gbit_per_s:,.0f} Gb/s" if net is not None
            else "No network card is named for this build: several machines cannot be joined")
    return f"{b.nodes} identical machine(s) of {b.gpus_per_node} GPU(s). {card}. Double-click to change the number."


def plan_short(r: BuildResult) -> str:
    """The Plan column: GPUs and scheme in a few words; the tooltip has the whole sentence."""
    if r.chosen is None:
        return "—"
    plan = r.chosen.plan
    if r.resolved is not None and all(g.vendor == "CPU" for g in r.resolved.gpus):
        return "CPU and RAM" + (PINNED if r.chosen.pinned else "")  # a CPU-only build (ui.machine.cpu_only_entry)
    words = {"tp": "tensor parallel", "pp": "pipeline", "layer-split": "layer split", "none": "one copy each",
             "ddp": "DDP", "zero1": "ZeRO-1", "zero2": "ZeRO-2", "zero3": "ZeRO-3", "fsdp": "FSDP",
             "fsdp-grad-op": "FSDP grad-op", "fsdp-no-shard": "FSDP no shard"}
    text = f"{plan.n_gpus} GPU" + ("s" if plan.n_gpus > 1 else "")
    if plan.n_gpus > 1:
        text += f", {words[plan.parallel.value]}"
    if plan.offload:
        text += ", offload"
    if plan.checkpointing.value != "none" and workload_mode(r) == "train":
        text += ", checkpointing"
    return text + (PINNED if r.chosen.pinned else "")


def workload_mode(r: BuildResult) -> str:
    return r.chosen.planned.mode.value if r.chosen is not None else ""


_FIRST_CLAUSE = re.compile(r"[;:] ")  # where a refusal's first clause ends ("8-bit optimizer states with pure fp32
# weights: use amp or bf16 precision, …" had pushed the Speed and Price columns out of a 1280-px window)


def verdict_text(r: BuildResult, prefs, workload: Job) -> str:
    """fits / tight / too big / cannot run, with the need and what is usable — or the reason in words. Only
    for a build with an estimate (one without shows its error)."""
    e = r.estimate
    assert e is not None
    if r.problems:  # the first clause (to a ';' or a ':'): the whole message is in the tooltip and under the table
        # The software does not run it on this build ("cannot run"), or the settings contradict ("as set").
        support = r.chosen is not None and r.chosen.unsupported
        return (("cannot run: " if support else "cannot run as set: ")
                + _FIRST_CLAUSE.split(words.problem_message(r.problems[0]), maxsplit=1)[0])
    if e.fit is None:
        return f"{mem(e.memory.total, prefs)} per GPU"
    numbers = mem_pair(e.fit.need_per_gpu_bytes, e.fit.usable_per_gpu_bytes, prefs)  # the error band: in the header
    if "KV cache would hold" in e.fit.reason:  # vLLM: the pool, not the total, is what falls short
        return "too small a KV cache: " + e.fit.reason.split("KV cache would hold ", 1)[1].replace(
            ", less than one ", " < one ")
    if e.fit.fits and e.fit.host_need_bytes and r.status is not None and not r.runs:
        return f"needs host RAM: {e.fit.reason}"
    if e.fit.host_short:  # the GPUs' part fits: the numbers that do not are the host RAM's
        if e.fit.host_available_bytes is None:  # RAM not known is not RAM enough
            return f"host RAM not known: needs {mem(e.fit.host_need_bytes, prefs)}"
        return f"too big for host RAM: {mem_pair(e.fit.host_need_bytes, e.fit.host_available_bytes, prefs)}"
    word = {"fits": "fits", "tight": "tight", "does not fit": "too big"}.get(r.status.value if r.status else "",
                                                                           "fits" if e.fit.fits else "too big")
    return f"{word}: {numbers}"


def basis_sentence(r: BuildResult) -> str:
    """Whether this build's speed was measured on its GPU family with the job's engine or framework, or is
    extrapolated (``BuildResult.speed_basis``, added by the session); '' without a build."""
    return r.speed_basis.sentence if r.speed_basis is not None else ""


def cell_tip(r: BuildResult, col: int, prefs, workload: Job) -> str | None:
    if col == 1 and r.chosen is not None:
        notes = "\n".join(r.chosen.notes)
        how = "You pinned parts of it (right-click ▸ Plan…)." if r.chosen.pinned else \
            "Chosen automatically: all GPUs, the engine's usual layout, offload only when nothing else fits."
        return "\n".join(t for t in (r.plan_text, how, notes) if t)
    if col == 2 and r.problems:
        return "\n".join(map(words.problem, r.problems))
    if col == 2 and r.estimate is not None and r.estimate.fit is not None:
        fixes = ("\nWould fit with: " + "; ".join(s.change for s in r.suggestions)) if r.suggestions else ""
        tight = ("\nTight: the need is within the estimate's measured error of the usable memory."
                 if r.status is not None and r.status.value == "tight" else "")
        return "\n".join(t for t in (r.estimate.fit.reason, "Expected error: " + error_band_text(workload)) if t) \
            + tight + fixes
    if col == 3 and r.estimate is not None and r.runs:
        b = r.estimate.speed.bottleneck
        limit = f"Limited by {b.value}." if b is not None else ""
        return "\n".join((basis_sentence(r), limit, *r.estimate.speed.notes)).strip() or None
    if col == 4:
        return price_tip(r, prefs)
    if col == 6:
        return "\n".join((*map(words.problem, r.problems), *r.warnings)) or None
    if col == 0 and r.resolved is not None:
        tier = r.resolved.tier
        on = (f"\nOn a typical {tier.name[0].lower()}{tier.name[1:]}: {tier.board}, {tier.ram}, {tier.psu}, "
              f"{tier.case} (in its price; its host RAM {r.resolved.host_ram_gib:g} GB)") if tier is not None else ""
        return f"{r.resolved.name}: {r.resolved.gpu_count} GPU(s) · source {r.entry.source_kind}{on}"
    if col == 7:
        return machines_tip(r)
    return None


def price_cell(r: BuildResult, prefs) -> str:
    """'$2,320 used': today's price of the whole machine, the figure the winner is chosen on (one
    figure per machine on every screen); the tooltip dates it and says what it includes."""
    if r.usd_per_hour is not None:
        return usd(r.usd_per_hour, prefs, "/h")
    p = r.price
    if p is None or p.usd is None:
        return "no price"  # not "? · ?"; the tooltip and Details say why
    kind = {"new": "new", "used": "used"}.get(p.kind_words, "new + used")
    return f"{usd(p.usd, prefs)} {kind}"


def price_tip(r: BuildResult, prefs) -> str | None:
    """When and where the price was seen, what it includes, the other kind's figure, and whether it is stale."""
    from advisor.core import price_words

    p = r.price
    if p is None:
        return r.price_note or None
    if p.usd is None:
        return "No price: " + "; ".join(p.missing) if p.missing else None
    lines = [price_words(p).replace(" (", ", ", 1).rstrip(")"), "Includes: " + p.includes]
    if p.stale:
        lines.append(f"Part of it was seen more than a year ago: ranked at ±{p.uncertainty * 100:.0f} % "
                     "(its high end), since prices move by about that much in a year")
    for other in (r.price_new, r.price_used):
        if other is not None and other.usd is not None and other.usd != p.usd:
            lines.append(f"{other.choice.value.capitalize()}: {price_words(other)}")
    sources = price_sources(r)
    if sources:
        lines.append("Sources: " + " · ".join(sources))
    return "\n".join(lines)


def price_sources(r: BuildResult) -> list[str]:
    """Where the build's prices were seen (every part of today's price), else the catalog's sources for its GPUs."""
    if r.price is not None and r.price.sources:
        return list(r.price.sources)
    if r.resolved is None:
        return []
    seen = [str(u) for g in r.resolved.gpus for u in g.sources]
    return list(dict.fromkeys(seen))


def price_html(r: BuildResult, prefs) -> str:
    """The Details line about the price: today's figure with its kind, date and contents, with linked sources."""
    from advisor.core import price_words

    if r.usd_per_hour is not None:
        amount = usd(r.usd_per_hour, prefs, "/h")
    elif r.price is None or r.price.usd is None:
        amount = "no price in the catalog"
    else:
        amount = price_words(r.price)
    links = ", ".join(f"<a href='{html.escape(u)}'>{html.escape(u.split('/')[2] if '//' in u else u)}</a>"
                      for u in price_sources(r)[:4])
    note = f" ({html.escape(r.price_note)})" if r.price_note else ""
    return f"<p><b>Price:</b> {html.escape(amount)}{note}" + (f" — sources: {links}" if links else "") + "</p>"


def suggestion_text(s, prefs, training: bool) -> str:
    speed = s.chosen.headline_tokens_per_s
    parts = [s.change, f"{mem(s.per_gpu_bytes, prefs)} per GPU"]
    if speed:
        parts.append(f"{speed:,.0f} {'training ' if training else ''}tok/s")
    if s.extra_cost_usd is not None:
        parts.append(f"+{usd(s.extra_cost_usd, prefs)}")
    return " · ".join(parts)


def messages_html(results: Results, prefs=None, looking: bool = False) -> str:
    """One line per build that does not run the job (why, and what would make it fit); the build
    checks are counted here and listed in each build's Checks cell, so this never grows long.
    ``looking``: what would make them fit is still being searched for (on the worker thread)."""
    lines = []
    if results.notice:
        lines.append(f"<b>{html.escape(results.notice)}</b>")
    checks = 0
    for r in results.builds:
        checks += len(r.warnings)
        if r.error and r.error != results.notice:
            lines.append(f"<span style='color:#C00000'>✖ {html.escape(r.name)}: {html.escape(r.error)}</span>")
        elif r.problems:
            lines.append(f"<span style='color:#C00000'>✖ {html.escape(r.name)}: {html.escape(words.problem(r.problems[0]))}</span>")
        elif r.suggestions and prefs is not None:
            training = workload_mode(r) == "train"
            fixes = "; ".join(html.escape(suggestion_text(s, prefs, training)) for s in r.suggestions[:3])
            more = f" (+{len(r.suggestions) - 3} more in the tooltip)" if len(r.suggestions) > 3 else ""
            label = "is tight" if r.status is not None and r.status.value == "tight" else "would fit with"
            lines.append(f"<span style='color:#8A4B00'>➜ {html.escape(r.name)} {label}: {fixes}{more}</span>"
                         if label != "is tight" else
                         f"<span style='color:#8A4B00'>➜ {html.escape(r.name)} is tight; more room with: {fixes}</span>")
        elif looking and r.status is not None and r.status.value in ("tight", "does not fit"):
            state = "is tight" if r.status.value == "tight" else "does not fit"
            lines.append(f"<span style='color:#8A4B00'>➜ {html.escape(r.name)} {state}; looking for what would "
                         "make it fit…</span>")
    if checks:
        lines.append(f"<span style='color:#B35900'>⚠ {checks} build check{'s' if checks > 1 else ''} to read "
                     "(hover the Checks column)</span>")
    return "<br>".join(lines)


def largest_fit_html(results: Results) -> str:
    """Under the fit plot: the largest model each build runs, per technique (its own plan search)."""
    from advisor.plots import fmt_largest

    if not results.curves:
        return ""
    if not results.fits_found:
        return "<b>Largest model that fits</b>: being worked out for each build…"
    techs = list(results.curves)
    # Headers right-aligned like their numbers (left-aligned, "int8" sat off its column).
    head = "".join(f"<th align='right'>{html.escape(t)}</th>" for t in techs)
    rows = []
    for r in results.builds:
        cells = "".join(f"<td align='right'>{fmt_largest(r.largest_fit.get(t), results.largest_top_params) if not r.problems else '—'}</td>"
                        for t in techs)
        rows.append(f"<tr><td>{html.escape(r.name)}</td>{cells}</tr>")
    return ("<b>Largest model that fits</b> (a generic dense decoder with this job's settings, on each build's own "
            "plan — offload and sharding included; the job's own model as its verdict says; — = none from 0.5 B)"
            f"<table cellspacing=6><tr><th align='left'></th>{head}</tr>{''.join(rows)}</table>")


def details_html(results: Results, workload: Job, prefs) -> str:
    """Assumptions, the rule of thumb beside the detailed estimate, and the error band."""
    parts = []
    for r in results.builds:
        parts.append(f"<h3>{html.escape(r.name)}</h3>")
        parts.append(price_html(r, prefs))
        if r.estimate is None:
            parts.append(f"<p>{html.escape(r.error or 'no estimate')}</p>")
            continue
        e = r.estimate
        parts.append(f"<p><b>Memory per GPU:</b> {mem(e.memory.total, prefs)} · "
                     f"<b>expected error:</b> {html.escape(error_band_text(workload))}</p>")
        if e.rule_of_thumb is not None:
            rt = e.rule_of_thumb
            parts.append(f"<p><b>Rule of thumb</b> ({html.escape(rt.rule)}): {mem(rt.total_bytes, prefs)}"
                         + (f" — {html.escape(rt.why_different)}" if rt.why_different else "") + "</p>")
        parts.append(f"<p>Parameters: {fmt_params(e.params_total)} total, {fmt_params(e.params_trainable)} trained</p>")
        if e.assumptions:
            parts.append("<ul>" + "".join(f"<li>{html.escape(a)}</li>" for a in e.assumptions) + "</ul>")
        basis = basis_sentence(r) if r.runs else ""
        if e.speed.notes or basis:
            parts.append("<p><b>Speed notes</b></p><ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in
                                                                   (basis, *e.speed.notes) if n) + "</ul>")
    return "".join(parts)
