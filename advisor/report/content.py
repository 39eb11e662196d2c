"""What the PDF says (Qt-free): the comparison's results turned into a ``ReportDocument``.

It reads the same ``Results`` the window shows, evaluated once by the caller (``llm-advisor report``)
with everything a renderer needs in them: each build's estimate, price, running cost and what its speed
stands on. So the screen
and the paper carry the same numbers, and nothing here estimates, prices or reads a file. Every price
carries its date, every build its catalog sources, and the recommendation is derived from the numbers
alone. The tables are in ``tables``, the running-cost section in ``running_cost``, the job in
``job_table``.
"""

from __future__ import annotations

import datetime as dt

from advisor import APP_NAME, __version__
from advisor.core import Comparison, ModelArch, Results, formulas, message_of, recommendation
from advisor.report.cells import gib
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
from advisor.report.job_table import job_line, workload_rows
from advisor.report.running_cost import running_cost_blocks
from advisor.report.tables import (
    builds_table,
    fixes_blocks,
    memory_table,
    require_running,
    verdict_table,
)

CHARTS = (("fit", "Fit: a whole model's memory by size; each build's line where its largest model meets the job's curve"),
          ("memory", "Memory per GPU by term, against capacity"),
          ("speed", "Speed, with the share lost to GPU-to-GPU traffic"),
          ("value", "Value: price against capability, and running cost per million tokens"))


def _per_build_notes(results: Results) -> list:
    blocks = []
    for r in results.builds:
        lines = [f"Problem: {message_of(p)}" for p in r.problems] + [f"Check: {w}" for w in r.warnings]
        if r.estimate is not None:
            basis = r.speed_basis if r.runs else None  # what the speed stands on, carried by the results
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
        blocks.append(Paragraph(text=f"Rule of thumb ({rt.rule}): {gib(rt.total_bytes, unit)}. {rt.why_different}", small=True))
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


def build_document(comparison: Comparison, arch: ModelArch | None, results: Results, *, catalog_date: str,
                   error_band: str, made_on: dt.date | None = None, unit: str = "GiB") -> ReportDocument:
    """The whole report for one comparison. ``results`` carry their running costs (``Results.running``);
    ``error_band``: the estimate's expected error in words, from the caller that reads the measured bands."""
    w = comparison.workload
    made_on = made_on or dt.date.today()
    title = report_title(comparison.title, [r.name for r in results.builds])  # all builds, never a stale two
    params = next((r.estimate.params_total for r in results.builds if r.estimate is not None), None)
    blocks: list = [Heading(text="Recommendation"), Paragraph(text=recommendation(results, w, comparison.rank_by)),
                    Heading(text="Verdict per build"), verdict_table(results, w, unit)]
    if arch is not None:  # the job beside its verdicts, on the first pages (it came on page 3, after the costs)
        blocks += [Heading(text="Workload"),
                   Table(columns=("Setting", "Value"), rows=workload_rows(arch, w, params), column_weights=(1, 3))]
    blocks += [*fixes_blocks(results, w, unit), Heading(text="Builds"), builds_table(results, unit),
               *running_cost_blocks(require_running(results), results.builds, w)]
    blocks += [Heading(text="Charts")]  # no forced break: a page was left 40-60 % blank before it
    # A bar chart may be drawn a quarter shorter to finish a page (a page was left 40-60 % blank); the Fit
    # chart less (its legend of techniques and builds needs the height: at 70 % it took two columns, names cut).
    blocks += [Chart(kind=kind, title=caption, height_mm=130 if kind == "value" else 95,
                     shrink=0.85 if kind == "fit" else 0.75) for kind, caption in CHARTS]
    blocks += [Heading(text="Memory per GPU by term"), memory_table(results, unit)]
    blocks += [Heading(text="Notes per build"), *_per_build_notes(results)]
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
