"""Model states of training: bytes per trainable parameter of weights, gradients, optimizer.

Mixed precision with fp32 master weights (Micikevicius et al. 2018, arXiv:1710.03740) as
ZeRO counts it (Rajbhandari et al. 2020, arXiv:1910.02054 §3.1): 16-bit parameters (2Ψ) and
gradients (2Ψ), and K·Ψ optimizer states where for Adam K = 12 (fp32 master copy, momentum,
variance). We keep the master copy inside the optimizer term, as ZeRO-1 shards it with the
optimizer. (PyTorch-autocast training keeps fp32 weights and grads instead: 4 + 4 + 8 — the
same 16 bytes per parameter.) Pure bf16 keeps everything in 2 bytes; fp32 in 4.

Per-state bytes: AdamW two states; bitsandbytes 8-bit (paged) AdamW two 1-byte blockwise
quantized states (Dettmers et al. 2022, arXiv:2110.02861; block constants < 0.02 bit);
SGD with momentum one state; Adafactor (Shazeer & Stern 2018, arXiv:1804.04235) without
momentum (transformers' default beta1=None) keeps one row and one column vector per matrix.
Paged optimizers (bitsandbytes) allocate the states in CUDA unified memory: they sit on the
GPU while it has room and page to host RAM under pressure (QLoRA §3 "Paged Optimizers").
"""

from __future__ import annotations

from advisor.core.job.choices import Method, Objective, Optimizer, Precision
from advisor.core.job.job import Job
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import (
    adapter_params,
    count_params,
    linear_shapes,
    lora_params,
)

MASTER_BYTES = 4  # fp32 master copy under mixed precision


def param_bytes(precision: Precision) -> int:
    """Bytes of one trainable weight (and of its gradient) in the given precision."""
    return 4 if precision is Precision.FP32 else 2


def state_bytes(precision: Precision) -> int:
    """Bytes of one 32-bit optimizer state element (2 in pure bf16)."""
    return 2 if precision is Precision.BF16 else 4


def optimizer_bytes_per_param(optimizer: Optimizer, precision: Precision) -> float:
    """Optimizer state bytes per trainable parameter, excluding the master copy and Adafactor."""
    s = state_bytes(precision)
    table = {
        Optimizer.ADAMW: 2 * s,
        Optimizer.PAGED_ADAMW: 2 * s,
        Optimizer.ADAMW_8BIT: 2.0,
        Optimizer.PAGED_ADAMW_8BIT: 2.0,
        Optimizer.SGD: float(s),
        Optimizer.ADAFACTOR: 0.0,  # factored: see adafactor_state_bytes
    }
    return table[optimizer]


def adafactor_state_bytes(arch: ModelArch, precision: Precision) -> float:
    """Σ (rows + cols) per weight matrix (blocks, embedding, lm_head) plus norm vectors, 4 B."""
    counts = count_params(arch)
    elems: float = sum((d_in + d_out) * n for d_in, d_out, n in linear_shapes(arch).values())
    elems += arch.vocab_size + arch.hidden_size  # embedding
    if counts.lm_head:
        elems += arch.vocab_size + arch.hidden_size
    elems += counts.norms  # vectors are not factored
    return elems * state_bytes(precision)


def master_bytes_per_param(precision: Precision) -> int:
    return MASTER_BYTES if precision is Precision.AMP else 0


def full_states_bytes(arch: ModelArch, n_params: float, optimizer: Optimizer, precision: Precision
                      ) -> tuple[float, float, float]:
    """(weights, gradients, optimizer) bytes of full fine-tuning of ``n_params`` parameters."""
    w = n_params * param_bytes(precision)
    g = n_params * param_bytes(precision)
    o = n_params * (optimizer_bytes_per_param(optimizer, precision) + master_bytes_per_param(precision))
    if optimizer is Optimizer.ADAFACTOR:
        o += adafactor_state_bytes(arch, precision)
    return w, g, o


def adapter_states_bytes(n_adapter: float, optimizer: Optimizer, precision: Precision
                         ) -> tuple[float, float, float]:
    """(adapter weights, gradients, optimizer) of LoRA adapters.

    PEFT creates adapters in fp32 (``autocast_adapter_dtype=True`` upcasts bf16/fp16 adapter
    weights), so under AMP they are their own master copy: 4 + 4 + 8 = 16 B/param for AdamW.
    Pure bf16: 2 + 2 + 4. Adafactor on small adapters: ~ one state per parameter bound.
    """
    pb = 2 if precision is Precision.BF16 else 4
    per = optimizer_bytes_per_param(optimizer, precision)
    if optimizer is Optimizer.ADAFACTOR:
        per = state_bytes(precision)  # upper bound: rank-r matrices factor poorly
    return n_adapter * pb, n_adapter * pb, n_adapter * per


def reward_head_params(arch: ModelArch) -> int:
    """A reward model's scalar head instead of ``lm_head``: ``score = nn.Linear(hidden, 1,
    bias=False)`` (transformers ``LlamaForSequenceClassification`` with ``num_labels=1``, as
    TRL's ``RewardTrainer`` uses it)."""
    return arch.hidden_size


def trainable_params_of(arch: ModelArch, job: Job) -> float:
    """Parameters the job trains: every one (full), the LoRA matrices (Hu et al. 2021), or
    LitGPT's adapter prompt (and v2's biases, scales and norms: ``adapter_params``). A reward
    model trades ``lm_head`` for a scalar head (trained with PEFT too: the classification
    head is one of PEFT's ``modules_to_save`` for ``task_type=SEQ_CLS``)."""
    reward = job.objective is Objective.REWARD
    head = reward_head_params(arch) if reward else 0
    if job.method is Method.FULL:
        counts = count_params(arch)
        return counts.total - (counts.lm_head if reward else 0) + head
    if job.method.litgpt_adapter:
        return float(adapter_params(arch, v2=job.method is Method.ADAPTER_V2) + head)
    return float(lora_params(arch, job.lora_rank_effective, job.lora_targets) + head)
