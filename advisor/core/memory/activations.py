"""Activation memory: what training saves for backward, and one inference forward's temporaries.

Training follows Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
Transformer Models" (arXiv:2205.05198 §4), which counts the bytes every op saves for its
backward (GPT block: ``sbh(34 + 5as/h)``), re-derived here for a Llama block as
transformers runs it (``models/llama/modeling_llama.py``), 16-bit activations, per token
and layer, with q = n_heads·head_dim, kv = n_kv_heads·head_dim, f = MLP width:

* two RMSNorms: ``LlamaRMSNorm`` upcasts to fp32; ``pow`` saves the fp32 input (4h) and the
  weight multiply saves the bf16 normalized tensor (2h, only for a trainable weight): 12h
  (LayerNorm models: 2h each, the 16-bit input ``native_layer_norm`` saves; a parallel block such as
  Phi-1.5's has one norm, whose output qkv and the MLP share; Gemma 2/3 add a norm after the
  attention and after the MLP, two more);
* the norm outputs feeding q/k/v and gate/up (saved by those Linears): 2 × 2h = 4h;
* flash attention / SDPA saves q, k, v (2q + 4kv), its output (2q) and its fp32
  log-sum-exp (4·n_heads) (FlashAttention-2, Dao 2023 arXiv:2307.08691); o_proj shares the
  output with flash, while SDPA's transposed copy is a second 2q when o_proj is trained;
* eager attention instead repeats k, v to all heads (``repeat_kv``: 4q instead of 4kv) and
  saves the fp32 softmax (4·a·s) and its bf16 copy fed to the V matmul (2·a·s) — the
  ``5as/h`` term of Korthikanti, here 6·a·s per token;
* SwiGLU: gate output (SiLU input), SiLU output, up output and their product (down_proj
  input): 4 × 2f = 8f (plain MLP: fc1 output and activation output, 4f).
* A Linear keeps its input only for its weight gradient: LoRA on frozen layers keeps fewer
  (see ``SavedInputs``).

Total (gated, flash, full fine-tuning): ``16h + 4q + 4kv + 8f`` bytes per token per layer
(+ 2q with SDPA; eager: k, v at full width plus 6·a·s). Llama-2-7B flash: 186,368 B/token/layer
(plus 128 B of log-sum-exp). Selective recomputation (Korthikanti §4.2) recomputes
the attention core, i.e. drops the s² term; with flash attention there is none to drop.
Full checkpointing keeps each layer's input (2h) and recomputes one layer at a time.
Under tensor parallelism without sequence parallelism (Korthikanti eq. 2) the norms and the
Linear inputs are replicated; everything inside the attention and MLP is split by t. With
sequence parallelism (Korthikanti §4.2.2; torchtitan's tensor-parallel plan, ``apply_tp`` in
torchtitan/models/llama3/infra/parallelize.py at 018740b7: the embedding's output and every
block's output are ``Shard(1)``, the norms run as ``SequenceParallel``) the residual stream
between blocks is split along the sequence: each layer's kept input under full checkpointing
and the norms' saved tensors are divided by t too. The attention's and the MLP's inputs are
gathered to every rank (``PrepareModuleInput`` to ``Replicate``) and the q/k/v and gate/up
Linears save the gathered tensor: those stay whole.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from advisor.core.job.choices import LLAMA_CPP_UBATCH, AttentionImpl, Checkpointing
from advisor.core.model.arch import ModelArch

ACT_BYTES = 2  # bf16/fp16 activations (AMP and pure bf16); fp32 training doubles them
VLLM_MAX_BATCHED_TOKENS = 8192  # vLLM V1 default max_num_batched_tokens used in its memory profile
VLLM_MAX_NUM_SEQS = 256  # vLLM default max_num_seqs: sampler logits in the profile run


def mlp_width(arch: ModelArch) -> int:
    """Intermediate width one token passes through (MoE: routed experts in use + shared)."""
    if arch.moe is None:
        return arch.ffn_size
    return arch.moe.expert_ffn_size * (arch.moe.n_active + arch.moe.n_shared)


class SavedInputs(NamedTuple):
    """Which saved tensors exist besides those the attention kernel and SwiGLU always keep.

    Autograd saves a Linear's input only to compute its weight gradient, so a frozen base
    layer (LoRA) does not keep it unless an adapter on that layer does (the adapter's
    ``lora_A`` sees the same input). bitsandbytes' 4-bit ``MatMul4Bit`` (QLoRA) keeps only the
    packed weight (``ctx.tensors = (None, B)``) since PR #1270 (merged 2024-07-16, in the
    0.43.2 patch release; T. Dettmers: "the bug that caused a lot of memory issues with QLoRA"); releases
    before it kept every 4-bit Linear's input (``ctx.tensors = (A, B)``) — ``legacy_bnb``.
    Frozen RMSNorm weights skip the bf16 copy.
    """

    qkv_input: bool = True
    o_input: bool = True
    gate_up_input: bool = True
    down_input: bool = True
    norms_trainable: bool = True
    prefix_attention: bool = False  # LLaMA-Adapter: attention over the learnable prompt, gated
    linear_outputs: bool = False  # LLaMA-Adapter V2: every Linear's output kept for its scale's gradient
    kv_full_heads: bool = False  # k and v repeated to every query head before the kernel (LitGPT)
    dropout: tuple[str, ...] = ()  # LoRA modules with a dropout on their input: "qkv", "o", "fc1", "fc2", "down"
    qkv_view: bool = False  # v saved as a view of the fused qkv output, which it keeps whole (LitGPT, MHA)
    pad_source: tuple[str, ...] = ()  # LoRA outputs of q/k/v kept by LitGPT's zero_pad (index_copy's source)


FULL_TRAINING = SavedInputs()


def adapter_saved_inputs(v2: bool, quantized: bool = False, legacy_bnb: bool = False) -> SavedInputs:
    """Saved tensors of LitGPT's adapter methods (litgpt/adapter.py, adapter_v2.py at the commit
    ``advisor.core.model.params`` cites). The base Linears are frozen, so none keeps its input
    (4-bit ones with ``legacy_bnb`` do). LLaMA-Adapter adds ``y + gating_factor * ay``, a second
    attention of the queries over the prompt's keys and values: its output ``ay`` is kept (for
    the gate's gradient and the kernel's backward) with its log-sum-exp. V2's
    ``adapter_scale * (linear(x) + adapter_bias)`` keeps each Linear's biased output for the
    scale's gradient, and its norms train."""
    every = quantized and legacy_bnb
    return SavedInputs(qkv_input=every, o_input=every, gate_up_input=every, down_input=every,
                       norms_trainable=v2, prefix_attention=True, linear_outputs=v2)


