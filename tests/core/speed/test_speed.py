"""Speed estimates: calibration points, independent checks, and the 2x 3090 NVLink vs 2x 4090 case."""

import pytest

from advisor.core.hardware.interconnect import collective_time_s
from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job.choices import Engine
from advisor.core.job.frameworks import with_framework_defaults
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.arch import ModelArch, Moe
from advisor.core.speed import inference as sp
from advisor.core.speed import layout as speed_plan
from advisor.core.speed import prefill
from advisor.core.speed import training as speed_train
from advisor.core.speed.flops import (
    DECODE_BANDWIDTH_EFFICIENCY,
    TRAIN_MFU,
    matmul_params,
    train_flops_per_token,
)
from advisor.core.speed.flops import trainable_params as train_params
from advisor.core.speed.results import Bottleneck
from tests.core.speed.speed_fixtures import (
    falcon_40b,
    hgx_h100,
    llama2_7b,
    llama2_70b,
    one_3090,
    one_4090,
    pair_3090_nvlink,
    pair_4090_pcie,
    rtx4090,
)


def speed(arch, w, build):
    return sp.estimate_speed(arch, w, build, estimate_memory(arch, w).breakdown)


# --- single GPU: calibration and an independent measurement ---------------------------------

def test_3090_llama_7b_f16_matches_llama_cpp_measurement():
    # ggml-org/llama.cpp PR #4766 (RTX 3090, LLaMA 7B F16): tg128 48.52 t/s, pp512 4407 t/s.
    # These two points calibrate DECODE_BANDWIDTH_EFFICIENCY and INFERENCE_COMPUTE_EFFICIENCY, the priors; llama.cpp
    # decodes at its own fitted bandwidth share (engine_speed.FITTED, with its decode kernels: gguf_decode), so the
    # tg row comes back scaled by that share over the prior.
    from advisor.core.speed.engine_speed import PRIOR_BANDWIDTH, engine_speed

    tg = speed(llama2_7b(), PlannedJob(weights="fp16", engine="llama.cpp", kv_dtype="fp16", context_len=128), one_3090())
    pp = speed(llama2_7b(), PlannedJob(weights="fp16", engine="llama.cpp", kv_dtype="fp16", context_len=512), one_3090())
    share = engine_speed(Engine.LLAMA_CPP).bandwidth / PRIOR_BANDWIDTH
    assert tg.decode_tokens_per_s == pytest.approx(48.52 * share, rel=0.03)
    assert pp.prefill_tokens_per_s == pytest.approx(4407, rel=0.08)
    assert tg.bottleneck is Bottleneck.MEMORY_BANDWIDTH


def test_4090_llama2_7b_4bit_decode_near_mlc_measurement():
    # mlc-ai/llm-perf-bench PR #1: RTX 4090, Llama2-7B 4-bit (q4f16_1, 4.5 bits), MLC LLM 191.0 tok/s.
    # Not used for calibration: an independent check within 15 %.
    s = speed(llama2_7b(), PlannedJob(weights="q4_0", engine="llama.cpp", kv_dtype="fp16", context_len=256), one_4090())
    assert s.decode_tokens_per_s == pytest.approx(191.0, rel=0.15)


# --- the canonical comparison -------------------------------------------------------------

def _70b(parallel, **kw):
    return PlannedJob(weights="q4_k_m", engine="llama.cpp", n_gpus=2, parallel=parallel, context_len=4096, **kw)


def test_single_stream_decode_differs_little_and_4090_is_faster_with_layer_split():
    # Decode reads weights: 1008 vs 936 GB/s per card, the link carries one 16 KiB activation per token.
    a = llama2_70b()
    s3 = speed(a, _70b("layer-split"), pair_3090_nvlink()).decode_tokens_per_s
    s4 = speed(a, _70b("layer-split"), pair_4090_pcie()).decode_tokens_per_s
    assert 1.0 < s4 / s3 < 1008 / 936 + 0.01


