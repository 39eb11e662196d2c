"""Speed of a workload on a build: decode, prefill, time to first token, training throughput.

Roofline (Williams et al. 2009): a step takes the longer of its memory time (bytes read /
achieved bandwidth) and its compute time (FLOPs / achieved FLOP/s), plus the GPU-to-GPU
traffic that cannot overlap (``advisor.core.interconnect``). Decode reads every weight and
the whole KV cache once per step, so it is bandwidth-bound until batch × 2·P_active FLOPs
take longer than reading the weights. Efficiencies and FLOP counts: ``advisor.core.flops``.

Splits of one model over GPUs:
* tensor parallel (Megatron, Shoeybi et al. 2019 arXiv:1909.08053 §3): every GPU reads 1/t
  of the weights; two all-reduces of the layer's activations per layer in the forward pass
  (two more in the backward), which do not overlap compute;
* layer split (llama.cpp ``--split-mode layer``, accelerate ``device_map="auto"``): the GPUs
  take turns, handing one activation to the next; no faster than one GPU that held it all;
* pipeline parallel (GPipe, Huang et al. 2019 arXiv:1811.06965): stages work on different
  micro-batches (or sequences) at once, idle for (s-1)/(m+s-1) of a step (the bubble);
* data parallel (DDP, ZeRO, FSDP): each GPU runs its own micro-batch; gradient/parameter
  collectives overlap the backward (PyTorch DDP bucketing, Li et al. 2020 arXiv:2006.15704
  §3.2.3; FSDP prefetch, Zhao et al. 2023 arXiv:2304.11277 §3.3), taken here as full overlap.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.flops import (
    DECODE_BANDWIDTH_EFFICIENCY, INFERENCE_COMPUTE_EFFICIENCY, QLORA_DEQUANT_BYTES_PER_WEIGHT, TRAIN_MFU,
    attention_flops_per_token, bandwidth_bytes_per_s, matmul_params, peak_flops, train_flops_per_token,
    trainable_params,
)
from advisor.core.hardware import ResolvedBuild
from advisor.core.interconnect import (
    PCIE_GB_PER_S_PER_LANE, PCIE_HOST_EFFICIENCY, Link, bottleneck_link, collective_time_over, link,
)
from advisor.core.llm import ModelArch
from advisor.core.memory import kv_cache_bytes, per_gpu_kv, weights_bytes
from advisor.core.params import count_params
from advisor.core.results import Bottleneck, MemoryBreakdown, SpeedEstimate
from advisor.core.states import param_bytes
from advisor.core.workload import Checkpointing, Method, Mode, Offload, Parallel, Workload

ACT_BYTES = 2  # activations exchanged between GPUs are bf16/fp16
DATA_PARALLEL = (Parallel.DDP, Parallel.ZERO1, Parallel.ZERO2, Parallel.ZERO3, Parallel.FSDP,
                 Parallel.FSDP_GRAD_OP, Parallel.FSDP_NO_SHARD)
STAGES = (Parallel.PP, Parallel.LAYER_SPLIT)
LAYER_SPLIT_NOTE = ("layer split: the GPUs take turns on every token, so the extra GPU adds memory "
                    "(capacity), not speed")


@dataclass(frozen=True)
class _Split:
    """How the workload's GPUs divide the model: tp × stages × replicas = n."""

    tp: int = 1
    stages: int = 1
    replicas: int = 1


def split_of(workload: Workload) -> _Split:
    n = workload.n_gpus
    if n <= 1:
        return _Split()
    if workload.parallel is Parallel.TP:
        return _Split(tp=n)
    if workload.parallel in STAGES:
        return _Split(stages=n)
    return _Split(replicas=n)


def _moe_read_fraction(arch: ModelArch, batch: int) -> float:
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


@dataclass(frozen=True)
class _Run:
    """What every part of one estimate needs, looked up once: the GPUs used, their achieved
    bandwidth and FLOP/s, the links, and the model's per-token matmul FLOPs."""

    build: ResolvedBuild
    bws: tuple[float | None, ...]
    peaks: tuple[float | None, ...]
    ring: Link | None  # slowest hop of the ring over the GPUs used
    hop: Link | None  # GPU 0 → GPU 1, for pipeline hand-offs
    two_n: float  # 2 × matmul weights: forward FLOPs per token without attention

    def coll(self, op: str, n_bytes: float, n: int) -> float:
        lk = self.hop if op == "send" else self.ring
        return 0.0 if lk is None else collective_time_over(lk, op, n_bytes, n)  # type: ignore[arg-type]


