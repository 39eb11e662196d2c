"""``llm-advisor report``: the PDF read back says what the core computed; bad input is one line."""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata

import pytest
from pypdf import PdfReader

from advisor.cli import main
from advisor.core.advice.comparison import canonical_comparison
from advisor.core.advice.evaluate import evaluate, resolve_model
from advisor.core.units import GIB
from advisor.storage.catalog_store import load_catalog
from advisor.storage.comparison_file import save_comparison

BUILDS = ("--build", "2x-rtx-3090-nvlink", "--build", "2x-rtx-4090-pcie-x16")


def _text(path) -> str:
    # pypdf separates words with tabs and keeps the font's ligatures ("ﬁ"): normalise both.
    text = unicodedata.normalize("NFKC", " ".join(p.extract_text() for p in PdfReader(path).pages))
    return re.sub(r"\s+", " ", text)


def test_report_from_a_comparison_file_matches_the_core(qapp, tmp_path, capsys):
    comparison = canonical_comparison()
    saved = save_comparison(tmp_path / "cmp.json", comparison)
    out = tmp_path / "cmp.pdf"
    assert main(["report", str(saved), "--out", str(out), "--page-size", "a4"]) == 0
    assert "wrote" in capsys.readouterr().out
    reader = PdfReader(out)
    assert 4 <= len(reader.pages) <= 8
    text = _text(out)
    catalog = load_catalog().catalog
    arch = resolve_model(catalog, comparison.model)
    results = evaluate(catalog, arch, comparison.workload, comparison.builds)
    for r in results.builds:
        assert r.name in text
        assert f"{r.estimate.fit.need_per_gpu_bytes / GIB:,.1f} GiB of {r.estimate.fit.usable_per_gpu_bytes / GIB:,.1f} GiB" in text
        assert f"decode {r.estimate.speed.decode_tokens_per_s:,.0f} tok/s" in text
    assert "Recommendation" in text and "Formulas and sources" in text
    assert f"Page {len(reader.pages)} of {len(reader.pages)}" in text
    assert all(not page.images for page in reader.pages)  # charts are vector graphics


def test_report_from_flags_and_letter_paper(qapp, tmp_path):
    out = tmp_path / "flags.pdf"
    code = main(["report", "--model", "llama-3.2-3b", *BUILDS, "--mode", "train", "--method", "lora",
                 "--seq-len", "1024", "--parallel", "ddp", "--page-size", "letter", "--out", str(out)])
    assert code == 0
    box = PdfReader(out).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    text = _text(out)
    assert "fine-tuning: lora" in text and "2× RTX 3090 + NVLink bridge" in text and "tok/s train" in text


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--model", "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink"], "--build"),
        (["--model", "llama-3.1-8b", "--build", "a", "--build", "b"], "--build"),
        (["--model", "no-such-model", *BUILDS], "MODEL"),
        (["--model", "llama-3.1-8b", *BUILDS, "--batch", "0"], "--batch"),
        ([*BUILDS], "COMPARISON.json"),
    ],
)
def test_bad_input_is_one_line_naming_the_flag(qapp, tmp_path, capsys, args, flag):
    try:
        code = main(["report", *args, "--out", str(tmp_path / "x.pdf")])
    except SystemExit as exc:  # argparse's own checks (type=…) exit from inside parse_args
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and flag in err[0]
    assert not (tmp_path / "x.pdf").exists()


def test_existing_file_is_kept_and_broken_comparison_named(qapp, tmp_path, capsys):
    out = tmp_path / "keep.pdf"
    out.write_bytes(b"mine")
    assert main(["report", "--model", "llama-3.1-8b", *BUILDS, "--out", str(out)]) == 1
    assert "exists" in capsys.readouterr().err and out.read_bytes() == b"mine"
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json", encoding="utf-8")
    assert main(["report", str(bad), "--out", str(tmp_path / "y.pdf")]) == 2
    assert "bad.json" in capsys.readouterr().err


def test_headless_subprocess_exits_cleanly(tmp_path):
    # A real process: no display, no Qt crash at exit (PySide6 6.12 refcount guard, advisor.qt_guard).
    out = tmp_path / "sub.pdf"
    proc = subprocess.run([sys.executable, "-m", "advisor", "report", "--model", "llama-3.1-8b", *BUILDS,
                           "--out", str(out)], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LLM_ADVISOR_HOME": str(tmp_path / "h"),
                               "PYTHONPATH": str(__import__("pathlib").Path(__file__).resolve().parents[2])})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert out.read_bytes().startswith(b"%PDF-")
