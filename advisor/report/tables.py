"""The report's tables of builds: what each build is, its verdict and speed, its memory by term, and what
would make it fit (Qt-free). Every figure comes with the results; the running cost too (``Results.running``).
"""

from __future__ import annotations

import re

from advisor.core import (
    GIB,
    MEMORY_TERMS,
    BuildResult,
    Job,
    Mode,
    ResolvedBuild,
    Results,
    RunningCosts,
    message_of,
    price_words,
    term_label,
)
from advisor.report.cells import gib, usd
from advisor.report.document import Bullets, Heading, Paragraph, Table


def require_running(results: Results) -> RunningCosts:
    """The results' running costs; the caller adds them (``advisor.core.advice.running.with_running_costs``)."""
    if results.running is None:
        raise ValueError("the results carry no running costs: add them with with_running_costs before the report")
    return results.running


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
    """Between machines: '2 machines joined by 8× ConnectX-7 … (InfiniBand, 3,200 Gb/s each)'."""
    net = b.network
    card = (f"{net.count}× {net.nic.name} ({net.nic.nic_fabric.words if net.nic.nic_fabric else 'network'}, "
            f"{net.gbit_per_s:,.0f} Gb/s each)") if net is not None else "no network card named"
    return f"{b.nodes} machines joined by {card}" if b.nodes > 1 else f"network: {card}"


def _price_cell(r: BuildResult) -> str:
    """Today's price the ranking uses (``BuildResult.price``), dated, with what it includes; the other kind after it."""
    if r.usd_per_hour is not None:
        return f"{usd(r.usd_per_hour, '/h')} on demand"
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
        rows.append((r.name, gpus, f"{gib(per_gpu, unit)} / {gib(total, unit)}",
                     _links(b), gib(b.host_ram_gib * GIB, unit) if b.host_ram_gib else "unknown",
                     _price_cell(r), f"{r.power_w:,.0f} W" if r.power_w is not None else "unknown"))
    return Table(columns=("Build", "GPUs", "Memory per GPU / total", "Links", "Host RAM", "Price", "Power"),
                 rows=tuple(rows), column_weights=(1.3, 1.4, 1.1, 1.5, 0.8, 1.8, 0.7), small=True)


def _speed_cell(r: BuildResult, w: Job) -> str:
    """The figures, marked "(extrapolated)" when no run of the build's GPU family with the job's software was
    measured (``BuildResult.speed_basis``)."""
    mark = f" ({r.speed_basis.mark})" if r.speed_basis is not None and r.speed_basis.mark else ""
    return _speed_figures(r, w) + mark


def _speed_figures(r: BuildResult, w: Job) -> str:
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


def verdict_table(results: Results, w: Job, unit: str) -> Table:
    """One row per build. Its cost is one unit for all: dollars per million tokens generated (or trained),
    an owned build's price spread over its hours of use plus its energy, a rented one's hourly rate (the
    column mixed $ per tok/s and $ per M tokens), read from ``results.running``."""
    running = require_running(results)
    rows = []
    for i, r in enumerate(results.builds):
        e = r.estimate
        if e is None or e.fit is None:
            rows.append((r.name, "", "no estimate", r.error or "", "", "", ""))
            continue
        verdict = r.status.value if r.status is not None else ("fits" if e.fit.fits else "does not fit")
        if r.chosen is not None and r.chosen.unsupported:  # the software does not run it here
            verdict = "cannot run"
        need = f"{gib(e.fit.need_per_gpu_bytes, unit)} of {gib(e.fit.usable_per_gpu_bytes, unit)}"
        if not r.runs:  # a build that does not run the job has no speed to sell: say why instead
            # A refusal's first clause (to a ';' or a ':'), as the window's cell says it: the whole of it is in the
            # recommendation above and the per-build notes.
            why = re.split(r"[;:] ", message_of(r.problems[0]), maxsplit=1)[0] if r.problems else e.fit.reason
            rows.append((r.name, r.plan_text, verdict, need, why, "—", "—"))
            continue
        bottleneck = e.speed.bottleneck.value if e.speed.bottleneck else "unknown"
        link = f"{e.speed.interconnect_share:.0%}" + (f", mostly {e.speed.comm_link}" if e.speed.comm_link and r.resolved.nodes > 1 else "")
        c = running.builds[i]
        per = usd(c.usd_per_million_tokens) if c.usd_per_million_tokens is not None else running.gaps[i]
        rows.append((r.name, r.plan_text, verdict, need, f"{bottleneck}; link {link}", _speed_cell(r, w), per))
    kind = "trained" if w.mode is Mode.TRAIN else "generated"
    return Table(columns=("Build", "Plan", "Verdict", "Per-GPU need of usable", "Bottleneck; time on links", "Speed",
                          f"Cost per million {kind} tokens"),
                 rows=tuple(rows), column_weights=(1.2, 1.5, 0.8, 1.1, 1.2, 1.5, 1.0), small=True)


def fixes_blocks(results: Results, w: Job, unit: str) -> list:
    """For each build that does not fit (or is tight): the smallest changes that make it fit."""
    blocks = []
    for r in results.builds:
        if not r.suggestions:
            continue
        items = []
        for s in r.suggestions:
            rate = s.chosen.headline_tokens_per_s
            parts = [f"{gib(s.per_gpu_bytes, unit)} per GPU"]
            if rate:
                parts.append(f"{rate:,.1f} {'training ' if w.mode is Mode.TRAIN else ''}tokens/s")
            if s.extra_cost_usd is not None:
                parts.append(f"{usd(s.extra_cost_usd)} more")
            items.append(f"{s.change}: {', '.join(parts)}")
        label = "is tight; more room with" if r.status is not None and r.status.value == "tight" else "would fit with"
        blocks += [Paragraph(text=f"{r.name} {label}:", small=True), Bullets(items=tuple(items), small=True)]
    return ([Heading(text="What would make it fit")] + blocks) if blocks else []


def memory_table(results: Results, unit: str) -> Table:
    builds = [r for r in results.builds if r.estimate is not None]
    # The terms some build has: an inference job lists no gradients, optimizer states or adapters.
    rows = [(term_label(term), *(gib(getattr(r.estimate.memory, term), unit) for r in builds)) for term in MEMORY_TERMS
            if term == "weights" or any(getattr(r.estimate.memory, term) for r in builds)]
    rows.append(("total per GPU", *(gib(r.estimate.memory.total, unit) for r in builds)))
    rows.append(("host RAM", *(gib(r.estimate.memory.host, unit) for r in builds)))
    return Table(columns=("Term", *(r.name for r in builds)), rows=tuple(rows))
