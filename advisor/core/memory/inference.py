"""Per-GPU memory of a workload: weights, KV cache, activations, states, buffers, runtime.

``estimate_memory`` returns the peak of the busiest GPU by term plus the host RAM the job
needs, and the assumptions it made. Inference is assembled here; training in
``advisor.core.memory.training``; ``advisor.core.memory.peak`` picks one. Each term's source is in its function's docstring.
"""

from __future__ import annotations

from advisor.core.job.choices import (
    AttentionImpl,
    Engine,
    Mode,
    Parallel,
)
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.activations import (
    VLLM_MAX_BATCHED_TOKENS,
    VLLM_MAX_NUM_SEQS,
    full_prompt_logits_bytes,
    inference_forward_bytes,
    inference_logits_bytes,
    layers_per_stage,
    llama_cpp_compute_buffer_bytes,
)
from advisor.core.memory.formats import WeightFormat, is_gguf, kv_bytes_per_element, weight_format
from advisor.core.memory.held import GGUF_IN_TRANSFORMERS_DTYPE, held_format_name
from advisor.core.memory.experts import (
    moe_layers,
    offloaded_moe_layers,
    routed_expert_bytes_per_layer,
    routed_expert_params_per_layer,
)
from advisor.core.memory.gguf_mix import MIXES, mix_layout
from advisor.core.memory.llama_cpp_layers import llama_cpp_busiest
from advisor.core.memory.results import MemoryBreakdown, MemoryResult
from advisor.core.model.arch import AttentionKind, ModelArch
from advisor.core.model.params import count_params, linear_shapes
from advisor.core.units import MIB

# CUDA context and library workspaces outside any allocator's view: ~300 MB with CUDA >= 11.7 lazy module
# loading (ptrblck, pytorch/pytorch#107667), 200-700 MB depending on GPU and driver (pytorch/pytorch#28113);
# cuBLAS/cuDNN kernel images and workspaces add to it once loaded. Measured by this project on one H100 SXM
# with a current stack (driver 580.159, CUDA 13.0, torch 2.11; tests/data/device/h100-sxm-2026-11-26.jsonl):
# NVML's process memory minus the allocator's peak reservation, 686-712 MiB for transformers inference and
# 758 MiB for the HF Trainer, median 712 MiB over the eleven runs — taken here for every CUDA card (it was
# 500 MiB, inside the older reports' range: device totals read low, most on small models). The context
# grows with the kernels a process loads; other cards and stacks were not measured.
CUDA_CONTEXT_BYTES = 712 * MIB
# vLLM captures CUDA graphs after sizing the KV cache; its logs report "Graph capturing
# finished ... took 0.5–1 GiB" for 7–8B models (vLLM docs, "Conserving memory"). Counted as
# runtime outside the gpu_memory_utilization budget. Not fitted.
VLLM_CUDA_GRAPH_BYTES = 512 * MIB

#: ExLlamaV2's default max_input_len (exllamav2/config.py): prompt chunk per forward.
EXLLAMA_CHUNK_TOKENS = 2048
TP_SPLITS = (Parallel.TP,)
STAGE_SPLITS = (Parallel.PP, Parallel.LAYER_SPLIT)


def weights_bytes(arch: ModelArch, job: Job) -> float:
    """Whole-model weight bytes in the workload's format, before any sharding.

    Formats that keep embeddings 16-bit (bitsandbytes, GPTQ/AWQ, FP8) quantize only the
    blocks' Linear weights; embeddings, lm_head and norms stay 2 bytes (see ``quant``).
    Double quantization only when the workload asks for it (the QLoRA paper's recipe does;
    bitsandbytes' default does not).
    """
    name = held_format_name(job)
    if name in MIXES:  # a llama.cpp K-quant file, tensor by tensor (``memory.gguf_mix``)
        return mix_layout(arch, name)[0]
    fmt = weight_format(name, job.quant_group_size, job.double_quant)
    counts = count_params(arch)
    if fmt.experts_only:  # MXFP4: the routed experts at their bits, everything else at the rest's
        experts = moe_layers(arch) * routed_expert_params_per_layer(arch)
        return (experts * fmt.bits_per_weight + (counts.total - experts) * fmt.outside_experts_bits) / 8
    if fmt.output_bits_per_weight is not None:  # GGUF: output.weight (or tied embedding) at its own type
        output = counts.lm_head or counts.embedding
        return ((counts.total - output) * fmt.bits_per_weight + output * fmt.output_bits_per_weight) / 8
    return counts.linear * fmt.bits_per_weight / 8 + (counts.total - counts.linear) * fmt.non_linear_bytes_per_param


