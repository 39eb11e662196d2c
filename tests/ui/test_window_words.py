"""The window names controls, never CLI flags or field names; the CLI keeps its flags."""

import re

import pytest

from advisor.core.estimation.job_checks import check_planned
from advisor.core.job.choices import Method, Mode
from advisor.core.job.planned import PlannedJob
from advisor.core.model.generic import generic_decoder
from advisor.ui import format as fmt
from advisor.ui import words

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]

RAW = re.compile(r"--[a-z]|\b(n_gpus|lora_rank|kv_dtype|context_len|seq_len|gpu_memory_utilization)\b")


@pytest.mark.parametrize(("line", "expect"), [
    ("weights: full fine-tuning updates every weight; a q4_k_m base cannot be trained (use --method qlora or lora)",
     ("Weights: full fine-tuning updates every weight; a q4_k_m base cannot be trained "
      "(choose the LoRA or QLoRA method)")),
    ("parallel: tp needs 2 or more GPUs (--gpus)",
     "Parallel scheme (the build's plan): tp needs 2 or more GPUs (right-click the build ▸ Plan… to set its GPUs)"),
    ("n_gpus: tensor parallel 3 does not divide 32 heads",
     "GPUs used (the build's plan): tensor parallel 3 does not divide 32 heads"),
    ("optimizer: 8-bit optimizer states with pure fp32 weights: use --precision amp or bf16, or a 32-bit optimizer",
     "Optimizer: 8-bit optimizer states with pure fp32 weights: use amp or bf16 precision, or a 32-bit optimizer"),
    ("kv_dtype: q4_0 KV cache is a llama.cpp type; vllm uses fp16/bf16/fp8",
     "KV cache type: q4_0 KV cache is a llama.cpp type; vllm uses fp16/bf16/fp8"),
    ("something: a --future-flag here", "something: a Future flag here"),
])
def test_core_lines_in_the_windows_words(line, expect):
    assert words.problem(line) == expect
    assert not RAW.search(words.problem(line))


def test_the_cli_keeps_naming_its_flags():
    from advisor.core.estimation.job_rules import ignored

    arch = generic_decoder(8e9)
    w = PlannedJob(mode=Mode.TRAIN, method=Method.FULL, weights="q4_k_m", lora_rank=8)
    messages = " ".join(p.message for p in check_planned(arch, w) + ignored(w, {"lora_rank"}))
    assert "--method qlora or lora" in messages and "--method lora or qlora" in messages


def test_a_contradiction_is_said_in_words_everywhere(app_window, qtbot):
    session, window = app_window
    session.set_workload(PlannedJob(mode=Mode.TRAIN, precision="fp32", optimizer="adamw-8bit"))
    qtbot.waitUntil(lambda: not window.builds_panel.lines_pending, timeout=5000)  # they follow the table's paint
    r = session.results.builds[0]
    assert r.problems and "--precision" in " ".join(r.problems)  # the core's words …
    texts = [fmt.cell(r, 2, session.prefs, session.workload),
             fmt.cell_tip(r, 6, session.prefs, session.workload),
             window.builds_panel.label_messages.text(),
             window.workload_panel.label_problems.text()]
    for text in texts:  # … said as the window says them
        assert text and not RAW.search(text), text
    assert "use amp or bf16 precision" in window.workload_panel.label_problems.text()


def test_a_greyed_add_build_button_says_why(app_window):
    from advisor.core.advice.comparison import BuildEntry

    session, window = app_window
    button = window.builds_panel.button_add
    while session.can_add():
        session.add_build(BuildEntry(name=f"extra {len(session.builds)}", build_id="1x-rtx-5090"))
    assert not button.isEnabled() and "six builds" in button.toolTip()
    session.remove_build(len(session.builds) - 1)
    assert button.isEnabled() and "Add a candidate" in button.toolTip()


def test_a_build_short_of_host_ram_says_so_in_its_cell():
    """A build whose GPU share fits but whose RAM cannot hold what it offloads (one 4090 in its desktop): the
    cell's numbers are the RAM's, so "too big" reads true (a Mac had shown 4.8 GiB / 22.4 GiB, the reason only
    in a tooltip; a Mac now plans no offload, its "host RAM" being the pool its GPU uses)."""
    from advisor.core.advice import evaluate
    from advisor.core.advice.comparison import BuildEntry
    from advisor.storage.catalog_store import load_catalog
    from advisor.storage.settings import Settings

    cat = load_catalog().catalog
    job = PlannedJob(mode=Mode.TRAIN, method=Method.FULL)
    r = evaluate.evaluate_build(cat, cat.models["llama-3.1-8b"], job,
                                BuildEntry(name="one 4090", gpu_id="rtx-4090", gpu_count=1), with_suggestions=False)
    assert r.estimate.fit.host_short and not r.runs
    text = fmt.verdict_text(r, Settings(), job)
    need, available = (float(x.split()[0]) for x in text.split(": ", 1)[1].split(" / "))
    assert text.startswith("too big for host RAM: ") and need > available
    assert need == pytest.approx(r.estimate.fit.host_need_bytes / 2**30, abs=0.05)
