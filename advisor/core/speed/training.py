"""Training speed: tokens/s and step time from FLOPs per token at a stated MFU, plus the
GPU-to-GPU traffic of each parallel scheme and host traffic of offloading.

The GPUs' work per micro-batch is FLOPs at a measured model-FLOPs utilisation (``flops.train_mfu``)
plus QLoRA's dequantizing reads; the optimizer step streams the trained weights' states
(``optimizer_step``); GPU-to-GPU traffic per scheme is ``train_comm``; offloading's PCIe and NVMe
traffic and a CPU optimizer step are ``train_host``. Pipeline stages idle for the GPipe bubble
(s-1)/(m+s-1) (Huang et al. 2019, arXiv:1811.06965). Data-parallel traffic overlaps the backward
(Li et al. 2020 arXiv:2006.15704 §3.2.3; Zhao et al. 2023 arXiv:2304.11277 §3.3), taken as full
overlap; TP and pipeline traffic does not.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.hardware.interconnect import INTER_NODE_EFFICIENCY, INTER_NODE_SOURCE
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Checkpointing, Method, Objective, Parallel
from advisor.core.job.frameworks import training_loop, with_framework_defaults
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import choice_label
from advisor.core.model.arch import ModelArch
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
)
from advisor.core.speed.layout import DATA_PARALLEL, LAYER_SPLIT_NOTE, Run, Split, run_of
from advisor.core.speed.optimizer_step import (
    optimizer_step_seconds,
)
from advisor.core.speed.results import Bottleneck, SpeedEstimate
from advisor.core.speed.train_comm import (
    bound_link_words,
    train_comm,
)
from advisor.core.speed.train_host import (
    DEEPSPEED_OFFLOAD,
    cpu_optimizer_seconds,
    host_gb_per_s,
    offload_seconds,
)

__all__ = ["reference_forward_flops_per_token", "sequences_per_example", "training_speed"]

_COMPILE_NOTE = f"; torch.compile × {TRAIN_COMPILE_SPEEDUP:g} (torchtitan, H100)"


@dataclass(frozen=True, slots=True)
class _GpuWork:
    """The GPUs' side of a step: compute seconds (micro-batches and the optimizer step) and what the notes
    and the bottleneck read."""

    compute: float
    flops: float  # one micro-batch's
    rate: float  # the slowest GPU's achieved FLOP/s
    dequant: float  # bytes QLoRA's dequantizing passes read per micro-batch
    least_bw: float
    mfu: float  # the slowest card's MFU, without torch.compile
    slowest: int
    micro_tokens: int


def training_speed(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild, sp: Split,
                   notes: list[str]) -> SpeedEstimate:
    """Tokens/s and step time of ``planned`` on ``build`` split as ``sp`` (module docstring)."""
    planned = with_framework_defaults(planned)  # the job the memory estimate planned: precision, compile, checkpointing
    r = run_of(arch, planned, build)
    peaks, bws = r.known_peaks(), r.known_bws()
    if peaks is None or bws is None:
        notes.append("training speed unknown: a GPU's tensor FLOP/s or bandwidth is not in the catalog")
        return SpeedEstimate(notes=tuple(notes))
    w = _gpu_work(arch, planned, r, sp, peaks, bws, notes)
    c = train_comm(arch, planned, build, sp, r)
    comm = c.total
    host = offload_seconds(arch, planned, build, sp, notes)
    overlapped = planned.parallel in DATA_PARALLEL
    if overlapped and sp.tp == 1:
        step = max(w.compute, comm, host)
    elif overlapped:  # FSDP × TP: the TP all-reduces add to compute, the FSDP traffic overlaps both
        step = max(w.compute + c.exposed, c.overlapped, host)
    else:
        step = max(w.compute + comm, host)
    cpu_opt = cpu_optimizer_seconds(arch, planned, build)  # after the backward, before the next forward can start
    if cpu_opt:
        step += cpu_opt
        host += cpu_opt  # (the host's share of the step, for the bottleneck)
        kind = "DeepSpeed's CPU-Adam" if planned.parallel in DEEPSPEED_OFFLOAD else "PyTorch's fused AdamW on the CPU"
        rate, whence = host_gb_per_s(build)
        notes.append(f"optimizer step on the CPU ({kind}): {cpu_opt:.2f} s a step, each trained weight, its gradient "
                     f"and its two moments streamed through host RAM at {rate:.0f} GB/s ({whence})")
    tokens = w.micro_tokens * planned.grad_accum_steps * sp.replicas
    bottleneck = _bottleneck(w, comm, host)
    if bottleneck is Bottleneck.INTERCONNECT:
        notes.append(f"the step waits on GPU-to-GPU traffic: {bound_link_words(r, c)} bounds it")
    _closing_notes(planned, r, w, overlapped, notes)
    return SpeedEstimate(train_tokens_per_s=tokens / step, step_time_s=step,
                         interconnect_share=min(1.0, comm / step), bottleneck=bottleneck,
                         comm_link=bound_link_words(r, c) if comm > 0 else "", notes=tuple(notes))


def _gpu_work(arch: ModelArch, planned: PlannedJob, r: Run, sp: Split, peaks: tuple[float, ...],
              bws: tuple[float, ...], notes: list[str]) -> _GpuWork:
    """The micro-batches' FLOPs and dequantizing reads at each GPU's achieved rate, and the optimizer step."""
    # Preference objectives put chosen and rejected sequences through the model: tokens counted
    # are those of both (a pair of seq_len-token sequences is 2 × seq_len tokens).
    micro_tokens = planned.batch * planned.seq_len * sequences_per_example(planned)
    m = planned.grad_accum_steps
    ref_fwd = reference_forward_flops_per_token(arch, planned)
    flops = micro_tokens * (train_flops_per_token(arch, planned) + ref_fwd)
    if planned.objective.paired:
        notes.append(f"{choice_label('objective', planned.objective)}: tokens/s counts chosen and rejected tokens "
                     f"({planned.batch} pairs = {planned.batch * sequences_per_example(planned)} sequences per "
                     "micro-batch)"
                     + ("; plus a forward of the reference model (≈ +1/3 of full fine-tuning's 6N FLOPs: "
                        "2N per token, TRL DPOTrainer compute_ref_log_probs)" if ref_fwd else ""))
    dequant = 0.0
    if planned.method is Method.QLORA:
        passes = 3 if planned.checkpointing is Checkpointing.FULL else 2
        dequant = passes * count_params(arch).linear * QLORA_DEQUANT_BYTES_PER_WEIGHT
    speedup = TRAIN_COMPILE_SPEEDUP if planned.compile else 1.0
    # Achieved FLOP/s of each GPU: its peak × its generation's MFU (× torch.compile's speed-up).
    framework = training_loop(planned.framework).value  # Axolotl runs the HF Trainer's loop: its share
    shares = tuple(train_mfu(g, framework) * speedup for g in r.build.gpus[:len(peaks)])
    rate = min(p * u for p, u in zip(peaks, shares, strict=True))
    slowest = min(range(len(shares)), key=shares.__getitem__)
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
    return _GpuWork(compute, flops, rate, dequant, min(bws), shares[slowest] / speedup, slowest, micro_tokens)


def _bottleneck(w: _GpuWork, comm: float, host: float) -> Bottleneck:
    if host >= max(w.compute, comm) and host > 0:
        return Bottleneck.HOST_OFFLOAD
    if comm > w.compute:
        return Bottleneck.INTERCONNECT
    if w.dequant and w.dequant / (w.least_bw * DECODE_BANDWIDTH_EFFICIENCY) > w.flops / w.rate:
        return Bottleneck.MEMORY_BANDWIDTH
    return Bottleneck.COMPUTE


def _closing_notes(planned: PlannedJob, r: Run, w: _GpuWork, overlapped: bool, notes: list[str]) -> None:
    """The MFU taken, the overlap assumed and the machines' network."""
    notes.append(f"training at {w.mfu:.0%} model-FLOPs utilisation "
                 f"({train_mfu_source(r.build.gpus[w.slowest], training_loop(planned.framework).value)})"
                 + (_COMPILE_NOTE if planned.compile else ""))
    if overlapped and planned.n_gpus > 1:
        notes.append("gradient/parameter traffic assumed to overlap compute fully (DDP buckets, FSDP prefetch)")
    if r.machines > 1 and r.across is not None:
        notes.append(f"{r.machines} machines joined by {r.across.kind.value} ({r.across.description}): collectives run "
                     f"inside each machine, then across (hierarchical); the network taken at "
                     f"{INTER_NODE_EFFICIENCY:.0%} of its rate, measured for EFA and assumed for other networks "
                     f"({INTER_NODE_SOURCE})")


def sequences_per_example(job: Job) -> int:
    """2 for DPO, ORPO and reward modelling (a chosen and a rejected sequence: TRL's
    ``concatenated_forward`` runs both in one batch; see ``advisor.core.memory.objectives``), 1 for SFT."""
    return 2 if job.objective.paired else 1


def reference_forward_flops_per_token(arch: ModelArch, job: Job) -> float:
    """DPO's reference forward: the frozen reference (a copy, or the base with adapters
    disabled) scores chosen and rejected sequences under ``torch.no_grad`` every step unless its
    log-probabilities were precomputed — one forward, 2N + attention per token (Kaplan et al.
    2020 Table 1), i.e. ≈ 1/3 more than full fine-tuning's 6N (TRL ``DPOTrainer.compute_ref_log_probs``;
    DPO: Rafailov et al. 2023, arXiv:2305.18290 §4: π_ref's log-probabilities of both)."""
    if job.objective is not Objective.DPO or job.precompute_ref:
        return 0.0
    return 2 * matmul_params(arch) + attention_flops_per_token(arch, job.seq_len / 2)
