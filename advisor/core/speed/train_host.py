"""The host's part of a training step: PCIe traffic of offloading, NVMe, and an optimizer step on the CPU."""

from __future__ import annotations

from advisor.core.hardware.interconnect import PCIE_GB_PER_S_PER_LANE, PCIE_HOST_EFFICIENCY
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.hardware.tiers import host_memory_gb_per_s
from advisor.core.job.choices import Offload, Parallel
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.inference import weights_bytes
from advisor.core.memory.states import param_bytes
from advisor.core.model.arch import ModelArch
from advisor.core.speed.flops import trainable_params
from advisor.core.speed.layout import DATA_PARALLEL, Split


def host_link_bytes_per_s(build: ResolvedBuild) -> float:
    """One GPU's PCIe link to host RAM, as a staged copy achieves it (interconnect constants)."""
    g = build.gpus[0]
    gen = min(build.topology.pcie_gen, g.pcie_gen or build.topology.pcie_gen)
    lanes = (build.topology.pcie_lanes_per_gpu or (g.pcie_lanes or 16,))[0]
    return PCIE_GB_PER_S_PER_LANE[gen] * lanes * PCIE_HOST_EFFICIENCY * 1e9


#: Host RAM bandwidth the CPU reaches when it streams over large arrays (offloaded MoE experts, a CPU
#: optimizer step): dual-channel DDR5-5600 peaks at 89.6 GB/s (5,600 MT/s × 8 B × 2 channels, JEDEC
#: JESD79-5); streaming reaches about two thirds of that on desktop platforms. A default: the catalog does not
#: hold host bandwidth (a server's 8-12 channels reach several times more).
HOST_MEMORY_GB_PER_S = 60.0


def host_gb_per_s(build: ResolvedBuild) -> tuple[float, str]:
    """(GB/s, where it comes from) the build's CPU streams from host RAM: its platform tier's memory
    (``hardware.tiers.host_memory_gb_per_s``), else ``HOST_MEMORY_GB_PER_S``."""
    tier = build.tier
    rate = host_memory_gb_per_s(tier)
    if rate is None or tier is None:  # (a rate comes only from a tier that states its channels and their rate)
        return HOST_MEMORY_GB_PER_S, "assumed: dual-channel DDR5"
    return rate, f"two thirds of {tier.ram_channels} channels at {tier.ram_mt_per_s:,} MT/s: {tier.name}"


#: Bytes DeepSpeed's CPU-Adam moves in host RAM per trained parameter and step: ``Step_AVX`` loads the
#: gradient, both moments and the fp32 weight and stores the weight and both moments (csrc/includes/cpu_adam.h
#: at 14e1981a): 4 × 4 + 3 × 4 = 28 B, a memory-bound pass (a few vector FMAs, a sqrt and a divide per element).
#: The 16-bit copy ZeRO sends back to the GPU is counted in the PCIe traffic, not here.
CPU_ADAM_BYTES_PER_PARAM = 28
#: Schemes whose optimizer offload runs DeepSpeed's CPU-Adam (ZeRO-Offload); under FSDP's CPU offload the
#: optimizer built on the host-resident parameters steps there, PyTorch's fused AdamW (a vectorized CPU kernel
#: since PyTorch 2.4; the HF Trainer's default optimizer), taken at the same single pass. PyTorch's foreach
#: AdamW on the CPU, which DeepSpeed's tutorial puts at 5-7x CPU-Adam's time ("DeepSpeedCPUAdam is 5X–7X faster
#: than the standard PyTorch implementation", deepspeed.ai/tutorials/zero-offload), is not modelled.
DEEPSPEED_OFFLOAD = (Parallel.NONE, Parallel.DDP, Parallel.ZERO1, Parallel.ZERO2, Parallel.ZERO3)


def cpu_optimizer_seconds(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild) -> float:
    """One optimizer step on the host CPU when the optimizer states are offloaded to host RAM: the trained
    parameters each machine's GPUs hold (every GPU's shard; the machine's CPU steps them all, over one memory
    system) × ``CPU_ADAM_BYTES_PER_PARAM`` / the host's bandwidth (``host_gb_per_s``) — DeepSpeed's CPU-Adam (ZeRO-Offload; Ren
    et al. 2021, arXiv:2101.06840 §4.1: the update runs on the CPU after the backward) or PyTorch's fused AdamW
    under FSDP (``DEEPSPEED_OFFLOAD``). Zero without optimizer offload; NVMe offload (ZeRO-Infinity) pays the same
    pass once the states are read in."""
    if Offload.OPTIMIZER not in planned.offload and Offload.NVME not in planned.offload:
        return 0.0
    per_machine = min(planned.n_gpus, build.gpus_per_node)
    replicated = planned.parallel in (Parallel.NONE, Parallel.DDP, Parallel.FSDP_NO_SHARD)
    params = trainable_params(arch, planned) * (per_machine if replicated else per_machine / max(1, planned.n_gpus))
    return params * CPU_ADAM_BYTES_PER_PARAM / (host_gb_per_s(build)[0] * 1e9)


#: One PCIe 4.0 x4 NVMe drive's sequential throughput, about 7 GB/s read and 5-6 GB/s write
#: (vendor datasheets, e.g. Samsung 990 PRO: 7,450 / 6,900 MB/s); ZeRO-Infinity reaches tens of
#: GB/s only with several drives per node (arXiv:2104.07857 §6.1). 5 GB/s each way is taken.
NVME_GB_PER_S = 5.0


def offload_seconds(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild, sp: Split, notes: list[str]) -> float:
    """PCIe seconds per step for ZeRO-Offload / FSDP CPU offload (Ren et al. 2021,
    arXiv:2101.06840 §4: fp16 gradients to the host, updated fp16 parameters back; parameter
    offload streams the weights in for forward and backward of every micro-batch). The CPU
    optimizer step is not timed: the catalog has no CPU speeds."""
    if not planned.offload:
        return 0.0
    link = host_link_bytes_per_s(build)
    shard = max(1, planned.n_gpus if planned.parallel in DATA_PARALLEL else 1)
    seconds = 0.0
    if Offload.OPTIMIZER in planned.offload:
        seconds += trainable_params(arch, planned) / shard * 2 * param_bytes(planned.precision) / link
    if Offload.PARAMS in planned.offload:
        seconds += planned.grad_accum_steps * 2 * weights_bytes(arch, planned) / shard / link
    if Offload.NVME in planned.offload:
        # ZeRO-Infinity (Rajbhandari et al. 2021, arXiv:2104.07857 §5): optimizer states (and
        # parameters) are read from and written back to NVMe every step. States of AdamW with an
        # fp32 master: 12 bytes per trainable parameter, each way.
        states = trainable_params(arch, planned) / shard * 12
        if Offload.PARAMS in planned.offload:
            states += planned.grad_accum_steps * 2 * weights_bytes(arch, planned) / shard
        seconds += 2 * states / (NVME_GB_PER_S * 1e9)
        notes.append(f"NVMe offload: {NVME_GB_PER_S:g} GB/s per GPU assumed (a PCIe 4.0 x4 NVMe drive's "
                     "sequential read/write), states read and written every step")
    return seconds
