"""The catalog search: candidates, limits, ranking and the Pareto front."""

import datetime as dt

import pytest

from advisor.core.advice.candidates import PriceChoice, catalog_candidates
from advisor.core.advice.catalog_search import (
    ModelJob,
    SearchRequest,
    search,
)
from advisor.core.advice.ranking import Criterion
from advisor.core.job.choices import Engine
from advisor.core.job.planned import PlannedJob
from advisor.core.plan.planner import SPEED_TIE


TODAY = dt.date(2026, 11, 27)


def test_every_ranked_candidate_runs_the_job_within_budget(catalog):
    job = ModelJob(arch=catalog.models["llama-3.1-8b"], job=PlannedJob(engine=Engine.VLLM))
    result = search(catalog, (job,), SearchRequest(budget_usd=2500, sort=Criterion.VALUE), today=dt.date(2026, 11, 24))
    assert result.ranked
    for f in result.ranked:
        assert f.candidate.price_usd <= 2500 and all(p.status.runs for p in f.chosen)
        assert f.chosen[0].plan.n_gpus == f.candidate.build.gpu_count  # all of its GPUs
    # by price per token/s, but a machine with fewer GPUs leads one within the estimate's error (fewer_cards_first)
    for a, b in zip(result.ranked, result.ranked[1:]):
        assert a.value <= b.value or (a.candidate.build.gpu_count < b.candidate.build.gpu_count
                                      and a.value <= b.value * (1 + SPEED_TIE))


def test_two_jobs_must_both_run(catalog):
    chat = ModelJob(arch=catalog.models["llama-3.1-70b"], job=PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP))
    tune = ModelJob(arch=catalog.models["llama-3.1-8b"], job=PlannedJob(mode="train", method="qlora"))
    both = search(catalog, (chat, tune), SearchRequest(budget_usd=6000), today=TODAY)
    only_chat = search(catalog, (chat,), SearchRequest(budget_usd=6000), today=TODAY)

    def ids(result):
        return {g.candidate.id for f in result.ranked for g in (f, *f.folded)}

    assert ids(both) <= ids(only_chat)
    assert all(len(f.chosen) == 2 and len(f.plans_text) == 2 for f in both.ranked)


def test_without_a_budget_unpriced_candidates_come_last(catalog):
    job = ModelJob(arch=catalog.models["llama-3.1-8b"], job=PlannedJob(engine=Engine.LLAMA_CPP, weights="q4_k_m"))
    ranked = search(catalog, (job,), SearchRequest()).ranked
    priced = [f.candidate.price_usd is not None for f in ranked]
    assert priced == sorted(priced, reverse=True) and not priced[-1]


def test_the_default_order_puts_usable_machines_first_by_speed_for_the_money(catalog):
    job = ModelJob(arch=catalog.models["llama-3.1-70b"], job=PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP))
    request = SearchRequest(budget_usd=4000, price=PriceChoice.EITHER)
    assert request.sort is Criterion.BEST
    ranked = search(catalog, (job,), request, today=TODAY).ranked
    usable = [f.usable for f in ranked]
    assert usable == sorted(usable, reverse=True) and usable[0]
    first = [f for f in ranked if f.usable]
    assert [f.value for f in first] == sorted(f.value for f in first)
    for f in first:
        per_seq = f.chosen[0].estimate.speed.decode_tokens_per_s / f.chosen[0].planned.batch
        assert per_seq * f.factor >= request.min_tokens_per_s


def test_a_candidate_no_better_than_one_above_folds_under_it(catalog):
    """Issue: 3x, 4x, 5x … 8x Tesla P100 at the same 11.7 tok/s, each a row. More of the same cards at the same
    speed and a higher price fold under the first."""
    job = ModelJob(arch=catalog.models["llama-3.1-70b"], job=PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP))
    ranked = search(catalog, (job,), SearchRequest(price=PriceChoice.EITHER, sort=Criterion.PRICE), today=TODAY).ranked
    shown = [f.candidate.id for f in ranked]
    folded = {g.candidate.id for f in ranked for g in f.folded}
    # (Since llama.cpp's decode follows its kernels on each GPU, gguf_decode, a P100 stack decodes at a third of
    # what its bandwidth allowed: it now folds under cheaper, faster machines as well.)
    assert "5x-tesla-p100-16gb-pcie" not in shown
    assert {"3x-tesla-p100-16gb-pcie", "5x-tesla-p100-16gb-pcie"} <= set(shown) | folded
    for f in ranked:
        for g in f.folded:
            assert g.candidate.rank_usd >= f.candidate.rank_usd
            assert g.candidate.build.gpu_count >= f.candidate.build.gpu_count
            assert g.rank_speed <= f.rank_speed * 1.15


def test_an_extrapolated_speed_ranks_at_the_low_end_of_its_band(catalog):
    from advisor.core.speed.basis import basis_key

    job = ModelJob(arch=catalog.models["llama-3.1-8b"], job=PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP))
    table = {basis_key("NVIDIA sm_86", "llama.cpp"): {"rows": 5, "median_pct": 7.4}}
    result = search(catalog, (job,), SearchRequest(budget_usd=2500, price=PriceChoice.EITHER), today=TODAY,
                    basis_table=table, fallback_band_pct=40.0)
    by_family = {}
    for f in result.ranked:
        by_family.setdefault(f.candidate.build.gpus[0].speed_family, f)
    assert by_family["NVIDIA sm_86"].calibrated and by_family["NVIDIA sm_86"].factor == 1.0
    other = next(f for fam, f in by_family.items() if fam != "NVIDIA sm_86")
    assert not other.calibrated and other.factor == pytest.approx(0.6)
    assert other.rank_speed == pytest.approx(0.6 * other.speed_score)


def test_a_job_whose_weights_overflow_the_cards_is_offered_machines_with_the_ram_for_them(catalog):
    """Qwen3 235B-A22B's experts in host RAM (llama.cpp --n-cpu-moe): 126 GiB of weights on two 24 GB cards leave
    78 GiB for the host — with the OS's 16, more than a two-card desktop's 64 GB: the same desktop with 96 GB is a
    candidate, priced with its RAM; so are the cards on every other tier that carries them (the CPU reads the
    experts from its RAM: a workstation's eight channels against a desktop's two), each with the RAM it needs."""
    owned = catalog_candidates(catalog, PriceChoice.EITHER, today=TODAY, host_need_gib=126)
    plain = next(c for c in owned if c.id == "2x-rtx-3090")
    more = next(c for c in owned if c.id == "2x-rtx-3090-96gb-ram")
    tier = plain.build.tier
    assert plain.build.host_ram_gib == tier.host_ram_gib == 64 and more.build.host_ram_gib == 96
    assert more.price_usd == pytest.approx(plain.price_usd + (96 - 64) * tier.ram_usd_per_gib)
    assert "32 GB more RAM (96 GB in all)" in more.price.includes and more.entry.inline == more.build
    station = next(c for c in owned if c.id == "2x-rtx-3090-on-workstation-four-cards-96gb-ram")
    assert station.build.tier.id == "workstation-four-cards" and station.build.host_ram_gib == 96
    assert station.build.tier.ram_channels == 8 and tier.ram_channels == 2
    assert not any(c.id.startswith("2x-rtx-3090-on-used-gpu-server") for c in owned)  # fanless cards only
    assert not any(c.id.startswith("2x-rtx-5090-") and c.id.endswith("gb-ram") for c in
                   catalog_candidates(catalog, today=TODAY, host_need_gib=40))  # 64 GB of cards hold 40 GiB
