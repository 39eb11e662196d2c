"""The report says what the core computed: verdicts, needs, speeds and a derived recommendation."""

from __future__ import annotations

import datetime as dt

import pytest

from advisor.core.advice.comparison import (
    BuildEntry,
    Comparison,
    ModelRef,
    canonical_comparison,
)
from advisor.core.advice.evaluate import evaluate, resolve_model
from advisor.core.advice.recommend import recommendation
from advisor.core.advice.running import with_running_costs
from advisor.core.advice.speed_bases import with_speed_bases
from advisor.core.cost.running import CostSettings
from advisor.core.job.planned import PlannedJob, PlanPins
from advisor.core.units import GIB
from advisor.report.content import build_document
from advisor.report.document import Chart, Paragraph, Table
from advisor.storage.catalog_store import load_catalog
from advisor.storage.error_bands import speed_basis_table


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def _doc(catalog, comparison):
    arch = resolve_model(catalog, comparison.model)
    results = with_speed_bases(evaluate(catalog, arch, comparison.workload, comparison.builds), comparison.workload,
                               speed_basis_table())  # as the caller adds them (llm-advisor report, the window)
    results = with_running_costs(results, arch, comparison.workload, CostSettings(), dt.date(2026, 11, 22))
    doc = build_document(comparison, arch, results, catalog_date="2026-11-09", error_band="memory ±3 % median",
                         made_on=dt.date(2026, 11, 22))
    return doc, results


def _table(doc, first_column: str) -> Table:
    return next(b for b in doc.blocks if isinstance(b, Table) and b.columns[0] == first_column)


def test_verdict_rows_carry_the_core_numbers(catalog):
    doc, results = _doc(catalog, canonical_comparison())
    rows = {row[0]: row for row in _table(doc, "Build").rows}
    for r in results.builds:
        row = rows[r.name]
        assert row[1] == r.plan_text == "2 GPUs, tensor parallel over " + ("NVLink" if "3090" in r.name else
                                                                             "PCIe (through host memory)") + ", no offload"
        assert row[2] == r.status.value == "fits"
        assert f"{r.estimate.fit.need_per_gpu_bytes / GIB:,.1f} GiB" in row[3]
        assert f"{r.estimate.speed.decode_tokens_per_s:,.0f} tok/s" in row[5]


