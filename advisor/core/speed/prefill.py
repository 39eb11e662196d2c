"""The prompt's prefill, and the time experts kept in host RAM add to a step.

A prefill is compute-bound (every prompt token through every weight): the longer of its FLOPs at the
engine's compute share and reading the weights (once, or in a GGUF engine once per micro-batch), plus the scores an unfused attention writes
to memory, plus a GGUF engine's pass that dequantizes its weights for cuBLAS. A GGUF prompt computed in
micro-batches of a few tokens (``--ubatch-size``) is one decode step per micro-batch instead
(``gguf_decode.MATVEC_MAX_TOKENS``), without the output layer and the last layer's MLP in a micro-batch whose logits
nobody reads (``unused_prompt_params``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from advisor.core.hardware.records import Gpu, ResolvedBuild
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.experts import moe_layers, offloaded_moe_layers, routed_expert_bytes_per_layer
from advisor.core.memory.results import MemoryBreakdown
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import layer_mlp_params, mlp_matrices
from advisor.core.speed.decode import decode_step, stage_shares
from advisor.core.speed.engine_speed import engine_speed
from advisor.core.speed.flops import attention_flops_per_token, matmul_params
from advisor.core.speed.gguf_decode import prompt_as_decode_steps
from advisor.core.speed.gguf_paths import GgufPath, dequant_bytes_per_weight, gguf_path
from advisor.core.speed.layout import ACT_BYTES, Run, Split
from advisor.core.speed.moe_reads import experts_picked
from advisor.core.speed.scores import score_bytes, score_context, unfused_reason
from advisor.core.speed.train_host import host_gb_per_s, host_link_bytes_per_s


def prefill_seconds(arch: ModelArch, planned: PlannedJob, r: Run, mem: MemoryBreakdown, sp: Split, whole_w: float,
                    notes: list[str]) -> tuple[float, float] | None:
    """(seconds to prefill a ``context_len``-token prompt for every sequence of the batch, comm part); None when
    a GPU's FLOP/s or bandwidth is unknown."""
    if prompt_as_decode_steps(planned):
        return _matvec_prefill_seconds(arch, planned, r, mem, sp, whole_w, notes)
    peaks, bws = r.known_peaks(), r.known_bws()
    if peaks is None or bws is None:
        dequant = planned.engine.gguf and any(gguf_path(g, planned.weights) is GgufPath.DEQUANT
                                              for g in r.build.gpus[:planned.n_gpus])
        notes.append("prefill speed unknown: " + (
            f"{planned.engine.label} dequantizes these weights to FP16 on this card's CUDA cores (no int8 dot product "
            "before compute capability 6.1), whose FP16 rate the catalog does not hold" if dequant else
            "a GPU's tensor FLOP/s or bandwidth is not in the catalog"))
        return None
    e = engine_speed(planned.engine)
    tokens = planned.context_len * planned.batch
    scores = score_bytes(arch, planned)  # without a fused attention kernel: every score it computes goes through memory
    attended = score_context(planned) if scores else planned.context_len / 2
    moe_extra = moe_prompt_extra_flops(arch, planned, tokens)
    flops = tokens * (r.two_n + attention_flops_per_token(arch, attended)) + moe_extra
    act = tokens * arch.hidden_size * ACT_BYTES
    deq = _dequant_bytes(arch, planned, tokens)
    reads = _weight_reads(planned, tokens)
    if sp.stages > 1:
        shares = stage_shares(r.build, sp.stages)
        parts = [(max(flops * f / (p * e.compute), reads * whole_w * f / (b * e.bandwidth)) + deq(g) * f / (b * e.bandwidth),
                  scores * f / (b * e.bandwidth))
                 for f, p, b, g in zip(shares, peaks, bws, r.build.gpus, strict=False)]
        t, scores_t = sum(a + s for a, s in parts), sum(s for _a, s in parts)
        comm_t = sum(r.sends(act, sp.stages))
    else:
        scores_t = scores / sp.tp / (min(bws) * e.bandwidth)
        t = (max(flops / sp.tp / (min(peaks) * e.compute), reads * mem.weights / (min(bws) * e.bandwidth)) + scores_t
             + max(deq(g) / sp.tp / (b * e.bandwidth) for g, b in zip(r.build.gpus, bws)))
        comm_t = r.tp_all_reduces(arch, planned.engine, act, sp.tp)
    if moe_extra:
        per_expert = _tokens_per_expert(arch, planned, tokens)
        notes.append(f"each expert takes about {per_expert:.0f} tokens of a {min(tokens, planned.gguf_ubatch_tokens)}-token micro-batch, "
                     f"a part of its {MOE_PROMPT_TILE_TOKENS}-token tiles: the experts' prompt matmuls run at about "
                     f"{per_expert / MOE_PROMPT_TILE_TOKENS:.0%} of a dense model's rate")
    if scores:
        notes.append(f"the prompt's attention writes its scores to memory ({unfused_reason(planned)}): {scores_t:.2f} s "
                     f"of the {t + comm_t:.2f} s prefill")
    return t + comm_t, comm_t


