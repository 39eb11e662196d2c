"""A usable speed (advisor.core.advice.usable): reading speed per sequence; a run within the hours asked."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from advisor.core.advice.usable import USABLE_TOKENS_PER_S, low_factor, usable_why
from advisor.core.job.choices import Method, Mode
from advisor.core.job.planned import PlannedJob
from advisor.core.speed.basis import SpeedBasis


def _planned(workload, decode=None, train=None):
    speed = SimpleNamespace(decode_tokens_per_s=decode, train_tokens_per_s=train)
    return SimpleNamespace(planned=workload, estimate=SimpleNamespace(speed=speed))


def test_inference_is_usable_at_reading_speed_per_sequence():
    """238 words a minute (Brysbaert 2019) at 0.75 words per token: 5.3 tokens/s, the floor itself."""
    assert USABLE_TOKENS_PER_S == pytest.approx(238 / 60 / 0.75) == pytest.approx(5.29, abs=0.01)
    assert usable_why(_planned(PlannedJob(), decode=5.4), 1.0, USABLE_TOKENS_PER_S, None) is None
    assert "under 5.3" in usable_why(_planned(PlannedJob(), decode=5.2), 1.0, USABLE_TOKENS_PER_S, None)
    assert usable_why(_planned(PlannedJob(), decode=12), 1.0, 10, None) is None
    assert "per sequence" in usable_why(_planned(PlannedJob(batch=4), decode=32), 1.0, 10, None)  # 8 each
    assert "low end of its band" in usable_why(_planned(PlannedJob(), decode=12), 0.75, 10, None)


def test_training_is_usable_when_the_run_ends_within_the_hours_asked():
    job = PlannedJob(mode=Mode.TRAIN, method=Method.LORA, dataset_tokens=36_000_000)
    assert usable_why(_planned(job, train=1000), 1.0, 10, None) is None  # no deadline: any speed
    assert usable_why(_planned(job, train=1000), 1.0, 10, 10) is None  # 10 h
    assert "over the 5 h asked" in usable_why(_planned(job, train=1000), 1.0, 10, 5)


def test_an_extrapolated_speed_is_taken_at_the_low_end_of_its_band():
    measured = SpeedBasis(family="NVIDIA sm_86", software="llama.cpp", rows=5, median_pct=7.4)
    guessed = SpeedBasis(family="NVIDIA sm_60", software="llama.cpp")
    assert low_factor(measured, 25.0) == 1.0
    assert low_factor(guessed, 25.0) == pytest.approx(0.75)
    assert low_factor(guessed.model_copy(update={"median_pct": 40.0}), 25.0) == pytest.approx(0.6)


def test_a_speed_that_cannot_be_estimated_is_not_usable():
    """Ranked by speed for the money, a machine without a speed has nothing to rank on: it is never 'usable',
    whether a deadline was asked or not."""
    job = PlannedJob(mode=Mode.TRAIN, method=Method.QLORA)
    assert usable_why(_planned(job, train=None), 1.0, 10, None) == "speed unknown"
    assert usable_why(_planned(job, train=0.0), 1.0, 10, 5) == "speed unknown"
    assert usable_why(_planned(PlannedJob(), decode=None), 1.0, 10, None) == "speed unknown"


def test_the_command_lines_help_states_the_default_floor():
    import argparse

    from advisor.cli.advise import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    text = parser._subparsers._group_actions[0].choices["advise"].format_help()
    assert f"(default {USABLE_TOKENS_PER_S:.1f}, reading speed)" in " ".join(text.split())
