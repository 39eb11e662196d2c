"""The PDF renderer: selectable text, page numbers, vector only, atomic, clear errors."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from advisor.report.document import (
    Bullets,
    Chart,
    Heading,
    Paragraph,
    ReportDocument,
    Table,
)
from advisor.report.pdf import PdfWriteError, write_pdf


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text)  # pypdf separates words with tabs


def _doc(rows: int = 5) -> ReportDocument:
    return ReportDocument(
        title="Comparison of two builds",
        subtitle_lines=("Llama 3.1 8B", "made 2026-11-22"),
        footer_left="LLM Hardware Advisor",
        blocks=(
            Heading(text="Builds"),
            Table(columns=("Build", "Memory"), rows=tuple((f"Build {i}", f"{i} GiB") for i in range(rows))),
            Paragraph(text="The NVLink pair trains faster."),
            Bullets(items=("first assumption", "second assumption")),
            Chart(kind="box", title="A vector chart"),
        ),
    )


def _draw_box(kind, painter, rect):
    painter.drawRect(rect.adjusted(10, 10, -10, -10))
    painter.drawText(rect.center(), f"chart {kind}")


def test_text_is_selectable_and_complete(qapp, tmp_path):
    out = tmp_path / "r.pdf"
    pages = write_pdf(_doc(), out, draw_chart=_draw_box)
    reader = PdfReader(out)
    assert len(reader.pages) == pages == 1
    text = _norm(reader.pages[0].extract_text())
    for words in ("Comparison of two builds", "Build 4", "4 GiB", "The NVLink pair trains faster.",
                  "second assumption", "A vector chart", "chart box", "Page 1 of 1"):
        assert words in text


def test_long_table_breaks_pages_and_numbers_them(qapp, tmp_path):
    out = tmp_path / "long.pdf"
    pages = write_pdf(_doc(rows=120), out)
    reader = PdfReader(out)
    assert pages == len(reader.pages) >= 3
    last = _norm(reader.pages[-1].extract_text())
    assert f"Page {pages} of {pages}" in last
    assert "Build 119" in _norm("".join(p.extract_text() for p in reader.pages))
    # the header row is repeated on the second page
    assert _norm(reader.pages[1].extract_text()).count("Memory") >= 1


def test_no_raster_images_and_fonts_embedded(qapp, tmp_path):
    out = tmp_path / "v.pdf"
    write_pdf(_doc(), out, draw_chart=_draw_box)
    reader = PdfReader(out)
    for page in reader.pages:
        assert not page.images
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            descriptor = ref.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert "/FontFile2" in descriptor or "/FontFile3" in descriptor or "/FontFile" in descriptor


def test_letter_page_size(qapp, tmp_path):
    out = tmp_path / "l.pdf"
    write_pdf(_doc(), out, page_size="letter")
    box = PdfReader(out).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


def test_existing_file_is_kept_unless_overwrite(qapp, tmp_path):
    out = tmp_path / "keep.pdf"
    out.write_bytes(b"precious")
    with pytest.raises(PdfWriteError, match="exists"):
        write_pdf(_doc(), out)
    assert out.read_bytes() == b"precious"
    write_pdf(_doc(), out, overwrite=True)
    assert out.read_bytes().startswith(b"%PDF-")
    assert [p.name for p in tmp_path.iterdir()] == ["keep.pdf"]  # no temporary left behind


def test_unwritable_or_missing_folder_gives_clear_message(qapp, tmp_path):
    with pytest.raises(PdfWriteError, match="does not exist"):
        write_pdf(_doc(), tmp_path / "nope" / "r.pdf")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        import os

        if os.access(locked, os.W_OK):  # root ignores permissions
            pytest.skip("running as a user that can write anywhere")
        with pytest.raises(PdfWriteError, match="not writable"):
            write_pdf(_doc(), locked / "r.pdf")
    finally:
        locked.chmod(0o700)


def test_unknown_page_size_is_refused(qapp, tmp_path):
    with pytest.raises(PdfWriteError, match="page size"):
        write_pdf(_doc(), tmp_path / "x.pdf", page_size="a3")


def test_failure_during_write_leaves_existing_file_and_no_temp(qapp, tmp_path, monkeypatch):
    out = tmp_path / "keep.pdf"
    out.write_bytes(b"old report")

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("advisor.report.pdf.os.replace", disk_full)
    with pytest.raises(PdfWriteError, match="No space left"):
        write_pdf(_doc(), out, overwrite=True)
    assert out.read_bytes() == b"old report"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.pdf"]


def test_truncated_output_is_detected(qapp, tmp_path, monkeypatch):
    import advisor.report.pdf as pdf

    real_paint = pdf._paint

    def short_write(document, target, *args):
        pages = real_paint(document, target, *args)
        target.write_bytes(target.read_bytes()[:200])  # what a full disk leaves
        return pages

    monkeypatch.setattr(pdf, "_paint", short_write)
    with pytest.raises(PdfWriteError, match="disk full"):
        write_pdf(_doc(), tmp_path / "t.pdf")
    assert list(tmp_path.iterdir()) == []


def test_footer_text_stays_clear_of_the_page_number(qapp, tmp_path):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetricsF

    from advisor.report.page_layout import FONTS
    from advisor.report.pdf import footer_lines

    long = "LLM Hardware Advisor 0.1.0 · 6 builds: " + ", ".join(f"Build number {i} with a long name" for i in range(6))
    out = tmp_path / "footer.pdf"
    write_pdf(ReportDocument(title="t", footer_left=long, blocks=(Paragraph(text="x"),)), out)
    text = _norm(PdfReader(out).pages[0].extract_text())
    assert "Page 1 of 1" in text and "6 builds: Build number 0" in text
    lines = footer_lines(long, 400, None)
    metrics = QFontMetricsF(FONTS["footer"])
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert all(metrics.boundingRect(QRectF(0, 0, 1e4, 100), 0, line).width() <= 400 + 1 for line in lines)


def test_a_page_break_after_a_short_spill_over_keeps_the_page(qapp, tmp_path):
    from advisor.report.document import PageBreak

    # Enough rows to spill a few onto page 2, then a break: the chart follows on page 2.
    blocks = (Table(columns=("Build", "Memory"), rows=tuple((f"Build {i}", "1 GiB") for i in range(60))),
              PageBreak(), Chart(kind="box", title="After the break"))
    out = tmp_path / "soft.pdf"
    write_pdf(ReportDocument(title="t", blocks=blocks), out, draw_chart=_draw_box)
    reader = PdfReader(out)
    assert len(reader.pages) == 2
    assert "After the break" in _norm(reader.pages[1].extract_text())
    assert "Build 59" in _norm(reader.pages[1].extract_text())


def test_a_split_table_repeats_its_header(qapp, tmp_path):
    out = tmp_path / "split.pdf"
    table = Table(columns=("Term", "First build", "Second build"), rows=tuple((f"term {i}", "1 GiB", "2 GiB") for i in range(70)))
    write_pdf(ReportDocument(title="t", blocks=(table,)), out)
    pages = [_norm(p.extract_text()) for p in PdfReader(out).pages]
    assert len(pages) >= 2
    assert all("Term First build Second build" in p for p in pages)


@pytest.mark.parametrize(("custom", "names", "expect"), [
    ("", ["A", "B"], "A vs B"),
    ("A vs B", ["A", "B", "C"], "3 builds: A, B, C"),  # kept from the start: stale
    ("Lab purchase 2027", ["A", "B", "C"], "Lab purchase 2027"),
    ("", ["A", "B", "C", "D", "E", "F"], "6 builds: A, B, C, D, E, F"),
])
def test_the_title_names_every_build(custom, names, expect):
    from advisor.report.document import report_title

    assert report_title(custom, names) == expect


def test_a_heading_is_never_left_alone_at_the_foot_of_a_page(qapp, tmp_path):
    """A table with a tall header needs more room than a few lines: a heading placed where the table
    then moved to the next page stood alone at the foot of page 4 of a three-build report."""
    long = ("Term", "2× RTX 3090 + NVLink bridge", "2× RTX 4090, PCIe 4.0 x16/x16 (no P2P)", "1× RTX 5090 (PCIe 5.0 x16)")
    alone = []
    for filler in range(30, 75, 3):  # the heading lands at every height near the foot of page 1
        blocks = (Table(columns=("Build", "Memory"), rows=tuple((f"Build {i}", "1 GiB") for i in range(filler))),
                  Heading(text="Memory per GPU by term"),
                  Table(columns=long, rows=tuple((f"term {i}", "1 GiB", "2 GiB", "3 GiB") for i in range(8))))
        out = tmp_path / f"h{filler}.pdf"
        write_pdf(ReportDocument(title="t", blocks=blocks), out)
        pages = [_norm(p.extract_text()) for p in PdfReader(out).pages]
        heading_page = next(i for i, p in enumerate(pages) if "Memory per GPU by term" in p)
        if "term 0" not in pages[heading_page]:
            alone.append(filler)
    assert alone == []


def test_a_heading_is_never_left_alone_above_a_paragraph_that_moves_on(qapp, tmp_path):
    """A paragraph is placed whole: a heading given room for only a few of its lines stood alone at the
    foot of a page while the paragraph went on to the next ('Running cost' on page 1 of a four-build
    training report)."""
    text = "Electricity and ownership: " + "the running cost of every build over its years of use. " * 12
    alone = []
    for filler in range(30, 75, 3):
        blocks = (Table(columns=("Build", "Memory"), rows=tuple((f"Build {i}", "1 GiB") for i in range(filler))),
                  Heading(text="Running cost"), Paragraph(text=text),
                  Heading(text="Assumptions"), Bullets(items=(text, "second")))
        out = tmp_path / f"p{filler}.pdf"
        write_pdf(ReportDocument(title="t", blocks=blocks), out)
        pages = [_norm(p.extract_text()) for p in PdfReader(out).pages]
        for heading, first in (("Running cost", "Electricity and ownership"), ("Assumptions", "•")):
            page = next(i for i, p in enumerate(pages) if heading in p)
            if first not in pages[page].split(heading, 1)[1]:
                alone.append((filler, heading))
    assert alone == []
