"""How fast llama.cpp's decode kernels multiply a step's weights, by backend and GPU.

A decode step multiplies every weight matrix by one vector. On CUDA and HIP, quantized weights go to the
MMVQ kernel whatever the compute capability (``ggml_cuda_mul_mat``: ``use_mul_mat_vec_q`` for quantized
weights up to ``MMVQ_MAX_BATCH_SIZE`` columns, ggml/src/ggml-cuda/ggml-cuda.cu at f6d77a1b): one output row
per thread block of four warps (``calc_nwarps`` and ``calc_rows_per_block`` for one column,
ggml/src/ggml-cuda/mmvq.cu at 000f4625), each thread unpacking a few 32-bit words of quants and summing
them against the int8 activations with ``__dp4a`` (vecdotq.cuh), then a reduction across the block. Apple
GPUs run Metal's ``kernel_mul_mv_*`` kernels, which dequantize each block to floats first. Per weight these
kernels issue several instructions (unpack, dot product, scales, loads, the row's reduction): on a GPU whose
instruction issue is slow against its memory bandwidth the step is bound by issue, not by bytes. That is what
puts an A100 (108 SMs at 1.41 GHz against 2 TB/s) near an RTX 4090 (128 SMs at 2.52 GHz against 1 TB/s) in
llama.cpp's decode, and why 2- and 3-bit weights, which take more instructions to unpack than they save in
bytes, decode slower than 4-bit ones on every card of the calibration rows.

The issue rate is the GPU's: per SM (NVIDIA), compute unit (AMD) or GPU core (Apple) and clock, the threads
its schedulers issue an instruction to — four warp schedulers of 32 threads per NVIDIA SM since Maxwell
(CUDA C++ Programming Guide, "Hardware Multithreading" / the SM descriptions of each generation's
whitepaper), four SIMD groups of 32 per Apple GPU core (philipturner/metal-benchmarks README at 936d911e:
128 ALUs per core), two SIMD32 units per RDNA compute unit and four SIMD16 units per GCN / CDNA compute
unit, each issuing one wave instruction per cycle (AMD RDNA 3 and CDNA 3 instruction-set guides): 64 threads
per AMD compute unit and cycle. The catalog has no SM count or clock, but its FP32 peak is units × clock ×
FP32 lanes × 2, so units × clock comes back from the FP32 peak and the lanes per unit
(``flops.fp32_lanes_per_sm``; 128 on RDNA 3 / 4 and CDNA 3, whose peak counts dual-issued or packed FP32, 64
on GCN and CDNA 1-2; 128 per Apple core).

How many issue slots a weight takes is fitted, one figure per weight class (``ISSUE_PER_WEIGHT``), on the
calibration rows (``benchmarks/speed_calibration.fit_gguf_decode``): the count of instructions times the
stalls the kernel cannot hide. On compute capability 6.0 (the Tesla P100, GP100) there is no ``__dp4a``:
ggml's ``ggml_cuda_dp4a`` sums four byte products in C instead (ggml-cuda/common.cuh at 00108827), about
twelve instructions where the native one takes one; counted over ``vec_dot_q4_0_q8_1``'s loop (two shifts
and masks, two ``__dp4a``, and the loads, scales and loop of 16 weights: 32 instructions natively, 76
emulated), the kernel issues ``DP4A_EMULATED_RATIO`` times as many.

Metal encodes each step's kernels from the host, and CUDA before compute capability 7.0 launches them
one at a time: there llama.cpp replays no CUDA graph (``ggml_cuda_graph_set_enabled`` disables graphs below
a compute capability — Ampere until PR #25749 brought them to Volta and Turing), so a small model's step
cannot be shorter than the host's time per layer (``HOST_LAUNCHED_S_PER_LAYER``, fitted).
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.core.hardware.backend import Backend
from advisor.core.hardware.records import Gpu
from advisor.core.job.job import Job
from advisor.core.memory.formats import LLAMA_CPP_KV
from advisor.core.model.arch import AttentionKind, ModelArch
from advisor.core.speed.flops import fp32_lanes_per_sm

#: Threads one unit issues an instruction to per clock: NVIDIA SM (4 schedulers x 32), Apple GPU core
#: (4 SIMD groups x 32), AMD compute unit (2 SIMD32 on RDNA, 4 SIMD16 on GCN / CDNA: 64).
ISSUE_PER_UNIT = {Backend.CUDA: 128, Backend.METAL: 128, Backend.ROCM: 64}
#: FP32 lanes per AMD compute unit as the FP32 peak counts them: dual-issued (RDNA 3, RDNA 4) or packed
#: (CDNA 3, 4) FP32 count twice the 64 lanes.
AMD_DOUBLE_FP32 = ("RDNA 3", "RDNA 4", "CDNA 3", "CDNA 4", "Zen 5 + RDNA 3.5")
APPLE_FP32_LANES_PER_CORE = 128
#: Compute capability with ``__dp4a`` (ggml-cuda common.cuh GGML_CUDA_CC_DP4A = 610) and the first whose
#: decode replays a CUDA graph (PR #25749: Volta and Turing; Ampere before it).
CC_DP4A = (6, 1)
CC_CUDA_GRAPHS = (7, 0)
#: The most columns (tokens) a matrix multiplication sends to llama.cpp's matrix-vector kernels, which read every
#: weight once per call: MMVQ for quantized weights (``MMVQ_MAX_BATCH_SIZE`` 8, ggml/src/ggml-cuda/mmvq.cuh at
#: 1d67db96) and MMVF for float ones (``mul_mat_vec_f_cuda_switch_ncols_dst``: 1 to 8 columns, mmvf.cuh at 26fa8d07).
#: A prompt computed in micro-batches this small (``--ubatch-size``) is one decode-like step per micro-batch
#: (``prefill.prefill_seconds``).
MATVEC_MAX_TOKENS = 8


def prompt_as_decode_steps(job: Job) -> bool:
    """Whether a GGUF engine computes ``job``'s prompt in micro-batches small enough for the matrix-vector kernels
    (``MATVEC_MAX_TOKENS``): then each micro-batch is a decode step (``prefill.prefill_seconds``)."""
    return job.engine.gguf and job.gguf_ubatch_tokens <= MATVEC_MAX_TOKENS


#: Issue slots of MMVQ with ``__dp4a`` emulated over with it: ``vec_dot_q4_0_q8_1``'s loop of 16 weights, 32
#: instructions natively (6 shifts and masks, 4 ``__dp4a``, 22 loads, scale and loop instructions), 76 with
#: each ``__dp4a`` as four signed byte extractions of each operand and four multiply-adds (12 each).
DP4A_EMULATED_RATIO = 76 / 32

#: Weight classes: fewer than four bits take more unpacking per weight (2- and 3-bit fields across words,
#: the IQ types' codebook lookups) than the 4- to 8-bit formats.
LOW_BIT = "under 4 bits"
FOUR_BIT_UP = "4 to 8 bits"
LOW_BIT_PREFIXES = ("q2_", "q3_", "iq1", "iq2", "iq3")

# --- Fitted (benchmarks/speed_calibration.fit_gguf_decode; calibration rows in benchmarks/README.md) ----------
#: Issue slots a weight takes in llama.cpp's decode kernels, by weight class.
#: Fitted 2026-11-28 on llama.cpp's 11 calibration decode rows (the Tesla P40's six of PR #4766, the RTX 3090's and
#: 4090's prompts evaluated one token at a time of PRs #15802 and #8215, the RX 7900 XTX's tg64 of PR #26284, the M1
#: Ultra's TinyLlama tg128 of geerlingguy/ai-benchmarks issue #48), with the engine's bandwidth share (0.67):
#: 16 slots a weight of 4 to 8 bits, 19 under 4 bits. Refitted 2026-11-28 (second round) on 29 calibration decode
#: rows (the day's new calibration sources added the RX 7900 XTX's, R9700's and W7900's rows of PRs #26705, #18816
#: and #17576, three Ryzen AI Max+ 395 tg128, a P40's Q4_0 of PR #15715, RTX 3060, 4070 Ti and 4090 rows and two
#: RTX PRO 6000s' tg128 of issue #13751) with the engine's bandwidth share (0.72): 16 and 16.5; unchanged on 34 rows
#: with the third round's (bandwidth share 0.68); 16.5 and 16.5 on 47 rows with the fourth round's (2026-11-28: llm-tracker's
#: W7900, RX 7900 XTX, RTX 3090 and 4090 rows and DeepSeek-V3 over eight H100s, kyuz0's R9700 logs, lhl's Strix Halo); 17 and 16.5 with
#: the sixth round's (PR #28912's V100, PR #8542's RTX 3090 Gemma 2 9B); 16.5 and 15.5 on 201 rows with every layer's small
#: kernels timed (``engine_speed.EngineSpeed.kernels_s_per_layer``, tenth session); 16.5 and 15 with round 25's (twelfth
#: session: CodeAlign-Runtime's RTX 5070 Ti Qwen2.5 0.5B F16, Q4_0 and Q4_K_M tg128 at depth).
ISSUE_PER_WEIGHT: dict[str, float] = {FOUR_BIT_UP: 16.5, LOW_BIT: 15}
#: Seconds a decode step adds per MoE layer in llama.cpp's graph, on every backend: the layer's routing and
#: expert dispatch run as kernels of their own, each taking its few microseconds whatever it reads — the router's
#: matmul, softmax, top-k (argsort), the picked weights' gather, sum and division, three ``mul_mat_id`` matmuls
#: in place of the dense FFN's three matmuls, the weighting, and one add per picked expert after the first
#: (``build_moe_ffn``, src/llama-graph.cpp at 434f71a5): 11 + (k - 1) nodes where a dense FFN has 4. Reading
#: the active experts' bytes at the engine's share alone put Qwen3-30B-A3B's decode 2.2x too fast on an RTX 4090
#: (PR #16834), while the time left over was about the same on each GPU, fast or slow (48-70 us a layer on an RTX
#: 4090, 5090, PRO 6000, Ryzen AI Max+ 395 and M4 Pro): a fixed time per layer, not a slower stream.
#: Fitted with the decode constants (``benchmarks/speed_calibration.fit_gguf_decode``) on the trusted calibration
#: MoE rows (2026-11-28, fourth session: PR #16834's three RTX 4090 rows, the only ones, 0.070 ms; fifth session,
#: with round 7's calibration MoE rows — PR #16884's RTX 4090 Qwen3-30B-A3B, kyuz0's Strix Halo and R9700 logs — 0.075;
#: tenth session, with every layer's small kernels timed beside it, 0.065).
MOE_DISPATCH_S_PER_LAYER = 0.065e-3
#: Host time per layer of a step whose kernels the host launches one by one (Metal; CUDA without graphs), fitted
#: with them: 0.185 ms (the M1 Ultra's TinyLlama row is the one it binds); 0.170 ms with round 20's calibration rows
#: (gioalvari's llama.cpp Qwen2.5 0.5B decode on an M4 Pro, a model small enough for the host to bind); 0.165 ms with
#: round 22's (enescingoz's 30-core M2 Max tg128 of eleven Q4_K_M models, Qwen3 0.6B to 32B).
HOST_LAUNCHED_S_PER_LAYER = 0.165e-3
#: Host time a MoE layer adds to ``HOST_LAUNCHED_S_PER_LAYER`` where the host launches the kernels one by one (Metal;
#: CUDA below ``CC_CUDA_GRAPHS``): its routing and dispatch nodes (``MOE_DISPATCH_S_PER_LAYER``'s 11 + (k - 1) where a
#: dense FFN has 4), each launched or encoded on its own. Fitted with the decode constants (twenty-fifth session) on
#: the calibration rows, where three sources on two backends asked for about the same: two Tesla P100s' Qwen3-Coder-30B-A3B
#: (h51a, h68c: 86-106 % fast without it), enescingoz's M2 Max Qwen3-30B-A3B (36 %), and, not in the fit (Ollama's rows are
#: its own engine's), famstack's M1 Max Qwen3-30B-A3B under Ollama (24-36 %); each came within ±14 % near 0.2 ms a MoE layer.
#: The llama.cpp rows alone fit 0.135 ms. CUDA-graph GPUs replay the nodes without the host: ``MOE_DISPATCH_S_PER_LAYER``
#: is their GPU time, on every GPU.
HOST_LAUNCHED_S_PER_MOE_LAYER = 0.135e-3


def weight_class(weights: str) -> str | None:
    """The class of a GGUF weight type for ``ISSUE_PER_WEIGHT``; None for floating-point weights (F16, BF16,
    F32: a plain multiply-add per weight, whose bytes, two or more per weight, always take longer)."""
    name = weights.lower()
    if name in ("f16", "bf16", "f32", "fp16", "fp32"):
        return None
    return LOW_BIT if name.startswith(LOW_BIT_PREFIXES) else FOUR_BIT_UP


def fp32_lanes_per_unit(gpu: Gpu) -> int:
    """FP32 lanes per SM, compute unit or Apple GPU core, as the catalog's FP32 peak counts them."""
    if gpu.backend is Backend.METAL:
        return APPLE_FP32_LANES_PER_CORE
    if gpu.backend is Backend.ROCM:
        return 128 if gpu.architecture.startswith(AMD_DOUBLE_FP32) else 64
    return fp32_lanes_per_sm(gpu.architecture)


