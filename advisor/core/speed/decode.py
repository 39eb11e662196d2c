"""One decode step of a batch: its weight GEMMs and its attention, kernel by kernel, on each GPU used.

A decode step is its weight GEMMs (bandwidth-bound until batch × 2·P_active FLOPs take longer than
reading the weights) and then its attention (the KV cache read, or a per-head kernel's CUDA-core
work): ``kernels_seconds``. A layer split takes the GPUs in turn; pipeline parallel walks
micro-batches through the stages (``_pipelined``); tensor parallel splits every layer.
"""

from __future__ import annotations

from typing import NamedTuple

from advisor.core.hardware.memory import usable_memory_bytes
from advisor.core.hardware.records import Gpu, ResolvedBuild
from advisor.core.job.choices import DecodeAttention, Parallel
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.formats import weight_format
from advisor.core.memory.gguf_mix import MIXES
from advisor.core.memory.experts import moe_layers
from advisor.core.memory.held import held_format_name
from advisor.core.memory.inference import kv_cache_bytes, per_gpu_kv
from advisor.core.memory.results import MemoryBreakdown
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params, mlp_matrices
from advisor.core.speed import engine_speed as _es
from advisor.core.speed import gguf_decode, host_cpu
from advisor.core.speed.engine_speed import EngineSpeed, engine_speed
from advisor.core.speed.flops import attention_flops_per_token, fp32_lanes_per_sm
from advisor.core.speed.moe_reads import moe_read_fraction, read_weight_bytes
from advisor.core.speed.results import DecodeStep
from advisor.core.speed.layout import (
    ACT_BYTES,
    LAYER_SPLIT_NOTE,
    Run,
    Split,
    all_known,
    tp_all_reduces_per_layer,
)


def stage_shares(build: ResolvedBuild, stages: int) -> tuple[float, ...]:
    """Share of the layers each GPU of a layer split holds: in proportion to its usable memory,
    as llama.cpp's default ``--tensor-split`` (each device's free memory) places them; equal
    shares on identical cards."""
    usable = [usable_memory_bytes(g) for g in build.gpus[:stages]]
    total = sum(usable)
    return tuple(u / total for u in usable) if total > 0 else (1 / stages,) * stages


def per_head_attention_flops_per_s(build: ResolvedBuild, n_gpus: int) -> tuple[float | None, ...]:
    """What a per-head decode attention kernel achieves on each GPU used, FLOP/s: the card's FP32
    (CUDA-core) peak × ``engine_speed.PER_HEAD_ATTENTION_SHARE``, a share of the peak of an SM of 128 FP32
    lanes (None: FP32 peak not published). The kernel ends each key's dot product with a reduction across
    the threads that hold the key (``qk_dot_``'s ``__shfl_xor_sync`` loop, cpp/tensorrt_llm/kernels/
    decoderMaskedMultiheadAttention/decoderMaskedMultiheadAttentionTemplate.h at 2a9abd95): its rate follows
    the SMs' instruction issue, the same per clock on every generation, not their FP32 lanes
    (``flops.fp32_lanes_per_sm``). On a chip of 64 lanes per SM (A100, V100, T4), whose FP32 peak counts half
    as many lanes per SM, the same kernel reaches twice that share of its peak."""
    return tuple(None if g.fp32_tflops is None else
                 g.fp32_tflops * 1e12 * _es.PER_HEAD_ATTENTION_SHARE
                 * _es.PER_HEAD_ATTENTION_SHARE_LANES / fp32_lanes_per_sm(g.architecture)
                 for g in build.gpus[:n_gpus])


