"""A decode step as its kernels run: the weight GEMMs, then the attention
kernel, each bounded by its own roofline, summed (``decode.kernels_seconds``). A roofline over the whole
step let a large batch hide its KV reads behind the GEMMs' compute."""

import pytest

from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.inference import weights_bytes
from advisor.core.memory.peak import estimate_memory
from advisor.core.speed import decode
from advisor.core.speed import inference as sp
from advisor.core.speed.engine_speed import engine_speed
from advisor.core.speed.flops import matmul_params
from tests.core.speed.speed_fixtures import h100, llama2_7b


def one_h100() -> ResolvedBuild:
    return ResolvedBuild(name="1x H100", gpus=(h100(),), topology=Topology(pcie_gen=5))


def step_s(arch, w):
    est = sp.estimate_speed(arch, w, one_h100(), estimate_memory(arch, w).breakdown)
    return w.batch / est.decode_tokens_per_s


def test_kernels_sum_their_own_rooflines():
    assert decode.kernels_seconds(3.0, 5.0, 2.0, 1.0) == 7.0  # max(3, 5) + max(2, 1)
    assert decode.kernels_seconds(3.0, 1.0, 2.0, 4.0) == 7.0


def test_never_faster_than_one_roofline_over_the_step():
    for args in ((3.0, 5.0, 2.0, 1.0), (1.0, 0.5, 9.0, 0.1), (4.0, 4.0, 4.0, 4.0)):
        w_t, g_t, a_t, ac_t = args
        assert decode.kernels_seconds(*args) >= max(w_t + a_t, g_t + ac_t)


def test_compute_bound_gemms_do_not_hide_the_kv_read():
    # Llama-2-7B BF16 on one H100 at batch 512 and a 32-token context: the GEMMs are compute-bound
    # (512 x 2 x 6.5 G FLOPs at TensorRT-LLM's fitted share of 989 TFLOP/s, ~13 ms) and the 8.6 GB KV
    # read (~4 ms) comes after them, not under them.
    arch = llama2_7b()
    w = PlannedJob(engine="tensorrt-llm", weights="bf16", batch=512, context_len=32)
    e, g = engine_speed(w.engine), h100()
    gemm = w.batch * 2 * matmul_params(arch) / (g.bf16_tflops_dense * 1e12 * e.compute)
    kv = 512 * 32 * arch.n_layers * 2 * arch.n_kv_heads * arch.head_dim * 2
    kv_read = kv / (g.mem_bandwidth_gb_per_s * 1e9 * e.bandwidth)
    weights = estimate_memory(arch, w).breakdown.weights / (g.mem_bandwidth_gb_per_s * 1e9 * e.bandwidth)
    assert gemm > weights + kv_read  # one roofline over the step would give just the GEMMs' time
    assert step_s(arch, w) == pytest.approx(gemm + kv_read, rel=0.05)


def test_ollamas_host_time_follows_the_step_only_where_kernels_are_launched_one_by_one(catalog):
    # Ollama's fitted host time a layer (Macs; 0.11 ms since the twenty-fourth session) is added to a Mac's step — its
    # runner samples between llama.cpp's decode calls (engine_speed.SERIAL_FLOOR_ENGINES) — on top of llama.cpp's own
    # step on the same kernels; a CUDA card that replays a graph does not pay it.
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.speed.engine_speed import FITTED, Engine

    arch = catalog.models["llama-3.2-1b"]

    def step_s(engine, gpu):
        job = PlannedJob(engine=engine, weights="q4_k_m", context_len=2048, attention="flash")
        return 1 / estimate(arch, job, gpu_build(catalog, gpu, 1)).speed.decode_tokens_per_s

    host = FITTED[Engine.OLLAMA].floor_s_per_layer * arch.n_layers
    assert step_s("ollama", "apple-m4-max-128gb") == pytest.approx(step_s("llama.cpp", "apple-m4-max-128gb") + host,
                                                                   rel=0.02)
    assert step_s("ollama", "rtx-4090") == pytest.approx(step_s("llama.cpp", "rtx-4090"), rel=0.02)


