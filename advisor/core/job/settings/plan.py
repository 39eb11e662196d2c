"""The settings each build's plan chooses (``advisor.core.job.planned``): declarations of the ``PlanPins`` fields.

The plan is chosen for each build; the user pins a part of it per build (the builds table's Plan… dialog), and
the command line's flags pin it for every build it plans. None of these is a field of the job."""

from __future__ import annotations

from advisor.core.job.choices import Engine, Mode, Offload, Parallel
from advisor.core.job.settings.declare import Choice, Section, Setting, Where, Widget

PER_BUILD = "chosen for each build, and pinned per build (the builds table's Plan… dialog), not for the whole job"

SETTINGS = (
    Setting(
        "n_gpus", "GPUs used", "with --build: how many of its GPUs the job uses, counted over all its machines "
        "(default: all of them); with one --gpu card: the machine has N such cards (each of --nodes machines), "
        "all used; without hardware: the job's GPUs",
        Section.PLAN, Widget.PLAN, flag="--gpus", metavar="N", unit="GPUs", exempt=PER_BUILD,
        tip="GPUs the job uses (at most the build's count)."),
    Setting(
        "parallel", "Parallel scheme", "how the GPUs share the work (default: the best plan's)", Section.PLAN,
        Widget.PLAN, flag="--parallel", exempt=PER_BUILD,
        choices=(Choice(Parallel.NONE, "one copy per GPU"), Choice(Parallel.DDP, "data parallel (DDP)"),
                 Choice(Parallel.ZERO1, "ZeRO-1 (optimizer states sharded)"),
                 Choice(Parallel.ZERO2, "ZeRO-2 (states and gradients sharded)"),
                 Choice(Parallel.ZERO3, "ZeRO-3 (everything sharded)"), Choice(Parallel.FSDP, "FSDP (fully sharded)"),
                 Choice(Parallel.FSDP_GRAD_OP, "FSDP, gradients and states sharded"),
                 Choice(Parallel.FSDP_NO_SHARD, "FSDP without sharding"), Choice(Parallel.TP, "tensor parallel"),
                 Choice(Parallel.PP, "pipeline parallel"), Choice(Parallel.LAYER_SPLIT, "split by layers")),
        tip="How the work is split over GPUs. DDP: a full copy per GPU, gradients all-reduced. ZeRO-1/2/3: optimizer "
            "states, gradients and weights sharded (ZeRO, Rajbhandari et al. 2019, arXiv:1910.02054). FSDP: "
            "PyTorch's fully sharded data parallel (Zhao et al. 2023, arXiv:2304.11277). Tensor parallel: every "
            "layer split across GPUs, two all-reduces per layer (Megatron, Shoeybi et al. 2019, arXiv:1909.08053; "
            "one for Falcon in TensorRT-LLM and vLLM, which add its side-by-side attention and MLP first). Pipeline "
            "and layer split: whole layers per GPU."),
    Setting(
        "offload", "Offload", "what is kept in host RAM (repeatable; add nvme to put it on NVMe, as ZeRO-Infinity)",
        Section.PLAN, Widget.PLAN, flag="--offload", exempt=PER_BUILD, where=Where(modes=(Mode.TRAIN,)),
        choices=(Choice(Offload.OPTIMIZER, "optimizer states"), Choice(Offload.PARAMS, "parameters"),
                 Choice(Offload.NVME, "on NVMe")),
        tip="Move optimizer states (or weights) to host RAM between uses (ZeRO-Offload): less GPU memory, much "
            "slower steps, host RAM needed."),
    Setting(
        "moe_offload_layers", "MoE experts in host RAM", "llama.cpp --n-cpu-moe: layers whose MoE experts stay in "
        "host RAM (default: the fewest that fit)", Section.PLAN, Widget.PLAN, flag="--moe-offload-layers",
        metavar="N", unit="layers",
        exempt="chosen for each build: the fewest layers whose experts must stay in host RAM for the rest to fit; "
               "only the command line pins it",
        where=Where(modes=(Mode.INFERENCE,), engines=(Engine.LLAMA_CPP, Engine.OLLAMA)),
        tip="llama.cpp's --n-cpu-moe: the routed experts of this many layers stay in host RAM and run on the CPU."),
)
