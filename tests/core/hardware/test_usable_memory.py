"""Memory a build really has: each GPU's usable share and a unified machine's one pool."""

import pytest

from advisor.core.estimation.estimator import estimate
from advisor.core.hardware.catalog import resolve_build
from advisor.core.hardware.memory import (
    APPLE_WORKING_SET_LOGS_MIB,
    DRIVER_RESERVED_BYTES,
    NVIDIA_UNIFIED_FREE_SHARE,
    apple_working_set_share,
    unified_pool_bytes,
    usable_memory_bytes,
    with_gpu_memory_limit,
)
from advisor.core.job.planned import PlannedJob
from advisor.storage.catalog_store import load_catalog

GIB = 2**30


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def test_usable_memory_by_kind_of_card(catalog):
    g = catalog.gpus
    assert usable_memory_bytes(g["rtx-4090"]) == 24 * GIB - DRIVER_RESERVED_BYTES  # deviceQuery of an RTX 4090
    assert usable_memory_bytes(g["apple-m3-ultra-512gb"]) == 512 * GIB * 3 / 4  # Metal's default cap there
    # DGX Spark: what its OS leaves free at boot, 101.3 GiB of 128 (it had counted 127.6).
    assert usable_memory_bytes(g["gb10-dgx-spark"]) / GIB == pytest.approx(101.3)
    assert NVIDIA_UNIFIED_FREE_SHARE == pytest.approx(101.3 / 128)


def test_a_unified_pool_is_counted_once(catalog):
    # The DGX Spark's 128 GB had been 127.6 GiB usable by the GPU and, beside it, 128 GiB less the GPU's need of
    # host RAM: one pool counted twice. Now the GPU part and the host part share what the OS leaves.
    spark = resolve_build(catalog, "dgx-spark")
    assert unified_pool_bytes(spark.gpus, spark.host_ram_gib) / GIB == pytest.approx(101.3)
    fit = estimate(catalog.models["llama-3.1-8b"], PlannedJob(context_len=4096), spark).fit
    assert fit.host_available_bytes == pytest.approx(101.3 * GIB - fit.need_per_gpu_bytes)
    # A Mac: the Metal cap binds the GPU; the pool is the machine's RAM (the CPU may use beyond the cap).
    mac = resolve_build(catalog, "mac-studio-m3-ultra-512gb")
    assert unified_pool_bytes(mac.gpus, mac.host_ram_gib) == 512 * GIB
    # Without a RAM figure, a unified machine's pool is its GPU memory (the same memory).
    assert unified_pool_bytes(mac.gpus, None) == 512 * GIB


@pytest.mark.parametrize(("gib", "mib"), sorted(APPLE_WORKING_SET_LOGS_MIB.items()))
def test_macos_default_working_set_follows_the_published_logs(gib, mib):
    """recommendedMaxWorkingSetSize as ggml_metal_init printed it (MiB) on 16, 32 and 96 GB Macs: 2/3 up to 36 GB,
    3/4 above."""
    assert apple_working_set_share(gib) * gib * 1024 == pytest.approx(mib, abs=0.01)


def test_the_default_depends_on_the_macs_memory(catalog):
    g = catalog.gpus
    assert usable_memory_bytes(g["apple-m1-max-32gb"]) == pytest.approx(32 * GIB * 2 / 3)
    assert usable_memory_bytes(g["apple-m2-ultra-64gb"]) == pytest.approx(64 * GIB * 3 / 4)  # MLX: 48 of 64
    assert usable_memory_bytes(g["apple-m2-ultra-192gb"]) == pytest.approx(144 * GIB)  # MLX: 144 of 192


def test_a_raised_limit_is_the_machines_and_reaches_its_apple_gpu_only(catalog):
    """'sudo sysctl iogpu.wired_limit_mb=491520' on a 512 GB Mac Studio: Metal may use 480 GiB; DeepSeek V3 Q4_K_M
    (377 GiB) then fits with room, where macOS's default 384 GiB leaves it tight."""
    mac = resolve_build(catalog, "mac-studio-m3-ultra-512gb")
    raised = with_gpu_memory_limit(mac, 480)
    assert usable_memory_bytes(raised.gpus[0]) == 480 * GIB and usable_memory_bytes(mac.gpus[0]) == 384 * GIB
    assert usable_memory_bytes(with_gpu_memory_limit(mac, 999).gpus[0]) == 512 * GIB  # never above the memory
    cards = resolve_build(catalog, "2x-rtx-3090-nvlink")
    assert with_gpu_memory_limit(cards, 480) is cards and with_gpu_memory_limit(mac, None) is mac
    # set on a catalog build (the window's catalog editor), the resolved machine carries it
    record = catalog.builds["mac-studio-m3-ultra-512gb"].model_copy(update={"gpu_memory_limit_gib": 480.0})
    assert usable_memory_bytes(resolve_build(catalog, record).gpus[0]) == 480 * GIB


def test_only_a_mac_has_a_gpu_memory_limit(catalog):
    from pydantic import ValidationError

    card = catalog.gpus["rtx-3090"]
    with pytest.raises(ValidationError, match="not an Apple GPU"):
        type(card).model_validate({**card.model_dump(), "gpu_memory_limit_gib": 20})
    mac = catalog.gpus["apple-m2-ultra-192gb"]
    assert type(mac).model_validate({**mac.model_dump(), "gpu_memory_limit_gib": 180}).gpu_memory_limit_gib == 180