def kernels_seconds(weights_t: float, gemm_t: float, kv_t: float, attn_compute_t: float) -> float:
    """One decode step as its kernels run: the weight GEMMs (QKV, output, MLP projections) and the
    attention kernel are separate kernels issued one after another on one CUDA stream (TensorRT-LLM's
    gpt_attention plugin between the QKV and output GEMMs, docs/source/advanced/gpt-attention.md;
    vLLM's ``Attention`` layer between ``qkv_proj`` and ``o_proj``), and a stream runs its kernels in
    order (CUDA C++ Programming Guide, "Streams"). The roofline bounds each kernel by its own bytes
    and FLOPs (Williams et al. 2009): the GEMMs by the longer of reading the weights and their
    multiply-adds, the attention by the longer of reading the KV cache and its own FLOPs. The step
    is their sum; a single roofline over the whole step (the longer of all bytes and all FLOPs)
    let a large batch hide its KV reads behind the GEMMs' compute, which no kernel does."""
    return max(weights_t, gemm_t) + max(kv_t, attn_compute_t)


def decode_step(arch: ModelArch, planned: PlannedJob, r: Run, mem: MemoryBreakdown, sp: Split, whole_w: float,
                notes: list[str]) -> DecodeStep | None:
    """One decode step of the whole batch (``DecodeStep``); None when a GPU's bandwidth is unknown."""
    bws = r.known_bws()
    if bws is None:
        notes.append("decode speed unknown: a GPU's memory bandwidth is not in the catalog")
        return None
    gpus = r.build.gpus[:planned.n_gpus]
    engine_floor = _engine_floor(arch, planned, gpus, r.build.host_single_thread_mark)
    serial = engine_floor if planned.engine in _es.SERIAL_FLOOR_ENGINES else 0.0  # after the GPU's step, not beside it
    floor = max(engine_floor - serial, _gguf_floor(arch, planned, gpus))
    if planned.engine.gguf and moe_layers(arch):
        notes.append(f"{planned.engine.label} routes each token through its experts with kernels of their own: "
                     f"{gguf_decode.MOE_DISPATCH_S_PER_LAYER * moe_layers(arch) * 1e3:.1f} ms a step for the "
                     f"{moe_layers(arch)} MoE layers, whatever the GPU")
    if (reads := gguf_decode.kv_reads_per_step(arch, planned, gpus)) > 1:
        notes.append(gguf_decode.kv_reads_words(planned.engine.label, arch, planned, gpus, reads))
    linears = linear_calls_per_token(arch)
    if bnb := _es.bnb_int8_s_per_linear(planned.engine, planned.weights):
        notes.append(f"LLM.int8 weights: each of the {linears} linear layers a token passes makes the host wait for the "
                     f"GPU (bitsandbytes checks every input for outliers): {bnb * linears * 1e3:.0f} ms a step, whatever "
                     "the GPU — 4-bit or GPTQ weights avoid it")
    if host := _es.linear_host_s(planned.engine, planned.weights):
        notes.append(f"{weight_format(planned.weights).name.upper()} weights in {planned.engine.label}: each of the "
                     f"{linears} linear layers a token passes adds {host * 1e3:.3g} ms of CPU work in the quantized layer's "
                     f"own code, {host * linears * 1e3:.0f} ms a step on top of the engine's per-token overhead — it "
                     "binds where that overhead does (small models)")
    per_head = planned.decode_attention is DecodeAttention.PER_HEAD
    rates = per_head_attention_flops_per_s(r.build, planned.n_gpus) if per_head else (None,) * len(bws)
    unread = unread_embedding_bytes(arch, planned)  # the input embedding: only the step's rows are gathered
    if sp.stages > 1 and planned.parallel is Parallel.PP and planned.batch > 1:
        step = _pipelined(arch, planned, r, bws, sp, whole_w - unread, floor, rates)
    elif sp.stages > 1:
        step = _layer_split(arch, planned, r, bws, sp, whole_w - unread, floor, rates, notes)
    else:
        step = _tensor_split(arch, planned, r, bws, mem.weights - unread / sp.tp, sp, floor, rates, notes)
    if serial:
        notes.append(f"{planned.engine.label} adds ~{serial * 1e3:.0f} ms of its own host work to each step "
                     f"({host_cpu.host_words(r.build, planned.engine.gguf)})")
    return step._replace(seconds=step.seconds + serial, host_bound=step.host_bound or serial > step.seconds)


