"""Time of one ring collective inside a machine: NCCL's own cost model, and the serving engines' one-shot kernels.

NCCL picks, for each call, the protocol its tuning model rates fastest: a protocol's time is its base latency, plus
one hop latency per ring step for the kind of link (NVLink, or PCIe: the path through host memory when peer-to-peer is
off is costed as PCIe too, ``intraHw = typeIntra == LINK_NVL ? NCCL_HW_NVLINK : NCCL_HW_PCI``), plus the bytes over the
protocol's share of the ring's bandwidth (the ring low-latency protocol LL gets half: ``busBw * .5``). All from
``ncclTopoTuneModel``, NVIDIA/nccl src/graph/tuning.cc at 5067397c2676d5aed50042fc39e5c8ee96eb0027 (the same values at
v2.26.5-1): ``baseLatencies`` Ring {LL 6.6, LL128 14.0, Simple 8.4} us, ``hwLatencies`` NVLINK Ring {0.6, 1.9, 3.4},
PCI Ring {1.0, 2.5, 5.7}. LL128 is left out (NCCL enables it on NVLink of some generations only; between LL and
Simple it is never far from the faster of the two).

The model leaves out what it costs to launch the call and start its kernel (``NCCL_LAUNCH_S``): measured
all_reduce_perf times of small messages minus the model's LL time (us; the byte term is under 1 us in each):
* 8x RTX 5090, PCIe 5.0 with P2P, eager, 8-2048 B: 24.5 - (6.6 + 14 x 1.0) = 3.9 (aikitoria/open-gpu-kernel-modules
  README.md, "Sample nccl-tests output");
* 2x RTX 2080 Ti, PCIe 3.0 without P2P (SHM), eager, 8 B: 12.25 - (6.6 + 2 x 1.0) = 3.65
  (Anthony-Hoo/Anthony-Hoo.github.io posts/AutoDL_Multi-GPU_Interconnection_Test.md at 37e805e8);
* 2x A100 SXM4 40GB on NVSwitch, eager, 32 B: 10.14 - (6.6 + 2 x 0.6) = 2.34 (NVIDIA/nccl issue #583);
* 4x V100 SXM2 behind one PCIe switch with P2P, inside a CUDA graph, 4 KiB: 19.4 - (6.6 + 6 x 1.0 + 0.9) = 5.9
  (haohervchb/sglang-V100 PR #2, NCCL timed inside SGLang).
Their median, 3.8 us. So a small all-reduce over two GPUs costs about 12 us whether NVLink or host memory carries it,
and about 25 us over eight PCIe cards; the 2080 Ti table's 16 KiB row (17.1 us) against the model's 16.6 checks the
byte term of the path through host memory.

vLLM, SGLang and TensorRT-LLM reduce small messages with their own one-shot kernel instead of NCCL where every GPU
can read the others' memory (``CustomAllreduce`` in vllm/distributed/device_communicators/custom_all_reduce.py at
00d618aab60448acdf3fac3e9c4e2e22d0c6c753: world sizes 2, 4, 6, 8 in one machine; peer-to-peer access; more than two
GPUs only when NVLink joins every pair; inputs under 8 MiB). Its kernel (``cross_device_reduce_1stage``,
csrc/custom_all_reduce.cuh at 036bb685) has each GPU read every peer's whole buffer and reduce it: one barrier, no ring
steps; with more than two GPUs on NVLink, from 512 KiB (four) or 256 KiB (six or eight) a two-stage kernel reads a
reduce-scatter's and an all-gather's bytes instead. Its fixed cost (``CUSTOM_ALL_REDUCE_S``) is the median of the
measured small-message times less their bytes over the link (us): SGLang's one-shot kernel on the 4x V100 PCIe switch
above, inside a CUDA graph, 4-32 KiB (4.0, 5.0, 7.2, 11.8 less 3 x size / 13.9 GB/s: 3.1, 3.2, 3.7, 4.7), and
sgl_kernel's TensorRT-LLM-derived kernel on H100s over NVSwitch, eager, at 2 and 16 KiB on 2, 4 and 8 GPUs (3.7, 4.8,
5.9, 3.9, 3.7, 5.7; sgl-project/sglang PR #2904). vLLM's own kernel timed eagerly in that PR (8.5-10.1 us) also copies
the input into its registered buffer first, a copy its CUDA-graph path skips; it is not used.
"""

from __future__ import annotations

from statistics import median
from typing import Literal

NcclHardware = Literal["nvlink", "pci"]