def _matvec_prefill_seconds(arch: ModelArch, planned: PlannedJob, r: Run, mem: MemoryBreakdown, sp: Split,
                            whole_w: float, notes: list[str]) -> tuple[float, float] | None:
    """A GGUF prompt in micro-batches of at most ``MATVEC_MAX_TOKENS`` tokens: llama.cpp computes one graph per
    micro-batch (``llama_context::decode`` splits the batch into ``n_ubatch``-token micro-batches), whose matmuls run
    the matrix-vector kernels that read every weight once per call — each micro-batch is a decode step of its
    tokens, timed by ``decode.decode_step`` at the middle of the prompt (the cache it attends to grows from 0 to the
    prompt). Its tokens count as that step's batch: their FLOPs and a MoE's experts as a decode batch's, and the KV
    cache read once for each (exact at one token; at 2-8 tokens high by the repeated reads, a small part at these
    contexts). (seconds, comm part); None when a GPU's bandwidth is unknown."""
    tokens = planned.context_len * planned.batch
    ubatch, steps = min(planned.gguf_ubatch_tokens, tokens), _weight_reads(planned, tokens)
    step_job = planned.model_copy(update={"batch": ubatch, "context_len": max(1, planned.context_len // 2)})
    step = decode_step(arch, step_job, r, mem, sp, whole_w, [])
    # A micro-batch without a token whose logits are kept skips the weights of ``unused_prompt_params``: ggml's
    # backends skip the empty matmuls (ggml-cuda.cu, ``evaluate_and_capture_cuda_graph``: ``ggml_is_empty(node)``).
    kept = 1 - unused_prompt_params(arch, planned) / (r.two_n / 2)
    lean = decode_step(arch, step_job, replace(r, two_n=r.two_n * kept), mem.model_copy(
        update={"weights": mem.weights * kept}), sp, whole_w * kept, [])
    if step is None or lean is None:
        notes.append("prefill speed unknown: a GPU's memory bandwidth is not in the catalog")
        return None
    outputs = min(steps, planned.batch)  # the micro-batches holding a sequence's last token
    notes.append(f"{planned.engine.label} computes the prompt {ubatch} token{'s' if ubatch > 1 else ''} at a time "
                 f"(prompt batch {planned.gguf_ubatch_tokens}): each batch reads the weights, like a decode step — "
                 f"{steps:,} steps of {lean.seconds * 1e3:.1f} ms (the output layer and the last layer's MLP only "
                 "for each sequence's last token)")
    return (outputs * step.seconds + (steps - outputs) * lean.seconds,
            outputs * step.comm_s + (steps - outputs) * lean.comm_s)


def unused_prompt_params(arch: ModelArch, job: Job) -> float:
    """Matmul weights a prompt token whose logits are not kept skips (a prompt keeps one token's logits a sequence).

    Every engine computes the output projection for those tokens only: vLLM and SGLang take the logits at the
    sequences' last positions, transformers' ``generate`` passes ``logits_to_keep=1`` (as this project's H100 prefill
    rows were measured, ``benchmarks/gpu_measure.py``), llama.cpp keeps the outputs its batch asks for (the last
    token's by default). llama.cpp and Ollama also drop the other tokens' rows before the last layer's MLP
    (``ggml_get_rows(ctx0, cur, inp_out_ids)`` at ``il == n_layer - 1``: ``llm_build_llama``, src/models/llama.cpp at
    4add2b49, and every model builder; Ollama's engine the same, model/models/llama/model.go at 948de6bb). The output
    projection counts whether or not it is tied to the embedding (``flops.matmul_params``).

    Used where a prompt is computed as decode steps (``_matvec_prefill_seconds``), whose constants are the decode
    step's. A prompt of full micro-batches still counts these FLOPs for every token: the compute shares fitted on its
    rows stand in for per-token work the estimate lacks, mostly a small model's (benchmarks/README.md, twenty-sixth
    session: taking the FLOPs out and refitting moved the calibration prompts from 15.6 / 43.3 to 17.1 / 50.5 %)."""
    last_mlp = layer_mlp_params(arch, moe_layer=moe_layers(arch) > 0, active_only=True) if job.engine.gguf else 0
    return float(arch.vocab_size * arch.hidden_size + last_mlp)


#: Prompt tokens a GGUF engine's expert matmul tile takes. llama.cpp multiplies each routed expert by the tokens of
#: the micro-batch routed to it (``mul_mat_id``: the tokens sorted by expert, ggml/src/ggml-cuda/mmid.cu), about
#: ubatch × k / E of them (Qwen3-30B-A3B at the default ubatch of 512: 32), in MMQ tiles up to 128 tokens wide on
#: GPUs with matrix units (``get_mmq_x_max_host``: Turing's MMA, AMD's MFMA and WMMA; ggml-cuda/mmq.cuh), the
#: width the kernel picks for the micro-batch's columns; an expert with fewer tokens runs the rest of its tile empty,
#: so the routed experts' prompt FLOPs cost ``MOE_PROMPT_TILE_TOKENS`` / (tokens per expert) as much where that
#: exceeds 1. Dense matmuls of a 512-token micro-batch fill every tile. Modelled 2026-11-28 (fourth session) after
#: Qwen3-30B-A3B prompts had read 2-3x faster than measured on every GPU; the tile is the code's, not fitted (fitted
#: on the three trusted calibration MoE prompt rows it drifted to 288, pulled by DeepSeek-V3 over eight H100s, whose
#: MLA prompt has costs of its own).
MOE_PROMPT_TILE_TOKENS = 128


def moe_prompt_extra_flops(arch: ModelArch, job: Job, tokens: int) -> float:
    """The FLOPs a GGUF engine's routed-expert matmuls waste on part-empty tiles over a ``tokens``-token prompt
    (``MOE_PROMPT_TILE_TOKENS``); 0 for a dense model or another engine."""
    if arch.moe is None or not job.engine.gguf or not moe_layers(arch):
        return 0.0
    moe, per_expert = arch.moe, _tokens_per_expert(arch, job, tokens)
    if per_expert >= MOE_PROMPT_TILE_TOKENS:
        return 0.0
    expert_flops_per_token = 2 * moe_layers(arch) * moe.n_active * mlp_matrices(arch) * arch.hidden_size * moe.expert_ffn_size
    return tokens * expert_flops_per_token * (MOE_PROMPT_TILE_TOKENS / per_expert - 1)


def _tokens_per_expert(arch: ModelArch, job: Job, tokens: int) -> float:
    """About how many tokens of a micro-batch each routed expert multiplies: ubatch × k / E."""
    assert arch.moe is not None
    return min(tokens, job.gguf_ubatch_tokens) * arch.moe.n_active / arch.moe.n_experts


def _weight_reads(job: Job, tokens: int) -> int:
    """How many times a prompt reads the weights: once per micro-batch in a GGUF engine, which computes each as a
    graph of its own (``--ubatch-size``); once for another engine."""
    return -(-tokens // job.gguf_ubatch_tokens) if job.engine.gguf else 1


def _dequant_bytes(arch: ModelArch, job: Job, tokens: int) -> Callable[[Gpu], float]:
    """Per GPU: the bytes a GGUF prompt moves to dequantize its weights to FP16 for cuBLAS, once per micro-batch
    (``gguf_paths.dequant_bytes_per_weight``; llama.cpp's ``--ubatch-size``); 0 for another engine."""
    if not job.engine.gguf:
        return lambda gpu: 0.0
    ubatches = _weight_reads(job, tokens)
    n = matmul_params(arch)
    return lambda gpu: ubatches * n * dequant_bytes_per_weight(gpu, job.weights)


#: The fewest tokens of a matmul for which the CUDA backend copies weights kept in host RAM to the GPU and
#: multiplies them there (``ggml_backend_cuda_device_offload_op``: ``op_offload_min_batch_size``, 32 unless the
#: ``GGML_OP_OFFLOAD_MIN_BATCH`` environment variable says otherwise; ggml/src/ggml-cuda/ggml-cuda.cu at 00108827);
#: fewer run on the CPU where the weights are.
OFFLOAD_MIN_BATCH = 32


def moe_offload_seconds(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild,
                        notes: list[str]) -> tuple[float, float]:
    """(extra seconds per decode step, extra seconds of prefill) for experts kept in host RAM."""
    n = offloaded_moe_layers(arch, planned)
    if not n:
        return 0.0, 0.0
    per_layer = routed_expert_bytes_per_layer(arch, planned)
    rate, whence = host_gb_per_s(build)
    decode = n * per_layer * experts_picked(arch, planned.batch) / (rate * 1e9)
    # A prompt batch of ≥ OFFLOAD_MIN_BATCH tokens copies the offloaded experts to the GPU: their bytes over the host
    # link, once per ubatch (``PlannedJob.ubatch_tokens``); a smaller one runs them on the CPU, as a decode step does,
    # for the experts its tokens pick.
    tokens = planned.context_len * planned.batch
    ubatch, ubatches = min(planned.gguf_ubatch_tokens, tokens), _weight_reads(planned, tokens)
    copied = ubatch >= OFFLOAD_MIN_BATCH
    prefill = ubatches * n * per_layer * (
        1 / host_link_bytes_per_s(build) if copied else experts_picked(arch, ubatch) / (rate * 1e9))
    notes.append(f"MoE experts of {n} layers read from host RAM by the CPU at {rate:.0f} GB/s ({whence})"
                 + (" and copied to the GPU for each prompt batch" if copied else ", for the prompt too: its batches "
                    f"of {ubatch} tokens are fewer than the {OFFLOAD_MIN_BATCH} for which they are copied to the GPU"))
    return decode, prefill

