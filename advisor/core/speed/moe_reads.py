"""What share of a MoE model's weights one decode step reads: the routed experts no token of the batch picks are
skipped (``speed.decode`` times the step on it)."""

from __future__ import annotations

from advisor.core.job.planned import PlannedJob
from advisor.core.memory.experts import moe_layers, routed_expert_bytes_per_layer
from advisor.core.memory.formats import weight_format
from advisor.core.memory.inference import held_format_name
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params, mlp_matrices


def experts_picked(arch: ModelArch, tokens: int) -> float:
    """The share of a MoE layer's routed experts some of ``tokens`` tokens pick, each its ``n_active`` of ``n_experts``
    under uniform routing (what the load-balancing loss aims at; Fedus et al. 2021 arXiv:2101.03961 §2.2):
    1 - (1 - k/E)^tokens."""
    assert arch.moe is not None
    return 1 - (1 - arch.moe.n_active / arch.moe.n_experts) ** tokens


def moe_read_fraction(arch: ModelArch, batch: int) -> float:
    """Share of the weights one decode step reads: routed experts that no token of the batch
    picks are skipped (``experts_picked``)."""
    if arch.moe is None:
        return 1.0
    moe, c = arch.moe, count_params(arch)
    routed = moe_layers(arch) * moe.n_experts * mlp_matrices(arch) * arch.hidden_size * moe.expert_ffn_size
    return (c.total - routed * (1 - experts_picked(arch, batch))) / c.total


def read_weight_bytes(arch: ModelArch, job: PlannedJob, weight_bytes: float, batch: int, share: float) -> float:
    """Bytes of ``weight_bytes`` (a GPU's share ``share`` of the model's layers) one decode step of ``batch`` tokens
    reads: ``moe_read_fraction`` of them, or, where only the routed experts are quantized (MXFP4: they are a smaller share
    of the bytes than of the weights), the bytes less the unpicked experts' own bytes at their own width on the GPU
    (the layers llama.cpp's --n-cpu-moe keeps in host RAM excluded)."""
    if arch.moe is None or not weight_format(held_format_name(job)).experts_only:
        return weight_bytes * moe_read_fraction(arch, batch)
    used = experts_picked(arch, batch)
    offloaded = min(job.moe_offload_layers or 0, moe_layers(arch)) if job.engine.gguf else 0
    on_gpu = moe_layers(arch) - offloaded
    unread = on_gpu * routed_expert_bytes_per_layer(arch, job) * (1 - used)
    return max(0.0, weight_bytes - unread * share)
