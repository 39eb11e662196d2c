"""Speed of a workload on a build: decode, prefill, time to first token, training throughput.

Roofline (Williams et al. 2009), kernel by kernel: a kernel takes the longer of its memory time
(bytes read / achieved bandwidth) and its compute time (FLOPs / achieved FLOP/s); a step's kernels
run one after another, plus the GPU-to-GPU traffic that cannot overlap
(``advisor.core.hardware.interconnect``). A decode step is its weight GEMMs and then its attention
(``advisor.core.speed.decode``); a prompt's prefill is ``advisor.core.speed.prefill``. FLOP counts: ``advisor.core.speed.flops``; the per-engine
bandwidth and compute shares and per-token floor, fitted to published tokens/s:
``advisor.core.speed.engine_speed``.

Splits of one model over GPUs:
* tensor parallel (Megatron, Shoeybi et al. 2019 arXiv:1909.08053 §3): every GPU reads 1/t
  of the weights; two all-reduces of the layer's activations per layer in the forward pass
  (two more in the backward), which do not overlap compute; one where the engine reduces a
  side-by-side layer's attention and MLP together (``layout.tp_all_reduces_per_layer``);
* layer split (llama.cpp ``--split-mode layer``, accelerate ``device_map="auto"``): the GPUs
  take turns, handing one activation to the next; no faster than one GPU that held it all;
* pipeline parallel (GPipe, Huang et al. 2019 arXiv:1811.06965): stages work on different
  micro-batches (or sequences) at once, idle for (s-1)/(m+s-1) of a step (the bubble);
* data parallel (DDP, ZeRO, FSDP): each GPU runs its own micro-batch; gradient/parameter
  collectives overlap the backward (PyTorch DDP bucketing, Li et al. 2020 arXiv:2006.15704
  §3.2.3; FSDP prefetch, Zhao et al. 2023 arXiv:2304.11277 §3.3), taken here as full overlap.
"""

from __future__ import annotations

from dataclasses import replace

from advisor.core.hardware.interconnect import node_link
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.choices import DecodeAttention, Engine, Mode
from advisor.core.job.engine_versions import (
    XQA_SINCE,
    as_run,
    experts_in_16_bit,
    head_layout,
    multi_block_off_by_default,
    runs_per_head,
    trt_llm_version,
    xqa_covers,
)
from advisor.core.job.job import Job
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.experts import offloaded_moe_layers, routed_expert_bytes_per_layer
from advisor.core.memory.inference import weights_bytes
from advisor.core.memory.results import MemoryBreakdown
from advisor.core.model.arch import ModelArch
from advisor.core.speed import engine_speed as _es
from advisor.core.speed.decode import decode_step
from advisor.core.speed.flops import matmul_share
from advisor.core.speed.layout import Split, run_of, split_of
from advisor.core.speed.prefill import moe_offload_seconds, prefill_seconds
from advisor.core.speed.results import Bottleneck, SpeedEstimate
from advisor.core.speed.training import training_speed

__all__ = ["estimate_speed"]


def _trt_llm_notes(arch: ModelArch, job: Job) -> list[str]:
    """What a TensorRT-LLM job runs that another version of it does not (``job.engine_versions``): with the
    version named, what that version does; without, what an older one would, and the option that says so.
    ``w``: the job as the user set it (not ``as_run``)."""
    if job.engine is not Engine.TENSORRT_LLM:
        return []
    version, notes = trt_llm_version(job), []
    group, head = head_layout(arch)
    if version is not None and runs_per_head(arch, version):
        why = ("its XQA kernels came in 0.7" if version < XQA_SINCE else
               f"its precompiled XQA kernels cover 8 query heads per KV head (head size 128 or 256), and this "
               f"model has {group} (head size {head})")
        notes.append(f"TensorRT-LLM {job.engine_version} decodes this model one query head at a time: {why}")
    elif version is None and job.decode_attention is not DecodeAttention.PER_HEAD and not xqa_covers(arch):
        notes.append(f"TensorRT-LLM's precompiled XQA decode kernels cover 8 query heads per KV head (head size "
                     f"128 or 256); this model has {group} per KV head (head size {head}): a version with only "
                     "those kernels (0.9 or earlier) decodes it one query head at a time — set the TensorRT-LLM "
                     "version to see it")
    if version is not None and experts_in_16_bit(arch, job, version):
        notes.append(f"TensorRT-LLM {job.engine_version} has no FP8 path for MoE experts (it came in 0.10): this "
                     "model's experts run in 16-bit, the KV cache as set")
    elif version is None and arch.moe is not None and job.weights == "fp8":
        notes.append("TensorRT-LLM before 0.10 has no FP8 path for MoE experts: such a version runs this model's "
                     "experts in 16-bit — set the TensorRT-LLM version to see it")
    if version is not None and multi_block_off_by_default(version):
        notes.append(f"TensorRT-LLM {job.engine_version} splits one sequence's attention over the GPU (multi-block "
                     "mode) only when the engine is built or run with it on; it is on by default from 0.13. At a "
                     "small batch and a long context a default build decodes slower than this estimate, which "
                     "splits it")
    return notes


