"""Platform parts: records validate, builds name them, totals, power and checks are whole-machine."""

import datetime as dt
from pathlib import Path

import pytest
from pydantic import ValidationError

from advisor.core.cost.machine import PriceChoice, machine_price
from advisor.core.hardware.catalog import RecordKind, resolve_build
from advisor.core.hardware.power import build_power
from advisor.storage.catalog_store import load_catalog
from tests.hardware_builders import CPU, FULL, PSU, RAM, board, part, parts_catalog


@pytest.mark.parametrize("kind, missing", [("cpu", "pcie_lanes"), ("motherboard", "slots"), ("psu", "psu_w"),
                                           ("ram", "capacity_gib"), ("nvlink_bridge", "bridge_slot_spacing")])


def test_a_part_needs_the_fields_of_its_kind(kind, missing):
    with pytest.raises(ValidationError, match=missing):
        part("x", part=kind)


def test_a_board_cannot_have_two_slots_in_one_position():
    with pytest.raises(ValidationError, match="position"):
        board(1, 1)


TODAY = dt.date(2026, 11, 27)


def build_cost(build, choice=PriceChoice.NEW):
    return machine_price(build, choice, TODAY)


def test_a_build_without_parts_stays_valid_and_says_no_platform():
    cost = build_cost(resolve_build(parts_catalog(), "b"))
    assert cost.usd is None and any(m.startswith("no platform tier") for m in cost.missing)


def test_whole_machine_total_power_and_no_unknown():
    cat = parts_catalog(CPU, board(1, 4), PSU, RAM, parts=FULL)
    resolved = resolve_build(cat, "b")
    cost = build_cost(resolved)
    assert cost.platform_usd == 100 * 5  # cpu + board + psu + 2 RAM kits
    assert cost.missing == ("new price of CARD",)  # only the (unpriced) test GPU
    power = build_power(resolved)
    assert (power.platform_w, power.psu_w) == (150, 1600)


def test_a_missing_psu_or_unpriced_part_is_named():
    unpriced = part("ram", part="ram", capacity_gib=64)
    cost = build_cost(resolve_build(parts_catalog(CPU, board(1, 4), unpriced, parts={**FULL, "psu": None}), "b"))
    assert cost.platform_usd is None and cost.usd is None  # no PSU listed, a part unpriced, and no tier to stand in
    used = build_cost(resolve_build(parts_catalog(CPU, board(1, 4), PSU, RAM, parts=FULL), "b"), PriceChoice.USED)
    assert used.platform_usd == 500  # parts without a used price count at their new price


SHIPPED = Path(__file__).resolve().parents[3] / "catalog"


def test_shipped_parts_load_as_their_kind():
    cat = load_catalog(SHIPPED, SHIPPED / ".no-user").catalog
    assert {p.part.value for p in cat.of(RecordKind.PART).values()} >= {"cpu", "motherboard", "psu", "nvlink_bridge"}