def test_single_stream_tensor_parallel_decode_differs_little():
    a = llama2_70b()
    s3 = speed(a, _70b("tp"), pair_3090_nvlink())
    s4 = speed(a, _70b("tp"), pair_4090_pcie())
    assert s4.decode_tokens_per_s / s3.decode_tokens_per_s == pytest.approx(1.0, abs=0.15)
    # ...but the 4090 pair spends a visibly larger share of each token on the link
    assert s4.interconnect_share > 1.5 * s3.interconnect_share


def test_tensor_parallel_prefill_link_time_differs_a_lot():
    # 2 all-reduces per layer of prompt × hidden bf16 (Megatron): 64 MiB each for 4096 tokens of Llama-2-70B.
    a = llama2_70b()
    w = PlannedJob(weights="awq", engine="vllm", n_gpus=2, parallel="tp", context_len=4096)
    split, mem = sp.split_of(w), estimate_memory(a, w).breakdown
    t3, comm3 = prefill.prefill_seconds(a, w, speed_plan.run_of(a, w, pair_3090_nvlink()), mem, split, mem.weights * 2, [])
    t4, comm4 = prefill.prefill_seconds(a, w, speed_plan.run_of(a, w, pair_4090_pcie()), mem, split, mem.weights * 2, [])
    assert comm4 / comm3 > 3
    assert comm4 / t4 > 3 * comm3 / t3
    assert comm3 == pytest.approx(2 * 80 * collective_time_s(pair_3090_nvlink(), "all_reduce", 4096 * 8192 * 2, 2))


def test_fsdp_training_link_time_differs_a_lot():
    a = llama2_7b()
    w = PlannedJob(mode="train", method="full", optimizer="adamw-8bit", checkpointing="full", n_gpus=2,
                 parallel="fsdp", seq_len=2048)
    c3 = speed_train.train_comm_per_step(a, w, pair_3090_nvlink(), sp.split_of(w))
    c4 = speed_train.train_comm_per_step(a, w, pair_4090_pcie(), sp.split_of(w))
    assert c4 / c3 > 3
    s3, s4 = speed(a, w, pair_3090_nvlink()), speed(a, w, pair_4090_pcie())
    assert s4.interconnect_share > 4 * s3.interconnect_share
    assert s3.interconnect_share < 0.2 < 0.4 < s4.interconnect_share


# --- multi-GPU semantics --------------------------------------------------------------------

def test_layer_split_adds_capacity_not_speed():
    a = llama2_7b()
    one = speed(a, PlannedJob(weights="q4_k_m", engine="llama.cpp"), one_4090())
    two = speed(a, PlannedJob(weights="q4_k_m", engine="llama.cpp", n_gpus=2, parallel="layer-split"), pair_4090_pcie())
    assert two.decode_tokens_per_s <= one.decode_tokens_per_s
    assert two.decode_tokens_per_s == pytest.approx(one.decode_tokens_per_s, rel=0.03)
    assert any("capacity" in n for n in two.notes)


def test_tensor_parallel_decode_pays_two_all_reduces_per_layer():
    a = llama2_70b()
    w = _70b("tp")
    s = speed(a, w, pair_4090_pcie())
    comm = 2 * a.n_layers * collective_time_s(pair_4090_pcie(), "all_reduce", a.hidden_size * 2, 2)
    step = 1 / s.decode_tokens_per_s
    assert s.interconnect_share * step == pytest.approx(comm)


@pytest.mark.parametrize(("engine", "reduces"), [("tensorrt-llm", 1), ("vllm", 1), ("sglang", 2),
                                                ("deepspeed", 2)])
def test_falcon_tensor_parallel_decode_reduces_once_per_layer_where_the_engine_adds_first(engine, reduces):
    # TensorRT-LLM's and vLLM's Falcon add the side-by-side attention and MLP outputs and all-reduce the
    # sum once (layout.ONE_ALL_REDUCE_FAMILIES); the other engines reduce after each.
    a, build = falcon_40b(), hgx_h100()
    w = PlannedJob(weights="fp16", engine=engine, n_gpus=8, parallel="tp", context_len=1024)
    s = speed(a, w, build)
    comm = reduces * a.n_layers * collective_time_s(build, "all_reduce", a.hidden_size * 2, 8)
    assert s.interconnect_share / s.decode_tokens_per_s == pytest.approx(comm)
    assert any("one all-reduce a layer" in n for n in s.notes) is (reduces == 1)


