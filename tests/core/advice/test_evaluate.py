"""One evaluation of a comparison: largest-fit interpolation, model resolution, honest messages."""

import pickle

import pytest

from advisor.core.advice import evaluate as compute
from advisor.core.advice.comparison import BuildEntry, ModelRef, canonical_comparison
from advisor.core.job.choices import Engine, Method, Mode
from advisor.core.job.planned import PlannedJob, alone
from advisor.storage.catalog_store import load_catalog


def test_canonical_comparison_matches_the_estimator():
    from advisor.core.estimation.estimator import estimate

    catalog = load_catalog().catalog
    c = canonical_comparison()
    arch = compute.resolve_model(catalog, c.model)
    results = compute.evaluate(catalog, arch, c.workload, c.builds)
    for entry, r in zip(c.builds, results.builds, strict=True):
        # Each build runs the job under its own plan: both GPUs, tensor parallel (vLLM's usual layout).
        assert r.chosen.plan.n_gpus == 2 and r.chosen.plan.parallel.value == "tp"
        assert r.plan_text.startswith("2 GPUs, tensor parallel over")
        direct = estimate(arch, r.chosen.planned, compute.resolve_entry(catalog, entry))
        assert r.estimate == direct
        assert r.price_new_usd is not None and r.power_w is not None  # the catalog knows both cards
    assert results.chosen_params == pytest.approx(8.03e9, rel=0.01)
    # The fit plot draws the formats the job's engine loads: vLLM no GGUF, llama.cpp no fp8, int8 or AWQ.
    assert set(results.curves) == {"bf16", "fp8", "int8 (LLM.int8)", "4-bit AWQ"}
    gguf = compute.technique_workloads(c.workload.model_copy(update={"engine": Engine.LLAMA_CPP, "weights": "q4_k_m"}))
    assert set(gguf[0]) == {"bf16", "GGUF Q4_K_M"} and gguf[1] == "GGUF Q4_K_M"


def test_model_marker_sits_on_the_curves_footing():
    # vLLM with a build pre-allocates the card; the curves (and so the marker) are the whole model on
    # one GPU, no build; each build's largest model is its own plan search's, held to its verdict.
    from advisor.core.memory.peak import estimate_memory

    catalog = load_catalog().catalog
    c = canonical_comparison()
    arch = compute.resolve_model(catalog, c.model)
    results = compute.evaluate(catalog, arch, c.workload, c.builds)
    assert results.chosen_need_bytes == estimate_memory(arch, alone(c.workload)).breakdown.total
    assert results.fits_found
    for r in results.builds:
        assert r.runs and r.largest_fit["bf16"] >= results.chosen_params
        assert r.largest_fit["4-bit AWQ"] > r.largest_fit["bf16"]  # fewer bytes per weight: a larger model


