"""Per-engine speed constants, fitted to published tokens/s.

Five numbers per engine turn the roofline of ``advisor.core.speed.inference`` into speed:

* ``bandwidth``: achieved share of the card's peak memory bandwidth when a decode step reads the
  weights (and, unless ``kv_bandwidth`` says otherwise, the KV cache);
* ``compute``: achieved share of the tensor peak (``flops.peak_flops``) in prefill and in
  compute-bound (large-batch) decode, on a card whose matmuls reach a typical share of their peak
  (``flops.matmul_share`` scales it for cards measured to reach more or less);
* ``floor_s_per_layer``: the host's time per layer per decode step (kernel launches, Python,
  sampling): a step is never shorter than that times the layers (added to it: ``SERIAL_FLOOR_ENGINES``);
* ``kv_bandwidth``: share of peak bandwidth the attention reaches reading the KV cache of one
  sequence (None: ``bandwidth``). Kernels that parallelise only over batch × heads leave most of
  the GPU idle when one sequence decodes over a long context (FlashAttention-2 without split-KV;
  Dao et al., "Flash-Decoding for long-context inference", 2023-10-12); ``B`` sequences fill ``B``
  times as many blocks, so the share grows with the batch up to ``bandwidth``;
* ``kernels_s_per_layer``: GPU seconds per layer of a decode step's small kernels, which take their few microseconds
  each whatever bytes they read, one after another in a stream (CUDA C++ Programming Guide, "Streams"), so that a
  replayed CUDA graph removes their launches from the host but not their own time. A vLLM decoder layer runs, besides
  its four weight GEMMs, the fused residual-add RMSNorm twice, the rotary embedding, the KV-cache store, the attention
  (and, split, its reduction) and the SiLU-and-multiply (``LlamaDecoderLayer``, vllm/model_executor/models/llama.py at
  0035bdf2); llama.cpp's about a dozen — two RMS norms and their weight multiplies, two RoPEs, the K and V stores, the
  attention, the SwiGLU, two residual adds (``llm_build_llama``, src/models/llama.cpp at 4add2b49; three bias adds more
  for Qwen2). In the CUDA-graph engines (``CUDA_GRAPH_ENGINES``) fitted with ``bandwidth`` as one pair (the two trade
  off): one share for every card had put GDDR cards' 7B steps 11 % too slow and HBM cards' 2 % too fast in vLLM's
  calibration rows (a fast card's step is short, so a fixed time is more of it). llama.cpp's is fitted with its decode
  kernels (``speed_calibration.fit_gguf_decode``; tenth session 0.025, then 0.030 ms: without it a 3B Q4_K_M on an RTX
  5090 decoded 80 % too fast; 0.035 ms with round 25's RTX 5070 Ti Qwen2.5 0.5B rows, twelfth session), and Ollama
  runs llama.cpp's kernels (``SIBLING_KERNELS``).

The values are fitted, not set by hand: ``benchmarks/speed_calibration.py`` splits the trusted
rows of ``tests/data/speeds.csv`` by source (sha256 of the row's URL mod 3 == 0: held out; the
rest: calibration), and for each engine with at least 10 calibration rows picks the grid values
that minimise the mean absolute log error of those rows (coordinate descent over the four
constants, three passes; among values within 1 % of the best error the one nearest the prior is
kept, so a constant the rows do not constrain keeps its prior, the llama.cpp-measured ``PRIOR``).
An engine not fitted takes a named sibling's constants (``SIBLING``), else the priors.
Refit with ``.venv/bin/python benchmarks/speed_calibration.py`` (it prints this table).

Calibration sources (trusted rows, 2026-11-25):
* transformers (and vLLM 0.6, a known gap since the 24th session): Qwen2.5 speed benchmark, QwenLM/Qwen2.5
  docs/source/benchmark/speed_benchmark.rst at a912d239 (A100 80GB, batch 1, input 1-129,024 tokens, 2,048 out);
* transformers, SGLang: Qwen3 speed benchmark, QwenLM/Qwen3 docs/source/getting_started/
  speed_benchmark.md at c7f51a1a (H20 96GB, batch 1, input 1);
* transformers: this project's measurement on one H100 SXM, tests/data/device/h100-sxm-2026-11-26.jsonl
  (benchmarks/gpu_measure.py, transformers 5.17, Llama 3.1 8B and 3.2 1B shapes, batch 1-32, prompts of 128-8,192);
* TensorRT-LLM (its compute share and the per-head attention share, ``PER_HEAD_ATTENTION_SHARE``):
  NVIDIA/TensorRT-LLM docs/source/blogs/H200launch.md at 1555478c (v0.5.0, H200 FP8, batch 32-1024)
  and blogs/Falcon180B-H200.md at 3c44cb97 (v0.7a, one H200, batch 96-960); since the tenth session
  (2026-11-28) also its floor and KV share, on trtllm-bench latency reports at batch 1
  (masahiro-kubota/trtllm-latency, TensorRT-LLM 1.2.0, Qwen2.5 0.5B on an RTX PRO 6000 Blackwell Server, BF16
  and FP8, prompts of 8 to 9,192 tokens): one campaign, one small model, whose floor the rows see (0.07 ms a layer)
  more than its weights' share (0.67; 0.79 with its small kernels' 0.04 ms a layer beside it, eleventh session); its
  KV read is split over the SMs (``SPLIT_KV_ENGINES``), not fitted;
* llama.cpp, Ollama and the rest: the calibration part of the sources collected in rounds 1-24
  (benchmarks/README.md lists them per session).
Held out (never seen by the fit): the TensorRT-LLM 0.9.0 performance overview, the torchtune README,
llama.cpp PRs #3084 and #2959 and geerlingguy/ai-benchmarks issues #40 and #20.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from advisor.core.hardware.records import Gpu
from advisor.core.job.choices import Engine
from advisor.core.job.job import Job
from advisor.core.speed.flops import (
    DECODE_BANDWIDTH_EFFICIENCY,
    INFERENCE_COMPUTE_EFFICIENCY,
)
from advisor.core.speed.gguf_paths import GgufPath, gguf_path

# --- Priors (used where no calibration row constrains a constant): flops.DECODE_BANDWIDTH_EFFICIENCY,
# llama.cpp tg128 on an RTX 3090 (PR #4766: 654 of 936 GB/s), and flops.INFERENCE_COMPUTE_EFFICIENCY,
# its pp512 (59.4 of 142 TFLOP/s).
PRIOR_BANDWIDTH = DECODE_BANDWIDTH_EFFICIENCY
PRIOR_COMPUTE = INFERENCE_COMPUTE_EFFICIENCY


@dataclass(frozen=True)
class EngineSpeed:
    bandwidth: float
    compute: float
    floor_s_per_layer: float
    kv_bandwidth: float | None = None
    kernels_s_per_layer: float = 0.0  # a CUDA-graph engine's small kernels per layer (module docstring)

    def kv_share(self, batch: int) -> float:
        """Share of peak bandwidth the KV cache is read at with ``batch`` sequences."""
        if self.kv_bandwidth is None:
            return self.bandwidth
        return min(self.bandwidth, self.kv_bandwidth * max(1, batch))


PRIOR = EngineSpeed(bandwidth=PRIOR_BANDWIDTH, compute=PRIOR_COMPUTE, floor_s_per_layer=0.0)

#: An engine with no calibration row runs with its sibling's constants: SGLang, TensorRT-LLM and
#: DeepSpeed-FastGen replay CUDA graphs and batch continuously as vLLM does; Ollama is llama.cpp;
#: ExLlamaV2 launches few fused kernels per layer as llama.cpp does.
SIBLING = {Engine.SGLANG: Engine.VLLM, Engine.TENSORRT_LLM: Engine.VLLM, Engine.DEEPSPEED: Engine.VLLM,
           Engine.OLLAMA: Engine.LLAMA_CPP, Engine.EXLLAMAV2: Engine.LLAMA_CPP}

# --- Fitted (benchmarks/speed_calibration.py; sources in the module docstring) ----------------------------------------
# Each refit, with its rows, sources and the error before and after, is written in benchmarks/README.md (its sessions'
# sections, 2026-11-25 on); the values below are the last fit's, converged (the calibration prints "shipped constants
# match this fit", and test_engine_speed pins them). Milestones: transformers' compute share is constrained by the
# prefill rows measured on the lent H100 (tests/data/device/h100-sxm-2026-11-26.jsonl; 0.15 -> 0.48); its KV share by
# bitsandbytes' benchmarking README (eager transformers 4.46.3 on a T4, an RTX 4090 and an H100) and Qwen's speed
# benchmarks; its floor by the host time of quantized Linears (``LINEAR_HOST_S``) beside it. vLLM's bandwidth share sits
# at the prior (within the fit's 1 % tie of the best) once a step leaves an untied input embedding unread (ninth
# session; ``decode.unread_embedding_bytes``); its builds before CUDA graphs (MLC's llm-perf-bench, 2023-10) are a known
# gap (``build_eras.pre_graph_build``); 0.80 since the eleventh session, fitted with its layers' small kernels
# (``kernels_s_per_layer``, 0.04 ms), which a share alone had spread over every card's bandwidth; compute 0.43 -> 0.42
# in the twelfth with 25 more cards' measured matmul shares (``matmul_rates``), back to 0.43 in the fourteenth with the
# benchmark's rows over NVLink run on bridged pairs (``speed_fidelity.bridged``); in the seventeenth, with 45 more rows' hosts found in their sources (``host_cpu``), bandwidth 0.81, compute at the prior (0.42) and the floor 0.15 ms a layer (0.16); in the eighteenth, with 84 more
# rows' hosts (jiawei-ju's Colab T4s among them) and the exponent fitted with each host at its own mark, bandwidth 0.79
# and its layers' small kernels 0.03 ms; 0.80 and 0.04 ms in the twentieth, all-reduces by ``hardware.allreduce`` (TRT-LLM 0.75);
# 0.84 and compute 0.52 in the twenty-fourth, fitted on the V1 engine's rows alone (releases before v0.8.0 a known gap,
# ``build_eras.pre_v1_vllm``: one share over both had read V0 rows 9 % fast and V1 rows 8 % slow). llama.cpp is fitted with its decode kernels (``gguf_decode``: the issue slots
# a weight takes, the host's time per layer where no CUDA graph is replayed, a MoE layer's dispatch and every layer's
# small kernels), its compute share left at the prior (its prompts' kernel paths have their own, ``GGUF_PATH_COMPUTE``);
# its bandwidth share moved by 5-7 % with each round of rows (0.67, 0.72, 0.68, 0.72), about its uncertainty, and to
# 0.75-0.76 in the tenth session with every layer's small kernels timed (``kernels_s_per_layer``), 0.78 in the twelfth.
# SGLang and Ollama run their sibling's kernels (``SIBLING_KERNELS`` below); TensorRT-LLM is fitted in full since round 19 brought it rows at batch 1 (``LARGE_BATCH_ONLY_COMPUTE`` below).
FITTED: dict[Engine, EngineSpeed] = {
    Engine.LLAMA_CPP: EngineSpeed(bandwidth=0.78, compute=PRIOR_COMPUTE, floor_s_per_layer=0.0, kv_bandwidth=None,
                                  kernels_s_per_layer=0.035e-3),
    Engine.TRANSFORMERS: EngineSpeed(bandwidth=0.61, compute=0.45, floor_s_per_layer=0.83e-3, kv_bandwidth=0.0238),
    Engine.VLLM: EngineSpeed(bandwidth=0.84, compute=0.52, floor_s_per_layer=0.15e-3, kv_bandwidth=None,
                             kernels_s_per_layer=0.04e-3),
    Engine.TENSORRT_LLM: EngineSpeed(bandwidth=0.75, compute=0.54, floor_s_per_layer=0.07e-3, kv_bandwidth=None,
                                     kernels_s_per_layer=0.04e-3),
}


#: Engines whose decode kernels are their sibling's (``SIBLING``), so that they read the weights and the KV cache and
#: reach the tensor peak at its shares: only their host's time per layer (``floor_s_per_layer``) is their own, and
#: the fit (benchmarks/speed_calibration.py) fits nothing else for them. SGLang's linear layers are vLLM's ("Adapted
#: from vllm/model_executor/layers/linear.py" at v0.6.4.post1: an unquantized weight goes through ``F.linear``, a
#: quantized one through the same Marlin / FP8 methods; python/sglang/srt/layers/linear.py at 0079fcc1), and both
#: replay a decode step as a CUDA graph. Every trusted calibration pair of the two engines on one machine at one
#: request (same model, weights, GPUs and lengths) measures SGLang at 0.95-1.14x vLLM: tokey-tahmid's A100 40GB
#: SXM over 1, 2 and 4 GPUs (1.02, 1.06, 1.11; Qwen2.5-32B over 2: 1.02), kubesimplify's DGX Spark (1.00),
#: XianghaoKong's A100 80GB PCIe (1.14, a 1.5B model the host bounds), yuqiz7's H100 SXM with FP8 weights (0.96);
#: untrusted pairs agree (varad-more's A10G, 0.96-1.02 over seven models; ree2raz's L4, 1.00), but for SGLang run
#: with its CUDA graphs off (ehzawad's RTX A5000, 0.51). Fitted on its own rows in full, SGLang had a bandwidth share
#: of 0.41 against vLLM's 0.72 (57 % of vLLM's speed where the weights bound the step): 22 of its 33 rows are one page,
#: Qwen3's H20 speed benchmark (SGLang 0.4.6.post1), where SGLang decodes Qwen3-32B BF16 slower than eager
#: transformers on the same card (20.7 against 26.2 tokens/s), the one source with no vLLM beside it. Its floor alone
#: is best at 0.12 ms a layer whether each row or each source weighs the same; the fit keeps 0.14 ms, within its 1 %
#: tie of the best (benchmarks/README.md, ninth session). Ollama's runner multiplies with llama.cpp's ggml kernels (its
#: Go runner linked ggml; since 2026-05-29, ollama #16031, every GGML model runs under llama-server): only its host's
#: time per layer where the host launches the kernels one by one (a Mac's Metal; ``decode._engine_floor``) is its own.
#: Fitted in full on its own rows its bandwidth share was 0.70 against llama.cpp's 0.76 at the same error (twelfth
#: session); since the twenty-fourth its host time follows the GPU's step (``SERIAL_FLOOR_ENGINES``): 0.11 ms a layer
#: (0.47 ms as the longer of the two read famstack-dev/local-llm-bench's Mac decode, which grows with the context from its
#: first tokens on, worse); 0.10 ms, mean |ln err| 0.196 on its 138 rows, since ``gguf_decode.HOST_LAUNCHED_S_PER_MOE_LAYER``.
SIBLING_KERNELS_FLOOR_S_PER_LAYER: dict[Engine, float] = {Engine.OLLAMA: 0.10e-3, Engine.SGLANG: 0.14e-3}
SIBLING_KERNELS = frozenset(SIBLING_KERNELS_FLOOR_S_PER_LAYER)
#: Engines whose host time per token (``floor_s_per_layer``) follows the GPU's step instead of overlapping it: the
#: step is the kernels' time plus that host time. Ollama's runner samples, detokenizes and checks stop strings between
#: ``llama_decode`` calls, which wait for the GPU (runner/llamarunner/runner.go at b68f5047, ``processBatch``);
#: llama.cpp's own host time on Metal is its kernels' encoding, overlapped (``gguf_decode.HOST_LAUNCHED_S_PER_LAYER``).
SERIAL_FLOOR_ENGINES = frozenset({Engine.OLLAMA})


def _on_siblings(own: dict[Engine, float], field: str) -> dict[Engine, EngineSpeed]:
    """Each engine's sibling's fitted entry (``SIBLING``) with the one constant ``own`` declares for it."""
    return {engine: replace(FITTED[SIBLING[engine]], **{field: value}) for engine, value in own.items()}


FITTED.update(_on_siblings(SIBLING_KERNELS_FLOOR_S_PER_LAYER, "floor_s_per_layer"))

#: Engines whose calibration rows are all at large batches, where the host floor and the bandwidth shares do not show:
#: only their share of the tensor peak is fitted (``speed_calibration.LARGE_BATCH_ONLY``), the rest is their sibling's
#: (``SIBLING``). None since the tenth session: TensorRT-LLM had only NVIDIA's H200 blogs at batch 32-1024 (module
#: docstring) until round 19 brought trtllm-bench latency reports at batch 1 (masahiro-kubota/trtllm-latency: Qwen2.5
#: 0.5B on an RTX PRO 6000 Blackwell Server, BF16 and FP8, prompts of 8 to 9,192 tokens), and it is fitted in full.
LARGE_BATCH_ONLY_COMPUTE: dict[Engine, float] = {}
FITTED.update(_on_siblings(LARGE_BATCH_ONLY_COMPUTE, "compute"))

#: Share of the FP32 (CUDA-core) peak, ``Gpu.fp32_tflops``, that a per-head decode attention kernel
#: (``DecodeAttention.PER_HEAD``: TensorRT-LLM's masked MHA, one thread block per query head, FP32
#: multiply-adds) reaches on the attention FLOPs of a step (``flops.attention_flops_per_token``).
#: Fitted by ``benchmarks/speed_calibration.py`` (2026-11-25, third session; refitted in the fourth,
#: 0.08 -> 0.11, when a decode step became its GEMMs and then its attention kernel, each on its own
#: roofline: ``inference._kernels``) on TensorRT-LLM's
#: calibration rows, which ran that kernel: v0.5.0 on one or two H200 (NVIDIA/TensorRT-LLM
#: docs/source/blogs/H200launch.md at 1555478c: Llama-2-13B and Llama-2-70B, FP8, batch 32-1024),
#: before XQA existed, beside v0.7a's XQA rows (blogs/Falcon180B-H200.md at 3c44cb97), with
#: TensorRT-LLM on vLLM's constants (its own are not fitted: no row at a small batch). The kernel
#: reaches a small share: FP32 accumulation and per-key reductions across a warp, not its
#: multiply-adds, bound it. The share is of an SM of 128 FP32 lanes (the H200's); on a chip of 64
#: (``flops.fp32_lanes_per_sm``) the same kernel reaches twice it (``decode.per_head_attention_flops_per_s``).
PER_HEAD_ATTENTION_SHARE = 0.11
#: FP32 lanes per SM of the cards the share was fitted on (the H200's; ``flops.fp32_lanes_per_sm``).
PER_HEAD_ATTENTION_SHARE_LANES = 128


#: Engines whose decode attention splits one sequence's KV cache across the GPU's SMs, so that a single
#: sequence's cache is read at the weights' share of the bandwidth (their ``kv_bandwidth`` is None, a fact of
#: the engine's kernels, never fitted): vLLM's PagedAttention runs its partitioned V2 kernel (512-token
#: partitions, then a reduction) whenever one sequence's context spans more than one partition and
#: sequences x heads stay under 512 (``use_v1`` in vllm/attention/ops/paged_attn.py at 5da3a322), and SGLang's
#: FlashInfer decode splits the cache into chunks whenever batch x KV heads leave SMs idle, always under a CUDA
#: graph (``BatchDecodeWithPagedKVCacheWorkEstimationDispatched``, include/flashinfer/attention/scheduler.cuh at
#: fb28d724), and TensorRT-LLM's masked MHA "distributes the work across multiple CUDA thread-blocks on the GPU for
#: cases where the GPU occupancy is low", its multi-block mode, "turned on by default starting from TRT-LLM 0.13"
#: (docs/source/advanced/gpt-attention.md at a7e572fb; its rows of earlier builds are NVIDIA's blogs at batch 32-1024,
#: where batch x heads fill the GPU either way). A fitted KV share is for kernels that give one thread block per
#: (sequence, head) — transformers' (module docstring) — where the calibration rows at long contexts measure it.
#: SGLang had a fitted one (0.0191: one sequence's cache read at 2 % of the bandwidth) from rows of at most 2,049
#: tokens, where a low share and a low weights' share fitted the same rows; at 8,192 tokens it put SGLang at a third of
#: vLLM's speed. TensorRT-LLM's fitted one (0.0582, tenth session, on one campaign of Qwen2.5 0.5B rows whose
#: per-request rate holds prompts of up to 9,192 tokens) put Llama 3.1 8B on an H100 at 35 tokens/s at a 32K context,
#: against vLLM's 121.
SPLIT_KV_ENGINES = frozenset({Engine.VLLM, Engine.SGLANG, Engine.TENSORRT_LLM})

#: The engines that replay CUDA graphs, so that a decode step's GPU time, not its host's, bounds it: the
#: serving engines with a pre-allocated KV pool (``Engine.pooled``: vLLM, SGLang, TensorRT-LLM,
#: DeepSpeed-FastGen; ``SIBLING`` above), derived from that one list.
CUDA_GRAPH_ENGINES = frozenset(e for e in Engine if e.pooled)

#: Seconds a decode step adds per layer, on the GPU, when the weights are integer-quantized and the engine
#: multiplies them with a dequantizing kernel (vLLM's and SGLang's Marlin / GPTQ / AWQ kernels), in the
#: ``CUDA_GRAPH_ENGINES``, by kernel family (``QUANT_FAMILY``): a fixed cost per layer (per quantized GEMM launched,
#: whatever its size) rather than a slower stream. Fitted by ``benchmarks/speed_calibration.py`` (``fit_quant``) on the
#: CUDA-graph engines' calibration rows with GPTQ, AWQ and 8-bit weights. From the seventh to the twenty-third session
#: 0.02-0.07 ms, set mostly by vLLM 0.6.3's rows (Qwen2.5 on an A100 at batch 1: the 4-bit rate's gain over 16 bits
#: grew with the model, 7B 1.8x, 14B 2.0x, 32B 2.4x, where the bytes fall 3.5x), while newer releases' rows decoded
#: faster than it allowed; 0.00 and 0.01 ms since the twenty-fourth, with vLLM's releases before its V1 engine a known
#: gap (``build_eras.pre_v1_vllm``): its 28 calibration rows with integer weights show no fixed cost beyond the 16-bit
#: rows' own small kernels. The 8-bit figure comes from GPTQ-Int8 rows (``gptq-int8``): applied to bitsandbytes'
#: 8-bit weights in these engines it is a lower bound.
QUANT_KERNEL_S_PER_LAYER: dict[str, float] = {"int4": 0.00e-3, "int8": 0.01e-3}
#: Which weight formats (``advisor.core.memory.formats``) those kernels read, by family.
QUANT_FAMILY = {"gptq": "int4", "awq": "int4", "gptq-int8": "int8", "int8": "int8"}


#: Seconds each bitsandbytes LLM.int8() Linear (``--weights int8`` in transformers) adds to a decode step. With
#: its outlier threshold (6.0, transformers' ``llm_int8_threshold`` default) every call of ``MatMul8bitLt`` quantizes
#: its input with ``int8_vectorwise_quant``, which asks ``if outliers.any():`` and then ``torch.argwhere`` of the
#: outlier columns (bitsandbytes/functional.py at 81e6345d, v0.45.0) — two waits of the host for the GPU per Linear,
#: so the host's Python and launches for each Linear run in series with its kernels (the quantize, the int8 GEMM, the
#: dequantize, the outliers' 16-bit matmul) instead of ahead of them. A fixed time per Linear, not a slower stream:
#: in bitsandbytes' own benchmarking README at 81e6345d (transformers 4.46.3, batch 1) LLM.int8 decodes Llama 3.1 8B
#: at 12.2 tokens/s on an H100 and 70B at 5.0 — 0.36 ms per Linear call in both — where BF16 8B runs at 61.
#: Fitted by ``benchmarks/speed_calibration.py`` (``fit_bnb_int8``) on the calibration rows with LLM.int8 weights in
#: transformers (that README's T4, RTX 4090 and H100 rows).
BNB_INT8_S_PER_LINEAR = 0.31e-3


#: Host seconds each quantized Linear a token passes adds to transformers' per-token overhead, over a 16-bit Linear's,
#: by weight format: the Python of the quantized module's forward (its reshapes, checks and kernel selection) runs
#: on the host with each call, as the layer's own launches do (``FITTED[Engine.TRANSFORMERS].floor_s_per_layer``). Not
#: GPU time: in the calibration rows (QwenLM/Qwen2.5 docs/source/benchmark/speed_benchmark.rst at a912d239, one A100,
#: batch 1, transformers 4.46 with AutoGPTQ / AutoAWQ) Qwen2.5 0.5B to 32B decode at about 1.1 ms a layer in GPTQ-Int8
#: and AWQ, whatever the model's size, where BF16 and 4-bit GPTQ (one ExLlama kernel a Linear) take 0.8-0.9 ms — a
#: longer host step, not a slower stream of bytes. Added to the engine's floor, so it binds only where the host does.
#: Fitted by ``benchmarks/speed_calibration.py`` (``fit_linear_host``) on transformers' calibration rows of each
#: format (sixth session, 2026-11-28; 0 before): GPTQ-Int8 0.035 ms and AWQ 0.030 ms a Linear (Qwen2.5 0.5B: 168 Linears
#: a token, +5-6 ms on a 21 ms step), 4-bit GPTQ none. LLM.int8 has its own, larger cost (``BNB_INT8_S_PER_LINEAR``).
#: bitsandbytes' 4-bit Linear (NF4; FP4 runs the same module, ``Linear4bit``, and the same ``matmul_4bit`` path, its
#: quant_type only picking the code table: bitsandbytes/nn/modules.py and autograd/_functions.py at 0.45.0) since the
#: fourteenth session: 0.030 ms, fitted on the calibration rows of both formats (bitsandbytes' own benchmarking README at
#: 81e6345d, one T4, one RTX 4090 and one H100; a Colab T4; optimum-benchmark's running-vicunas A100): the H100 rows now
#: within 3 %, where the four rows on a desktop or a Colab VM stay 57-97 % off either way — the host CPU, not modelled then.
#: Fifteenth session, with the host CPU modelled (``host_cpu.host_time_factor``): GPTQ-Int8 0.040 ms and AWQ 0.035 ms a Linear.
LINEAR_HOST_S: dict[str, float] = {"gptq": 0.0, "gptq-int8": 0.04e-3, "awq": 0.035e-3, "nf4": 0.03e-3}
#: Formats whose Linear is another's module: they take its host time.
LINEAR_HOST_ALIAS: dict[str, str] = {"fp4": "nf4"}


def linear_host_key(weights: str) -> str:
    """The ``LINEAR_HOST_S`` key these weights take (``LINEAR_HOST_ALIAS``, else their own name)."""
    key = weights.strip().lower()
    return LINEAR_HOST_ALIAS.get(key, key)


def linear_host_s(engine: Engine, weights: str) -> float:
    """``LINEAR_HOST_S`` for these weights in transformers; 0 for any other format or engine."""
    return LINEAR_HOST_S.get(linear_host_key(weights), 0.0) if engine is Engine.TRANSFORMERS else 0.0


def bnb_int8_s_per_linear(engine: Engine, weights: str) -> float:
    """``BNB_INT8_S_PER_LINEAR`` for LLM.int8 weights in transformers; 0 for any other format or engine."""
    return BNB_INT8_S_PER_LINEAR if engine is Engine.TRANSFORMERS and weights.strip().lower() == "int8" else 0.0


def quant_kernel_s_per_layer(engine: Engine, weights: str) -> float:
    """``QUANT_KERNEL_S_PER_LAYER`` for these weights in this engine (0: 16-bit or FP8 weights, GGUF and
    EXL2 formats, or an engine whose step its host bounds)."""
    family = QUANT_FAMILY.get(weights)
    if family is None or engine not in CUDA_GRAPH_ENGINES:
        return 0.0
    return QUANT_KERNEL_S_PER_LAYER[family]


#: llama.cpp's (and Ollama's) share of the peak of each kernel path a prompt's matmuls take
#: (``advisor.core.speed.gguf_paths``), which replaces the engine's single compute share for GGUF jobs. The
#: cuBLAS path keeps the engine's (``PRIOR_COMPUTE``: an RTX 3090's F16 pp512 in PR #4766, 59.4 of 142
#: TFLOP/s); the others are fitted by ``benchmarks/speed_calibration.py`` (``fit_gguf_paths``: the geometric
#: mean over the calibration prefill rows of each path of the share that reproduces the row) on rows of
#: builds that run these kernels (MMQ on the int8 tensor cores since PRs #7676 and #7860, June 2024: the CUDA
#: rows from July 2024 on). Paths without such rows keep the prior as a share of their own peak.
#: Fitted 2026-11-27: Metal on PR #3648's M2 Ultra Q4_0 pp512 and geerlingguy/ai-benchmarks issue #48's M1 Ultra
#: 3B pp512 (0.631 of the FP32 peak; 0.605 on 2026-11-28 with the same issue's TinyLlama pp512, which scores once
#: the catalog has TinyLlama); MMQ on the int8 tensor cores on PR #24127's RTX 4090 Q4_K_S and RTX 3090
#: IQ3_XXS pp512, PR #8278's RTX 4090 IQ4_XS and PR #7860's RTX 4090 Q4_K_S pp2048 (0.240 of the int8 peak, i.e.
#: 0.48 of the FP16 rate the engine's share was of); ROCm on PR #26284's RX 7900 XTX Q4_K_M and Q2_K pp2048
#: (0.334 of the dense 16-bit matrix rate). Few rows each: the speed basis says where a family was measured.
#: Refitted with each round's calibration prompts (benchmarks/README.md, each session's section, lists the rows): MMQ
#: 0.212-0.229 from an RTX 4090's, 4070 Ti's, 3060's, L4's, L40S's and RTX PRO 6000s' K-quant and Q4/Q5 prompts; ROCm
#: 0.257-0.330 from an MI50's, W7900's, RX 7900 XTX's, R9700's and Strix Halo's. Three facts came out of those refits:
#: RDNA 3's quantized prompts of builds before WMMA-MMQ reached it (llama.cpp PR #17576, late 2025) are a known gap; the
#: MI50 (gfx906: no matrix units) runs MMQ with dp4a (``gguf_paths.AMD_MATRIX_MMQ_TARGETS``; 0.247-0.266 of four times its
#: FP32 rate, with PR #8542's P40 Gemma 2 27B Q4_0 pp4096); only dense models' prompts are fitted (a MoE prompt's
#: experts fill part-empty tiles: ``prefill.MOE_PROMPT_TILE_TOKENS``), each at its row's stated flash-attention setting.
#: The GP100's dequantize-then-GEMM path (``gguf_paths.CUDA_CORE_FP16_PER_FP32``) 0.532, then 0.501 (gavinbrow's
#: p100-llm-benchmarks, one and two P100s). Last fits: MMQ 0.222, ROCm 0.257 (ninth session: pendakwahteknologi's RTX
#: 5090 and R9700 llama-bench logs, ehzawad's RTX A5000); Metal 0.605 -> 0.628 (eleventh: enescingoz/mac-llm-bench's
#: 30-core M2 Max llama-bench files, build 8680, pp512 of eleven Q4_K_M models); the GP100's 0.501 -> 0.499 (twelfth) -> 0.504
#: (twenty-first: six more of gavinbrow's files, their layer-split prompts; tensor splits are not fitted, ``fit_gguf_paths``).
GGUF_PATH_COMPUTE: dict[GgufPath, float] = {GgufPath.METAL: 0.628, GgufPath.MMQ_DP4A: 0.266, GgufPath.MMQ_MMA: 0.222,
                                            GgufPath.ROCM: 0.257, GgufPath.DEQUANT: 0.504}


def gguf_compute_share(path: GgufPath | None) -> float:
    """The share of its path's peak a GGUF prompt matmul reaches (``GGUF_PATH_COMPUTE``, else the prior)."""
    if path is None:
        return PRIOR_COMPUTE
    return GGUF_PATH_COMPUTE.get(path, engine_speed(Engine.LLAMA_CPP).compute if path is GgufPath.CUBLAS
                                 else PRIOR_COMPUTE)


def gguf_path_ratio(gpu: Gpu, workload: Job) -> float:
    """For a GGUF job: its kernel path's compute share over the engine's, so that the engine's share × the path's
    peak × this = the path's share of the path's peak (``gguf_compute_share``); 1 for any other job."""
    if not workload.engine.gguf:
        return 1.0
    return gguf_compute_share(gguf_path(gpu, workload.weights)) / engine_speed(workload.engine).compute


def engine_speed(engine: Engine) -> EngineSpeed:
    """The engine's fitted constants, its sibling's where it has none, else the priors."""
    if engine in FITTED:
        return FITTED[engine]
    sibling = SIBLING.get(engine)
    return FITTED.get(sibling, PRIOR) if sibling is not None else PRIOR
