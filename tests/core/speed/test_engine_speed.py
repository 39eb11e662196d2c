"""The per-engine speed constants are the calibration's fit (benchmarks/speed_calibration.py), on
calibration sources only (held-out sources score the fit)."""

from dataclasses import replace

import pytest

from advisor.core.job.choices import Engine
from advisor.core.speed import engine_speed as es
from advisor.storage.catalog_store import load_catalog
from tests.benchmark_scripts import load_benchmark

speed_fidelity = load_benchmark("speed_fidelity")
speed_calibration = load_benchmark("speed_calibration")
build_eras = load_benchmark("build_eras")
ROWS = {r["id"]: r for r in speed_fidelity.load_rows()}


def test_fitted_constants_as_shipped():
    # Output of `.venv/bin/python benchmarks/speed_calibration.py` on 2026-11-26 (transformers refitted
    # with the rows measured on an H100, tests/data/device/h100-sxm-2026-11-26.jsonl: its two prefill
    # rows are the first that constrain its compute share, 0.15 -> 0.48).
    # Seventh session: refitted with the dequantizing kernels' per-layer time (QUANT_KERNEL_S_PER_LAYER) in
    # place; vLLM's bandwidth share is back at the prior (within 1 % of the best), its compute share 0.46.
    # 2026-11-28 (second round): refitted on the calibration part of that day's new sources (llama.cpp 58 rows,
    # vLLM 75, TensorRT-LLM 45).
    assert es.FITTED == {
        # Fitted with its decode kernels (gguf_decode), its compute share the prior
        # tenth session: with every layer's small kernels (kernels_s_per_layer, then in gguf_decode) timed
        # twelfth session: round 25's RTX 5070 Ti Qwen2.5 0.5B rows (CodeAlign-Runtime), small kernels 0.030 -> 0.035 ms
        Engine.LLAMA_CPP: es.EngineSpeed(bandwidth=0.78, compute=es.PRIOR_COMPUTE, floor_s_per_layer=0.0,
                                         kernels_s_per_layer=0.035e-3),
        # second round of 2026-11-28: Ollama's own rows (one source, M-series Macs) reach MIN_ROWS
        # eleventh session: round 23's Ollama rows of rented and home GPUs, its prompts with their builds' flash attention
        # twelfth session: llama.cpp's kernels (SIBLING_KERNELS), only its host floor (on Macs) its own
        # twenty-fourth session: that floor added to the GPU's step (SERIAL_FLOOR_ENGINES), 0.47 -> 0.11 ms a layer
        Engine.OLLAMA: es.EngineSpeed(bandwidth=0.78, compute=es.PRIOR_COMPUTE, floor_s_per_layer=0.10e-3,
                                      kernels_s_per_layer=0.035e-3),
        # ninth session: vLLM's kernels (SIBLING_KERNELS), only its host floor its own
        Engine.SGLANG: es.EngineSpeed(bandwidth=0.84, compute=0.52, floor_s_per_layer=0.14e-3,
                                      kernels_s_per_layer=0.04e-3),
        # sixth session: with a quantized Linear's host time (LINEAR_HOST_S) in the floor
        # tenth session: round 19's two 8K-context rows on an L40S (Minato-Hayakawa) moved the KV share and with it the
        # weights' share (the two trade off on rows at one context length each; benchmarks/README.md)
        # twelfth session: round 25's optimum-benchmark A100 and Gyan002-tech T4 rows
        # fourteenth session: bitsandbytes 4-bit Linears' host time (LINEAR_HOST_S["nf4"]) and round 26's optimum-benchmark
        # A100 rows (EPYC 7742 host) — its weights' share down, its floor and KV share moved with them
        # fifteenth session: the host CPU's single-thread mark scales the floor (HOST_TIME_EXPONENT); the Colab T4 rows no
        # longer pull the floor's share of small models, so the weights' share rose and the KV share fell
        Engine.TRANSFORMERS: es.EngineSpeed(bandwidth=0.61, compute=0.45, floor_s_per_layer=0.83e-3,
                                            kv_bandwidth=0.0238),
        # ninth session: a decode step leaves an untied input embedding unread (memory.inference.unread_embedding_bytes)
        # eleventh session: its layers' small kernels (kernels_s_per_layer) fitted with its bandwidth share
        # twelfth session: with 25 more cards' measured matmul shares (matmul_rates)
        # fourteenth session: rows whose source ran over NVLink mapped to bridged pairs (florent-pro-ch, 2x RTX 3090)
        # seventeenth session: 45 more rows' hosts found in their sources (amd-epyc-7f52, amd-epyc-7j13, Colab's A2...)
        # eighteenth session: 84 more rows' hosts (jiawei-ju's Colab T4s, Narval's EPYCs, a Xeon 8358P, two Xeon 8470s...)
        # twentieth session: tensor-parallel all-reduces by NCCL's own model and the engine's one-shot kernel (allreduce)
        # twenty-fourth session: fitted on its V1 engine's rows alone (build_eras.pre_v1_vllm)
        Engine.VLLM: es.EngineSpeed(bandwidth=0.84, compute=0.52, floor_s_per_layer=0.15e-3,
                                    kernels_s_per_layer=0.04e-3),
        # tenth session: fitted in full on round 19's batch-1 trtllm-bench latency reports beside the H200 blogs
        # twentieth session: its one-shot all-reduce over NVLink (allreduce), bandwidth 0.79 -> 0.75
        Engine.TENSORRT_LLM: es.EngineSpeed(bandwidth=0.75, compute=0.54, floor_s_per_layer=0.07e-3,
                                            kernels_s_per_layer=0.04e-3),
    }
    assert es.BNB_INT8_S_PER_LINEAR == 0.31e-3
    assert es.LINEAR_HOST_S == {"gptq": 0.0, "gptq-int8": 0.04e-3, "awq": 0.035e-3, "nf4": 0.03e-3}
    assert es.LINEAR_HOST_ALIAS == {"fp4": "nf4"}  # bitsandbytes' FP4: the same Linear4bit module
    assert es.QUANT_KERNEL_S_PER_LAYER == {"int4": 0.0, "int8": 0.01e-3}  # V1 rows only (0.07 / 0.06 ms with V0's)
    # priors: llama.cpp PR #4766, RTX 3090 tg128 / pp512 of LLaMA 7B F16
    assert es.PRIOR_BANDWIDTH == pytest.approx(0.699, abs=1e-3)
    assert es.PRIOR_COMPUTE == pytest.approx(0.4184, abs=1e-4)


