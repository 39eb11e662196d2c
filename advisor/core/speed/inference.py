"""Speed of a workload on a build: decode, prefill, time to first token, training throughput.

Roofline (Williams et al. 2009), kernel by kernel: a kernel takes the longer of its memory time
(bytes read / achieved bandwidth) and its compute time (FLOPs / achieved FLOP/s); a step's kernels
run one after another, plus the GPU-to-GPU traffic that cannot overlap
(``advisor.core.hardware.interconnect``). A decode step is its weight GEMMs (bandwidth-bound until
batch × 2·P_active FLOPs take longer than reading the weights) and then its attention (the KV
cache read, or a per-head kernel's CUDA-core work): ``_kernels``. FLOP counts: ``advisor.core.speed.flops``; the per-engine
bandwidth and compute shares and per-token floor, fitted to published tokens/s:
``advisor.core.speed.engine_speed``.

Splits of one model over GPUs:
* tensor parallel (Megatron, Shoeybi et al. 2019 arXiv:1909.08053 §3): every GPU reads 1/t
  of the weights; two all-reduces of the layer's activations per layer in the forward pass
  (two more in the backward), which do not overlap compute; one where the engine reduces a
  side-by-side layer's attention and MLP together (``layout.tp_all_reduces_per_layer``);
* layer split (llama.cpp ``--split-mode layer``, accelerate ``device_map="auto"``): the GPUs
  take turns, handing one activation to the next; no faster than one GPU that held it all;
* pipeline parallel (GPipe, Huang et al. 2019 arXiv:1811.06965): stages work on different
  micro-batches (or sequences) at once, idle for (s-1)/(m+s-1) of a step (the bubble);
* data parallel (DDP, ZeRO, FSDP): each GPU runs its own micro-batch; gradient/parameter
  collectives overlap the backward (PyTorch DDP bucketing, Li et al. 2020 arXiv:2006.15704
  §3.2.3; FSDP prefetch, Zhao et al. 2023 arXiv:2304.11277 §3.3), taken here as full overlap.
"""

from __future__ import annotations

from dataclasses import replace

from advisor.core.hardware.interconnect import node_link
from advisor.core.hardware.memory import usable_memory_bytes
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import DecodeAttention, Engine, Mode, Parallel
from advisor.core.job.engine_versions import (
    XQA_SINCE,
    as_run,
    experts_in_16_bit,
    head_layout,
    runs_per_head,
    trt_llm_version,
    xqa_covers,
)
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.activations import LLAMA_CPP_UBATCH
from advisor.core.memory.inference import (
    kv_cache_bytes,
    moe_layers,
    per_gpu_kv,
    routed_expert_bytes_per_layer,
    weights_bytes,
)
from advisor.core.memory.results import MemoryBreakdown
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params
from advisor.core.speed import engine_speed as _es
from advisor.core.speed import gguf_decode
from advisor.core.speed.engine_speed import engine_speed
from advisor.core.speed.flops import (
    attention_flops_per_token,
    fp32_lanes_per_sm,
    matmul_params,
    matmul_share,
)
from advisor.core.speed.gguf_paths import GgufPath, dequant_bytes_per_weight, gguf_path
from advisor.core.speed.layout import (
    ACT_BYTES,
    LAYER_SPLIT_NOTE,
    Run,
    Split,
    run_of,
    split_of,
    tp_all_reduces_per_layer,
)
from advisor.core.speed.results import Bottleneck, SpeedEstimate
from advisor.core.speed.scores import score_bytes, score_context, unfused_reason
from advisor.core.speed.training import (
    host_gb_per_s,
    host_link_bytes_per_s,
    training_speed,
)

__all__ = ["estimate_speed", "split_of"]


