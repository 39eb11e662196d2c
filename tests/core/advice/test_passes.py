"""The orders' passes (advisor.core.advice.passes): a guess never outranks a measurement on its estimate alone, and
within the estimate's own error on value fewer GPUs come first."""

from __future__ import annotations

import pytest

from advisor.core.advice.found import Found
from advisor.core.advice.passes import fewer_cards_first, measured_first, pareto_front
from advisor.core.advice.ranking import Criterion


def _fb(name, price, speed, calibrated):
    """A Found with a price, a ranking speed and a basis (calibrated or not)."""
    from advisor.core.speed.basis import SpeedBasis

    class C:
        price_usd = rank_usd = price
        id = name
    basis = SpeedBasis(family="x", software="y", rows=3 if calibrated else 0)
    return Found(candidate=C(), chosen=(), plans_text=(), speed_score=speed, basis=(basis,))


@pytest.mark.parametrize(("guess", "sort", "stays"), [
    # a cheaper guess whose value lead comes from its estimated speed alone: below the measured one
    (_fb("guess", 1250, 886, False), Criterion.BEST, False),
    # about the same price and no faster: the value tie goes to the measurement
    (_fb("guess", 1280, 500, False), Criterion.BEST, False),
    # better value even at the measured card's speed (more than 5 % cheaper): it keeps its place
    (_fb("guess", 1100, 886, False), Criterion.VALUE, True),
    # on speed, a guess ranked above stays only where it costs no more
    (_fb("guess", 1250, 886, False), Criterion.SPEED, True),
    (_fb("guess", 1400, 886, False), Criterion.SPEED, False),
])
def test_an_extrapolated_machine_never_outranks_a_measured_one_on_its_estimate_alone(guess, sort, stays):
    """QLoRA 8B within $2,000 used: a $1,250 card whose training speed is a guess (886 tokens/s) above a $1,300 card
    measured at 500 — the guess leads on value only through its estimate, so the measured card comes first."""
    measured = _fb("measured", 1300, 500, True)
    out = [f.candidate.id for f in measured_first([guess, measured], sort)]
    assert out == (["guess", "measured"] if stays else ["measured", "guess"])
    # a measured machine above a guess never moves
    assert [f.candidate.id for f in measured_first([measured, guess], sort)] == ["measured", "guess"]


def test_a_run_of_guesses_above_a_measured_machine_is_each_judged_against_it():
    """Two extrapolated machines above a calibrated one: the first must keep its place against the measured one
    too, not just against the guess below it (8x P100 at an estimated 28.6 tokens/s over 4x P40 measured at 15.7)."""
    big = _fb("8x-guess", 2870, 25.9, False)
    small = _fb("4x-guess", 2452, 16.3, False)
    measured = _fb("measured", 2763, 15.7, True)
    out = [f.candidate.id for f in measured_first([big, small, measured], Criterion.BEST)]
    assert out == ["4x-guess", "measured", "8x-guess"]


def _fg(name, price, speed, gpus):
    """A Found with a price, a speed and a GPU count (calibrated)."""
    from types import SimpleNamespace

    from advisor.core.speed.basis import SpeedBasis

    class C:
        price_usd = rank_usd = price
        id = name
        build = SimpleNamespace(gpu_count=gpus)
    return Found(candidate=C(), chosen=(), plans_text=(), speed_score=speed,
                 basis=(SpeedBasis(family="x", software="y", rows=3),))


@pytest.mark.parametrize(("many", "moves"), [
    (_fg("8x", 9354, 376.5, 8), True),  # $24.8 per token/s against $27.9: a 12 % lead, within the estimate's error
    (_fg("8x", 9354, 480.0, 8), False),  # $19.5: a 30 % lead is evidence, it keeps its place
])
def test_within_the_estimates_error_on_value_fewer_cards_come_first(many, moves):
    """QLoRA 70B within $10,000: eight 16 GB cards in an open frame at $24.8 per token/s, two 24 GB cards in a
    desktop at $27.9 — a lead smaller than the speed estimate's own error (15 %) does not put eight cards first."""
    two = _fg("2x", 4835, 173.1, 2)
    out = [f.candidate.id for f in fewer_cards_first([many, two])]
    assert out == (["2x", "8x"] if moves else ["8x", "2x"])
    assert [f.candidate.id for f in fewer_cards_first([two, many])] == ["2x", "8x"]  # fewer above: never moves


def _f(price, speed):
    class C:
        price_usd = price
    return Found(candidate=C(), chosen=(), plans_text=(), speed_score=speed)


def test_pareto_front_keeps_only_undominated():
    pts = [_f(1000, 10), _f(1500, 9), _f(2000, 20), _f(2500, 20), _f(3000, 30), _f(None, 50)]
    front = pareto_front(pts)
    assert [(f.candidate.price_usd, f.speed_score) for f in front] == [(1000, 10), (2000, 20), (3000, 30)]
