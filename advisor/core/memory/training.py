"""Training memory of the busiest GPU: model states, their sharding, activations, buffers, offload.

The terms live beside this module: ``sharding`` (ZeRO's model states per GPU, the allocator's reserve,
NCCL), ``objectives`` (preference pairs, DPO's reference), ``train_buffers`` (activations, logits,
gathered and dequantized layers, gradient buckets), ``before_batch`` and ``after_batch`` (the parts that do
not read the micro-batch, kept per job). This module adds the micro-batch's share and picks the
busiest phase of the step.
"""

from __future__ import annotations

from operator import itemgetter

from advisor.core.job.choices import Loss, Method
from advisor.core.job.frameworks import describe, with_framework_defaults
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import choice_label as said
from advisor.core.memo import HeldById
from advisor.core.memory.after_batch import AfterBatch, after_batch
from advisor.core.memory.before_batch import BeforeBatch, before_batch
from advisor.core.memory.activations import ACT_BYTES
from advisor.core.memory.inference import CUDA_CONTEXT_BYTES
from advisor.core.memory.loss_logits import logit_elements
from advisor.core.memory.objectives import (
    objective_note,
    sequences_per_step,
)
from advisor.core.memory.results import MemoryBreakdown, MemoryResult
from advisor.core.memory.sharding import (
    NCCL_BYTES_PER_GPU,
    reserve_factor,
)
from advisor.core.memory.train_buffers import (
    compiled_loss,
    eager_chunked_loss,
    kept_output_bytes,
    loss_buffer_bytes,
    train_activations,
)
from advisor.core.model.arch import ModelArch
from advisor.core.units import MIB

__all__ = ["ACT_OFFLOAD_LAYERS_ON_GPU", "MICRO_BATCH_FIELDS", "SET_BY_USER", "estimate_training"]

#: Activation offloading keeps about two layers' activations on the GPU: the one in use and the
#: one being copied (torchtune ``OffloadActivations`` uses a second stream to overlap copies).
ACT_OFFLOAD_LAYERS_ON_GPU = 2

#: Fields of a training job that only the micro-batch's share of the estimate reads (activations, logits,
#: activation offload); the rest (model states, sharding, buffers, offload) is kept per job without them.
MICRO_BATCH_FIELDS = ("batch", "seq_len")
_BATCH_FREE_FIELDS = itemgetter(*(f for f in PlannedJob.model_fields if f not in MICRO_BATCH_FIELDS))
#: (the model; the job's other fields, with words) -> its parts.
_BATCH_FREE_CACHE: HeldById[tuple[BeforeBatch, AfterBatch, tuple[str, ...], tuple[str, ...]]] = HeldById(4096)


def estimate_training(arch: ModelArch, planned: PlannedJob, detail: bool = True) -> MemoryResult:
    """The busiest GPU's peak over the phases of a training step (module docstring).

    ``detail=False``: the same breakdown without the assumptions' words and the terms' full sizes
    (``MemoryResult.sizes``): what a plan search's probe needs (a training job's plan search probes
    dozens of plans per build and shows one). What does not depend on the micro-batch (``BeforeBatch``,
    ``AfterBatch`` and their words: none of it reads ``MICRO_BATCH_FIELDS``) is kept per model and job: a
    change of batch or sequence length computes the activations and logits alone (a training job's change
    re-plans every build and redraws the fit plot's points)."""
    planned = with_framework_defaults(planned)
    b, a, before_words, after_words = _batch_free(arch, planned, detail)
    notes: list[str] | None = [f"framework: {describe(planned.framework)}", objective_note(planned), *before_words] \
        if detail else None
    acts, logits, kept, host = _micro_batch(planned, b, notes)
    if notes is not None:
        notes += after_words
    for add in a.host_adds:  # offloaded states, after the offloaded activations (the same sums, in order)
        host += add
    return _peak(planned, b, a, acts, logits, kept, host, notes)


