"""Training memory of the busiest GPU: model states, their sharding, activations, buffers, offload.

Sharding follows ZeRO (Rajbhandari et al. 2020, arXiv:1910.02054 §5, Fig. 1): with Ψ
parameters, K optimizer bytes per parameter and N data-parallel GPUs, per GPU
DDP (2 + 2 + K)Ψ; ZeRO-1 (P_os) 2Ψ + 2Ψ + KΨ/N; ZeRO-2 (P_os+g) 2Ψ + (2 + K)Ψ/N;
ZeRO-3 (P_os+g+p) (2 + 2 + K)Ψ/N. PyTorch FSDP FULL_SHARD = ZeRO-3, SHARD_GRAD_OP = ZeRO-2,
NO_SHARD = DDP (PyTorch FSDP docs, ``ShardingStrategy``). Tensor parallelism (Megatron-LM,
Shoeybi et al. 2019 arXiv:1909.08053) splits every weight matrix, hence states, by t;
pipeline parallelism splits layers; with the 1F1B schedule the first stage holds up to p
micro-batches of activations (Korthikanti et al. 2022 §4.2.3). CPU offload (ZeRO-Offload,
Ren et al. 2021 arXiv:2101.06840) moves optimizer states (with the fp32 master) to host RAM;
parameter offload (ZeRO-Infinity / FSDP CPUOffload) keeps only the gathered layers on GPU.
"""

from __future__ import annotations

from advisor.core.job.workload import Method, Offload, Optimizer, Parallel, Precision, Workload
from advisor.core.memory.activations import (
    FULL_TRAINING,
    layers_per_stage,
    lora_saved_inputs,
    train_activation_bytes,
    train_logits_bytes,
)
from advisor.core.memory.inference import (
    CUDA_CONTEXT_BYTES,
    _split,
    base_format_name,
    largest_linear_params,
    per_gpu_weights,
    weights_bytes,
)
from advisor.core.memory.results import MemoryBreakdown, MemoryResult
from advisor.core.memory.states import adapter_states_bytes, full_states_bytes, param_bytes, state_bytes
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params, lora_params
from advisor.core.units import MIB

# (weights, gradients, optimizer) divided by the data-parallel degree, per scheme.
_SHARDED = {
    Parallel.ZERO1: (False, False, True),
    Parallel.ZERO2: (False, True, True),
    Parallel.FSDP_GRAD_OP: (False, True, True),
    Parallel.ZERO3: (True, True, True),
    Parallel.FSDP: (True, True, True),
}
GATHERED_LAYERS = 2  # ZeRO-3/FSDP: the layer being computed + the one prefetched (FSDP backward_prefetch)


def zero_states_per_gpu_bytes(n_params: float, k_bytes: float, n_gpus: int, parallel: Parallel) -> float:
    """ZeRO §5 per-GPU model states with 2-byte params and grads: (2 + 2 + K)Ψ, sharded per stage."""
    w_s, g_s, o_s = _SHARDED.get(parallel, (False, False, False))
    return n_params * (2 / (n_gpus if w_s else 1) + 2 / (n_gpus if g_s else 1) + k_bytes / (n_gpus if o_s else 1))


def _dp_factors(w: Workload) -> tuple[int, int, int]:
    w_s, g_s, o_s = _SHARDED.get(w.parallel, (False, False, False))
    n = w.n_gpus
    return (n if w_s else 1), (n if g_s else 1), (n if o_s else 1)


def _layer_params(arch: ModelArch) -> float:
    c = count_params(arch)
    return (c.total - c.embedding - c.lm_head) / arch.n_layers


