"""Which kernels llama.cpp multiplies a prompt's matrices with, by backend, compute capability and weight type.

A prompt (a batch of more than a few tokens) goes through matrix-matrix kernels whose speed depends on
what the GPU can do with the weights' format, not on the format's size. The kernel paths, read in
ggml/src/ggml-cuda/common.cuh at 00108827 (``ggml_cuda_dp4a``, the CC constants) and mmq.cu at 027ef876
(``ggml_cuda_should_use_mmq``), and ggml-metal:

* ``CUBLAS``: F16, BF16 and F32 weights on CUDA go to cuBLAS GEMMs on the tensor cores, at the FP16
  tensor rate (FP16 accumulate on GeForce cards, their 2x rate: ``fp16_acc16_tflops_dense``; BF16/FP16
  with FP32 accumulate elsewhere);
* ``MMQ_MMA``: quantized weights (Q4_0 … Q8_0, K-quants, IQ types) on compute capability 7.5 and later
  go to llama.cpp's own MMQ kernels, which multiply int8 tiles on the int8 tensor cores
  (``turing_mma_available``: CC >= GGML_CUDA_CC_TURING; since PRs #7676 and #7860, June 2024), at the
  int8 tensor rate — twice the FP16 dense rate on every NVIDIA tensor-core generation since Turing
  (``int8_tops_dense``, else 2x the FP16 rate);
* ``MMQ_DP4A``: quantized weights on CC 6.1 and 6.2 (Pascal GP102/GP104: no FP16 tensor cores) run MMQ on
  the CUDA cores with ``__dp4a`` (four int8 products summed in one instruction, ``GGML_CUDA_CC_DP4A`` = 610):
  four multiply-adds per lane and clock where an FMA does one, as many integer lanes per SM as FP32 lanes
  (CUDA C++ Programming Guide, arithmetic instruction throughput: 128 on 6.1): 4x the FP32 rate in int8
  operations. On Volta (CC 7.0) MMQ runs only below ``MMQ_DP4A_MAX_BATCH_SIZE`` tokens
  (``!fp16_mma_hardware_available(cc) || ne11 < MMQ_DP4A_MAX_BATCH_SIZE``): a prompt's weights are
  dequantized to FP16 and go to cuBLAS on the tensor cores, the ``CUBLAS`` path; the dequantizing pass
  (``ggml_cuda_op_mul_mat_cublas`` converts a non-F16 ``src0`` with ``ggml_get_to_fp16_cuda`` before the
  GEMM) reads the quantized weights and writes them as FP16 once per micro-batch of the prompt
  (``dequant_bytes_per_weight``), a memory-bound pass;
* ``DEQUANT``: quantized weights below CC 6.1 (the Tesla P100, GP100: no ``__dp4a``) are dequantized to
  FP16 and multiplied by cuBLAS on the CUDA cores (``ggml_cuda_should_use_mmq`` returns false below
  GGML_CUDA_CC_DP4A), after the same dequantizing pass as Volta's; the CUDA cores' FP16 rate is a multiple of
  the FP32 one where the chip runs FP16 fast (``CUDA_CORE_FP16_PER_FP32``: twice on GP100), else unknown;
* ``ROCM``: AMD cards through HIP run MMQ on MFMA (CDNA: ``amd_mfma_available``, PR #14624) or WMMA (RDNA 3 / 3.5
  and 4: ``amd_wmma_available``, PRs #17576 and #17156, late 2025) units, or dequantize to 16 bits for hipBLAS
  (RDNA3's Q2_K and Q6_K above 128 tokens, CDNA's K-quants above 256), and rocBLAS for 16-bit weights, all at the
  card's dense 16-bit matrix rate (``bf16_tflops_dense``); an AMD GPU with neither unit (GCN's gfx906 — MI50, MI60,
  Radeon VII —, RDNA 1 / 2) runs a quantized prompt's MMQ with dp4a (``ggml_cuda_dp4a``: the ``sdot4`` dot product
  of four int8 pairs), the ``MMQ_DP4A`` path, at four times its FP32 rate;
* ``METAL``: Apple GPUs multiply 8x8 ``simdgroup_matrix`` tiles on their FP32 pipelines, which run FP16 at
  the same rate (philipturner/metal-benchmarks README at 936d911e: F16 and F32 OPs/clock equal on M1 and
  later), every weight type dequantized into threadgroup memory first: the FP32 peak (``fp32_tflops``).

Each path reaches its own share of its own peak (``engine_speed.GGUF_PATH_COMPUTE``, fitted on calibration
rows by ``benchmarks/speed_calibration.py``), where the engine's single compute share used to stand for all.
"""

from __future__ import annotations

from enum import StrEnum

from advisor.core.hardware.backend import Backend
from advisor.core.hardware.records import Gpu
from advisor.core.units import TERA