#: Bytes a LoRA dropout keeps per input element: ``nn.Dropout`` (``native_dropout``) returns a new
#: 16-bit tensor, which ``lora_A`` saves for its weight gradient, and saves its bool mask (1 byte)
#: for its own backward (PyTorch ``native_dropout_backward(grad, mask, scale)``).
LORA_DROPOUT_BYTES = 2 + 1


def lora_saved_inputs(targets: tuple[str, ...], quantized: bool, legacy_bnb: bool = False,
                      dropout: bool = False) -> SavedInputs:
    """Saved Linear inputs under LoRA on ``targets``: only the adapted layers' (their
    ``lora_A`` input). QLoRA saves the same with bitsandbytes ≥ 0.43.2; with ``legacy_bnb``
    (earlier releases) every 4-bit Linear saves its input.

    With a LoRA dropout, ``lora_A`` keeps the dropped copy of its module's input, not the input
    itself, and each LoRA module has its own dropout (``LITGPT_LORA_DROPOUT``): LitGPT's modules
    are the fused qkv (``LoRAQKVLinear``, one dropout for q, k and v), the attention projection,
    the MLP's fc_1, fc_2 and proj (litgpt/lora.py at ``LITGPT_COMMIT``)."""
    t = set(targets)
    if "all-linear" in t:
        t = {"q", "k", "v", "o", "gate", "up", "down"}
    every = quantized and legacy_bnb
    modules = (("qkv",) if t & {"q", "k", "v"} else ()) + (("o",) if "o" in t else ()) \
        + (("fc1",) if "gate" in t else ()) + (("fc2",) if "up" in t else ()) + (("down",) if "down" in t else ())
    if dropout:
        return SavedInputs(qkv_input=every, o_input=every, gate_up_input=every, down_input=every,
                           norms_trainable=False, dropout=modules)
    return SavedInputs(
        qkv_input=every or bool(t & {"q", "k", "v"}),
        o_input=every or "o" in t,
        gate_up_input=every or bool(t & {"gate", "up"}),
        down_input=every or "down" in t,
        norms_trainable=False,
    )


