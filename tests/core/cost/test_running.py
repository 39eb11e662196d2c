"""Running cost: every figure computed by hand here, one row per case."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from advisor.core.cost import running as rc
from advisor.core.hardware.catalog import gpu_build
from advisor.core.hardware.records import Gpu
from advisor.core.model.generic import generic_decoder
from advisor.core.model.params import count_params
from tests.catalog_fixtures import catalog_of, gpu_data

S = rc.CostSettings(electricity_usd_per_kwh=0.15, hours_per_day=8, years=3)
TODAY = dt.date(2026, 6, 1)


@pytest.mark.parametrize(("load_w", "settings", "per_year"), [
    (1000, S, 1.0 * 8 * 365 * 0.15),                                   # 1 kW, 8 h a day: 438.0
    (450, S, 0.45 * 8 * 365 * 0.15),                                   # one 450 W card: 197.1
    (980, rc.CostSettings(electricity_usd_per_kwh=0.30, hours_per_day=24, years=1), 0.98 * 24 * 365 * 0.30),
    (None, S, None),                                                   # power unknown: no figure
])
def test_energy_per_year_is_load_times_hours_times_365_times_price(load_w, settings, per_year):
    got = rc.energy_usd_per_year(load_w, settings)
    assert got == pytest.approx(per_year) if per_year is not None else got is None


def test_energy_per_year_by_hand():
    assert rc.energy_usd_per_year(1000, S) == pytest.approx(438.0)


@pytest.mark.parametrize(("price", "load_w", "tokens_per_s", "per_hour", "per_million"), [
    # 3,000 $ over 3 × 365 × 8 = 8,760 h: 0.342466 $/h; 1 kW at 0.15: 0.15 $/h → 0.492466 $/h;
    # 100 tokens/s = 360,000 tokens/h → 1.36796 $ per million
    (3000, 1000, 100, 0.15 + 3000 / 8760, (0.15 + 3000 / 8760) / 0.36),
    (0, 500, 50, 0.075, 0.075 / 0.18),                                 # already owned: energy only
    (None, 500, 50, None, None),                                       # no price: no figure
    (3000, 1000, None, 0.15 + 3000 / 8760, None),                      # no speed: no $/M tokens
])
def test_owned_cost_per_hour_and_per_million_tokens(price, load_w, tokens_per_s, per_hour, per_million):
    h = rc.owned_usd_per_hour(price, load_w, S)
    assert (h is None and per_hour is None) or h == pytest.approx(per_hour)
    m = rc.usd_per_million_tokens(h, tokens_per_s)
    assert (m is None and per_million is None) or m == pytest.approx(per_million)


def test_cloud_cost_per_million_tokens_is_rate_over_tokens_per_hour():
    # 2 $/h at 500 tokens/s = 1.8 M tokens an hour → 1.111 $ per million
    assert rc.usd_per_million_tokens(2.0, 500) == pytest.approx(2.0 / 1.8)


@pytest.mark.parametrize(("price", "rate", "energy", "hours"), [
    (3000, 1.15, 0.15, 3000.0),          # 3,000 / (1.15 − 0.15)
    (10_000, 2.0, 0.5, 10_000 / 1.5),
    (3000, 0.10, 0.15, None),            # renting costs less than the power: never breaks even
    (3000, 1.0, None, None),             # power unknown
    (None, 1.0, 0.1, None),              # no price
])
def test_break_even_hours(price, rate, energy, hours):
    got = rc.break_even_hours(price, rate, energy)
    assert (got is None and hours is None) or got == pytest.approx(hours)


def test_total_cost_of_ownership_is_price_plus_energy_over_the_years():
    assert rc.total_cost_of_ownership(3000, 1000, S) == pytest.approx(3000 + 438.0 * 3)


@pytest.mark.parametrize(("tokens", "epochs", "tps", "hours"), [
    (1e9, 1, 1000, 1e9 / 1000 / 3600),   # 277.8 h
    (1e9, 3, 2500, 3e9 / 2500 / 3600),   # 333.3 h
    (None, 1, 1000, None),
    (1e9, 1, None, None),
])
def test_training_hours(tokens, epochs, tps, hours):
    got = rc.train_hours(tokens, epochs, tps)
    assert (got is None and hours is None) or got == pytest.approx(hours)


def test_training_cost_cloud_and_owned():
    assert rc.train_usd(100, cloud_usd_per_hour=2.5) == pytest.approx(250)
    # owned: 100 h × (0.15 energy + 3,000 / 8,760 price share)
    assert rc.train_usd(100, price_usd=3000, load_w=1000, settings=S) == pytest.approx(100 * (0.15 + 3000 / 8760))
    assert rc.train_usd(None, cloud_usd_per_hour=2.5) is None
    assert rc.gpu_days(48, 8) == pytest.approx(16)


def test_chinchilla_8b_is_160b_tokens_and_6nd_flops():
    assert rc.chinchilla_tokens(8e9) == pytest.approx(160e9)
    assert rc.training_flops(8e9, 160e9) == pytest.approx(6 * 8e9 * 160e9)  # 7.68e21
    n = count_params(generic_decoder(8e9)).total
    assert rc.chinchilla_tokens(n) == pytest.approx(20 * n)


@pytest.mark.parametrize(("date", "stale"), [
    (dt.date(2025, 6, 1), False),    # exactly 365 days: not yet
    (dt.date(2025, 5, 31), True),    # 366 days
    (dt.date(2020, 9, 1), True),
    (None, False),
])
def test_a_price_older_than_a_year_is_stale(date, stale):
    assert rc.is_stale(date, TODAY) is stale


def test_power_draw_of_a_gpu_build_and_its_idle():
    cat = catalog_of(Gpu.model_validate(gpu_data("card-a", tdp_w=350)))
    p = rc.power_draw(gpu_build(cat, "card-a", 2))
    assert p.load_w == 700 and p.note.startswith("GPUs only")  # no platform figure: the GPUs, said
    assert p.idle_w == 2 * rc.IDLE_W_PER_GPU


def test_running_cost_owned_and_rented():
    power = rc.PowerDraw(load_w=1000, idle_w=40)
    owned = rc.running_cost(price_usd=3000, price_kind="new", price_date_=dt.date(2026, 5, 1), power=power,
                            tokens_per_s=100, settings=S, today=TODAY)
    assert owned.energy_usd_per_year == pytest.approx(438.0) and not owned.price_stale
    assert owned.usd_per_million_tokens == pytest.approx((0.15 + 3000 / 8760) / 0.36)
    rented = rc.running_cost(price_usd=2.0, price_kind="per_hour", price_date_=dt.date(2024, 1, 1), power=None,
                             tokens_per_s=500, settings=S, today=TODAY, n_gpus=8, dataset_tokens=int(1.8e6),
                             train_tokens_per_s=500)
    assert rented.rented and rented.price_stale and rented.energy_usd_per_year is None
    assert rented.train_hours == pytest.approx(1.0) and rented.train_usd == pytest.approx(2.0)
    assert rented.gpu_days == pytest.approx(8 / 24)
    unpriced = rc.running_cost(price_usd=None, price_kind=None, price_date_=None, power=power, tokens_per_s=100,
                               settings=S, today=TODAY)
    assert "no price" in unpriced.notes and unpriced.usd_per_million_tokens is None


@pytest.mark.parametrize("bad", [{"electricity_usd_per_kwh": 0}, {"electricity_usd_per_kwh": -0.1},
                                 {"hours_per_day": 25}, {"years": 0}, {"electricity_usd_per_kwh": float("nan")}])
def test_bad_settings_are_refused(bad):
    with pytest.raises(ValidationError):
        rc.CostSettings(**bad)
