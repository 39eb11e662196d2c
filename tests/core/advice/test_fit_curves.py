"""The fit plot's curves: the techniques drawn per mode and engine, and the largest size under a memory on a curve."""


import numpy as np
import pytest

from advisor.core.advice import fit_curves as compute
from advisor.core.job.choices import Method, Mode
from advisor.core.job.planned import PlannedJob


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
    labels, current = compute.technique_workloads(PlannedJob(mode=Mode.TRAIN, method=Method.QLORA))
    assert set(labels) == {"full fine-tune", "LoRA", "QLoRA"} and current == "QLoRA"
    labels, current = compute.technique_workloads(PlannedJob(weights="q3_k_m"))
    assert current == "Q3_K_M (GGUF, 3.9 bits) (current)" and labels[current].weights == "q3_k_m"