def dropout_bytes_per_token(arch: ModelArch, modules: tuple[str, ...]) -> float:
    """LoRA dropout's saved bytes per token and layer: ``LORA_DROPOUT_BYTES`` × each module's input
    width (h for qkv, fc_1, fc_2; q for the projection; f for the MLP's proj). A plain MLP (no
    gate) has one fc module, counted once."""
    h, q, f = arch.hidden_size, arch.n_heads * arch.head_dim, mlp_width(arch)
    width = {"qkv": h, "o": q, "fc1": h, "fc2": h, "down": f}
    fcs = [m for m in modules if m in ("fc1", "fc2")]
    others = [m for m in modules if m not in ("fc1", "fc2")]
    n_fc = len(fcs) if arch.gated_mlp else min(1, len(fcs))
    return LORA_DROPOUT_BYTES * (sum(width[m] for m in others) + n_fc * h)


def norm_bytes_per_token(arch: ModelArch, saved: SavedInputs) -> float:
    """Bytes a layer's norms save per token at 16-bit: RMSNorm's fp32 input (4h) and, with a trainable
    weight, its bf16 normalized copy (2h); torch's ``native_layer_norm`` saves its 16-bit input (2h)
    with fp32 mean and rstd (8 B, not counted) and needs nothing more for its weight. A parallel block
    (GPT-J, Phi-1.5) has one norm whose output both qkv and the MLP read: saved once; Gemma 2/3 add a
    norm after the attention and after the MLP."""
    h = arch.hidden_size
    norms = (1 if arch.parallel_block else 2) + (2 if arch.post_norms else 0)
    per_norm = 2 * h if arch.layer_norm else 4 * h + (2 * h if saved.norms_trainable else 0)
    return norms * per_norm


def _layer_terms(arch: ModelArch, seq: int, impl: AttentionImpl, saved: SavedInputs
                 ) -> tuple[float, float, float]:
    """(replicated, tp-split, attention-score) bytes per token per layer at 16-bit."""
    h = arch.hidden_size
    q = arch.n_heads * arch.head_dim
    kv = arch.n_kv_heads * arch.head_dim
    f = mlp_width(arch)
    replicated = norm_bytes_per_token(arch, saved)
    inputs = max(saved.qkv_input, saved.gate_up_input) if arch.parallel_block else saved.qkv_input + saved.gate_up_input
    replicated += 2 * h * inputs
    mlp = (6 * f if arch.gated_mlp else 2 * f) + 2 * f * saved.down_input
    if impl is AttentionImpl.EAGER:
        attn = 2 * q * saved.o_input + 2 * q + 4 * q
        scores = 6 * arch.n_heads * seq
    else:
        # The flash kernel saves its output for backward whether or not o_proj is trained;
        # SDPA returns (B, H, T, D), transposed to a fresh contiguous copy that o_proj saves.
        # k and v at their own width, or repeated to every query head (LitGPT reshapes the expanded
        # k and v into copies before SDPA: 2q each).
        attn = 2 * q + 2 * q + (4 * q if saved.kv_full_heads else 4 * kv) + 4 * arch.n_heads
        if impl is AttentionImpl.SDPA and saved.o_input:
            attn += 2 * q
        scores = 0
    if saved.prefix_attention:
        attn += 2 * q + 4 * arch.n_heads
    if saved.qkv_view:
        attn += 2 * (q + kv)  # the rest of the fused q|k|v output that the saved v is a view of
    if saved.pad_source:
        attn += 2 * sum(q if t == "q" else kv for t in saved.pad_source)
    if saved.dropout:
        replicated += dropout_bytes_per_token(arch, saved.dropout)  # not split under TP (upper bound)
    if saved.linear_outputs:
        attn += 2 * (q + 2 * kv + h)  # qkv and proj outputs
        mlp += 2 * ((2 * f if arch.gated_mlp else f) + h)  # fc_1, fc_2 (fc) and proj outputs
    return replicated, attn + mlp, scores


