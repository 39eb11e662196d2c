"""How one estimate divides the model over its GPUs, and what it looks up once per estimate.

``Split`` is the layout (tensor-parallel degree × pipeline stages × independent replicas);
``Run`` holds each GPU's peak bandwidth and FLOP/s (``advisor.core.speed.flops``), the links
between them (``advisor.core.hardware.interconnect``) and the model's matmul FLOPs per token, so
the decode, prefill and training models share one lookup.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.hardware.interconnect import Link, bottleneck_link, collective_time_over, link
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.workload import Parallel, Workload
from advisor.core.model.arch import ModelArch
from advisor.core.speed.flops import bandwidth_bytes_per_s, matmul_params, peak_flops

ACT_BYTES = 2  # activations exchanged between GPUs are bf16/fp16
DATA_PARALLEL = (Parallel.DDP, Parallel.ZERO1, Parallel.ZERO2, Parallel.ZERO3, Parallel.FSDP,
                 Parallel.FSDP_GRAD_OP, Parallel.FSDP_NO_SHARD)
STAGES = (Parallel.PP, Parallel.LAYER_SPLIT)
LAYER_SPLIT_NOTE = ("layer split: the GPUs take turns on every token, so the extra GPU adds memory "
                    "(capacity), not speed")


@dataclass(frozen=True)
class Split:
    """How the workload's GPUs divide the model: tp × stages × replicas = n."""

    tp: int = 1
    stages: int = 1
    replicas: int = 1


def split_of(workload: Workload) -> Split:
    n = workload.n_gpus
    if n <= 1:
        return Split()
    if workload.parallel is Parallel.TP:
        return Split(tp=n)
    if workload.parallel in STAGES:
        return Split(stages=n)
    return Split(replicas=n)


@dataclass(frozen=True)
class Run:
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


def run_of(arch: ModelArch, w: Workload, build: ResolvedBuild) -> Run:
    gpus = build.gpus[: w.n_gpus]
    hop = link(build, 0, 1) if len(gpus) > 1 else None
    ring = bottleneck_link(build, len(gpus)) if len(gpus) > 2 else hop  # a 2-GPU ring is that one hop
    return Run(build=build, bws=tuple(bandwidth_bytes_per_s(g) for g in gpus),
                peaks=tuple(peak_flops(g, w) for g in gpus), ring=ring, hop=hop, two_n=2 * matmul_params(arch))