def _run(arch: ModelArch, w: Workload, build: ResolvedBuild) -> _Run:
    gpus = build.gpus[: w.n_gpus]
    hop = link(build, 0, 1) if len(gpus) > 1 else None
    ring = bottleneck_link(build, len(gpus)) if len(gpus) > 2 else hop  # a 2-GPU ring is that one hop
    return _Run(build=build, bws=tuple(bandwidth_bytes_per_s(g) for g in gpus),
                peaks=tuple(peak_flops(g, w) for g in gpus), ring=ring, hop=hop, two_n=2 * matmul_params(arch))


def _decode(arch, w: Workload, r: _Run, mem: MemoryBreakdown, sp: _Split, whole_w: float, notes: list[str]):
    """(seconds per decode step of the whole batch, memory part, compute part, comm part)."""
    if None in r.bws:
        notes.append("decode speed unknown: a GPU's memory bandwidth is not in the catalog")
        return None
    frac = _moe_read_fraction(arch, w.batch)
    kv_whole = kv_cache_bytes(arch, w.context_len, w.batch, w.kv_dtype, w.engine)
    flops = w.batch * (r.two_n + attention_flops_per_token(arch, w.context_len))
    act = w.batch * arch.hidden_size * ACT_BYTES
    known_peaks = None not in r.peaks
    if sp.stages > 1:
        mem_t = sum((whole_w * frac + kv_whole) / sp.stages / (b * DECODE_BANDWIDTH_EFFICIENCY) for b in r.bws)
        comp_t = sum(flops / sp.stages / (p * INFERENCE_COMPUTE_EFFICIENCY) for p in r.peaks) if known_peaks else 0.0
        comm_t = (sp.stages - 1) * r.coll("send", act, 2)
        step = max(mem_t, comp_t)
        if w.parallel is Parallel.PP and w.batch > 1:
            step /= min(sp.stages, w.batch)  # sequences in flight fill the stages
        else:
            notes.append(LAYER_SPLIT_NOTE)
        return step + comm_t, mem_t, comp_t, comm_t
    kv_gpu = per_gpu_kv(arch, kv_whole, sp.tp, 1)
    mem_t = (mem.weights * frac + kv_gpu) / (min(r.bws) * DECODE_BANDWIDTH_EFFICIENCY)
    comp_t = flops / sp.tp / (min(r.peaks) * INFERENCE_COMPUTE_EFFICIENCY) if known_peaks else 0.0
    comm_t = 2 * arch.n_layers * r.coll("all_reduce", act, sp.tp) if sp.tp > 1 else 0.0
    return max(mem_t, comp_t) + comm_t, mem_t, comp_t, comm_t


def _prefill(arch, w: Workload, r: _Run, mem: MemoryBreakdown, sp: _Split, whole_w: float, notes: list[str]):
    """(seconds to prefill a ``context_len``-token prompt for every sequence of the batch, comm part)."""
    if None in r.peaks or None in r.bws:
        notes.append("prefill speed unknown: a GPU's tensor FLOP/s or bandwidth is not in the catalog")
        return None
    tokens = w.context_len * w.batch
    flops = tokens * (r.two_n + attention_flops_per_token(arch, w.context_len / 2))
    act = tokens * arch.hidden_size * ACT_BYTES
    if sp.stages > 1:
        t = sum(max(flops / sp.stages / (p * INFERENCE_COMPUTE_EFFICIENCY),
                    whole_w / sp.stages / (b * DECODE_BANDWIDTH_EFFICIENCY)) for p, b in zip(r.peaks, r.bws, strict=True))
        comm_t = (sp.stages - 1) * r.coll("send", act, 2)
        return t + comm_t, comm_t
    comp_t = max(flops / sp.tp / (min(r.peaks) * INFERENCE_COMPUTE_EFFICIENCY),
                 mem.weights / (min(r.bws) * DECODE_BANDWIDTH_EFFICIENCY))
    comm_t = 2 * arch.n_layers * r.coll("all_reduce", act, sp.tp) if sp.tp > 1 else 0.0
    return comp_t + comm_t, comm_t