def unread_embedding_bytes(arch: ModelArch, job: Job) -> float:
    """Bytes of the input embedding table that a decode step does not stream: ``nn.Embedding`` gathers only the rows
    of the step's tokens (``F.embedding``: an index_select, one row of ``hidden_size`` a token), so where the table is
    not tied to the output layer (which reads it whole) it sits in the GPU's weights unread — 7 % of Qwen2.5 7B's and
    Llama 3.1 8B's bytes, 1.5 % of a 70B's. 0 where it is tied, and for a GGUF engine, whose input embedding stays in
    host RAM (``memory.llama_cpp_layers.llama_cpp_busiest``). In its format as ``weights_bytes`` stores it."""
    name = held_format_name(job)
    if arch.tied_embeddings or job.engine.gguf or name in MIXES:  # a K-quant mix: only a GGUF engine runs one
        return 0.0
    fmt = weight_format(name, job.quant_group_size, job.double_quant)
    return count_params(arch).embedding * fmt.non_linear_bytes_per_param


def _weights_seconds(job: Job, gpu: Gpu, weight_bytes: float, bw: float, e: EngineSpeed, n_weights: float) -> float:
    """One GPU's weight GEMVs of a decode step: reading ``weight_bytes`` at the engine's share of ``bw``, or, for a
    GGUF engine, the longer of that and the time its kernels take to issue the instructions of its ``n_weights``
    matmul weights (``gguf_decode.issue_seconds``: its share of the step's ``Run.two_n / 2``, the part read)."""
    read = weight_bytes / (bw * e.bandwidth)
    if not job.engine.gguf:
        return read
    return max(read, gguf_decode.issue_seconds(gpu, job.weights, n_weights))


def _engine_floor(arch: ModelArch, job: Job, gpus: tuple[Gpu, ...], host_mark: int | None) -> float:
    """The engine's fitted host time per layer × layers, plus a quantized Linear's own host time in transformers
    (``engine_speed.linear_host_s``) × the Linears a token passes, on this host CPU (``host_cpu.host_time_factor``
    of its single-thread mark; None: the calibration host's pace). A GGUF engine's (Ollama's, fitted on Macs, whose CPU
    is their GPU's chip: not scaled) binds only where its kernels are launched one by one
    (``gguf_decode.host_launched``: Metal, CUDA without graphs), as llama.cpp's own host floor does; a CUDA card that
    replays a graph hides it (an RTX 5090 runs Ollama's 14B at about 120 tokens/s, Ollama issue #9701, where 0.44 ms a
    layer would cap it near 47)."""
    floor = (engine_speed(job.engine).floor_s_per_layer * arch.n_layers
             + _es.linear_host_s(job.engine, job.weights) * linear_calls_per_token(arch))
    if job.engine.gguf:
        return floor if any(gguf_decode.host_launched(g) for g in gpus) else 0.0
    return floor * host_cpu.host_time_factor(host_mark)


def _gguf_floor(arch: ModelArch, job: Job, gpus: tuple[Gpu, ...]) -> float:
    """The host's least time for a GGUF engine's decode step on these GPUs (``gguf_decode.host_floor_seconds``); 0 for
    another engine."""
    return gguf_decode.host_floor_seconds(gpus, arch.n_layers, moe_layers(arch)) if job.engine.gguf else 0.0


def _attention_seconds(kv_bytes: float, kv_bw: float, attn_flops: float, attn_rate: float | None,
                       per_head: bool) -> float:
    """One step's attention on one GPU: the KV read, or with a per-head kernel the longer of that
    read and the CUDA-core work (query heads × context: grouped-query attention saves it nothing)."""
    read = kv_bytes / kv_bw
    if not per_head or not attn_rate:
        return read
    return max(read, attn_flops / attn_rate)