def _micro_batch(planned: PlannedJob, b: BeforeBatch, notes: list[str] | None) -> tuple[float, float, float, float]:
    """(activations on the GPU, logits and loss buffers, the output's logits a loop of the user's own keeps until its
    step ends, activations offloaded to host RAM) of one micro-batch."""
    arch, tp, cp = b.arch, b.tp, b.cp
    wa = sequences_per_step(planned, notes)  # preference objectives: chosen and rejected sequences
    acts = train_activations(arch, wa, b.layers, tp, cp, b.in_flight, b.saved, notes)
    if notes is not None:
        _frozen_linears_note(planned, b.lora, notes)
    host = 0.0
    if planned.activation_offload:
        # torchtune OffloadActivations / Unsloth: saved tensors go to pinned host RAM and come back
        # for backward; the GPU holds the layer at work and the one being copied.
        on_gpu = acts * min(1.0, ACT_OFFLOAD_LAYERS_ON_GPU / max(1, b.layers))
        host += (acts - on_gpu) * planned.n_gpus
        acts = on_gpu
        if notes is not None:
            notes.append(f"activation offloading: saved activations in host RAM; {ACT_OFFLOAD_LAYERS_ON_GPU} layers' "
                         "worth stay on the GPU (torchtune training/_activation_offloading.py)")
    logits = loss_buffer_bytes(arch, wa, tp, cp)
    kept = kept_output_bytes(arch, wa, tp, cp)
    if planned.method is Method.ADAPTER_V2:
        # lm_head is an AdapterV2Linear too: its biased output (16-bit logits) is kept for the scale.
        logits += logit_elements(arch, max(1, wa.seq_len // cp), wa.batch, tp) * ACT_BYTES
    if b.reward:
        logits = kept = 0.0
        if notes is not None:
            notes.append("reward model: a scalar head instead of the vocabulary (no logits; transformers "
                         "AutoModelForSequenceClassification with num_labels=1, as TRL RewardTrainer uses)")
    elif notes is not None:
        notes.append(f"loss: {said('loss', planned.loss or Loss.UPCAST)}"
                     + (f" in {planned.loss_chunks} chunks" if planned.loss is Loss.CHUNKED else "")
                     + ("; every chunk's 32-bit log-probabilities stay until the backward (a compiled loss stores "
                        "none)" if eager_chunked_loss(wa) else "")
                     + ("; compiled with the model: no 32-bit copy of the logits is stored" if compiled_loss(wa)
                        else ""))
        if kept:
            notes.append("the training loop keeps the model's output: its logits over the whole vocabulary stay "
                         "until the optimizer step ends")
    return acts, logits, kept, host


def _frozen_linears_note(planned: PlannedJob, lora: bool, notes: list[str]) -> None:
    if planned.method.litgpt_adapter:
        notes.append("adapter activations: frozen Linears keep no input; the prompt's gated attention output"
                     + (" and every Linear's output (for its scale)" if planned.method is Method.ADAPTER_V2 else "")
                     + " kept (litgpt/adapter.py, adapter_v2.py)")
    elif lora:
        notes.append("LoRA activations: frozen Linears keep inputs only where an adapter needs them "
                     + ("(bitsandbytes < 0.43.2: every 4-bit Linear's input)" if planned.bnb_legacy else
                        "(bitsandbytes ≥ 0.43.2 for QLoRA)") + "; LoRA dropout masks not counted")


def _peak(planned: PlannedJob, b: BeforeBatch, a: AfterBatch, acts: float, logits: float, kept: float, host: float,
          notes: list[str] | None) -> MemoryResult:
    """The busiest phase of the step over the static states, with the allocator's reserve and the runtime. ``logits``
    (the loss's buffers) is alive from the forward's end through the backward; ``kept`` (the output a loop of the
    user's own holds, ``kept_output_bytes``) until the optimizer step ends."""
    during, held_grads, grads = a.during, a.held_grads, a.grads
    logits += kept
    phases = {
        "forward end": acts + logits + during + held_grads,
        "backward": acts + logits + during + held_grads + a.head_grad,  # every activation, the loss and lm_head gradients
        "backward end": grads + a.comm + during + kept,
        "optimizer step": grads + a.step_temp + kept,
    }
    peak_name = max(phases, key=phases.__getitem__)
    static = a.weights + b.adapters + a.reference + a.optim + a.buckets
    allocated = static + phases[peak_name]
    factor, why = reserve_factor(planned)
    allocator = allocated * (factor - 1)
    nccl = NCCL_BYTES_PER_GPU if planned.n_gpus > 1 else 0.0
    if notes is not None:
        notes.append(f"peak in the {peak_name} phase; caching allocator reserve ×{factor:.2f} ({why}; reserved "
                     "against allocated at the peak in torchtune's logged runs)")
        notes.append(f"runtime: CUDA context {CUDA_CONTEXT_BYTES / MIB:.0f} MiB"
                     + (f" + NCCL buffers {nccl / MIB:.0f} MiB" if nccl else ""))
    at_peak = {
        "forward end": dict(activations=acts, gradients=held_grads, buffers=a.buckets + logits + during),
        "backward": dict(activations=acts, gradients=held_grads + a.head_grad, buffers=a.buckets + logits + during),
        "backward end": dict(activations=0.0, gradients=grads, buffers=a.buckets + a.comm + during + kept),
        "optimizer step": dict(activations=0.0, gradients=grads, buffers=a.buckets + a.step_temp + kept),
    }[peak_name]
    runtime = CUDA_CONTEXT_BYTES + nccl
    breakdown = MemoryBreakdown(weights=a.weights, optimizer=a.optim, adapters=b.adapters, allocator=allocator,
                                reference_weights=a.reference, paged=a.paged, runtime=runtime, host=host, disk=a.disk,
                                phases=tuple(sorted([(k, static + v) for k, v in phases.items()], key=_larger_first)),
                                **at_peak)
    if notes is None:
        return MemoryResult(breakdown=breakdown, params_total=b.counts.total, params_trainable=b.trainable)
    sizes = MemoryBreakdown(weights=a.weights, optimizer=a.optim, adapters=b.adapters, reference_weights=a.reference,
                            activations=acts, gradients=grads,
                            buffers=logits + during + a.buckets + a.comm + a.step_temp,
                            runtime=runtime, host=host, disk=a.disk)
    return MemoryResult(breakdown=breakdown, sizes=sizes, assumptions=tuple(notes), params_total=b.counts.total,
                        params_trainable=b.trainable)


def _larger_first(phase: tuple[str, float]) -> float:
    return -phase[1]


#: The fields whose being set by the user (``PlannedJob.model_fields_set``), not only their value, changes
#: ``apply_framework``'s answer: it gives the framework's default to those the user left unset (a test checks
#: that no other field's being set matters). Two workloads differing only there are equal and hash alike.
SET_BY_USER = frozenset({"framework", "precision", "loss_chunks", "checkpointing"})
_ALL_FIELDS = itemgetter(*PlannedJob.model_fields)  # a workload's values, in a tuple (hashed without pydantic)


def _batch_free(arch: ModelArch, planned: PlannedJob,
                words: bool) -> tuple[BeforeBatch, AfterBatch, tuple[str, ...], tuple[str, ...]]:
    """``before_batch`` and ``after_batch`` (and their words, when asked), kept per (model, job without
    ``MICRO_BATCH_FIELDS``)."""
    key = (_BATCH_FREE_FIELDS(planned.__dict__), words)
    got = _BATCH_FREE_CACHE.get((arch,), key)
    if got is not None:
        return got
    before_words: list[str] | None = [] if words else None
    after_words: list[str] | None = [] if words else None
    b = before_batch(arch, planned, before_words)
    parts = (b, after_batch(planned, b, after_words), tuple(before_words or ()), tuple(after_words or ()))
    return _BATCH_FREE_CACHE.put((arch,), key, parts)
