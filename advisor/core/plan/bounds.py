"""What rules a build out before any plan is searched, without ruling out a plan the search would find.

The catalog search (``advisor.core.advice.catalog_search``) skips a candidate only when ``best_plan`` could not run the
job there, so Find builds, ``advise`` and ``estimate`` never disagree on whether a build runs it (a test compares
the two over random jobs and catalog builds):

* the software does not run the job on the build's GPUs (``advisor.core.support``), the first thing
  ``best_plan`` checks;
* the job's weights cannot be held anywhere a plan may put them: every plan keeps each weight on a GPU or, where
  a plan moves some to host RAM, there — llama.cpp's MoE experts (``--n-cpu-moe``), a training job's offloaded
  parameters. So the whole model needs at most the GPUs' usable memory plus the host RAM the build is known to
  have (on unified memory: the pool), and what no plan moves (a MoE model's attention and shared weights,
  every weight of an inference job on other engines) needs the GPUs' memory.
"""

from __future__ import annotations

from advisor.core.estimation.job_checks import support_problems
from advisor.core.hardware.memory import (
    host_ram_gib,
    unified_pool_bytes,
    usable_memory_bytes,
)
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import Mode
from advisor.core.job.job import Job
from advisor.core.memory.experts import moe_layers, routed_expert_bytes_per_layer
from advisor.core.model.arch import ModelArch
from advisor.core.units import GIB

NOT_RUN = "the software does not run a job there"
TOO_SMALL = "too little memory"


def _host_bytes(build: ResolvedBuild, gpu_bytes: float) -> float:
    """Host RAM a plan may fill beside the GPUs: the build's known RAM, or on unified memory what the pool holds
    beyond the GPUs' usable share; 0 where the RAM is not known (unknown RAM is not counted: ``fit_figures``)."""
    ram = host_ram_gib(build)
    if build.unified_memory:
        return max(0.0, unified_pool_bytes(build.gpus, ram) - gpu_bytes)
    return ram * GIB if ram is not None else 0.0


def movable_bytes(arch: ModelArch, job: Job, whole: float, unified: bool = False) -> float:
    """Weight bytes some plan keeps in host RAM instead of a GPU: a training job's (parameter offload), a
    llama.cpp MoE model's routed experts; none of an inference job's on other engines."""
    if job.mode is Mode.TRAIN:
        return 0.0 if unified else whole  # no offload on unified memory (``search._levels``)
    if job.engine.gguf and arch.moe is not None:
        return min(whole, moe_layers(arch) * routed_expert_bytes_per_layer(arch, job))
    return 0.0


def ruled_out(arch: ModelArch, job: Job, build: ResolvedBuild, whole_weights: float) -> str | None:
    """Why no plan of ``best_plan`` runs ``job`` on ``build`` (``NOT_RUN``, ``TOO_SMALL``), or None when one may.
    ``whole_weights``: the job's whole-model weight bytes (``estimate_memory`` of the job, before any split)."""
    if support_problems(job, build, build.gpu_count):
        return NOT_RUN
    first = build.gpus[0]
    gpu = (usable_memory_bytes(first) * len(build.gpus) if all(g is first for g in build.gpus)
           else sum(usable_memory_bytes(g) for g in build.gpus))
    movable = movable_bytes(arch, job, whole_weights, build.unified_memory)
    if whole_weights - movable > gpu or whole_weights > gpu + _host_bytes(build, gpu):
        return TOO_SMALL
    return None