def test_engines_without_a_fit_take_their_sibling_or_the_priors():
    assert es.engine_speed(Engine.DEEPSPEED) == es.FITTED[Engine.VLLM]
    assert es.engine_speed(Engine.EXLLAMAV2) == es.FITTED[Engine.LLAMA_CPP]
    assert es.engine_speed(Engine.OLLAMA) == es.FITTED[Engine.OLLAMA] != es.FITTED[Engine.LLAMA_CPP]


def test_kv_share_grows_with_the_batch_up_to_the_weights_share():
    e = es.FITTED[Engine.TRANSFORMERS]
    assert e.kv_share(1) == e.kv_bandwidth
    assert e.kv_share(2) == pytest.approx(2 * e.kv_bandwidth)
    assert e.kv_share(1000) == e.bandwidth
    assert es.FITTED[Engine.VLLM].kv_share(1) == es.FITTED[Engine.VLLM].bandwidth


def test_split_kv_engines_read_one_sequences_cache_at_the_weights_share(catalog):
    # vLLM's partitioned PagedAttention, SGLang's FlashInfer split-KV decode and TensorRT-LLM's multi-block masked MHA
    # (on by default since 0.13) spread one sequence's cache over the SMs: no KV share of their own, shipped or fitted.
    assert es.SPLIT_KV_ENGINES == {Engine.VLLM, Engine.SGLANG, Engine.TENSORRT_LLM}
    for engine in es.SPLIT_KV_ENGINES:
        e = es.engine_speed(engine)
        assert e.kv_bandwidth is None and e.kv_share(1) == e.bandwidth
    assert Engine.TRANSFORMERS not in es.SPLIT_KV_ENGINES and es.FITTED[Engine.TRANSFORMERS].kv_bandwidth
    # so that a long context slows them alike: Llama 3.1 8B on an H100 at one request, 32K tokens, within a fifth
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.job.planned import PlannedJob

    rates = {e: estimate(catalog.models["llama-3.1-8b"], PlannedJob(engine=e, weights="bf16", context_len=32768),
                         gpu_build(catalog, "h100-sxm", 1)).speed.decode_tokens_per_s for e in es.SPLIT_KV_ENGINES}
    assert max(rates.values()) / min(rates.values()) < 1.2, rates