def stage_shares(build: ResolvedBuild, stages: int) -> tuple[float, ...]:
    """Share of the layers each GPU of a layer split holds: in proportion to its usable memory,
    as llama.cpp's default ``--tensor-split`` (each device's free memory) places them; equal
    shares on identical cards."""
    usable = [usable_memory_bytes(g) for g in build.gpus[:stages]]
    total = sum(usable)
    return tuple(u / total for u in usable) if total > 0 else (1 / stages,) * stages


def moe_read_fraction(arch: ModelArch, batch: int) -> float:
    """Share of the weights one decode step reads: routed experts that no token of the batch
    picks are skipped. Uniform routing (what the load-balancing loss aims at; Fedus et al.
    2021 arXiv:2101.03961 §2.2): an expert is used by some of B tokens with 1-(1-k/E)^B."""
    if arch.moe is None:
        return 1.0
    moe, c = arch.moe, count_params(arch)
    m = 3 if arch.gated_mlp else 2
    routed = (arch.n_layers - min(moe.n_dense_layers, arch.n_layers)) * moe.n_experts * m * arch.hidden_size * moe.expert_ffn_size
    used = 1 - (1 - moe.n_active / moe.n_experts) ** batch
    return (c.total - routed * (1 - used)) / c.total


def _trt_llm_notes(arch: ModelArch, job: Job) -> list[str]:
    """What a TensorRT-LLM job runs that another version of it does not (``job.engine_versions``): with the
    version named, what that version does; without, what an older one would, and the option that says so.
    ``w``: the job as the user set it (not ``as_run``)."""
    if job.engine is not Engine.TENSORRT_LLM:
        return []
    version, notes = trt_llm_version(job), []
    group, head = head_layout(arch)
    if version is not None and runs_per_head(arch, version):
        why = ("its XQA kernels came in 0.7" if version < XQA_SINCE else
               f"its precompiled XQA kernels cover 8 query heads per KV head (head size 128 or 256), and this "
               f"model has {group} (head size {head})")
        notes.append(f"TensorRT-LLM {job.engine_version} decodes this model one query head at a time: {why}")
    elif version is None and job.decode_attention is not DecodeAttention.PER_HEAD and not xqa_covers(arch):
        notes.append(f"TensorRT-LLM's precompiled XQA decode kernels cover 8 query heads per KV head (head size "
                     f"128 or 256); this model has {group} per KV head (head size {head}): a version with only "
                     "those kernels (0.9 or earlier) decodes it one query head at a time — set the TensorRT-LLM "
                     "version to see it")
    if version is not None and experts_in_16_bit(arch, job, version):
        notes.append(f"TensorRT-LLM {job.engine_version} has no FP8 path for MoE experts (it came in 0.10): this "
                     "model's experts run in 16-bit, the KV cache as set")
    elif version is None and arch.moe is not None and job.weights == "fp8":
        notes.append("TensorRT-LLM before 0.10 has no FP8 path for MoE experts: such a version runs this model's "
                     "experts in 16-bit — set the TensorRT-LLM version to see it")
    return notes


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


def _weights_seconds(arch, job: Job, gpu, weight_bytes: float, bw: float, e, frac: float, share: float) -> float:
    """One GPU's weight GEMVs of a decode step: reading ``weight_bytes`` at the engine's share of ``bw``, or, for a
    GGUF engine, the longer of that and the time its kernels take to issue the weights' instructions
    (``gguf_decode.issue_seconds``: ``share`` of the model's matmul weights, ``frac`` of them read)."""
    read = weight_bytes / (bw * e.bandwidth)
    if not job.engine.gguf:
        return read
    return max(read, gguf_decode.issue_seconds(gpu, job.weights, matmul_params(arch) * frac * share))


def _gguf_floor(arch, job: Job, gpus) -> float:
    """The host's least time for a GGUF engine's decode step on these GPUs (``gguf_decode.host_floor_s_per_layer``
    × layers); 0 for another engine."""
    if not job.engine.gguf:
        return 0.0
    return max((gguf_decode.host_floor_s_per_layer(g) for g in gpus), default=0.0) * arch.n_layers


