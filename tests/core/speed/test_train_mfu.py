"""Training MFU by GPU generation (issue 15, fourth session): ``flops.TRAIN_MFU_BY_GENERATION``, fitted
by ``benchmarks/speed_calibration.train_mfu_fit`` on calibration training rows (torchtitan FSDP2 on 64
A100 80GB, docs/performance.md at 1ea476e9); other generations keep Llama 3's ``TRAIN_MFU``."""

import pytest

from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job.workload import Workload
from advisor.core.speed import flops
from advisor.core.speed import training as speed_train
from advisor.core.speed.layout import split_of
from advisor.storage.catalog_store import load_catalog
from tests.benchmark_scripts import load_benchmark
from tests.core.speed.speed_fixtures import llama2_7b, rtx4090

speed_calibration = load_benchmark("speed_calibration")


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def test_ampere_mfu_is_the_calibration_fit(catalog):
    fit = speed_calibration.train_mfu_fit(catalog=catalog)
    assert set(fit) == set(flops.TRAIN_MFU_BY_GENERATION) == {"Ampere"}
    mfu, ids = fit["Ampere"]
    assert ids == ["titan-a100-l2-13b-64gpu-noac", "titan-a100-l3-70b-64gpu-fullac", "titan-a100-l2-70b-64gpu-fullac"]
    assert flops.TRAIN_MFU_BY_GENERATION["Ampere"] == round(mfu, 2) == 0.62


def test_generation_is_the_architectures_first_word(catalog):
    assert flops.train_mfu(catalog.gpus["a100-80gb-sxm"]) == 0.62
    assert flops.train_mfu(catalog.gpus["rtx-3090"]) == 0.62  # "Ampere (GA102)"
    assert flops.train_mfu(catalog.gpus["h100-sxm"]) == flops.TRAIN_MFU
    assert flops.train_mfu(rtx4090()) == flops.TRAIN_MFU


def test_training_runs_at_the_gpus_generation_mfu(catalog):
    a100 = catalog.gpus["a100-80gb-sxm"]
    build = ResolvedBuild(name="1x A100", gpus=(a100,), topology=Topology(pcie_gen=4))
    arch, w = llama2_7b(), Workload(mode="train", method="lora", seq_len=2048)
    s = speed_train.training_speed(arch, w, build, split_of(w), [])
    expected = a100.bf16_tflops_dense * 1e12 * 0.62 / flops.train_flops_per_token(arch, w)
    assert s.train_tokens_per_s == pytest.approx(expected)
    assert any("62% model-FLOPs" in n for n in s.notes)
