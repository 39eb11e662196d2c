"""Model states per GPU under data-parallel sharding, and the allocator's and NCCL's overheads.

Sharding follows ZeRO (Rajbhandari et al. 2020, arXiv:1910.02054 §5, Fig. 1): with Ψ
parameters, K optimizer bytes per parameter and N data-parallel GPUs, per GPU
DDP (2 + 2 + K)Ψ; ZeRO-1 (P_os) 2Ψ + 2Ψ + KΨ/N; ZeRO-2 (P_os+g) 2Ψ + (2 + K)Ψ/N;
ZeRO-3 (P_os+g+p) (2 + 2 + K)Ψ/N. PyTorch FSDP FULL_SHARD = ZeRO-3, SHARD_GRAD_OP = ZeRO-2,
NO_SHARD = DDP (PyTorch FSDP docs, ``ShardingStrategy``).
"""

from __future__ import annotations

from advisor.core.job.choices import Parallel, Precision
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.inference import _split, largest_linear_params
from advisor.core.memory.states import param_bytes, state_bytes
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params
from advisor.core.units import MIB

# (weights, gradients, optimizer) divided by the data-parallel degree, per scheme.
SHARDED = {
    Parallel.ZERO1: (False, False, True),
    Parallel.ZERO2: (False, True, True),
    Parallel.FSDP_GRAD_OP: (False, True, True),
    Parallel.ZERO3: (True, True, True),
    Parallel.FSDP: (True, True, True),
}
GATHERED_LAYERS = 2  # ZeRO-3/FSDP: the layer being computed + the one prefetched (FSDP backward_prefetch)
#: PyTorch's caching allocator reserves more than it allocates (blocks rounded to 512 B / 2 MiB
#: segments, freed blocks kept for reuse, per-stream pools; PyTorch "CUDA semantics: memory
#: management"). Reserved/allocated at the peak in published runs that log both (torchtune's
#: ``log_memory_stats``: peak_memory_reserved vs peak_memory_alloc; see tests/data) is about
#: 1.05 on one stream and more with FSDP/DeepSpeed communication streams; expandable segments
#: (PYTORCH_CUDA_ALLOC_CONF) leave little slack.
RESERVE_SINGLE_STREAM = 1.05
RESERVE_MULTI_STREAM = 1.12
RESERVE_EXPANDABLE = 1.02
#: NCCL communicator buffers per GPU: NCCL_BUFFSIZE 4 MiB per channel and peer (NCCL docs,
#: "Environment Variables"), a few channels each way for a ring: ~ 100-200 MiB seen in
#: nvidia-smi; 128 MiB counted.
NCCL_BYTES_PER_GPU = 128 * MIB


def zero_states_per_gpu_bytes(n_params: float, k_bytes: float, n_gpus: int, parallel: Parallel) -> float:
    """ZeRO §5 per-GPU model states with 2-byte params and grads: (2 + 2 + K)Ψ, sharded per stage."""
    w_s, g_s, o_s = SHARDED.get(parallel, (False, False, False))
    return n_params * (2 / (n_gpus if w_s else 1) + 2 / (n_gpus if g_s else 1) + k_bytes / (n_gpus if o_s else 1))

def layer_params(arch: ModelArch) -> float:
    c = count_params(arch)
    return (c.total - c.embedding - c.lm_head) / arch.n_layers


def degrees(planned: PlannedJob) -> tuple[int, int, int, int]:
    """(tensor-parallel, pipeline stages, context-parallel, data-parallel) degrees of the job."""
    tp, stages = _split(planned)
    if planned.parallel in SHARDED or planned.parallel in (Parallel.DDP, Parallel.FSDP_NO_SHARD):
        tp, cp = planned.tp, planned.cp  # 2-D / 3-D FSDP × TP × CP (torchtitan): the rest of the GPUs is data parallel
        return tp, 1, cp, max(1, planned.n_gpus // (tp * cp))
    return tp, stages, 1, planned.n_gpus

def reserve_factor(planned: PlannedJob) -> tuple[float, str]:
    """The caching allocator's reserve over its allocated peak, and its source (see constants)."""
    if planned.expandable_segments:
        return RESERVE_EXPANDABLE, "expandable segments"
    if planned.parallel in (*SHARDED, Parallel.DDP) and planned.n_gpus > 1:
        return RESERVE_MULTI_STREAM, "sharded/communicating job (several CUDA streams)"
    return RESERVE_SINGLE_STREAM, "one stream"

def optim_states_only(trainable: float, job: Job) -> float:
    """Bytes of one AdamW state (exp_avg_sq) for ``trainable`` parameters: the size of the
    ``torch._foreach_sqrt`` temporary in torch.optim.AdamW's multi-tensor step
    (torch/optim/adamw.py ``_multi_tensor_adamw``; torch.optim docs: foreach trades peak
    memory for speed). PEFT adapters' states are fp32 under AMP."""
    return trainable * state_bytes(job.precision)


def optimizer_in_backward_grad_bytes(arch: ModelArch, precision: Precision) -> float:
    """Gradient memory when each parameter's optimizer step runs inside backward (torchtune
    ``optimizer_in_bwd=True``; PyTorch tutorial "How to save memory by fusing the optimizer
    step into the backward pass": ``register_post_accumulate_grad_hook`` steps and frees each
    gradient as soon as it is accumulated). At most about one tensor's gradient is alive: the
    largest of the embedding, the lm_head and the block matrices."""
    counts = count_params(arch)
    largest = max(counts.embedding, counts.lm_head, largest_linear_params(arch))
    return largest * param_bytes(precision)

