"""The host CPU's single-thread mark against the calibration host's (advisor.core.speed.host_cpu)."""

import pytest

from advisor.core.speed import host_cpu
from advisor.storage.catalog_store import load_catalog


def test_the_shipped_reference_and_exponent():
    # the exponent: benchmarks/speed_calibration.py (fit_host_exponent) on 2026-11-29, pinned as a fit in test_decode
    # (2.2 on the first 18 rows with a stated host; 1.9 once 45 more rows' sources were found to state theirs;
    # 2.0 with 84 more, fitted with each host at its own mark; 2.1 once vLLM's V0 releases were a known gap)
    assert (host_cpu.REFERENCE_HOST_MARK, host_cpu.REFERENCE_HOST_CPU, host_cpu.HOST_TIME_EXPONENT) == \
        (2161, "EPYC 7742", 2.1)


def test_host_time_factor_scales_by_the_reference_cpus_single_thread_mark():
    catalog = load_catalog().catalog
    # The reference host is the EPYC 7742 (DGX A100's CPU), its mark as the catalog's part carries it.
    assert host_cpu.REFERENCE_HOST_MARK == catalog.parts["amd-epyc-7742"].single_thread_mark
    assert host_cpu.REFERENCE_HOST_CPU == catalog.parts["amd-epyc-7742"].name
    assert host_cpu.host_time_factor(None) == 1.0 == host_cpu.host_time_factor(host_cpu.REFERENCE_HOST_MARK)
    low, high = host_cpu.FITTED_MARKS
    assert host_cpu.host_time_factor(low) == pytest.approx((host_cpu.REFERENCE_HOST_MARK / low) ** host_cpu.HOST_TIME_EXPONENT)
    assert host_cpu.host_time_factor(1830) > 1.0  # Xeon Silver 4210R: slower than the reference, within the fit
    assert host_cpu.host_time_factor(high) < 1.0  # EPYC 7J13, the fastest host fitted: faster than the reference
    # held at the range's ends, not extrapolated: a Ryzen 9 5950X is timed as the EPYC 7J13, a very slow CPU as the N1 VM
    assert host_cpu.host_time_factor(3470) == host_cpu.host_time_factor(high) < host_cpu.host_time_factor(high - 1)
    assert host_cpu.host_time_factor(1000) == host_cpu.host_time_factor(low)