def test_only_side_by_side_falcon_layers_reduce_once():
    falcon, one_after_other = falcon_40b(), falcon_40b().model_copy(update={"parallel_residual": False})
    assert speed_plan.tp_all_reduces_per_layer(falcon, Engine.TENSORRT_LLM) == 1
    assert speed_plan.tp_all_reduces_per_layer(one_after_other, Engine.TENSORRT_LLM) == 2
    phi = llama2_7b().model_copy(update={"family": "phi", "parallel_block": True})  # vLLM phi.py: reduces twice
    assert speed_plan.tp_all_reduces_per_layer(phi, Engine.VLLM) == 2


def test_fsdp_moves_one_and_a_half_times_the_ddp_volume():
    # Rajbhandari et al. 2020 §7.2.2: ZeRO-3 = 3Ψ vs 2Ψ for DDP. Big model so bandwidth dominates latency.
    a = llama2_70b()
    base = dict(mode="train", method="full", precision="bf16", n_gpus=8, seq_len=1)
    ddp = PlannedJob(parallel="ddp", **base)
    fsdp = PlannedJob(parallel="fsdp", **base)
    b = hgx_h100(8)
    ratio = speed_train.train_comm_per_step(a, fsdp, b, sp.split_of(fsdp)) / speed_train.train_comm_per_step(a, ddp, b, sp.split_of(ddp))
    assert ratio == pytest.approx(1.5, rel=0.01)


@pytest.mark.parametrize("method", ["full", "lora"])
def test_zero2_moves_the_ddp_volume(method):
    # Rajbhandari et al. 2020 §7.2.1: reduce-scatter + all-gather = one all-reduce. With LoRA only the
    # adapters are trainable: the frozen base is never gathered under ZeRO-1/2.
    a = llama2_70b()
    base = dict(mode="train", method=method, precision="bf16", n_gpus=8, seq_len=1)
    ddp, z2 = PlannedJob(parallel="ddp", **base), PlannedJob(parallel="zero2", **base)
    b = hgx_h100(8)
    t_ddp = speed_train.train_comm_per_step(a, ddp, b, sp.split_of(ddp))
    t_z2 = speed_train.train_comm_per_step(a, z2, b, sp.split_of(z2))
    assert t_z2 == pytest.approx(t_ddp, rel=0.01 if method == "full" else 0.3)  # small LoRA: latency terms


def test_inference_replicas_share_the_jobs_sequences():
    # The job's concurrent sequences are over the whole build: two copies of the model serve half
    # of them each, so two sequences run twice as fast as on one card, and one sequence no faster.
    a = llama2_7b()
    one = speed(a, PlannedJob(), one_4090()).decode_tokens_per_s
    two = speed(a, PlannedJob(n_gpus=2, batch=2), pair_4090_pcie()).decode_tokens_per_s  # replicas
    assert two == pytest.approx(2 * one)
    alone = speed(a, PlannedJob(n_gpus=2), pair_4090_pcie()).decode_tokens_per_s
    assert alone == pytest.approx(one)
    sixteen = speed(a, PlannedJob(batch=16), one_4090()).decode_tokens_per_s
    shared = speed(a, PlannedJob(n_gpus=2, batch=16), pair_4090_pcie()).decode_tokens_per_s
    assert shared < 2 * sixteen  # not two cards of 16 sequences each


def test_pipeline_decode_rereads_each_stages_weights_per_micro_batch():
    # vLLM keeps one batch per stage in flight (max_concurrent_batches = pipeline_parallel_size):
    # a weight-bound decode gains nothing from more stages, since each micro-batch reads its
    # stage's weights again; it gains only the KV cache and compute it splits.
    a = llama2_7b()
    one = speed(a, PlannedJob(batch=4, context_len=256, engine="vllm"), one_4090())
    pp = speed(a, PlannedJob(n_gpus=2, batch=4, context_len=256, parallel="pp", engine="vllm"), pair_4090_pcie())
    assert pp.decode_tokens_per_s < 1.1 * one.decode_tokens_per_s
    long = speed(a, PlannedJob(batch=4, context_len=16384, engine="vllm"), one_4090())
    pp_long = speed(a, PlannedJob(n_gpus=2, batch=4, context_len=16384, parallel="pp", engine="vllm"), pair_4090_pcie())
    assert pp_long.decode_tokens_per_s > 1.1 * long.decode_tokens_per_s  # the split KV read pays


