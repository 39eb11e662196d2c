"""The six-build reports a user exports (inference and training), read back with pypdf: page 1 names the job,
one unit per column, chart notes whole, every character in the fonts the README installs, no page left mostly
blank but the last."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from pathlib import Path

import pytest
from pypdf import PdfReader

from advisor.core.advice.comparison import BuildEntry, canonical_comparison
from advisor.core.job.choices import Method, Mode
from advisor.core.job.defaults import default_job
from advisor.storage.catalog_store import load_catalog
from advisor.storage.error_bands import error_band_text
from tests.report_export import export

SIX = (*canonical_comparison().builds, BuildEntry(name="Mac Studio", system_id="apple-mac-studio-m3-ultra-512gb"),
       BuildEntry(name="Cloud 8× H100", cloud_id="aws-p5.48xlarge"),
       BuildEntry(name="Workstation", system_id="answerai-fsdp-qlora-2x24gb"),
       BuildEntry(name="1× RTX PRO 6000", build_id="1x-rtx-pro-6000"))


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text))  # the PDF's "ﬁ" ligature as two letters


_MADE: dict[str, tuple[list[str], Path]] = {}  # each job's report, exported once per test module


def _export(catalog, tmp_path, workload, name):
    key = workload.model_dump_json()
    if key not in _MADE:
        comp = canonical_comparison().model_copy(update={"builds": SIX, "workload": workload})
        out = tmp_path / name
        export(comp, catalog, out, catalog_date="2026-11-01", error_band=error_band_text(workload),
               made_on=dt.date(2026, 11, 27))
        _MADE[key] = ([_norm(p.extract_text()) for p in PdfReader(out).pages], out)
    return _MADE[key]


def test_page_one_names_the_job_and_one_unit_per_column(qapp, catalog, tmp_path):
    pages, _ = _export(catalog, tmp_path, default_job(), "inference.pdf")
    first = pages[0]
    assert "Job: Llama 3.1 8B, inference with vLLM — BF16 (16 bits) weights, 16 sequences of 8,192 tokens" in first
    assert "Concurrent sequences" in first  # the job's table is on page 1 too
    assert "Cost per million generated tokens" in first and "per tok/s" not in first and "per M tokens" not in first
    text = " ".join(pages)
    assert "…)" not in text and "estimat…" not in text  # chart notes whole ("(not estimat…)")
    assert "(cannot run)" in text.replace(" )", ")")  # the Mac (no vLLM on Mac GPUs)


def test_a_training_report_names_its_job_and_no_pre_training_plan(qapp, catalog, tmp_path):
    job = default_job(Mode.TRAIN).model_copy(update={"method": Method.FULL, "dataset_tokens": 10**9})
    pages, _ = _export(catalog, tmp_path, job, "training.pdf")
    assert ("Job: Llama 3.1 8B, full fine-tuning — BF16 (16 bits) base, micro-batch 1 of 2,048-token "
            "sequences") in pages[0]
    assert "Cost per million trained tokens" in pages[0]
    assert not any("re-training" in p for p in pages)  # a 1B-token fine-tune is not a pre-training run


@pytest.mark.parametrize("mode", ["inference", "training"])
def test_no_page_but_the_last_is_mostly_blank(qapp, catalog, tmp_path, mode):
    """Each page's lowest text is in its bottom half (a page was left about 60 % empty before the charts)."""
    job = default_job() if mode == "inference" else default_job(Mode.TRAIN)
    _, out = _export(catalog, tmp_path, job, f"{mode}.pdf")
    reader = PdfReader(out)
    for i, page in enumerate(reader.pages[:-1]):
        height = float(page.mediabox.height)
        lows: list[float] = []

        def visit(text, cm, tm, font, size, lows=lows):
            if text.strip():
                lows.append(tm[5] * cm[3] + cm[5])

        page.extract_text(visitor_text=visit)
        body = [y for y in lows if y > 0.08 * height]  # the footer's lines left out
        assert body and min(body) < 0.5 * height, f"page {i + 1} ends at {1 - min(body) / height:.0%} of its height"


def test_every_character_of_the_window_and_the_report_is_in_the_readme_font(qapp, catalog, tmp_path):
    """fonts-dejavu-core, the README's only font: the pin mark of a pinned plan drew as an empty box."""
    from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics

    from advisor.core.advice.evaluate import evaluate, resolve_model
    from advisor.core.job.planned import PlanPins
    from advisor.storage.settings import Settings
    from advisor.ui import format as fmt

    if "DejaVu Sans" not in QFontDatabase.families():
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is not installed here")
    metrics = QFontMetrics(QFont("DejaVu Sans"))
    pinned = (SIX[0].model_copy(update={"plan": PlanPins(n_gpus=1)}), *SIX[1:])
    comp = canonical_comparison().model_copy(update={"builds": pinned})
    results = evaluate(catalog, resolve_model(catalog, comp.model), comp.workload, comp.builds, suggest=False)
    cells = [fmt.cell(r, c, Settings(), comp.workload) for r in results.builds for c in range(8)]
    assert "(pinned)" in cells[1]
    pages, _ = _export(catalog, tmp_path, comp.workload, "chars.pdf")
    missing = {ch for text in (*cells, *pages) for ch in text if ch.strip() and not metrics.inFontUcs4(ord(ch))}
    assert not missing, missing