def _compute_seconds(flops: float, peak: float | None, e: EngineSpeed) -> float:
    """``flops`` at the engine's share of a GPU's peak; 0 when the peaks are not all known (the step is then
    bounded by its reads alone)."""
    return flops / (peak * e.compute) if peak is not None else 0.0


def _peaks_or_unknown(r: Run, n: int) -> tuple[float | None, ...]:
    """Each GPU's achieved FLOP/s, or None for every GPU when one of them is unknown."""
    peaks = r.known_peaks()
    return peaks if peaks is not None else (None,) * n


class _StepWork(NamedTuple):
    """What one decode step of the whole batch reads and computes, before it is shared out over the GPUs."""

    e: EngineSpeed  # the engine's achieved shares of bandwidth and compute
    frac: float  # the share of the weights a step reads (a MoE's routed experts)
    kv_whole: float  # the KV cache's bytes
    kv_share: float  # the engine's share of bandwidth on the KV read
    per_head: bool  # attention by a per-query-head kernel on the CUDA cores
    attn_whole: float  # the attention's FLOPs
    fixed: float  # seconds of kernels a step runs whatever their bytes (``fixed_kernels_seconds``)


def fixed_kernels_seconds(arch: ModelArch, job: Job) -> float:
    """Seconds of a decode step's kernels that take a fixed time each, whatever bytes they read: the
    dequantizing GEMVs of integer weights in an engine that replays CUDA graphs
    (``engine_speed.quant_kernel_s_per_layer``, every layer), each layer's small kernels (norms, RoPE, the cache
    store, the attention, the activation: ``EngineSpeed.kernels_s_per_layer``), in llama.cpp's graph a MoE
    layer's routing and expert dispatch (``gguf_decode.MOE_DISPATCH_S_PER_LAYER``, each MoE layer), and each
    LLM.int8 Linear's host waits in transformers (``engine_speed.BNB_INT8_S_PER_LINEAR``, each Linear a token passes)."""
    quant = _es.quant_kernel_s_per_layer(job.engine, job.weights) * arch.n_layers
    graph = engine_speed(job.engine).kernels_s_per_layer * arch.n_layers + (
        gguf_decode.MOE_DISPATCH_S_PER_LAYER * moe_layers(arch) if job.engine.gguf else 0.0)
    bnb = _es.bnb_int8_s_per_linear(job.engine, job.weights)
    return quant + graph + (bnb * linear_calls_per_token(arch) if bnb else 0.0)


def linear_calls_per_token(arch: ModelArch) -> int:
    """The Linear layers a token passes in one forward: four attention projections per layer and the MLP's two or
    three matrices in each dense layer, or in each routed and shared expert a MoE layer runs for it."""
    n_moe = moe_layers(arch)
    experts = 0 if arch.moe is None else arch.moe.n_active + arch.moe.n_shared
    return arch.n_layers * 4 + (arch.n_layers - n_moe + n_moe * experts) * mlp_matrices(arch)


def _step_work(arch: ModelArch, planned: PlannedJob, r: Run) -> _StepWork:
    """The step's work, the same under a layer split and a tensor split."""
    e = engine_speed(planned.engine)
    return _StepWork(
        e=e,
        frac=moe_read_fraction(arch, planned.batch),
        kv_whole=kv_cache_bytes(arch, planned.context_len, planned.batch, planned.kv_dtype, planned.engine)
        * gguf_decode.kv_reads_per_step(arch, planned, r.build.gpus[:planned.n_gpus]),
        kv_share=e.kv_share(planned.batch),
        per_head=planned.decode_attention is DecodeAttention.PER_HEAD,
        attn_whole=planned.batch * attention_flops_per_token(arch, planned.context_len),
        fixed=fixed_kernels_seconds(arch, planned),
    )


