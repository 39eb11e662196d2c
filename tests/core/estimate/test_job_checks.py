"""Settings a build cannot run (issue 15, seventh session: FP8 weights on cards an engine does not run them on)."""

import pytest

from advisor.core.estimate.job_checks import COMPUTE_CAPABILITY, FP8_MIN_COMPUTE_CAPABILITY, check_workload
from advisor.core.hardware.catalog import gpu_build
from advisor.core.job.workload import Engine, Workload
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


def _fp8(catalog, engine, gpu):
    arch = catalog.models["llama-3.1-8b"]
    return [p for p in check_workload(arch, Workload(engine=engine, weights="fp8"), gpu_build(catalog, gpu, 1))
            if p.field == "weights"]


def test_the_cited_figures():
    # vLLM docs (features/quantization/fp8): FP8 models run from compute capability 7.5 (Turing), weight-only
    # W8A16 through FP8 Marlin where the card has no FP8 tensor cores; transformers docs (finegrained_fp8):
    # compute capability 9 (H100).
    assert FP8_MIN_COMPUTE_CAPABILITY == {Engine.VLLM: 7.5, Engine.TRANSFORMERS: 9.0}
    # CUDA C++ Programming Guide, "Compute Capabilities" (Pascal 6.0, Volta 7.0, Turing 7.5); TransformerEngine
    # support matrix (Ampere 8.0, Ada 8.9, Hopper 9.0, Blackwell 10.0: each family's lowest).
    assert COMPUTE_CAPABILITY == {"Pascal": 6.0, "Volta": 7.0, "Turing": 7.5, "Ampere": 8.0, "Ada": 8.9,
                                  "Hopper": 9.0, "Blackwell": 10.0}


@pytest.mark.parametrize(("engine", "gpu", "refused"), [
    (Engine.TRANSFORMERS, "rtx-3090", True), (Engine.TRANSFORMERS, "rtx-4090", True),
    (Engine.TRANSFORMERS, "h100-sxm", False), (Engine.VLLM, "rtx-3090", False), (Engine.VLLM, "rtx-2080-ti", False),
    (Engine.VLLM, "v100-pcie-32gb", True), (Engine.SGLANG, "v100-pcie-32gb", False),  # no sourced figure: not judged
    (Engine.VLLM, "mi300x", False),  # AMD: not judged here
])
def test_fp8_weights_on_a_card_the_engine_does_not_run_them_on(catalog, engine, gpu, refused):
    problems = _fp8(catalog, engine, gpu)
    assert bool(problems) is refused
    if refused:
        assert "runs FP8 weights on" in problems[0].message and "pick 8-bit integer or 4-bit weights" in problems[0].message


def test_what_would_make_it_fit_skips_fp8_where_it_cannot_run(catalog, capsys):
    from advisor.cli import main

    assert main(["estimate", "llama-3.1-8b", "--engine", "transformers", "--batch", "1", "--gpu", "rtx-3060-12gb"]) == 0
    out = capsys.readouterr().out
    assert "What would make it fit:" in out and "FP8" not in out.split("What would make it fit:")[1].split("\n\n")[0]