def test_the_fit_leaves_a_split_kv_engines_kv_share_alone(monkeypatch):
    # Even where a KV share would fit its rows better, the fit keeps it None for those engines.
    catalog = load_catalog().catalog
    rows = speed_calibration.calibration_rows(catalog)[Engine.VLLM][:6]
    monkeypatch.setattr(speed_calibration, "GRIDS", {k: (v if k == "kv_bandwidth" else v[:3])
                                                     for k, v in speed_calibration.GRIDS.items()})
    monkeypatch.setattr(speed_calibration, "PASSES", 1)
    monkeypatch.setitem(es.FITTED, Engine.VLLM, es.FITTED[Engine.VLLM])
    assert speed_calibration.fit(Engine.VLLM, rows, catalog).kv_bandwidth is None


@pytest.mark.parametrize("engine", [Engine.SGLANG, Engine.OLLAMA])
def test_an_engine_on_its_siblings_kernels_fits_only_its_host_floor(engine, monkeypatch):
    assert es.SIBLING_KERNELS == {Engine.SGLANG, Engine.OLLAMA}
    assert es.SIBLING_KERNELS_FLOOR_S_PER_LAYER == {Engine.SGLANG: 0.14e-3, Engine.OLLAMA: 0.10e-3}
    assert es.SERIAL_FLOOR_ENGINES == {Engine.OLLAMA}  # its host time follows the GPU's step (decode.decode_step)
    # derived from the sibling's entry (its small kernels' time too), only the floor its own
    own, sibling = es.engine_speed(engine), es.FITTED[es.SIBLING[engine]]
    assert own == replace(sibling, floor_s_per_layer=es.SIBLING_KERNELS_FLOOR_S_PER_LAYER[engine])
    catalog = load_catalog().catalog
    rows = speed_calibration.calibration_rows(catalog)[engine]
    assert speed_calibration.fits_engine(rows)  # enough rows to be fitted in full: only the rule keeps it to its floor
    calls = []
    monkeypatch.setattr(speed_calibration, "fit", lambda engine, rows, catalog, only=None, start=None:
                        calls.append((engine, only, start)) or start)
    fitted = {es.SIBLING[engine]: sibling}
    speed_calibration._fit_engines({engine: rows}, catalog, fitted)
    assert calls == [(engine, ("floor_s_per_layer",), sibling)]


def test_an_engine_fitted_on_large_batches_only_declares_only_its_compute_share(monkeypatch):
    # Such an engine's entry would be its sibling's but for the compute share (none since round 19 gave TensorRT-LLM
    # rows at batch 1); the fit takes that route on TensorRT-LLM's large-batch rows alone.
    assert es.LARGE_BATCH_ONLY_COMPUTE == {}
    catalog = load_catalog().catalog
    rows = [r for r in speed_calibration.calibration_rows(catalog)[Engine.TENSORRT_LLM]
            if int(r.get("batch") or 1) > speed_calibration.SMALL_BATCH]
    assert not speed_calibration.fits_engine(rows) and len(rows) >= speed_calibration.MIN_ROWS
    monkeypatch.setattr(speed_calibration, "fit", lambda engine, rows, catalog, only=None, start=None:
                        replace(start, compute=0.5) if only == ("compute",) else start)
    fitted = {Engine.VLLM: es.FITTED[Engine.VLLM]}
    assert speed_calibration._fit_engines({Engine.TENSORRT_LLM: rows}, catalog, fitted) == {Engine.TENSORRT_LLM}
    assert fitted[Engine.TENSORRT_LLM] == replace(es.FITTED[Engine.VLLM], compute=0.5)
    monkeypatch.setattr(es, "LARGE_BATCH_ONLY_COMPUTE", {Engine.TENSORRT_LLM: 0.5})
    import io
    from contextlib import redirect_stdout
    out = io.StringIO()
    with redirect_stdout(out):
        speed_calibration._print_fitted(fitted, {Engine.TENSORRT_LLM})
    assert "LARGE_BATCH_ONLY_COMPUTE: dict[Engine, float] = {Engine.TENSORRT_LLM: 0.5}" in out.getvalue()
    assert "Engine.TENSORRT_LLM: EngineSpeed" not in out.getvalue()