def _attention_seconds(kv_bytes: float, kv_bw: float, attn_flops: float, attn_rate: float | None,
                       per_head: bool) -> float:
    """One step's attention on one GPU: the KV read, or with a per-head kernel the longer of that
    read and the CUDA-core work (query heads × context: grouped-query attention saves it nothing)."""
    read = kv_bytes / kv_bw
    if not per_head or not attn_rate:
        return read
    return max(read, attn_flops / attn_rate)


def _decode(arch, planned: PlannedJob, r: Run, mem: MemoryBreakdown, sp: Split, whole_w: float, notes: list[str]):
    """(seconds per decode step of the whole batch, memory part, compute part, comm part)."""
    if None in r.bws:
        notes.append("decode speed unknown: a GPU's memory bandwidth is not in the catalog")
        return None
    e = engine_speed(planned.engine)
    frac = moe_read_fraction(arch, planned.batch)
    kv_whole = kv_cache_bytes(arch, planned.context_len, planned.batch, planned.kv_dtype, planned.engine)
    kv_share = e.kv_share(planned.batch)
    act = planned.batch * arch.hidden_size * ACT_BYTES
    known_peaks = None not in r.peaks
    floor = max(e.floor_s_per_layer * arch.n_layers, _gguf_floor(arch, planned, r.build.gpus[:planned.n_gpus]))
    per_head = planned.decode_attention is DecodeAttention.PER_HEAD
    attn_whole = planned.batch * attention_flops_per_token(arch, planned.context_len)
    rates = per_head_attention_flops_per_s(r.build, planned.n_gpus) if per_head else (None,) * len(r.bws)
    if sp.stages > 1 and planned.parallel is Parallel.PP and planned.batch > 1:
        return _pipelined_decode(arch, planned, r, sp, whole_w, floor, rates, known_peaks)
    quant = _es.quant_kernel_s_per_layer(planned.engine, planned.weights) * arch.n_layers  # dequantizing GEMVs, per step
    if sp.stages > 1:
        shares = stage_shares(r.build, sp.stages)
        mem_t = comp_t = step = 0.0
        for f, b, a, p, g in zip(shares, r.bws, rates, r.peaks, r.build.gpus):
            w_t = _weights_seconds(arch, planned, g, whole_w * frac * f, b, e, frac, f) + quant * f
            a_t = _attention_seconds(kv_whole * f, b * kv_share, attn_whole * f, a, per_head)
            g_t = planned.batch * r.two_n * f / (p * e.compute) if known_peaks else 0.0
            ac_t = attn_whole * f / (p * e.compute) if known_peaks else 0.0
            mem_t += w_t + a_t
            comp_t += g_t + ac_t
            step += _kernels(w_t, g_t, a_t, ac_t)
        comm_t = sum(r.sends(act, sp.stages))
        notes.append(LAYER_SPLIT_NOTE)
        return max(step, floor) + comm_t, mem_t, comp_t, comm_t
    kv_gpu = per_gpu_kv(arch, kv_whole, sp.tp, 1)
    rate = None if None in rates else min(rates, default=None)
    attn_t = _attention_seconds(kv_gpu, min(r.bws) * kv_share, attn_whole / sp.tp, rate, per_head)
    w_t = max(_weights_seconds(arch, planned, g, mem.weights * frac, b, e, frac, 1 / sp.tp)
              for g, b in zip(r.build.gpus, r.bws)) + quant
    issue_bound = w_t > mem.weights * frac / (min(r.bws) * e.bandwidth) + quant
    if issue_bound:  # the weights' kernels wait on the SMs' instruction issue: a compute limit, not bandwidth
        notes.append(f"decode limited by {planned.engine.label}'s kernels issuing their instructions on this GPU "
                     f"({w_t * 1e3:.1f} ms a step for the weights), not by its memory bandwidth")
    mem_t = attn_t if issue_bound else w_t + attn_t
    if per_head and rate and attn_t > kv_gpu / (min(r.bws) * kv_share):
        notes.append(f"decode attention runs per query head on the CUDA cores (masked MHA): {attn_t * 1e3:.1f} ms "
                     "of a step, longer than reading the KV cache")
    g_t = planned.batch * r.two_n / sp.tp / (min(r.peaks) * e.compute) if known_peaks else 0.0
    ac_t = attn_whole / sp.tp / (min(r.peaks) * e.compute) if known_peaks else 0.0
    comp_t = g_t + ac_t + (w_t if issue_bound else 0.0)
    comm_t = r.tp_all_reduces(arch, planned.engine, act, sp.tp)
    if sp.tp > 1 and tp_all_reduces_per_layer(arch, planned.engine) == 1:
        notes.append(f"tensor parallel: one all-reduce a layer, not two ({planned.engine.label} adds this model's "
                     "side-by-side attention and MLP outputs before reducing them)")
    if floor > max(mem_t, comp_t):
        notes.append(f"decode limited by the {planned.engine.label} per-token overhead (~{floor * 1e3:.0f} ms a step), "
                     "not by the GPU")
    return max(_kernels(w_t, g_t, attn_t, ac_t), floor) + comm_t, mem_t, comp_t, comm_t


