"""Calibrated or extrapolated: the basis of a speed estimate (advisor.core.speed.basis)."""

from __future__ import annotations

import pytest

from advisor.core.speed.basis import EXTRAPOLATED_KEY, basis_key, basis_of
from advisor.storage.catalog_store import load_catalog
from advisor.storage.error_bands import speed_basis_table


@pytest.fixture(scope="module")
def gpus():
    return load_catalog(migrate_user_files=False).catalog.gpus


TABLE = {basis_key("NVIDIA sm_86", "llama.cpp"): {"rows": 5, "median_pct": 7.4, "p90_pct": 43.2},
         basis_key("NVIDIA sm_89", "llama.cpp"): {"rows": 12, "median_pct": 15.4, "p90_pct": 29.7},
         EXTRAPOLATED_KEY: {"median_pct": 30.0, "p90_pct": 70.0}}


def test_a_measured_family_is_calibrated_with_its_band(gpus):
    basis = basis_of(TABLE, [gpus["rtx-3090"]], "llama.cpp")
    assert basis.calibrated and basis.rows == 5 and basis.median_pct == 7.4
    assert basis.words == "measured: 5 runs of NVIDIA sm_86 with llama.cpp, ±7 % median"


def test_an_unmeasured_family_is_extrapolated_with_the_wide_band(gpus):
    basis = basis_of(TABLE, [gpus["tesla-p100-16gb-pcie"]], "llama.cpp")
    assert not basis.calibrated and basis.median_pct == 30.0 and basis.p90_pct == 70.0
    assert basis.words.startswith("extrapolated: no measurement of NVIDIA sm_60 with llama.cpp")


def test_the_same_family_with_other_software_is_extrapolated(gpus):
    assert not basis_of(TABLE, [gpus["rtx-3090"]], "vLLM").calibrated


def test_a_mixed_build_is_as_measured_as_its_least_known_card(gpus):
    basis = basis_of(TABLE, [gpus["rtx-4090"], gpus["rtx-3090"]], "llama.cpp")
    assert basis.family == "NVIDIA sm_86"
    assert not basis_of(TABLE, [gpus["rtx-4090"], gpus["tesla-p40"]], "llama.cpp").calibrated


@pytest.mark.parametrize("bad", [{"rows": True}, {"rows": "5"}, {"rows": -1}, [], "x", {"rows": 0}])
def test_a_malformed_entry_counts_as_no_measurement(gpus, bad):
    assert not basis_of({basis_key("NVIDIA sm_86", "llama.cpp"): bad}, [gpus["rtx-3090"]], "llama.cpp").calibrated


def test_the_shipped_table_names_catalog_families(gpus):
    families = {g.speed_family for g in gpus.values()}
    table = speed_basis_table()
    assert table, "resources/fidelity.json ships a speed_basis table (benchmarks/ui_error_bands.py)"
    for key, entry in table.items():
        if key == EXTRAPOLATED_KEY:
            continue
        family, _software = key.split("|")
        assert family in families, key
        assert entry["rows"] > 0