def kv_elements_per_token_layer(arch: ModelArch, engine: Engine = Engine.VLLM) -> float:
    """Cached elements per token per layer: 2·n_kv_heads·head_dim (Vaswani MHA / GQA,
    Ainslie et al. 2023 arXiv:2305.13245); MLA caches the latent plus the RoPE key,
    kv_lora_rank + qk_rope_head_dim (DeepSeek-V2, arXiv:2405.04434 §2.1) — except in
    transformers, whose DeepSeek code caches the decompressed per-head k and v."""
    att = arch.attention
    if att.kind is AttentionKind.MLA:
        rope = att.qk_rope_head_dim
        if rope is None:  # (the layout's validator requires it for MLA)
            raise ValueError("MLA attention without qk_rope_head_dim")
        if Engine(engine) is Engine.TRANSFORMERS:
            nope = att.qk_nope_head_dim or arch.head_dim
            return arch.n_heads * (nope + rope + (att.v_head_dim or arch.head_dim))
        return att.latent_kv_rank + rope
    return 2 * arch.n_kv_heads * arch.head_dim


def sliding_window(arch: ModelArch) -> int:
    """The window of a sliding-attention model, in tokens (the layout's validator requires one for that kind)."""
    window = arch.attention.sliding_window
    if window is None:
        raise ValueError("sliding attention without a window")
    return window


def kv_cache_bytes(arch: ModelArch, context_len: int, batch: int, kv_dtype: str,
                   engine: Engine = Engine.VLLM) -> float:
    """Whole-model KV cache: Σ_layers elements/token × cached tokens × batch × bytes.

    Sliding-window layers cache min(context, window) tokens (Mistral 7B, arXiv:2310.06825
    "rolling buffer cache"); ``sliding_layers`` of them when only some layers slide (Gemma 2).
    Llama-2-7B, 4096 tokens, bf16: 2·32·128·4096·32·2 B = 2 GiB.
    """
    per_token = kv_elements_per_token_layer(arch, engine) * kv_bytes_per_element(kv_dtype)
    att = arch.attention
    if att.kind is AttentionKind.SLIDING:
        n_slide = arch.n_layers if att.sliding_layers is None else min(att.sliding_layers, arch.n_layers)
        tokens = n_slide * min(context_len, sliding_window(arch)) + (arch.n_layers - n_slide) * context_len
    else:
        tokens = arch.n_layers * context_len
    return per_token * tokens * batch


def largest_linear_params(arch: ModelArch) -> float:
    """Elements of the largest block weight matrix (what a 4-bit layer dequantizes at once)."""
    return max(d_in * d_out for d_in, d_out, _ in linear_shapes(arch).values())


def _split(planned: PlannedJob) -> tuple[int, int]:
    """(tensor-parallel degree, pipeline/layer-split stages) the workload's GPUs form."""
    if planned.parallel in TP_SPLITS:
        return planned.n_gpus, 1
    if planned.parallel in STAGE_SPLITS:
        return 1, planned.n_gpus
    return 1, 1


def per_gpu_weights(arch: ModelArch, whole: float, tp: int, stages: int) -> float:
    """Weights on the busiest GPU: /tp (Megatron splits every matrix, embeddings vocab-wise);
    layer split: ceil(L/stages) layers plus the larger of embedding and lm_head (the first
    stage holds the embedding, the last the head)."""
    if stages <= 1:
        return whole / tp
    counts = count_params(arch)
    per_param = whole / counts.total
    blocks = counts.total - counts.embedding - counts.lm_head
    share = layers_per_stage(arch.n_layers, stages) / arch.n_layers
    return per_param * (blocks * share + max(counts.embedding, counts.lm_head))


