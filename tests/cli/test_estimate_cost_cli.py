"""``llm-advisor estimate --build … --json``: the ``cost`` object."""


import pytest

from advisor.core.cost.running import DEFAULT_USD_PER_KWH
from tests.cli_runner import run_cli, run_json

COST_KEYS = {"price_usd", "price_kind", "price_date", "energy_usd_per_year", "usd_per_million_tokens",
             "train_hours", "train_usd"}






def test_cost_keys_of_an_owned_build(capsys):
    d = run_json(capsys, "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink")
    c = d["cost"]
    assert COST_KEYS <= set(c)
    assert c["price_kind"] in ("new", "used") and c["price_usd"] > 0 and c["price_date"]
    assert c["settings"]["electricity_usd_per_kwh"] == DEFAULT_USD_PER_KWH
    load = c["power_load_w"]
    assert c["energy_usd_per_year"] == pytest.approx(load / 1000 * 8 * 365 * DEFAULT_USD_PER_KWH)
    per_hour = c["usd_per_hour"]
    assert c["usd_per_million_tokens"] == pytest.approx(per_hour / (d["speed"]["decode_tokens_per_s"] * 3600) * 1e6)
    assert c["train_hours"] is None and c["train_usd"] is None  # inference


def test_flags_change_the_energy_figure(capsys):
    base = run_json(capsys, "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink")["cost"]
    dear = run_json(capsys, "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink", "--electricity-usd-per-kwh", "0.3",
                    "--hours-per-day", "24", "--years", "1")["cost"]
    assert dear["energy_usd_per_year"] == pytest.approx(base["power_load_w"] / 1000 * 24 * 365 * 0.3)
    assert dear["settings"] == {"electricity_usd_per_kwh": 0.3, "hours_per_day": 24, "years": 1}


def test_without_hardware_there_is_no_cost(capsys):
    assert run_json(capsys, "llama-3.1-8b")["cost"] is None


def test_a_cloud_instance_is_priced_by_the_hour(capsys):
    from advisor.storage.catalog_store import load_catalog

    catalog = load_catalog(migrate_user_files=False).catalog
    cid = next(i for i, inst in sorted(catalog.cloud.items()) if inst.prices and inst.gpu_count == 1)
    c = run_json(capsys, "llama-3.1-8b", "--build", cid)["cost"]
    assert c["price_kind"] == "per_hour" and c["energy_usd_per_year"] is None and c["tco_usd"] is None


def test_training_run_hours_and_cost(capsys):
    d = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "lora", "--build", "2x-rtx-4090-pcie-x16",
                 "--dataset-tokens", "1B", "--epochs", "2")
    c, tps = d["cost"], d["speed"]["train_tokens_per_s"]
    assert d["workload"]["dataset_tokens"] == 10**9 and d["workload"]["epochs"] == 2
    assert c["train_hours"] == pytest.approx(2e9 / tps / 3600)
    assert c["train_usd"] == pytest.approx(c["train_hours"] * c["usd_per_hour"])


def test_chinchilla_dataset_for_pre_training(capsys):
    d = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--build", "2x-rtx-4090-pcie-x16",
                 "--dataset-tokens", "chinchilla")
    n = d["model"]["params_total"]
    assert d["workload"]["dataset_tokens"] == round(20 * n)
    ch = d["cost"]["chinchilla"]
    assert ch["dataset_tokens"] == pytest.approx(20 * n) and ch["flops"] == pytest.approx(6 * n * 20 * n, rel=1e-6)
    assert "arXiv:2203.15556" in ch["source"] and ch["gpu_days"] > 0
    assert any("compute-optimal" in a for a in d["assumptions"])


def test_text_says_running_cost(capsys):
    rc, out, _ = run_cli(capsys, "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink")
    assert rc == 0 and "Running cost" in out and "per million tokens" in out and "energy per year" in out


@pytest.mark.parametrize(("argv", "flag"), [
    (("--electricity-usd-per-kwh", "-1"), "--electricity-usd-per-kwh"),
    (("--electricity-usd-per-kwh", "nan"), "--electricity-usd-per-kwh"),
    (("--hours-per-day", "25"), "--hours-per-day"),
    (("--years", "0"), "--years"),
    (("--mode", "train", "--dataset-tokens", "lots"), "--dataset-tokens"),
    (("--dataset-tokens", "1B"), "--dataset-tokens"),  # inference: no training run
    (("--mode", "train", "--epochs", "0"), "--epochs"),
])
def test_bad_cost_flags_exit_2_naming_the_flag(capsys, argv, flag):
    rc, _, err = run_cli(capsys, "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink", *argv)
    assert rc == 2 and flag in err


def test_estimate_reads_the_catalog_once(capsys, monkeypatch):
    """--build needs the catalog for the build, its entry and its cost: one read for all three (the read is the command's slowest step)."""
    from advisor.storage import catalog_store

    calls = []
    real = catalog_store.load_catalog
    monkeypatch.setattr(catalog_store, "load_catalog", lambda *a, **k: calls.append(1) or real(*a, **k))
    d = run_json(capsys, "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink")
    assert d["cost"]["price_usd"] is not None
    assert len(calls) == 1
