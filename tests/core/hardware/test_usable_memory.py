"""Memory a build really has: each GPU's usable share and a unified machine's one pool."""

import pytest

from advisor.core.estimate.estimator import estimate
from advisor.core.hardware.catalog import resolve_build
from advisor.core.hardware.memory import (
    APPLE_GPU_WORKING_SET_SHARE,
    DRIVER_RESERVED_BYTES,
    NVIDIA_UNIFIED_FREE_SHARE,
    unified_pool_bytes,
    usable_memory_bytes,
)
from advisor.core.job.workload import Workload
from advisor.storage.catalog_store import load_catalog

GIB = 2**30


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def test_usable_memory_by_kind_of_card(catalog):
    g = catalog.gpus
    assert usable_memory_bytes(g["rtx-4090"]) == 24 * GIB - DRIVER_RESERVED_BYTES  # deviceQuery of an RTX 4090
    assert usable_memory_bytes(g["apple-m3-ultra-512gb"]) == 512 * GIB * APPLE_GPU_WORKING_SET_SHARE  # Metal cap
    # DGX Spark: what its OS leaves free at boot, 101.3 GiB of 128 (it had counted 127.6).
    assert usable_memory_bytes(g["gb10-dgx-spark"]) / GIB == pytest.approx(101.3)
    assert NVIDIA_UNIFIED_FREE_SHARE == pytest.approx(101.3 / 128)


def test_a_unified_pool_is_counted_once(catalog):
    # The DGX Spark's 128 GB had been 127.6 GiB usable by the GPU and, beside it, 128 GiB less the GPU's need of
    # host RAM: one pool counted twice. Now the GPU part and the host part share what the OS leaves.
    spark = resolve_build(catalog, "dgx-spark")
    assert unified_pool_bytes(spark.gpus, spark.host_ram_gib) / GIB == pytest.approx(101.3)
    fit = estimate(catalog.models["llama-3.1-8b"], Workload(context_len=4096), spark).fit
    assert fit.host_available_bytes == pytest.approx(101.3 * GIB - fit.need_per_gpu_bytes)
    # A Mac: the Metal cap binds the GPU; the pool is the machine's RAM (the CPU may use beyond the cap).
    mac = resolve_build(catalog, "mac-studio-m3-ultra-512gb")
    assert unified_pool_bytes(mac.gpus, mac.host_ram_gib) == 512 * GIB
    # Without a RAM figure, a unified machine's pool is its GPU memory (the same memory).
    assert unified_pool_bytes(mac.gpus, None) == 512 * GIB