def per_gpu_kv(arch: ModelArch, whole: float, tp: int, stages: int) -> float:
    """KV on the busiest GPU: heads split by tp, but each GPU holds ≥ 1 KV head (vLLM
    replicates KV heads when tp > n_kv_heads); layer split: ceil(L/stages) layers."""
    if stages > 1:
        return whole * layers_per_stage(arch.n_layers, stages) / arch.n_layers
    if arch.attention.kind is AttentionKind.MLA:
        return whole  # the latent is not split by head: every TP rank keeps it
    heads = -(-arch.n_kv_heads // tp)
    return whole * heads / arch.n_kv_heads


#: Engines whose scheduler admits only as many sequences as the KV pool holds and queues (or preempts) the
#: rest: vLLM's scheduler allocates KV blocks per running request and preempts when none is free
#: (vllm/v1/core/sched/scheduler.py, ``kv_cache_manager.allocate_slots``), capped at ``max_num_seqs`` (256);
#: SGLang's scheduler admits requests while its token pool has room (``max_running_requests`` derived from
#: ``max_total_num_tokens``, python/sglang/srt/managers/scheduler.py).
POOL_SCHEDULED_ENGINES = (Engine.VLLM, Engine.SGLANG)


def sequences_at_once(planned: PlannedJob, kv_capacity_tokens: float | None) -> int | None:
    """How many of the job's ``batch`` sequences a pool-scheduled engine (``POOL_SCHEDULED_ENGINES``) runs at
    once: as many full-length sequences (``context_len`` tokens each) as one copy's KV pool holds, at most
    ``max_num_seqs``, times the copies of the model (independent replicas on several GPUs). None where the
    engine is not pool-scheduled or the pool is unknown; 0 when not one sequence fits (the fit says so)."""
    if kv_capacity_tokens is None or planned.engine not in POOL_SCHEDULED_ENGINES or planned.mode is not Mode.INFERENCE:
        return None
    tp, stages = _split(planned)
    copies = planned.n_gpus if planned.n_gpus > 1 and tp == 1 and stages == 1 else 1
    per_copy = -(-planned.batch // copies)
    fit = min(per_copy, VLLM_MAX_NUM_SEQS, int(kv_capacity_tokens // max(1, planned.context_len)))
    return min(planned.batch, fit * copies)


def estimate_inference(arch: ModelArch, planned: PlannedJob, gpu_memory_bytes: float | None,
                       weights_override: float | None) -> MemoryResult:
    """The busiest GPU's weights, KV cache, activations and buffers while ``planned`` serves (module docstring)."""
    counts = count_params(arch)
    notes: list[str] = []
    tp, stages = _split(planned)
    if planned.n_gpus > 1 and tp == 1 and stages == 1:
        # The job's concurrent sequences are over the whole build: each copy serves its share.
        share = -(-planned.batch // planned.n_gpus)
        notes.append(f"each of the {planned.n_gpus} GPUs holds a full copy of the model and serves {share} of the "
                     f"{planned.batch} sequences")
        planned = planned.model_copy(update={"batch": share})
    fmt = weight_format(planned.weights, planned.quant_group_size, planned.double_quant)
    whole = _whole_weights(arch, planned, fmt, weights_override, notes)
    host = 0.0
    if n := offloaded_moe_layers(arch, planned):
        # llama.cpp --n-cpu-moe N (alias of --override-tensor "blk.(0..N-1).ffn_.*_exps=CPU"):
        # the routed experts of the first N MoE layers stay in host RAM and run on the CPU.
        moved = n * routed_expert_bytes_per_layer(arch, planned)
        whole, host = max(0.0, whole - moved), moved
        notes.append(f"MoE: the routed experts of {n} layers ({moved / 2**30:.1f} GiB) in host RAM, run by the CPU "
                     "(llama.cpp --n-cpu-moe)")
    kv_whole = kv_cache_bytes(arch, planned.context_len, planned.batch, planned.kv_dtype, planned.engine)
    if planned.engine.gguf and tp == 1:
        # The input embedding's bytes stay in host RAM, mapped from the file; they are not a plan's host need
        # (``MemoryBreakdown.host``: what a plan moves there), which a build whose RAM is unknown could not meet.
        weights, kv, embedding = llama_cpp_busiest(arch, planned, whole, kv_whole, stages)
        notes.append(f"llama.cpp keeps the input embedding ({embedding / 2**30:.2f} GiB) in host RAM and splits the "
                     "layers with the output layer counted as one more")
    else:
        weights = per_gpu_weights(arch, whole, tp, stages)
        kv = per_gpu_kv(arch, kv_whole, tp, stages)
    notes.append(f"runtime: CUDA context {CUDA_CONTEXT_BYTES / MIB:.0f} MiB (pytorch#107667, #28113)")
    if planned.engine.pooled:
        acts, buffers, kv, capacity = _pooled(arch, planned, weights, kv, tp, stages, gpu_memory_bytes, notes)
        runtime = CUDA_CONTEXT_BYTES + VLLM_CUDA_GRAPH_BYTES
    else:
        acts, buffers = _engine_buffers(arch, planned, fmt, weights, kv, tp, notes)
        capacity, runtime = None, CUDA_CONTEXT_BYTES
    breakdown = MemoryBreakdown(weights=weights, kv_cache=kv, activations=acts, buffers=buffers, runtime=runtime,
                                host=host)
    return MemoryResult(breakdown=breakdown, assumptions=tuple(notes), kv_capacity_tokens=capacity,
                        params_total=counts.total, params_trainable=0.0)


def _whole_weights(arch: ModelArch, planned: PlannedJob, fmt: WeightFormat, weights_override: float | None,
                   notes: list[str]) -> float:
    """Bytes of the whole model's weights: the files' size when given, else the format's."""
    if weights_override is None:
        whole = weights_bytes(arch, planned)
        if planned.engine is Engine.TRANSFORMERS and is_gguf(planned.weights):
            notes.append(f"weights {fmt.name.upper()}: transformers dequantizes a GGUF file to "
                         f"{GGUF_IN_TRANSFORMERS_DTYPE.upper()} at load (its GGUF docs)")
        elif fmt.name in MIXES:
            bits = whole * 8 / count_params(arch).total
            notes.append(f"weights {fmt.name.upper()}: {bits:.3f} bits per weight on average, each tensor at the type "
                         "llama-quantize gives it (llama.cpp src/llama-quant.cpp)")
        elif fmt.experts_only:
            held = weight_format(held_format_name(planned))
            notes.append(f"weights {held.name.upper()}: the routed experts at {held.bits_per_weight:.2f} bits per weight, "
                         f"everything else at {held.outside_experts_bits:g} ({held.source})")
        else:
            notes.append(f"weights {fmt.name.upper()}: {fmt.bits_per_weight:.3f} bits per weight ({fmt.source})")
    else:
        notes.append("weights: exact size of the files")
        whole = weights_override
    held_name = held_format_name(planned)
    if planned.engine.gguf and held_name != planned.weights.strip().lower():
        notes.append(f"llama.cpp runs GGUF files; {fmt.name.upper()} taken as the {held_name.upper()} GGUF that ggml-org "
                     "converts it to")
    elif planned.engine.gguf and not is_gguf(planned.weights):
        notes.append(f"llama.cpp runs GGUF files; {fmt.name.upper()} taken as its GGUF equivalent")
    return whole


def _pooled(arch: ModelArch, planned: PlannedJob, weights: float, kv: float, tp: int, stages: int,
            gpu_memory_bytes: float | None, notes: list[str]) -> tuple[float, float, float, float | None]:
    """(activations, buffers, KV cache, KV capacity in tokens) of an engine with a pre-allocated KV pool:
    vLLM's profile run, then the pool fills the card's budget (``kv``, the context × batch cache, where the
    card's size is unknown)."""
    tokens = min(VLLM_MAX_BATCHED_TOKENS, planned.context_len * planned.batch)
    acts = inference_forward_bytes(arch, tokens, planned.context_len, AttentionImpl.FLASH, tp)
    buffers = inference_logits_bytes(arch, VLLM_MAX_NUM_SEQS)
    # vLLM's figures stand for every engine with a pre-allocated KV pool; the note says whose they are.
    whose = "vLLM" if planned.engine is Engine.VLLM else f"{planned.engine.label} (vLLM's figures)"
    notes.append(f"{whose} profile: {tokens} batched tokens, sampler logits for {VLLM_MAX_NUM_SEQS} sequences")
    capacity = None
    if gpu_memory_bytes is not None:
        budget = planned.gpu_memory_utilization * gpu_memory_bytes
        # vLLM counts non-torch memory (CUDA context) inside the budget; graphs come after.
        kv = max(0.0, budget - weights - acts - buffers - CUDA_CONTEXT_BYTES)
        per_token = per_gpu_kv(arch, kv_cache_bytes(arch, 1, 1, planned.kv_dtype, planned.engine), tp, stages)
        capacity = kv / per_token
        notes.append(f"{planned.engine.label} pre-allocates {planned.gpu_memory_utilization:.0%} of the card; the KV "
                     f"cache fills the rest: {capacity:,.0f} tokens")
    else:
        notes.append(f"{planned.engine.label}: card size unknown, KV cache shown for context × batch only")
    notes.append(f"{whose} CUDA graphs ~{VLLM_CUDA_GRAPH_BYTES / MIB:.0f} MiB outside the budget")
    return acts, buffers, kv, capacity


def _engine_buffers(arch: ModelArch, planned: PlannedJob, fmt: WeightFormat, weights: float, kv: float, tp: int,
                    notes: list[str]) -> tuple[float, float]:
    """(activations, buffers) of an engine without a KV pool: llama.cpp's compute buffer, ExLlamaV2's chunked
    prefill, or transformers' whole-prompt forward."""
    if planned.engine.gguf:
        flash = not planned.scores_in_memory  # llama.cpp's and Ollama's flash attention (PlannedJob.scores_in_memory)
        ubatch = planned.gguf_ubatch_tokens
        buffers = llama_cpp_compute_buffer_bytes(arch, planned.context_len, flash, ubatch)
        notes.append("llama.cpp: the KV cache of the whole context allocated at start; compute buffer for prompt "
                     f"batches of {ubatch} tokens "
                     f"({'with' if flash else 'without'} flash attention), approximated")
        return 0.0, buffers
    if planned.engine is Engine.EXLLAMAV2:
        # ExLlamaV2 allocates its cache for max_seq_len × batch at load (ExLlamaV2Cache) and
        # prefills in chunks of max_input_len (2048 by default) tokens.
        chunk = min(EXLLAMA_CHUNK_TOKENS, planned.context_len) * planned.batch
        acts = inference_forward_bytes(arch, chunk, planned.context_len, AttentionImpl.FLASH, tp)
        notes.append(f"ExLlamaV2: cache for the full context allocated at load; prefill in {EXLLAMA_CHUNK_TOKENS}-token "
                     "chunks")
        return acts, inference_logits_bytes(arch, chunk)
    prefill = planned.context_len * planned.batch
    acts = inference_forward_bytes(arch, prefill, planned.context_len, planned.attention, tp)
    buffers = inference_logits_bytes(arch, planned.batch)
    if fmt.name in ("nf4", "fp4"):
        buffers += largest_linear_params(arch) * 2
        notes.append("bitsandbytes 4-bit: one weight matrix dequantized to bf16 during prefill")
    notes.append("transformers: prefill of the whole context in one forward (worst case); "
                 "generate keeps the fp32 logits of the last position only (transformers 4.45 and later)")
    if planned.full_prompt_logits:
        # transformers < 4.45: generate computed the logits of every prompt position; the peak
        # is then the prompt's KV cache plus those logits, if that exceeds the steady peak.
        prompt = planned.prompt_tokens if planned.prompt_tokens is not None else planned.context_len
        at_logits = (weights + kv * min(1.0, prompt / max(1, planned.context_len))
                     + full_prompt_logits_bytes(arch, prompt, planned.batch))
        buffers += max(0.0, at_logits - (weights + kv + acts + buffers))
        notes.append(f"transformers < 4.45: logits of all {prompt:,} prompt positions (bf16 + fp32 copy)")
    return acts, buffers