def test_each_llm_int8_linear_adds_its_host_waits_in_transformers(catalog):
    # bitsandbytes' int8_vectorwise_quant asks `if outliers.any():` of every Linear's input (v0.45.0): the host waits
    # for the GPU twice a Linear, so each of the 224 Linears of a Llama 3.1 8B token costs BNB_INT8_S_PER_LINEAR.
    from advisor.core.speed import engine_speed as es

    arch = catalog.models["llama-3.1-8b"]
    assert decode.linear_calls_per_token(arch) == 32 * (4 + 3)
    moe = catalog.models["qwen3-30b-a3b"]  # 48 MoE layers, 8 routed experts a token, no shared one
    assert decode.linear_calls_per_token(moe) == 48 * 4 + 48 * 8 * 3
    int8 = PlannedJob(engine="transformers", weights="int8")
    assert decode.fixed_kernels_seconds(arch, int8) == pytest.approx(224 * es.BNB_INT8_S_PER_LINEAR)
    # Not GPTQ's 8-bit kernels, nor LLM.int8 weights in a CUDA-graph engine (their own per-layer GEMV time).
    assert decode.fixed_kernels_seconds(arch, PlannedJob(engine="transformers", weights="gptq-int8")) == 0.0
    assert decode.fixed_kernels_seconds(arch, PlannedJob(engine="vllm", weights="int8")) == pytest.approx(
        32 * (es.QUANT_KERNEL_S_PER_LAYER["int8"] + es.FITTED[es.Engine.VLLM].kernels_s_per_layer))
    # What it buys on one H100: LLM.int8 8B decodes slower than BF16 8B, as bitsandbytes' README measured (12.2
    # against 61 tokens/s), where reading half the bytes alone would make it faster.
    bf16 = step_s(arch, PlannedJob(engine="transformers", weights="bf16"))
    assert step_s(arch, int8) > 2 * bf16
    notes = sp.estimate_speed(arch, int8, one_h100(), estimate_memory(arch, int8).breakdown).notes
    assert any("each of the 224 linear layers a token passes makes the host wait" in n and "69 ms a step" in n
               for n in notes)


def test_the_llm_int8_time_is_the_calibration_fit(catalog):
    from advisor.core.speed import engine_speed as es
    from tests.benchmark_scripts import load_benchmark

    cal = load_benchmark("speed_calibration")
    rows = cal.bnb_int8_rows(cal.calibration_rows(catalog))
    assert rows and {r["engine"] for r in rows} == {"transformers"}
    assert {r["url"] for r in rows} == {"https://github.com/bitsandbytes-foundation/bitsandbytes/blob/"
                                        "81e6345ddf893c594f6d76406a388fa012cb0a29/benchmarking/README.md"}
    assert cal.fit_bnb_int8(rows, catalog) == es.BNB_INT8_S_PER_LINEAR


def test_a_quantized_linear_adds_host_time_to_transformers_floor(catalog):
    # Qwen2.5's speed benchmark (A100, batch 1): GPTQ-Int8 and AWQ decode at about 1.1 ms a layer whatever the model's
    # size, BF16 and 4-bit GPTQ at 0.8-0.9 ms: the quantized layer's Python runs with each of the 7 Linears a layer.
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.job.choices import Engine
    from advisor.core.speed import engine_speed as es

    arch = catalog.models["qwen2.5-0.5b"]
    a100 = gpu_build(catalog, "a100-80gb-sxm", 1)
    linears = decode.linear_calls_per_token(arch)
    assert linears == 24 * 7

    def tps(**kw) -> float:
        job = PlannedJob(context_len=64, **kw)
        return estimate(arch, job, a100).speed.decode_tokens_per_s

    bf16, awq = tps(engine="transformers", weights="bf16"), tps(engine="transformers", weights="awq")
    floor = es.FITTED[Engine.TRANSFORMERS].floor_s_per_layer * arch.n_layers
    assert 1 / bf16 == pytest.approx(floor, rel=0.02)  # a 0.5B model: the host's floor binds
    assert 1 / awq == pytest.approx(floor + linears * es.LINEAR_HOST_S["awq"], rel=0.02)
    assert tps(engine="transformers", weights="gptq") == pytest.approx(bf16, rel=0.02)  # the ExLlama kernel: none
    # bitsandbytes 4-bit: NF4 and FP4 run one module (Linear4bit), so one host time
    nf4, fp4 = tps(engine="transformers", weights="nf4"), tps(engine="transformers", weights="fp4")
    assert 1 / nf4 == pytest.approx(floor + linears * es.LINEAR_HOST_S["nf4"], rel=0.02) and fp4 == pytest.approx(nf4)
    # Only transformers: vLLM replays a CUDA graph (its dequantizing GEMVs have their own per-layer time).
    assert es.linear_host_s(Engine.VLLM, "awq") == 0.0 == es.linear_host_s(Engine.TRANSFORMERS, "bf16")
    notes = estimate(arch, PlannedJob(engine="transformers", weights="awq", context_len=64), a100).speed.notes
    assert any(n.startswith("AWQ weights in transformers: each of the 168 linear layers a token passes adds "
                            f"{es.LINEAR_HOST_S['awq'] * 1e3:.3g} ms of CPU work") for n in notes)


