"""A plan in words, for the builds table, the PDF and the CLI: "2 GPUs, tensor parallel over
NVLink, no offload"."""

from __future__ import annotations

from advisor.core.hardware.interconnect import LinkKind, bottleneck_link, node_link
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Checkpointing, Mode, Offload, Parallel
from advisor.core.job.planned import Plan
from advisor.core.job.settings import setting

#: Each scheme in words, as its declaration says it (``core.job.settings``).
SCHEME_WORDS = {Parallel(str(c.value)): c.label for c in setting("parallel").choices}
LINK_WORDS = {
    LinkKind.NVLINK: "NVLink",
    LinkKind.NVSWITCH: "NVSwitch",
    LinkKind.INFINITY_FABRIC: "Infinity Fabric",
    LinkKind.PCIE_P2P: "PCIe (peer-to-peer)",
    LinkKind.PCIE_HOST: "PCIe (through host memory)",
    LinkKind.INFINIBAND: "InfiniBand",
    LinkKind.EFA: "AWS EFA",
    LinkKind.ROCE: "RoCE",
    LinkKind.ETHERNET: "Ethernet",
}
OFFLOAD_WORDS = {(): "no offload", (Offload.OPTIMIZER,): "optimizer in host RAM",
                 (Offload.PARAMS,): "parameters in host RAM",
                 (Offload.OPTIMIZER, Offload.PARAMS): "optimizer and parameters in host RAM",
                 (Offload.OPTIMIZER, Offload.NVME): "optimizer on NVMe",
                 (Offload.OPTIMIZER, Offload.PARAMS, Offload.NVME): "optimizer and parameters on NVMe"}
CHECKPOINT_WORDS = {Checkpointing.NONE: "", Checkpointing.SELECTIVE: "selective activation checkpointing",
                    Checkpointing.OP_SAC: "op-level selective activation checkpointing",
                    Checkpointing.FULL: "full activation checkpointing"}


def _link(build: ResolvedBuild, n: int) -> str:
    g = build.gpus_per_node
    if n > g:  # across machines: the machine's own link, then the network
        across = node_link(build)
        inside = _link(build.node(), g) + " inside each machine" if g > 1 else ""
        between = (f"{LINK_WORDS[across.kind]} between {-(-n // g)} machines" if across
                   else f"no network between {-(-n // g)} machines")
        return f"{inside} and {between}" if inside else between
    try:
        return LINK_WORDS[bottleneck_link(build, n).kind]
    except (ValueError, IndexError):
        return "PCIe"


def plan_words(plan: Plan, build: ResolvedBuild, mode: Mode, pinned: bool = False) -> str:
    """One line: GPUs, scheme over which link, offload, checkpointing; "(pinned)" when the user fixed it."""
    parts = [f"{plan.n_gpus} GPU" + ("s" if plan.n_gpus > 1 else "")]
    if plan.n_gpus > 1:
        scheme = SCHEME_WORDS[plan.parallel]
        parts[0] += f", {scheme}" + ("" if plan.parallel is Parallel.NONE else f" over {_link(build, plan.n_gpus)}")
    if plan.n_gpus < build.gpu_count:
        parts.append(f"{build.gpu_count - plan.n_gpus} idle")
    nvme = Offload.NVME in plan.offload
    offload = tuple(sorted((o for o in plan.offload if o is not Offload.NVME), key=lambda o: list(Offload).index(o)))
    words = OFFLOAD_WORDS.get(offload, ", ".join(o.value for o in offload) + " in host RAM")
    parts.append(words.replace("in host RAM", "on NVMe") if nvme and offload else words)
    if plan.moe_offload_layers:
        parts.append(f"experts of {plan.moe_offload_layers} layers in host RAM")
    if mode is Mode.TRAIN and CHECKPOINT_WORDS[plan.checkpointing]:
        parts.append(CHECKPOINT_WORDS[plan.checkpointing])
    return ", ".join(parts) + (" (pinned)" if pinned else "")