def _inference(arch, w, build, mem, sp: _Split, notes: list[str]) -> SpeedEstimate:
    r = _run(arch, w, build)
    whole_w = weights_bytes(arch, w) if sp.stages > 1 else mem.weights * sp.tp
    dec, pre = _decode(arch, w, r, mem, sp, whole_w, notes), _prefill(arch, w, r, mem, sp, whole_w, notes)
    if sp.replicas > 1:
        notes.append(f"{sp.replicas} independent replicas: throughput × {sp.replicas}, latency unchanged")
    decode_tps = bottleneck = None
    share = 0.0
    if dec is not None:
        step, mem_t, comp_t, comm_t = dec
        decode_tps = w.batch * sp.replicas / step
        share = min(1.0, comm_t / step)
        bottleneck = (Bottleneck.INTERCONNECT if comm_t > max(mem_t, comp_t)
                      else Bottleneck.COMPUTE if comp_t > mem_t else Bottleneck.MEMORY_BANDWIDTH)
    prefill_tps = ttft = None
    if pre is not None:
        ttft = pre[0]
        prefill_tps = w.context_len * w.batch * sp.replicas / ttft
    notes.append(f"decode speed at a full {w.context_len}-token context; time to first token for a "
                 f"{w.context_len}-token prompt per sequence")
    return SpeedEstimate(decode_tokens_per_s=decode_tps, prefill_tokens_per_s=prefill_tps,
                         time_to_first_token_s=ttft, interconnect_share=share, bottleneck=bottleneck,
                         notes=tuple(notes))


def _train_comm_per_step(arch, w: Workload, build: ResolvedBuild, sp: _Split, r: _Run | None = None) -> float:
    """GPU-to-GPU seconds per optimizer step (see module docstring for each scheme)."""
    n, m = w.n_gpus, w.grad_accum_steps
    if n <= 1:
        return 0.0
    r = r or _run(arch, w, build)
    grads = trainable_params(arch, w) * param_bytes(w.precision)
    params = weights_bytes(arch, w)  # gathered in the stored/compute format (4-bit for QLoRA)
    act = w.batch * w.seq_len * arch.hidden_size * ACT_BYTES
    p = w.parallel
    if p in (Parallel.DDP, Parallel.FSDP_NO_SHARD):
        return r.coll("all_reduce", grads, n)  # once per step: no_sync while accumulating
    if p in (Parallel.ZERO1, Parallel.ZERO2):  # Rajbhandari et al. 2020 §7.2.1: same volume as DDP
        return r.coll("reduce_scatter", grads, n) + r.coll("all_gather", params, n)
    if p in (Parallel.ZERO3, Parallel.FSDP):  # §7.2.2: gather fwd + gather bwd + reduce-scatter = 1.5× DDP
        return m * (2 * r.coll("all_gather", params, n) + r.coll("reduce_scatter", grads, n))
    if p is Parallel.FSDP_GRAD_OP:  # parameters stay gathered from forward to backward
        return m * (r.coll("all_gather", params, n) + r.coll("reduce_scatter", grads, n))
    if p is Parallel.TP:  # 2 all-reduces forward + 2 backward per layer (+2 with full recompute)
        per_layer = 6 if w.checkpointing is Checkpointing.FULL else 4
        return m * per_layer * arch.n_layers * r.coll("all_reduce", act, n)
    return m * 2 * (sp.stages - 1) * r.coll("send", act, 2)  # activation fwd, gradient bwd


def _host_link_bytes_per_s(build: ResolvedBuild) -> float:
    """One GPU's PCIe link to host RAM, as a staged copy achieves it (interconnect constants)."""
    g = build.gpus[0]
    gen = min(build.topology.pcie_gen, g.pcie_gen or build.topology.pcie_gen)
    lanes = (build.topology.pcie_lanes_per_gpu or (g.pcie_lanes or 16,))[0]
    return PCIE_GB_PER_S_PER_LANE[gen] * lanes * PCIE_HOST_EFFICIENCY * 1e9


