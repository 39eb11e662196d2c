"""The settings of an inference job: the engine, the context, the request and the KV cache."""

from __future__ import annotations

from advisor.core.job.choices import DecodeAttention, Engine, Mode
from advisor.core.job.settings.declare import Choice, Section, Setting, Where, Widget

INFERENCE = Where(modes=(Mode.INFERENCE,))
#: The KV cache types the window lists (llama.cpp's q8_0 / q4_0 with llama.cpp only).
KV_CHOICES = ("bf16", "fp16", "fp32", "fp8", "q8_0", "q4_0")
#: TensorRT-LLM versions whose kernels differ (``core.job.engine_versions``); None: a current one.
TRT_LLM_VERSIONS = ("0.12", "0.11", "0.10", "0.9", "0.8", "0.7", "0.6", "0.5")
POOLED = tuple(e for e in Engine if e.pooled)

SETTINGS = (
    Setting(
        "engine", "Engine", "the program that serves the model", Section.INFERENCE, Widget.CHOICE,
        flag="--engine", where=INFERENCE, brief=True,
        choices=tuple(Choice(e, e.label) for e in Engine),
        tip="The program serving the model. vLLM pre-allocates a share of the card for a paged KV cache "
            "(PagedAttention, Kwon et al. 2023, arXiv:2309.06180); llama.cpp runs GGUF files; transformers is the "
            "Hugging Face reference implementation; TensorRT-LLM compiles the model for NVIDIA GPUs only (FP8 from "
            "Ada) and runs sequences past the model's trained length."),
    Setting(
        "context_len", "Context length", "tokens per sequence, prompt and output together", Section.INFERENCE,
        Widget.WHOLE, flag="--context", metavar="TOKENS", unit="tokens", step=1024, where=INFERENCE, brief=True,
        tip="Tokens per sequence (prompt plus output). The KV cache grows linearly with it: 2 × layers × KV heads × "
            "head size × bytes per element, per token."),
    Setting(
        "prompt_tokens", "Prompt tokens", "the prompt's part of the context, the rest generated: the speed is then "
        "that request's (decode at the middle of the generation, first token for the prompt, the whole request's "
        "time); 0: no prompt", Section.INFERENCE, Widget.WHOLE, flag="--prompt-tokens", metavar="P", unit="tokens",
        step=128, unset="not set", where=INFERENCE,
        tip="The prompt's share of the context; the rest is generated. Set, the speed is that of one such request "
            "for every sequence: the first token after the prompt, then the generation at the decode speed of its "
            "middle, and the whole request's time (how published throughput tables time a batch). Not set: decode "
            "speed at the full context."),
    Setting(
        "kv_dtype", "KV cache type", "the KV cache's element type: bf16 fp16 fp32 fp8, or llama.cpp's q8_0 q4_0",
        Section.INFERENCE, Widget.OPEN_CHOICE, flag="--kv-dtype", metavar="DTYPE", where=INFERENCE, brief=True,
        choices=tuple(Choice(v, "") for v in KV_CHOICES),  # words from memory.formats.kv_words
        tip="Element type of the KV cache. FP8 halves it against BF16 (vLLM --kv-cache-dtype fp8); Q8_0 and Q4_0 "
            "are llama.cpp's quantized caches."),
    Setting(
        "decode_attention", "Decode attention", "how the decode kernel reads the KV cache: grouped (FlashAttention, "
        "XQA) or per head (TensorRT-LLM's masked attention: before v0.7, or a head layout without an XQA kernel)",
        Section.INFERENCE, Widget.CHOICE, flag="--decode-attention", where=INFERENCE,
        choices=(Choice(DecodeAttention.GROUPED, "grouped", "FlashAttention, XQA: each KV head read once"),
                 Choice(DecodeAttention.PER_HEAD, "per head", "masked attention: each query head reads the cache")),
        tip="How the engine's kernel reads the KV cache while generating. Grouped: once per KV head for all the "
            "query heads that share it (FlashAttention, vLLM, SGLang, TensorRT-LLM's XQA). Per head: once per query "
            "head on the CUDA cores (TensorRT-LLM's masked attention, what versions before 0.7 ran, and later ones "
            "for head layouts XQA lacks): slower at large batches for models that share KV heads."),
    Setting(
        "ubatch_tokens", "Prompt batch", "prompt tokens llama.cpp computes at once (its --ubatch-size): a larger "
        "batch, a larger compute buffer and fewer copies of offloaded experts", Section.INFERENCE, Widget.WHOLE,
        flag="--ubatch-size", metavar="TOKENS", unit="tokens", step=256,
        where=Where(modes=(Mode.INFERENCE,), engines=(Engine.LLAMA_CPP,)),
        tip="llama.cpp computes a prompt this many tokens at a time (--ubatch-size, n_ubatch: 512 by default in "
            "common/common.h; llama-bench's -ub). Its compute buffer holds one such batch's largest tensor (the "
            "logits, or without flash attention the scores against the whole context), and an MoE model's experts "
            "kept in host RAM are copied to the GPU once per batch: raising it speeds such a prompt and costs GPU "
            "memory, lowering it frees memory. Values above --batch-size (2,048 by default) need that raised too."),
    Setting(
        "engine_version", "TensorRT-LLM version", "estimated as that TensorRT-LLM version runs the model (its decode "
        "attention kernel, FP8 MoE experts); default: a current one", Section.INFERENCE, Widget.CHOICE,
        flag="--engine-version", metavar="V", resets=True,
        choices=(Choice(None, "current (0.13 or later)"), *(Choice(v, v) for v in TRT_LLM_VERSIONS)),
        where=Where(modes=(Mode.INFERENCE,), engines=(Engine.TENSORRT_LLM,)),
        tip="The TensorRT-LLM version that serves the model. Versions before 0.7 decode every model one query head "
            "at a time; up to 0.9, a model whose head layout its precompiled XQA kernels do not cover (8 query "
            "heads per KV head, head size 128 or 256) does too; before 0.10, an FP8 build keeps an MoE model's "
            "experts in 16-bit; before 0.13, a sequence's attention is split over the GPU only when the engine was built "
            "or run with multi-block mode. Current: as a current version runs it."),
    Setting(
        "gpu_memory_utilization", "Memory share", "share of each card the engine pre-allocates for the weights and "
        "a paged KV cache (vLLM --gpu-memory-utilization)", Section.INFERENCE, Widget.DECIMAL,
        flag="--gpu-memory-utilization", metavar="SHARE", step=0.05, decimals=2,
        where=Where(modes=(Mode.INFERENCE,), engines=POOLED),
        tip="vLLM pre-allocates this share of each card's memory at start and fills what its weights and "
            "activations leave with KV-cache blocks (vLLM docs, --gpu-memory-utilization, default 0.9); SGLang "
            "(--mem-fraction-static), TensorRT-LLM (kv_cache_free_gpu_mem_fraction) and DeepSpeed-FastGen pool "
            "the same way and are estimated with vLLM's figures."),
    Setting(
        "custom_all_reduce", "Own all-reduce", "the engine adds the GPUs' results with its own kernel where the GPUs "
        "read each other's memory, else NCCL", Section.INFERENCE, Widget.SWITCH, flag="--custom-all-reduce",
        where=Where(modes=(Mode.INFERENCE,), engines=(Engine.VLLM, Engine.SGLANG, Engine.TENSORRT_LLM)),
        tip="vLLM and SGLang add tensor-parallel GPUs' results with their own one-shot kernel on two GPUs with "
            "peer-to-peer or NVLink, or more GPUs with NVLink between every pair; TensorRT-LLM over NVLink. Off: "
            "NCCL does it (vLLM --disable-custom-all-reduce, SGLang's disable_custom_all_reduce). On (the engines' "
            "default) where the links do not allow it, the engine still uses NCCL."),
    Setting(
        "full_prompt_logits", "Logits of the whole prompt", "transformers before 4.45: generate computes logits for "
        "every prompt position", Section.INFERENCE, Widget.SWITCH, flag="--full-prompt-logits",
        where=Where(modes=(Mode.INFERENCE,), engines=(Engine.TRANSFORMERS,)),
        tip="transformers before 4.45 computed the logits of every prompt position in generate (bf16 and an fp32 "
            "copy, prompt × vocabulary each) before keeping the last one; 4.45 added logits_to_keep. For an old "
            "transformers, a long prompt and a large vocabulary this sets the peak."),
)