def issue_rate(gpu: Gpu) -> float | None:
    """Thread-instructions per second the GPU's schedulers issue (units × clock × ``ISSUE_PER_UNIT``), from
    its FP32 peak; None without an FP32 peak or for a backend llama.cpp's kernels are not modelled on."""
    per_unit = ISSUE_PER_UNIT.get(gpu.backend) if gpu.backend is not None else None
    if per_unit is None or not gpu.fp32_tflops:
        return None
    unit_cycles = gpu.fp32_tflops * 1e12 / (2 * fp32_lanes_per_unit(gpu))
    return unit_cycles * per_unit


def issue_seconds(gpu: Gpu, weights: str, n_weights: float) -> float:
    """The time llama.cpp's decode kernels take to issue the instructions of ``n_weights`` weights of this type
    on this GPU (0 for floating-point weights or an unknown rate)."""
    cls, rate = weight_class(weights), issue_rate(gpu)
    if cls is None or not rate:
        return 0.0
    per_weight = ISSUE_PER_WEIGHT[cls]
    cc = gpu.cc
    if gpu.backend is Backend.CUDA and cc is not None and cc < CC_DP4A:
        per_weight *= DP4A_EMULATED_RATIO
    return n_weights * per_weight / rate


def host_launched(gpu: Gpu) -> bool:
    """Whether llama.cpp's host launches this GPU's decode kernels one by one: Metal, and CUDA below
    ``CC_CUDA_GRAPHS``."""
    if gpu.backend is Backend.METAL:
        return True
    cc = gpu.cc
    return gpu.backend is Backend.CUDA and cc is not None and cc < CC_CUDA_GRAPHS