def _layer_split(arch: ModelArch, planned: PlannedJob, r: Run, bws: tuple[float, ...], sp: Split, whole_w: float,
                 floor: float, rates: tuple[float | None, ...], notes: list[str]) -> DecodeStep:
    """A layer split: the GPUs take turns, each on its share of the layers, handing one activation on."""
    e, frac, kv_whole, kv_share, per_head, attn_whole, fixed = _step_work(arch, planned, r)
    mem_t = comp_t = step = 0.0
    shares = stage_shares(r.build, sp.stages)
    for f, b, a, p, g in zip(shares, bws, rates, _peaks_or_unknown(r, len(bws)), r.build.gpus):
        w_t = _weights_seconds(planned, g, read_weight_bytes(arch, planned, whole_w * f, planned.batch, f),
                               b, e, r.two_n / 2 * frac * f) + fixed * f
        a_t = _attention_seconds(kv_whole * f, b * kv_share, attn_whole * f, a, per_head)
        g_t = _compute_seconds(planned.batch * r.two_n * f, p, e)
        ac_t = _compute_seconds(attn_whole * f, p, e)
        mem_t += w_t + a_t
        comp_t += g_t + ac_t
        step += kernels_seconds(w_t, g_t, a_t, ac_t)
    comm_t = sum(r.sends(planned.batch * arch.hidden_size * ACT_BYTES, sp.stages))
    notes.append(LAYER_SPLIT_NOTE)
    if floor > step:
        notes.append(_floor_note(planned, r, floor))
    return DecodeStep(max(step, floor) + comm_t, mem_t, comp_t, comm_t, floor > step)


def _floor_note(planned: PlannedJob, r: Run, floor: float) -> str:
    """Says the step is the engine's per-token overhead, paced by the host CPU (``host_cpu.host_words``)."""
    return (f"decode limited by the {planned.engine.label} per-token overhead (~{floor * 1e3:.0f} ms a step), "
            f"not by the GPU: {host_cpu.host_words(r.build, planned.engine.gguf)}")


def _tensor_split(arch: ModelArch, planned: PlannedJob, r: Run, bws: tuple[float, ...], read_w: float,
                  sp: Split, floor: float, rates: tuple[float | None, ...], notes: list[str]) -> DecodeStep:
    """One GPU, or ``sp.tp`` GPUs each reading 1/t of every layer (``read_w``: the busiest GPU's weight bytes a step
    streams)."""
    e, frac, kv_whole, kv_share, per_head, attn_whole, fixed = _step_work(arch, planned, r)
    kv_gpu = per_gpu_kv(arch, kv_whole, sp.tp, 1)
    known_rates = all_known(rates)
    rate = min(known_rates, default=None) if known_rates is not None else None
    attn_t = _attention_seconds(kv_gpu, min(bws) * kv_share, attn_whole / sp.tp, rate, per_head)
    read = read_weight_bytes(arch, planned, read_w, planned.batch, 1 / sp.tp)
    w_t = max(_weights_seconds(planned, g, read, b, e, r.two_n / 2 * frac / sp.tp)
              for g, b in zip(r.build.gpus, bws)) + fixed
    issue_bound = w_t > read / (min(bws) * e.bandwidth) + fixed
    if issue_bound:  # the weights' kernels wait on the SMs' instruction issue: a compute limit, not bandwidth
        notes.append(f"decode limited by {planned.engine.label}'s kernels issuing their instructions on this GPU "
                     f"({w_t * 1e3:.1f} ms a step for the weights), not by its memory bandwidth")
    mem_t = attn_t if issue_bound else w_t + attn_t
    if per_head and rate and attn_t > kv_gpu / (min(bws) * kv_share):
        notes.append(f"decode attention runs per query head on the CUDA cores (masked MHA): {attn_t * 1e3:.1f} ms "
                     "of a step, longer than reading the KV cache")
    peaks = r.known_peaks()
    least = min(peaks) if peaks is not None else None
    g_t = _compute_seconds(planned.batch * r.two_n / sp.tp, least, e)
    ac_t = _compute_seconds(attn_whole / sp.tp, least, e)
    comp_t = g_t + ac_t + (w_t if issue_bound else 0.0)
    act = planned.batch * arch.hidden_size * ACT_BYTES
    comm_t = r.tp_all_reduces(arch, planned.engine, act, sp.tp)
    if sp.tp > 1 and tp_all_reduces_per_layer(arch, planned.engine) == 1:
        notes.append(f"tensor parallel: one all-reduce a layer, not two ({planned.engine.label} adds this model's "
                     "side-by-side attention and MLP outputs before reducing them)")
    if sp.tp > 1 and r.own_all_reduce(sp.tp, act):
        notes.append(f"tensor parallel: {planned.engine.label} adds the GPUs' results with its own all-reduce kernel, "
                     f"each GPU reading the others' memory ({comm_t * 1e3:.2f} ms a decode step), not NCCL")
    if floor > max(mem_t, comp_t):
        notes.append(_floor_note(planned, r, floor))
    kernels = kernels_seconds(w_t, g_t, attn_t, ac_t)
    return DecodeStep(max(kernels, floor) + comm_t, mem_t, comp_t, comm_t, floor > kernels)