def _training(arch, w: Workload, build: ResolvedBuild, sp: _Split, notes: list[str]) -> SpeedEstimate:
    r = _run(arch, w, build)
    peaks, bws = r.peaks, r.bws
    if None in peaks or None in bws:
        notes.append("training speed unknown: a GPU's tensor FLOP/s or bandwidth is not in the catalog")
        return SpeedEstimate(notes=tuple(notes))
    micro_tokens = w.batch * w.seq_len
    m = w.grad_accum_steps
    flops = micro_tokens * train_flops_per_token(arch, w)
    dequant = 0.0
    if w.method is Method.QLORA:
        passes = 3 if w.checkpointing is Checkpointing.FULL else 2
        dequant = passes * count_params(arch).linear * QLORA_DEQUANT_BYTES_PER_WEIGHT
    if sp.stages > 1:  # each stage does 1/s of the work; layer split: one stage at a time
        stage = max(flops / sp.stages / (p * TRAIN_MFU) + dequant / sp.stages / (b * DECODE_BANDWIDTH_EFFICIENCY)
                    for p, b in zip(peaks, bws, strict=True))
        slots = m + sp.stages - 1 if w.parallel is Parallel.PP else m * sp.stages
        compute = slots * stage
        if w.parallel is Parallel.LAYER_SPLIT:
            notes.append(LAYER_SPLIT_NOTE)
    else:
        per_micro = flops / sp.tp / (min(peaks) * TRAIN_MFU) + dequant / sp.tp / (min(bws) * DECODE_BANDWIDTH_EFFICIENCY)
        compute = m * per_micro
    comm = _train_comm_per_step(arch, w, build, sp, r)
    host = _offload_seconds(arch, w, build, sp, notes)
    overlapped = w.parallel in DATA_PARALLEL
    step = max(compute, comm, host) if overlapped else max(compute + comm, host)
    tokens = micro_tokens * m * sp.replicas
    if host >= max(compute, comm) and host > 0:
        bottleneck = Bottleneck.HOST_OFFLOAD
    elif comm > compute:
        bottleneck = Bottleneck.INTERCONNECT
    elif dequant and dequant / (min(bws) * DECODE_BANDWIDTH_EFFICIENCY) > flops / (min(peaks) * TRAIN_MFU):
        bottleneck = Bottleneck.MEMORY_BANDWIDTH
    else:
        bottleneck = Bottleneck.COMPUTE
    notes.append(f"training at {TRAIN_MFU:.0%} model-FLOPs utilisation (Llama 3, H100); consumer cards unmeasured")
    if overlapped and w.n_gpus > 1:
        notes.append("gradient/parameter traffic assumed to overlap compute fully (DDP buckets, FSDP prefetch)")
    return SpeedEstimate(train_tokens_per_s=tokens / step, step_time_s=step,
                         interconnect_share=min(1.0, comm / step), bottleneck=bottleneck, notes=tuple(notes))


def _offload_seconds(arch, w: Workload, build: ResolvedBuild, sp: _Split, notes: list[str]) -> float:
    """PCIe seconds per step for ZeRO-Offload / FSDP CPU offload (Ren et al. 2021,
    arXiv:2101.06840 §4: fp16 gradients to the host, updated fp16 parameters back; parameter
    offload streams the weights in for forward and backward of every micro-batch). The CPU
    optimizer step is not timed: the catalog has no CPU speeds."""
    if not w.offload:
        return 0.0
    link = _host_link_bytes_per_s(build)
    shard = max(1, w.n_gpus if w.parallel in DATA_PARALLEL else 1)
    seconds = 0.0
    if Offload.OPTIMIZER in w.offload:
        seconds += trainable_params(arch, w) / shard * 2 * param_bytes(w.precision) / link
        notes.append("optimizer offload: CPU optimizer step time not included (CPU speed unknown)")
    if Offload.PARAMS in w.offload:
        seconds += w.grad_accum_steps * 2 * weights_bytes(arch, w) / shard / link
    return seconds


def estimate_speed(arch: ModelArch, workload: Workload, build: ResolvedBuild, memory: MemoryBreakdown) -> SpeedEstimate:
    """Decode/prefill speed and time to first token (inference) or training tokens/s and step
    time, on the first ``workload.n_gpus`` GPUs of ``build``. ``memory`` is the busiest GPU's
    breakdown from ``estimate_memory`` (its weights term is what each decode step reads)."""
    if workload.n_gpus > build.gpu_count:
        return SpeedEstimate(notes=(f"the workload uses {workload.n_gpus} GPUs; {build.name} has {build.gpu_count}",))
    sp = split_of(workload)
    notes: list[str] = []
    if workload.mode is Mode.INFERENCE:
        return _inference(arch, workload, build, memory, sp, notes)
    return _training(arch, workload, build, sp, notes)
