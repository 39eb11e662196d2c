"""The winner: fits first, then the criterion; a close call goes to the next criterion."""

import datetime as dt

import pytest

from advisor.core.advice.comparison import BuildEntry, ModelRef, canonical_comparison
from advisor.core.advice.evaluate import evaluate, resolve_model
from advisor.core.advice.ranking import Criterion, rank, speed_of
from advisor.core.advice.recommend import recommendation
from advisor.core.cost.machine import PriceChoice, today_price
from advisor.core.job.choices import Engine
from advisor.core.job.planned import PlannedJob
from tests.core.advice.advice_fixtures import results_of


def test_canonical_pair_same_decode_speed_so_the_cheaper_wins(catalog):
    c = canonical_comparison()
    results = results_of(catalog, c)
    ranking = rank(results, c.workload)
    a, b = results.builds
    assert speed_of(a) == pytest.approx(speed_of(b), rel=0.05)
    cheap, dear = sorted(results.builds, key=lambda r: r.price.usd)
    assert ranking.winner is cheap  # the same decode rate: the cheaper pair wins
    assert ranking.sentence.startswith(f"{cheap.name} wins: about as fast as {dear.name} (")
    assert (f"for ${dear.price.usd - cheap.price.usd:,.0f} less (${cheap.price.usd:,.0f} {cheap.price.kind_words} vs "
            f"${dear.price.usd:,.0f} {dear.price.kind_words})") in ranking.sentence
    assert recommendation(results, c.workload).startswith(ranking.sentence)


def test_the_first_window_ranks_the_3090_pair_on_todays_used_price(catalog):
    """Issue: the first window named the 3090 pair the winner on a 'new' price for a card no longer sold new.
    Today's price of a machine is the lower of its new and used prices, whole (cards and platform)."""
    results = results_of(catalog, canonical_comparison())
    pair = next(r for r in results.builds if "3090" in r.name)
    # today's used price of the card and of the typical desktop tier, whichever dated prices the catalog holds
    today = dt.date.today()  # evaluate() prices as of today
    card = today_price(catalog.gpus["rtx-3090"].prices, PriceChoice.USED, today)
    tier = today_price(catalog.platforms["desktop-two-cards"].prices, PriceChoice.USED, today)
    assert pair.price.kind_words == "used" and pair.price.usd == pytest.approx(2 * card.usd + tier.usd)
    assert pair.price.platform == "desktop for two cards (typical)"
    assert not any(r.price_gpus_only for r in results.builds)