def test_the_linear_host_times_are_the_calibration_fit(catalog):
    from advisor.core.speed import engine_speed as es
    from tests.benchmark_scripts import load_benchmark

    cal = load_benchmark("speed_calibration")
    rows = cal.linear_host_rows(cal.calibration_rows(catalog))
    assert rows and {r["engine"] for r in rows} == {"transformers"}
    assert cal.fit_linear_host(rows, catalog) == es.LINEAR_HOST_S


def test_a_decode_step_streams_every_weight_but_the_untied_input_embedding(catalog, monkeypatch):
    # Llama 3.1 8B BF16 in vLLM on one A100, batch 1: the GPU bounds the step; leaving the input embedding's 1.05 GB
    # unread saves exactly its bytes at the engine's share of the bandwidth (tensor parallel over two: half each).
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.speed.engine_speed import Engine, engine_speed

    arch = catalog.models["llama-3.1-8b"]
    emb = 128_256 * 4_096 * 2
    for n in (1, 2):
        build = gpu_build(catalog, "a100-80gb-sxm", n)
        tp = PlannedJob(engine="vllm", weights="bf16", batch=1, context_len=512, n_gpus=n, parallel="tp" if n > 1 else "none")
        now = 1 / estimate(arch, tp, build).speed.decode_tokens_per_s
        monkeypatch.setattr(decode, "unread_embedding_bytes", lambda *_: 0.0)
        before = 1 / estimate(arch, tp, build).speed.decode_tokens_per_s
        monkeypatch.undo()
        bw = catalog.gpus["a100-80gb-sxm"].mem_bandwidth_gb_per_s * 1e9
        assert before - now == pytest.approx(emb / n / (bw * engine_speed(Engine.VLLM).bandwidth), rel=1e-6)


def test_a_decode_step_leaves_an_untied_input_embedding_unread(catalog):
    # nn.Embedding gathers only the step's rows: Llama 3.1 8B's untied 128,256 x 4,096 table (BF16) is 6.5 % of its
    # bytes that no decode step streams; a tied table is the output layer's, read whole; llama.cpp keeps it in host RAM.
    llama8b, tied = catalog.models["llama-3.1-8b"], catalog.models["llama-3.2-1b"]
    assert not llama8b.tied_embeddings and tied.tied_embeddings
    vllm = PlannedJob(engine="vllm", weights="bf16")
    assert decode.unread_embedding_bytes(llama8b, vllm) == 128_256 * 4_096 * 2
    assert decode.unread_embedding_bytes(llama8b, vllm) / weights_bytes(llama8b, vllm) == pytest.approx(0.065, abs=0.002)
    assert decode.unread_embedding_bytes(llama8b, PlannedJob(engine="vllm", weights="awq")) == 128_256 * 4_096 * 2  # 16-bit
    assert decode.unread_embedding_bytes(tied, vllm) == 0
    assert decode.unread_embedding_bytes(llama8b, PlannedJob(engine="llama.cpp", weights="q4_k_m")) == 0


