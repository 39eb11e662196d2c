"""The settings of a fine-tuning job: what trains, on what objective, in which precision, and the run's size."""

from __future__ import annotations

from advisor.core.job.choices import (
    LORA_TARGETS,
    Checkpointing,
    Method,
    Mode,
    Objective,
    Optimizer,
    Precision,
)
from advisor.core.job.settings.declare import Choice, Section, Setting, Where, Widget

TRAINING = Where(modes=(Mode.TRAIN,))
LORA = Where(modes=(Mode.TRAIN,), methods=(Method.LORA, Method.QLORA))

SETTINGS = (
    Setting(
        "method", "Method", "which weights train: all (full), low-rank adapters (LoRA; QLoRA on a 4-bit base) or "
        "LitGPT's LLaMA-Adapter and v2", Section.TRAINING, Widget.CHOICE, flag="--method", where=TRAINING,
        brief=True,
        choices=(Choice(Method.FULL, "full fine-tuning"), Choice(Method.LORA, "LoRA"),
                 Choice(Method.QLORA, "QLoRA (4-bit base)"), Choice(Method.ADAPTER, "LLaMA-Adapter (LitGPT)"),
                 Choice(Method.ADAPTER_V2, "LLaMA-Adapter V2 (LitGPT)")),
        tip="Full: every weight is trained. LoRA: the base is frozen and small low-rank adapters are trained (Hu et "
            "al. 2021, arXiv:2106.09685). QLoRA: LoRA on a 4-bit NF4 base (Dettmers et al. 2023, arXiv:2305.14314). "
            "LLaMA-Adapter: LitGPT's learned 10-token prompt in each layer from the third (arXiv:2303.16199), and "
            "V2, which also trains every layer's biases, scales and norms (arXiv:2304.15010)."),
    Setting(
        "objective", "Objective", "what the training teaches: instruction tuning (SFT), preference tuning (DPO, "
        "ORPO) or a reward model; the last three train on chosen/rejected pairs", Section.TRAINING, Widget.CHOICE,
        flag="--objective", where=TRAINING, brief=True,
        choices=(Choice(Objective.SFT, "SFT (instructions)", "instruction tuning on example answers"),
                 Choice(Objective.DPO, "DPO (preferences)", "preference tuning against a frozen reference"),
                 Choice(Objective.ORPO, "ORPO (preferences)", "preference tuning without a reference model"),
                 Choice(Objective.REWARD, "Reward model", "a scalar head scoring answer pairs")),
        tip="What the training teaches. Instruction tuning (SFT): example answers. Preference tuning (DPO, "
            "arXiv:2305.18290; ORPO, arXiv:2403.07691): a preferred and a rejected answer per example, so twice the "
            "sequences per step; DPO with full fine-tuning also keeps a frozen reference copy of the model. Reward "
            "model: scores answer pairs (a scalar head, no vocabulary). Rejection sampling is two jobs: generate "
            "answers (inference), then SFT."),
    Setting(
        "precompute_ref", "Reference scores computed beforehand", "DPO: the reference model's log-probabilities "
        "computed before training (no reference model in memory)", Section.TRAINING, Widget.SWITCH,
        flag="--precompute-ref", resets=True,
        where=Where(modes=(Mode.TRAIN,), when=(("objective", (Objective.DPO,)),)),
        tip="DPO: compute the reference model's scores once before training (TRL precompute_ref_log_probs), so no "
            "reference copy is held during training."),
    Setting(
        "precision", "Precision", "the training precision: mixed (bf16 compute, fp32 master weights), pure bf16 or "
        "fp32", Section.TRAINING, Widget.CHOICE, flag="--precision", where=TRAINING, brief=True,
        choices=(Choice(Precision.AMP, "mixed precision", "bf16 compute with fp32 master weights"),
                 Choice(Precision.BF16, "bf16"), Choice(Precision.FP32, "fp32")),
        tip="Mixed: bf16 compute with fp32 master weights (Micikevicius et al. 2018, arXiv:1710.03740). bf16: "
            "everything in bf16. fp32: everything in 4-byte floats."),
    Setting(
        "optimizer", "Optimizer", "the optimizer and how it stores its states", Section.TRAINING, Widget.CHOICE,
        flag="--optimizer", where=TRAINING, brief=True,
        choices=(Choice(Optimizer.ADAMW, "AdamW"), Choice(Optimizer.ADAMW_8BIT, "AdamW 8-bit"),
                 Choice(Optimizer.PAGED_ADAMW, "AdamW, paged"),
                 Choice(Optimizer.PAGED_ADAMW_8BIT, "AdamW 8-bit, paged"),
                 Choice(Optimizer.SGD, "SGD"), Choice(Optimizer.ADAFACTOR, "Adafactor")),
        tip="AdamW keeps two fp32 states per trained weight (8 bytes). 8-bit AdamW keeps them in 8 bits (Dettmers "
            "et al. 2021, arXiv:2110.02861); paged variants spill to host memory on pressure. SGD (no momentum) "
            "keeps none; Adafactor factorizes the second moment."),
    Setting(
        "seq_len", "Sequence length", "training sequence length", Section.TRAINING, Widget.WHOLE, flag="--seq-len",
        metavar="S", unit="tokens", step=512, where=TRAINING, brief=True,
        tip="Training sequence length in tokens: activations grow with it (quadratically for eager attention, "
            "linearly with FlashAttention). Longer than the model was trained on is long-context fine-tuning (e.g. "
            "Position Interpolation, arXiv:2306.15595): allowed, with a warning."),
    Setting(
        "grad_accum_steps", "Gradient accumulation", "micro-batches summed before one optimizer step",
        Section.TRAINING, Widget.WHOLE, flag="--grad-accum", metavar="N", unit="micro-batches", where=TRAINING,
        brief=True,
        tip="Micro-batches summed before one optimizer step: a larger effective batch without more memory."),
    Setting(
        "checkpointing", "Checkpointing", "activation checkpointing: recompute some activations in the backward "
        "pass instead of keeping them", Section.TRAINING, Widget.CHOICE, flag="--checkpointing", where=TRAINING,
        brief=True,
        choices=(Choice(Checkpointing.NONE, "none"), Choice(Checkpointing.SELECTIVE, "selective"),
                 Choice(Checkpointing.OP_SAC, "op-level selective"), Choice(Checkpointing.FULL, "full")),
        tip="Activation recomputation: keep only some activations and recompute the rest in the backward pass, "
            "trading ~30 % more compute for much less memory (Korthikanti et al. 2022, arXiv:2205.05198). Selective "
            "recomputes only attention; op-level selective is torchtitan's policy that keeps matmul outputs."),
    Setting(
        "lora_rank", "LoRA rank", "rank r of each LoRA adapter", Section.TRAINING, Widget.WHOLE, flag="--lora-rank",
        metavar="R", where=LORA, resets=True, none_means=16, brief=True,
        tip="Rank r of each adapter: it adds r × (d_in + d_out) trainable weights per adapted matrix (Hu et al. "
            "2021, arXiv:2106.09685 §4). Not set: 16, the PEFT and QLoRA examples' common choice."),
    Setting(
        "lora_targets", "LoRA targets", "which projections get adapters: q,k,v,o,gate,up,down or all-linear",
        Section.TRAINING, Widget.TARGETS, flag="--lora-targets", metavar="LIST", where=LORA, brief=True,
        choices=tuple(Choice(t, t) for t in LORA_TARGETS),
        tip="Which projections get adapters: attention q/k/v/o and the MLP gate/up/down. QLoRA adapts all linear "
            "layers (arXiv:2305.14314 §4)."),
    Setting(
        "dataset_tokens", "Dataset", "tokens in the training set (160B, 2.5e9); 'chinchilla': 20 per parameter "
        "(Hoffmann et al. 2022, compute-optimal pre-training)", Section.TRAINING_RUN, Widget.DECIMAL,
        flag="--dataset-tokens", metavar="N|chinchilla", unit="M tokens", scale=1e6, unset="not set",
        where=TRAINING,
        tip="Tokens in your training set, in millions, for the run's hours and cost on each build (Value tab and "
            "the PDF). Pre-training: about 20 tokens per parameter is compute-optimal (Hoffmann et al. 2022, "
            "arXiv:2203.15556). Leave at 'not set' to see speed only."),
    Setting(
        "epochs", "Epochs", "passes over the dataset", Section.TRAINING_RUN, Widget.DECIMAL, flag="--epochs",
        metavar="E", decimals=1, step=1, where=TRAINING,
        tip="Passes over the dataset: the run trains dataset × epochs tokens."),
)
