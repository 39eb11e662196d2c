"""How one estimate divides the model over its GPUs, and what it looks up once per estimate.

``Split`` is the layout (tensor-parallel degree × pipeline stages × independent replicas);
``Run`` holds each GPU's peak bandwidth and FLOP/s (``advisor.core.speed.flops``), the links
between them (``advisor.core.hardware.interconnect``) and the model's matmul FLOPs per token, so
the decode, prefill and training models share one lookup.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.hardware.allreduce import (
    CUSTOM_ALL_REDUCE_GPUS,
    CUSTOM_ALL_REDUCE_MAX_BYTES,
    custom_all_reduce_seconds,
)
from advisor.core.hardware.interconnect import (
    GPU_FABRIC,
    PEER_ACCESS,
    Collective,
    Link,
    LinkKind,
    bottleneck_link,
    collective_time_over,
    hierarchical_parts,
    hierarchical_time_over,
    link,
    node_link,
)
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Engine, Parallel
from advisor.core.job.planned import PlannedJob
from advisor.core.memo import HeldById
from advisor.core.model.arch import ModelArch
from advisor.core.speed.flops import bandwidth_bytes_per_s, matmul_params, peak_flops

ACT_BYTES = 2  # activations exchanged between GPUs are bf16/fp16

DATA_PARALLEL = (Parallel.DDP, Parallel.ZERO1, Parallel.ZERO2, Parallel.ZERO3, Parallel.FSDP,
                 Parallel.FSDP_GRAD_OP, Parallel.FSDP_NO_SHARD)
STAGES = (Parallel.PP, Parallel.LAYER_SPLIT)
LAYER_SPLIT_NOTE = ("layer split: the GPUs take turns on every token, so the extra GPU adds memory "
                    "(capacity), not speed")


#: Engines whose implementation of these model families adds the attention and MLP outputs of a
#: side-by-side layer (``ModelArch.side_by_side``) and all-reduces the sum once, where Megatron's
#: layer all-reduces after the attention and again after the MLP:
#: TensorRT-LLM tensorrt_llm/models/falcon/model.py (``FalconDecoderLayer``: ``tp_group = None`` for
#: the attention and the MLP, "allreduce applies after those layer"; in all three stored versions
#: that have it — one with constructor arguments, one built from a ``PretrainedConfig`` (the 0.9 era of
#: ``trtllm-build``), and 585c7565 with its own ``FalconConfig`` — while the stored version at 027cd518,
#: older than all three, reduced twice);
#: vLLM vllm/model_executor/models/falcon.py (``reduce_row_parallel_results = not
#: (new_decoder_architecture or parallel_attn)``, "only one all-reduce", at 7477b4f8).
#: Not other families: vLLM's phi.py reduces in both ``RowParallelLinear`` (``dense``, ``fc2``;
#: ``reduce_results`` left at its default, at 4652ef5d).
ONE_ALL_REDUCE_FAMILIES: dict[Engine, frozenset[str]] = {
    Engine.TENSORRT_LLM: frozenset({"falcon", "RefinedWeb", "RefinedWebModel"}),
    Engine.VLLM: frozenset({"falcon", "RefinedWeb", "RefinedWebModel"}),
}


def tp_all_reduces_per_layer(arch: ModelArch, engine: Engine) -> int:
    """All-reduces of a layer's activations in one tensor-parallel forward pass: one where the
    engine reduces a side-by-side layer's sum (``ONE_ALL_REDUCE_FAMILIES``), else two (Megatron,
    Shoeybi et al. 2019 arXiv:1909.08053 §3: after the attention's and the MLP's row-parallel GEMMs)."""
    return 1 if arch.side_by_side and arch.family in ONE_ALL_REDUCE_FAMILIES.get(engine, ()) else 2


#: Engines that all-reduce a tensor-parallel layer's output with their own one-shot kernel instead of NCCL, and the
#: links each needs between every pair of the GPUs (``allreduce`` module docstring): vLLM's ``CustomAllreduce``
#: (vllm/distributed/device_communicators/custom_all_reduce.py at 00d618aa: peer access for two GPUs, NVLink between
#: every pair for more) and SGLang's copy of it (python/sglang/srt/distributed/device_communicators/
#: custom_all_reduce.py, the same checks); TensorRT-LLM's ``AllreducePlugin`` only over NVLink (its automatic choice,
#: ``selectImplementation`` in cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp at 005b299b, falls back to
#: NCCL without peer access or NVLink).
ONE_SHOT_ALL_REDUCE: dict[Engine, tuple[frozenset[LinkKind], frozenset[LinkKind]]] = {
    Engine.VLLM: (PEER_ACCESS, GPU_FABRIC), Engine.SGLANG: (PEER_ACCESS, GPU_FABRIC),
    Engine.TENSORRT_LLM: (GPU_FABRIC, GPU_FABRIC),
}


#: (the build, GPUs) -> the kinds of link between every pair of them: a plan search builds a ``Run`` for every plan it
#: times, so the pairs' links are looked up once per build (as ``interconnect.bottleneck_link``'s ring is).
_PAIR_KINDS: HeldById[frozenset[LinkKind]] = HeldById(256)


def pair_kinds(build: ResolvedBuild, n_gpus: int) -> frozenset[LinkKind]:
    """The kinds of link joining each pair of the first ``n_gpus`` GPUs of ``build`` (one machine)."""
    got = _PAIR_KINDS.get((build,), n_gpus)
    if got is not None:
        return got
    kinds = frozenset(link(build, i, j).kind for i in range(n_gpus) for j in range(i + 1, n_gpus))
    return _PAIR_KINDS.put((build,), n_gpus, kinds)


def one_shot_all_reduce(engine: Engine, build: ResolvedBuild, n_gpus: int) -> bool:
    """Whether ``engine`` reduces over the first ``n_gpus`` GPUs of ``build`` with its own kernel
    (``ONE_SHOT_ALL_REDUCE``): 2, 4, 6 or 8 GPUs in one machine, every pair joined by a link it takes."""
    rule = ONE_SHOT_ALL_REDUCE.get(engine)
    if rule is None or n_gpus not in CUSTOM_ALL_REDUCE_GPUS or n_gpus > build.gpus_per_node:
        return False
    return pair_kinds(build, n_gpus) <= (rule[0] if n_gpus == 2 else rule[1])


@dataclass(frozen=True)
class Split:
    """How the workload's GPUs divide the model: tp × stages × replicas = n."""

    tp: int = 1
    stages: int = 1
    replicas: int = 1


