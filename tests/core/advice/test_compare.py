"""Verdicts per build, largest fitting model by bisection, fit curves and sweeps."""

import pytest

from advisor.core.advice.compare import (
    TECHNIQUES,
    compare,
    fit_curve,
    fit_sweep,
    largest_fitting_params,
    log_sizes,
    verdict,
    with_technique,
)
from advisor.core.hardware.memory import usable_memory_bytes
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.generic import generic_decoder
from advisor.core.speed.results import Bottleneck
from tests.core.speed.speed_fixtures import (
    hgx_h100,
    llama2_7b,
    llama2_70b,
    one_3090,
    one_4090,
    pair_3090_nvlink,
    pair_4090_pcie,
    rtx4090,
)


def test_verdicts_side_by_side_for_the_canonical_pair():
    w = PlannedJob(weights="q4_k_m", engine="llama.cpp", n_gpus=2, parallel="layer-split", context_len=4096)
    v3, v4 = compare(llama2_70b(), w, [pair_3090_nvlink(), pair_4090_pcie()], prices={"2x RTX 4090 PCIe": 3200.0})
    assert (v3.build_name, v4.build_name) == ("2x RTX 3090 NVLink", "2x RTX 4090 PCIe")
    assert v3.fits and v4.fits
    assert v4.decode_tokens_per_s > v3.decode_tokens_per_s
    assert v3.price_usd is None and v3.usd_per_token_per_s is None  # inline build: no catalog price
    assert v4.price_usd == 3200.0
    assert v4.usd_per_token_per_s == pytest.approx(3200.0 / v4.decode_tokens_per_s)
    assert v3.bottleneck is Bottleneck.MEMORY_BANDWIDTH
    assert v3.problems == ()


def test_a_build_that_does_not_fit_says_memory_capacity():
    v = verdict(llama2_70b(), PlannedJob(), one_4090(), price_usd=1800.0)
    assert not v.fits and v.bottleneck is Bottleneck.MEMORY_CAPACITY
    assert v.headroom_bytes < 0 and "usable" in v.reason


def test_training_verdict_uses_training_speed_for_price_per_token():
    v = verdict(llama2_7b(), PlannedJob(mode="train", method="qlora"), one_4090(), price_usd=1800.0)
    assert v.fits and v.train_tokens_per_s > 0 and v.decode_tokens_per_s is None
    assert v.usd_per_token_per_s == pytest.approx(1800.0 / v.train_tokens_per_s)


def test_verdict_carries_workload_problems():
    v = verdict(llama2_7b(), PlannedJob(n_gpus=2, parallel="tp"), one_4090())
    assert [p.field for p in v.problems] == ["n_gpus"]


def test_largest_fitting_is_at_the_fit_boundary():
    w = PlannedJob(context_len=4096)
    b = one_4090()
    n = largest_fitting_params(w, b)
    usable = usable_memory_bytes(rtx4090())
    assert estimate_memory(generic_decoder(n), w).breakdown.total <= usable
    assert estimate_memory(generic_decoder(n * 1.02), w).breakdown.total > usable
    assert 10e9 < n < 12.5e9  # bf16: 2 bytes per parameter of 23.6 GiB usable, minus KV, activations, runtime


def test_largest_fitting_grows_with_quantization_and_gpus():
    b = pair_3090_nvlink()
    base = PlannedJob(n_gpus=2, parallel="layer-split", context_len=2048)
    bf16 = largest_fitting_params(base, b, "inference bf16")
    q4 = largest_fitting_params(base, b, "inference q4_k_m (llama.cpp)")
    one = largest_fitting_params(PlannedJob(context_len=2048), one_3090(), "inference q4_k_m (llama.cpp)")
    assert q4 > 2.5 * bf16
    assert q4 > 1.8 * one
    assert 60e9 < q4 < 85e9  # two 24 GB cards hold a 70B at ~4.9 bits