def test_same_machine_pairs_put_sglang_at_vllms_decode_rate():
    # The measurement behind SIBLING_KERNELS: in every trusted calibration pair of the two engines at one request on
    # one machine (same source, model, weights, GPUs and lengths), SGLang decodes at 0.95-1.14x vLLM. (Untrusted pairs
    # agree, 0.96-1.02 on varad-more's A10G and ree2raz's L4, but for SGLang run with its CUDA graphs off: 0.51.)
    pairs: dict[tuple, dict[str, float]] = {}
    for r in speed_fidelity.load_rows():
        if (r["engine"] in ("vllm", "sglang") and r["group"] == "decode" and int(r["batch"] or 1) == 1
                and speed_fidelity.split_of(r) == "calibration" and r["trusted"] == "yes"):
            key = (r["url"].split("/blob/")[0], r["model_id"], r["gpu"], r["n_gpus"], r["weights"], r["prompt_tokens"],
                   r["gen_tokens"])
            pairs.setdefault(key, {})[r["engine"]] = float(r["tokens_per_s"])
    ratios = {k: v["sglang"] / v["vllm"] for k, v in pairs.items() if len(v) == 2}
    assert len({k[0] for k in ratios}) >= 4 and len(ratios) >= 7
    assert all(0.95 <= x <= 1.15 for x in ratios.values()), ratios


def test_split_holds_out_whole_sources():
    by_url: dict[str, set[str]] = {}
    for row in speed_fidelity.load_rows():
        by_url.setdefault(row["url"], set()).add(speed_fidelity.split_of(row))
    assert all(len(s) == 1 for s in by_url.values())
    held = {u for u, s in by_url.items() if s == {"held-out"}}
    assert "https://nvidia.github.io/TensorRT-LLM/performance/perf-overview.html" in held
    assert any("pytorch/torchtune" in u for u in held)
    assert not any("QwenLM" in u and "speed_benchmark" in u for u in held)  # the speed benchmarks calibrate


def test_calibration_never_sees_held_out_rows(catalog):
    rows = [r for rs in speed_calibration.calibration_rows(catalog).values() for r in rs]
    assert rows and all(speed_fidelity.split_of(r) == "calibration" and r["trusted"] == "yes" for r in rows)


def test_shipped_constants_are_a_fit_of_the_calibration_rows(catalog):
    # One grid step either way of each fitted constant fits the calibration rows no better (within
    # the fit's tie margin): the constants are where the calibration put them, not hand-tuned.
    by_engine = speed_calibration.calibration_rows(catalog)
    saved = dict(es.FITTED)
    try:
        for engine, fitted in saved.items():
            if engine.gguf:
                continue  # fitted with its decode kernels' constants: test_gguf_decode
            rows = by_engine[engine]
            assert len(rows) >= speed_calibration.MIN_ROWS
            base = speed_calibration.loss(rows, catalog)
            grids = dict(speed_calibration.GRIDS)
            if engine in es.CUDA_GRAPH_ENGINES:  # its small kernels' time, fitted with its bandwidth share
                grids["kernels_s_per_layer"] = speed_calibration.KERNELS_GRID
            for name, grid in grids.items():
                if engine in es.SIBLING_KERNELS and name not in speed_calibration.SIBLING_KERNELS_FIT:
                    continue  # its sibling's kernels: only its host floor is fitted on these rows
                if not speed_calibration.fits_engine(rows) and name not in speed_calibration.LARGE_BATCH_ONLY:
                    continue  # the sibling's constant, not fitted on these rows
                value = getattr(fitted, name)
                if value not in grid:
                    continue  # the prior, kept because the rows do not constrain it
                i = grid.index(value)
                for j in (i - 1, i + 1):
                    if 0 <= j < len(grid):
                        es.FITTED[engine] = es.EngineSpeed(**{**fitted.__dict__, name: grid[j]})
                        assert base <= speed_calibration.loss(rows, catalog) * (1 + speed_calibration.TIE) + 1e-9, \
                            (engine, name, grid[j])
                es.FITTED[engine] = fitted
    finally:
        es.FITTED.clear()
        es.FITTED.update(saved)