def split_of(planned: PlannedJob) -> Split:
    """The layout of the job's GPUs. Data parallel with ``tp`` > 1 is 2-D FSDP × TP (torchtitan):
    groups of ``tp`` GPUs split every layer, ``n / tp`` such groups are the data-parallel replicas."""
    n = planned.n_gpus
    if n <= 1:
        return Split()
    if planned.parallel is Parallel.TP:
        return Split(tp=n)
    if planned.parallel in STAGES:
        return Split(stages=n)
    tp = planned.tp
    if tp > 1 and n % tp == 0:
        return Split(tp=tp, replicas=n // tp)
    return Split(replicas=n)


@dataclass(frozen=True)
class Run:
    """What every part of one estimate needs, looked up once: the GPUs used, their achieved
    bandwidth and FLOP/s, the links, and the model's per-token matmul FLOPs."""

    build: ResolvedBuild
    bws: tuple[float | None, ...]
    peaks: tuple[float | None, ...]
    ring: Link | None  # slowest hop of the ring over the GPUs used (inside one machine)
    hop: Link | None  # GPU 0 → GPU 1, for pipeline hand-offs
    two_n: float  # 2 × matmul weights: forward FLOPs per token without attention
    across: Link | None = None  # one machine's network adapters, when the GPUs used span machines
    per_node: int = 1 << 30  # GPUs per machine
    one_shot: bool = False  # the engine all-reduces over the GPUs used with its own kernel (``one_shot_all_reduce``)

    @property
    def machines(self) -> int:
        """Machines the GPUs used span."""
        return -(-len(self.peaks) // self.per_node)

    @property
    def unlinked(self) -> bool:
        """The GPUs used span machines that no network adapter joins: speed unknown."""
        return self.machines > 1 and self.across is None

    def known_bws(self) -> tuple[float, ...] | None:
        """Each GPU's achieved bandwidth, or None when one of them is not in the catalog."""
        return all_known(self.bws)

    def known_peaks(self) -> tuple[float, ...] | None:
        """Each GPU's achieved FLOP/s, or None when one of them is not in the catalog."""
        return all_known(self.peaks)

    def coll(self, op: Collective, n_bytes: float, n: int, per_node: int | None = None) -> float:
        """One collective over ``n`` GPUs, ``per_node`` of them in each machine (default: the
        machine's GPUs); hierarchical once they span machines."""
        g = self.per_node if per_node is None else per_node
        if n > g and self.across is not None:
            return hierarchical_time_over(self.ring, self.across, op, n_bytes, n, g)
        lk = self.hop if op == "send" else self.ring
        return 0.0 if lk is None else collective_time_over(lk, op, n_bytes, n)

    def coll_parts(self, op: Collective, n_bytes: float, n: int, per_node: int | None = None) -> tuple[float, float]:
        """(seconds inside machines, seconds across them) of ``coll``: which link bounds it."""
        g = self.per_node if per_node is None else per_node
        if n > g and self.across is not None:
            return hierarchical_parts(self.ring, self.across, op, n_bytes, n, g)
        return self.coll(op, n_bytes, n, per_node), 0.0

    def tp_all_reduces(self, arch: ModelArch, engine: Engine, n_bytes: float, tp: int) -> float:
        """Seconds of one forward pass's tensor-parallel all-reduces over ``tp`` GPUs:
        ``tp_all_reduces_per_layer`` a layer, each of ``n_bytes`` (0 without tensor parallel): the engine's own
        kernel where it takes these GPUs and this size (``one_shot``), else NCCL."""
        if tp < 2:
            return 0.0
        ring = self.ring if self.own_all_reduce(tp, n_bytes) else None
        each = (custom_all_reduce_seconds(tp, n_bytes, ring.duplex_gb_per_s) if ring is not None
                else self.coll("all_reduce", n_bytes, tp))
        return tp_all_reduces_per_layer(arch, engine) * arch.n_layers * each

    def own_all_reduce(self, tp: int, n_bytes: float) -> bool:
        """Whether an all-reduce of ``n_bytes`` over all ``tp`` GPUs used goes by the engine's own kernel
        (``one_shot``, and an input under its limit) rather than NCCL."""
        return (self.one_shot and self.ring is not None and tp == len(self.peaks)
                and n_bytes < CUSTOM_ALL_REDUCE_MAX_BYTES)

    def sends(self, n_bytes: float, stages: int) -> tuple[float, float]:
        """(inside, across) seconds of one hand-off at each of ``stages - 1`` stage boundaries:
        stages fill machines in order, so ``machines - 1`` boundaries cross the network."""
        if stages < 2:
            return 0.0, 0.0
        nic = self.across
        crossing = min(stages - 1, self.machines - 1) if nic is not None else 0
        inside = (stages - 1 - crossing) * self.coll("send", n_bytes, 2)
        across = crossing * hierarchical_parts(None, nic, "send", n_bytes, 2 * self.per_node,
                                               self.per_node)[1] if crossing and nic is not None else 0.0
        return inside, across


def all_known(values: tuple[float | None, ...]) -> tuple[float, ...] | None:
    """``values`` when none of them is None (a figure the catalog lacks), else None."""
    known = tuple(v for v in values if v is not None)
    return known if len(known) == len(values) else None


def run_of(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild) -> Run:
    """What an estimate of ``planned`` on ``build`` looks up once (``Run``)."""
    gpus = build.gpus[: planned.n_gpus]
    g = build.gpus_per_node
    local = min(len(gpus), g)
    hop = link(build, 0, 1) if local > 1 else None
    ring = bottleneck_link(build, local) if local > 2 else hop  # a 2-GPU ring is that one hop
    across = node_link(build) if len(gpus) > g else None
    return Run(build=build, bws=tuple(bandwidth_bytes_per_s(g) for g in gpus),
               peaks=tuple(peak_flops(g, planned) for g in gpus), ring=ring, hop=hop, two_n=2 * matmul_params(arch),
               across=across, per_node=g,
               one_shot=planned.custom_all_reduce and one_shot_all_reduce(planned.engine, build, len(gpus)))
