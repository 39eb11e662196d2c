"""benchmarks/build_eras.py: rows that timed a build of an era the app does not model are known gaps."""

import pytest

from tests.benchmark_scripts import load_benchmark

load_benchmark("speed_fidelity")  # puts benchmarks/ on the path
build_eras = load_benchmark("build_eras")


@pytest.mark.parametrize(("gpu_id", "weights", "date", "gap"), [
    ("ryzen-ai-max-plus-395", "q4_k_m", "2025-08-05", True),  # lhl's plain HIP build: before WMMA-MMQ on RDNA 3
    ("ryzen-ai-max-plus-395", "q4_0", "2026-03-30", False),  # a current build
    ("ryzen-ai-max-plus-395", "bf16", "2025-08-05", False),  # 16-bit weights go to rocBLAS, not MMQ
    ("rx-7900-xtx", "q4_0", "", False),  # undated: scored, as the CUDA-graph rule does
    ("rtx-4090", "q4_0", "2025-08-05", False),  # not AMD
    ("mi300x", "q4_0", "2024-10", True),  # CDNA 3 before PR #14624's MFMA MMQ
    ("mi300x", "q4_0", "2025-08-01", False),
    ("mi210", "q4_0", "2025-07-01", True),  # CDNA 2 before PR #14949
    ("radeon-ai-pro-r9700", "q4_0", "2025-10-01", True),  # RDNA 4 before PR #17156
    ("radeon-ai-pro-r9700", "q4_0", "2025-12", False),
])
def test_a_quantized_prompt_on_amd_before_matrix_mmq_is_a_known_gap(catalog, gpu_id, weights, date, gap):
    row = {"engine": "llama.cpp", "group": "prefill", "weights": weights, "source_date": date}
    why = build_eras.pre_matrix_mmq_build(row, catalog.gpus[gpu_id])
    assert (why is not None) is gap
    assert why is None or why.startswith("known gap: a llama.cpp build before matrix-unit MMQ on ")


@pytest.mark.parametrize(("version", "date", "gap"), [
    ("acbed3ef (2023-10-06)", "2023-10-31", True),  # MLC's llm-perf-bench: the build's date, before v0.2.6
    ("acbed3ef (2024-01-06)", "2023-10-31", False),  # the build's own date decides
    ("", "2023-11-30", True),  # no build date: the source's
    ("0.2.6", "2023-12-17", False),
    ("", "", False),  # undated: scored, as the llama.cpp rules do
])
def test_a_vllm_row_of_a_build_before_cuda_graphs_is_a_known_gap(catalog, version, date, gap):
    row = {"engine": "vllm", "group": "decode", "engine_version": version, "source_date": date}
    a100 = catalog.gpus["a100-80gb-sxm"]
    why = build_eras.pre_graph_build(row, a100)
    assert (why is not None) is gap
    assert why is None or why.startswith("known gap: a vLLM build before CUDA graphs")
    assert build_eras.pre_graph_build({**row, "engine": "sglang"}, a100) is None
    assert build_eras.pre_graph_build({**row, "group": "prefill"}, a100) is None
    # llama.cpp's rule reads the same build date, against its own graphs' date on compute capability 8.0 (2024-05-08)
    date = build_eras.build_date(row)
    llama = build_eras.pre_graph_build({**row, "engine": "llama.cpp"}, a100)
    assert (llama is not None) is bool(date and date < "2024-05-08")
    assert llama is None or "llama.cpp build before CUDA graphs on compute capability 8.0" in llama


def test_the_amd_build_dates_are_for_targets_whose_mmq_runs_on_matrix_units():
    from advisor.core.speed.gguf_paths import AMD_MATRIX_MMQ_TARGETS

    for prefix, *_ in build_eras.AMD_MATRIX_MMQ_SINCE:
        assert prefix.startswith(AMD_MATRIX_MMQ_TARGETS), prefix  # the app's own list (gguf_paths)


@pytest.mark.parametrize(("version", "date", "gap"), [
    ("0.6.3", "2025-06-01", True),  # a V0 release, whatever the source's date
    ("v0.7.3", "", True),
    ("0.8.0", "2025-03-18", False),  # V1 by default
    ("0.10.1.1", "2025-01-01", False),  # the stated release decides, not the date
    ("not stated", "2025-02-01", True),  # no release: dated before v0.8.0
    ("", "2025-03-18", False),
    ("", "", False),  # undated: scored, as the other eras
])
def test_a_vllm_row_of_a_release_before_its_v1_engine_is_a_known_gap(version, date, gap):
    row = {"engine": "vllm", "group": "decode", "engine_version": version, "source_date": date}
    why = build_eras.pre_v1_vllm(row)
    assert (why is not None) is gap
    assert why is None or why.startswith("known gap: a vLLM release before its V1 engine")
    assert build_eras.pre_v1_vllm({**row, "group": "prefill"}) == why  # the engine's era, prompts too
    assert build_eras.pre_v1_vllm({**row, "group": "train"}) is None
    assert build_eras.pre_v1_vllm({**row, "engine": "sglang"}) is None
