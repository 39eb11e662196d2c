"""What a TensorRT-LLM version runs for a model, where versions differ.

A user who names the version (``Job.engine_version``, ``--engine-version``, the window's
"TensorRT-LLM version") gets the job as that version runs it (``as_run``): its decode attention kernel
and the precision of an MoE model's experts. Without a version, the job is estimated as a current one
runs it, and the speed notes say what an older one does differently.
"""

from __future__ import annotations

import re

from advisor.core.job.choices import DecodeAttention, Engine, Mode
from advisor.core.job.job import Job, JobT
from advisor.core.model.arch import ModelArch

#: TensorRT-LLM's precompiled single-query XQA decode kernels (tensor cores, one KV read per query group)
#: cover 8 query heads per KV head with head size 128 or 256 only
#: (cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/cubin/xqa_kernel_cubin.h at 2340c776; the
#: docs: 'only supports a limited number of model configurations, such as the LLAMA2 70B model'); any
#: other head layout decodes with masked MHA, one query head at a time (``DecodeAttention.PER_HEAD``).
XQA_LAYOUTS = {(8, 128), (8, 256)}  # (query heads per KV head, head size)
#: The XQA kernels arrived in v0.7/v0.8 (docs/source/blogs/Falcon180B-H200.md at 3c44cb97: 'GQA ... 2.4x
#: improvement on Llama-70B over TensorRT-LLM v0.5', v0.7a against v0.6a; blogs/XQA-kernel.md: 'included in
#: the v0.8 releases'): an earlier version decodes every model one query head at a time.
XQA_SINCE = (0, 7)
#: The last version known to have only the precompiled layouts: its own 0.9.0 throughput tables ran Mistral
#: 7B, Mixtral and Falcon 180B (layouts outside ``XQA_LAYOUTS``) with masked MHA. Later versions are not
#: judged: the job's own decode attention option stands.
XQA_PRECOMPILED_UNTIL = (0, 9)
#: TensorRT-LLM before 0.10 had no FP8 path for MoE experts: tensorrt_llm/layers/moe.py at 250d9c29 (the
#: commit whose docs/source/performance.md holds the 0.9.0 throughput tables) gives ``MixtureOfExperts``
#: ``self.weight_dtype = dtype`` and changes it only ``if quant_mode.is_weight_only()`` (to int8), its MoE
#: GEMMs (moe_gemm_kernels_template.h there) take half/bf16/float only, and the 0.10.0 release notes
#: (docs/source/release-notes.md) list 'Added FP8 quantization support for Mixtral'. An FP8 build of an
#: MoE model by an earlier version runs its routed experts in 16-bit (the app takes one weight format for
#: the whole model: the job's weights become fp16, its KV cache stays as set).
MOE_FP8_SINCE = (0, 10)
#: TensorRT-LLM splits one sequence's decode attention over several thread blocks (multi-block mode: it
#: "distributes the work across multiple CUDA thread-blocks on the GPU for cases where the GPU occupancy is low",
#: docs/source/advanced/gpt-attention.md at a7e572fb) by default from 0.13: its release notes
#: (docs/source/release-notes.md at 001eaece), 0.13.0: "[BREAKING CHANGE] Enabled `multi_block_mode` by default";
#: 0.12.0 moved the switch from ``trtllm-build`` to the runtime. An earlier build splits it only when built (run,
#: from 0.12) with it on. The estimate splits it (``speed.engine_speed.SPLIT_KV_ENGINES``); for an earlier version
#: the notes say what the default build does.
MULTI_BLOCK_SINCE = (0, 13)

def version_tuple(text: str | None) -> tuple[int, int] | None:
    """(major, minor) of a version such as '0.9.0' or '0.7a'; None when it names none."""
    m = re.match(r"^(\d+)\.(\d+)", (text or "").strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def head_layout(arch: ModelArch) -> tuple[int, int]:
    """(query heads per KV head, head size)."""
    return arch.n_heads // max(1, arch.n_kv_heads), arch.head_dim


def xqa_covers(arch: ModelArch) -> bool:
    """Whether TensorRT-LLM's precompiled XQA kernels cover the model's head layout (``XQA_LAYOUTS``)."""
    return head_layout(arch) in XQA_LAYOUTS


def trt_llm_version(job: Job) -> tuple[int, int] | None:
    """The TensorRT-LLM version an inference job names; None for another engine or no version."""
    if job.engine is not Engine.TENSORRT_LLM or job.mode is not Mode.INFERENCE:
        return None
    return version_tuple(job.engine_version)


def runs_per_head(arch: ModelArch, version: tuple[int, int]) -> bool:
    """A TensorRT-LLM version decodes ``arch`` one query head at a time (``XQA_SINCE``,
    ``XQA_PRECOMPILED_UNTIL``, ``XQA_LAYOUTS``)."""
    return version < XQA_SINCE or (version <= XQA_PRECOMPILED_UNTIL and not xqa_covers(arch))


def experts_in_16_bit(arch: ModelArch, job: Job, version: tuple[int, int]) -> bool:
    """An FP8 job of an MoE model on a TensorRT-LLM version before ``MOE_FP8_SINCE``."""
    return arch.moe is not None and job.weights == "fp8" and version < MOE_FP8_SINCE


def multi_block_off_by_default(version: tuple[int, int]) -> bool:
    """A TensorRT-LLM version whose default build decodes one sequence's attention without splitting it over
    thread blocks (``MULTI_BLOCK_SINCE``)."""
    return version < MULTI_BLOCK_SINCE


def as_run(arch: ModelArch, job: JobT) -> JobT:
    """The job as the TensorRT-LLM version it names runs it (the job itself otherwise): masked MHA where
    that version has no XQA kernel for the model, 16-bit experts where it has no FP8 path for them."""
    version = trt_llm_version(job)
    if version is None:
        return job
    update: dict[str, object] = {}
    if runs_per_head(arch, version) and job.decode_attention is not DecodeAttention.PER_HEAD:
        update["decode_attention"] = DecodeAttention.PER_HEAD
    if experts_in_16_bit(arch, job, version):
        update["weights"] = "fp16"
    return job.model_copy(update=update) if update else job
