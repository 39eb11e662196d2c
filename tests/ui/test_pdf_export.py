"""File ▸ Export PDF…: the window stays live while a child process writes the report."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from advisor.ui.pdf_export import start_export

# Offscreen Qt cannot pass size hints to a window manager (as in test_main_window).
pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


def test_export_writes_the_windows_comparison(app_window, qtbot, tmp_path):
    session, window = app_window
    window.ask_open_after_export = False
    assert window.action_export_pdf.isEnabled()
    out = tmp_path / "cmp.pdf"
    job = start_export(window, out, "a4")
    assert not window.action_export_pdf.isEnabled()  # one export at a time
    with qtbot.waitSignal(job.finished, timeout=120_000) as blocker:
        pass
    assert blocker.args == [str(out)]
    assert window.action_export_pdf.isEnabled()
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(out).pages))
    for r in session.results.builds:
        assert r.name in text
        assert f"{r.estimate.fit.need_per_gpu_bytes / 2**30:,.1f} GiB" in text  # the numbers on screen


def test_export_failure_is_reported_and_nothing_is_written(app_window, qtbot, tmp_path):
    _, window = app_window
    window.ask_open_after_export = False
    out = tmp_path / "missing-folder" / "cmp.pdf"
    job = start_export(window, out, "letter")
    with qtbot.waitSignal(job.failed, timeout=120_000) as blocker:
        pass
    assert "does not exist" in blocker.args[0]
    assert "PDF not written" in window.statusBar().currentMessage()
    assert not out.parent.exists()


@pytest.mark.parametrize(("title", "expect"), [
    ("2× RTX 3090 (NVLink) vs 2× RTX 4090 (PCIe)", "2x RTX 3090 (NVLink) vs 2x RTX 4090 (PCIe)"),
    ("6 builds: 1× RTX 5090, RunPod H200", "6 builds - 1x RTX 5090, RunPod H200"),
    ("a/b\\c", "a-b-c"),
])
def test_the_suggested_file_name_stays_readable(title, expect):
    from advisor.ui.pdf_export import file_stem

    assert file_stem(title) == expect


def test_a_long_file_name_is_cut_at_a_word():
    from advisor.ui.pdf_export import file_stem

    stem = file_stem("6 builds: " + ", ".join(f"2× RTX {n} (PCIe)" for n in range(3090, 3096)))
    assert len(stem) <= 81 and stem.endswith("…") and "×" not in stem


def test_the_default_name_names_every_build(app_window):
    from advisor.core.advice.comparison import BuildEntry
    from advisor.ui.pdf_export import _default_name

    session, window = app_window
    gpu_id = next(iter(session.catalog.gpus))
    session.add_build(BuildEntry(name="one card", gpu_id=gpu_id, gpu_count=1))
    name = _default_name(window)
    assert name.endswith(".pdf") and "3 builds" in name and "one card" in name and "×" not in name
