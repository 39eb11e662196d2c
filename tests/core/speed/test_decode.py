"""A decode step as its kernels run: the weight GEMMs, then the attention
kernel, each bounded by its own roofline, summed (``decode.kernels_seconds``). A roofline over the whole
step let a large batch hide its KV reads behind the GEMMs' compute."""

import pytest

from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job.planned import PlannedJob
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


def test_ollamas_host_floor_binds_only_where_kernels_are_launched_one_by_one(catalog):
    # Ollama's fitted 0.44 ms a layer (Macs) caps a Mac's 8B decode; a CUDA card that replays a graph does not pay it
    from advisor.core.estimation.estimator import estimate
    from advisor.core.hardware.catalog import gpu_build
    from advisor.core.speed.engine_speed import FITTED, Engine

    arch = catalog.models["llama-3.1-8b"]
    job = PlannedJob(engine="ollama", weights="q4_k_m", context_len=2048)
    floor_tps = 1 / (FITTED[Engine.OLLAMA].floor_s_per_layer * arch.n_layers)
    mac = estimate(arch, job, gpu_build(catalog, "apple-m4-max-128gb", 1)).speed.decode_tokens_per_s
    rtx = estimate(arch, job, gpu_build(catalog, "rtx-4090", 1)).speed.decode_tokens_per_s
    assert mac == pytest.approx(floor_tps, rel=0.02)  # bound by the floor
    assert rtx > 1.5 * floor_tps  # bound by its bandwidth and kernels, not the floor
