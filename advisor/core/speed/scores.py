"""A prompt's attention without a fused kernel: the scores go through memory (why a prefill
without flash attention is slower than with it).

A fused attention kernel (FlashAttention, Dao et al. 2022, arXiv:2205.14135; PyTorch's SDPA; vLLM's, SGLang's,
TensorRT-LLM's, ExLlamaV2's and llama.cpp's ``-fa``) keeps each block of scores in on-chip memory and skips
the blocks the causal mask hides: its cost is its FLOPs (``flops.attention_flops_per_token`` at half the
context). Without one, the engine writes the whole seq × seq score matrix of every query head to the card's
memory and reads it back, op by op: a prompt pays those bytes at the card's bandwidth, beside its FLOPs over
every score it computes.
"""

from __future__ import annotations

from advisor.core.job.choices import Engine
from advisor.core.job.job import Job
from advisor.core.model.arch import ModelArch

#: Bytes each score moves, by engine, where it writes them (``PlannedJob.scores_in_memory``):
#: * transformers, eager attention (``--attention eager``; src/transformers/models/llama/modeling_llama.py at
#:   00227283, ``LlamaAttention.forward``): QKᵀ written in the model's 16 bits (2), divided by √d (read and
#:   written: 4), the causal mask added (the scores and the mask read, the sum written: 6), the softmax in fp32
#:   (2 read, 4 written), cast back (4 read, 2 written), read by the PV matmul (2): 26 bytes;
#: * llama.cpp without flash attention (src/llama-graph.cpp at 434f71a5, ``build_attn_mha``, its non-flash
#:   branch): KQ in fp32 (``ggml_mul_mat`` with F32 precision: 4), ``ggml_soft_max_ext`` with the scale and
#:   the f16 mask fused (4 and 2 read, 4 written), read by the KQV matmul (4): 18 bytes.
SCORE_BYTES: dict[Engine, float] = {Engine.TRANSFORMERS: 26.0, Engine.LLAMA_CPP: 18.0, Engine.OLLAMA: 18.0}


def score_context(job: Job) -> float:
    """The mean number of keys each prompt token's scores span: transformers computes the whole square and
    masks it (``context_len``); llama.cpp computes each ubatch (``PlannedJob.ubatch_tokens``; Ollama at llama.cpp's
    default ``LLAMA_CPP_UBATCH``) against the cache so far, the ubatch itself included ((context + ubatch) / 2)."""
    s = job.context_len
    if job.engine is Engine.TRANSFORMERS:
        return float(s)
    ubatch = job.gguf_ubatch_tokens
    return (s + min(ubatch, s)) / 2


def score_bytes(arch: ModelArch, job: Job) -> float:
    """Bytes the prompt's scores move, every sequence and layer, all query heads (0 where they do not go through
    memory: ``PlannedJob.scores_in_memory``)."""
    if not job.scores_in_memory:
        return 0.0
    return job.batch * arch.n_layers * arch.n_heads * job.context_len * score_context(job) * SCORE_BYTES[job.engine]


def unfused_reason(job: Job) -> str:
    """Why the prompt's attention is not fused, in words (where ``PlannedJob.scores_in_memory``): the speed note
    and the PDF's task table say it alike."""
    return "eager attention" if job.engine is Engine.TRANSFORMERS else "flash attention off"