def test_pipeline_parallel_training_has_a_bubble():
    a = llama2_7b()
    w = PlannedJob(mode="train", method="lora", n_gpus=2, parallel="pp", seq_len=512, grad_accum_steps=4)
    pp = speed(a, w, pair_3090_nvlink())
    ls = speed(a, w.model_copy(update={"parallel": "layer-split"}), pair_3090_nvlink())
    # GPipe: (m + s - 1) stage slots vs m·s for turn-taking: 5 vs 8
    assert ls.step_time_s / pp.step_time_s == pytest.approx(8 / 5, rel=0.05)


# --- batch effects and bottlenecks ---------------------------------------------------------

def test_decode_is_bandwidth_bound_until_batch_makes_it_compute_bound():
    a = llama2_7b()
    b = one_4090()
    s1 = speed(a, PlannedJob(context_len=512, batch=1), b)
    s8 = speed(a, PlannedJob(context_len=512, batch=8), b)
    big = speed(a, PlannedJob(context_len=16, batch=4096), b)
    assert s1.bottleneck is Bottleneck.MEMORY_BANDWIDTH and big.bottleneck is Bottleneck.COMPUTE
    assert s8.decode_tokens_per_s > 6 * s1.decode_tokens_per_s  # a batch of 8 is almost free
    per_seq_big = big.decode_tokens_per_s / 4096
    assert per_seq_big < s1.decode_tokens_per_s / 10


def test_moe_decode_reads_only_the_experts_in_use():
    moe = ModelArch(id="moe", name="8x7B-like", n_layers=32, hidden_size=4096, n_heads=32, n_kv_heads=8,
                    head_dim=128, ffn_size=14336, vocab_size=32000,
                    moe=Moe(n_experts=8, n_active=2, expert_ffn_size=14336))
    assert sp.moe_read_fraction(moe, 1) < 0.35
    assert sp.moe_read_fraction(moe, 64) == pytest.approx(1.0, abs=1e-6)
    assert sp.moe_read_fraction(llama2_7b(), 1) == 1.0


# --- training FLOPs and throughput ----------------------------------------------------------

def test_training_flops_6n_8n_and_lora_4n():
    a = llama2_7b()
    n = matmul_params(a)
    assert n == pytest.approx(6.738e9 - 32000 * 4096, rel=1e-3)
    short = dict(mode="train", seq_len=2)
    assert train_flops_per_token(a, PlannedJob(method="full", **short)) == pytest.approx(6 * n, rel=1e-3)
    assert train_flops_per_token(a, PlannedJob(method="full", checkpointing="full", **short)) == pytest.approx(8 * n, rel=1e-3)
    lora = train_flops_per_token(a, PlannedJob(method="lora", **short))
    assert 4 * n < lora < 4.05 * n
    long = train_flops_per_token(a, PlannedJob(method="full", mode="train", seq_len=4096))
    assert long > 6 * n * 1.05  # attention matters at 4k context


def test_single_gpu_training_throughput_is_peak_times_mfu():
    a = llama2_7b()
    w = with_framework_defaults(PlannedJob(mode="train", method="lora", seq_len=2048))  # as the estimate takes it
    s = speed(a, w, one_4090())
    # the matmuls at the peak × MFU, then one optimizer step (memory-bound, timed apart)
    mfu = TRAIN_MFU * 0.24 / TRAIN_MFU  # the HF Trainer (the default framework) measured on Hopper: its share of
    # a pre-training stack's figure, on the RTX 4090's unmeasured family the pre-training figure TRAIN_MFU
    matmul_s = w.seq_len * train_flops_per_token(a, w) / (rtx4090().bf16_tflops_dense * 1e12 * mfu)
    optimizer_s = speed_train.optimizer_step_seconds(a, w, speed_plan.split_of(w), rtx4090().mem_bandwidth_gb_per_s * 1e9)
    assert 0 < optimizer_s < 0.01 * matmul_s  # LoRA: the adapters' states only
    assert s.train_tokens_per_s == pytest.approx(w.seq_len / (matmul_s + optimizer_s))
    assert s.bottleneck is Bottleneck.COMPUTE


