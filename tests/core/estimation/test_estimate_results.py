"""What an estimate returns: the fit's headroom and when the host RAM, not the GPUs, is what falls short."""

import pytest
from pydantic import ValidationError

from advisor.core.estimation.results import Fit

GB = 1e9


def test_headroom_is_usable_less_need_and_is_serialized():
    fit = Fit(fits=False, need_per_gpu_bytes=30 * GB, usable_per_gpu_bytes=24 * GB)
    assert fit.headroom_bytes == -6 * GB
    assert fit.model_dump()["headroom_bytes"] == -6 * GB  # a computed field: the saved result carries it


def test_host_short_only_where_the_gpus_part_fits_and_the_host_part_does_not():
    gpus_fit = dict(fits=False, need_per_gpu_bytes=20 * GB, usable_per_gpu_bytes=24 * GB)
    assert Fit(**gpus_fit, host_need_bytes=40 * GB, host_available_bytes=32 * GB).host_short
    assert not Fit(**gpus_fit, host_need_bytes=30 * GB, host_available_bytes=32 * GB).host_short
    # RAM not known: an unknown amount is not counted as enough.
    assert Fit(**gpus_fit, host_need_bytes=1 * GB).host_short
    assert not Fit(**gpus_fit).host_short  # nothing goes to the host
    gpus_short = dict(fits=False, need_per_gpu_bytes=30 * GB, usable_per_gpu_bytes=24 * GB)
    assert not Fit(**gpus_short, host_need_bytes=40 * GB, host_available_bytes=32 * GB).host_short


def test_negative_figures_are_refused():
    with pytest.raises(ValidationError):
        Fit(fits=True, need_per_gpu_bytes=-1.0, usable_per_gpu_bytes=24 * GB)
