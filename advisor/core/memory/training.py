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

from dataclasses import dataclass
from operator import itemgetter

from advisor.core.job.choices import (
    ActivationQuant,
    Checkpointing,
    Framework,
    Loss,
    Method,
    Objective,
    Offload,
    Optimizer,
    Parallel,
    Precision,
)
from advisor.core.job.frameworks import (
    FRAMEWORK_NAMES,
    HOROVOD_FUSION_BYTES,
    PROFILES,
    describe,
    with_framework_defaults,
)
from advisor.core.job.job import Job, JobT
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import choice_label as said
from advisor.core.memo import HeldById
from advisor.core.memory.activations import (
    FULL_TRAINING,
    LOGITS_TRAIN_BYTES_PER_ELEMENT,
    SavedInputs,
    adapter_saved_inputs,
    chunked_loss_logits_bytes,
    fabric_chunked_loss_logits_bytes,
    layers_per_stage,
    lora_saved_inputs,
    op_sac_activation_bytes,
    train_activation_bytes,
    train_logits_bytes,
)
from advisor.core.memory.format_words import format_words
from advisor.core.memory.formats import weight_format
from advisor.core.memory.inference import (
    CUDA_CONTEXT_BYTES,
    TP_SPLITS,
    _split,
    base_format_name,
    largest_linear_params,
    per_gpu_weights,
    weights_bytes,
)
from advisor.core.memory.results import MemoryBreakdown, MemoryResult
from advisor.core.memory.states import (
    adapter_states_bytes,
    full_states_bytes,
    param_bytes,
    state_bytes,
    trainable_params_of,
)
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import (
    ADAPTER_PROMPT_LENGTH,
    ADAPTER_START_LAYER,
    ParamCounts,
    count_params,
)
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
#: Saved activations in 8 bits instead of 16: half the bytes (COAT arXiv:2410.19313 and Jetfire
#: arXiv:2403.12422 store them in FP8 / INT8).
ACTIVATION_QUANT_SHARE = 0.5
#: Activation offloading keeps about two layers' activations on the GPU: the one in use and the
#: one being copied (torchtune ``OffloadActivations`` uses a second stream to overlap copies).
ACT_OFFLOAD_LAYERS_ON_GPU = 2
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
    w_s, g_s, o_s = _SHARDED.get(parallel, (False, False, False))
    return n_params * (2 / (n_gpus if w_s else 1) + 2 / (n_gpus if g_s else 1) + k_bytes / (n_gpus if o_s else 1))


def _dp_factors(planned: PlannedJob) -> tuple[int, int, int]:
    w_s, g_s, o_s = _SHARDED.get(planned.parallel, (False, False, False))
    n = planned.n_gpus
    return (n if w_s else 1), (n if g_s else 1), (n if o_s else 1)


def _layer_params(arch: ModelArch) -> float:
    c = count_params(arch)
    return (c.total - c.embedding - c.lm_head) / arch.n_layers


