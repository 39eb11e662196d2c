"""The catalog search: candidates, limits, ranking and the Pareto front."""

import datetime as dt

import pytest

from advisor.core.advice.candidates import PriceChoice, Where, catalog_candidates
from advisor.core.advice.ranking import Criterion
from advisor.core.advice.search import Found, Job, SearchRequest, pareto_front, search
from advisor.core.job.workload import Engine, Workload
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def test_candidates_cover_cards_bridges_builds_systems(catalog):
    owned = catalog_candidates(catalog, PriceChoice.NEW, Where.OWNED, max_gpus=8)
    kinds = {c.kind for c in owned}
    assert kinds == {"gpus", "build", "system"}
    names = {c.id for c in owned}
    assert "1x-rtx-4090" in names and "8x-rtx-4090" in names
    assert "2x-rtx-4090-nvlink" not in names  # the 4090 takes no bridge
    assert "2x-rtx-3090-nvlink" in names  # the catalog build, not a GPU-only copy of it
    assert not any(c.kind == "gpus" and "h100-sxm" in c.id for c in owned)  # SXM modules are not cards
    cloud = catalog_candidates(catalog, where=Where.CLOUD)
    assert cloud and all(c.price_kind in ("per_hour", None) for c in cloud)


def test_every_ranked_candidate_runs_the_job_within_budget(catalog):
    job = Job(arch=catalog.models["llama-3.1-8b"], workload=Workload(engine=Engine.VLLM))
    result = search(catalog, (job,), SearchRequest(budget_usd=2500, sort=Criterion.VALUE), today=dt.date(2026, 11, 24))
    assert result.ranked
    for f in result.ranked:
        assert f.candidate.price_usd <= 2500 and all(p.status.runs for p in f.planned)
        assert f.planned[0].plan.n_gpus == f.candidate.build.gpu_count  # all of its GPUs
    values = [f.value for f in result.ranked]
    assert values == sorted(values)


def test_two_jobs_must_both_run(catalog):
    chat = Job(arch=catalog.models["llama-3.1-70b"], workload=Workload(weights="q4_k_m", engine=Engine.LLAMA_CPP))
    tune = Job(arch=catalog.models["llama-3.1-8b"], workload=Workload(mode="train", method="qlora"))
    both = search(catalog, (chat, tune), SearchRequest(budget_usd=6000))
    only_chat = search(catalog, (chat,), SearchRequest(budget_usd=6000))
    assert {f.candidate.id for f in both.ranked} <= {f.candidate.id for f in only_chat.ranked}
    assert all(len(f.planned) == 2 and len(f.plans_text) == 2 for f in both.ranked)


def test_without_a_budget_unpriced_candidates_come_last(catalog):
    job = Job(arch=catalog.models["llama-3.1-8b"], workload=Workload(engine=Engine.LLAMA_CPP, weights="q4_k_m"))
    ranked = search(catalog, (job,), SearchRequest()).ranked
    priced = [f.candidate.price_usd is not None for f in ranked]
    assert priced == sorted(priced, reverse=True) and not priced[-1]


def _f(price, speed):
    class C:
        price_usd = price
    return Found(candidate=C(), planned=(), plans_text=(), speed_score=speed)


def test_pareto_front_keeps_only_undominated():
    pts = [_f(1000, 10), _f(1500, 9), _f(2000, 20), _f(2500, 20), _f(3000, 30), _f(None, 50)]
    front = pareto_front(pts)
    assert [(f.candidate.price_usd, f.speed_score) for f in front] == [(1000, 10), (2000, 20), (3000, 30)]