def test_qlora_fits_bigger_than_lora_and_full():
    w = PlannedJob(seq_len=512)
    b = one_4090()
    full = largest_fitting_params(w, b, "full fine-tune (AdamW, AMP)")
    lora = largest_fitting_params(w, b, "LoRA (bf16 base)")
    qlora = largest_fitting_params(w, b, "QLoRA (nf4 base)")
    assert full < lora < qlora


def test_nothing_fits_returns_zero_and_too_many_gpus_too():
    assert largest_fitting_params(PlannedJob(n_gpus=4, parallel="tp"), pair_4090_pcie()) == 0.0
    huge_ctx = PlannedJob(context_len=10_000_000, batch=1000)
    assert largest_fitting_params(huge_ctx, one_4090()) == 0.0


def test_vllm_fit_requires_one_full_sequence_of_kv():
    w = PlannedJob(engine="vllm", context_len=32768)
    n = largest_fitting_params(w, one_4090())
    assert 0 < n < largest_fitting_params(PlannedJob(engine="vllm", context_len=2048), one_4090())


def test_fit_curve_is_increasing_and_matches_memory():
    sizes = [1e9, 7e9, 70e9]
    curve = fit_curve(PlannedJob(), sizes)
    assert [s for s, _ in curve] == sizes
    needs = [b for _, b in curve]
    assert needs == sorted(needs)
    assert needs[1] == estimate_memory(generic_decoder(7e9), PlannedJob()).breakdown.total


def test_fit_sweep_agrees_with_largest_fitting():
    sizes = log_sizes(1e9, 1e11, 25)
    builds = [one_4090(), pair_4090_pcie(), hgx_h100(8)]
    w = PlannedJob(n_gpus=1)
    sweep = fit_sweep(w, builds, sizes, techniques=["inference bf16", "QLoRA (nf4 base)"])
    assert len(sweep) == 6
    for (t, name), flags in sweep.items():
        b = next(x for x in builds if x.name == name)
        limit = largest_fitting_params(w, b, t)
        for n, ok in zip(sizes, flags, strict=True):
            if abs(n / limit - 1) > 0.01:
                assert ok == (n <= limit), (t, name, n, limit)


def test_techniques_apply_on_top_of_the_workload():
    assert len(TECHNIQUES) == 8
    w = with_technique(PlannedJob(n_gpus=2, parallel="fsdp", mode="train", weights="bf16"), "QLoRA (nf4 base)")
    assert (w.method.value, w.weights, w.n_gpus, w.parallel.value) == ("qlora", "nf4", 2, "fsdp")
    with pytest.raises(KeyError):
        with_technique(PlannedJob(), "int3 magic")


def test_log_sizes_span_the_range():
    s = log_sizes(1e8, 1e12, 100)
    assert len(s) == 100 and s[0] == pytest.approx(1e8) and s[-1] == pytest.approx(1e12)


def test_the_fit_curve_tells_apart_jobs_equal_but_for_what_the_user_set():
    # LitGPT trains in pure bf16 unless the precision is set: amp set explicitly equals the default
    # value, so the workloads are equal and hash alike, yet the memory differs; the plot's curve of
    # one must not be served the other's (the curve's cache keyed on the workload alone).
    from advisor.core.advice import compare as cmp
    from advisor.core.memory.peak import clear_cache

    unset = PlannedJob(mode="train", method="full", framework="litgpt", batch=3)
    explicit = PlannedJob(mode="train", method="full", framework="litgpt", batch=3, precision="amp")
    assert unset == explicit
    sizes = [7e9]
    for order in ((unset, explicit), (explicit, unset)):
        cmp._remembered.cache_clear()
        clear_cache()
        first, second = (cmp.fit_curve(w, sizes)[0][1] for w in order)
        assert first != second
    assert cmp.fit_curve(explicit, sizes)[0][1] > cmp.fit_curve(unset, sizes)[0][1]  # fp32 master and states
