"""The peak memory of a job: the inference terms or the training terms, by mode."""

from __future__ import annotations

from functools import lru_cache

from advisor.core.job.workload import Mode, Workload
from advisor.core.memory.inference import estimate_inference
from advisor.core.memory.results import MemoryResult
from advisor.core.memory.training import estimate_training
from advisor.core.model.arch import ModelArch


def estimate_memory(arch: ModelArch, workload: Workload, gpu_memory_bytes: float | None = None,
                    weights_bytes_override: float | None = None, detail: bool = True) -> MemoryResult:
    """Peak memory of the busiest GPU (and host RAM) for ``workload`` on ``arch``.

    ``weights_bytes_override``: the exact whole-model weight bytes of the files (inference
    only), replacing the format estimate before any split across GPUs. A training job's memory
    does not depend on the card (only on the plan), so it is remembered: the catalog search
    plans the same job on hundreds of builds.

    ``detail=False`` (training): the same breakdown without the assumptions' words and the terms'
    full sizes, for a plan search's probes and the fit sweep's points (``estimate_training``).
    """
    if workload.mode is Mode.TRAIN:
        return _training(arch, workload, _SET_BY_USER.intersection(workload.model_fields_set), detail)
    return estimate_inference(arch, workload, gpu_memory_bytes, weights_bytes_override)


#: The fields whose being set by the user (``Workload.model_fields_set``), not only their value, changes a
#: training estimate: ``apply_framework`` gives the framework's default to those the user left unset. Two
#: workloads differing only there are equal (and hash alike), so the cache below keys on it as well.
_SET_BY_USER = frozenset({"framework", "precision", "loss_chunks", "checkpointing"})


@lru_cache(maxsize=4096)
def _training(arch: ModelArch, workload: Workload, set_by_user: frozenset[str], detail: bool = True) -> MemoryResult:
    return estimate_training(arch, workload, detail)