def test_ratios_and_subjects_read_as_english(catalog):
    """Ratios and verdicts a buyer reads: '4.0× 2× RTX 4090 PCIe', '1.2× less than' and 'it runs it'."""
    from advisor.core.advice.ranking import percent_less, times

    assert times(4.0, 1.0) == "4.0 times" and times(2.0, 1.0) == "twice"
    assert percent_less(25.0, 30.0) == "17 % less"
    c = canonical_comparison().model_copy(update={"builds": (
        BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"), BuildEntry(name="one", build_id="1x-rtx-pro-6000"))})
    results = results_of(catalog, c)
    for criterion in Criterion:
        sentence = rank(results, c.workload, criterion).sentence
        assert "× " not in sentence.replace("2× RTX", "") and "it runs it" not in sentence, sentence
        assert "× less" not in sentence


def test_the_only_build_that_runs_it_wins_and_the_other_says_why(catalog):
    c = canonical_comparison().model_copy(update={
        "model": ModelRef(preset_id="llama-3.1-70b"),
        "workload": PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP),
        "builds": (BuildEntry(name="5090", build_id="1x-rtx-5090"), BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"))})
    ranking = rank(results_of(catalog, c), c.workload)
    assert ranking.winner.name == "pair" and ranking.runner_up is None
    assert ranking.sentence.startswith("pair wins: it is the only build that runs this job, at ")
    # CUDA context 712 MiB; attn_v Q5_K; the input embedding (0.49 GiB) in host RAM, as llama.cpp keeps it
    assert "5090 needs 41.3 GiB per GPU, 31.6 GiB usable" in ranking.sentence


@pytest.mark.parametrize("criterion", list(Criterion))
def test_each_criterion_names_itself(catalog, criterion):
    c = canonical_comparison().model_copy(update={"builds": (
        BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"), BuildEntry(name="one", build_id="1x-rtx-pro-6000"))})
    ranking = rank(results_of(catalog, c), c.workload, criterion)
    assert ranking.winner is not None and ranking.criterion is criterion
    # On speed the two are within the estimate's error: the cheaper wins, as fast for less.
    words = {Criterion.SPEED: "about as fast as", Criterion.PRICE: "price", Criterion.VALUE: "value",
             Criterion.BEST: "the most speed for the money at a usable speed"}[criterion]
    assert words in ranking.sentence


def test_nothing_runs_says_the_closest(catalog):
    c = canonical_comparison().model_copy(update={"model": ModelRef(preset_id="llama-3.1-405b")})
    ranking = rank(results_of(catalog, c), c.workload)
    assert ranking.winner is None and ranking.sentence.startswith("No build runs this job as set; the closest is")


def test_a_faster_build_that_fits_only_tightly_is_named_as_such(catalog):
    """Seen in the six-build window (LoRA 8B, 41 sequences of 1,024): the DGX H100 fits within the estimate's
    error, the H200 with room to spare. The H200 wins by fitting, and the sentence said 'wins on speed: 5,111
    training tokens/s, 0.1× NVIDIA DGX H100 (40,890)'; it now says why it wins and what the other offers."""
    from advisor.core.job.choices import Method, Mode
    from advisor.core.plan.planner import FitStatus

    c = canonical_comparison().model_copy(update={
        "workload": PlannedJob(mode=Mode.TRAIN, method=Method.LORA, batch=41, seq_len=1024),
        "builds": (BuildEntry(name="DGX", system_id="nvidia-dgx-h100"),
                   BuildEntry(name="H200", cloud_id="runpod-h200-secure-cloud"))})
    # a margin as the window takes (the memory estimate's measured median error for the job); 5 % here
    results = evaluate(catalog, resolve_model(catalog, c.model), c.workload, c.builds, margin=0.05)
    dgx, h200 = results.builds
    assert (dgx.status, h200.status) == (FitStatus.TIGHT, FitStatus.FITS)
    assert speed_of(dgx) > 5 * speed_of(h200)
    ranking = rank(results, c.workload)
    assert ranking.winner is h200
    assert ranking.sentence.startswith("H200 wins: it fits with room to spare; DGX is ")
    assert " times as fast (" in ranking.sentence and "but is tight (within the estimate's error of its memory)." in \
        ranking.sentence
    assert "0.1×" not in ranking.sentence
    # On price neither has a purchase price (one is rented, the other unpriced): no claim either way.
    cheaper = rank(results, c.workload, Criterion.PRICE).sentence
    assert cheaper.startswith("H200 comes first; DGX second") and "costs less" not in cheaper


def test_value_per_token_is_given_in_cents_and_an_unknown_speed_is_said(catalog):
    from advisor.core.job.choices import Method, Mode
    from advisor.core.units import format_usd

    assert format_usd(1.476) == "$1.48" and format_usd(21.24) == "$21.24" and format_usd(3038) == "$3,038"
    # QLoRA on a Mac: it fits, but no training speed is estimated there (Apple publishes no tensor FLOP/s)
    c = canonical_comparison().model_copy(update={
        "workload": PlannedJob(mode=Mode.TRAIN, method=Method.QLORA, weights="nf4", batch=2, seq_len=1024),
        "builds": (BuildEntry(name="DGX", system_id="nvidia-dgx-h100"),
                   BuildEntry(name="Mac", system_id="apple-mac-studio-m3-ultra-96gb"))})
    results = results_of(catalog, c)
    dgx, mac = results.builds
    assert mac.runs and speed_of(mac) is None and speed_of(dgx)
    sentence = rank(results, c.workload).sentence
    assert sentence.startswith("DGX wins on speed: ") and sentence.endswith("; no speed could be estimated for Mac.")


def test_a_mac_plans_no_offload_its_pool_is_one(catalog):
    """A Mac's "host RAM" is the memory its GPU already draws on: no offload plan (the 96 GB Mac had planned to
    'offload' an 8B full fine-tune to host RAM that is its own pool)."""
    from advisor.core.job.choices import Method, Mode

    c = canonical_comparison().model_copy(update={
        "workload": PlannedJob(mode=Mode.TRAIN, method=Method.FULL, batch=2, seq_len=1024),
        "builds": (BuildEntry(name="Mac", system_id="apple-mac-studio-m3-ultra-96gb"),)})
    mac = results_of(catalog, c).builds[0]
    assert not mac.chosen.plan.offload and not mac.estimate.fit.fits and not mac.estimate.fit.host_short
