"""Lay a ``ReportDocument`` out on pages and write it as a PDF with QPdfWriter.

Text stays text (selectable, fonts embedded by Qt) and charts are painted by a callback as
vector graphics; where each thing goes is ``advisor.report.page_layout``'s. The file is written to a temporary file in the target
folder and renamed over the target only when complete, so a failure never leaves half a PDF.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPageLayout, QPageSize, QPainter, QPdfWriter

from advisor.plots.axes import wrap_to_width
from advisor.report.document import ReportDocument
from advisor.report.page_layout import DPI, FONTS, MM, MUTED, ChartPainter, layout

MARGIN_MM = 16.0


class PdfWriteError(Exception):
    """The PDF could not be written; the message says where and why. Nothing was replaced."""


FOOTER_LINES = 2


def footer_lines(left: str, width: float, device) -> list[str]:
    """The footer's left text in at most two lines of ``width``, the rest cut with "…"."""
    return wrap_to_width(left, width, QFontMetricsF(FONTS["footer"], device), FOOTER_LINES).split("\n")


def _footer(p: QPainter, page_rect: QRectF, left: str, page: int, pages: int) -> None:
    """Footer text left, "Page n of m" right; the text wraps before it reaches the number."""
    p.setFont(FONTS["footer"])
    p.setPen(MUTED)
    metrics = QFontMetricsF(FONTS["footer"], p.device())
    number = f"Page {page} of {pages}"
    y = page_rect.bottom() + 4 * MM
    line_h = metrics.lineSpacing()
    p.drawText(QRectF(page_rect.left(), y, page_rect.width(), line_h), int(Qt.AlignmentFlag.AlignRight), number)
    room = page_rect.width() - metrics.horizontalAdvance(number) - 6 * MM
    for i, line in enumerate(footer_lines(left, room, p.device())):
        p.drawText(QRectF(page_rect.left(), y + i * line_h, room, line_h), int(Qt.AlignmentFlag.AlignLeft), line)


def page_size_for(name: str) -> QPageSize:
    sizes = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}
    try:
        return QPageSize(sizes[name.lower()])
    except KeyError:
        raise PdfWriteError(f"unknown page size {name!r} (choose A4 or Letter)") from None


def _check_target(path: Path, overwrite: bool) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise PdfWriteError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise PdfWriteError(f"{path}: the folder {folder} is not writable")
    if path.is_dir():
        raise PdfWriteError(f"{path}: is a folder")
    if path.exists() and not overwrite:
        raise PdfWriteError(f"{path}: a file with this name exists (choose another name or allow overwriting)")


def write_pdf(document: ReportDocument, path: Path | str, *, page_size: str = "a4",
              draw_chart: ChartPainter | None = None, overwrite: bool = False, creator: str = "") -> int:
    """Write ``document`` to ``path`` atomically; returns the page count. Raises PdfWriteError."""
    path = Path(path)
    _check_target(path, overwrite)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pages = _paint(document, tmp, page_size_for(page_size), draw_chart, creator)
        _verify_and_sync(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        raise PdfWriteError(f"{path}: {exc.strerror or exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    return pages


def _paint(document: ReportDocument, target: Path, size: QPageSize, draw_chart: ChartPainter | None, creator: str) -> int:
    writer = QPdfWriter(str(target))
    writer.setResolution(DPI)
    writer.setPageSize(size)
    writer.setPageMargins(QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM + 6), QPageLayout.Unit.Millimeter)
    writer.setTitle(document.title)
    writer.setCreator(creator)
    page_rect = QRectF(writer.pageLayout().paintRectPixels(DPI))
    lay = layout(document, page_rect.width(), page_rect.height(), writer, draw_chart)
    pages = lay.page + 1
    painter = QPainter()
    if not painter.begin(writer):
        raise PdfWriteError(f"{target.parent}: cannot start writing a PDF there")
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        for page in range(pages):
            if page:
                writer.newPage()
            for op in (o for o in lay.ops if o.page == page):
                op.paint(painter, op.rect)
            _footer(painter, QRectF(0, 0, page_rect.width(), page_rect.height()), document.footer_left, page + 1, pages)
    finally:
        painter.end()
    return pages


def _verify_and_sync(tmp: Path) -> None:
    """Qt reports no write errors (a full disk gives a short file): check, then fsync."""
    with open(tmp, "rb+") as fh:
        head = fh.read(5)
        fh.seek(max(0, tmp.stat().st_size - 1024))
        tail = fh.read()
        if head != b"%PDF-" or b"%%EOF" not in tail:
            raise PdfWriteError(f"{tmp.parent}: the PDF could not be written completely (is the disk full?)")
        fh.flush()
        os.fsync(fh.fileno())