def _pipelined_decode(arch, job: Job, r: Run, sp: Split, whole_w: float, floor: float,
                      rates: tuple, known_peaks: bool) -> tuple[float, float, float, float]:
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
    kv_mb = kv_cache_bytes(arch, job.context_len, job.batch, job.kv_dtype, job.engine) / m
    attn_mb = job.batch * attention_flops_per_token(arch, job.context_len) / m
    kv_share = e.kv_share(per_mb)
    per_head = job.decode_attention is DecodeAttention.PER_HEAD
    quant = _es.quant_kernel_s_per_layer(job.engine, job.weights) * arch.n_layers
    stage_t, mem_t, comp_t = [], 0.0, 0.0
    for f, b, a, p, g in zip(stage_shares(r.build, sp.stages), r.bws, rates, r.peaks, r.build.gpus):
        w_t = _weights_seconds(arch, job, g, whole_w * frac * f, b, e, frac, f) + quant * f
        a_t = _attention_seconds(kv_mb * f, b * kv_share, attn_mb * f, a, per_head)
        g_t = per_mb * r.two_n * f / (p * e.compute) if known_peaks else 0.0
        ac_t = attn_mb * f / (p * e.compute) if known_peaks else 0.0
        mem_t += m * (w_t + a_t)
        comp_t += m * (g_t + ac_t)
        stage_t.append(max(_kernels(w_t, g_t, a_t, ac_t), floor * f))
    comm_t = sum(r.sends(per_mb * arch.hidden_size * ACT_BYTES, sp.stages))
    walk = sum(stage_t) + comm_t
    step = max(walk, m * max(stage_t))
    return step, mem_t, comp_t, comm_t


def _kernels(weights_t: float, gemm_t: float, kv_t: float, attn_compute_t: float) -> float:
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


