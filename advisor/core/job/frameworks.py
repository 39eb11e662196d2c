"""Training frameworks' memory-relevant defaults: ``--framework`` fills what the user left unset.

Each profile says what a framework does unless told otherwise, with the code it comes from.
Only fields the user did not set (``Job.model_fields_set``) take the profile's value, so
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
  in chunks (``lm_head_chunk_size=128`` and ``chunked_cross_entropy``, ``litgpt/utils.py``), the chunks
  cast to fp32 by Fabric on return from the model (``precision.convert_output``). What
  its code keeps beyond that (LitGPT at ``LITGPT_COMMIT``, read): a separate ``lm_head``
  even for checkpoints that tie it to the embedding; k and v repeated to every query head before
  SDPA; LoRA dropout 0.05 on every adapted module's input; every chunk's fp32 logits and
  log-probabilities kept for backward; with one query head per KV head, v
  saved as a view of the fused q|k|v output (which it keeps whole); with LoRA on part of q/k/v, the
  LoRA output padded into the fused width by ``index_copy``, which autograd keeps; under FSDP, each block
  one FSDP unit mixing frozen weights and adapters (gradients as large as the blocks) and gradient
  accumulation through FSDP's ``no_sync`` (whole gradients until the last micro-batch); and under ``--quantize bnb.nf4``
  Lightning Fabric's ``BitsandbytesPrecision``, which makes every ``nn.Linear`` 4-bit — the
  ``lm_head`` too — from an fp16 copy, so each 4-bit matmul dequantizes to fp16 and then copies to
  bf16 (constants below).
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

Which AdamW kernel each framework runs (``optimizer_kernel``; ``OPTIMIZER_KERNEL_SOURCES``): the fused
one in the HF Trainer (and Axolotl and Unsloth, which train with it), torchtune and torchtitan;
PyTorch's own default, foreach, where a framework builds ``torch.optim.AdamW`` without choosing.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.job.choices import (
    Checkpointing,
    Framework,
    Loss,
    Method,
    Mode,
    OptimizerKernel,
    Precision,
)
from advisor.core.job.job import Job, JobT
from advisor.core.job.planned import PlannedJob
from advisor.core.memo import KeepLast

#: Horovod's default tensor-fusion buffer: HOROVOD_FUSION_THRESHOLD = 128 MiB since horovod PR #2468
#: (commit 3ffe479, 2020-11; horovod/common/operations.cc; the docs' older "64 MB" predates it).
HOROVOD_FUSION_BYTES = 128 * 2**20

#: LitGPT at this commit (2024-09-27, the config hub's "Llama 3.2 weights" table) is what the
#: litgpt profile's memory mechanisms follow; the 2023 resource-table code (lit_gpt at 8641822)
#: has the same ones (cited where they differ).
LITGPT_COMMIT = "00af8b0d9b43eaa3f8c812e3e8bd53ef38cbb49d"
#: LitGPT's LoRA dropout: ``lora_dropout: float = 0.05`` in ``litgpt/finetune/lora.py`` ``setup`` and
#: ``lora_dropout: 0.05`` in every ``config_hub/finetune/*/lora.yaml`` / ``qlora.yaml`` at
#: ``LITGPT_COMMIT`` (``lora_dropout = 0.05`` in ``finetune/lora.py`` at 8641822). ``nn.Dropout``
#: on each LoRA module's input: the dropped copy (16-bit, what ``lora_A`` keeps) and its bool mask
#: (1 byte) are saved for backward.
LITGPT_LORA_DROPOUT = 0.05
#: Bytes per element of the dequantized weight while a bitsandbytes 4-bit matmul runs under
#: Lightning Fabric: ``_Linear4bit.quantize`` quantizes ``weight.contiguous().to(device=device,
#: dtype=torch.half)`` (src/lightning/fabric/plugins/precision/bitsandbytes.py line 334 at lightning
#: 2.4.0, commit 2129fdf3622e39ba46be4e1139af408e7e951cf3; line 224 at 2.1.0), so the quant state's
#: dtype is fp16; bitsandbytes 0.42.0 ``MatMul4Bit`` runs ``F.dequantize_4bit(B, quant_state)
#: .to(A.dtype)`` (bitsandbytes/autograd/_functions.py, tag 0.42.0 = 4870580f; ``dequantize_4bit``
#: allocates ``quant_state.dtype``): an fp16 matrix and its bf16 copy (2 + 2 B) at once, in forward
#: and again in backward. Where the quant state is already the compute dtype, one 2-byte copy.
FABRIC_BNB_DEQUANT_BYTES = 4
BNB_DEQUANT_BYTES = 2
#: Why LitGPT keeps the whole fused q|k|v output when every query head has its own KV head
#: (``Profile.fused_qkv_view``): ``CausalSelfAttention.forward`` (litgpt/model.py at ``LITGPT_COMMIT``;
#: lit_gpt/model.py at 8641822) runs ``qkv.view(B, T, n_query_groups, total_qkv, head_size).permute(0, 2,
#: 3, 1, 4)``, ``q, k, v = qkv.split((q_per_kv, 1, 1), dim=2)`` and ``v = v.reshape(B, -1, T, head_size)``.
#: With ``q_per_kv == 1`` that reshape only merges a size-1 dimension, so v stays a view of ``qkv``; q and k
#: become new tensors (RoPE, ``torch.cat``) but the SDPA node saves v, so the whole ``(B, T, q + 2 kv)``
#: output stays alive instead of v alone. (With grouped queries k and v are expanded first and the reshape
#: copies: ``kv_full_heads``.) Checked by counting autograd's saved storages of LitGPT's code under
#: PyTorch 2.1.0 and 2.4.0.
LITGPT_QKV_VIEW = "litgpt/model.py CausalSelfAttention.forward: v = v.reshape(...) of the permuted qkv"
#: Why LoRA on part of q/k/v keeps its output (``Profile.lora_pad_saved``): ``LoRAQKVLinear.zero_pad``
#: (litgpt/lora.py at ``LITGPT_COMMIT``: ``result.index_copy_(dim=-1, index=self.lora_ind, source=x)``; lit_gpt
#: /lora.py at 8641822: ``result.index_copy(1, ..., x.reshape(...))``) scatters the LoRA output into a zero
#: tensor of the fused width, and PyTorch's ``index_copy`` derivative is ``source: grad.index_select(dim,
#: index).expand_as(source)`` (tools/autograd/derivatives.yaml), so autograd saves the source: 2 bytes × the
#: adapted projections' widths per token. With LoRA on all three nothing is padded (``zero_pad`` returns x).
LITGPT_LORA_PAD = "litgpt/lora.py LoRAQKVLinear.zero_pad: index_copy_(..., source=x); derivatives.yaml index_copy"
#: Why a LitGPT LoRA/adapter job under FSDP has gradients as large as the model's blocks
#: (``Profile.fsdp_mixed_units``): its scripts wrap every ``Block`` as one FSDP unit
#: (``FSDPStrategy(auto_wrap_policy={Block}, activation_checkpointing_policy={Block}, ...)`` in
#: finetune/lora.py at 8641822 and litgpt/finetune/lora.py at ``LITGPT_COMMIT``), so each unit's
#: FlatParameter mixes frozen weights and trainable adapters; Lightning Fabric sets
#: ``use_orig_params=True`` by default (src/lightning/fabric/strategies/fsdp.py, line 171 at lightning
#: 2.1.0 = 6f6c07dd, line 174 at 2.4.0 = 2129fdf3), and PyTorch's FSDP docs say that with it mixing
#: "frozen and non-frozen" parameters makes "the gradient memory usage ... higher than expected (namely,
#: equivalent to not freezing those parameters)" (litgpt issue #1417). The root unit (embedding,
#: lm_head, final norm) holds no adapter, so it has no gradient.
FSDP_MIXED_UNITS = "litgpt FSDPStrategy(auto_wrap_policy={Block}); Fabric use_orig_params=True; PyTorch FSDP docs"
#: What of a model stays whole on every GPU from the end of the forward pass into the backward under FSDP's full
#: sharding, beyond the gathered layers (``Profile.fsdp_whole_after_forward``). PyTorch does not reshard the root unit
#: after its forward — "Do not free the root's parameters in the post-forward for `FULL_SHARD` with the intention that
#: they are immediately used for backward computation" (``_post_forward_reshard``, torch/distributed/fsdp/
#: _runtime_utils.py at 3ade90a6; FSDP2 alike, ``post_forward_mesh_info = None`` for the root, torch/distributed/fsdp/
#: _fully_shard/_fsdp_state.py at 1fd469d0) — and the root unit holds what no wrapped block does. Under the HF Trainer's
#: FSDP (accelerate wraps the model's ``_no_split_modules``, its decoder layer: src/accelerate/utils/fsdp_utils.py at
#: 1cb6fdcf), Axolotl's and LitGPT's (``auto_wrap_policy={Block}``) that is the embedding, the final norm and the
#: lm_head. torchtitan shards the embedding apart and keeps its norm + output group whole after forward by default
#: (``reshard_after_forward=reshard_after_forward_policy == "always"``, torchtitan/models/llama3/infra/parallelize.py at
#: 018740b7); torchtune's Llama configs shard ``tok_embeddings`` and ``output`` apart (``custom_sharded_layers``).
FSDP_ROOT_SOURCE = ("PyTorch FSDP _post_forward_reshard (root not resharded after forward); accelerate fsdp_utils "
                    "(_no_split_modules wrap); torchtitan apply_fsdp (norm + output not resharded)")
#: Where torch.compile covers the loss (``Profile.compile_covers_loss``). torchtune's recipes, with ``compile: True``,
#: call ``training.compile_loss``, which for ``CEWithChunkedOutputLoss`` compiles ``compute_cross_entropy`` (the chunk's
#: upcast and cross-entropy) and any other loss whole (torchtune/training/_compile.py line 64, recipes/
#: lora_finetune_single_device.py line 271 at 0031bfb0). torchtitan compiles its loss with the model since PR #1033
#: (2025-04-02: ``build_cross_entropy_loss`` wraps it in ``torch.compile`` under ``--training.compile``,
#: torchtitan/components/loss.py at 775a486e; today ``compile.components`` defaults to ``["model", "loss"]``,
#: torchtitan/config/configs.py line 301 at b5bcd76c); its builds before it compiled the blocks only.
COMPILE_LOSS_SOURCE = ("torchtune training.compile_loss; torchtitan build_cross_entropy_loss (PR #1033) and "
                       "compile.components ['model', 'loss']")
#: Why gradient accumulation under LitGPT's FSDP holds whole gradients (``Profile.accumulate_unsharded``):
#: the training loop runs each accumulating micro-batch in ``fabric.no_backward_sync(model,
#: enabled=is_accumulating)`` (finetune/lora.py at 8641822; litgpt/finetune/*.py at ``LITGPT_COMMIT``), which
#: for FSDP is ``module.no_sync()`` (``_FSDPBackwardSyncControl``, lightning fsdp.py line 760 at 2.1.0, 762
#: at 2.4.0), and PyTorch's ``FullyShardedDataParallel.no_sync``: "This likely results in higher memory
#: usage because FSDP will accumulate the full model gradients (instead of gradient shards) until the
#: eventual sync."
FSDP_NO_SYNC = "Fabric no_backward_sync -> FSDP.no_sync: unsharded gradients until the synchronizing micro-batch"


#: Where each framework's AdamW kernel comes from (``Profile.optimizer_kernel``). PyTorch builds the
#: foreach form unless told otherwise: ``torch.optim.AdamW(foreach=None, fused=None)`` picks foreach for
#: CUDA tensors and fused only when asked (torch/optim/optimizer.py ``_default_to_fused_or_foreach``, which
#: AdamW calls with ``use_fused=False``; the torch.optim docs' "Algorithms" section says the same).
OPTIMIZER_KERNEL_SOURCES = {
    Framework.HF: "transformers src/transformers/training_args.py at 00349ae8: default_optim = "
                  "'adamw_torch_fused' with torch >= 2.8 ('adamw_torch', foreach, before)",
    Framework.TORCHTUNE: "torchtune recipes/configs (llama3_1/8B_lora_single_device.yaml at 2943c61e): "
                         "torch.optim.AdamW with fused: True",
    Framework.TORCHTITAN: "torchtitan torchtitan/config/job_config.py at 6404b932: Optimizer.implementation "
                          "= 'fused'",
    Framework.LITGPT: "litgpt/finetune/lora.py at 01fe959c: torch.optim.AdamW(trainable_params, lr=..., "
                      "weight_decay=..., betas=...), PyTorch's default (foreach)",
    Framework.AXOLOTL: "the HF Trainer's default (it trains with transformers' Trainer)",
    Framework.UNSLOTH: "the HF Trainer's default (it trains with transformers' / TRL's Trainer)",
    Framework.DEEPSPEED: "PyTorch's default (foreach): no pinned source for DeepSpeed's own choice here",
    Framework.HOROVOD: "PyTorch's default (foreach): Horovod wraps the user's torch optimizer",
}


@dataclass(frozen=True)
class Profile:
    precision: Precision = Precision.AMP
    loss: Loss = Loss.UPCAST
    loss_chunks: int = 8
    compile: bool = False
    checkpointing: Checkpointing | None = None  # None: the job's own setting
    optimizer_in_backward_full_single: bool = False  # full fine-tune on one GPU
    activation_offload: bool = False
    offload_with_checkpointing: bool = False  # its offload is part of its checkpointing: UNSLOTH_OFFLOAD_SOURCE
    optimizer_kernel: OptimizerKernel = OptimizerKernel.FOREACH  # OPTIMIZER_KERNEL_SOURCES
    # What the framework's own model code keeps (not job options: they follow its code).
    untied_lm_head: bool = False  # a separate lm_head even when the checkpoint ties it to the embedding
    kv_full_heads: bool = False  # k and v repeated to every query head before the attention kernel
    fused_qkv_view: bool = False  # v (one query head per KV head) is a view of the fused qkv output: LITGPT_QKV_VIEW
    lora_pad_saved: bool = False  # LoRA on part of q/k/v: its padded-in output is saved: LITGPT_LORA_PAD
    fsdp_mixed_units: bool = False  # FSDP wraps frozen weights and adapters in one unit: FSDP_MIXED_UNITS
    accumulate_unsharded: bool = False  # FSDP gradient accumulation under no_sync: FSDP_NO_SYNC
    fsdp_whole_after_forward: tuple[str, ...] = ()  # "embedding", "lm_head": kept whole into the backward (FSDP_ROOT_SOURCE)
    lora_dropout: float = 0.0  # PEFT LoraConfig and torchtune builders default to 0.0
    chunked_loss_upcast: bool = True  # chunked CE upcasts one chunk at a time (torchtune); False: every
    # chunk's logits and log-probabilities kept, in fp32 (LitGPT: Fabric casts the model's output to fp32)
    compile_covers_loss: bool = False  # torch.compile compiles the loss (its upcast and CE): COMPILE_LOSS_SOURCE
    quantize_lm_head: bool = False  # the 4-bit base covers the lm_head too (transformers keeps it 16-bit)
    dequant_bytes: int = BNB_DEQUANT_BYTES  # bytes per element of the dequantized 4-bit weight alive at once
    training_loop: Framework | None = None  # the framework whose training loop it runs (its speed share): AXOLOTL_TRAINER
    summary: str = ""


#: Unsloth offloads activations as part of its own gradient checkpointing: ``Unsloth_Offloaded_Gradient_Checkpointer``
#: copies each checkpointed layer's input to host RAM in the forward and back in the backward
#: (unsloth_zoo/gradient_checkpointing.py at 988475f6), and runs only under ``use_gradient_checkpointing="unsloth"``
#: (April 2024 on). A job without checkpointing (``use_gradient_checkpointing=False``) keeps every activation on the GPU.
#: Axolotl trains with transformers' Trainer: ``class AxolotlTrainer(PackingMixin, ..., Trainer)`` (src/axolotl/core/
#: trainers/base.py at 067b021c), so its step is the HF Trainer's loop and reaches the HF Trainer's measured share.
AXOLOTL_TRAINER = "axolotl src/axolotl/core/trainers/base.py at 067b021c: class AxolotlTrainer(..., Trainer)"
UNSLOTH_OFFLOAD_SOURCE = "unsloth_zoo/gradient_checkpointing.py at 988475f6 (Unsloth_Offloaded_Gradient_Checkpointer)"

PROFILES: dict[Framework, Profile] = {
    Framework.HF: Profile(optimizer_kernel=OptimizerKernel.FUSED, fsdp_whole_after_forward=("embedding", "lm_head"),
                          summary="mixed precision (fp32 master), loss upcast to fp32, fp32 LoRA adapters (PEFT), "
                                  "fused AdamW (transformers' default with PyTorch 2.8 or later)"),
    Framework.TORCHTUNE: Profile(precision=Precision.BF16, loss=Loss.CHUNKED, loss_chunks=8,
                                 checkpointing=Checkpointing.FULL, optimizer_in_backward_full_single=True,
                                 optimizer_kernel=OptimizerKernel.FUSED, compile_covers_loss=True,
                                 summary="pure bf16, chunked cross-entropy (8 chunks), activation checkpointing, "
                                         "optimizer in backward for single-GPU full fine-tunes, fused AdamW"),
    Framework.TORCHTITAN: Profile(precision=Precision.AMP, loss=Loss.UPCAST, checkpointing=Checkpointing.OP_SAC,
                                  optimizer_kernel=OptimizerKernel.FUSED, fsdp_whole_after_forward=("lm_head",),
                                  compile_covers_loss=True,
                                  summary="FSDP2 with fp32 master parameters, op-level selective checkpointing, "
                                          "loss upcast to fp32, fused AdamW"),
    # LitGPT at LITGPT_COMMIT: litgpt/model.py GPT.__init__ builds ``lm_head`` and ``wte`` apart, and
    # litgpt/scripts/convert_hf_checkpoint.py (copy_weights_hf_llama, copy_weights_gemma_2) copies
    # ``transformer.wte.weight`` into ``lm_head.weight`` when the checkpoint has none (tied), so both
    # are in memory; CausalSelfAttention.forward expands k and v to every query head ("training:
    # flash attention requires it") and reshapes them (copies) before SDPA; finetune/lora.py calls
    # ``model(input_ids, lm_head_chunk_size=128)`` and utils.chunked_cross_entropy runs
    # ``F.cross_entropy`` on each chunk (log-probabilities kept for backward) while the loop's ``logits``
    # list stays referenced through ``fabric.backward``; Fabric's wrapper casts that list to fp32 on return
    # (``precision.convert_output``: loss_logits.FABRIC_CHUNKED_LOSS_BYTES_PER_ELEMENT); ``BitsandbytesPrecision
    # (quantize[4:], dtype)`` with no ``ignore_modules`` replaces every nn.Linear, lm_head included.
    Framework.LITGPT: Profile(precision=Precision.BF16, loss=Loss.CHUNKED, loss_chunks=16,
                              untied_lm_head=True, kv_full_heads=True, fused_qkv_view=True, lora_pad_saved=True,
                              fsdp_mixed_units=True, accumulate_unsharded=True,
                              fsdp_whole_after_forward=("embedding", "lm_head"),
                              lora_dropout=LITGPT_LORA_DROPOUT,
                              chunked_loss_upcast=False, quantize_lm_head=True,
                              dequant_bytes=FABRIC_BNB_DEQUANT_BYTES,
                              summary="pure bf16 ('bf16-true'), logits and loss in chunks, all kept in fp32 (Fabric casts "
                                      "the output), a separate "
                                      "lm_head, k/v repeated to every head (v keeps the fused qkv output "
                                      "without grouped queries), LoRA dropout 0.05, LoRA on part of q/k/v kept "
                                      "by its zero padding, FSDP units mixing frozen and trained weights, "
                                      "unsharded gradients while accumulating, 4-bit lm_head under bnb "
                                      "(dequantized via fp16)"),
    Framework.AXOLOTL: Profile(optimizer_kernel=OptimizerKernel.FUSED, fsdp_whole_after_forward=("embedding", "lm_head"),
                               training_loop=Framework.HF,
                               summary="the HF Trainer's defaults (Liger's fused loss only when enabled)"),
    Framework.UNSLOTH: Profile(precision=Precision.BF16, loss=Loss.FUSED, checkpointing=Checkpointing.FULL,
                               activation_offload=True, offload_with_checkpointing=True,
                               optimizer_kernel=OptimizerKernel.FUSED,
                               summary="16-bit weights, fused cross-entropy, checkpointing that offloads the "
                                       "checkpointed activations to host RAM, the HF Trainer's fused AdamW"),
    Framework.DEEPSPEED: Profile(summary="ZeRO with fp32 master weights and optimizer states, the model's own loss"),
    Framework.HOROVOD: Profile(summary="data parallel with ring all-reduce through a 128 MiB fusion buffer"),
}


def apply_framework(job: JobT) -> JobT:
    """``w`` with its framework's defaults in every training field the user left unset. A job without a plan
    counts as on one GPU where a default depends on the count (torchtune's optimizer in the backward)."""
    if job.mode is not Mode.TRAIN:
        return job
    given = job.model_fields_set
    update: dict[str, object] = {}
    framework = job.framework
    if job.method.litgpt_adapter and "framework" not in given:
        # LitGPT's adapter methods exist only in LitGPT (finetune_adapter / finetune_adapter_v2).
        framework = Framework.LITGPT
        update["framework"] = framework
    update |= _unset_defaults(job, PROFILES[framework], given)
    return job.model_copy(update=update) if update else job


def _unset_defaults(job: Job, p: Profile, given: set[str]) -> dict[str, object]:
    """The profile's value of each training field the user left unset (``apply_framework``)."""
    update: dict[str, object] = {}
    if "precision" not in given:
        update["precision"] = p.precision
    if job.loss is None:
        update["loss"] = p.loss
        if "loss_chunks" not in given:
            update["loss_chunks"] = p.loss_chunks
    if job.compile is None:
        update["compile"] = p.compile
    if "checkpointing" not in given and p.checkpointing is not None:
        update["checkpointing"] = p.checkpointing
    if job.optimizer_in_backward is None:
        update["optimizer_in_backward"] = (p.optimizer_in_backward_full_single and job.method is Method.FULL
                                           and (job.n_gpus if isinstance(job, PlannedJob) else 1) == 1 and job.grad_accum_steps == 1)
    if job.activation_offload is None:
        checkpointing = update.get("checkpointing", job.checkpointing)
        update["activation_offload"] = p.activation_offload and not (
            p.offload_with_checkpointing and checkpointing is Checkpointing.NONE)
    if job.optimizer_kernel is None:
        update["optimizer_kernel"] = p.optimizer_kernel
    return update


#: ``apply_framework`` with the last planned job kept: training memory and training speed ask for the same
#: job in a row (and the fit sweep for one job on 21 model sizes).
with_framework_defaults: KeepLast[PlannedJob, PlannedJob] = KeepLast(apply_framework)


#: Each framework by the name its users know it by (the window's choice, the PDF's workload table).
FRAMEWORK_NAMES = {
    Framework.HF: "Hugging Face",
    Framework.TORCHTUNE: "torchtune",
    Framework.TORCHTITAN: "torchtitan",
    Framework.LITGPT: "LitGPT",
    Framework.AXOLOTL: "Axolotl",
    Framework.UNSLOTH: "Unsloth",
    Framework.DEEPSPEED: "DeepSpeed",
    Framework.HOROVOD: "Horovod",
}


def describe(framework: Framework) -> str:
    """One sentence for the window's tooltip and the estimate's assumptions."""
    return f"{FRAMEWORK_NAMES[framework]}: {PROFILES[framework].summary}"


def training_loop(framework: Framework) -> Framework:
    """The framework whose training loop ``framework`` runs (``Profile.training_loop``; itself where it has its own)."""
    return PROFILES[framework].training_loop or framework
