"""The search runner alone: one search at a time on its worker thread (no core process here), answered on the
UI thread with the generation it was asked for; a cancelled search answers None."""

from __future__ import annotations

import pytest

from advisor.core.advice import evaluate
from advisor.core.advice.comparison import BuildEntry, ModelRef, canonical_comparison
from advisor.core.job.choices import Method, Mode
from advisor.storage.catalog_store import load_catalog
from advisor.ui.recompute.background_search import SearchRunner


@pytest.fixture(scope="module")
def job():
    """LoRA of a 70 B model on the canonical pair and one 5090: the 5090 does not fit, so there is something to find."""
    catalog = load_catalog().catalog
    arch = evaluate.resolve_model(catalog, ModelRef(preset_id="llama-3.1-70b"))
    workload = canonical_comparison().workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA})
    builds = (*canonical_comparison().builds, BuildEntry(name="5090", gpu_id="rtx-5090", gpu_count=1))
    return arch, workload, evaluate.evaluate(catalog, arch, workload, builds, suggest=False)


def test_the_answer_is_what_the_core_finds_for_the_generation_asked(qapp, qtbot, job):
    arch, workload, results = job
    runner = SearchRunner()
    with qtbot.waitSignal(runner.answered, timeout=60000) as answered:
        runner.submit(7, arch, workload, results, 0.0, use_process=True, cancelled=lambda: False)  # no process: the worker
        assert runner.busy
    generation, out = answered.args
    assert generation == 7 and not runner.busy
    want = evaluate.find_suggestions(arch, workload, results, 0.0)
    assert any(want) and out.suggestions == want  # the 5090 has something that would make it fit
    assert out.largest == evaluate.largest_fits_for(workload, evaluate.fit_inputs(results), 0.0)
    runner.close()


def test_a_cancelled_search_answers_none(qapp, qtbot, job):
    arch, workload, results = job
    runner = SearchRunner()
    with qtbot.waitSignal(runner.answered, timeout=60000) as answered:
        runner.submit(1, arch, workload, results, 0.0, use_process=False, cancelled=lambda: True)
    assert answered.args == [1, None]
    runner.close()
