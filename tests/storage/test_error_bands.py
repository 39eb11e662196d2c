"""Error bands: the shipped figures are read per group; a missing one says so, never a made-up ±."""

import json

import pytest

from advisor.core.job.choices import Method, Mode
from advisor.core.job.planned import PlannedJob
from advisor.storage import error_bands as fidelity


def test_shipped_bands_are_read_per_group():
    fidelity._bands.cache_clear()
    text = fidelity.error_band_text(PlannedJob(mode=Mode.TRAIN, method=Method.LORA))
    shipped = json.loads((fidelity_path()).read_text())["memory"]["lora"]
    assert f"±{shipped['median_pct']:.0f} % median" in text and "measurements, LoRA)" in text
    speed = json.loads((fidelity_path()).read_text())["speed"]["overall"]
    assert f"speed ±{speed['median_pct']:.0f} % median" in text  # measured, so shown
    vllm = fidelity.error_band_text(PlannedJob(engine="vllm"))
    assert "vLLM)" in vllm and "not yet measured" not in vllm  # the engine as its users write it
    assert "TensorRT-LLM)" in fidelity.speed_band_text(PlannedJob(engine="tensorrt-llm"))


def fidelity_path():
    from advisor.storage.shipped import resources_dir

    return resources_dir() / "fidelity.json"


def test_missing_group_is_not_measured(monkeypatch):
    monkeypatch.setattr(fidelity, "_bands", lambda: {"memory": {"inference": {"rows": 3, "median_pct": 4.0}}})
    assert fidelity.median_pct(PlannedJob()) == pytest.approx(4.0)
    assert fidelity.median_pct(PlannedJob(mode=Mode.TRAIN)) is None
    assert fidelity.error_band_text(PlannedJob(mode=Mode.TRAIN)).startswith("memory: error band not yet measured")


def test_speed_band_not_measured_without_figures(monkeypatch):
    monkeypatch.setattr(fidelity, "_bands", lambda: {"memory": {}})
    assert fidelity.speed_band_text(PlannedJob()) == "speed: error band not yet measured"


@pytest.mark.parametrize("method", [Method.ADAPTER, Method.ADAPTER_V2])
def test_litgpt_adapters_share_the_adapter_band(method):
    # LitGPT's adapter and adapter v2 rows are measured as one group.
    fidelity._bands.cache_clear()
    text = fidelity.error_band_text(PlannedJob(mode=Mode.TRAIN, method=method))
    shipped = json.loads((fidelity_path()).read_text())["memory"]["adapter"]
    assert f"±{shipped['median_pct']:.0f} % median" in text and "measurements, LLaMA-Adapter (LitGPT))" in text