def test_the_optimizer_step_moves_every_trained_weight_and_state_once():
    # AMP AdamW: weight 2 B + fp32 master 4 B read and written, the gradient (2 B) read, two fp32 states
    # read and written: 2 × 6 + 2 + 2 × 8 = 30 B per trained parameter; pure bf16: 2 × 2 + 2 + 2 × 4 = 14;
    # 8-bit AdamW's states are 1 B each. That is a fused kernel; PyTorch's foreach AdamW (its default when
    # the framework does not choose) adds 10 passes over a state and one over the gradient: 30 + 40 + 2.
    fused = dict(mode="train", optimizer_kernel="fused")
    assert speed_train.optimizer_step_bytes_per_param(PlannedJob(**fused)) == 30
    assert speed_train.optimizer_step_bytes_per_param(PlannedJob(**fused, precision="bf16")) == 14
    assert speed_train.optimizer_step_bytes_per_param(PlannedJob(**fused, optimizer="adamw-8bit")) == 18
    assert speed_train.optimizer_step_bytes_per_param(PlannedJob(mode="train", optimizer_kernel="foreach")) == 72
    assert speed_train.optimizer_step_bytes_per_param(PlannedJob(mode="train", precision="bf16")) == 14 + 20 + 2
    # bitsandbytes' 8-bit AdamW is its own one-pass kernel, whatever PyTorch's AdamW would do
    assert speed_train.optimizer_step_bytes_per_param(PlannedJob(mode="train", optimizer="adamw-8bit")) == 18
    torchtune = with_framework_defaults(PlannedJob(mode="train", framework="torchtune"))
    assert speed_train.optimizer_step_bytes_per_param(torchtune) == 14  # its defaults: pure bf16, fused AdamW
    litgpt = with_framework_defaults(PlannedJob(mode="train", framework="litgpt"))
    assert speed_train.optimizer_step_bytes_per_param(litgpt) == 36  # pure bf16, torch.optim.AdamW's foreach
    a, bw = llama2_7b(), rtx4090().mem_bandwidth_gb_per_s * 1e9
    full = PlannedJob(mode="train", method="full", optimizer_kernel="fused")
    one = speed_train.optimizer_step_seconds(a, full, speed_plan.split_of(full), bw)
    assert one == pytest.approx(train_params(a, full) * 30 / (bw * DECODE_BANDWIDTH_EFFICIENCY))
    # ZeRO / FSDP step their shard; DDP every state on every GPU; a CPU optimizer none on the GPU
    for parallel, shards in (("fsdp", 4), ("zero2", 4), ("ddp", 1)):
        w = full.model_copy(update={"n_gpus": 4, "parallel": parallel})
        assert speed_train.optimizer_step_seconds(a, w, speed_plan.split_of(w), bw) == pytest.approx(one / shards)
    off = full.model_copy(update={"offload": ("optimizer",)})
    assert speed_train.optimizer_step_seconds(a, off, speed_plan.split_of(off), bw) == 0


def test_qlora_pays_for_dequantization():
    a = llama2_7b()
    lora = speed(a, PlannedJob(mode="train", method="lora", seq_len=512), one_4090())
    qlora = speed(a, PlannedJob(mode="train", method="qlora", weights="nf4", seq_len=512), one_4090())
    assert qlora.train_tokens_per_s < lora.train_tokens_per_s


def test_optimizer_offload_adds_host_traffic():
    a = llama2_7b()
    w = PlannedJob(mode="train", method="full", seq_len=128, offload=("optimizer",))
    s = speed(a, w, one_4090())
    assert s.bottleneck is Bottleneck.HOST_OFFLOAD
    assert any(n.startswith("optimizer step on the CPU (DeepSpeed's CPU-Adam)") for n in s.notes)


