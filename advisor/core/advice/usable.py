"""What "runs the job at a usable speed" means, and how much an estimate of that speed is trusted.

Usable, by job:

* a chat or other inference job: each sequence is generated at least as fast as its reader reads it,
  ``USABLE_TOKENS_PER_S``. Adults read non-fiction silently at about 238 words a minute (Brysbaert 2019,
  "How many words do we read per minute?", J. Memory and Language 109:104047, the meta-analysis's mean);
  at about 0.75 words per token (OpenAI, "What are tokens and how to count them") that is 5.3 tokens/s.
  Slower than that, a reader waits for every line. The floor is reading speed itself, not a multiple of it:
  a margin above it ("comfortable") has no measured figure behind it, and a buyer who wants one sets it
  (``--min-speed``; the window's Find builds uses the same default);
* a training job: the run ends within the hours asked (``--max-hours``) when the job has a dataset;
  without a deadline any speed is usable;
* either: a speed the app cannot estimate (a card whose tensor rate the catalog lacks) is not usable — a
  speed-for-the-money order has nothing to rank it on, and an unknown is no answer to "fast enough?".

Trust: a speed estimate is *calibrated* when measurements of that GPU family with that engine or
framework were scored (``advisor.core.speed.basis``), else *extrapolated*. An extrapolated speed is
ranked at the low end of its band — the table's "extrapolated" band where it has one, else the 90th
percentile of every measured error (the shipped table's overall p90) — so it never outranks a
calibrated one on an estimate alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.core.hardware.records import Gpu
from advisor.core.job.choices import Mode
from advisor.core.job.job import Job
from advisor.core.plan.planner import ChosenPlan
from advisor.core.speed.basis import (  # software_of: the table's own key
    SpeedBasis,
    basis_of,
    software_of,
)

#: Silent reading of non-fiction, words a minute (Brysbaert 2019, J. Memory and Language 109:104047).
READING_WORDS_PER_MINUTE = 238
#: English words per token of the GPT tokenizers ("a token is about ¾ of a word", OpenAI help centre).
WORDS_PER_TOKEN = 0.75
USABLE_TOKENS_PER_S = READING_WORDS_PER_MINUTE / 60 / WORDS_PER_TOKEN  # 5.29
USABLE_SOURCE = (f"reading speed: ~{READING_WORDS_PER_MINUTE} words/min silent reading (Brysbaert 2019) at "
                 f"{WORDS_PER_TOKEN} words per token ≈ {USABLE_TOKENS_PER_S:.1f} tokens/s per sequence")


def rate_words(tokens_per_s: float) -> str:
    """'5.3', '10': a floor as a buyer reads it (one decimal, none when whole)."""
    return f"{tokens_per_s:.1f}".removesuffix(".0")


def speed_basis(table: Mapping[str, Any], gpus: Sequence[Gpu], workload: Job) -> SpeedBasis:
    return basis_of(table, gpus, software_of(workload))


def low_factor(basis: SpeedBasis, fallback_band_pct: float | None) -> float:
    """What the ranking multiplies an estimate by: 1 when calibrated; when extrapolated, 1 − its band
    (the table's extrapolated median, else ``fallback_band_pct``), never below 0.1."""
    if basis.calibrated:
        return 1.0
    band = basis.median_pct if basis.median_pct is not None else fallback_band_pct
    return max(0.1, 1.0 - (band or 0.0) / 100)


def per_sequence_tokens_per_s(chosen: ChosenPlan) -> float | None:
    """Generated tokens/s one sequence sees: the estimate's total over the sequences decoded together."""
    s = chosen.estimate.speed.decode_tokens_per_s
    if not s:
        return None
    return s / max(chosen.planned.batch, 1)


def usable_why(chosen: ChosenPlan, factor: float, min_tokens_per_s: float, max_hours: float | None) -> str | None:
    """Why the plan's speed (times ``factor``) is not usable for its job; None when it is."""
    w = chosen.planned
    if w.mode is Mode.INFERENCE:
        rate = per_sequence_tokens_per_s(chosen)
        if rate is None:
            return "speed unknown"
        if rate * factor < min_tokens_per_s:
            low = " at the low end of its band" if factor < 1 else ""
            return f"{rate * factor:,.1f} tokens/s per sequence{low}, under {rate_words(min_tokens_per_s)}"
        return None
    rate = chosen.estimate.speed.train_tokens_per_s
    if not rate:
        return "speed unknown"
    if max_hours is None or w.dataset_tokens is None:
        return None
    hours = w.dataset_tokens * w.epochs / (rate * factor) / 3600
    return None if hours <= max_hours else f"the run takes {hours:,.0f} h, over the {max_hours:g} h asked"
