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


def test_the_software_is_the_engine_or_the_framework_as_users_write_it():
    from advisor.core.job.choices import Engine, Framework, Mode
    from advisor.core.job.planned import PlannedJob
    from advisor.core.speed.basis import software_of

    assert software_of(PlannedJob(engine=Engine.VLLM)) == "vLLM"
    assert software_of(PlannedJob(mode=Mode.TRAIN, framework=Framework.HF)) == "Hugging Face"
    assert software_of(PlannedJob(mode=Mode.TRAIN, framework=Framework.TORCHTUNE)) == "torchtune"


def test_the_sentence_says_measured_or_extrapolated_with_the_band(gpus):
    table = {**TABLE, basis_key("NVIDIA sm_89", "llama.cpp"): {
        "rows": 12, "median_pct": 15.4, "p90_pct": 29.7, "held_out": {"rows": 5, "median_pct": 16.2, "p90_pct": 21.6}}}
    measured = basis_of(table, [gpus["rtx-4090"]], "llama.cpp")
    assert measured.held_out_rows == 5 and measured.mark == ""
    assert measured.sentence == ("Speed measured on this GPU family (NVIDIA sm_89) with llama.cpp: within ±15 % of 12 "
                                 "published runs at the median, ±30 % for nine in ten (±16 % median on the 5 never "
                                 "used to fit it).")
    guessed = basis_of(table, [gpus["tesla-p100-16gb-pcie"]], "llama.cpp")
    assert guessed.mark == "extrapolated"
    assert guessed.sentence == ("Speed extrapolated: no published run of this GPU family (NVIDIA sm_60) with llama.cpp; "
                                "on families it was not measured on, the estimate has been off by ±30 % at the median, "
                                "±70 % for nine in ten.")
    bare = basis_of({}, [gpus["tesla-p100-16gb-pcie"]], "llama.cpp")
    assert bare.sentence.endswith("with llama.cpp; its error there is not measured.")


@pytest.mark.parametrize("held", [{"rows": 13}, {"rows": True}, {"rows": 0}, "x"])
def test_a_held_out_band_larger_than_the_pair_or_malformed_is_ignored(gpus, held):
    table = {basis_key("NVIDIA sm_86", "llama.cpp"): {"rows": 12, "median_pct": 7.0, "held_out": held}}
    assert basis_of(table, [gpus["rtx-3090"]], "llama.cpp").held_out_rows == 0


def test_the_shipped_extrapolated_band_is_measured_on_pairs_without_calibration_rows():
    entry = speed_basis_table().get(EXTRAPOLATED_KEY)
    assert entry is not None and entry["rows"] > 0 and entry["pairs"]
    for pair in entry["pairs"]:  # each such pair is in the table with held-out rows only
        assert speed_basis_table()[pair]["held_out"]["rows"] == speed_basis_table()[pair]["rows"]


TRAINING = {basis_key("NVIDIA sm_86", "torchtune"): {"rows": 2, "median_pct": 50.9, "p90_pct": 54.5},
            basis_key("NVIDIA sm_89", "torchtune"): {"rows": 3, "median_pct": 10.8, "p90_pct": 25.9},
            basis_key("NVIDIA sm_89", "LitGPT"): {"rows": 5, "median_pct": 4.0, "p90_pct": 9.0},
            basis_key("NVIDIA sm_90", "Hugging Face"): {"rows": 4, "median_pct": 1.2, "p90_pct": 3.1},
            basis_key("NVIDIA sm_86", "llama.cpp"): {"rows": 6, "median_pct": 11.9, "p90_pct": 25.8},
            EXTRAPOLATED_KEY: {"median_pct": 9.6, "p90_pct": 20.7}}


def test_a_trainer_measured_elsewhere_stands_on_the_familys_runs_with_another_trainer(gpus):
    """The HF Trainer (its share measured on sm_90) on an RTX 3090: the family's kernels measured with torchtune."""
    basis = basis_of(TRAINING, [gpus["rtx-3090"]], "Hugging Face")
    assert basis.calibrated and basis.rows == 2 and basis.median_pct == 50.9 and basis.measured_with == "torchtune"
    assert basis.words == ("measured: 2 runs of NVIDIA sm_86 with torchtune, Hugging Face's share measured on "
                           "another family, ±51 % median")
    assert "torchtune" in basis.sentence and "another GPU family" in basis.sentence
    # the family's trainer with the most runs gives the band
    assert basis_of(TRAINING, [gpus["rtx-4090"]], "Hugging Face").measured_with == "LitGPT"
    # the pair's own runs come first
    own = basis_of(TRAINING, [gpus["h100-sxm"]], "Hugging Face")
    assert own.calibrated and own.measured_with == "" and own.rows == 4


def test_a_trainer_stays_extrapolated_where_no_trainer_ran_or_its_own_share_is_unmeasured(gpus):
    assert not basis_of(TRAINING, [gpus["rx-7900-xtx"]], "Hugging Face").calibrated  # no trainer on gfx1100
    assert not basis_of(TRAINING, [gpus["rtx-3090"]], "Axolotl").calibrated  # Axolotl's share: measured nowhere
    # an inference engine never borrows another engine's runs: its kernels are its own
    assert not basis_of(TRAINING, [gpus["rtx-4090"]], "llama.cpp").calibrated
    assert not basis_of(TRAINING, [gpus["rtx-3090"]], "vLLM").calibrated


def test_the_benchmarks_extrapolated_band_pools_the_pairs_the_app_calls_extrapolated():
    # ``measured_in`` is ``basis_of``'s own reading: benchmarks/ui_error_bands.py pools the held-out rows of the pairs
    # it says are not measured, so a trainer measured through another trainer's runs is not in that band.
    from advisor.core.speed.basis import measured_in

    assert measured_in(TRAINING, "NVIDIA sm_86", "Hugging Face") and measured_in(TRAINING, "NVIDIA sm_86", "llama.cpp")
    assert not measured_in(TRAINING, "NVIDIA sm_86", "vLLM") and not measured_in(TRAINING, "AMD gfx1100", "Hugging Face")
    shipped = speed_basis_table()[EXTRAPOLATED_KEY]["pairs"]
    assert "NVIDIA sm_80|Hugging Face" not in shipped  # the A100's torchtitan runs measure its kernels