def _prefill(arch, planned: PlannedJob, r: Run, mem: MemoryBreakdown, sp: Split, whole_w: float, notes: list[str]):
    """(seconds to prefill a ``context_len``-token prompt for every sequence of the batch, comm part)."""
    if None in r.peaks or None in r.bws:
        dequant = planned.engine.gguf and any(gguf_path(g, planned.weights) is GgufPath.DEQUANT for g in r.build.gpus[:planned.n_gpus])
        notes.append("prefill speed unknown: " + (
            f"{planned.engine.label} dequantizes these weights to FP16 on this card's CUDA cores (no int8 dot product "
            "before compute capability 6.1), whose FP16 rate the catalog does not hold" if dequant else
            "a GPU's tensor FLOP/s or bandwidth is not in the catalog"))
        return None
    e = engine_speed(planned.engine)
    tokens = planned.context_len * planned.batch
    scores = score_bytes(arch, planned)  # without a fused attention kernel: every score it computes goes through memory
    flops = tokens * (r.two_n + attention_flops_per_token(arch, score_context(planned) if scores else planned.context_len / 2))
    act = tokens * arch.hidden_size * ACT_BYTES
    deq = _dequant_bytes(arch, planned, tokens)
    if sp.stages > 1:
        shares = stage_shares(r.build, sp.stages)
        parts = [(max(flops * f / (p * e.compute), whole_w * f / (b * e.bandwidth)) + deq(g) * f / (b * e.bandwidth),
                  scores * f / (b * e.bandwidth))
                 for f, p, b, g in zip(shares, r.peaks, r.bws, r.build.gpus, strict=False)]
        t, scores_t = sum(a + s for a, s in parts), sum(s for _a, s in parts)
        comm_t = sum(r.sends(act, sp.stages))
    else:
        scores_t = scores / sp.tp / (min(r.bws) * e.bandwidth)
        t = (max(flops / sp.tp / (min(r.peaks) * e.compute), mem.weights / (min(r.bws) * e.bandwidth)) + scores_t
             + max(deq(g) / sp.tp / (b * e.bandwidth) for g, b in zip(r.build.gpus, r.bws)))
        comm_t = r.tp_all_reduces(arch, planned.engine, act, sp.tp)
    if scores:
        notes.append(f"the prompt's attention writes its scores to memory ({unfused_reason(planned)}): {scores_t:.2f} s of the "
                     f"{t + comm_t:.2f} s prefill")
    return t + comm_t, comm_t