def train_activation_bytes(
    arch: ModelArch, seq: int, micro_batch: int, impl: AttentionImpl, ckpt: Checkpointing,
    n_layers: int | None = None, tp: int = 1, in_flight: int = 1, act_bytes: int = ACT_BYTES,
    saved: SavedInputs = FULL_TRAINING, sequence_parallel: bool = False, stream_bytes: int | None = None,
) -> float:
    """Saved activations of ``n_layers`` layers for ``in_flight`` micro-batches (Korthikanti §4); with
    ``sequence_parallel`` the layer inputs and the norms' tensors are split over the ``tp`` ranks too. The layer
    inputs full checkpointing keeps are the residual stream's, ``stream_bytes`` an element (default ``act_bytes``)."""
    layers = arch.n_layers if n_layers is None else n_layers
    tokens = seq * micro_batch
    rep, split, scores = _layer_terms(arch, seq, impl, saved)
    stream = tp if sequence_parallel else 1  # the residual stream's split between blocks
    if stream > 1:
        rep -= norm_bytes_per_token(arch, saved) * (1 - 1 / stream)
    scale = act_bytes / ACT_BYTES
    per_layer = tokens * scale * (rep + (split + scores) / tp)
    if ckpt is Checkpointing.FULL:
        kept = tokens * (stream_bytes or act_bytes) * arch.hidden_size * layers / stream
        return kept * in_flight + per_layer  # one layer recomputed at a time during backward
    if ckpt is Checkpointing.SELECTIVE:
        per_layer -= tokens * scale * scores / tp
    return per_layer * layers * in_flight


def op_sac_layer_bytes(arch: ModelArch, impl: AttentionImpl) -> float:
    """Bytes per token one layer keeps under torchtitan's op-level selective checkpointing.

    torchtitan ``apply_ac`` (``selective_ac_option = "op"``) wraps each block with
    ``create_selective_checkpoint_contexts`` and a policy that saves the outputs of ``aten.mm``,
    the SDPA flash/efficient kernels and ``reduce_scatter`` — "except every second mm" (a
    counter that restarts per block) — and recomputes everything else. A Llama block runs its
    matmuls as q, k, v, o, gate (w1), up (w3), down (w2), so the 1st, 3rd, 5th and 7th are
    saved: q, v, gate and down outputs (q + kv + f + h elements, 16-bit), plus the attention
    kernel's output (q) and fp32 log-sum-exp, plus the block input the checkpoint keeps (h).
    This is not Korthikanti's "selective" (which recomputes only the attention core and, with
    flash attention, recomputes nothing).
    """
    h = arch.hidden_size
    q = arch.n_heads * arch.head_dim
    kv = arch.n_kv_heads * arch.head_dim
    f = mlp_width(arch)
    # Gated: 7 matmuls, odd ones q, v, gate, down. Plain MLP: 6 (q, k, v, o, fc1, fc2): q, v, fc1.
    saved_mm = q + kv + f + (h if arch.gated_mlp else 0)
    attn_out = q + (2 * arch.n_heads if impl is not AttentionImpl.EAGER else 0)  # fp32 lse = 2 bf16 slots
    return ACT_BYTES * (h + saved_mm + attn_out)