def test_the_host_cpu_stretches_the_engines_per_token_overhead(catalog):
    # Qwen2.5 0.5B in transformers on one A100, batch 1: the host's floor binds. On the slowest host measured (Google
    # Cloud N1) the floor takes (reference / its mark) ** HOST_TIME_EXPONENT as long; an unknown CPU and the reference CPU (the EPYC
    # 7742 part) keep the fitted floor; llama.cpp on a card that replays CUDA graphs has no host floor to stretch.
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.job.choices import Engine
    from advisor.core.speed import engine_speed as es
    from advisor.core.speed import host_cpu

    arch = catalog.models["qwen2.5-0.5b"]
    a100 = gpu_build(catalog, "a100-80gb-sxm", 1)
    assert a100.host_single_thread_mark is None
    from advisor.core.hardware.resolved import ResolvedPlatform

    epyc = catalog.parts["amd-epyc-7742"]
    ref = a100.model_copy(update={"platform": ResolvedPlatform(cpu=epyc)})
    low = host_cpu.FITTED_MARKS[0]  # the slowest host the exponent was fitted on
    half = epyc.model_copy(update={"single_thread_mark": low})
    slow = a100.model_copy(update={"platform": ResolvedPlatform(cpu=half)})
    job = PlannedJob(engine="transformers", weights="bf16", context_len=64)

    def step_s(build) -> float:
        return 1 / estimate(arch, job, build).speed.decode_tokens_per_s

    floor = es.FITTED[Engine.TRANSFORMERS].floor_s_per_layer * arch.n_layers
    assert step_s(a100) == pytest.approx(floor, rel=0.02) == step_s(ref)
    assert step_s(slow) == pytest.approx(floor * (host_cpu.REFERENCE_HOST_MARK / low) ** host_cpu.HOST_TIME_EXPONENT,
                                         rel=0.02)
    notes = estimate(arch, job, slow).speed.notes
    assert any("on this host's CPU (PassMark single-thread 1,637" in n for n in notes)
    # slower than any host measured: timed as the slowest one, and said so
    slower = a100.model_copy(update={"platform": ResolvedPlatform(cpu=epyc.model_copy(update={"single_thread_mark": 1000}))})
    assert step_s(slower) == step_s(slow)
    assert any("held at the slowest host measured" in n for n in estimate(arch, job, slower).speed.notes)
    fast = a100.model_copy(update={"platform": ResolvedPlatform(cpu=catalog.parts["amd-ryzen-9-5950x"])})
    # faster than any host measured: timed as the fastest one (the factor held at FITTED_MARKS' top), and said so
    high = host_cpu.FITTED_MARKS[1]
    assert step_s(fast) == pytest.approx(floor * (host_cpu.REFERENCE_HOST_MARK / high) ** host_cpu.HOST_TIME_EXPONENT,
                                         rel=0.02)
    assert step_s(fast) < step_s(a100)
    assert any("a faster core's further gain is not counted" in n for n in estimate(arch, job, fast).speed.notes)
    assert any("(which CPU it has is not known)" in n for n in estimate(arch, job, a100).speed.notes)
    # a CPU part the catalog has no score for (launched after the pinned chart): the reference pace, and said so
    unscored = a100.model_copy(update={"platform": ResolvedPlatform(cpu=catalog.parts["intel-xeon-w5-3435x"])})
    assert unscored.host_single_thread_mark is None and step_s(unscored) == step_s(a100)
    assert any("the catalog has no single-thread score for its Xeon w5-3435X" in n
               for n in estimate(arch, job, unscored).speed.notes)
    gguf = PlannedJob(engine="llama.cpp", weights="Q4_K_M", context_len=64)
    assert estimate(arch, gguf, slow).speed.decode_tokens_per_s == estimate(arch, gguf, a100).speed.decode_tokens_per_s


def test_the_host_exponent_is_the_calibration_fit(catalog):
    from advisor.core.speed import host_cpu
    from tests.benchmark_scripts import load_benchmark

    cal = load_benchmark("speed_calibration")
    rows = cal.stated_host_rows(cal.calibration_rows(catalog))
    # Colab and Kaggle T4s (Google Cloud N1), Colab L4 and A100 (G2, A2), a Xeon Silver 4210R, the EPYC 7742
    assert len({r["host"] for r in rows}) >= 4 and len({r["url"] for r in rows}) >= 6
    assert cal.fit_host_exponent(rows, catalog) == host_cpu.HOST_TIME_EXPONENT
    # the range the factor holds to is the range of the hosts of those rows whose estimate the host time moves
    assert cal.fitted_host_marks(rows, catalog, host_cpu.HOST_TIME_EXPONENT) == host_cpu.FITTED_MARKS
    # a stated host whose rows the GPU bounds widens nothing: the Ryzen 5 9600X under RTX 3090s decoding 3B-7B models
    assert max(m for r in rows if (m := cal.row_host_mark(r, catalog))) > host_cpu.FITTED_MARKS[1]


def test_a_layer_splits_host_bound_step_says_what_paces_it(catalog):
    # Qwen2.5 0.5B in transformers over two A100s, layers split (device_map="auto"): each GPU's share of the weights
    # takes a fraction of the per-token overhead, so the host floor binds, and the note says so, as on one GPU.
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.job.choices import Parallel

    arch = catalog.models["qwen2.5-0.5b"]
    job = PlannedJob(engine="transformers", weights="bf16", context_len=64, n_gpus=2, parallel=Parallel.LAYER_SPLIT)
    notes = estimate(arch, job, gpu_build(catalog, "a100-80gb-sxm", 2)).speed.notes
    assert any("layer split" in n for n in notes)
    assert any("per-token overhead" in n and "(which CPU it has is not known)" in n for n in notes)
