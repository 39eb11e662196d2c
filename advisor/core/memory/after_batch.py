"""A training estimate's part after the activations that does not read them: buffers, the optimizer
step's temporary, offload to host RAM or NVMe, paged optimizer states, gradients held across micro-batches.

CPU offload (ZeRO-Offload, Ren et al. 2021 arXiv:2101.06840) moves optimizer states (with the fp32
master) to host RAM; parameter offload (ZeRO-Infinity / FSDP CPUOffload) keeps only the gathered
layers on GPU.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from advisor.core.job.choices import Offload, Optimizer, Parallel
from advisor.core.job.frameworks import FRAMEWORK_NAMES, PROFILES
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.before_batch import BeforeBatch
from advisor.core.memory.sharding import GATHERED_LAYERS, layer_params, optim_states_only
from advisor.core.memory.states import param_bytes
from advisor.core.memory.train_buffers import base_bytes, comm_buffers, forward_buffers, whole_after_forward


@dataclass(frozen=True, slots=True)
class AfterBatch:
    """What a training estimate works out after the activations without reading them: buffers, the
    optimizer step's temporary, offload (what it moves to host RAM, in order, as ``host_adds``)."""

    weights: float
    reference: float
    grads: float
    optim: float
    during: float
    comm: float
    step_temp: float
    held_grads: float
    disk: float
    paged: float
    host_adds: tuple[float, ...]
    head_grad: float = 0.0  # the lm_head's whole gradient at the backward's start (FSDP root: ``whole_after_forward``)
    buckets: float = 0.0  # DDP's gradient buckets or Horovod's fusion buffer: allocated once, alive in every phase


def after_batch(planned: PlannedJob, b: BeforeBatch, notes: list[str] | None) -> AfterBatch:
    """``estimate_training``'s part between the logits and the phases; its words go to ``notes``."""
    if notes is not None and b.stages > 1:
        notes.append("pipeline: first-stage activations and last-stage logits counted on one GPU (upper bound)")
    during = forward_buffers(b.arch, planned, b.tp, notes)  # alive through forward and backward
    root, head_grad = whole_after_forward(b.arch, planned, b.tp, b.gdiv, notes)
    during += root
    buckets = comm_buffers(planned, b.grads, notes)  # the reducer's own buffers, kept from step to step
    step_temp = 0.0
    if planned.foreach_adamw and Offload.OPTIMIZER not in planned.offload and not planned.optimizer_in_backward:
        step_temp = optim_states_only(b.trainable, planned) * b.model_share / b.odiv
        if notes is not None:
            notes.append("optimizer step: torch AdamW (foreach) allocates a state-sized sqrt(v) temporary")
    a = AfterBatch(b.weights, b.reference, b.grads, b.optim, during, 0.0, step_temp, 0.0, 0.0, 0.0, (), head_grad,
                   buckets)
    if Offload.OPTIMIZER in planned.offload:
        a = _optimizer_offloaded(planned, b, a, notes)
    if Offload.PARAMS in planned.offload:
        a = _params_offloaded(planned, b, a, notes)
    # bitsandbytes' paged optimizers keep their states in CUDA managed memory, outside PyTorch's caching
    # allocator: bitsandbytes/functional.py ``get_paged`` -> ``lib.cget_managed_ptr`` (bitsandbytes-foundation/
    # bitsandbytes at 8b3c0f35).
    paged = a.optim if planned.optimizer in (Optimizer.PAGED_ADAMW, Optimizer.PAGED_ADAMW_8BIT) else 0.0
    if notes is not None and paged:
        notes.append("paged optimizer: states counted in what the GPU needs, in CUDA unified memory, so not in the "
                     "allocated or reserved figures (torch.cuda.max_memory_allocated never sees them); under "
                     "memory pressure they page to host RAM")
    return replace(a, paged=paged, held_grads=_held_grads(planned, b, a.grads, notes))


def _optimizer_offloaded(planned: PlannedJob, b: BeforeBatch, a: AfterBatch, notes: list[str] | None) -> AfterBatch:
    """ZeRO-Offload (Ren et al. 2021 §4.1) keeps fp16 params on the GPU and moves the reduced gradients
    and the optimizer step (states + fp32 master) to the CPU; the GPU holds one layer's gradients in
    flight (FSDP reduces per wrapped block, DeepSpeed per bucket)."""
    nvme = Offload.NVME in planned.offload
    disk, host_adds = a.disk, list(a.host_adds)
    if nvme:
        disk = disk + a.optim * planned.n_gpus
        host_adds.append(a.grads * planned.n_gpus)
    else:
        host_adds.append((a.optim + a.grads) * planned.n_gpus)
    bucket = layer_params(b.arch) * param_bytes(planned.precision) * b.model_share / b.tp if not b.lora else a.grads
    if notes is not None:
        notes.append("optimizer states, fp32 master and gradients offloaded to "
                     + ("NVMe (ZeRO-Infinity, arXiv:2104.07857; gradients staged in host RAM)" if nvme
                        else "host RAM (ZeRO-Offload)") + "; one layer's gradients in flight on the GPU")
    return replace(a, comm=a.comm + min(a.grads, bucket), disk=disk, host_adds=tuple(host_adds),
                   optim=0.0, grads=0.0, step_temp=0.0)


def _params_offloaded(planned: PlannedJob, b: BeforeBatch, a: AfterBatch, notes: list[str] | None) -> AfterBatch:
    """Parameter offload (ZeRO-Infinity / FSDP CPUOffload): the GPU keeps the gathered layers only."""
    nvme = Offload.NVME in planned.offload
    moved = (a.weights + b.adapters + a.reference) * planned.n_gpus
    disk, host_adds = (a.disk + moved, a.host_adds) if nvme else (a.disk, (*a.host_adds, moved))
    gathered_in_buffers = planned.parallel in (Parallel.ZERO3, Parallel.FSDP)
    weights = 0.0 if gathered_in_buffers else GATHERED_LAYERS * layer_params(b.arch) * base_bytes(b.arch, planned) / b.tp
    if notes is not None:
        notes.append("parameters offloaded to " + ("NVMe" if nvme else "host")
                     + "; GPU keeps the gathered layers only")
        if not gathered_in_buffers:
            notes.append("parameter offload needs ZeRO-3 or FSDP full-shard in practice")
    return replace(a, weights=weights, reference=0.0, disk=disk, host_adds=host_adds)


def _held_grads(planned: PlannedJob, b: BeforeBatch, grads: float, notes: list[str] | None) -> float:
    """Gradients alive through the forward pass: those accumulated across micro-batches."""
    if planned.grad_accum_steps <= 1:
        return 0.0
    if b.fsdp1 and PROFILES[planned.framework].accumulate_unsharded:
        if notes is not None:
            notes.append(f"{FRAMEWORK_NAMES[planned.framework]}: gradient accumulation under FSDP's no_sync keeps the "
                         "unsharded gradients until the last micro-batch (FSDP_NO_SYNC)")
        return grads * b.gdiv  # FSDP no_sync: whole gradients until the synchronizing micro-batch
    return grads
