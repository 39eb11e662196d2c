"""The recommendation: the winner sentence, then what else the numbers say, buying and renting apart."""

from advisor.core.advice.comparison import BuildEntry, ModelRef, canonical_comparison
from advisor.core.advice.ranking import rank
from advisor.core.advice.recommend import recommendation
from advisor.core.job.planned import PlannedJob
from tests.core.advice.advice_fixtures import results_of


def test_the_recommendation_keeps_purchase_prices_and_hourly_rates_apart(catalog):
    """Seen in the six-build window: 'The cheapest that runs it is RunPod H200 at $5 per hour' beside cards
    bought for $2,000-4,000 (an hourly rate set against purchase prices), and 'Per training token/s, RunPod
    H200 costs least ($0.00)'. Buying and renting are now compared apart, renting per million tokens."""
    from advisor.core.job.choices import Method, Mode

    c = canonical_comparison().model_copy(update={
        "workload": PlannedJob(mode=Mode.TRAIN, method=Method.LORA, batch=2, seq_len=1024),
        "builds": (BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"), BuildEntry(name="5090", build_id="1x-rtx-5090"),
                   BuildEntry(name="H200", cloud_id="runpod-h200-secure-cloud"),
                   BuildEntry(name="H100", cloud_id="runpod-h100-sxm-secure-cloud"))})
    results = results_of(catalog, c)
    assert all(r.runs for r in results.builds)
    text = recommendation(results, c.workload)
    pair, one, h200, h100 = results.builds
    buy = min((pair, one), key=lambda r: r.price.usd)
    assert f"The cheapest to buy that runs it is {buy.name} at ${buy.price.usd:,.0f} {buy.price.kind_words}." in text
    rent = min((h200, h100), key=lambda r: r.usd_per_hour)
    assert f"The cheapest to rent that runs it is {rent.name} at ${rent.usd_per_hour:,.2f} per hour." in text
    assert "costs least to buy ($" in text and "Per million trained tokens, " in text
    assert "($0.00)" not in text


def test_a_build_short_of_host_ram_says_so(catalog):
    """A full fine-tune of Llama 3.1 8B on one RTX 4090 with 32 GiB of RAM: the GPU part fits once the optimizer
    and the parameters are offloaded, what it offloads does not fit the RAM; the text had said 'needs 4.8 GiB per
    GPU and has 67.1 GiB usable'. (On a Mac nothing is offloaded now: its "host RAM" is the pool the GPU uses.)"""
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.job.choices import Method, Mode

    small = gpu_build(catalog, "rtx-4090", 1).model_copy(update={"host_ram_gib": 32.0, "name": "Small"})
    c = canonical_comparison().model_copy(update={
        "workload": PlannedJob(mode=Mode.TRAIN, method=Method.FULL, batch=2, seq_len=1024),
        "builds": (BuildEntry(name="Small", inline=small),
                   BuildEntry(name="H200", cloud_id="runpod-h200-secure-cloud"))})
    results = results_of(catalog, c)
    short = results.builds[0]
    fit = short.estimate.fit
    assert short.chosen.plan.offload and not fit.fits and fit.need_per_gpu_bytes < fit.usable_per_gpu_bytes
    assert fit.host_need_bytes > fit.host_available_bytes == 32 * 2**30
    assert fit.host_short and not results.builds[1].estimate.fit.host_short
    text = recommendation(results, c.workload)
    assert f"Small needs {fit.host_need_bytes / 2**30:.1f} GiB of host RAM, 32.0 GiB there" in text
    assert "GiB per GPU" not in text.split("Small needs")[1]
    # RAM not known is not RAM enough: the same build without its RAM figure says so.
    unknown = results_of(catalog, c.model_copy(update={"builds": (BuildEntry(name="Small", inline=small.model_copy(
        update={"host_ram_gib": None})),)})).builds[0]
    assert not unknown.runs and unknown.estimate.fit.host_short
    assert unknown.estimate.fit.reason.endswith("of host RAM; the build's RAM is not known")


def test_when_nothing_runs_each_shortfall_is_said_once_and_what_would_make_it_fit(catalog):
    """bf16 Llama 3.1 70B on vLLM fits neither 24 GB pair: the ranking names the closest and its shortfall; the
    recommendation adds the other's and, for each, what would make it fit, never the closest's shortfall twice."""
    c = canonical_comparison().model_copy(update={"model": ModelRef(preset_id="llama-3.1-70b")})
    results = results_of(catalog, c)
    assert not any(r.runs for r in results.builds)
    ranking = rank(results, c.workload)
    text = recommendation(results, c.workload)
    assert text.startswith(ranking.sentence)
    (closest,) = ranking.short
    other = next(r for r in results.builds if r is not closest)
    assert text.count(" GiB per GPU") == 2  # the closest's in the sentence, the other's once after it
    assert f"{other.name} needs " in text and f"{closest.name} needs " not in text.removeprefix(ranking.sentence)
    if closest.suggestions:
        assert f"What would make {closest.name} fit: {closest.suggestions[0].change}" in text


def test_a_notable_prefill_difference_is_said_for_inference(catalog):
    """Prompt processing is compute-bound where decode is bandwidth-bound: a 5090 and a 3090 pair decode closer
    than they prefill, and the text names the faster prefill with its factor."""
    c = canonical_comparison().model_copy(update={
        "builds": (BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"), BuildEntry(name="5090", build_id="1x-rtx-5090"))})
    results = results_of(catalog, c)
    pair, one = results.builds
    assert pair.estimate.speed.decode_tokens_per_s > one.estimate.speed.decode_tokens_per_s  # the pair wins
    fast, slow = one.estimate.speed.prefill_tokens_per_s, pair.estimate.speed.prefill_tokens_per_s
    assert fast >= 1.2 * slow  # PREFILL_NOTABLE
    text = recommendation(results, c.workload)
    assert (f"Prompt processing (prefill) differs more: 5090 {fast:,.0f} tokens/s, {fast / slow:.1f} times as fast "
            f"as pair ({slow:,.0f}), so its first token comes sooner.") in text