def test_an_offloaded_optimizer_steps_on_the_cpu_at_host_memory_speed():
    # DeepSpeed's CPU-Adam streams the gradient, both moments and the fp32 weight in and the weight and moments
    # out (28 B per trained parameter) through host RAM, after the backward: the step grows by that time.
    from advisor.core.speed.flops import trainable_params
    from advisor.core.speed.training import (
        CPU_ADAM_BYTES_PER_PARAM,
        HOST_MEMORY_GB_PER_S,
        cpu_optimizer_seconds,
    )

    a = llama2_7b()
    w = PlannedJob(mode="train", method="full", seq_len=2048, offload=("optimizer",))
    cpu = cpu_optimizer_seconds(a, w, one_4090())
    assert cpu == pytest.approx(trainable_params(a, w) * 28 / 60e9) and CPU_ADAM_BYTES_PER_PARAM == 28
    assert HOST_MEMORY_GB_PER_S == 60 and 3 < cpu < 3.3  # 6.74 B parameters
    on = speed(a, w, one_4090())
    off = speed(a, w.model_copy(update={"offload": ()}), one_4090())
    assert on.step_time_s > cpu and on.step_time_s > off.step_time_s
    # Two GPUs of one machine under ZeRO-2: the CPU steps both shards, i.e. every trained weight once.
    z2 = w.model_copy(update={"n_gpus": 2, "parallel": "zero2"})
    assert cpu_optimizer_seconds(a, z2, pair_4090_pcie()) == pytest.approx(cpu)
    # FSDP's CPU offload steps PyTorch's fused AdamW on the CPU: the same single pass.
    fsdp = w.model_copy(update={"n_gpus": 2, "parallel": "fsdp"})
    assert cpu_optimizer_seconds(a, fsdp, pair_4090_pcie()) == pytest.approx(cpu)
    assert cpu_optimizer_seconds(a, w.model_copy(update={"offload": ()}), one_4090()) == 0


# --- unknowns are said, never invented ------------------------------------------------------

def test_unknown_bandwidth_gives_none_and_a_note():
    from advisor.core.hardware.records import ResolvedBuild

    g = rtx4090().model_copy(update={"mem_bandwidth_gb_per_s": None})
    s = speed(llama2_7b(), PlannedJob(), ResolvedBuild(name="?", gpus=(g,)))
    assert s.decode_tokens_per_s is None and s.prefill_tokens_per_s is None
    assert any("unknown" in n for n in s.notes)


def test_more_gpus_than_the_build_has():
    s = speed(llama2_7b(), PlannedJob(n_gpus=4, parallel="tp"), pair_4090_pcie())
    assert s.decode_tokens_per_s is None and "has 2" in s.notes[0]


# --- the optimizer kernel ------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(method=st.sampled_from(["full", "lora"]), framework=st.sampled_from(["hf", "torchtune", "litgpt", "deepspeed"]),
       seq_len=st.integers(128, 8192), batch=st.integers(1, 8), gpus=st.sampled_from([(1, "none"), (4, "fsdp"),
                                                                                  (4, "ddp"), (2, "zero2")]))
def test_foreach_never_needs_less_memory_nor_trains_faster_than_fused(method, framework, seq_len, batch, gpus):
    a = llama2_7b()
    n, parallel = gpus
    base = dict(mode="train", method=method, framework=framework, seq_len=seq_len, batch=batch, n_gpus=n,
                parallel=parallel)
    fused, foreach = (PlannedJob(**base, optimizer_kernel=k) for k in ("fused", "foreach"))
    m_fused, m_foreach = estimate_memory(a, fused).breakdown, estimate_memory(a, foreach).breakdown
    assert m_foreach.peak_allocated >= m_fused.peak_allocated
    build = ResolvedBuild(name="4x 4090", gpus=(rtx4090(),) * 4, topology=Topology(pcie_gen=4))
    s_fused = sp.estimate_speed(a, fused, build, m_fused).train_tokens_per_s
    s_foreach = sp.estimate_speed(a, foreach, build, m_foreach).train_tokens_per_s
    assert s_foreach <= s_fused
