"""Lay a ``ReportDocument`` out on pages: where each heading, paragraph, table row and chart goes (pure layout;
``advisor.report.pdf`` paints the operations into the PDF).

Sizes are in pixels at 96 dpi: at 300 dpi pyqtgraph's axis labels come out about 3x too large
(platform-notes.md). A heading never stays alone at a page's foot, a split table repeats its header, and a
chart may be drawn a little shorter rather than leave most of a page blank.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

from advisor.report.document import Bullets, Chart, Heading, PageBreak, Paragraph, ReportDocument, Table

DPI = 96
MM = DPI / 25.4  # pixels per millimetre
FONT_FAMILY = "DejaVu Sans"
SOFT_BREAK_SHARE = 0.35  # a page break is kept only below this much of a page already used
ChartPainter = Callable[[str, QPainter, QRectF], None]


def _font(size_pt: float, bold: bool = False, italic: bool = False) -> QFont:
    font = QFont(FONT_FAMILY)
    font.setPointSizeF(size_pt)
    font.setBold(bold)
    font.setItalic(italic)
    return font


FONTS = {
    "title": _font(18, bold=True),
    "subtitle": _font(9.5),
    "h1": _font(13, bold=True),
    "h2": _font(11, bold=True),
    "h3": _font(10, bold=True),
    "body": _font(9.5),
    "em": _font(9.5, italic=True),
    "small": _font(8),
    "cell": _font(8.5),
    "cell_bold": _font(8.5, bold=True),
    "footer": _font(7.5),
}
INK = QColor("#1d2733")
MUTED = QColor("#5b6675")
ACCENT = QColor("#2b5797")
RULE = QColor("#c9d1dc")
ZEBRA = QColor("#f1f4f8")


@dataclass
class _Op:
    """One thing to paint on one page."""

    page: int
    rect: QRectF
    paint: Callable[[QPainter, QRectF], None]


@dataclass
class _Layout:
    width: float
    height: float
    ops: list[_Op] = field(default_factory=list)
    page: int = 0
    y: float = 0.0

    def need(self, height: float) -> None:
        """Start a new page unless ``height`` fits below the cursor."""
        if self.y > 0 and self.y + height > self.height:
            self.new_page()

    def new_page(self) -> None:
        self.page += 1
        self.y = 0.0

    def place(self, height: float, paint: Callable[[QPainter, QRectF], None], x: float = 0, w: float | None = None) -> None:
        self.ops.append(_Op(self.page, QRectF(x, self.y, self.width - x if w is None else w, height), paint))


def _text_height(font_key: str, text: str, width: float, device) -> float:
    metrics = QFontMetricsF(FONTS[font_key], device)
    flags = int(Qt.TextFlag.TextWordWrap)
    return metrics.boundingRect(QRectF(0, 0, width, 1e6), flags, text).height()


def _text_painter(font_key: str, text: str, color: QColor = INK, align=Qt.AlignmentFlag.AlignLeft):
    def paint(p: QPainter, r: QRectF) -> None:
        p.setFont(FONTS[font_key])
        p.setPen(color)
        p.drawText(r, int(align | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap), text)

    return paint


def _add_text(lay: _Layout, font_key: str, text: str, device, space_after: float, color: QColor = INK, indent: float = 0) -> None:
    h = _text_height(font_key, text, lay.width - indent, device)
    lay.need(h)
    lay.place(h, _text_painter(font_key, text, color), x=indent)
    lay.y += h + space_after


def _add_heading(lay: _Layout, block: Heading, device, after: float = 40) -> None:
    """``after``: what the next block needs to start on the same page (``_start_height``): a
    heading is never left alone at the foot of a page (a table that moves on took it there)."""
    key = f"h{block.level}"
    h = _text_height(key, block.text, lay.width, device)
    lay.need(h + 4 + after)
    lay.y += 4 if lay.y > 0 else 0
    lay.place(h, _text_painter(key, block.text, ACCENT if block.level == 1 else INK))
    lay.y += h + 4


def _table_widths(table: Table, width: float) -> list[float]:
    weights = list(table.column_weights) or [1.0] * len(table.columns)
    total = sum(weights)
    return [width * w / total for w in weights]


def _row_painter(cells: tuple[str, ...], widths: list[float], header: bool, bold_first: bool, shade: bool, small: bool):
    def paint(p: QPainter, r: QRectF) -> None:
        if header:
            p.fillRect(r, ACCENT)
        elif shade:
            p.fillRect(r, ZEBRA)
        x = r.left()
        for i, (cell, w) in enumerate(zip(cells, widths, strict=False)):
            key = "cell_bold" if header or (bold_first and i == 0) else ("small" if small else "cell")
            p.setFont(FONTS[key])
            p.setPen(QColor("white") if header else INK)
            p.drawText(QRectF(x + 3, r.top() + 2, w - 6, r.height() - 4),
                       int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap), cell)
            x += w
        p.setPen(QPen(RULE, 0.6))
        p.drawLine(r.bottomLeft(), r.bottomRight())

    return paint


def _table_row_height(table: Table, widths: list[float], cells: tuple[str, ...], header: bool, device) -> float:
    key = "cell_bold" if header else ("small" if table.small else "cell")
    # measured in the font it is painted in: a bold first column wraps sooner (its last line was cut)
    return max(_text_height("cell_bold" if i == 0 and table.first_column_bold and not header else key,
                            c, w - 6, device) for i, (c, w) in enumerate(zip(cells, widths, strict=False))) + 5


def _paragraph_key(block: Paragraph) -> str:
    return "small" if block.small else ("em" if block.emphasis else "body")


def _start_height(block, width: float, device) -> float:
    """The height ``block`` needs to start on a page: a table its header and two rows' worth, a
    chart all of it, a paragraph all of it (it is never split: ``_add_text``), a list its first item."""
    if isinstance(block, Table):  # the header and the first two rows as they wrap (a builds table's rows are tall)
        widths = _table_widths(block, width)
        return sum(_table_row_height(block, widths, cells, i == 0, device)
                   for i, cells in enumerate((block.columns, *block.rows[:2])))
    if isinstance(block, Chart):
        return block.height_mm * MM * block.shrink  # it may be drawn this much shorter to finish a page
    if isinstance(block, Paragraph):
        return _text_height(_paragraph_key(block), block.text, width, device)
    if isinstance(block, Bullets) and block.items:
        return _text_height("small" if block.small else "body", f"•  {block.items[0]}", width - 6, device)
    return 40


def _add_table(lay: _Layout, table: Table, device) -> None:
    widths = _table_widths(table, lay.width)

    def row_height(cells: tuple[str, ...], header: bool) -> float:
        return _table_row_height(table, widths, cells, header, device)

    header_h = row_height(table.columns, True)
    lay.need(header_h + sum(row_height(row, False) for row in table.rows[:2]))  # as ``_start_height`` reckons
    lay.place(header_h, _row_painter(table.columns, widths, True, False, False, table.small))
    lay.y += header_h
    for i, row in enumerate(table.rows):
        h = row_height(row, False)
        if lay.y + h > lay.height:  # repeat the header on the next page
            lay.new_page()
            lay.place(header_h, _row_painter(table.columns, widths, True, False, False, table.small))
            lay.y += header_h
        lay.place(h, _row_painter(row, widths, False, table.first_column_bold, i % 2 == 1, table.small))
        lay.y += h
    lay.y += 10


def _chart_op(block: Chart, draw_chart: ChartPainter | None, title_h: float):
    def paint(p: QPainter, r: QRectF) -> None:
        p.setFont(FONTS["h3"])
        p.setPen(INK)
        # The caption wraps (a one-line caption was cut at the page's edge).
        p.drawText(QRectF(r.left(), r.top(), r.width(), title_h),
                   int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap), block.title)
        area = QRectF(r.left(), r.top() + title_h, r.width(), r.height() - title_h)
        if draw_chart is None:
            p.setPen(QPen(RULE, 1))
            p.drawRect(area)
            p.drawText(area, int(Qt.AlignmentFlag.AlignCenter), "chart not available")
            return
        p.save()
        p.setClipRect(area)
        draw_chart(block.kind, p, area)
        p.restore()

    return paint


def _add_bullets(lay: _Layout, block: Bullets, device) -> None:
    for item in block.items:
        _add_text(lay, "small" if block.small else "body", f"•  {item}", device, 2, indent=6)
    lay.y += 4


def _add_chart(lay: _Layout, block: Chart, device, draw_chart: ChartPainter | None) -> None:
    h = block.height_mm * MM
    room = lay.height - lay.y
    if h > room >= h * block.shrink:
        h = room  # a little shorter here rather than most of a page left blank (~60 % of one was)
    lay.need(h)
    title_h = _text_height("h3", block.title, lay.width, device) + 4
    lay.place(h, _chart_op(block, draw_chart, title_h))
    lay.y += h + 10


def layout(document: ReportDocument, width: float, height: float, device, draw_chart: ChartPainter | None) -> _Layout:
    """Place every block; returns the paint operations per page (pure layout, no painting)."""
    lay = _Layout(width, height)
    _add_text(lay, "title", document.title, device, 4, ACCENT)
    for line in document.subtitle_lines:
        _add_text(lay, "subtitle", line, device, 1, MUTED)
    lay.y += 10
    blocks = document.blocks
    for i, block in enumerate(blocks):
        if isinstance(block, Heading):
            nxt = blocks[i + 1] if i + 1 < len(blocks) else None
            _add_heading(lay, block, device, _start_height(nxt, lay.width, device) if nxt is not None else 0)
        elif isinstance(block, Paragraph):
            _add_text(lay, _paragraph_key(block), block.text, device, 6)
        elif isinstance(block, Bullets):
            _add_bullets(lay, block, device)
        elif isinstance(block, Table):
            _add_table(lay, block, device)
        elif isinstance(block, Chart):
            _add_chart(lay, block, device, draw_chart)
        elif isinstance(block, PageBreak):
            # A break right after a page that holds only a spill-over of a few lines would
            # leave that page almost blank: then the next part follows on it.
            if lay.y > lay.height * SOFT_BREAK_SHARE:
                lay.new_page()
    return lay
