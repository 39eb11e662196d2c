"""Inline hardware and models for the speed / interconnect / estimate / compare tests, and the speed of a job.

GPU figures are copied from /work/shared/reference/gpus.csv (vendor datasheets and
whitepapers cited there); the models are the published Llama-2 configs (config.json).
"""

from __future__ import annotations

from advisor.core.hardware.records import Gpu, NvLink, ResolvedBuild, Topology
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.arch import ModelArch
from advisor.core.speed.inference import estimate_speed
from advisor.core.speed.results import SpeedEstimate

SRC = ["https://www.techpowerup.com/gpu-specs/"]


def rtx3090() -> Gpu:
    return Gpu(id="rtx-3090", sources=SRC, vendor="NVIDIA", name="GeForce RTX 3090", segment="consumer",
               memory_gib=24, memory_gb_marketing=24, mem_bandwidth_gb_per_s=936, fp32_tflops=35.6,
               bf16_tflops_dense=71.2, fp16_acc16_tflops_dense=142, pcie_gen=4, pcie_lanes=16,
               p2p_supported=False, nvlink=NvLink(version="NVLink 3", total_gb_per_s_per_gpu=112.5, max_gpus=2))


def rtx4090() -> Gpu:
    return Gpu(id="rtx-4090", sources=SRC, vendor="NVIDIA", name="GeForce RTX 4090", segment="consumer",
               memory_gib=24, memory_gb_marketing=24, mem_bandwidth_gb_per_s=1008, fp32_tflops=82.58,
               bf16_tflops_dense=165.2, fp16_acc16_tflops_dense=330.3, pcie_gen=4, pcie_lanes=16,
               p2p_supported=False)


def h100() -> Gpu:
    return Gpu(id="h100-sxm", sources=SRC, vendor="NVIDIA", name="H100 SXM 80GB", segment="datacenter",
               memory_gib=80, memory_gb_marketing=80, mem_bandwidth_gb_per_s=3350, fp32_tflops=67,
               bf16_tflops_dense=989, pcie_gen=5, pcie_lanes=16, p2p_supported=True,
               nvlink=NvLink(version="NVLink 4", total_gb_per_s_per_gpu=900, max_gpus=8))


def pair_3090_nvlink() -> ResolvedBuild:
    return ResolvedBuild(name="2x RTX 3090 NVLink", gpus=(rtx3090(), rtx3090()),
                         topology=Topology(nvlink_pairs=((0, 1),), pcie_gen=4, p2p=False), host_ram_gib=128)


def pair_4090_pcie() -> ResolvedBuild:
    return ResolvedBuild(name="2x RTX 4090 PCIe", gpus=(rtx4090(), rtx4090()),
                         topology=Topology(pcie_gen=4, p2p=False), host_ram_gib=128)


def one_4090() -> ResolvedBuild:
    return ResolvedBuild(name="1x RTX 4090", gpus=(rtx4090(),), host_ram_gib=64)


def one_3090() -> ResolvedBuild:
    return ResolvedBuild(name="1x RTX 3090", gpus=(rtx3090(),), host_ram_gib=64)


def hgx_h100(n: int = 8) -> ResolvedBuild:
    return ResolvedBuild(name=f"{n}x H100 SXM", gpus=tuple(h100() for _ in range(n)),
                         topology=Topology(nvswitch=True, pcie_gen=5), host_ram_gib=2048)


def llama2_7b() -> ModelArch:
    return ModelArch(id="llama-2-7b", name="Llama-2-7B", n_layers=32, hidden_size=4096, n_heads=32,
                     n_kv_heads=32, head_dim=128, ffn_size=11008, vocab_size=32000, max_context=4096)


def llama2_70b() -> ModelArch:
    return ModelArch(id="llama-2-70b", name="Llama-2-70B", n_layers=80, hidden_size=8192, n_heads=64,
                     n_kv_heads=8, head_dim=128, ffn_size=28672, vocab_size=32000, max_context=4096)


def falcon_40b() -> ModelArch:
    """Falcon-40B's config.json (new_decoder_architecture: ln_attn and ln_mlp side by side)."""
    return ModelArch(id="falcon-40b", name="Falcon-40B", family="falcon", n_layers=60, hidden_size=8192, n_heads=128,
                     n_kv_heads=8, head_dim=64, ffn_size=32768, vocab_size=65024, gated_mlp=False, layer_norm=True,
                     parallel_residual=True, max_context=2048)


def speed(arch: ModelArch, w: PlannedJob, build: ResolvedBuild) -> SpeedEstimate:
    """The speed estimate of job ``w`` of ``arch`` on ``build``, given the job's own memory breakdown."""
    return estimate_speed(arch, w, build, estimate_memory(arch, w).breakdown)
