"""One plan space: the catalog search rules a candidate out (``plan.bounds``) only where ``best_plan`` — what
``estimate`` shows — would not run the job either, and its per-candidate verdict is ``estimate``'s."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.core.advice.candidates import PriceChoice, Where, catalog_candidates
from advisor.core.advice.catalog_search import (
    ModelJob,
    SearchRequest,
    evaluate_candidate,
    search,
)
from advisor.core.hardware.catalog import gpu_build, resolve_build
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.plan.bounds import NOT_RUN, TOO_SMALL, ruled_out
from advisor.core.plan.planner import best_plan
from advisor.storage.catalog_store import load_catalog

CATALOG = load_catalog().catalog
#: Every candidate the search builds (owned and rented, 1-8 cards, builds, systems).
CANDIDATES = catalog_candidates(CATALOG, PriceChoice.EITHER, Where.ANY, 8, None, 1)
JOBS = [
    ("llama-3.1-70b", PlannedJob(weights="q4_k_m", engine="llama.cpp")),
    ("qwen3-235b-a22b", PlannedJob(weights="q4_k_m", engine="llama.cpp")),
    ("qwen3-30b-a3b", PlannedJob(weights="q8_0", engine="ollama", context_len=32768)),
    ("deepseek-v3", PlannedJob(weights="q4_k_m", engine="llama.cpp")),
    ("llama-3.1-8b", PlannedJob(engine="vllm", batch=16, context_len=8192)),
    ("llama-3.1-8b", PlannedJob(engine="vllm", weights="fp8")),
    ("mixtral-8x7b", PlannedJob(engine="sglang", weights="awq")),
    ("llama-3.1-8b", PlannedJob(weights="nf4")),
    ("llama-3.1-8b", PlannedJob(engine="tensorrt-llm", weights="fp8", kv_dtype="fp8")),
    ("llama-3.1-8b", PlannedJob(engine="exllamav2", weights="4.65bpw")),
    ("llama-3.1-8b", PlannedJob(mode="train", method="qlora")),
    ("llama-3.1-8b", PlannedJob(mode="train", method="full")),
    ("llama-3.1-70b", PlannedJob(mode="train", method="qlora", optimizer="paged-adamw-8bit")),
    ("qwen2.5-7b", PlannedJob(mode="train", method="lora", framework="unsloth")),
]


def _weights(arch, job):
    return estimate_memory(arch, job).breakdown.weights


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(job_index=st.integers(0, len(JOBS) - 1), candidate_index=st.integers(0, len(CANDIDATES) - 1))
def test_advise_s_verdict_on_a_candidate_is_estimate_s(job_index, candidate_index):
    model, job = JOBS[job_index]
    arch, candidate = CATALOG.models[model], CANDIDATES[candidate_index]
    estimated = best_plan(arch, job, candidate.build)  # what `estimate --build` / the comparison shows
    why = ruled_out(arch, job, candidate.build, _weights(arch, job))
    found = None if why is not None else evaluate_candidate(candidate, (ModelJob(arch=arch, job=job),))
    assert (found is not None) is estimated.status.runs, (model, job, candidate.name, why, estimated.estimate.fit)
    if why == NOT_RUN:
        assert any(p.support for p in estimated.problems)


def test_the_issue_s_disagreements_are_gone():
    # Qwen3-235B-A22B Q4_K_M on llama.cpp: two 3090s with the experts in host RAM ran in `estimate` (9.5 tok/s)
    # but `advise --max-gpus 2` found no build: the pre-filter held the whole model to the GPUs' memory.
    qwen = CATALOG.models["qwen3-235b-a22b"]
    job = PlannedJob(weights="q4_k_m", engine="llama.cpp")
    pair = resolve_build(CATALOG, "2x-rtx-3090-nvlink")
    assert best_plan(qwen, job, pair).status.runs and ruled_out(qwen, job, pair, _weights(qwen, job)) is None
    result = search(CATALOG, (ModelJob(arch=qwen, job=job),), SearchRequest(max_gpus=2))
    shown = [f for f in result.ranked] + [g for f in result.ranked for g in f.folded]  # ranked, or folded under one
    assert any(f.candidate.build.name == pair.name for f in shown)
    # Ruled out with the reason: the software (vLLM on a Mac), the memory (70B Q4 on one 8 GB card).
    mac = resolve_build(CATALOG, "mac-studio-m3-ultra-512gb")
    vllm = PlannedJob(engine="vllm")
    assert ruled_out(CATALOG.models["llama-3.1-8b"], vllm, mac, 1.0) == NOT_RUN
    small = [c for c in CANDIDATES if c.build.gpu_count == 1 and c.build.gpus[0].id == "rtx-4060-ti-8gb"][0]
    llama70 = CATALOG.models["llama-3.1-70b"]
    q4 = PlannedJob(weights="q4_k_m", engine="llama.cpp")
    assert ruled_out(llama70, q4, small.build, _weights(llama70, q4)) == TOO_SMALL


@pytest.mark.parametrize("unified", [True, False])
def test_host_ram_counts_only_where_known_and_once_on_unified_memory(unified):
    from advisor.core.plan.bounds import _host_bytes

    build = resolve_build(CATALOG, "mac-studio-m3-ultra-512gb" if unified else "2x-rtx-3090-nvlink")
    gpu = 100 * 2**30
    if unified:
        assert _host_bytes(build, gpu) == 512 * 2**30 - gpu  # the pool beyond the GPU's share, not both
        assert _host_bytes(build.model_copy(update={"host_ram_gib": None}), gpu) == 512 * 2**30 - gpu
    else:
        assert _host_bytes(build, gpu) == 256 * 2**30  # its parts list: 8 × 32 GB RDIMMs
        bare = gpu_build(CATALOG, "rtx-3090", 2)  # cards alone, no tier: nothing says what RAM it has
        assert bare.host_ram_gib is None and _host_bytes(bare, gpu) == 0.0