#: ``baseLatencies`` of the ring algorithm, seconds, by protocol (tuning.cc at 5067397c).
NCCL_BASE_LATENCY_S = {"LL": 6.6e-6, "Simple": 8.4e-6}
#: ``hwLatencies`` of one ring step, seconds, by link and protocol (tuning.cc at 5067397c).
NCCL_HOP_LATENCY_S: dict[NcclHardware, dict[str, float]] = {
    "nvlink": {"LL": 0.6e-6, "Simple": 3.4e-6},
    "pci": {"LL": 1.0e-6, "Simple": 5.7e-6},
}
#: Share of the ring's bandwidth each protocol moves data at (``busBw * .5`` for ring LL; tuning.cc at 5067397c).
NCCL_PROTOCOL_BANDWIDTH_SHARE = {"LL": 0.5, "Simple": 1.0}


def _ll_model_us(hardware: NcclHardware, steps: int, byte_us: float = 0.0) -> float:
    """The tuning model's time of a ring LL call, us, without the launch: base + steps × hop (+ its byte term)."""
    return (NCCL_BASE_LATENCY_S["LL"] + steps * NCCL_HOP_LATENCY_S[hardware]["LL"]) * 1e6 + byte_us


#: Launch and kernel start of one NCCL call, which the tuning model leaves out (module docstring: measured small
#: all-reduce times less the model's, us; the V100 run's 4 KiB over four GPUs moves 1.5 × 4 KiB at LL's half of
#: 13.9 GB/s).
NCCL_LAUNCH_RESIDUALS_US = (24.5 - _ll_model_us("pci", 14), 12.25 - _ll_model_us("pci", 2),
                            10.14 - _ll_model_us("nvlink", 2), 19.4 - _ll_model_us("pci", 6, 1.5 * 4096 / (0.5 * 13.9e3)))
NCCL_LAUNCH_S = median(NCCL_LAUNCH_RESIDUALS_US) * 1e-6

#: Fixed cost of a serving engine's one-shot all-reduce (module docstring: measured times less the bytes each of the
#: four V100s reads from its three peers at 13.9 GB/s, us; the H100 runs' small messages are taken whole).
CUSTOM_ALL_REDUCE_RESIDUALS_US = tuple(us - 3 * size / 13.9e3 for us, size in
                                       ((4.0, 4096), (5.0, 8192), (7.2, 16384), (11.8, 32768))) + (3.7, 4.8, 5.9, 3.9, 3.7, 5.7)
CUSTOM_ALL_REDUCE_S = median(CUSTOM_ALL_REDUCE_RESIDUALS_US) * 1e-6
#: vLLM's ``CustomAllreduce``: the GPU counts it runs on, and the largest input it takes (``max_size=8192 * 1024``,
#: an input must be smaller).
CUSTOM_ALL_REDUCE_GPUS = frozenset({2, 4, 6, 8})
CUSTOM_ALL_REDUCE_MAX_BYTES = 8192 * 1024


def nccl_ring_seconds(hardware: NcclHardware, steps: int, moved_bytes: float, duplex_gb_per_s: float) -> float:
    """One NCCL ring collective of ``steps`` ring steps in which each GPU sends ``moved_bytes``, over links of
    ``duplex_gb_per_s`` each way with both ways busy: the launch plus the faster protocol's time."""
    per_protocol = (NCCL_BASE_LATENCY_S[p] + steps * NCCL_HOP_LATENCY_S[hardware][p]
                    + moved_bytes / (duplex_gb_per_s * 1e9 * NCCL_PROTOCOL_BANDWIDTH_SHARE[p])
                    for p in NCCL_BASE_LATENCY_S)
    return NCCL_LAUNCH_S + min(per_protocol)


def one_shot_applies(n_gpus: int, n_bytes: float) -> bool:
    """Whether vLLM's kernel reads every peer's whole buffer (one stage) rather than a reduce-scatter's and an
    all-gather's bytes (two): always with two GPUs, else under 512 KiB (four) or 256 KiB (six or eight)."""
    return n_gpus == 2 or n_bytes < (512 if n_gpus <= 4 else 256) * 1024


def custom_all_reduce_seconds(n_gpus: int, n_bytes: float, duplex_gb_per_s: float) -> float:
    """One all-reduce of ``n_bytes`` by a serving engine's own kernel over ``n_gpus`` GPUs that read each other's
    memory over links of ``duplex_gb_per_s`` each way: its fixed cost plus the bytes each GPU reads."""
    if n_gpus < 2 or n_bytes <= 0:
        return 0.0
    read = (n_gpus - 1) * n_bytes if one_shot_applies(n_gpus, n_bytes) else 2 * (n_gpus - 1) / n_gpus * n_bytes
    return CUSTOM_ALL_REDUCE_S + read / (duplex_gb_per_s * 1e9)
