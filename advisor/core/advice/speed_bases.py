"""Each build's speed basis on the results (``advisor.core.speed.basis``): what its speed stands on, measured
on its GPU family with the job's engine or framework, or extrapolated.

The measured table ships as a resource that the caller reads (the window's session, ``llm-advisor report``),
so the results carry the basis and the renderers (the builds table's tooltip, the Details tab, the PDF) only
show it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from advisor.core.advice.build_results import BuildResult, Results
from advisor.core.job.job import Job
from advisor.core.job.planned import alone
from advisor.core.speed.basis import SpeedBasis, basis_of, software_of


def speed_basis_of(r: BuildResult, workload: Job, table: Mapping[str, Any]) -> SpeedBasis | None:
    """The basis of the GPUs the build's plan uses, for the job as planned; None without a build. Without a plan
    (no model chosen, or the estimator refused) the job stands alone: one GPU."""
    if r.resolved is None:
        return None
    job = r.chosen.planned if r.chosen is not None else alone(workload)
    return basis_of(table, r.resolved.gpus[:max(1, min(job.n_gpus, r.resolved.gpu_count))], software_of(job))


def with_speed_bases(results: Results, workload: Job, table: Mapping[str, Any]) -> Results:
    """``results`` with each build's ``speed_basis`` from ``table`` (keyed 'family|software')."""
    builds = tuple(dataclasses.replace(r, speed_basis=speed_basis_of(r, workload, table)) for r in results.builds)
    return dataclasses.replace(results, builds=builds)