def test_a_build_that_does_not_fit_shows_why_and_what_would_fit(catalog):
    c = canonical_comparison().model_copy(update={"model": ModelRef(preset_id="llama-3.1-70b"), "builds": (
        BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"), BuildEntry(name="one 5090", build_id="1x-rtx-5090"))})
    c = c.model_copy(update={"workload": PlannedJob(weights="q4_k_m", engine="llama.cpp")})
    doc, results = _doc(catalog, c)
    rows = {row[0]: row for row in _table(doc, "Build").rows}
    assert rows["one 5090"][2] == "does not fit" and rows["one 5090"][5] == "—" and rows["one 5090"][6] == "—"
    text = doc.text()
    assert "What would make it fit" in text and "one 5090 would fit with" in text
    assert "1 more GeForce RTX 5090 (2 in all)" in text
    first = next(b for b in doc.blocks if isinstance(b, Paragraph))
    assert first.text.startswith("pair wins: it is the only build that runs this job")


def test_document_has_workload_charts_formulas_and_dates(catalog):
    doc, _ = _doc(catalog, canonical_comparison())
    text = doc.text()
    assert {b.kind for b in doc.blocks if isinstance(b, Chart)} == {"fit", "memory", "speed", "value"}
    for words in ("Llama 3.1 8B", "vllm", "8,192 tokens", "catalog 2026-11-09", "Made 2026-11-22",
                  "memory ±3 % median", "arXiv:1910.02054", "NVLink bridge", "no P2P", "seen 20"):
        assert words in text


def test_recommendation_names_the_faster_build_and_the_link(catalog):
    c = Comparison(model=ModelRef(preset_id="llama-3.2-3b"),
                   # 256-token sequences: FSDP's gathers weigh against less compute per step, so the link
                   # decides (at 512 the two pairs are about even since the 3090's measured matmul rate, its whole peak)
                   workload=PlannedJob(mode="train", method="full", seq_len=256,
                                     checkpointing="full", optimizer="adamw-8bit"),
                   builds=(BuildEntry(name="3090 pair", build_id="2x-rtx-3090-nvlink", plan=PlanPins(parallel="fsdp")),
                           BuildEntry(name="4090 pair", build_id="2x-rtx-4090-pcie-x16", plan=PlanPins(parallel="fsdp"))))
    _, results = _doc(catalog, c)
    text = recommendation(results, c.workload)
    speeds = {r.name: r.estimate.speed.train_tokens_per_s for r in results.builds}
    fastest = max(speeds, key=speeds.get)
    slowest = min(speeds, key=speeds.get)
    assert text.startswith(f"{fastest} wins on speed: {speeds[fastest]:,.0f} training tokens/s, "
                           f"{speeds[fastest] / speeds[slowest]:.1f} times as fast as {slowest}")
    assert "GPU-to-GPU link matters" in text  # FSDP over PCIe without P2P vs NVLink


def test_recommendation_when_nothing_fits_gives_the_shortfall(catalog):
    c = Comparison(model=ModelRef(preset_id="llama-3.1-405b"), workload=PlannedJob(),
                   builds=(BuildEntry(name="a", build_id="2x-rtx-3090-nvlink"), BuildEntry(name="b", build_id="2x-rtx-4090-pcie-x16")))
    _, results = _doc(catalog, c)
    text = recommendation(results, c.workload)
    need = results.builds[0].estimate.fit.need_per_gpu_bytes / GIB
    assert text.startswith("No build runs this job as set; the closest is")
    assert f"needs {need:.1f} GiB per GPU" in text
    closest = next(r for r in results.builds if f"the closest is {r.name} (" in text)
    assert f"{closest.name} needs" not in text  # its need is said once


def test_when_nothing_fits_the_closest_builds_fix_follows_its_shortfall_without_repeating_it(catalog):
    # The PDF's paragraph had said the closest build's need twice ("the closest is a (needs …). See what would
    # make it fit. a needs … and has …. What would make it fit: …"); likewise the build named beside a lone winner.
    c = Comparison(model=ModelRef(preset_id="llama-3.1-8b"), workload=PlannedJob(mode="train", method="lora", batch=40),
                   builds=(BuildEntry(name="a", build_id="2x-rtx-3090-nvlink"), BuildEntry(name="b", gpu_id="rtx-5090")))
    _, results = _doc(catalog, c)  # (evaluate looks for what would make each build fit)
    text = recommendation(results, c.workload)
    closest = next(r for r in results.builds if f"the closest is {r.name} (" in text)
    other = next(r for r in results.builds if r is not closest)
    assert closest.suggestions and f"What would make {closest.name} fit: {closest.suggestions[0].change}" in text
    assert f"{closest.name} needs" not in text
    assert f"{other.name} needs" in text and "What would make it fit: " in text
    # (One card's build is short of RAM for a full fine-tune's offload — a desktop's 32-64 GB, and RAM not known
    # is not RAM enough — so a DGX H100 stands in for the build that runs it.)
    one = Comparison(model=c.model, workload=PlannedJob(mode="train", method="full", batch=8),
                     builds=(c.builds[0], BuildEntry(name="b", system_id="nvidia-dgx-h100")))
    _, results = _doc(catalog, one)
    text = recommendation(results, one.workload)
    short = next(r for r in results.builds if not r.runs)
    assert "is the only build that runs this job" in text and text.count(f"{short.name} needs") == 1
    assert f"{short.name} does not fit" not in text and f"What would make {short.name} fit: " in text


def test_qlora_base_is_what_the_estimate_stores(catalog):
    # The window leaves PlannedJob.weights at its bf16 default for QLoRA; the estimate stores NF4.
    c = Comparison(model=ModelRef(preset_id="llama-3.1-8b"), workload=PlannedJob(mode="train", method="qlora"),
                   builds=(BuildEntry(name="a", build_id="1x-rtx-5090"), BuildEntry(name="b", build_id="1x-rtx-pro-6000")))
    doc, _ = _doc(catalog, c)
    rows = dict(_table(doc, "Setting").rows)
    assert rows["Base weights"] == "NF4 (4.5 bits)"


def test_a_request_in_the_report(catalog):
    """With prompt tokens set, the workload table says the request and each speed cell its whole time."""
    comp = canonical_comparison()
    comp = comp.model_copy(update={"workload": comp.workload.model_copy(update={"prompt_tokens": 4096})})
    doc, results = _doc(catalog, comp)
    workload = dict(_table(doc, "Setting").rows)
    rows = {row[0]: row for row in _table(doc, "Build").rows}
    for r in results.builds:
        assert f"whole request {r.estimate.speed.request_s:,.1f} s" in rows[r.name][5]
    assert "4,096 prompt tokens, 4,096 generated" in workload["Request"]


def test_a_build_the_job_cannot_run_on_is_said_in_words_without_field_names(catalog):
    # TensorRT-LLM on a Mac: the recommendation, the verdict table and the build's notes give the reason as a
    # buyer reads it ("TensorRT-LLM runs on NVIDIA GPUs only; ..."), not as the CLI's field ("engine: ...").
    from advisor.core.advice.comparison import BuildEntry as Entry

    base = canonical_comparison()
    workload = PlannedJob.model_validate({**base.workload.model_dump(), "engine": "tensorrt-llm"})
    c = base.model_copy(update={"workload": workload,
                                "builds": (base.builds[0], Entry(name="Mac", system_id="apple-mac-studio-m3-ultra-96gb"))})
    doc, results = _doc(catalog, c)
    mac = results.builds[1]
    assert mac.problems and mac.problems[0].startswith("engine: TensorRT-LLM runs on NVIDIA GPUs only")
    text = " ".join(b.text for b in doc.blocks if isinstance(b, Paragraph))
    assert "cannot run it: TensorRT-LLM runs on NVIDIA GPUs only; the Apple M3 Ultra" in text
    why = {row[0]: row[4] for row in _table(doc, "Build").rows}[mac.name]
    assert why.startswith("TensorRT-LLM runs on NVIDIA GPUs only")
    words = " ".join(" ".join(getattr(b, "items", ())) + getattr(b, "text", "") for b in doc.blocks)
    assert "engine:" not in words and "Problem: TensorRT-LLM runs on NVIDIA GPUs only" in words


def test_the_report_says_what_each_speed_stands_on(catalog):
    # The speed basis (advisor.core.speed.basis): each build's notes say whether its speed was measured on its GPU
    # family with the job's engine, and an extrapolated speed is marked so in the verdict table.
    c = canonical_comparison().model_copy(update={"builds": (
        BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"),
        BuildEntry(name="old", gpu_id="rtx-2080-ti", gpu_count=2))})
    c = c.model_copy(update={"workload": PlannedJob(weights="q4_k_m", engine="llama.cpp")})
    doc, results = _doc(catalog, c)
    rows = {row[0]: row for row in _table(doc, "Build").rows}
    assert rows["old"][5].endswith(" (extrapolated)") and not rows["pair"][5].endswith("(extrapolated)")
    text = doc.text()
    assert "Speed measured on this GPU family (NVIDIA sm_86) with llama.cpp" in text
    assert "Speed extrapolated: no published run of this GPU family (NVIDIA sm_75) with llama.cpp" in text
