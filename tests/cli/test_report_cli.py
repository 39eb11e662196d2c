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
    assert "LoRA fine-tuning" in text and "2× RTX 3090 + NVLink bridge" in text and "tok/s train" in text


def test_several_machines_of_one_build_in_the_pdf(qapp, tmp_path):
    out = tmp_path / "nodes.pdf"
    code = main(["report", "--model", "llama-3.1-70b", "--build", "nvidia-dgx-h100", "--build", "nvidia-dgx-h100:2",
                 "--mode", "train", "--method", "full", "--parallel", "fsdp", "--out", str(out)])
    assert code == 0
    text = _text(out)
    assert "2 × NVIDIA DGX H100" in text and "2 machines joined by 8× ConnectX-7" in text and "InfiniBand" in text
    assert "infiniband" not in text  # the fabric in words, not the record's value


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--model", "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink"], "--build"),
        (["--model", "llama-3.1-8b", "--build", "a", "--build", "b"], "--build"),
        (["--model", "no-such-model", *BUILDS], "MODEL"),
        (["--model", "llama-3.1-8b", *BUILDS, "--batch", "0"], "--batch"),
        ([*BUILDS], "COMPARISON.json"),
        (["--model", "llama-3.1-8b", *BUILDS, "--build", "nvidia-dgx-h100:0"], "--build"),
        (["--model", "llama-3.1-8b", *BUILDS, "--build", "nvidia-dgx-h100:two"], "--build"),
        (["--model", "llama-3.1-8b", *BUILDS, "--build", "nvidia-dgx-h100:٢"], "--build"),
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
    # A real process: no display, no Qt crash at exit (PySide6 6.12.0 on CPython 3.11 aborted here: see pyproject's PySide6 bound).
    out = tmp_path / "sub.pdf"
    proc = subprocess.run([sys.executable, "-m", "advisor", "report", "--model", "llama-3.1-8b", *BUILDS,
                           "--out", str(out)], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LLM_ADVISOR_HOME": str(tmp_path / "h"),
                               "PYTHONPATH": str(__import__("pathlib").Path(__file__).resolve().parents[2])})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert out.read_bytes().startswith(b"%PDF-")


# --- bad input: one clear line, exit 2, nothing written ------------------------------------------------

import json  # noqa: E402
import os  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _usage(capsys, *argv) -> str:
    code = main(["report", *argv])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


def test_a_title_over_200_characters(tmp_path, capsys):
    err = _usage(capsys, "--model", "llama-3.1-8b", *BUILDS, "--title", "t" * 201, "--out", str(tmp_path / "r.pdf"))
    assert "--title: at most 200 characters" in err and not (tmp_path / "r.pdf").exists()


def test_an_out_name_over_255_characters(tmp_path, capsys):
    err = _usage(capsys, "--model", "llama-3.1-8b", *BUILDS, "--out", str(tmp_path / ("n" * 300 + ".pdf")))
    assert "--out: the file name is 304 bytes long" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="links and FIFOs")
@pytest.mark.parametrize("kind", ["link", "fifo"])
def test_a_link_or_fifo_out_is_not_replaced_even_with_overwrite(tmp_path, capsys, kind):
    out, target = tmp_path / "r.pdf", tmp_path / "target.pdf"
    target.write_bytes(b"keep")
    out.symlink_to(target) if kind == "link" else os.mkfifo(out)
    err = _usage(capsys, "--model", "llama-3.1-8b", *BUILDS, "--out", str(out), "--overwrite")
    assert ("symbolic link" if kind == "link" else "not a regular file") in err
    assert (out.is_symlink() if kind == "link" else not out.is_file()) and target.read_bytes() == b"keep"


def test_a_build_using_a_hidden_shipped_gpu(tmp_path, capsys):
    assert main(["catalog", "remove", "rtx-3090"]) == 0
    capsys.readouterr()
    err = _usage(capsys, "--model", "llama-3.1-8b", *BUILDS, "--out", str(tmp_path / "r.pdf"))
    assert "build '2× RTX 3090 + NVLink bridge': no gpu with id 'rtx-3090'" in err
    assert not (tmp_path / "r.pdf").exists()


@pytest.mark.parametrize("change", ["tdp", "generic", "nested"])
def test_a_comparison_file_the_estimate_cannot_use(tmp_path, capsys, change):
    path = tmp_path / "c.json"
    save_comparison(path, canonical_comparison())
    doc = json.loads(path.read_text())
    if change == "tdp":
        gpu = load_catalog().catalog.gpus["rtx-3090"].model_dump(mode="json", exclude={"schema_version"})
        doc["builds"][0] = {"name": "inline", "inline": {"name": "inline", "gpus": [{**gpu, "tdp_w": 1e308}]}}
        text = json.dumps(doc)
    elif change == "generic":
        text = json.dumps({**doc, "model": {"generic_params": 5}})
    else:
        text = '{"title": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path.write_text(text)
    err = _usage(capsys, str(path), "--out", str(tmp_path / "r.pdf"))
    assert "COMPARISON.json" in err and path.read_text() == text and not (tmp_path / "r.pdf").exists()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(flag=st.sampled_from(["--title", "--out", "--unit", "--page-size", "--model", "--params", "--build", "--gpus",
                             "--weights", "--context"]),
       value=st.text(min_size=0, max_size=300) | st.sampled_from(["--", "1e400", "-1", "٣", "../x", "/dev/zero"]))
def test_fuzzed_report_flags_fail_cleanly_before_any_pdf(tmp_path, capsys, monkeypatch, flag, value):
    import advisor.cli.report as report_cli

    monkeypatch.setattr(report_cli, "_write", lambda *a: 0)  # flags only: no PDF is drawn
    argv = ["--model", "llama-3.1-8b", *BUILDS, "--out", str(tmp_path / "r.pdf"), f"{flag}={value}"]
    try:
        code = main(["report", *argv])
    except SystemExit as exc:  # argparse's own errors: one line, exit 2
        code = exc.code
    err = capsys.readouterr().err
    assert code in (0, 1, 2) and "Traceback" not in err
    assert not (tmp_path / "r.pdf").exists()
