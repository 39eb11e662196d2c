"""The default job: what the first launch, File ▸ New and ``llm-advisor`` assume when the user
has not said otherwise. One function, so the window and the command line agree, and one sentence
(``default_job_words``) that the command line's help, its output and the README all say.

Inference defaults per engine: vLLM serves many users at once (16 sequences of 8,192 tokens:
the first-launch comparison, where two 24 GB cards must split every layer and the GPU link
matters); llama.cpp and transformers run one conversation (1 sequence of 4,096 tokens, the
context the estimator used before engines had defaults). Training: the ``Job`` defaults
(full fine-tune, AdamW with mixed precision, micro-batch 1 of 2,048 tokens).
"""

from __future__ import annotations

from typing import TypedDict

from advisor.core.job.choices import Engine, Mode
from advisor.core.job.job import Job


class Shape(TypedDict):
    """An inference job's size: the tokens of each sequence and the sequences at once."""

    context_len: int
    batch: int


DEFAULT_ENGINE = Engine.VLLM
SERVING: Shape = {"context_len": 8192, "batch": 16}
ONE_CHAT: Shape = {"context_len": 4096, "batch": 1}


def default_job(mode: Mode = Mode.INFERENCE, engine: Engine | None = None) -> Job:
    """The job assumed for ``mode`` (and ``engine``) before the user changes anything."""
    if mode is Mode.TRAIN:
        return Job(mode=Mode.TRAIN)
    engine = engine or DEFAULT_ENGINE
    shape = SERVING if engine.pooled else ONE_CHAT
    return Job(mode=Mode.INFERENCE, weights="bf16", kv_dtype="bf16", engine=engine, **shape)


def shape_words(engine: Engine) -> str:
    """'16 sequences of 8,192 tokens at once' / 'one sequence of 4,096 tokens': the default job's size with
    ``engine``."""
    job = default_job(Mode.INFERENCE, engine)
    if job.batch == 1:
        return f"one sequence of {job.context_len:,} tokens"
    return f"{job.batch} sequences of {job.context_len:,} tokens at once"


def _names(engines: list[Engine]) -> str:
    labels = [e.label for e in engines]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def default_job_words() -> str:
    """The default job in one sentence, for the help, the README and the output alike."""
    pooled = [e for e in Engine if e.pooled]
    single = [e for e in Engine if not e.pooled]
    train = default_job(Mode.TRAIN)
    return (f"inference with {DEFAULT_ENGINE.label} and BF16 weights; {_names(pooled)} serve "
            f"{shape_words(pooled[0])}; {_names(single)} run {shape_words(single[0])}. Fine-tuning: a full "
            f"fine-tune in mixed precision with AdamW, a micro-batch of {train.batch} sequence of {train.seq_len:,} "
            "tokens per GPU.")