def host_floor_seconds(gpus: Sequence[Gpu], n_layers: int, n_moe_layers: int) -> float:
    """The host's least time for a decode step of ``n_layers`` layers (``n_moe_layers`` of them MoE) where it launches
    the kernels one by one on one of ``gpus`` (``HOST_LAUNCHED_S_PER_LAYER``, ``HOST_LAUNCHED_S_PER_MOE_LAYER``); else 0."""
    if not any(host_launched(g) for g in gpus):
        return 0.0
    return HOST_LAUNCHED_S_PER_LAYER * n_layers + HOST_LAUNCHED_S_PER_MOE_LAYER * n_moe_layers


def _all_metal(gpus: Sequence[Gpu]) -> bool:
    return all(g.backend is Backend.METAL for g in gpus)


def kv_reads_words(engine_label: str, arch: ModelArch, job: Job, gpus: Sequence[Gpu], reads: int) -> str:
    """The speed note for ``kv_reads_per_step``'s ``reads`` > 1."""
    metal = _all_metal(gpus)
    return (f"{engine_label} " + ("on Apple GPUs reads the KV cache" if metal else f"reads a {job.kv_dtype} KV cache")
            + f" once per query head: {reads} times a step for this model's {arch.n_heads} query heads over "
            f"{arch.n_kv_heads} KV heads (long contexts slow more)"
            + ("" if metal else "; a 16-bit cache is read once, faster at long contexts for twice the memory"))


