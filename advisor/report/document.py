"""What a report is made of, without Qt: headings, paragraphs, tables, charts, notes.

``advisor.report.content`` fills a ``ReportDocument`` from core results; ``advisor.report.pdf``
lays it out on pages. Charts are named by ``kind`` and drawn by the plot module, so this
file stays free of Qt and of plotting.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


def builds_title(names: list[str] | tuple[str, ...]) -> str:
    """Every build named: "A vs B" for two, "6 builds: A, B, C, D, E, F" for more."""
    if not names:
        return "Comparison"
    if len(names) <= 2:
        return " vs ".join(names)
    return f"{len(names)} builds: " + ", ".join(names)


def report_title(custom: str, names: list[str] | tuple[str, ...]) -> str:
    """The user's own title, or the builds' names.

    A saved title that only lists some of the builds ("2× RTX 3090 (NVLink) vs 2× RTX 4090
    (PCIe)" kept from the starting comparison after four builds were added) is stale, not
    the user's choice: the builds' names replace it.
    """
    custom = custom.strip()
    parts = [part.strip() for part in custom.split(" vs ")]
    if not custom or (set(parts) <= set(names) and parts != list(names)) or parts == list(names):
        return builds_title(names)
    return custom


class _Block(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Heading(_Block):
    type: Literal["heading"] = "heading"
    text: str
    level: int = Field(1, ge=1, le=3)


class Paragraph(_Block):
    type: Literal["paragraph"] = "paragraph"
    text: str
    emphasis: bool = False
    small: bool = False


class Bullets(_Block):
    type: Literal["bullets"] = "bullets"
    items: tuple[str, ...]
    small: bool = False


class Table(_Block):
    type: Literal["table"] = "table"
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    column_weights: tuple[float, ...] = ()
    first_column_bold: bool = True
    small: bool = False


class Chart(_Block):
    """A chart drawn as vector graphics by the plot module; ``kind`` selects the plot."""

    type: Literal["chart"] = "chart"
    kind: str
    title: str
    height_mm: float = Field(80.0, gt=10, le=250)
    #: The share of ``height_mm`` it may be drawn at to finish a page (1: never shorter; a chart whose
    #: legend needs its height, as the Fit chart's list of builds does, keeps it).
    shrink: float = Field(1.0, gt=0, le=1)


class PageBreak(_Block):
    type: Literal["page_break"] = "page_break"


Block = Heading | Paragraph | Bullets | Table | Chart | PageBreak


class ReportDocument(_Block):
    title: str
    subtitle_lines: tuple[str, ...] = ()
    footer_left: str = ""
    blocks: tuple[Block, ...] = ()

    def text(self) -> str:
        """All words of the document in order (for tests and accessibility checks)."""
        parts = [self.title, *self.subtitle_lines]
        for block in self.blocks:
            if isinstance(block, (Heading, Paragraph)):
                parts.append(block.text)
            elif isinstance(block, Bullets):
                parts.extend(block.items)
            elif isinstance(block, Table):
                parts.extend(block.columns)
                parts.extend(cell for row in block.rows for cell in row)
            elif isinstance(block, Chart):
                parts.append(block.title)
        return "\n".join(parts)
