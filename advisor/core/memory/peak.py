"""The peak memory of a job: the inference terms or the training terms, by mode."""

from __future__ import annotations

from advisor.core.job.choices import Mode
from advisor.core.job.engine_versions import as_run
from advisor.core.job.frameworks import with_framework_defaults
from advisor.core.job.planned import PlannedJob
from advisor.core.memo import HeldById
from advisor.core.memory import training
from advisor.core.memory.inference import estimate_inference
from advisor.core.memory.results import MemoryResult
from advisor.core.memory.training import estimate_training
from advisor.core.model.arch import ModelArch


def estimate_memory(arch: ModelArch, planned: PlannedJob, gpu_memory_bytes: float | None = None,
                    weights_bytes_override: float | None = None, detail: bool = True) -> MemoryResult:
    """Peak memory of the busiest GPU (and host RAM) for ``workload`` on ``arch``.

    ``weights_bytes_override``: the exact whole-model weight bytes of the files (inference
    only), replacing the format estimate before any split across GPUs. A training job's memory
    does not depend on the card (only on the plan), so it is remembered: the catalog search
    plans the same job on hundreds of builds.

    ``detail=False`` (training): the same breakdown without the assumptions' words and the terms'
    full sizes, for a plan search's probes and the fit sweep's points (``estimate_training``).
    """
    if planned.mode is Mode.TRAIN:
        return _training(arch, planned, detail)
    # The job as its TensorRT-LLM version runs it (16-bit experts where it has no FP8 path for them).
    return estimate_inference(arch, as_run(arch, planned), gpu_memory_bytes, weights_bytes_override)


_SET_BY_USER = training.SET_BY_USER  # the cache keys on which of these the user set, as well as on the values
_FIELDS = training._ALL_FIELDS
#: (the model; the workload's values, which of _SET_BY_USER are set, with words) -> the estimate.
_TRAINING: HeldById[MemoryResult] = HeldById(4096)


def _training(arch: ModelArch, planned: PlannedJob, detail: bool = True) -> MemoryResult:
    key = (_FIELDS(planned.__dict__), _SET_BY_USER.intersection(planned.model_fields_set), detail)
    got = _TRAINING.get((arch,), key)
    if got is not None:
        return got
    return _TRAINING.put((arch,), key, estimate_training(arch, planned, detail))


def clear_cache() -> None:
    """Forget the training estimates kept, and their parts kept per job (a cold start: tests, benchmarks)."""
    _TRAINING.clear()
    training._BATCH_FREE_CACHE.clear()
    with_framework_defaults.clear()


_training.cache_clear = clear_cache  # type: ignore[attr-defined]  # as when it was an lru_cache (benchmarks/advise.py)