def _degrees(planned: PlannedJob) -> tuple[int, int, int, int]:
    """(tensor-parallel, pipeline stages, context-parallel, data-parallel) degrees of the job."""
    tp, stages = _split(planned)
    if planned.parallel in _SHARDED or planned.parallel in (Parallel.DDP, Parallel.FSDP_NO_SHARD):
        tp, cp = planned.tp, planned.cp  # 2-D / 3-D FSDP × TP × CP (torchtitan): the rest of the GPUs is data parallel
        return tp, 1, cp, max(1, planned.n_gpus // (tp * cp))
    return tp, stages, 1, planned.n_gpus


def _activations(arch: ModelArch, job: Job, layers: int, tp: int, cp: int, in_flight: int, saved,
                 notes: list[str] | None) -> float:
    """Saved activations of one micro-batch (and those in flight), by checkpointing policy."""
    seq = max(1, job.seq_len // cp)
    act_bytes = 4 if job.precision is Precision.FP32 else 2
    # 2-D FSDP × TP (``PlannedJob.tp``) is torchtitan's plan, which always splits the residual stream along the
    # sequence between the blocks (sequence parallelism, ``activations`` module docstring); the plain
    # tensor-parallel scheme keeps it whole on every rank (Megatron without sequence parallelism).
    sp = job.tp > 1 and tp == job.tp
    if job.checkpointing is Checkpointing.OP_SAC:
        acts = op_sac_activation_bytes(arch, seq, job.batch, job.attention, layers, tp, sp) * in_flight
    elif job.checkpointing is not Checkpointing.NONE and job.checkpoint_every > 1:
        # Every K-th layer checkpointed (torchtune/torchtitan "ac_freq"): those keep their input
        # only, the others keep everything.
        ckpt = -(-layers // job.checkpoint_every)
        kept = train_activation_bytes(arch, seq, job.batch, job.attention, job.checkpointing, ckpt, tp, in_flight,
                                      act_bytes, saved, sp)
        full = train_activation_bytes(arch, seq, job.batch, job.attention, Checkpointing.NONE, layers - ckpt, tp,
                                      in_flight, act_bytes, saved, sp)
        acts = kept + full
    else:
        acts = train_activation_bytes(arch, seq, job.batch, job.attention, job.checkpointing, layers, tp, in_flight,
                                      act_bytes, saved, sp)
    if job.activation_quant is not ActivationQuant.NONE:
        acts *= ACTIVATION_QUANT_SHARE
        if notes is not None:
            notes.append(f"saved activations stored as {said('activation_quant', job.activation_quant)} (1 byte instead of 2: "
                         "COAT arXiv:2410.19313, Jetfire arXiv:2403.12422)")
    if notes is not None:
        notes.append(f"activations: Llama block per Korthikanti et al. 2022, attention {said('attention', job.attention)}, "
                     f"checkpointing {said('checkpointing', job.checkpointing)}"
                     + (f" every {job.checkpoint_every} layers" if job.checkpoint_every > 1 else "")
                     + f", micro-batch {job.batch} × {job.seq_len}" + (f", context parallel {cp}" if cp > 1 else "")
                     + (f", sequence parallel over the {tp} tensor-parallel ranks" if sp else "")
                     + (f", {in_flight} micro-batches in flight on the first stage" if in_flight > 1 else ""))
    return acts


def loss_buffer_bytes(arch: ModelArch, job: Job, tp: int, cp: int = 1) -> float:
    """Logits and cross-entropy temporaries at the loss, by ``PlannedJob.loss``.

    upcast: bf16 logits, their fp32 upcast and the fp32 log-softmax/gradient (2 + 4 + 4 B per
    token × vocab); fp32-logits adds the shifted fp32 copy transformers < 4.46 made
    (``shift_logits = logits[..., :-1, :].contiguous()``, 4 B); chunked: the fp32 part for one
    chunk at a time (``chunked_loss_logits_bytes``); fused: Liger's fused linear cross-entropy
    never holds the full logits: chunks of about vocab / hidden (``chunk_size =
    next_power_of_2(ceil(BT / ceil(V / H)))`` in liger_kernel/ops/fused_linear_cross_entropy.py).
    """
    seq = max(1, job.seq_len // cp)
    loss = job.loss or Loss.UPCAST
    if loss is Loss.CHUNKED and not PROFILES[job.framework].chunked_loss_upcast:
        return fabric_chunked_loss_logits_bytes(arch, seq, job.batch, tp)
    if loss is Loss.CHUNKED:
        return chunked_loss_logits_bytes(arch, seq, job.batch, job.loss_chunks, tp)
    if loss is Loss.FUSED:
        chunks = max(1, -(-arch.vocab_size // arch.hidden_size))
        return seq * job.batch * arch.vocab_size * LOGITS_TRAIN_BYTES_PER_ELEMENT / tp / chunks
    base = train_logits_bytes(arch, seq, job.batch, tp)
    return base * (LOGITS_TRAIN_BYTES_PER_ELEMENT + 4) / LOGITS_TRAIN_BYTES_PER_ELEMENT \
        if loss is Loss.FP32_LOGITS else base


def reserve_factor(planned: PlannedJob) -> tuple[float, str]:
    """The caching allocator's reserve over its allocated peak, and its source (see constants)."""
    if planned.expandable_segments:
        return RESERVE_EXPANDABLE, "expandable segments"
    if planned.parallel in (*_SHARDED, Parallel.DDP) and planned.n_gpus > 1:
        return RESERVE_MULTI_STREAM, "sharded/communicating job (several CUDA streams)"
    return RESERVE_SINGLE_STREAM, "one stream"


#: Fields of a training job that only the micro-batch's share of the estimate reads (activations, logits,
#: activation offload); the rest (model states, sharding, buffers, offload) is kept per job without them.
MICRO_BATCH_FIELDS = ("batch", "seq_len")
_BATCH_FREE_FIELDS = itemgetter(*(f for f in PlannedJob.model_fields if f not in MICRO_BATCH_FIELDS))
#: (the model; the job's other fields, with words) -> its parts.
_BATCH_FREE_CACHE: HeldById[tuple[_BeforeBatch, _AfterBatch, tuple[str, ...], tuple[str, ...]]] = HeldById(4096)


def estimate_training(arch: ModelArch, planned: PlannedJob, detail: bool = True) -> MemoryResult:
    """The busiest GPU's peak over the phases of a training step (module docstring).

    ``detail=False``: the same breakdown without the assumptions' words and the terms' full sizes
    (``MemoryResult.sizes``): what a plan search's probe needs (issue 20: a training job's plan
    search probes dozens of plans per build and shows one). What does not depend on the micro-batch
    (``_BeforeBatch``, ``_AfterBatch`` and their words: none of it reads ``MICRO_BATCH_FIELDS``) is kept
    per model and job: a change of batch or sequence length computes the activations and logits alone
    (issue 20: a training job's change re-plans six builds and redraws 63 points of the fit plot)."""
    planned = with_framework_defaults(planned)
    b, a, before_words, after_words = _batch_free(arch, planned, detail)
    notes: list[str] | None = [f"framework: {describe(planned.framework)}", objective_note(planned), *before_words] \
        if detail else None
    arch, tp, cp, layers, in_flight, saved, lora, reward = (
        b.arch, b.tp, b.cp, b.layers, b.in_flight, b.saved, b.lora, b.reward)
    wa = _sequences_per_step(planned, notes)  # preference objectives: chosen and rejected sequences
    acts = _activations(arch, wa, layers, tp, cp, in_flight, saved, notes)
    if notes is not None and planned.method.litgpt_adapter:
        notes.append("adapter activations: frozen Linears keep no input; the prompt's gated attention output"
                     + (" and every Linear's output (for its scale)" if planned.method is Method.ADAPTER_V2 else "")
                     + " kept (litgpt/adapter.py, adapter_v2.py)")
    elif notes is not None and lora:
        notes.append("LoRA activations: frozen Linears keep inputs only where an adapter needs them "
                     + ("(bitsandbytes < 0.43.2: every 4-bit Linear's input)" if planned.bnb_legacy else
                        "(bitsandbytes ≥ 0.43.2 for QLoRA)") + "; LoRA dropout masks not counted")
    host = 0.0
    if planned.activation_offload:
        # torchtune OffloadActivations / Unsloth: saved tensors go to pinned host RAM and come back
        # for backward; the GPU holds the layer at work and the one being copied.
        on_gpu = acts * min(1.0, ACT_OFFLOAD_LAYERS_ON_GPU / max(1, layers))
        host += (acts - on_gpu) * planned.n_gpus
        acts = on_gpu
        if notes is not None:
            notes.append(f"activation offloading: saved activations in host RAM; {ACT_OFFLOAD_LAYERS_ON_GPU} layers' "
                         "worth stay on the GPU (torchtune training/_activation_offloading.py)")
    logits = loss_buffer_bytes(arch, wa, tp, cp)
    if planned.method is Method.ADAPTER_V2:
        # lm_head is an AdapterV2Linear too: its biased output (16-bit logits) is kept for the scale.
        logits += wa.batch * max(1, wa.seq_len // cp) * arch.vocab_size * 2 / tp
    if reward:
        logits = 0.0
        if notes is not None:
            notes.append("reward model: a scalar head instead of the vocabulary (no logits; transformers "
                         "AutoModelForSequenceClassification with num_labels=1, as TRL RewardTrainer uses)")
    elif notes is not None:
        notes.append(f"loss: {said('loss', planned.loss or Loss.UPCAST)}"
                     + (f" in {planned.loss_chunks} chunks" if planned.loss is Loss.CHUNKED else ""))
    if notes is not None:
        notes += after_words
    for add in a.host_adds:  # offloaded states, after the offloaded activations (the same sums, in order)
        host += add
    counts, trainable, adapters = b.counts, b.trainable, b.adapters
    weights, reference, grads, optim = a.weights, a.reference, a.grads, a.optim
    during, comm, step_temp, held_grads, disk, paged = a.during, a.comm, a.step_temp, a.held_grads, a.disk, a.paged
    phases = {
        "forward end": acts + logits + during + held_grads,
        "backward": acts + logits + during + held_grads,  # starts with every activation and the loss gradient
        "backward end": grads + comm + during,
        "optimizer step": grads + step_temp,
    }
    peak_name = max(phases, key=phases.get)
    static = weights + adapters + reference + optim
    allocated = static + phases[peak_name]
    factor, why = reserve_factor(planned)
    allocator = allocated * (factor - 1)
    if notes is not None:
        notes.append(f"peak in the {peak_name} phase; caching allocator reserve ×{factor:.2f} ({why}; reserved "
                     "against allocated at the peak in torchtune's logged runs)")
    nccl = NCCL_BYTES_PER_GPU if planned.n_gpus > 1 else 0.0
    if notes is not None:
        notes.append(f"runtime: CUDA context {CUDA_CONTEXT_BYTES / MIB:.0f} MiB"
                     + (f" + NCCL buffers {nccl / MIB:.0f} MiB" if nccl else ""))
    at_peak = {
        "forward end": dict(activations=acts, gradients=held_grads, buffers=logits + during),
        "backward": dict(activations=acts, gradients=held_grads, buffers=logits + during),
        "backward end": dict(activations=0.0, gradients=grads, buffers=comm + during),
        "optimizer step": dict(activations=0.0, gradients=grads, buffers=step_temp),
    }[peak_name]
    breakdown = MemoryBreakdown(weights=weights, optimizer=optim, adapters=adapters, allocator=allocator,
                                reference_weights=reference, paged=paged,
                                runtime=CUDA_CONTEXT_BYTES + nccl, host=host, disk=disk,
                                phases=tuple(sorted([(k, static + v) for k, v in phases.items()], key=_larger_first)),
                                **at_peak)
    if notes is None:
        return MemoryResult(breakdown=breakdown, params_total=counts.total, params_trainable=trainable)
    sizes = MemoryBreakdown(weights=weights, optimizer=optim, adapters=adapters, reference_weights=reference,
                            activations=acts, gradients=grads,
                            buffers=logits + during + comm + step_temp, runtime=CUDA_CONTEXT_BYTES + nccl,
                            host=host, disk=disk)
    return MemoryResult(breakdown=breakdown, sizes=sizes, assumptions=tuple(notes), params_total=counts.total,
                        params_trainable=trainable)


def _larger_first(phase: tuple[str, float]) -> float:
    return -phase[1]


#: The fields whose being set by the user (``PlannedJob.model_fields_set``), not only their value, changes
#: ``apply_framework``'s answer: it gives the framework's default to those the user left unset (a test checks
#: that no other field's being set matters). Two workloads differing only there are equal and hash alike.
SET_BY_USER = frozenset({"framework", "precision", "loss_chunks", "checkpointing"})
_ALL_FIELDS = itemgetter(*PlannedJob.model_fields)  # a workload's values, in a tuple (hashed without pydantic)


def _batch_free(arch: ModelArch, planned: PlannedJob,
                words: bool) -> tuple[_BeforeBatch, _AfterBatch, tuple[str, ...], tuple[str, ...]]:
    """``_before_batch`` and ``_after_batch`` (and their words, when asked), kept per (model, job without
    ``MICRO_BATCH_FIELDS``)."""
    key = (_BATCH_FREE_FIELDS(planned.__dict__), words)
    got = _BATCH_FREE_CACHE.get((arch,), key)
    if got is not None:
        return got
    before_words: list[str] | None = [] if words else None
    after_words: list[str] | None = [] if words else None
    b = _before_batch(arch, planned, before_words)
    parts = (b, _after_batch(planned, b, after_words), tuple(before_words or ()), tuple(after_words or ()))
    return _BATCH_FREE_CACHE.put((arch,), key, parts)


@dataclass(frozen=True, slots=True)
class _BeforeBatch:
    """What a training estimate works out before the micro-batch enters: the model as trained, the
    degrees of parallelism, the model states per GPU, what each layer saves for backward."""

    arch: ModelArch
    counts: ParamCounts
    tp: int
    stages: int
    cp: int
    model_share: float
    gdiv: int
    odiv: int
    lora: bool
    reward: bool
    trainable: float
    weights: float
    adapters: float
    reference: float
    grads: float
    optim: float
    fsdp1: bool
    mixed_units: bool
    in_flight: int
    layers: int
    saved: SavedInputs


def _before_batch(arch: ModelArch, planned: PlannedJob, notes: list[str] | None) -> _BeforeBatch:
    """``estimate_training``'s first part (``w`` with its framework's defaults); its words go to ``notes``."""
    arch = as_trained(arch, planned, notes)
    counts = count_params(arch)
    tp, stages, cp, dp = _degrees(planned)
    model_share = per_gpu_weights(arch, counts.total, tp, stages) / counts.total
    w_s, g_s, o_s = _SHARDED.get(planned.parallel, (False, False, False))
    wdiv, gdiv, odiv = (dp if w_s else 1), (dp if g_s else 1), (dp if o_s else 1)
    lora = planned.method is not Method.FULL  # a frozen base with small trained parts (LoRA, QLoRA, adapters)
    reward = planned.objective is Objective.REWARD
    trainable = trainable_params_of(arch, planned)
    if lora:
        adapters, grads, optim = adapter_states_bytes(trainable, planned.optimizer, planned.precision)
        weights = weights_bytes(arch, planned) - (counts.lm_head * 2 if reward else 0.0)  # lm_head is 16-bit
        if _four_bit_lm_head(planned) and not reward:
            weights -= counts.lm_head * (2 - _four_bit_bytes(planned))
            if notes is not None:
                notes.append("lm_head stored in 4 bits too (Lightning Fabric BitsandbytesPrecision replaces every "
                             "nn.Linear)")
        if notes is not None and planned.method.litgpt_adapter:
            notes.append(f"{said('method', planned.method)} (LitGPT finetune_{planned.method.value.replace('-', '_')}): prompt of "
                         f"{ADAPTER_PROMPT_LENGTH} tokens in layers {ADAPTER_START_LAYER}+"
                         + (", biases and scales of every Linear, norms" if planned.method is Method.ADAPTER_V2 else "")
                         + f": {trainable:,.0f} trainable params (litgpt/adapter.py at 26857050)")
        elif notes is not None:
            notes.append(f"{said('method', planned.method)}: rank {planned.lora_rank_effective} on {', '.join(planned.lora_targets)}: "
                         f"{trainable:,.0f} trainable params, "
                         + ("fp32 adapters (PEFT autocast_adapter_dtype)" if planned.precision is not Precision.BF16
                            else "bf16 adapters"))
        if notes is not None:
            notes.append(f"frozen base weights {format_words(base_format_name(planned), planned.quant_group_size, planned.double_quant)}")
    else:
        adapters = 0.0
        weights, grads, optim = full_states_bytes(arch, trainable, planned.optimizer, planned.precision)
        if notes is not None:
            notes.append(f"full fine-tuning, {said('precision', planned.precision)}: ZeRO's 2+2+K bytes/param split "
                         "(fp32 master counted with the optimizer)" if planned.precision is Precision.AMP
                         else f"full fine-tuning, {said('precision', planned.precision)} weights, grads and states")
    reference = reference_weights_bytes(arch, planned, notes)
    weights, adapters = weights * model_share / wdiv, adapters * model_share / wdiv
    reference *= model_share / wdiv  # sharded like the policy under ZeRO-3 / FSDP, replicated otherwise
    grads, optim = grads * model_share / gdiv, optim * model_share / odiv
    fsdp1 = planned.parallel in (Parallel.FSDP, Parallel.FSDP_GRAD_OP) and dp > 1
    mixed_units = lora and fsdp1 and PROFILES[planned.framework].fsdp_mixed_units and not _four_bit_base(planned)
    if mixed_units:
        # One FlatParameter per wrapped block holds its frozen weights and its adapters; with
        # use_orig_params=True the whole flat parameter gets a gradient (FSDP_MIXED_UNITS).
        grads = _layer_params(arch) * arch.n_layers * param_bytes(planned.precision) * model_share / gdiv
        if notes is not None:
            notes.append(f"{FRAMEWORK_NAMES[planned.framework]} FSDP: each block is one FSDP unit with frozen weights and adapters, "
                         "so its gradient is as large as the block (PyTorch FSDP docs on frozen parameters)")
    if planned.optimizer_in_backward and not lora:
        grads = min(grads, optimizer_in_backward_grad_bytes(arch, planned.precision))
        if notes is not None:
            notes.append("optimizer in backward: each gradient is stepped and freed as soon as it is accumulated "
                         "(torchtune optimizer_in_bwd; ~ one tensor's gradient alive)")
    if notes is not None and planned.parallel in _SHARDED:
        notes.append(f"{said('parallel', planned.parallel)} over {dp} data-parallel GPUs (ZeRO arXiv:1910.02054 §5)"
                     + (f", tensor parallel {tp}" if tp > 1 and planned.parallel not in TP_SPLITS else ""))
    elif notes is not None and planned.n_gpus > 1 and planned.parallel is Parallel.NONE:
        notes.append(f"no sharding: each of the {planned.n_gpus} GPUs trains a full copy (states not sharded)")

    in_flight = min(stages, planned.grad_accum_steps) if planned.parallel is Parallel.PP else 1
    layers = layers_per_stage(arch.n_layers, stages)
    if planned.method.litgpt_adapter:
        saved = adapter_saved_inputs(planned.method is Method.ADAPTER_V2, _four_bit_base(planned), legacy_bnb=planned.bnb_legacy)
        if planned.method is Method.ADAPTER and stages == 1:
            # Nothing before adapter_start_layer needs a gradient: those layers save nothing.
            layers = max(1, layers - ADAPTER_START_LAYER)
    else:
        dropout = lora and PROFILES[planned.framework].lora_dropout > 0
        saved = lora_saved_inputs(planned.lora_targets, planned.method is Method.QLORA, legacy_bnb=planned.bnb_legacy,
                                  dropout=dropout) if lora else FULL_TRAINING
        if notes is not None and dropout:
            notes.append(f"LoRA dropout {PROFILES[planned.framework].lora_dropout:g} ({FRAMEWORK_NAMES[planned.framework]}'s default): "
                         "each LoRA module keeps a dropped copy of its input and its mask")
    if mixed_units:  # every weight of the unit is a view of a flat parameter that requires grad
        saved = saved._replace(qkv_input=True, o_input=True, gate_up_input=True, down_input=True)
    if PROFILES[planned.framework].kv_full_heads and arch.n_kv_heads < arch.n_heads:
        saved = saved._replace(kv_full_heads=True)
        if notes is not None:
            notes.append(f"{FRAMEWORK_NAMES[planned.framework]}: k and v repeated to all {arch.n_heads} heads before the attention "
                         "kernel")
    elif PROFILES[planned.framework].fused_qkv_view and arch.n_kv_heads == arch.n_heads:
        saved = saved._replace(qkv_view=True)
        if notes is not None:
            notes.append(f"{FRAMEWORK_NAMES[planned.framework]}: v is a view of the fused q|k|v output, so the attention kernel's "
                         "saved v keeps all of it")
    if lora and not planned.method.litgpt_adapter and PROFILES[planned.framework].lora_pad_saved:
        pad = _lora_padded(planned.lora_targets)
        if pad:
            saved = saved._replace(pad_source=pad)
            if notes is not None:
                notes.append(f"{FRAMEWORK_NAMES[planned.framework]}: LoRA on {'+'.join(pad)} only: its output is padded to the fused "
                             "q|k|v width by index_copy, which keeps it for backward")
    return _BeforeBatch(arch, counts, tp, stages, cp, model_share, gdiv, odiv, lora, reward, trainable, weights, adapters,
                        reference, grads, optim, fsdp1, mixed_units, in_flight, layers, saved)


@dataclass(frozen=True, slots=True)
class _AfterBatch:
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


def _after_batch(planned: PlannedJob, b: _BeforeBatch, notes: list[str] | None) -> _AfterBatch:
    """``estimate_training``'s part between the logits and the phases; its words go to ``notes``."""
    arch, tp, stages, lora, fsdp1, trainable = b.arch, b.tp, b.stages, b.lora, b.fsdp1, b.trainable
    model_share, gdiv, odiv = b.model_share, b.gdiv, b.odiv
    weights, adapters, reference, grads, optim = b.weights, b.adapters, b.reference, b.grads, b.optim
    host_adds: list[float] = []
    if notes is not None and stages > 1:
        notes.append("pipeline: first-stage activations and last-stage logits counted on one GPU (upper bound)")
    during = _forward_buffers(arch, planned, tp, notes)  # alive through forward and backward
    comm = _comm_buffers(planned, grads, notes)  # alive when gradients are reduced
    step_temp = 0.0
    if planned.foreach_adamw and Offload.OPTIMIZER not in planned.offload and not planned.optimizer_in_backward:
        step_temp = optim_states_only(trainable, planned) * model_share / odiv
        if notes is not None:
            notes.append("optimizer step: torch AdamW (foreach) allocates a state-sized sqrt(v) temporary")

    disk = 0.0
    nvme = Offload.NVME in planned.offload
    if Offload.OPTIMIZER in planned.offload:
        # ZeRO-Offload (Ren et al. 2021 §4.1) keeps fp16 params on the GPU and moves the reduced
        # gradients and the optimizer step (states + fp32 master) to the CPU; the GPU holds one
        # layer's gradients in flight (FSDP reduces per wrapped block, DeepSpeed per bucket).
        moved = (optim + grads) * planned.n_gpus
        if nvme:
            disk = disk + optim * planned.n_gpus
            host_adds.append(grads * planned.n_gpus)
        else:
            host_adds.append(moved)
        bucket = _layer_params(arch) * param_bytes(planned.precision) * model_share / tp if not lora else grads
        comm += min(grads, bucket)
        if notes is not None:
            notes.append("optimizer states, fp32 master and gradients offloaded to "
                         + ("NVMe (ZeRO-Infinity, arXiv:2104.07857; gradients staged in host RAM)" if nvme
                            else "host RAM (ZeRO-Offload)") + "; one layer's gradients in flight on the GPU")
        optim, grads, step_temp = 0.0, 0.0, 0.0
    if Offload.PARAMS in planned.offload:
        if nvme:
            disk += (weights + adapters + reference) * planned.n_gpus
        else:
            host_adds.append((weights + adapters + reference) * planned.n_gpus)
        reference = 0.0
        gathered_in_buffers = planned.parallel in (Parallel.ZERO3, Parallel.FSDP)
        weights = 0.0 if gathered_in_buffers else GATHERED_LAYERS * _layer_params(arch) * _base_bytes(arch, planned) / tp
        if notes is not None:
            notes.append("parameters offloaded to " + ("NVMe" if nvme else "host")
                         + "; GPU keeps the gathered layers only")
        if notes is not None and planned.parallel not in (Parallel.ZERO3, Parallel.FSDP):
            notes.append("parameter offload needs ZeRO-3 or FSDP full-shard in practice")
    # bitsandbytes' paged optimizers keep their states in CUDA managed memory, outside PyTorch's caching
    # allocator: bitsandbytes/functional.py ``get_paged`` -> ``lib.cget_managed_ptr`` (bitsandbytes-foundation/
    # bitsandbytes at 8b3c0f35).
    paged = optim if planned.optimizer in (Optimizer.PAGED_ADAMW, Optimizer.PAGED_ADAMW_8BIT) else 0.0
    if notes is not None and paged:
        notes.append("paged optimizer: states counted in what the GPU needs, in CUDA unified memory, so not in the "
                     "allocated or reserved figures (torch.cuda.max_memory_allocated never sees them); under "
                     "memory pressure they page to host RAM")

    # --- phases: what is alive at once (static states + the largest phase) -----------------
    accumulating = planned.grad_accum_steps > 1  # gradients persist across micro-batches
    held_grads = grads if accumulating else 0.0
    if accumulating and fsdp1 and PROFILES[planned.framework].accumulate_unsharded:
        held_grads = grads * gdiv  # FSDP no_sync: whole gradients until the synchronizing micro-batch
        if notes is not None:
            notes.append(f"{FRAMEWORK_NAMES[planned.framework]}: gradient accumulation under FSDP's no_sync keeps the unsharded "
                         "gradients until the last micro-batch (FSDP_NO_SYNC)")
    return _AfterBatch(weights, reference, grads, optim, during, comm, step_temp, held_grads, disk, paged,
                       tuple(host_adds))

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


#: TRL at this commit is what the DPO and reward-model rules below follow.
TRL_COMMIT = "f2cd57710ae345ea6428ae95363267fcf38a3dc8"
#: Sequences through the model per example: chosen and rejected of each preference pair.
#: TRL's DPO collator concatenates them into one batch of 2× the pairs
#: (``torch.cat(tuple(pad([chosen_ids, rejected_ids])))`` in
#: https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/trl/trainer/dpo_trainer.py);
#: ORPO (Hong et al. 2024, arXiv:2403.07691 §4: NLL of the chosen plus the odds ratio of chosen
#: over rejected, no reference model) and the reward model's pairwise loss
#: (trl/trainer/reward_trainer.py at the same commit: rewards of chosen and rejected, ``num_labels = 1``)
#: need both sequences likewise.
PAIR_SEQUENCES = 2


#: The objective in the estimate's assumptions, with its source.
OBJECTIVE_WORDS = {
    Objective.SFT: "supervised fine-tuning (next-token cross-entropy on one sequence per example)",
    Objective.DPO: "DPO (Rafailov et al. 2023, arXiv:2305.18290; TRL DPOTrainer): chosen and rejected sequences, "
                   "policy against a frozen reference",
    Objective.ORPO: "ORPO (Hong et al. 2024, arXiv:2403.07691): chosen and rejected sequences, no reference model",
    Objective.REWARD: "reward model (TRL RewardTrainer): chosen and rejected sequences through a scalar head",
}


def objective_note(job: Job) -> str:
    """'objective: DPO (…); method lora' — what the step optimizes and which weights train."""
    return f"objective: {OBJECTIVE_WORDS[job.objective]}; method: {said('method', job.method)}"


def _sequences_per_step(job: JobT, notes: list[str] | None) -> JobT:
    """The job as the model sees it: the micro-batch doubled when each example is a pair."""
    if not job.objective.paired:
        return job
    if notes is not None:
        notes.append(f"{said('objective', job.objective)}: a micro-batch of {job.batch} pair(s) is {PAIR_SEQUENCES * job.batch} sequences "
                     "(chosen and rejected): activations and logits of all of them")
    return job.model_copy(update={"batch": job.batch * PAIR_SEQUENCES})


def reference_weights_bytes(arch: ModelArch, job: Job, notes: list[str] | None = None) -> float:
    """Whole-model bytes of DPO's frozen reference model (before sharding), by TRL's rules.

    TRL ``DPOTrainer.__init__`` (trl/trainer/dpo_trainer.py at ``TRL_COMMIT``, "Reference model"):
    "If PEFT is used, the reference model is not needed since the adapter can be disabled to
    revert to the initial model. If precompute_ref_log_probs is True, the reference model does not
    need to be kept in memory during training" (``ref_model = None``; ``compute_ref_log_probs``
    runs the policy under ``use_adapter``/no_grad instead); otherwise ``create_model_from_path``
    loads a second copy of the policy's checkpoint with the same init kwargs (dtype), prepared
    like the policy (``prepare_deepspeed`` / ``prepare_fsdp``: sharded under ZeRO-3 / FSDP).
    Counted in the 16-bit compute dtype (4 B under fp32 training). DPO paper: Rafailov et al.
    2023, arXiv:2305.18290 (the loss needs π_ref's log-probabilities of both sequences).
    """
    if job.objective is not Objective.DPO:
        return 0.0
    if job.precompute_ref:
        if notes is not None:
            notes.append("DPO: reference log-probabilities precomputed before training (TRL "
                         "precompute_ref_log_probs): no reference model in memory")
        return 0.0
    if job.method is not Method.FULL:
        if notes is not None:
            notes.append(f"DPO: the reference is the base with its {said('method', job.method)} adapters disabled "
                         "(TRL DPOTrainer with a PEFT model): no second copy of the weights")
        return 0.0
    if notes is not None:
        notes.append("DPO: a frozen reference copy of the weights (TRL DPOTrainer loads the checkpoint "
                     "twice), sharded like the policy")
    return count_params(arch).total * param_bytes(job.precision)


def as_trained(arch: ModelArch, job: Job, notes: list[str] | None = None) -> ModelArch:
    """The model as the framework holds it: LitGPT keeps a separate lm_head even when the
    checkpoint ties it to the embedding (``Profile.untied_lm_head``)."""
    if arch.tied_embeddings and PROFILES[job.framework].untied_lm_head:
        if notes is not None:
            notes.append(f"{FRAMEWORK_NAMES[job.framework]}: the tied embedding is copied into a separate lm_head "
                         "(litgpt/scripts/convert_hf_checkpoint.py)")
        return arch.model_copy(update={"tied_embeddings": False})
    return arch


def _lora_padded(targets: tuple[str, ...]) -> tuple[str, ...]:
    """The q/k/v projections with LoRA when some but not all of them have it: LitGPT's
    ``LoRAQKVLinear.zero_pad`` then scatters their LoRA output into the fused width (``index_copy``),
    and autograd keeps that output (``Profile.lora_pad_saved``). With all three, nothing is padded."""
    t = set(targets)
    if "all-linear" in t:
        return ()
    picked = tuple(x for x in ("q", "k", "v") if x in t)
    return picked if 0 < len(picked) < 3 else ()


def _four_bit_lm_head(job: Job) -> bool:
    """The 4-bit base covers the lm_head (LitGPT under Fabric's bitsandbytes plugin)."""
    return _four_bit_base(job) and PROFILES[job.framework].quantize_lm_head


def _four_bit_bytes(job: Job) -> float:
    """Bytes per parameter of the 4-bit base format (with its block constants)."""
    return weight_format(base_format_name(job), job.quant_group_size, job.double_quant).bits_per_weight / 8


def _four_bit_base(job: Job) -> bool:
    """The frozen base is stored in 4 bits (QLoRA, or LitGPT adapters with --quantize bnb.nf4)."""
    return job.method is Method.QLORA or (job.method.litgpt_adapter and job.weights.lower() in ("nf4", "fp4"))


def _base_bytes(arch: ModelArch, job: Job) -> float:
    """Bytes per stored base parameter (4-bit formats under QLoRA, 16-bit otherwise)."""
    if job.method is Method.FULL:
        return float(param_bytes(job.precision))
    return weights_bytes(arch, job) / count_params(arch).total


def _forward_buffers(arch: ModelArch, planned: PlannedJob, tp: int, notes: list[str] | None) -> float:
    """Buffers alive through forward and backward: gathered FSDP/ZeRO-3 layers, a dequantized 4-bit layer."""
    extra = 0.0
    if planned.parallel in (Parallel.ZERO3, Parallel.FSDP):
        extra += GATHERED_LAYERS * _layer_params(arch) * _base_bytes(arch, planned) / tp
        if notes is not None:
            notes.append(f"{said('parallel', planned.parallel)}: {GATHERED_LAYERS} gathered layers of full parameters")
    if _four_bit_base(planned):
        largest = max(largest_linear_params(arch), count_params(arch).lm_head if _four_bit_lm_head(planned) else 0.0)
        dequant = PROFILES[planned.framework].dequant_bytes
        extra += largest * dequant
        if notes is not None:
            notes.append(("QLoRA" if planned.method is Method.QLORA else "4-bit base")
                         + ": one weight matrix dequantized at a time (bitsandbytes MatMul4Bit)"
                         + (", the lm_head the largest" if largest > largest_linear_params(arch) else "")
                         + (f", {dequant} bytes per element (an fp16 dequantized copy and its bf16 cast)"
                            if dequant > 2 else ""))
    return extra


def _comm_buffers(planned: PlannedJob, grads_per_gpu: float, notes: list[str] | None) -> float:
    """Buffers alive while gradients are reduced: DDP's buckets or Horovod's fusion buffer."""
    if planned.parallel is not Parallel.DDP or planned.n_gpus <= 1:
        return 0.0
    if planned.framework is Framework.HOROVOD:
        if notes is not None:
            notes.append("Horovod: gradients all-reduced through a 128 MiB fusion buffer (HOROVOD_FUSION_THRESHOLD)")
        return float(min(grads_per_gpu, HOROVOD_FUSION_BYTES))
    if notes is not None:
        notes.append("DDP: gradient buckets duplicate the gradients (gradient_as_bucket_view=False, "
                     "PyTorch DistributedDataParallel docs)")
    return grads_per_gpu
