"""Training speed: tokens/s and step time from FLOPs per token at a stated MFU, plus the
GPU-to-GPU traffic of each parallel scheme and host traffic of offloading.

Schemes (bytes per GPU per step; collectives timed by ``advisor.core.hardware.interconnect``):
* DDP / FSDP NO_SHARD: one all-reduce of the gradients per optimizer step (``no_sync`` while
  accumulating; PyTorch DDP docs);
* ZeRO-1/2: reduce-scatter of gradients + all-gather of updated parameters, the DDP volume
  (Rajbhandari et al. 2020, arXiv:1910.02054 §7.2.1);
* ZeRO-3 / FSDP FULL_SHARD: all-gather of parameters in forward and again in backward, plus
  a reduce-scatter of gradients, every micro-batch: 1.5× DDP (§7.2.2);
* FSDP SHARD_GRAD_OP: parameters stay gathered from forward to backward: one all-gather;
* tensor parallel: 2 all-reduces of micro-batch × seq × hidden per layer forward, 2 backward
  (Shoeybi et al. 2019, arXiv:1909.08053 §3), 2 more with full recomputation;
* pipeline / layer split: one activation forward and one gradient backward per stage boundary
  per micro-batch; GPipe bubble (s-1)/(m+s-1) (Huang et al. 2019, arXiv:1811.06965);
* FSDP × TP (``tp`` > 1 with a data-parallel scheme; torchtitan 2-D): the TP all-reduces inside
  each group of ``tp`` GPUs, the data-parallel collectives of a 1/tp shard over ``n / tp`` replicas.
Across machines (issue 21) every collective runs hierarchically, inside each machine and then
over the network adapters (``advisor.core.hardware.interconnect.hierarchical_time_over``); a
pipeline boundary between machines hands off over one GPU's share of the adapters.
Data-parallel traffic overlaps the backward (Li et al. 2020 arXiv:2006.15704 §3.2.3; Zhao et
al. 2023 arXiv:2304.11277 §3.3), taken as full overlap; TP and pipeline traffic does not.
"""

from __future__ import annotations

from functools import lru_cache

from advisor.core.hardware.interconnect import (
    INTER_NODE_EFFICIENCY,
    INTER_NODE_SOURCE,
    PCIE_GB_PER_S_PER_LANE,
    PCIE_HOST_EFFICIENCY,
)
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.hardware.tiers import host_memory_gb_per_s
from advisor.core.job.choices import (
    Checkpointing,
    Method,
    Objective,
    Offload,
    Optimizer,
    Parallel,
    Precision,
)
from advisor.core.job.frameworks import with_framework_defaults
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import choice_label
from advisor.core.memory.inference import weights_bytes
from advisor.core.memory.states import (
    master_bytes_per_param,
    optimizer_bytes_per_param,
    param_bytes,
)
from advisor.core.model.params import count_params
from advisor.core.speed.flops import (
    DECODE_BANDWIDTH_EFFICIENCY,
    QLORA_DEQUANT_BYTES_PER_WEIGHT,
    TRAIN_COMPILE_SPEEDUP,
    attention_flops_per_token,
    matmul_params,
    train_flops_per_token,
    train_mfu,
    train_mfu_source,
    trainable_params,
)
from advisor.core.speed.layout import (
    ACT_BYTES,
    DATA_PARALLEL,
    LAYER_SPLIT_NOTE,
    Run,
    Split,
    run_of,
)
from advisor.core.speed.results import Bottleneck, SpeedEstimate


class _Comm:
    """Seconds of GPU-to-GPU traffic per step, kept apart: exposed (TP, pipeline: not overlapped)
    and overlapped (data parallel), and for each the time inside machines and across them."""

    def __init__(self, r: Run) -> None:
        self.r = r
        self.exposed = self.overlapped = 0.0
        self.inside = self.across = 0.0

    def add(self, times: float, op: str, n_bytes: float, n: int, per_node: int | None = None, *,
            overlap: bool) -> None:
        t = self.r.coll(op, n_bytes, n, per_node)
        t_in, t_across = self.r.coll_parts(op, n_bytes, n, per_node)
        if overlap:
            self.overlapped += times * t
        else:
            self.exposed += times * t
        self.inside += times * t_in
        self.across += times * t_across

    def add_sends(self, times: float, n_bytes: float, stages: int) -> None:
        t_in, t_across = self.r.sends(n_bytes, stages)
        self.exposed += times * (t_in + t_across)
        self.inside += times * t_in
        self.across += times * t_across

    @property
    def total(self) -> float:
        return self.exposed + self.overlapped


