"""The host's part of a training step: offload over PCIe, the optimizer step on the CPU (``speed.train_host``)."""

import pytest

from advisor.core.job.planned import PlannedJob
from advisor.core.speed.results import Bottleneck
from tests.core.speed.speed_fixtures import (
    llama2_7b,
    one_4090,
    pair_4090_pcie,
    speed,
)


def test_optimizer_offload_adds_host_traffic():
    a = llama2_7b()
    w = PlannedJob(mode="train", method="full", seq_len=128, offload=("optimizer",))
    s = speed(a, w, one_4090())
    assert s.bottleneck is Bottleneck.HOST_OFFLOAD
    assert any(n.startswith("optimizer step on the CPU (DeepSpeed's CPU-Adam)") for n in s.notes)


def test_an_offloaded_optimizer_steps_on_the_cpu_at_host_memory_speed():
    # DeepSpeed's CPU-Adam streams the gradient, both moments and the fp32 weight in and the weight and moments
    # out (28 B per trained parameter) through host RAM, after the backward: the step grows by that time.
    from advisor.core.speed.flops import trainable_params
    from advisor.core.speed.train_host import CPU_ADAM_BYTES_PER_PARAM, HOST_MEMORY_GB_PER_S, cpu_optimizer_seconds

    a = llama2_7b()
    w = PlannedJob(mode="train", method="full", seq_len=2048, offload=("optimizer",))
    cpu = cpu_optimizer_seconds(a, w, one_4090())
    assert cpu == pytest.approx(trainable_params(a, w) * 28 / 60e9) and CPU_ADAM_BYTES_PER_PARAM == 28
    assert HOST_MEMORY_GB_PER_S == 60 and 3 < cpu < 3.3  # 6.74 B parameters
    on = speed(a, w, one_4090())
    off = speed(a, w.model_copy(update={"offload": ()}), one_4090())
    assert on.step_time_s > cpu and on.step_time_s > off.step_time_s
    # Two GPUs of one machine under ZeRO-2: the CPU steps both shards, i.e. every trained weight once.
    z2 = w.model_copy(update={"n_gpus": 2, "parallel": "zero2"})
    assert cpu_optimizer_seconds(a, z2, pair_4090_pcie()) == pytest.approx(cpu)
    # FSDP's CPU offload steps PyTorch's fused AdamW on the CPU: the same single pass.
    fsdp = w.model_copy(update={"n_gpus": 2, "parallel": "fsdp"})
    assert cpu_optimizer_seconds(a, fsdp, pair_4090_pcie()) == pytest.approx(cpu)
    assert cpu_optimizer_seconds(a, w.model_copy(update={"offload": ()}), one_4090()) == 0


def test_the_hosts_bandwidth_is_its_platforms_else_an_assumed_desktop():
    from advisor.core.hardware.tiers import host_memory_gb_per_s
    from advisor.core.speed.train_host import HOST_MEMORY_GB_PER_S, host_gb_per_s
    from advisor.storage.catalog_store import load_catalog

    server = load_catalog().catalog.platforms["server-eight-cards"]  # 8 channels of DDR4-3200
    rate, whence = host_gb_per_s(one_4090().model_copy(update={"tier": server}))
    assert rate == host_memory_gb_per_s(server) and "8 channels at 3,200 MT/s" in whence
    untold = server.model_copy(update={"ram_channels": None})
    assert host_gb_per_s(one_4090().model_copy(update={"tier": untold})) == (HOST_MEMORY_GB_PER_S,
                                                                            "assumed: dual-channel DDR5")
    assert host_gb_per_s(one_4090())[0] == HOST_MEMORY_GB_PER_S  # no platform named


def test_no_offload_costs_the_host_nothing():
    from advisor.core.speed.layout import split_of
    from advisor.core.speed.train_host import cpu_optimizer_seconds, offload_seconds

    w = PlannedJob(mode="train", method="full", seq_len=128)
    notes: list[str] = []
    assert offload_seconds(llama2_7b(), w, one_4090(), split_of(w), notes) == 0.0 and notes == []
    assert cpu_optimizer_seconds(llama2_7b(), w, one_4090()) == 0.0
