"""Training frameworks' memory-relevant defaults: ``--framework`` fills what the user left unset.

Each profile says what a framework does unless told otherwise, with the code it comes from.
Only fields the user did not set (``Workload.model_fields_set``) take the profile's value, so
every default stays overridable. What the profiles change, and why:

* **hf** (transformers ``Trainer`` + PEFT / TRL): mixed precision with fp32 master weights
  (``TrainingArguments(bf16=True)`` autocasts an fp32 model: AMP); the loss upcasts the logits
  to fp32 inside ``ForCausalLMLoss`` (transformers ≥ 4.46, ``loss/loss_utils.py``), earlier
  releases also kept a shifted fp32 copy (``fp32-logits``); PEFT keeps LoRA adapters in fp32
  (``autocast_adapter_dtype=True``). No compile.
* **torchtune**: the whole model in bf16, no fp32 master (recipe configs ``dtype: bf16``);
  ``CEWithChunkedOutputLoss`` with 8 output chunks (``torchtune/modules/loss/ce_chunked_output_loss.py``,
  ``num_output_chunks=8``); activation checkpointing on in its configs; single-device full
  fine-tunes step the optimizer in backward (``optimizer_in_bwd: True`` in
  ``llama3_1/8B_full_single_device.yaml``). Activation offloading only when asked.
* **torchtitan**: FSDP2 with ``MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32)``:
  sharded fp32 master parameters and fp32 AdamW states (AMP), op-level selective activation
  checkpointing (``activation_checkpoint.mode = "selective"``, ``selective_ac_option = "op"``),
  loss ``cross_entropy(pred.float(), …)`` (upcast).
* **litgpt**: ``precision="bf16-true"`` (pure bf16) in its fine-tuning scripts; logits and loss
  in chunks (``lm_head_chunk_size=128`` and ``chunked_cross_entropy``, ``litgpt/utils.py``).
* **axolotl**: the HF Trainer underneath (hf defaults); Liger kernels (fused linear
  cross-entropy) only when enabled in its config.
* **unsloth**: fused/chunked cross-entropy of its own kernels (``fused``), and its
  ``use_gradient_checkpointing="unsloth"`` offloads checkpointed activations to host RAM; pure
  16-bit weights.
* **deepspeed**: ZeRO keeps fp32 master weights and optimizer states with 16-bit parameters
  (AMP); the model's own loss (hf's).
* **horovod**: data parallel with ring all-reduce: DDP memory, but gradients are all-reduced
  through a fusion buffer of ``HOROVOD_FUSION_THRESHOLD`` (128 MiB by default since horovod
  PR #2468) instead of DDP's full-size buckets.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.job.workload import Checkpointing, Framework, Loss, Method, Mode, Precision, Workload

#: Horovod's default tensor-fusion buffer: HOROVOD_FUSION_THRESHOLD = 128 MiB since horovod PR #2468
#: (commit 3ffe479, 2020-11; horovod/common/operations.cc; the docs' older "64 MB" predates it).
HOROVOD_FUSION_BYTES = 128 * 2**20


@dataclass(frozen=True)
class Profile:
    precision: Precision = Precision.AMP
    loss: Loss = Loss.UPCAST
    loss_chunks: int = 8
    compile: bool = False
    checkpointing: Checkpointing | None = None  # None: the job's own setting
    optimizer_in_backward_full_single: bool = False  # full fine-tune on one GPU
    activation_offload: bool = False
    summary: str = ""


PROFILES: dict[Framework, Profile] = {
    Framework.HF: Profile(summary="mixed precision (fp32 master), loss upcast to fp32, fp32 LoRA adapters (PEFT)"),
    Framework.TORCHTUNE: Profile(precision=Precision.BF16, loss=Loss.CHUNKED, loss_chunks=8,
                                 checkpointing=Checkpointing.FULL, optimizer_in_backward_full_single=True,
                                 summary="pure bf16, chunked cross-entropy (8 chunks), activation checkpointing, "
                                         "optimizer in backward for single-GPU full fine-tunes"),
    Framework.TORCHTITAN: Profile(precision=Precision.AMP, loss=Loss.UPCAST, checkpointing=Checkpointing.OP_SAC,
                                  summary="FSDP2 with fp32 master parameters, op-level selective checkpointing, "
                                          "loss upcast to fp32"),
    Framework.LITGPT: Profile(precision=Precision.BF16, loss=Loss.CHUNKED, loss_chunks=16,
                              summary="pure bf16 ('bf16-true'), logits and loss in chunks"),
    Framework.AXOLOTL: Profile(summary="the HF Trainer's defaults (Liger's fused loss only when enabled)"),
    Framework.UNSLOTH: Profile(precision=Precision.BF16, loss=Loss.FUSED, checkpointing=Checkpointing.FULL,
                               activation_offload=True,
                               summary="16-bit weights, fused cross-entropy, checkpointed activations offloaded "
                                       "to host RAM"),
    Framework.DEEPSPEED: Profile(summary="ZeRO with fp32 master weights and optimizer states, the model's own loss"),
    Framework.HOROVOD: Profile(summary="data parallel with ring all-reduce through a 128 MiB fusion buffer"),
}


def apply_framework(w: Workload) -> Workload:
    """``w`` with its framework's defaults in every training field the user left unset."""
    if w.mode is not Mode.TRAIN:
        return w
    given = w.model_fields_set
    update: dict[str, object] = {}
    if w.method.litgpt_adapter and "framework" not in given:
        # LitGPT's adapter methods exist only in LitGPT (finetune_adapter / finetune_adapter_v2).
        update["framework"] = Framework.LITGPT
    p = PROFILES[update.get("framework", w.framework)]
    if "precision" not in given:
        update["precision"] = p.precision
    if w.loss is None:
        update["loss"] = p.loss
        if "loss_chunks" not in given:
            update["loss_chunks"] = p.loss_chunks
    if w.compile is None:
        update["compile"] = p.compile
    if "checkpointing" not in given and p.checkpointing is not None:
        update["checkpointing"] = p.checkpointing
    if w.optimizer_in_backward is None:
        update["optimizer_in_backward"] = (p.optimizer_in_backward_full_single and w.method is Method.FULL
                                           and w.n_gpus == 1 and w.grad_accum_steps == 1)
    if w.activation_offload is None:
        update["activation_offload"] = p.activation_offload
    return w.model_copy(update=update) if update else w


def describe(framework: Framework) -> str:
    """One sentence for the window's tooltip and the estimate's assumptions."""
    return f"{framework.value}: {PROFILES[framework].summary}"
