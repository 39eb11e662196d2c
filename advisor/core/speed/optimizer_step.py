"""The optimizer step on the GPU: the bytes each trained parameter's update moves, and its time."""

from __future__ import annotations

from functools import lru_cache

from advisor.core.job.choices import Offload, Optimizer, Parallel, Precision
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.states import master_bytes_per_param, optimizer_bytes_per_param, param_bytes
from advisor.core.model.arch import ModelArch
from advisor.core.speed.flops import DECODE_BANDWIDTH_EFFICIENCY, trainable_params
from advisor.core.speed.layout import Split

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


def optimizer_step_seconds(arch: ModelArch, planned: PlannedJob, sp: Split, bandwidth: float) -> float:
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
