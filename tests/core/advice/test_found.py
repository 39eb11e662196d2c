"""A found candidate's figures the search ranks by: its speed at the low end of an extrapolated band, its price
per token/s, and whether it is measured and usable."""

from types import SimpleNamespace

from advisor.core.advice.found import Found
from advisor.core.speed.basis import SpeedBasis


def _found(rank_usd, speed, factor=1.0, basis=(), unusable=None):
    candidate = SimpleNamespace(rank_usd=rank_usd, price_usd=rank_usd)
    return Found(candidate=candidate, chosen=(), plans_text=(), speed_score=speed, basis=basis, factor=factor,
                 unusable=unusable)


def test_an_extrapolated_speed_ranks_at_its_low_end_and_value_follows():
    f = _found(3000.0, 100.0, factor=0.6)
    assert f.rank_speed == 60.0
    assert f.value == 50.0  # $3,000 over 60 tokens/s, not over the estimate's 100


def test_no_speed_or_no_price_has_no_value():
    assert _found(3000.0, None).rank_speed is None and _found(3000.0, None).value is None
    assert _found(None, 100.0).value is None


def test_measured_only_when_every_job_is_and_usable_unless_said_otherwise():
    measured = SpeedBasis(family="ampere", software="llama.cpp", rows=3)
    guess = SpeedBasis(family="pascal", software="llama.cpp", rows=0)
    assert _found(1.0, 1.0, basis=(measured,)).calibrated
    assert not _found(1.0, 1.0, basis=(measured, guess)).calibrated
    assert not _found(1.0, 1.0).calibrated  # no basis at all: nothing measured
    assert _found(1.0, 1.0).usable and not _found(1.0, 1.0, unusable="speed unknown").usable