def test_trt_llm_rows_map_to_the_kernel_their_version_ran(catalog):
    # Each row names its TensorRT-LLM version (--engine-version); the app runs it as that version did:
    # XQA (grouped) from v0.7 for 8 query heads per KV head and head size 128/256 only
    # (xqa_kernel_cubin.h at 2340c776); masked MHA (per head) otherwise.
    rows = {r["id"]: r for r in speed_fidelity.load_rows()}
    from advisor.core.job.engine_versions import as_run

    kind = {i: as_run(catalog.models[rows[i]["model_id"]], speed_fidelity.job_of(rows[i])).decode_attention.value
            for i in ("trtllm090-llama70b-h200-tp1-bs64-2048-2048", "trtllm090-mistral7b-h200-tp1-bs120-128-2048",
                      "trtllm090-falcon180b-h200-tp4-bs64-2048-2048", "trtllm090-llama7b-h200-tp1-bs120-128-2048",
                      "trtllm050-llama70b-h200-tp1-bs64-2048-128", "trtllm07a-llama70b-h200-1gpu-bs192-128-2048",
                      "qwen25-7b-vllm-bf16-in1-1gpu")}
    assert kind == {"trtllm090-llama70b-h200-tp1-bs64-2048-2048": "grouped",
                    "trtllm090-mistral7b-h200-tp1-bs120-128-2048": "per-head",
                    "trtllm090-falcon180b-h200-tp4-bs64-2048-2048": "per-head",
                    "trtllm090-llama7b-h200-tp1-bs120-128-2048": "per-head",
                    "trtllm050-llama70b-h200-tp1-bs64-2048-128": "per-head",
                    "trtllm07a-llama70b-h200-1gpu-bs192-128-2048": "grouped",
                    "qwen25-7b-vllm-bf16-in1-1gpu": "grouped"}


def test_trt_llm_is_fitted_in_full_once_it_has_small_batch_rows(catalog):
    # Until round 19 every TensorRT-LLM calibration row was at batch >= 32 (NVIDIA's H200 blogs) and only its compute
    # share was fitted; trtllm-bench latency reports at batch 1 (masahiro-kubota/trtllm-latency) now show its host floor.
    rows = speed_calibration.calibration_rows(catalog)[Engine.TENSORRT_LLM]
    assert speed_calibration.fits_engine(rows)
    assert not speed_calibration.fits_engine([r for r in rows if not r["id"].startswith("h55e-")])
    assert speed_calibration.LARGE_BATCH_ONLY == ("compute",)
    assert all(speed_calibration.fits_engine(speed_calibration.calibration_rows(catalog)[e])
               for e in es.FITTED if not e.gguf)


def test_prefill_rows_do_not_fit_an_engines_host_floor(catalog):
    # llama-bench pp rows see only the compute share, so they never count towards an
    # engine's full fit; llama.cpp's decode rows fit its decode kernels' constants instead (gguf_decode), its
    # compute share stays the prior and its engine floor 0. Its prompts at -ub 1 are decode steps: they fit the
    # decode constants too, and no prompt path's share.
    rows = speed_calibration.calibration_rows(catalog)[Engine.LLAMA_CPP]
    assert not speed_calibration.fits_engine([r for r in rows if r["group"] == "prefill"] * 2)
    one_token = [r for r in rows if r["group"] == "prefill" and r["ubatch"] == "1"]
    assert len(one_token) >= 15
    assert speed_calibration.gguf_decode_rows({Engine.LLAMA_CPP: rows}) == [
        r for r in rows if r["group"] == "decode" or r in one_token]
    assert not any(speed_calibration._gguf_fit_path(r, catalog) for r in one_token)
    fitted = es.engine_speed(Engine.LLAMA_CPP)
    assert fitted.compute == es.PRIOR_COMPUTE and fitted.floor_s_per_layer == 0.0


