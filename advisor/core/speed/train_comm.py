"""GPU-to-GPU traffic of one training step, scheme by scheme.

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
  per micro-batch;
* FSDP × TP (``tp`` > 1 with a data-parallel scheme; torchtitan 2-D): the TP all-reduces inside
  each group of ``tp`` GPUs, the data-parallel collectives of a 1/tp shard over ``n / tp`` replicas.
Across machines every collective runs hierarchically, inside each machine and then over the
network adapters (``advisor.core.hardware.interconnect.hierarchical_time_over``); a pipeline
boundary between machines hands off over one GPU's share of the adapters.
"""

from __future__ import annotations

from advisor.core.hardware.interconnect import Collective
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Checkpointing, Parallel
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.inference import weights_bytes
from advisor.core.memory.states import param_bytes
from advisor.core.model.arch import ModelArch
from advisor.core.speed.flops import trainable_params
from advisor.core.speed.layout import ACT_BYTES, DATA_PARALLEL, Run, Split, run_of


class TrainComm:
    """Seconds of GPU-to-GPU traffic per step, kept apart: exposed (TP, pipeline: not overlapped)
    and overlapped (data parallel), and for each the time inside machines and across them."""

    def __init__(self, r: Run) -> None:
        self.r = r
        self.exposed = self.overlapped = 0.0
        self.inside = self.across = 0.0

    def add(self, times: float, op: Collective, n_bytes: float, n: int, per_node: int | None = None, *,
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


def train_comm(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild, sp: Split, r: Run | None = None) -> TrainComm:
    """GPU-to-GPU traffic of one optimizer step (see module docstring for each scheme). Across
    machines every collective is hierarchical (``advisor.core.hardware.interconnect``). With
    FSDP × TP the TP groups sit inside a machine and the data-parallel collectives of each
    group's 1/tp shard run over the ``n / tp`` replicas, ``per-machine GPUs / tp`` in each."""
    r = r or run_of(arch, planned, build)
    c = TrainComm(r)
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


def train_comm_per_step(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild, sp: Split, r: Run | None = None) -> float:
    """GPU-to-GPU seconds per optimizer step (see module docstring for each scheme)."""
    return train_comm(arch, planned, build, sp, r).total


def bound_link_words(r: Run, c: TrainComm) -> str:
    """The link that bounds the traffic, in words: "the InfiniBand link between the machines
    (8× NVIDIA ConnectX-7 …)" or "NVSwitch inside the machine"."""
    if c.across > c.inside and r.across is not None:
        return f"the {r.across.kind.value} link between the {r.machines} machines ({r.across.description})"
    lk = r.ring or r.hop
    return f"{lk.kind.value} inside the machine" if lk is not None else "the GPU link"