def _pipelined(arch: ModelArch, job: PlannedJob, r: Run, bws: tuple[float, ...], sp: Split, whole_w: float, floor: float,
               rates: tuple[float | None, ...]) -> DecodeStep:
    """Pipeline-parallel decode: the engine keeps one batch in flight per stage (vLLM's
    ``max_concurrent_batches`` = ``pipeline_parallel_size``, vllm/v1/executor/multiproc_executor.py
    at 00f6c9bf), so the sequences are split into m = min(stages, batch) micro-batches that walk
    the stages one after another. Each micro-batch reads every stage's weights again (a stage's
    weights are read m times per token of every sequence), its own share of the KV cache and does
    its own FLOPs. One token of every sequence takes the longer of one micro-batch's walk through
    all stages and the busiest stage's m micro-batches back to back (GPipe's steady state, Huang et
    al. 2019 arXiv:1811.06965 §2.3): stages save the KV and compute time of a split, not the
    weight reads, which they repeat."""
    e = engine_speed(job.engine)
    m = min(sp.stages, job.batch)
    per_mb = -(-job.batch // m)
    frac = moe_read_fraction(arch, per_mb)
    kv_mb = _step_work(arch, job, r).kv_whole / m  # (the whole batch's KV reads, as a split's step takes them)
    attn_mb = job.batch * attention_flops_per_token(arch, job.context_len) / m
    kv_share = e.kv_share(per_mb)
    per_head = job.decode_attention is DecodeAttention.PER_HEAD
    fixed = fixed_kernels_seconds(arch, job)
    stage_t: list[float] = []
    mem_t, comp_t, host_bound = 0.0, 0.0, False
    peaks = _peaks_or_unknown(r, len(bws))
    for f, b, a, p, g in zip(stage_shares(r.build, sp.stages), bws, rates, peaks, r.build.gpus):
        w_t = _weights_seconds(job, g, read_weight_bytes(arch, job, whole_w * f, per_mb, f), b, e,
                               r.two_n / 2 * frac * f) + fixed * f
        a_t = _attention_seconds(kv_mb * f, b * kv_share, attn_mb * f, a, per_head)
        g_t = _compute_seconds(per_mb * r.two_n * f, p, e)
        ac_t = _compute_seconds(attn_mb * f, p, e)
        mem_t += m * (w_t + a_t)
        comp_t += m * (g_t + ac_t)
        kernels = kernels_seconds(w_t, g_t, a_t, ac_t)
        host_bound = host_bound or floor * f > kernels
        stage_t.append(max(kernels, floor * f))
    comm_t = sum(r.sends(per_mb * arch.hidden_size * ACT_BYTES, sp.stages))
    walk = sum(stage_t) + comm_t
    return DecodeStep(max(walk, m * max(stage_t)), mem_t, comp_t, comm_t, host_bound)