#: Weight formats llama.cpp multiplies as floating point (cuBLAS / rocBLAS / Metal's F16 kernels).
FLOAT_FORMATS = ("f16", "bf16", "f32", "fp16", "fp32")
#: The first compute capability with ``__dp4a`` (ggml-cuda common.cuh GGML_CUDA_CC_DP4A = 610) and the first
#: with int8 tensor-core MMA instructions (GGML_CUDA_CC_TURING = 750).
CC_DP4A = (6, 1)
CC_VOLTA = (7, 0)  # FP16 tensor cores: a prompt's quantized weights go to cuBLAS (fp16_mma_hardware_available)
CC_TURING = (7, 5)
#: AMD gfx targets whose MMQ kernels run on matrix units: CDNA 1-4's MFMA (gfx908, gfx90a, gfx94x, gfx95x) and RDNA 3,
#: 3.5 and 4's WMMA (gfx11xx, gfx12xx); any other AMD target runs MMQ with dp4a.
AMD_MATRIX_MMQ_TARGETS = ("gfx908", "gfx90a", "gfx94", "gfx95", "gfx11", "gfx12")
#: int8 operations per FP32 FMA slot: one ``__dp4a`` (4 multiply-adds = 8 operations) where an FMA does 2.
DP4A_OPS_PER_FMA_OPS = 4
#: The CUDA cores' FP16 throughput over their FP32 throughput, by compute capability, where FP16 runs fast without tensor
#: cores: CC 6.0 (GP100, the Tesla P100) completes 128 16-bit FMA results per SM and clock against 64 32-bit ones (CUDA
#: C++ Programming Guide, "Arithmetic Instructions", throughput table; GP102/GP104's 6.1 runs FP16 at 1/64).
CUDA_CORE_FP16_PER_FP32 = {(6, 0): 2}


class GgufPath(StrEnum):
    CUBLAS = "cuBLAS FP16 tensor-core GEMM"  # also Volta's dequantized weights
    MMQ_MMA = "MMQ on the int8 tensor cores"
    MMQ_DP4A = "MMQ with dp4a on the shader cores (CUDA cores, AMD vector units)"
    DEQUANT = "dequantized to FP16, GEMM on the CUDA cores"
    ROCM = "MMQ / rocBLAS on the matrix units"
    METAL = "Metal simdgroup matrix kernels"


def gguf_path(gpu: Gpu, weights: str) -> GgufPath | None:
    """The kernel path llama.cpp takes for a prompt's matmuls with ``weights`` on ``gpu``; None for a backend
    llama.cpp's GGUF kernels are not modelled on (Intel)."""
    backend = gpu.backend
    if backend is Backend.METAL:
        return GgufPath.METAL
    if backend is Backend.ROCM:
        if weights.lower() in FLOAT_FORMATS or gpu.gfx_target.startswith(AMD_MATRIX_MMQ_TARGETS):
            return GgufPath.ROCM
        return GgufPath.MMQ_DP4A
    if backend is not Backend.CUDA:
        return None
    if weights.lower() in FLOAT_FORMATS:
        return GgufPath.CUBLAS
    cc = gpu.cc
    if cc is None or cc >= CC_TURING:
        return GgufPath.MMQ_MMA
    if cc >= CC_VOLTA:
        return GgufPath.CUBLAS
    return GgufPath.MMQ_DP4A if cc >= CC_DP4A else GgufPath.DEQUANT


def dequant_bytes_per_weight(gpu: Gpu, weights: str) -> float:
    """Bytes a prompt's micro-batch moves per weight to dequantize quantized GGUF weights to FP16 for cuBLAS (the
    ``CUBLAS`` path of a quantized type, Volta, and ``DEQUANT``, GP100): the stored bits read and two bytes written; 0
    on every other path
    (MMQ reads the quantized weights in its own GEMM)."""
    if weights.lower() in FLOAT_FORMATS or gguf_path(gpu, weights) not in (GgufPath.CUBLAS, GgufPath.DEQUANT):
        return 0.0
    from advisor.core.memory.formats import weight_format

    return weight_format(weights).bits_per_weight / 8 + 2


def gguf_peak_flops(gpu: Gpu, weights: str) -> float | None:
    """The peak (FLOP/s, or int8 operations per second) of the path ``gguf_path`` names; None where the
    catalog lacks the rate."""
    path = gguf_path(gpu, weights)
    fp16 = gpu.fp16_acc16_tflops_dense or gpu.bf16_tflops_dense or cuda_core_fp16_tflops(gpu)
    if path in (GgufPath.CUBLAS, GgufPath.DEQUANT):
        tflops = fp16
    elif path is GgufPath.MMQ_MMA:
        tflops = gpu.int8_tops_dense or (2 * fp16 if fp16 else None)
    elif path is GgufPath.MMQ_DP4A:
        tflops = gpu.fp32_tflops * DP4A_OPS_PER_FMA_OPS if gpu.fp32_tflops else None
    elif path is GgufPath.ROCM:
        tflops = gpu.bf16_tflops_dense or gpu.fp16_acc16_tflops_dense
    elif path is GgufPath.METAL:
        tflops = gpu.fp32_tflops
    else:  # an unknown backend
        tflops = None
    return None if tflops is None else tflops * TERA


def cuda_core_fp16_tflops(gpu: Gpu) -> float | None:
    """FP16 TFLOP/s of a CUDA GPU without FP16 tensor cores whose CUDA cores run FP16 fast (``CUDA_CORE_FP16_PER_FP32``);
    None elsewhere."""
    ratio = CUDA_CORE_FP16_PER_FP32.get(gpu.cc) if gpu.cc is not None else None
    return gpu.fp32_tflops * ratio if ratio and gpu.fp32_tflops else None