def test_trt_llm_compute_share_is_a_fit_of_the_calibration_rows(catalog):
    rows = speed_calibration.calibration_rows(catalog)[Engine.TENSORRT_LLM]
    saved = es.FITTED[Engine.TENSORRT_LLM]
    try:
        base = speed_calibration.loss(rows, catalog)
        for c in (saved.compute - 0.01, saved.compute + 0.01):
            es.FITTED[Engine.TENSORRT_LLM] = replace(saved, compute=round(c, 2))
            assert base <= speed_calibration.loss(rows, catalog) * (1 + speed_calibration.TIE) + 1e-9
    finally:
        es.FITTED[Engine.TENSORRT_LLM] = saved


def test_per_head_share_is_a_fit_of_the_calibration_rows(catalog):
    rows = speed_calibration.calibration_rows(catalog)[Engine.TENSORRT_LLM]
    saved = es.PER_HEAD_ATTENTION_SHARE
    try:
        base = speed_calibration.loss(rows, catalog)
        i = speed_calibration.PER_HEAD_GRID.index(saved)
        for j in (i - 1, i + 1):
            es.PER_HEAD_ATTENTION_SHARE = speed_calibration.PER_HEAD_GRID[j]
            assert base <= speed_calibration.loss(rows, catalog) * (1 + speed_calibration.TIE) + 1e-9
    finally:
        es.PER_HEAD_ATTENTION_SHARE = saved


def test_quant_kernel_time_is_a_fit_of_the_calibration_rows(catalog):
    # The per-layer time of the dequantizing kernels, fitted on the CUDA-graph engines'
    # calibration rows with GPTQ / AWQ / 8-bit weights: no grid neighbour does better by more than TIE.
    rows = speed_calibration.quant_rows(speed_calibration.calibration_rows(catalog))
    assert len(rows) >= speed_calibration.MIN_ROWS
    # int8: TensorRT-LLM's weight-only INT8 (round 24's IneshReddy249 Qwen2.5 32B row on an A100)
    assert {speed_fidelity.WEIGHTS[r["weights"]] for r in rows} == {"awq", "gptq", "gptq-int8", "int8"}
    assert all(Engine(r["engine"]) in es.CUDA_GRAPH_ENGINES for r in rows)
    shipped = dict(es.QUANT_KERNEL_S_PER_LAYER)
    base = speed_calibration.loss(rows, catalog)
    try:
        for family, value in shipped.items():
            i = speed_calibration.QUANT_GRID.index(value)
            for j in (i - 1, i + 1):
                if 0 <= j < len(speed_calibration.QUANT_GRID):
                    es.QUANT_KERNEL_S_PER_LAYER[family] = speed_calibration.QUANT_GRID[j]
                    assert base <= speed_calibration.loss(rows, catalog) * (1 + speed_calibration.TIE) + 1e-9, family
            es.QUANT_KERNEL_S_PER_LAYER[family] = value
    finally:
        es.QUANT_KERNEL_S_PER_LAYER.update(shipped)


def test_quant_kernel_time_applies_to_dequantizing_kernels_of_cuda_graph_engines(monkeypatch):
    monkeypatch.setitem(es.QUANT_KERNEL_S_PER_LAYER, "int4", 0.07e-3)  # (the fit's 4-bit time is 0: any value shows it)
    assert es.quant_kernel_s_per_layer(Engine.VLLM, "awq") == es.quant_kernel_s_per_layer(Engine.SGLANG, "gptq") == 0.07e-3
    assert es.quant_kernel_s_per_layer(Engine.VLLM, "int8") == es.QUANT_KERNEL_S_PER_LAYER["int8"] == 0.01e-3
    for weights in ("bf16", "fp8", "q4_k_m", "nf4"):  # 16-bit and FP8 GEMMs, GGUF, bitsandbytes: none
        assert es.quant_kernel_s_per_layer(Engine.VLLM, weights) == 0
    for engine in (Engine.TRANSFORMERS, Engine.LLAMA_CPP, Engine.EXLLAMAV2):  # host-bound steps: not fitted there
        assert es.quant_kernel_s_per_layer(engine, "awq") == 0