def op_sac_activation_bytes(arch: ModelArch, seq: int, micro_batch: int, impl: AttentionImpl,
                            n_layers: int | None = None, tp: int = 1, sequence_parallel: bool = False) -> float:
    """Saved activations under torchtitan op-level SAC: every layer's ``op_sac_layer_bytes``
    plus one layer recomputed in full during its backward (as with full checkpointing); with
    ``sequence_parallel`` that layer's norms are split over the ``tp`` ranks."""
    layers = arch.n_layers if n_layers is None else n_layers
    tokens = seq * micro_batch
    rep, split, scores = _layer_terms(arch, seq, impl, FULL_TRAINING)
    if sequence_parallel and tp > 1:
        rep -= norm_bytes_per_token(arch, FULL_TRAINING) * (1 - 1 / tp)
    return tokens * (op_sac_layer_bytes(arch, impl) * layers / tp + rep + (split + scores) / tp)


def full_prompt_logits_bytes(arch: ModelArch, prompt_tokens: int, batch: int) -> float:
    """Logits of every prompt position, as ``generate`` computed them before transformers 4.45
    added ``num_logits_to_keep`` (now ``logits_to_keep``): the 16-bit lm_head output and its
    fp32 copy (``logits.float()`` in e.g. ``Qwen2ForCausalLM.forward`` of 4.38) alive together:
    prompt × vocab × (2 + 4) B."""
    return prompt_tokens * batch * arch.vocab_size * (ACT_BYTES + 4)


def inference_forward_bytes(arch: ModelArch, tokens: int, seq: int, impl: AttentionImpl, tp: int = 1) -> float:
    """Peak temporaries of one no-grad forward over ``tokens`` (prefill), one layer at a time.

    The residual and the normalized input (2h + 2h bytes per token at 16 bit) and the MLP's
    gate, up and activation outputs alive together (3 × 2f) — the largest tensors of a Llama
    layer; eager attention adds the fp32 scores and
    their bf16 copy (6·a·s per token). Logits are separate (``inference_logits_bytes``).
    """
    f = mlp_width(arch)
    per_token = 4 * arch.hidden_size + 6 * f / tp
    if impl is AttentionImpl.EAGER:
        per_token += 6 * arch.n_heads * seq / tp
    return tokens * per_token


def inference_logits_bytes(arch: ModelArch, rows: int) -> float:
    """fp32 logits for ``rows`` positions (transformers generate keeps only the last position)."""
    return rows * arch.vocab_size * 4


def llama_cpp_compute_buffer_bytes(arch: ModelArch, n_ctx: int, flash: bool, ubatch: int = LLAMA_CPP_UBATCH) -> float:
    """Rough llama.cpp CUDA compute buffer: ggml-alloc reuses memory, so the peak is the
    largest op of one ``n_ubatch`` graph of ``ubatch`` tokens: fp32 logits (ubatch × vocab), or
    without flash attention the fp32 KQ matrix (ubatch × n_ctx × n_heads), plus a few
    hidden-size tensors. An approximation of ggml-alloc's graph planning, not checked against logs.
    """
    u = ubatch
    biggest = u * arch.vocab_size * 4
    if not flash:
        biggest = max(biggest, u * n_ctx * arch.n_heads * 4)
    biggest = max(biggest, u * mlp_width(arch) * 4 * 3)
    return biggest + u * arch.hidden_size * 4 * 4


def layers_per_stage(n_layers: int, stages: int) -> int:
    return math.ceil(n_layers / max(1, stages))
