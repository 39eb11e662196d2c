"""What share of a MoE model's weights one decode step reads: the routed experts no token of the batch picks are
skipped (``speed.decode`` times the step on it)."""

from __future__ import annotations

from advisor.core.job.planned import PlannedJob
from advisor.core.memory.experts import (
    moe_layers,
    offloaded_moe_layers,
    routed_expert_bytes_per_layer,
    routed_expert_params_per_layer,
)
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params


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
    c = count_params(arch)
    routed = moe_layers(arch) * routed_expert_params_per_layer(arch)
    return (c.total - routed * (1 - experts_picked(arch, batch))) / c.total


def read_weight_bytes(arch: ModelArch, job: PlannedJob, weight_bytes: float, batch: int, share: float) -> float:
    """Bytes of ``weight_bytes`` (a GPU's share ``share`` of the model's layers) one decode step of ``batch`` tokens
    reads: all of them less the routed experts no token of the batch picks (``experts_picked``), at the bytes those
    experts take in the held format (``memory.experts``: an FP8 or 4-bit checkpoint keeps its embeddings 16-bit, a
    K-quant mix and MXFP4 give the experts their own types, so the experts are a different share of the bytes than
    of the weights), those in the layers llama.cpp's --n-cpu-moe keeps in host RAM excluded (not in ``weight_bytes``)."""
    if arch.moe is None:
        return weight_bytes
    unread = (moe_layers(arch) - offloaded_moe_layers(arch, job)) * routed_expert_bytes_per_layer(arch, job) * (1 - experts_picked(arch, batch))
    return max(0.0, weight_bytes - unread * share)