def estimate_training(arch: ModelArch, w: Workload) -> MemoryResult:
    notes: list[str] = []
    counts = count_params(arch)
    tp, stages = _split(w)
    model_share = per_gpu_weights(arch, counts.total, tp, stages) / counts.total
    wdiv, gdiv, odiv = _dp_factors(w)
    lora = w.method is not Method.FULL
    if lora:
        trainable = float(lora_params(arch, w.lora_rank_effective, w.lora_targets))
        adapters, grads, optim = adapter_states_bytes(trainable, w.optimizer, w.precision)
        weights = weights_bytes(arch, w)
        notes.append(f"{w.method.value}: rank {w.lora_rank_effective} on {','.join(w.lora_targets)}: "
                     f"{trainable:,.0f} trainable params, fp32 adapters (PEFT autocast_adapter_dtype)")
        notes.append(f"frozen base weights {base_format_name(w)}")
    else:
        trainable = counts.total
        adapters = 0.0
        weights, grads, optim = full_states_bytes(arch, trainable, w.optimizer, w.precision)
        notes.append(f"full fine-tuning, {w.precision.value}: ZeRO's 2+2+K bytes/param split "
                     "(fp32 master counted with the optimizer)" if w.precision is Precision.AMP
                     else f"full fine-tuning, {w.precision.value} weights, grads and states")
    weights, adapters = weights * model_share / wdiv, adapters * model_share / wdiv
    grads, optim = grads * model_share / gdiv, optim * model_share / odiv
    if w.parallel in _SHARDED:
        notes.append(f"{w.parallel.value} over {w.n_gpus} GPUs (ZeRO arXiv:1910.02054 §5)")
    elif w.n_gpus > 1 and w.parallel is Parallel.NONE:
        notes.append(f"parallel=none: each of the {w.n_gpus} GPUs trains a full copy (states not sharded)")

    act_bytes = 4 if w.precision is Precision.FP32 else 2
    in_flight = min(stages, w.grad_accum_steps) if w.parallel is Parallel.PP else 1
    layers = layers_per_stage(arch.n_layers, stages)
    saved = lora_saved_inputs(w.lora_targets, w.method is Method.QLORA) if lora else FULL_TRAINING
    acts = train_activation_bytes(arch, w.seq_len, w.batch, w.attention, w.checkpointing,
                                  layers, tp, in_flight, act_bytes, saved)
    notes.append(f"activations: Llama block per Korthikanti et al. 2022, {w.attention.value} attention, "
                 f"{w.checkpointing.value} checkpointing, micro-batch {w.batch} × {w.seq_len}"
                 + (f", {in_flight} micro-batches in flight on the first stage" if in_flight > 1 else ""))
    if lora:
        notes.append("LoRA activations: frozen Linears keep inputs only where an adapter needs them "
                     "(bitsandbytes ≥ 0.43.2 for QLoRA; older releases kept every 4-bit Linear's input); "
                     "LoRA dropout masks not counted")
    logits = train_logits_bytes(arch, w.seq_len, w.batch, tp)
    notes.append("logits: bf16 + fp32 upcast + fp32 log-softmax/grad, 10 B per token × vocab")
    if stages > 1:
        notes.append("pipeline: first-stage activations and last-stage logits counted on one GPU (upper bound)")
    buffers = logits + _extra_buffers(arch, w, grads, notes)
    if w.optimizer is Optimizer.ADAMW and Offload.OPTIMIZER not in w.offload:
        step_temp = optim_states_only(trainable, w) * model_share / odiv
        excess = max(0.0, step_temp - acts - logits)
        if excess > 0:
            buffers += excess
            notes.append("optimizer step peak: torch AdamW (foreach) allocates a state-sized sqrt(v) "
                         "temporary after activations are freed; its excess is counted in buffers")

    host = 0.0
    if Offload.OPTIMIZER in w.offload:
        # ZeRO-Offload (Ren et al. 2021 §4.1) keeps fp16 params on the GPU and moves the reduced
        # gradients and the optimizer step (states + fp32 master) to the CPU; the GPU holds one
        # layer's gradients in flight (FSDP reduces per wrapped block, DeepSpeed per bucket).
        host += (optim + grads) * w.n_gpus
        bucket = _layer_params(arch) * param_bytes(w.precision) * model_share / tp if not lora else grads
        buffers += min(grads, bucket)
        notes.append("optimizer states, fp32 master and gradients offloaded to host RAM (ZeRO-Offload); "
                     "one layer's gradients in flight on the GPU")
        optim, grads = 0.0, 0.0
    if Offload.PARAMS in w.offload:
        host += (weights + adapters) * w.n_gpus
        gathered_in_buffers = w.parallel in (Parallel.ZERO3, Parallel.FSDP)
        weights = 0.0 if gathered_in_buffers else GATHERED_LAYERS * _layer_params(arch) * _base_bytes(arch, w) / tp
        notes.append("parameters offloaded to host; GPU keeps the gathered layers only")
        if w.parallel not in (Parallel.ZERO3, Parallel.FSDP):
            notes.append("parameter offload needs ZeRO-3 or FSDP full-shard in practice")
    if w.optimizer in (Optimizer.PAGED_ADAMW, Optimizer.PAGED_ADAMW_8BIT) and Offload.OPTIMIZER not in w.offload:
        notes.append("paged optimizer: states counted on the GPU, in CUDA unified memory (invisible to "
                     "torch.cuda.max_memory_allocated); under memory pressure they page to host RAM")
    notes.append(f"runtime: CUDA context {CUDA_CONTEXT_BYTES / MIB:.0f} MiB; NCCL buffers not modeled")
    breakdown = MemoryBreakdown(weights=weights, activations=acts, gradients=grads, optimizer=optim,
                                adapters=adapters, buffers=buffers, runtime=CUDA_CONTEXT_BYTES, host=host)
    return MemoryResult(breakdown=breakdown, assumptions=tuple(notes), params_total=counts.total,
                        params_trainable=trainable)


