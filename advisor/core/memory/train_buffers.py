"""Training buffers of the busiest GPU: saved activations, the loss's logits, gathered and dequantized layers,
gradient buckets; and the model as the framework holds it.

Tensor parallelism (Megatron-LM, Shoeybi et al. 2019 arXiv:1909.08053) splits every weight matrix;
pipeline parallelism splits layers; with the 1F1B schedule the first stage holds up to p micro-batches
of activations (Korthikanti et al. 2022 §4.2.3).
"""

from __future__ import annotations

from advisor.core.job.choices import ActivationQuant, Checkpointing, Framework, Loss, Method, Parallel, Precision
from advisor.core.job.frameworks import FRAMEWORK_NAMES, HOROVOD_FUSION_BYTES, PROFILES
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import applies
from advisor.core.job.settings import choice_label as said
from advisor.core.memory.activations import (
    ACT_BYTES,
    SavedInputs,
    op_sac_activation_bytes,
    train_activation_bytes,
)
from advisor.core.memory.formats import weight_format
from advisor.core.memory.held import base_format_name
from advisor.core.memory.inference import largest_linear_params, weights_bytes
from advisor.core.memory.loss_logits import (
    LOGITS_TRAIN_BYTES_PER_ELEMENT,
    fabric_chunked_loss_logits_bytes,
    logit_elements,
    train_logits_bytes,
    upcast_loss_logits_bytes,
)
from advisor.core.memory.sharding import GATHERED_LAYERS, layer_params
from advisor.core.memory.states import param_bytes
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params

#: Saved activations in 8 bits instead of 16: half the bytes (COAT arXiv:2410.19313 and Jetfire
#: arXiv:2403.12422 store them in FP8 / INT8).
ACTIVATION_QUANT_SHARE = 0.5

def act_bytes(job: Job) -> int:
    """Bytes of an activation (and of the lm_head's output): 4 in fp32 training, 2 otherwise (bf16 / fp16, and
    autocast, which runs the matmuls in 16 bits)."""
    return 4 if job.precision is Precision.FP32 else ACT_BYTES


def train_activations(arch: ModelArch, job: Job, layers: int, tp: int, cp: int, in_flight: int,
                      saved: SavedInputs, notes: list[str] | None) -> float:
    """Saved activations of one micro-batch (and those in flight), by checkpointing policy."""
    seq = max(1, job.seq_len // cp)
    per_element = act_bytes(job)
    stream_bytes = 4 if kbit_upcast(job) else per_element  # the residual stream from an fp32 embedding (``kbit_upcast``)
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
                                      per_element, saved, sp, stream_bytes)
        full = train_activation_bytes(arch, seq, job.batch, job.attention, Checkpointing.NONE, layers - ckpt, tp,
                                      in_flight, per_element, saved, sp)
        acts = kept + full
    else:
        acts = train_activation_bytes(arch, seq, job.batch, job.attention, job.checkpointing, layers, tp, in_flight,
                                      per_element, saved, sp, stream_bytes)
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


def compiled_loss(job: Job) -> bool:
    """torch.compile covers the loss's upcast and cross-entropy (``Profile.compile_covers_loss``)."""
    return bool(job.compile) and PROFILES[job.framework].compile_covers_loss


def eager_chunked_loss(job: Job) -> bool:
    """A chunked loss that upcasts one chunk at a time, run without torch.compile covering it: every chunk's
    fp32 log-softmax stays for the backward."""
    return job.loss is Loss.CHUNKED and PROFILES[job.framework].chunked_loss_upcast and not compiled_loss(job)


