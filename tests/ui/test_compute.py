"""The recompute step: largest-fit interpolation and honest messages when pieces are missing."""

import numpy as np
import pytest

from advisor.core.comparison import BuildEntry
from advisor.core.workload import Method, Mode, Workload
from advisor.ui import compute


def test_largest_fitting_interpolates_on_the_curve():
    curve = compute.CURVE_PARAMS * 2.0  # 2 bytes per parameter
    got = compute.largest_fitting(curve, 20e9)
    assert got == pytest.approx(10e9, rel=1e-6)
    assert compute.largest_fitting(curve, 0.5e9) is None
    assert compute.largest_fitting(curve, 1e15) == pytest.approx(1e12)


def test_largest_fitting_skips_gaps():
    curve = compute.CURVE_PARAMS * 2.0
    curve[5] = np.nan
    assert compute.largest_fitting(curve, 20e9) == pytest.approx(10e9, rel=1e-6)


def test_techniques_follow_the_mode():
    labels, current = compute.technique_workloads(Workload(mode=Mode.TRAIN, method=Method.QLORA))
    assert set(labels) == {"full fine-tune", "LoRA", "QLoRA"} and current == "QLoRA"
    labels, current = compute.technique_workloads(Workload(weights="q3_k_m"))
    assert current == "q3_k_m (current)" and labels[current].weights == "q3_k_m"


def test_unknown_build_id_is_a_message_on_that_build():
    from advisor.ui import hooks

    catalog, _ = hooks.load_catalog()
    r = compute._one_build(catalog, None, Workload(), BuildEntry(name="x", build_id="no-such-build"))
    assert r.estimate is None and "cannot resolve" in r.error
