"""The default job: what the first launch, File ▸ New and ``llm-advisor`` assume when the user
has not said otherwise. One function, so the window and the command line agree.

Inference defaults per engine: vLLM serves many users at once (16 sequences of 8,192 tokens:
the first-launch comparison, where two 24 GB cards must split every layer and the GPU link
matters); llama.cpp and transformers run one conversation (1 sequence of 4,096 tokens, the
context the estimator used before engines had defaults). Training: the ``Workload`` defaults
(full fine-tune, AdamW with mixed precision, micro-batch 1 of 2,048 tokens).
"""

from __future__ import annotations

from advisor.core.job.workload import Engine, Mode, Workload

DEFAULT_ENGINE = Engine.VLLM
SERVING = {"context_len": 8192, "batch": 16}
ONE_CHAT = {"context_len": 4096, "batch": 1}


def default_job(mode: Mode = Mode.INFERENCE, engine: Engine | None = None) -> Workload:
    """The job assumed for ``mode`` (and ``engine``) before the user changes anything."""
    if mode is Mode.TRAIN:
        return Workload(mode=Mode.TRAIN)
    engine = engine or DEFAULT_ENGINE
    shape = SERVING if engine.pooled else ONE_CHAT
    return Workload(mode=Mode.INFERENCE, weights="bf16", kv_dtype="bf16", engine=engine, **shape)
