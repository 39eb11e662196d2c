"""The peak memory of a job: the inference terms or the training terms, by mode."""

from __future__ import annotations

from advisor.core.job.workload import Mode, Workload
from advisor.core.memory.inference import estimate_inference
from advisor.core.memory.results import MemoryResult
from advisor.core.memory.training import estimate_training
from advisor.core.model.arch import ModelArch


def estimate_memory(arch: ModelArch, workload: Workload, gpu_memory_bytes: float | None = None,
                    weights_bytes_override: float | None = None) -> MemoryResult:
    """Peak memory of the busiest GPU (and host RAM) for ``workload`` on ``arch``.

    ``weights_bytes_override``: the exact whole-model weight bytes of the files (inference
    only), replacing the format estimate before any split across GPUs.
    """
    if workload.mode is Mode.TRAIN:
        return estimate_training(arch, workload)
    return estimate_inference(arch, workload, gpu_memory_bytes, weights_bytes_override)