#: Head sizes llama.cpp's CUDA / HIP vector kernel is built for (``can_use_vector_kernel``: ``Q->ne[0] <= 256 &&
#: Q->ne[0] % 64 == 0``, and 192 has no vector instance): other sizes take the MMA or tile kernels.
VEC_KERNEL_HEAD_DIMS = frozenset({64, 128, 256})


def kv_reads_per_step(arch: ModelArch, job: Job, gpus: Sequence[Gpu]) -> int:
    """How many times a GGUF engine's decode step reads the KV cache: once, or once per query head of each KV head's
    group (n_heads / n_kv_heads) where the attention kernel gives every query head a block of its own that loads its
    KV head's cache.

    * Apple GPUs, always. Metal's attention kernels give each query head a threadgroup of its own: with flash
      attention ``kernel_flash_attn_ext_vec`` (grid over query heads ``iq2``, each reading K and V at
      ``ikv2 = iq2/(ne02/ne_12_2)``), without it the K*Q and V*softmax mat-vecs (``kernel_mul_mv_*``: one threadgroup
      per ``src1`` head ``i12``, reading ``src0`` at ``i12/r2``; ggml/src/ggml-metal/ggml-metal.metal at 177ab454).
      Chosen on the one calibration source that times a Mac's decode over a growing context
      (famstack-dev/local-llm-bench, Ollama on an M1 Max: a step grew by 25 ms over 12.4k tokens of Llama 3.1 8B,
      4 query heads a KV head, and by 46 ms over 15.4k of Qwen3-30B-A3B, 8 a KV head, about 1.2 x those re-reads at
      the card's bandwidth, where reading the cache once would add 5 ms to each).
    * NVIDIA GPUs with a quantized KV cache (q8_0, q4_0), one sequence. llama.cpp's flash attention takes its
      vector kernel for a quantized cache at one query column whatever the GPU (``ggml_cuda_get_best_fattn_kernel``,
      ggml/src/ggml-cuda/fattn.cu at 00a2d609: "ggml_is_quantized(K->type)" → ``BEST_FATTN_KERNEL_VEC`` for
      ``Q->ne[1] == 1`` on Turing and Ampere, ``<= 2`` from Ada, and on GPUs without tensor-core kernels), and
      ``flash_attn_ext_vec`` runs one block per query head, reading K and V at ``head / gqa_ratio``
      (fattn-vec.cuh at 026f95b1). A 16-bit cache goes to the MMA kernel, which packs a KV head's query heads into
      one tile and reads it once (``use_gqa_opt``). Checked on the calibration source that sweeps both caches on one
      card (ehzawad/qwen3-lora-gguf-bench, an RTX A5000, Qwen3-4B, 4 query heads a KV head): from 0 to 32,768 tokens
      of context a q8_0 step grew by 14.8 ms, four reads of its 2.6 GB cache at 91 % of the card's bandwidth; an f16
      step by 7.8 ms, one read of 4.8 GB at 81 %. Head sizes the vector kernel is not built for
      (``VEC_KERNEL_HEAD_DIMS``) and several sequences at once (their queries may share one call) keep one read.
      AMD GPUs run the same kernel through HIP but keep one read: the one ROCm sweep with a quantized cache
      (Orion-zhen/llama-bench-dashboard, a Radeon 8060S with 32 MB of Infinity Cache, gpt-oss-20b at 8 query heads
      a KV head, q8_0, 0 to 8,192 tokens) grew by 1.35 ms, a third of eight reads: the re-reads stay in the cache.

    MLA (one latent head for all query heads) is left at one read: no row times it."""
    if not job.engine.gguf or arch.attention.kind is AttentionKind.MLA or not gpus:
        return 1
    group = max(1, arch.n_heads // arch.n_kv_heads)
    if _all_metal(gpus):
        return group
    vec_kernel = (job.kv_dtype.strip().lower() in LLAMA_CPP_KV and job.batch == 1 and arch.head_dim in VEC_KERNEL_HEAD_DIMS
                  and all(g.backend is Backend.CUDA for g in gpus))
    return group if vec_kernel else 1