def test_the_largest_model_is_the_plan_searchs():
    """A 70B full fine-tune runs on two 24 GB cards with offload (host RAM unknown): the build is credited
    with what its plan holds, not 1.1 B from its bare capacity against the no-build curve."""
    catalog = load_catalog().catalog
    arch = catalog.models["llama-3.1-70b"]
    job = PlannedJob(mode=Mode.TRAIN, method=Method.FULL)
    results = compute.evaluate(catalog, arch, job, (BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"),))
    r = results.builds[0]
    assert r.runs == (r.largest_fit["full fine-tune"] >= results.chosen_params)


def test_evaluation_in_two_steps_is_the_evaluation_in_one():
    """The window's split (so a change repaints soon): builds prepared once per catalog, the estimates at once,
    what would make a build fit later — the same results as one ``evaluate``."""
    catalog = load_catalog().catalog
    c = canonical_comparison()
    entries = (*c.builds, BuildEntry(name="one 5090", build_id="1x-rtx-5090"),
               BuildEntry(name="unknown", build_id="no-such-build"))
    for workload, ref in ((c.workload, ModelRef(preset_id="llama-3.1-70b")),  # bf16 70B on vLLM: none fits
                          (PlannedJob(mode=Mode.TRAIN, method=Method.LORA), ModelRef(generic_params=400e9))):
        arch = compute.resolve_model(catalog, ref)
        curves = compute.fit_curves(workload)
        whole = compute.evaluate(catalog, arch, workload, entries, curves, 0.05)
        prepared = tuple(compute.prepare_build(catalog, e) for e in entries)
        first = compute.evaluate(catalog, arch, workload, entries, curves, 0.05, prepared=prepared, suggest=False)
        assert all(not r.suggestions for r in first.builds)
        looked_for = [compute.needs_suggestions(r) for r in first.builds]
        assert any(looked_for) and not looked_for[-1]  # the unknown build has nothing to look for
        found = compute.find_suggestions(arch, workload, first, 0.05)
        assert [f is not None for f in found] == looked_for
        # What a search in another process is sent: each build and its pins, only where it looks.
        inputs = compute.suggestion_inputs(first)
        assert [i is not None for i in inputs] == looked_for
        assert all(i[0] is r.resolved for i, r in zip(inputs, first.builds, strict=True) if i is not None)
        assert compute.suggestions_for(arch, workload, pickle.loads(pickle.dumps(inputs)), 0.05) == found
        both = compute.with_suggestions(first, found)
        assert [r.suggestions for r in both.builds] == [r.suggestions for r in whole.builds]
        fits = compute.fit_inputs(first)
        assert [f is not None for f in fits] == [r.chosen is not None for r in first.builds]
        answer = compute.background_search(arch, workload, inputs, 0.05, pickle.loads(pickle.dumps(fits)))
        searched = compute.with_search(first, answer)
        assert [r.largest_fit for r in searched.builds] == [r.largest_fit for r in whole.builds]
        assert [r.suggestions for r in searched.builds] == [r.suggestions for r in whole.builds]
        assert any(r.suggestions for r in both.builds)
        for a, b in zip(both.builds, whole.builds, strict=True):
            assert (a.error, a.warnings, a.price_new_usd, a.status) == (b.error, b.warnings, b.price_new_usd, b.status)
    asked = []
    assert compute.find_suggestions(arch, workload, first, 0.05, cancelled=lambda: asked.append(1) or len(asked) > 1) is None
    assert len(asked) == 2  # asked before the first build, then before its first re-estimate: stopped there
    asked.clear()
    assert compute.find_suggestions(arch, workload, first, 0.05, cancelled=lambda: asked.append(1) and False) == found
    # Asked before each re-estimate within a build too (a newer change waits at most one plan search
    # for the window's worker, not a whole build's search), not only between builds.
    assert len(asked) > 2 * len(first.builds)
    with pytest.raises(ValueError, match="one prepared build per entry"):
        compute.evaluate(catalog, arch, c.workload, entries, curves, prepared=prepared[:1])


def test_a_quick_evaluation_differs_only_in_what_the_details_add():
    """The window's pass (what it computes before the table paints) leaves out the rule of thumb, the parameter counts and
    the assumptions; memory, speed (its notes too), fit, plan and status are the full evaluation's, and
    ``detailed`` makes it the full one."""
    catalog = load_catalog().catalog
    c = canonical_comparison()
    entries = (*c.builds, BuildEntry(name="one 5090", build_id="1x-rtx-5090"),
               BuildEntry(name="unknown", build_id="no-such-build"))
    falcon = catalog.models["falcon-180b"]
    cases = ((compute.resolve_model(catalog, c.model), c.workload),
             (compute.resolve_model(catalog, c.model), PlannedJob(mode=Mode.TRAIN, method=Method.LORA, batch=4)),
             (compute.resolve_model(catalog, ModelRef(preset_id="llama-3.1-70b")), c.workload),
             # past the model's trained context on TensorRT-LLM: the speed notes say so in both
             (falcon, PlannedJob(engine="tensorrt-llm", weights="fp8", context_len=4096, prompt_tokens=2048)))
    for arch, workload in cases:
        for entry in entries:
            full = compute.evaluate_build(catalog, arch, workload, entry, 0.05, False)
            quick = compute.evaluate_build(catalog, arch, workload, entry, 0.05, False, quick=True)
            assert full.detailed
            if full.estimate is None:
                assert quick == full
                continue
            assert not quick.detailed
            a, b = full.estimate, quick.estimate
            assert (a.memory, a.speed, a.fit) == (b.memory, b.speed, b.fit)
            assert (quick.status, quick.plan_text, quick.chosen.plan, quick.problems) == \
                (full.status, full.plan_text, full.chosen.plan, full.problems)
            assert b.rule_of_thumb is None and b.params_total == 0 and b.assumptions == ()
            assert a.params_total > 0 and a.assumptions
            assert compute.detailed(arch, quick) == full
            if arch is falcon and not quick.problems:  # (a build the software does not run it on has no speed)
                assert any("past the 2,048 Falcon 180B was trained on" in n for n in b.speed.notes)
    results = compute.assemble(arch, workload, [compute.evaluate_build(catalog, arch, workload, e, 0.05, False, quick=True)
                                                for e in entries], ({}, ""))
    whole = compute.detailed_results(arch, results)
    assert all(r.detailed for r in whole.builds) and compute.detailed_results(arch, whole) is whole