def _inference(arch: ModelArch, w: PlannedJob, build: ResolvedBuild, mem: MemoryBreakdown, sp: Split,
               notes: list[str]) -> SpeedEstimate:
    notes += _trt_llm_notes(arch, w)  # what the user set; the job as its engine version runs it below
    w = as_run(arch, w)
    sequences = w.batch  # the job's concurrent sequences, over the whole build
    if sp.replicas > 1:  # independent copies share them out: each serves ceil(B / replicas)
        w = w.model_copy(update={"batch": -(-sequences // sp.replicas)})
    r = run_of(arch, w, build)
    # Each card's matmuls reach their own share of its tensor peak (flops.matmul_share: measured
    # maximum achievable matmul FLOP/s); the engine's compute share is that of a typical card.
    # llama.cpp's matmuls reach the share of their kernel path's peak (``gguf_paths``), not the engine's one.
    r = replace(r, peaks=tuple(None if p is None else p * matmul_share(g, w) * _es.gguf_path_ratio(g, w)
                               for p, g in zip(r.peaks, build.gpus[: w.n_gpus], strict=True)))
    # The weights the GPUs read: the busiest GPU's (``mem``) times the tensor split, or, split by layers, the whole
    # model's, less the routed experts llama.cpp's --n-cpu-moe keeps in host RAM (``mem.weights`` has them out already).
    if sp.stages > 1:
        moved = offloaded_moe_layers(arch, w) * routed_expert_bytes_per_layer(arch, w)
        whole_w = max(0.0, weights_bytes(arch, w) - moved)
    else:
        whole_w = mem.weights * sp.tp
    dec = decode_step(arch, w, r, mem, sp, whole_w, notes)
    pre = prefill_seconds(arch, w, r, mem, sp, whole_w, notes)
    cpu_dec, cpu_pre = moe_offload_seconds(arch, w, build, notes)
    if dec is not None and cpu_dec:
        dec = dec._replace(seconds=dec.seconds + cpu_dec, memory_s=dec.memory_s + cpu_dec)
    if pre is not None and cpu_pre:
        pre = (pre[0] + cpu_pre, pre[1])
    if sp.replicas > 1:
        notes.append(f"{sp.replicas} independent copies of the model, each serving {w.batch} of the "
                     f"{sequences} sequences")
    decode_tps = bottleneck = None
    share = 0.0
    if dec is not None:
        step, mem_t, comp_t, comm_t, host_bound = dec
        decode_tps = sequences / step
        share = min(1.0, comm_t / step)
        bottleneck = (Bottleneck.INTERCONNECT if comm_t > max(mem_t, comp_t)
                      else Bottleneck.HOST_CPU if host_bound
                      else Bottleneck.COMPUTE if comp_t > mem_t else Bottleneck.MEMORY_BANDWIDTH)
    prefill_tps = ttft = None
    if pre is not None:
        ttft = pre[0]
        prefill_tps = w.context_len * sequences / ttft
    if not w.is_request:  # (a request's speed says what it is timed at: ``estimator.request_speed``)
        notes.append(f"decode speed at a full {w.context_len}-token context; time to first token for a "
                     f"{w.context_len}-token prompt per sequence")
    return SpeedEstimate(decode_tokens_per_s=decode_tps, prefill_tokens_per_s=prefill_tps,
                         time_to_first_token_s=ttft, interconnect_share=share, bottleneck=bottleneck,
                         notes=tuple(notes))


def estimate_speed(arch: ModelArch, planned: PlannedJob, build: ResolvedBuild, memory: MemoryBreakdown) -> SpeedEstimate:
    """Decode/prefill speed and time to first token (inference) or training tokens/s and step
    time, on the first ``workload.n_gpus`` GPUs of ``build``. ``memory`` is the busiest GPU's
    breakdown from ``estimate_memory`` (its weights term is what each decode step reads)."""
    if planned.n_gpus > build.gpu_count:
        return SpeedEstimate(notes=(f"the workload uses {planned.n_gpus} GPUs; {build.name} has {build.gpu_count}",))
    if planned.n_gpus > build.gpus_per_node and node_link(build) is None:
        return SpeedEstimate(notes=(f"the job spans {build.nodes} machines and no network card between them is "
                                    "named: speed unknown",))
    sp = split_of(planned)
    notes: list[str] = []
    if planned.mode is Mode.INFERENCE:
        return _inference(arch, planned, build, memory, sp, notes)
    return training_speed(arch, planned, build, sp, notes)