def train_comm(arch, planned: PlannedJob, build: ResolvedBuild, sp: Split, r: Run | None = None) -> _Comm:
    """GPU-to-GPU traffic of one optimizer step (see module docstring for each scheme). Across
    machines every collective is hierarchical (``advisor.core.hardware.interconnect``). With
    FSDP × TP the TP groups sit inside a machine and the data-parallel collectives of each
    group's 1/tp shard run over the ``n / tp`` replicas, ``per-machine GPUs / tp`` in each."""
    r = r or run_of(arch, planned, build)
    c = _Comm(r)
    n, m = planned.n_gpus, planned.grad_accum_steps
    if n <= 1:
        return c
    grads = trainable_params(arch, planned) * param_bytes(planned.precision)
    params = weights_bytes(arch, planned)  # gathered in the stored/compute format (4-bit for QLoRA)
    act = planned.batch * planned.seq_len * arch.hidden_size * ACT_BYTES
    p = planned.parallel
    per_layer = 6 if planned.checkpointing is Checkpointing.FULL else 4
    if p is Parallel.TP:  # 2 all-reduces forward + 2 backward per layer (+2 with full recompute)
        c.add(m * per_layer * arch.n_layers, "all_reduce", act, n, overlap=False)
        return c
    if p not in DATA_PARALLEL:
        c.add_sends(m * 2, act, sp.stages)  # activation fwd, gradient bwd
        return c
    tp, dp = sp.tp, sp.replicas
    dp_per_node = max(1, r.per_node // tp)
    if tp > 1:  # the TP group's all-reduces, inside one machine
        c.add(m * per_layer * arch.n_layers, "all_reduce", act, tp, overlap=False)
        grads, params = grads / tp, params / tp
    if dp <= 1:
        return c
    if p in (Parallel.DDP, Parallel.FSDP_NO_SHARD):
        c.add(1, "all_reduce", grads, dp, dp_per_node, overlap=True)  # once per step: no_sync while accumulating
    elif p in (Parallel.ZERO1, Parallel.ZERO2):  # Rajbhandari et al. 2020 §7.2.1: same volume as DDP
        # reduce-scatter the gradients, all-gather the updated (trainable) parameters
        c.add(1, "reduce_scatter", grads, dp, dp_per_node, overlap=True)
        c.add(1, "all_gather", grads, dp, dp_per_node, overlap=True)
    elif p in (Parallel.ZERO3, Parallel.FSDP):  # §7.2.2: gather fwd + gather bwd + reduce-scatter = 1.5× DDP
        c.add(2 * m, "all_gather", params, dp, dp_per_node, overlap=True)
        c.add(m, "reduce_scatter", grads, dp, dp_per_node, overlap=True)
    else:  # FSDP SHARD_GRAD_OP: parameters stay gathered from forward to backward
        c.add(m, "all_gather", params, dp, dp_per_node, overlap=True)
        c.add(m, "reduce_scatter", grads, dp, dp_per_node, overlap=True)
    return c


def train_comm_per_step(arch, planned: PlannedJob, build: ResolvedBuild, sp: Split, r: Run | None = None) -> float:
    """GPU-to-GPU seconds per optimizer step (see module docstring for each scheme)."""
    return train_comm(arch, planned, build, sp, r).total


def bound_link_words(r: Run, c: _Comm) -> str:
    """The link that bounds the traffic, in words: "the InfiniBand link between the machines
    (8× NVIDIA ConnectX-7 …)" or "NVSwitch inside the machine"."""
    if c.across > c.inside and r.across is not None:
        return f"the {r.across.kind.value} link between the {r.machines} machines ({r.across.description})"
    lk = r.ring or r.hop
    return f"{lk.kind.value} inside the machine" if lk is not None else "the GPU link"


def host_link_bytes_per_s(build: ResolvedBuild) -> float:
    """One GPU's PCIe link to host RAM, as a staged copy achieves it (interconnect constants)."""
    g = build.gpus[0]
    gen = min(build.topology.pcie_gen, g.pcie_gen or build.topology.pcie_gen)
    lanes = (build.topology.pcie_lanes_per_gpu or (g.pcie_lanes or 16,))[0]
    return PCIE_GB_PER_S_PER_LANE[gen] * lanes * PCIE_HOST_EFFICIENCY * 1e9


_COMPILE_NOTE = f"; torch.compile × {TRAIN_COMPILE_SPEEDUP:g} (torchtitan, H100)"


#: Data-parallel schemes whose GPUs each step only their shard of the optimizer states (ZeRO-1/2/3,
#: FSDP full and grad-op sharding); DDP and FSDP NO_SHARD step every state on every GPU.
OPTIMIZER_SHARDED = (Parallel.ZERO1, Parallel.ZERO2, Parallel.ZERO3, Parallel.FSDP, Parallel.FSDP_GRAD_OP)


#: State-sized passes of PyTorch's foreach AdamW beyond the fused kernel's one read and write of each
#: state and one read of the gradient: ``_multi_tensor_adamw`` (torch/optim/adamw.py at 002d2f0b, weight
#: decay 0, the HF Trainer's default) runs ``_foreach_lerp_(exp_avgs, grads)`` (m, g read; m written),
#: ``_foreach_mul_(exp_avg_sqs)`` and ``_foreach_addcmul_(exp_avg_sqs, grads, grads)`` (v read and written
#: twice, g read again), ``_foreach_sqrt(exp_avg_sqs)`` into a new state-sized list, ``_foreach_div_`` and
#: ``_foreach_add_`` on it, and ``_foreach_addcdiv_(params, exp_avgs, denom)`` (p, m and the temporary read,
#: p written): 14 state passes and 2 gradient passes where the fused kernel makes 4 and 1. A non-zero
#: weight decay adds ``_foreach_mul_(params)`` (one read and write of the weights), not counted here.
FOREACH_EXTRA_STATE_PASSES = 10
FOREACH_EXTRA_GRAD_PASSES = 1


def optimizer_step_bytes_per_param(job: Job) -> float:
    """Bytes one trained parameter's optimizer step moves through GPU memory (``w`` with its framework's
    defaults applied, ``with_framework_defaults``). A fused kernel (``OptimizerKernel.FUSED``) reads and
    writes the weight and its master copy, reads the gradient and reads and writes each optimizer state
    once (AdamW: ``param <- param - lr * (m / (sqrt(v) + eps) + wd * param)`` with ``m``, ``v`` updated
    from the gradient, Loshchilov & Hutter arXiv:1711.05101 Alg. 2; PyTorch's ``_fused_adamw_``). Sizes
    are the memory estimate's (``advisor.core.memory.states``). AMP AdamW: 2 × (2 + 4) + 2 + 2 × 8 = 30 B.
    PyTorch's foreach AdamW (``OptimizerKernel.FOREACH``) adds ``FOREACH_EXTRA_STATE_PASSES`` passes over
    a state and ``FOREACH_EXTRA_GRAD_PASSES`` over the gradient: 30 + 10 × 4 + 2 = 72 B under AMP. The
    memory estimate counts the same kernel's sqrt(v) temporary (``memory.training``). Other optimizers
    (bitsandbytes' 8-bit and paged AdamW, SGD, Adafactor) take the one-pass count."""
    return _step_bytes(job.optimizer, job.precision, job.foreach_adamw)


@lru_cache(maxsize=64)
def _step_bytes(optimizer: Optimizer, precision: Precision, foreach: bool) -> float:
    weight = param_bytes(precision) + master_bytes_per_param(precision)
    states = optimizer_bytes_per_param(optimizer, precision)
    fused = 2 * weight + param_bytes(precision) + 2 * states
    if not foreach:
        return fused
    return fused + FOREACH_EXTRA_STATE_PASSES * states / 2 + FOREACH_EXTRA_GRAD_PASSES * param_bytes(precision)


def optimizer_step_seconds(arch, planned: PlannedJob, sp: Split, bandwidth: float) -> float:
    """One optimizer step on the busiest GPU: its share of the trained parameters (split by tensor and
    pipeline parallelism, and by data parallelism where the states are sharded) × the bytes each moves
    (``optimizer_step_bytes_per_param``), streamed at decode's share of the memory bandwidth
    (``DECODE_BANDWIDTH_EFFICIENCY``). Zero when the optimizer runs on the CPU (optimizer or NVMe offload).
    ``w`` has its framework's defaults applied."""
    if Offload.OPTIMIZER in planned.offload or Offload.NVME in planned.offload:
        return 0.0
    shards = sp.tp * sp.stages * (sp.replicas if planned.parallel in OPTIMIZER_SHARDED else 1)
    params = trainable_params(arch, planned) / shards
    return params * optimizer_step_bytes_per_param(planned) / (bandwidth * DECODE_BANDWIDTH_EFFICIENCY)


def training_speed(arch, planned: PlannedJob, build: ResolvedBuild, sp: Split, notes: list[str]) -> SpeedEstimate:
    planned = with_framework_defaults(planned)  # the job the memory estimate planned: precision, compile, checkpointing
    r = run_of(arch, planned, build)
    peaks, bws = r.peaks, r.bws
    if None in peaks or None in bws:
        notes.append("training speed unknown: a GPU's tensor FLOP/s or bandwidth is not in the catalog")
        return SpeedEstimate(notes=tuple(notes))
    # Preference objectives put chosen and rejected sequences through the model: tokens counted
    # are those of both (a pair of seq_len-token sequences is 2 × seq_len tokens).
    micro_tokens = planned.batch * planned.seq_len * sequences_per_example(planned)
    m = planned.grad_accum_steps
    ref_fwd = reference_forward_flops_per_token(arch, planned)
    flops = micro_tokens * (train_flops_per_token(arch, planned) + ref_fwd)
    if planned.objective.paired:
        notes.append(f"{choice_label('objective', planned.objective)}: tokens/s counts chosen and rejected tokens ({planned.batch} pairs = "
                     f"{planned.batch * sequences_per_example(planned)} sequences per micro-batch)"
                     + ("; plus a forward of the reference model (≈ +1/3 of full fine-tuning's 6N FLOPs: "
                        "2N per token, TRL DPOTrainer compute_ref_log_probs)" if ref_fwd else ""))
    dequant = 0.0
    if planned.method is Method.QLORA:
        passes = 3 if planned.checkpointing is Checkpointing.FULL else 2
        dequant = passes * count_params(arch).linear * QLORA_DEQUANT_BYTES_PER_WEIGHT
    compiled = planned.compile
    speedup = TRAIN_COMPILE_SPEEDUP if compiled else 1.0
    # Achieved FLOP/s of each GPU: its peak × its generation's MFU (× torch.compile's speed-up).
    framework = planned.framework.value
    shares = tuple(train_mfu(g, framework) * speedup for g in r.build.gpus[:len(peaks)])
    rate = min(p * u for p, u in zip(peaks, shares, strict=True))
    slowest = min(range(len(shares)), key=shares.__getitem__)
    mfu = shares[slowest] / speedup  # the slowest card's, for the note
    if sp.stages > 1:  # each stage does 1/s of the work; layer split: one stage at a time
        stage = max(flops / sp.stages / (p * u) + dequant / sp.stages / (b * DECODE_BANDWIDTH_EFFICIENCY)
                    for p, u, b in zip(peaks, shares, bws, strict=True))
        slots = m + sp.stages - 1 if planned.parallel is Parallel.PP else m * sp.stages
        compute = slots * stage
        if planned.parallel is Parallel.LAYER_SPLIT:
            notes.append(LAYER_SPLIT_NOTE)
    else:
        per_micro = flops / sp.tp / rate + dequant / sp.tp / (min(bws) * DECODE_BANDWIDTH_EFFICIENCY)
        compute = m * per_micro
    optimizer_s = optimizer_step_seconds(arch, planned, sp, min(bws))
    compute += optimizer_s  # once per step, after the last micro-batch's backward
    if optimizer_s >= 1e-3:
        fused = not planned.foreach_adamw
        notes.append(f"optimizer step {optimizer_s * 1e3:.0f} ms: each trained weight, its gradient and its "
                     "optimizer states " + ("read and written once (a fused AdamW)" if fused else
                                            "passed over several times (PyTorch's foreach AdamW; a fused one "
                                            "passes once)"))
    c = train_comm(arch, planned, build, sp, r)
    comm = c.total
    host = _offload_seconds(arch, planned, build, sp, notes)
    overlapped = planned.parallel in DATA_PARALLEL
    if overlapped and sp.tp == 1:
        step = max(compute, comm, host)
    elif overlapped:  # FSDP × TP: the TP all-reduces add to compute, the FSDP traffic overlaps both
        step = max(compute + c.exposed, c.overlapped, host)
    else:
        step = max(compute + comm, host)
    cpu_opt = cpu_optimizer_seconds(arch, planned, build)  # after the backward, before the next forward can start
    if cpu_opt:
        step += cpu_opt
        host += cpu_opt  # (the host's share of the step, for the bottleneck)
        kind = "DeepSpeed's CPU-Adam" if planned.parallel in DEEPSPEED_OFFLOAD else "PyTorch's fused AdamW on the CPU"
        rate, whence = host_gb_per_s(build)
        notes.append(f"optimizer step on the CPU ({kind}): {cpu_opt:.2f} s a step, each trained weight, its gradient "
                     f"and its two moments streamed through host RAM at {rate:.0f} GB/s ({whence})")
    tokens = micro_tokens * m * sp.replicas
    if host >= max(compute, comm) and host > 0:
        bottleneck = Bottleneck.HOST_OFFLOAD
    elif comm > compute:
        bottleneck = Bottleneck.INTERCONNECT
        notes.append(f"the step waits on GPU-to-GPU traffic: {bound_link_words(r, c)} bounds it")
    elif dequant and dequant / (min(bws) * DECODE_BANDWIDTH_EFFICIENCY) > flops / rate:
        bottleneck = Bottleneck.MEMORY_BANDWIDTH
    else:
        bottleneck = Bottleneck.COMPUTE
    notes.append(f"training at {mfu:.0%} model-FLOPs utilisation "
                 f"({train_mfu_source(r.build.gpus[slowest], framework)})"
                 + (_COMPILE_NOTE if compiled else ""))
    if overlapped and planned.n_gpus > 1:
        notes.append("gradient/parameter traffic assumed to overlap compute fully (DDP buckets, FSDP prefetch)")
    if r.machines > 1 and r.across is not None:
        notes.append(f"{r.machines} machines joined by {r.across.kind.value} ({r.across.description}): collectives run "
                     f"inside each machine, then across (hierarchical); the network taken at "
                     f"{INTER_NODE_EFFICIENCY:.0%} of its rate, measured for EFA and assumed for other networks "
                     f"({INTER_NODE_SOURCE})")
    return SpeedEstimate(train_tokens_per_s=tokens / step, step_time_s=step,
                         interconnect_share=min(1.0, comm / step), bottleneck=bottleneck,
                         comm_link=bound_link_words(r, c) if comm > 0 else "", notes=tuple(notes))


def sequences_per_example(job: Job) -> int:
    """2 for DPO, ORPO and reward modelling (a chosen and a rejected sequence: TRL's
    ``concatenated_forward`` runs both in one batch; see ``advisor.core.memory.training``), 1 for SFT."""
    return 2 if job.objective.paired else 1


def reference_forward_flops_per_token(arch, job: Job) -> float:
    """DPO's reference forward: the frozen reference (a copy, or the base with adapters
    disabled) scores chosen and rejected sequences under ``torch.no_grad`` every step unless its
    log-probabilities were precomputed — one forward, 2N + attention per token (Kaplan et al.
    2020 Table 1), i.e. ≈ 1/3 more than full fine-tuning's 6N (TRL ``DPOTrainer.compute_ref_log_probs``;
    DPO: Rafailov et al. 2023, arXiv:2305.18290 §4: π_ref's log-probabilities of both)."""
    if job.objective is not Objective.DPO or job.precompute_ref:
        return 0.0
    return 2 * matmul_params(arch) + attention_flops_per_token(arch, job.seq_len / 2)


#: Host RAM bandwidth the CPU reaches when it streams over large arrays (offloaded MoE experts, a CPU
#: optimizer step): dual-channel DDR5-5600 peaks at 89.6 GB/s (5,600 MT/s × 8 B × 2 channels, JEDEC
#: JESD79-5); streaming reaches about two thirds of that on desktop platforms. A default: the catalog does not
#: hold host bandwidth (a server's 8-12 channels reach several times more).
HOST_MEMORY_GB_PER_S = 60.0


def host_gb_per_s(build: ResolvedBuild) -> tuple[float, str]:
    """(GB/s, where it comes from) the build's CPU streams from host RAM: its platform tier's memory
    (``hardware.tiers.host_memory_gb_per_s``), else ``HOST_MEMORY_GB_PER_S``."""
    tier = build.tier
    rate = host_memory_gb_per_s(tier)
    if rate is None:
        return HOST_MEMORY_GB_PER_S, "assumed: dual-channel DDR5"
    return rate, f"two thirds of {tier.ram_channels} channels at {tier.ram_mt_per_s:,} MT/s: {tier.name}"
#: Bytes DeepSpeed's CPU-Adam moves in host RAM per trained parameter and step: ``Step_AVX`` loads the
#: gradient, both moments and the fp32 weight and stores the weight and both moments (csrc/includes/cpu_adam.h
#: at 14e1981a): 4 × 4 + 3 × 4 = 28 B, a memory-bound pass (a few vector FMAs, a sqrt and a divide per element).
#: The 16-bit copy ZeRO sends back to the GPU is counted in the PCIe traffic, not here.
CPU_ADAM_BYTES_PER_PARAM = 28
#: Schemes whose optimizer offload runs DeepSpeed's CPU-Adam (ZeRO-Offload); under FSDP's CPU offload the
#: optimizer built on the host-resident parameters steps there, PyTorch's fused AdamW (a vectorized CPU kernel
#: since PyTorch 2.4; the HF Trainer's default optimizer), taken at the same single pass. PyTorch's foreach
#: AdamW on the CPU, which DeepSpeed's tutorial puts at 5-7x CPU-Adam's time ("DeepSpeedCPUAdam is 5X–7X faster
#: than the standard PyTorch implementation", deepspeed.ai/tutorials/zero-offload), is not modelled.
DEEPSPEED_OFFLOAD = (Parallel.NONE, Parallel.DDP, Parallel.ZERO1, Parallel.ZERO2, Parallel.ZERO3)


def cpu_optimizer_seconds(arch, planned: PlannedJob, build: ResolvedBuild) -> float:
    """One optimizer step on the host CPU when the optimizer states are offloaded to host RAM: the trained
    parameters each machine's GPUs hold (every GPU's shard; the machine's CPU steps them all, over one memory
    system) × ``CPU_ADAM_BYTES_PER_PARAM`` / the host's bandwidth (``host_gb_per_s``) — DeepSpeed's CPU-Adam (ZeRO-Offload; Ren
    et al. 2021, arXiv:2101.06840 §4.1: the update runs on the CPU after the backward) or PyTorch's fused AdamW
    under FSDP (``DEEPSPEED_OFFLOAD``). Zero without optimizer offload; NVMe offload (ZeRO-Infinity) pays the same
    pass once the states are read in."""
    if Offload.OPTIMIZER not in planned.offload and Offload.NVME not in planned.offload:
        return 0.0
    per_machine = min(planned.n_gpus, build.gpus_per_node)
    replicated = planned.parallel in (Parallel.NONE, Parallel.DDP, Parallel.FSDP_NO_SHARD)
    params = trainable_params(arch, planned) * (per_machine if replicated else per_machine / max(1, planned.n_gpus))
    return params * CPU_ADAM_BYTES_PER_PARAM / (host_gb_per_s(build)[0] * 1e9)


#: One PCIe 4.0 x4 NVMe drive's sequential throughput, about 7 GB/s read and 5-6 GB/s write
#: (vendor datasheets, e.g. Samsung 990 PRO: 7,450 / 6,900 MB/s); ZeRO-Infinity reaches tens of
#: GB/s only with several drives per node (arXiv:2104.07857 §6.1). 5 GB/s each way is taken.
NVME_GB_PER_S = 5.0


def _offload_seconds(arch, planned: PlannedJob, build: ResolvedBuild, sp: Split, notes: list[str]) -> float:
    """PCIe seconds per step for ZeRO-Offload / FSDP CPU offload (Ren et al. 2021,
    arXiv:2101.06840 §4: fp16 gradients to the host, updated fp16 parameters back; parameter
    offload streams the weights in for forward and backward of every micro-batch). The CPU
    optimizer step is not timed: the catalog has no CPU speeds."""
    if not planned.offload:
        return 0.0
    link = host_link_bytes_per_s(build)
    shard = max(1, planned.n_gpus if planned.parallel in DATA_PARALLEL else 1)
    seconds = 0.0
    if Offload.OPTIMIZER in planned.offload:
        seconds += trainable_params(arch, planned) / shard * 2 * param_bytes(planned.precision) / link
    if Offload.PARAMS in planned.offload:
        seconds += planned.grad_accum_steps * 2 * weights_bytes(arch, planned) / shard / link
    if Offload.NVME in planned.offload:
        # ZeRO-Infinity (Rajbhandari et al. 2021, arXiv:2104.07857 §5): optimizer states (and
        # parameters) are read from and written back to NVMe every step. States of AdamW with an
        # fp32 master: 12 bytes per trainable parameter, each way.
        states = trainable_params(arch, planned) / shard * 12
        if Offload.PARAMS in planned.offload:
            states += planned.grad_accum_steps * 2 * weights_bytes(arch, planned) / shard
        seconds += 2 * states / (NVME_GB_PER_S * 1e9)
        notes.append(f"NVMe offload: {NVME_GB_PER_S:g} GB/s per GPU assumed (a PCIe 4.0 x4 NVMe drive's "
                     "sequential read/write), states read and written every step")
    return seconds