def optim_states_only(trainable: float, w: Workload) -> float:
    """Bytes of one AdamW state (exp_avg_sq) for ``trainable`` parameters: the size of the
    ``torch._foreach_sqrt`` temporary in torch.optim.AdamW's multi-tensor step
    (torch/optim/adamw.py ``_multi_tensor_adamw``; torch.optim docs: foreach trades peak
    memory for speed). PEFT adapters' states are fp32 under AMP."""
    return trainable * state_bytes(w.precision)


def optimizer_in_backward_grad_bytes(arch: ModelArch, precision: Precision) -> float:
    """Gradient memory when each parameter's optimizer step runs inside backward (torchtune
    ``optimizer_in_bwd=True``; PyTorch tutorial "How to save memory by fusing the optimizer
    step into the backward pass": ``register_post_accumulate_grad_hook`` steps and frees each
    gradient as soon as it is accumulated). At most about one tensor's gradient is alive: the
    largest of the embedding, the lm_head and the block matrices."""
    counts = count_params(arch)
    largest = max(counts.embedding, counts.lm_head, largest_linear_params(arch))
    return largest * param_bytes(precision)


def _base_bytes(arch: ModelArch, w: Workload) -> float:
    """Bytes per stored base parameter (4-bit formats under QLoRA, 16-bit otherwise)."""
    if w.method is Method.FULL:
        return float(param_bytes(w.precision))
    return weights_bytes(arch, w) / count_params(arch).total


def _extra_buffers(arch: ModelArch, w: Workload, grads_per_gpu: float, notes: list[str]) -> float:
    """Transient buffers beyond logits, by scheme and method."""
    extra = 0.0
    if w.parallel is Parallel.DDP:
        extra += grads_per_gpu
        notes.append("DDP: gradient buckets duplicate the gradients (gradient_as_bucket_view=False, "
                     "PyTorch DistributedDataParallel docs)")
    if w.parallel in (Parallel.ZERO3, Parallel.FSDP):
        extra += GATHERED_LAYERS * _layer_params(arch) * _base_bytes(arch, w)
        notes.append(f"{w.parallel.value}: {GATHERED_LAYERS} gathered layers of full parameters")
    if w.method is Method.QLORA:
        extra += largest_linear_params(arch) * 2
        notes.append("QLoRA: one weight matrix dequantized to bf16 at a time (bitsandbytes MatMul4Bit)")
    return extra
