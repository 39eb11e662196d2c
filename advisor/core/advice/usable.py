"""What "runs the job at a usable speed" means, and how much an estimate of that speed is trusted.

Usable, by job:

* a chat or other inference job: each sequence is generated at ``USABLE_TOKENS_PER_S`` or faster —
  reading speed with room to spare. Adults read non-fiction silently at about 238 words a minute
  (Brysbaert 2019, "How many words do we read per minute?", J. Memory and Language 109:104047), about
  4 words a second; at about 0.75 words per token (OpenAI, "What are tokens and how to count them")
  that is 5.3 tokens/s, and 10 tokens/s (about twice that) is the figure local-LLM buyers quote as
  comfortable. The user can set another floor (``--min-speed``);
* a training job: the run ends within the hours asked (``--max-hours``) when the job has a dataset;
  without a deadline any speed is usable.

Trust: a speed estimate is *calibrated* when measurements of that GPU family with that engine or
framework were scored (``advisor.core.speed.basis``), else *extrapolated*. An extrapolated speed is
ranked at the low end of its band — the table's "extrapolated" band where it has one, else the 90th
percentile of every measured error (the shipped table's overall p90) — so it never outranks a
calibrated one on an estimate alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.core.job.workload import Mode, Workload
from advisor.core.speed.basis import SpeedBasis, basis_of, software_of  # software_of: the table's own key

USABLE_TOKENS_PER_S = 10.0
USABLE_SOURCE = ("reading speed with room to spare: ~238 words/min silent reading (Brysbaert 2019) ≈ 5.3 tokens/s "
                 "at 0.75 words per token; 10 tokens/s per sequence")


def speed_basis(table: Mapping[str, Any], gpus: Sequence, workload: Workload) -> SpeedBasis:
    return basis_of(table, gpus, software_of(workload))


def low_factor(basis: SpeedBasis, fallback_band_pct: float | None) -> float:
    """What the ranking multiplies an estimate by: 1 when calibrated; when extrapolated, 1 − its band
    (the table's extrapolated median, else ``fallback_band_pct``), never below 0.1."""
    if basis.calibrated:
        return 1.0
    band = basis.median_pct if basis.median_pct is not None else fallback_band_pct
    return max(0.1, 1.0 - (band or 0.0) / 100)


def per_sequence_tokens_per_s(planned) -> float | None:
    """Generated tokens/s one sequence sees: the estimate's total over the sequences decoded together."""
    s = planned.estimate.speed.decode_tokens_per_s
    if not s:
        return None
    return s / max(planned.workload.batch, 1)


def usable_why(planned, factor: float, min_tokens_per_s: float, max_hours: float | None) -> str | None:
    """Why the plan's speed (times ``factor``) is not usable for its job; None when it is."""
    w = planned.workload
    if w.mode is Mode.INFERENCE:
        rate = per_sequence_tokens_per_s(planned)
        if rate is None:
            return "speed unknown"
        if rate * factor < min_tokens_per_s:
            low = " at the low end of its band" if factor < 1 else ""
            return f"{rate * factor:,.1f} tokens/s per sequence{low}, under {min_tokens_per_s:g}"
        return None
    if max_hours is None or w.dataset_tokens is None:
        return None
    rate = planned.estimate.speed.train_tokens_per_s
    if not rate:
        return "speed unknown"
    hours = w.dataset_tokens * w.epochs / (rate * factor) / 3600
    return None if hours <= max_hours else f"the run takes {hours:,.0f} h, over the {max_hours:g} h asked"