def test_a_quantized_decode_step_pays_the_kernels_time_per_layer(catalog, monkeypatch):
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.job.planned import PlannedJob

    # Llama 3.1 70B in AWQ on one A100: reading ~40 GB takes ~28 ms, far above the host floor (80 x 0.16 ms)
    arch, build = catalog.models["llama-3.1-70b"], gpu_build(catalog, "a100-80gb-sxm", 1)
    job = PlannedJob(engine="vllm", weights="awq", batch=1, context_len=512)
    monkeypatch.setitem(es.QUANT_KERNEL_S_PER_LAYER, "int4", 0.07e-3)  # (the fit's is 0: any value shows the mechanism)
    with_kernels = 1 / estimate(arch, job, build).speed.decode_tokens_per_s
    monkeypatch.setitem(es.QUANT_KERNEL_S_PER_LAYER, "int4", 0.0)
    without = 1 / estimate(arch, job, build).speed.decode_tokens_per_s
    assert without > arch.n_layers * es.FITTED[Engine.VLLM].floor_s_per_layer  # the GPU bounds the step
    assert with_kernels - without == pytest.approx(arch.n_layers * 0.07e-3, rel=1e-6)


def test_quant_kernel_time_is_fitted_on_vllm_v1_releases_only(catalog):
    # Until the twenty-fourth session the per-layer time was 0.07 ms (4-bit) and 0.06 ms (8-bit), set mostly by Qwen2.5's
    # vLLM 0.6.3 rows on an A100 (its 4-bit gain over 16 bits growing with the model), while the newer releases'
    # quantized rows (0.8.5 on an L4, 0.23 on an L40S) decoded faster than that time allowed (benchmarks/README.md,
    # ninth session). With vLLM's releases before its V1 engine a known gap, those V0 rows are not scored and the fit
    # on the rest finds no 4-bit time and 0.01 ms for 8 bits.
    rows = speed_calibration.quant_rows(speed_calibration.calibration_rows(catalog))
    assert len(rows) >= 20 and not any(build_eras.pre_v1_vllm(r) for r in rows)
    v0 = [r for r in ROWS.values() if "QwenLM/Qwen2.5" in r["url"] and r["engine"] == "vllm" and r["weights"] in ("awq", "gptq")]
    assert v0 and all(speed_fidelity.evaluate(r, catalog).skipped.startswith(
        "known gap: a vLLM release before its V1 engine") for r in v0)
    assert speed_calibration.fit_quant(rows, catalog) == es.QUANT_KERNEL_S_PER_LAYER

def test_a_larger_llama_cpp_prompt_batch_copies_offloaded_experts_fewer_times():
    # llama.cpp copies the experts kept in host RAM to the GPU once per prompt batch (--ubatch-size): four
    # times the batch, a quarter of the copies, a faster prompt; the decode step does not change.
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.job.planned import PlannedJob
    from advisor.core.memory.peak import estimate_memory
    from advisor.core.speed.inference import estimate_speed

    catalog = load_catalog().catalog
    arch, build = catalog.models["qwen3-235b-a22b"], gpu_build(catalog, "rtx-3090", 2)

    def speed(ubatch):
        w = PlannedJob(engine="llama.cpp", weights="q4_k_m", n_gpus=2, parallel="layer-split", moe_offload_layers=60,
                     ubatch_tokens=ubatch)
        return estimate_speed(arch, w, build, estimate_memory(arch, w).breakdown)

    small, large = speed(512), speed(2048)
    assert large.prefill_tokens_per_s > 2 * small.prefill_tokens_per_s
    assert large.decode_tokens_per_s == pytest.approx(small.decode_tokens_per_s)

def test_exllamav2_runs_on_llama_cpps_constants_its_small_kernels_with_them():
    # no rows of its own: its sibling's whole entry (SIBLING), the small kernels' time included
    assert es.engine_speed(Engine.EXLLAMAV2) == es.FITTED[Engine.LLAMA_CPP]
    assert es.engine_speed(Engine.EXLLAMAV2).kernels_s_per_layer > 0