def _dequant_bytes(arch, job: Job, tokens: int):
    """Per GPU: the bytes a GGUF prompt moves to dequantize its weights to FP16 for cuBLAS, once per micro-batch
    (``gguf_paths.dequant_bytes_per_weight``; llama.cpp's ``--ubatch-size``); 0 for another engine."""
    if not job.engine.gguf:
        return lambda gpu: 0.0
    ubatch = job.ubatch_tokens if job.engine is Engine.LLAMA_CPP else LLAMA_CPP_UBATCH
    ubatches = -(-tokens // ubatch)
    n = matmul_params(arch)
    return lambda gpu: ubatches * n * dequant_bytes_per_weight(gpu, job.weights)


def _moe_offload_seconds(arch, planned: PlannedJob, build: ResolvedBuild, notes: list[str]) -> tuple[float, float]:
    """(extra seconds per decode step, extra seconds of prefill) for experts kept in host RAM."""
    if not planned.moe_offload_layers or arch.moe is None or not planned.engine.gguf:
        return 0.0, 0.0
    n = min(planned.moe_offload_layers, moe_layers(arch))
    per_layer = routed_expert_bytes_per_layer(arch, planned)
    used = 1 - (1 - arch.moe.n_active / arch.moe.n_experts) ** planned.batch  # experts some token of the step picks
    rate, whence = host_gb_per_s(build)
    decode = n * per_layer * used / (rate * 1e9)
    # Prompt batches of ≥ 32 tokens copy the offloaded experts to the GPU once per ubatch
    # (ggml-cuda offload_op): their bytes over the host link, per ubatch (``PlannedJob.ubatch_tokens``).
    ubatch = planned.ubatch_tokens if planned.engine is Engine.LLAMA_CPP else LLAMA_CPP_UBATCH
    ubatches = -(-planned.context_len * planned.batch // ubatch)
    link = host_link_bytes_per_s(build)
    prefill = ubatches * n * per_layer / link
    notes.append(f"MoE experts of {n} layers read from host RAM by the CPU at {rate:.0f} GB/s ({whence}) and copied "
                 "to the GPU for each prompt batch")
    return decode, prefill


def _inference(arch, w, build, mem, sp: Split, notes: list[str]) -> SpeedEstimate:
    notes += _trt_llm_notes(arch, w)  # what the user set; the job as its engine version runs it below
    w = as_run(arch, w)
    sequences = w.batch  # the job's concurrent sequences, over the whole build
    if sp.replicas > 1:  # independent copies share them out: each serves ceil(B / replicas)
        w = w.model_copy(update={"batch": -(-sequences // sp.replicas)})
    r = run_of(arch, w, build)
    # Each card's matmuls reach their own share of its tensor peak (flops.matmul_share: measured
    # maximum achievable matmul FLOP/s); the engine's compute share is that of a typical card.
    # llama.cpp's matmuls reach the share of their kernel path's peak (``gguf_paths``), not the engine's one.
    r = replace(r, peaks=tuple(None if p is None else p * matmul_share(g, w) * _es.gguf_path_ratio(g, w)
                               for p, g in zip(r.peaks, build.gpus[: w.n_gpus], strict=True)))
    whole_w = weights_bytes(arch, w) if sp.stages > 1 else mem.weights * sp.tp
    if w.moe_offload_layers and arch.moe is not None and w.engine.gguf:
        whole_w = max(0.0, whole_w - min(w.moe_offload_layers, moe_layers(arch)) * routed_expert_bytes_per_layer(arch, w))
    dec, pre = _decode(arch, w, r, mem, sp, whole_w, notes), _prefill(arch, w, r, mem, sp, whole_w, notes)
    cpu_dec, cpu_pre = _moe_offload_seconds(arch, w, build, notes)
    if dec is not None and cpu_dec:
        step, mem_t, comp_t, comm_t = dec
        dec = (step + cpu_dec, mem_t + cpu_dec, comp_t, comm_t)
    if pre is not None and cpu_pre:
        pre = (pre[0] + cpu_pre, pre[1])
    if sp.replicas > 1:
        notes.append(f"{sp.replicas} independent copies of the model, each serving {w.batch} of the "
                     f"{sequences} sequences")
    decode_tps = bottleneck = None
    share = 0.0
    if dec is not None:
        step, mem_t, comp_t, comm_t = dec
        decode_tps = sequences / step
        share = min(1.0, comm_t / step)
        bottleneck = (Bottleneck.INTERCONNECT if comm_t > max(mem_t, comp_t)
                      else Bottleneck.COMPUTE if comp_t > mem_t else Bottleneck.MEMORY_BANDWIDTH)
    prefill_tps = ttft = None
    if pre is not None:
        ttft = pre[0]
        prefill_tps = w.context_len * sequences / ttft
    if not w.is_request:  # (a request's speed says what it is timed at: ``estimator.request_speed``)
        notes.append(f"decode speed at a full {w.context_len}-token context; time to first token for a "
                     f"{w.context_len}-token prompt per sequence")
    return SpeedEstimate(decode_tokens_per_s=decode_tps, prefill_tokens_per_s=prefill_tps,
                         time_to_first_token_s=ttft, interconnect_share=share, bottleneck=bottleneck,
                         notes=tuple(notes))


def estimate_speed(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild, memory: MemoryBreakdown) -> SpeedEstimate:
    """Decode/prefill speed and time to first token (inference) or training tokens/s and step
    time, on the first ``workload.n_gpus`` GPUs of ``build``. ``memory`` is the busiest GPU's
    breakdown from ``estimate_memory`` (its weights term is what each decode step reads)."""
    if planned.n_gpus > build.gpu_count:
        return SpeedEstimate(notes=(f"the workload uses {planned.n_gpus} GPUs; {build.name} has {build.gpu_count}",))
    if planned.n_gpus > build.gpus_per_node and node_link(build) is None:
        return SpeedEstimate(notes=(f"the job spans {build.nodes} machines and no network card between them is "
                                    "named: speed unknown",))
    sp = split_of(planned)
    notes: list[str] = []
    if planned.mode is Mode.INFERENCE:
        return _inference(arch, planned, build, memory, sp, notes)
    return training_speed(arch, planned, build, sp, notes)
