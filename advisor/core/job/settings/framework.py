"""The training framework and the memory options it decides unless told otherwise."""

from __future__ import annotations

from advisor.core.job.choices import (
    ActivationQuant,
    Checkpointing,
    Framework,
    Loss,
    Method,
    Mode,
    Optimizer,
    OptimizerKernel,
)
from advisor.core.job.frameworks import FRAMEWORK_NAMES, PROFILES
from advisor.core.job.settings.declare import Choice, Section, Setting, Where, Widget
from advisor.core.job.settings.task import FOUR_BIT

TRAINING = Where(modes=(Mode.TRAIN,))
#: A switch the framework may set: its default, on or off.
SWITCH = (Choice(None, "framework default"), Choice(True, "on"), Choice(False, "off"))

SETTINGS = (
    Setting(
        "framework", "Framework", "the training framework whose defaults apply", Section.FRAMEWORK, Widget.CHOICE,
        flag="--framework", where=TRAINING, brief=True,
        choices=tuple(Choice(f, name, PROFILES[f].summary) for f, name in FRAMEWORK_NAMES.items()),
        tip="The training framework (Hugging Face: Trainer with PEFT or TRL): its defaults for the loss, "
            "checkpointing, torch.compile, activation offload and the allocator differ and change peak memory "
            "(tests/data/FRAMEWORK_PROFILES.md names each default with its source)."),
    Setting(
        "loss", "Loss", "how the cross-entropy over the vocabulary is computed (default: the framework's)",
        Section.FRAMEWORK, Widget.CHOICE, flag="--loss", where=TRAINING, brief=True,
        choices=(Choice(None, "framework default"), Choice(Loss.FP32_LOGITS, "full logits + fp32 copy"),
                 Choice(Loss.UPCAST, "full logits"), Choice(Loss.CHUNKED, "chunked"),
                 Choice(Loss.FUSED, "fused (Liger)")),
        tip="How the cross-entropy over the vocabulary is computed: full logits (upcast to fp32), chunked "
            "(torchtune, LitGPT) or fused with the output layer (Liger), which never holds all logits."),
    Setting(
        "loss_chunks", "Loss chunks", "pieces the chunked cross-entropy splits the logits into", Section.FRAMEWORK,
        Widget.WHOLE, flag="--loss-chunks", metavar="N", brief=True,
        where=Where(modes=(Mode.TRAIN,), when=(("loss", (Loss.CHUNKED,)),)),
        tip="How many pieces the chunked cross-entropy splits the vocabulary's logits into: more pieces, less "
            "memory at the loss (torchtune uses 8)."),
    Setting(
        "activation_offload", "Activations to RAM", "saved activations kept in host RAM during the step",
        Section.FRAMEWORK, Widget.CHOICE, flag="--activation-offload", where=TRAINING, choices=SWITCH,
        tip="Keep the saved activations in host RAM during the step (torchtune, Unsloth): less GPU memory, more "
            "PCIe traffic."),
    Setting(
        "compile", "torch.compile", "torch.compile the model", Section.FRAMEWORK, Widget.CHOICE, flag="--compile",
        where=TRAINING, choices=SWITCH,
        tip="torch.compile: fuses operations, for faster steps; with torchtune and torchtitan it compiles the loss "
            "too, so no 32-bit copy of the logits is kept."),
    Setting(
        "optimizer_in_backward", "Optimizer in backward", "step and free each gradient in the backward pass",
        Section.FRAMEWORK, Widget.CHOICE, flag="--optimizer-in-backward", where=TRAINING, choices=SWITCH,
        tip="Step the optimizer inside the backward pass, one tensor at a time, and free each gradient at once "
            "(torchtune optimizer_in_bwd): about one tensor's gradient alive instead of all of them. Full "
            "fine-tuning without gradient accumulation."),
    Setting(
        "optimizer_kernel", "Optimizer kernel", "PyTorch AdamW's step: foreach (PyTorch's default: more passes, a "
        "state-sized temporary) or fused (default: the framework's)", Section.FRAMEWORK, Widget.CHOICE,
        flag="--optimizer-kernel",
        where=Where(modes=(Mode.TRAIN,), when=(("optimizer", (Optimizer.ADAMW,)),)),
        choices=(Choice(None, "framework default"), Choice(OptimizerKernel.FUSED, "fused"),
                 Choice(OptimizerKernel.FOREACH, "foreach")),
        tip="How PyTorch's AdamW runs its step. Fused: one kernel reads and writes each weight, gradient and "
            "optimizer state once. Foreach (PyTorch's own default): several passes over the optimizer states and a "
            "temporary as large as one of them, so a slower step and more memory. Hugging Face (transformers 5 "
            "with PyTorch 2.8 or later), torchtune and torchtitan use fused; LitGPT, and PyTorch's AdamW wherever "
            "a script does not choose, use foreach."),
    Setting(
        "activation_quant", "Saved activations", "what the activations kept for the backward pass are stored in",
        Section.FRAMEWORK, Widget.CHOICE, flag="--activation-quant", where=TRAINING,
        choices=(Choice(ActivationQuant.NONE, "16-bit (as computed)"), Choice(ActivationQuant.FP8, "8-bit float (FP8)"),
                 Choice(ActivationQuant.INT8, "8-bit integer")),
        tip="Store the activations kept for the backward pass in 8 bits instead of 16: half their memory, at some "
            "cost in accuracy and speed."),
    Setting(
        "checkpoint_every", "Checkpoint every", "recompute every K-th layer's activations (1: every layer)",
        Section.FRAMEWORK, Widget.WHOLE, flag="--checkpoint-every", metavar="K", unit="layers",
        where=Where(modes=(Mode.TRAIN,), when=(("checkpointing", (Checkpointing.SELECTIVE, Checkpointing.OP_SAC,
                                                                  Checkpointing.FULL)),)),
        tip="Recompute only every K-th layer's activations in the backward pass (1: every layer): the other layers "
            "keep theirs, more memory, less recomputation."),
    Setting(
        "tp", "Tensor parallel in FSDP", "tensor-parallel degree inside FSDP (2-D FSDP × TP)", Section.FRAMEWORK,
        Widget.WHOLE, flag="--tp", metavar="N", unit="GPUs", where=TRAINING,
        tip="Split each layer across this many GPUs inside FSDP (2-D FSDP × tensor parallel, as torchtitan does for "
            "large models); 1: no tensor parallel."),
    Setting(
        "cp", "Context parallel in FSDP", "context-parallel degree (sequence split) inside FSDP", Section.FRAMEWORK,
        Widget.WHOLE, flag="--cp", metavar="N", unit="GPUs", where=TRAINING,
        tip="Split each long sequence across this many GPUs inside FSDP (context parallel, as torchtitan does for "
            "long contexts); 1: no split."),
    Setting(
        "bnb_legacy", "bitsandbytes before 0.43.2", "bitsandbytes before 0.43.2: every 4-bit layer keeps its input",
        Section.FRAMEWORK, Widget.SWITCH, flag="--bnb-legacy",
        where=Where(modes=(Mode.TRAIN,), methods=(Method.QLORA, Method.ADAPTER, Method.ADAPTER_V2),
                    when=(("weights", FOUR_BIT),)),
        tip="Training on a 4-bit base with bitsandbytes older than 0.43.2: every 4-bit layer keeps its input for "
            "the backward pass, not only the layers with an adapter."),
    Setting(
        "kbit_upcast", "fp32 embeddings (PEFT)", "QLoRA with PEFT's prepare_model_for_kbit_training: the "
        "embeddings, the output layer and the norms cast to fp32", Section.FRAMEWORK, Widget.SWITCH,
        flag="--kbit-upcast",
        where=Where(modes=(Mode.TRAIN,), methods=(Method.QLORA,), frameworks=(Framework.HF,)),
        tip="QLoRA scripts that call PEFT's prepare_model_for_kbit_training (PEFT's QLoRA recipe) cast every weight "
            "left in 16 bits, the embeddings, the output layer and the norms, to fp32: twice their memory (Llama "
            "3 8B: about 2 GB more), and with mixed precision the residual stream runs in fp32 too. TRL's "
            "SFTTrainer (up to 0.21) calls it but, training in bf16, casts the embeddings and the output layer back."),
    Setting(
        "keeps_output", "Loop keeps the output", "a training loop of your own that holds the model's output (its "
        "logits) through the backward pass and the optimizer step", Section.FRAMEWORK, Widget.SWITCH,
        flag="--keeps-output", where=Where(modes=(Mode.TRAIN,), frameworks=(Framework.HF,)),
        tip="A training loop of your own that keeps what the model returns while it steps, as in 'out = "
            "model(**batch); out.loss.backward(); optimizer.step()' (the pattern of PEFT's and Accelerate's "
            "examples), holds the logits over the whole vocabulary until the step ends: for Llama 3 8B at 2,048 "
            "tokens, about 0.5 GB a sequence in 16 bits. The Hugging Face Trainer keeps only the loss."),
    Setting(
        "expandable_segments", "PyTorch expandable segments", "PyTorch's allocator with expandable segments (less "
        "memory reserved beyond what is allocated)", Section.FRAMEWORK, Widget.SWITCH, flag="--expandable-segments",
        where=TRAINING,
        tip="PyTorch's allocator with expandable segments (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True): less "
            "memory reserved beyond what is allocated."),
)
