"""The format a job's weights are stored in and the one the GPU holds them in (a GGUF file dequantized by
transformers, a checkpoint llama.cpp runs as its GGUF equivalent)."""

from __future__ import annotations

from advisor.core.job.choices import Engine, Method, Mode, Precision
from advisor.core.job.job import Job
from advisor.core.memory.formats import GGUF_EQUIVALENTS, is_gguf

#: What transformers holds a GGUF file's weights as: it dequantizes the file at load — "The GGUF checkpoint
#: is dequantized to fp32" (transformers docs, gguf, v4.56); on main only Qwen3.5 keeps its blocks, and only on
#: Metal (quantization/gguf). So a GGUF job on transformers is sized at fp32, not at the file's bits.
GGUF_IN_TRANSFORMERS_DTYPE = "fp32"


def base_format_name(job: Job) -> str:
    """The stored format of the (frozen or served) weights."""
    if job.mode is Mode.TRAIN and job.method is Method.QLORA:
        return job.weights if job.weights.lower() in ("nf4", "fp4") else "nf4"
    if job.mode is Mode.TRAIN and job.method is Method.FULL:
        return "fp32" if job.precision is Precision.FP32 else "bf16"
    return job.weights


def held_format_name(job: Job) -> str:
    """The format the GPU holds the weights in: a GGUF file in transformers is dequantized at load; llama.cpp and
    Ollama run the GGUF file type of a format they have no loader of their own for (gpt-oss's MXFP4 checkpoint: the
    MXFP4_MOE file ggml-org converts it to, ``formats.GGUF_EQUIVALENTS``)."""
    name = base_format_name(job).strip().lower()
    if job.mode is Mode.INFERENCE and job.engine is Engine.TRANSFORMERS and is_gguf(name):
        return GGUF_IN_TRANSFORMERS_DTYPE
    if job.mode is Mode.INFERENCE and job.engine.gguf:
        return GGUF_EQUIVALENTS.get(name, name)
    return name
