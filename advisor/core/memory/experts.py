"""The routed experts of a MoE model: how many layers have them, their weights and their bytes at a job's format
(what llama.cpp's --n-cpu-moe moves to host RAM, and what MXFP4 quantizes alone)."""

from __future__ import annotations

from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.formats import weight_format
from advisor.core.memory.gguf_mix import MIXES, mix_layout
from advisor.core.memory.held import held_format_name
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import mlp_matrices


def routed_expert_bytes_per_layer(arch: ModelArch, job: Job) -> float:
    """Bytes of one MoE layer's routed experts in the format the GPU holds the weights in (``memory.held``; 0 for
    dense models); for a llama.cpp K-quant mix, the layers' mean (their ffn_down types differ by layer:
    ``memory.gguf_mix``)."""
    if arch.moe is None:
        return 0.0
    name = held_format_name(job)
    if name in MIXES and moe_layers(arch):
        return mix_layout(arch, name)[1] / moe_layers(arch)
    fmt = weight_format(name, job.quant_group_size, job.double_quant)
    return routed_expert_params_per_layer(arch) * fmt.bits_per_weight / 8


def routed_expert_params_per_layer(arch: ModelArch) -> int:
    """Weights of one MoE layer's routed experts (0 for a dense model): experts x matrices x hidden x expert width."""
    if arch.moe is None:
        return 0
    return arch.moe.n_experts * mlp_matrices(arch) * arch.hidden_size * arch.moe.expert_ffn_size


def moe_layers(arch: ModelArch) -> int:
    return 0 if arch.moe is None else arch.n_layers - min(arch.moe.n_dense_layers, arch.n_layers)


def offloaded_moe_layers(arch: ModelArch, job: PlannedJob) -> int:
    """MoE layers whose routed experts llama.cpp's ``--n-cpu-moe`` keeps in host RAM (its ``moe_offload_layers``,
    at most the model's MoE layers; 0 for another engine or a dense model)."""
    if arch.moe is None or not job.engine.gguf:
        return 0
    return min(job.moe_offload_layers or 0, moe_layers(arch))
