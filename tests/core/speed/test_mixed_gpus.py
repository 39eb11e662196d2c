"""Builds of different cards: layers in proportion to memory, tensor parallel at the slowest card."""

import pytest

from advisor.core.estimation.estimator import estimate
from advisor.core.hardware.catalog import gpu_build, mixed_build
from advisor.core.hardware.memory import usable_memory_bytes
from advisor.core.job.choices import Engine
from advisor.core.job.planned import PlannedJob
from advisor.core.speed.decode import stage_shares


def test_layer_shares_follow_each_cards_memory(catalog):
    build = mixed_build(catalog, ["rtx-3090", "rtx-5090"])
    shares = stage_shares(build, 2)
    u = [usable_memory_bytes(g) for g in build.gpus]
    assert shares == pytest.approx((u[0] / sum(u), u[1] / sum(u)))
    assert stage_shares(gpu_build(catalog, "rtx-3090", 2), 2) == pytest.approx((0.5, 0.5))


def test_a_mixed_pair_fits_what_its_memory_together_holds(catalog):
    arch = catalog.models["llama-3.1-70b"]
    job = PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP, n_gpus=2, parallel="layer-split", context_len=4096)
    small = estimate(arch, job, mixed_build(catalog, ["rtx-3060-12gb", "rtx-3090"]))
    big = estimate(arch, job, mixed_build(catalog, ["rtx-3090", "rtx-5090"]))
    assert not small.fit.fits and big.fit.fits  # 12 + 24 GB < 42 GB of weights < 24 + 32 GB


def test_layer_split_speed_is_the_sum_of_each_cards_share(catalog):
    arch = catalog.models["llama-3.1-8b"]
    job = PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP, n_gpus=2, parallel="layer-split")
    mixed = estimate(arch, job, mixed_build(catalog, ["rtx-3090", "rtx-4090"])).speed.decode_tokens_per_s
    pair_3090 = estimate(arch, job, gpu_build(catalog, "rtx-3090", 2)).speed.decode_tokens_per_s
    pair_4090 = estimate(arch, job, gpu_build(catalog, "rtx-4090", 2)).speed.decode_tokens_per_s
    assert min(pair_3090, pair_4090) <= mixed <= max(pair_3090, pair_4090)


def test_tensor_parallel_runs_at_the_slowest_card(catalog):
    arch = catalog.models["llama-3.1-8b"]
    job = PlannedJob(engine=Engine.VLLM, n_gpus=2, parallel="tp", batch=1)
    mixed = estimate(arch, job, mixed_build(catalog, ["rtx-3090", "rtx-5090"])).speed.decode_tokens_per_s
    slow = estimate(arch, job, gpu_build(catalog, "rtx-3090", 2)).speed.decode_tokens_per_s
    assert mixed == pytest.approx(slow, rel=0.15)