def loss_buffer_bytes(arch: ModelArch, job: Job, tp: int, cp: int = 1) -> float:
    """Logits and cross-entropy temporaries at the loss, by ``PlannedJob.loss``.

    upcast and chunked: ``upcast_loss_logits_bytes`` — eager, the bf16 logits, every chunk's fp32 log-softmax and one
    chunk's fp32 upcast (2 + 4 + 4 B per token × vocab for a whole loss), compiled the bf16 logits and one chunk's bf16
    gradient; LitGPT's chunks through Fabric: ``fabric_chunked_loss_logits_bytes``; fp32-logits adds the shifted fp32
    copy transformers < 4.46 made (``shift_logits = logits[..., :-1, :].contiguous()``, 4 B); fused: Liger's fused
    linear cross-entropy never holds the full logits: chunks of about vocab / hidden (``chunk_size =
    next_power_of_2(ceil(BT / ceil(V / H)))`` in liger_kernel/ops/fused_linear_cross_entropy.py).
    """
    seq = max(1, job.seq_len // cp)
    loss = job.loss or Loss.UPCAST
    if loss is Loss.CHUNKED and not PROFILES[job.framework].chunked_loss_upcast:
        return fabric_chunked_loss_logits_bytes(arch, seq, job.batch, tp)
    if loss in (Loss.CHUNKED, Loss.UPCAST):
        chunks = job.loss_chunks if loss is Loss.CHUNKED else 1
        return upcast_loss_logits_bytes(arch, seq, job.batch, chunks, tp, compiled=compiled_loss(job))
    if loss is Loss.FUSED:
        chunks = max(1, -(-arch.vocab_size // arch.hidden_size))
        return train_logits_bytes(arch, seq, job.batch, tp) / chunks
    return train_logits_bytes(arch, seq, job.batch, tp) * (1 + 4 / LOGITS_TRAIN_BYTES_PER_ELEMENT)  # fp32-logits


def kept_output_bytes(arch: ModelArch, job: Job, tp: int, cp: int = 1) -> float:
    """The logits a training loop of the user's own keeps from the forward's end until its step ends (``Job.
    keeps_output``, where its declaration applies): ``out = model(input_ids, labels=labels); out.loss.backward();
    optimizer.step()`` holds ``out.logits``, the lm_head's output over the whole vocabulary, in its dtype (fp32 in
    fp32 training, 16 bits otherwise: autocast runs the lm_head in 16 bits), beside what the loss keeps
    (``loss_buffer_bytes``). The HF Trainer's ``compute_loss`` returns the loss alone, so the output object is gone
    before the backward (transformers trainer.py ``training_step``). 0 where the option is off."""
    if not (job.keeps_output and applies("keeps_output", job)):
        return 0.0
    return logit_elements(arch, max(1, job.seq_len // cp), job.batch, tp) * act_bytes(job)


def as_trained(arch: ModelArch, job: Job, notes: list[str] | None = None) -> ModelArch:
    """The model as the framework holds it: LitGPT keeps a separate lm_head even when the
    checkpoint ties it to the embedding (``Profile.untied_lm_head``)."""
    if arch.tied_embeddings and PROFILES[job.framework].untied_lm_head:
        if notes is not None:
            notes.append(f"{FRAMEWORK_NAMES[job.framework]}: the tied embedding is copied into a separate lm_head "
                         "(litgpt/scripts/convert_hf_checkpoint.py)")
        return arch.model_copy(update={"tied_embeddings": False})
    return arch

def lora_padded(targets: tuple[str, ...]) -> tuple[str, ...]:
    """The q/k/v projections with LoRA when some but not all of them have it: LitGPT's
    ``LoRAQKVLinear.zero_pad`` then scatters their LoRA output into the fused width (``index_copy``),
    and autograd keeps that output (``Profile.lora_pad_saved``). With all three, nothing is padded."""
    t = set(targets)
    if "all-linear" in t:
        return ()
    picked = tuple(x for x in ("q", "k", "v") if x in t)
    return picked if 0 < len(picked) < 3 else ()


def four_bit_lm_head(job: Job) -> bool:
    """The 4-bit base covers the lm_head (LitGPT under Fabric's bitsandbytes plugin)."""
    return four_bit_base(job) and PROFILES[job.framework].quantize_lm_head


def four_bit_bytes(job: Job) -> float:
    """Bytes per parameter of the 4-bit base format (with its block constants)."""
    return weight_format(base_format_name(job), job.quant_group_size, job.double_quant).bits_per_weight / 8


def kbit_upcast(job: Job) -> bool:
    """A QLoRA job whose script runs PEFT's ``prepare_model_for_kbit_training`` (``Job.kbit_upcast``): "cast all non
    INT8 parameters to fp32" — every fp16 / bf16 parameter that is not a bitsandbytes ``Params4bit``, i.e. the
    embedding, the lm_head (bitsandbytes leaves it unquantized) and the norms (peft src/peft/utils/other.py
    L204-L209 at 5d602fdb). With autocast the embedding's fp32 output then makes the residual stream fp32 (each
    block adds its 16-bit output to it), and the lm_head's matmul runs on an fp16 copy of its fp32 weight that
    autocast does not cache for a frozen weight (``cached_cast`` caches leaves that require grad only,
    aten/src/ATen/autocast_mode.cpp) and that the matmul keeps for its backward. Only where the setting applies (QLoRA
    with the Hugging Face trainer: its declaration's ``Where``)."""
    return job.kbit_upcast and applies("kbit_upcast", job)


def four_bit_base(job: Job) -> bool:
    """The frozen base is stored in 4 bits (QLoRA, or LitGPT adapters with --quantize bnb.nf4)."""
    return job.method is Method.QLORA or (job.method.litgpt_adapter and job.weights.lower() in ("nf4", "fp4"))


def base_bytes(arch: ModelArch, job: Job) -> float:
    """Bytes per stored base parameter (4-bit formats under QLoRA, 16-bit otherwise)."""
    if job.method is Method.FULL:
        return float(param_bytes(job.precision))
    return weights_bytes(arch, job) / count_params(arch).total


def forward_buffers(arch: ModelArch, planned: PlannedJob, tp: int, notes: list[str] | None) -> float:
    """Buffers alive through forward and backward: gathered FSDP/ZeRO-3 layers, a dequantized 4-bit layer."""
    extra = 0.0
    if planned.parallel in (Parallel.ZERO3, Parallel.FSDP):
        extra += GATHERED_LAYERS * layer_params(arch) * base_bytes(arch, planned) / tp
        if notes is not None:
            notes.append(f"{said('parallel', planned.parallel)}: {GATHERED_LAYERS} gathered layers of full parameters")
    if four_bit_base(planned):
        largest = max(largest_linear_params(arch), count_params(arch).lm_head if four_bit_lm_head(planned) else 0.0)
        dequant = PROFILES[planned.framework].dequant_bytes
        extra += largest * dequant
        if notes is not None:
            notes.append(("QLoRA" if planned.method is Method.QLORA else "4-bit base")
                         + ": one weight matrix dequantized at a time (bitsandbytes MatMul4Bit)"
                         + (", the lm_head the largest" if largest > largest_linear_params(arch) else "")
                         + (f", {dequant} bytes per element (an fp16 dequantized copy and its bf16 cast)"
                            if dequant > 2 else ""))
    if kbit_upcast(planned) and planned.precision is Precision.AMP:
        counts = count_params(arch)
        extra += (counts.lm_head or counts.embedding) * 2 / tp
        if notes is not None:
            notes.append("the fp32 output layer's 16-bit copy for its matmul, kept for the backward (autocast)")
    return extra


def whole_after_forward(arch: ModelArch, planned: PlannedJob, tp: int, dp: int,
                        notes: list[str] | None) -> tuple[float, float]:
    """(parameters beyond their shard, the lm_head's whole gradient) per GPU that FSDP's full sharding keeps from the
    forward's end into the backward: the framework's root unit, not resharded after its forward
    (``Profile.fsdp_whole_after_forward``, ``FSDP_ROOT_SOURCE``); the lm_head's gradient is the backward's first, whole
    until its unit reduces it. 16-bit embedding and lm_head under LoRA and QLoRA (bitsandbytes leaves them whole)."""
    names = PROFILES[planned.framework].fsdp_whole_after_forward
    if planned.parallel is not Parallel.FSDP or dp <= 1 or not names:
        return 0.0, 0.0
    c = count_params(arch)
    head = (c.embedding if arch.tied_embeddings else c.lm_head) if "lm_head" in names else 0.0  # a tied head: the embedding
    embedding = c.embedding if "embedding" in names and not (arch.tied_embeddings and head) else 0.0
    full = planned.method is Method.FULL
    per_param = param_bytes(planned.precision) if full else 2
    params = (embedding + head) * per_param * (1 - 1 / dp) / tp
    grad = head * per_param / tp if full else 0.0
    if notes is not None:
        what = " and ".join(w for w, n in (("embedding", embedding), ("lm_head", head)) if n)
        notes.append(f"FSDP keeps the {what} whole from the end of the forward pass into the backward "
                     f"({FRAMEWORK_NAMES[planned.framework]}'s root unit is not resharded after its forward)"
                     + (", with the lm_head's whole gradient at the start of the backward" if grad else ""))
    return params, grad


def comm_buffers(planned: PlannedJob, grads_per_gpu: float, notes: list[str] | None) -> float:
    """DDP's gradient buckets or Horovod's fusion buffer: allocated once and kept from step to step, so alive in every
    phase of the step, the optimizer's too. DDP's ``Reducer::initialize_buckets`` allocates each bucket's flat
    ``gradients`` tensor as a member of the reducer (torch/csrc/distributed/c10d/reducer.cpp at ad78a7b3); with
    ``gradient_as_bucket_view=False`` (the default) the parameters' own gradients are separate tensors, which is why the
    DDP docs say the view "can reduce peak memory usage, where the saved memory size will be equal to the total
    gradients size"."""
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
