"""Fidelity of the speed estimator against published tokens/s (``tests/data/speeds.csv``).

Each published row becomes the job a user would set (model, engine, weights, batch, prompt and
generated lengths, GPUs and their layout) and is compared with the same quantity:

* decode rows: the job ``--context P+G --prompt-tokens P`` (P prompt and G generated tokens per
  sequence), whose speed the app gives for that request (``estimator.request_speed``: time to first
  token for the prompt, then the decode rate of the mid-generation context; "incl. prefill" in the CLI):
  ``per-sequence`` rows that time a whole ``generate`` call (the Qwen speed benchmarks) take it per
  sequence, ``per-gpu`` rows (TensorRT-LLM's throughput tables) per GPU; a TensorRT-LLM row's version is
  the job's ``--engine-version``; a row whose source times the generated tokens alone (``rate`` ``decode``:
  llama-server's ``predicted_per_second``, Ollama's ``eval rate``, 1 / TPOT) is compared with the same job's
  decode rate ("decode" in the CLI) instead (``publishes_request_rate``);
* prefill rows (llama-bench ppN): ``--context N``, its prefill tokens/s;
* ``per-gpu`` training rows: training tokens/s / GPUs.

Rows whose GPU, model, weight format or layout the app cannot express are reported as skipped,
with the reason, and so are rows whose job the app refuses (``job_checks.check_planned``: a context
beyond the model's, as the TensorRT-LLM 0.9.0 page ran Falcon 180B at 2,048 + 2,048 tokens): the
window and the CLI give no speed for such a job, so the benchmark gives none either. A decode row measured
faster than its stated job can run at all (``weight_read_bound``: every step reads the weights it must at
the cards' peak bandwidth, and nothing else takes time) is a known gap, reported and not scored: the
published figure is not that job's. So is a row of an MoE model whose source ran it on filler weights
(``FILLER_WEIGHT_SOURCES``): its router's choices, and so the experts each step reads, are not a user's.

The per-engine constants (``advisor.core.speed.engine_speed``) are fitted on the *calibration*
rows by ``benchmarks/speed_calibration.py``; whole sources are held out (``split_of``: sha256 of
the row's URL mod 3 == 0), and the error is printed for each part apart.
Run: ``.venv/bin/python benchmarks/speed_fidelity.py [--rows]``.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from advisor.core.estimation.estimator import estimate  # noqa: E402
from advisor.core.estimation.job_checks import check_planned  # noqa: E402
from advisor.core.hardware.catalog import gpu_build, resolve_cloud, with_network, with_nodes  # noqa: E402
from advisor.core.hardware.builds import Build, BuildGpu  # noqa: E402
from advisor.core.hardware.parts import BuildParts  # noqa: E402
from advisor.core.hardware.resolve import resolve_platform  # noqa: E402
from advisor.core.hardware.topology import bridge_pairs  # noqa: E402
from advisor.core.job.choices import LLAMA_CPP_UBATCH, Parallel, Precision  # noqa: E402
from advisor.core.job.planned import PlannedJob  # noqa: E402
from advisor.core.memory.formats import weight_format  # noqa: E402
from advisor.core.model.arch import ModelArch  # noqa: E402
from advisor.core.speed.flops import train_flops_per_token  # noqa: E402
from advisor.core.speed.moe_reads import read_weight_bytes  # noqa: E402
from advisor.core.speed.gguf_decode import prompt_as_decode_steps  # noqa: E402
from advisor.storage.catalog_store import load_catalog  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
import sources  # noqa: E402  (benchmarks/sources.py)
from build_eras import pre_graph_build, pre_matrix_mmq_build, pre_v1_vllm  # noqa: E402  (benchmarks/build_eras.py)

CSV = ROOT / "tests/data/speeds.csv"
GPU_IDS = {"a100 80gb": "a100-80gb-sxm", "a100": "a100-80gb-sxm", "a100 40gb": "a100-40gb-sxm", "h20 96gb": "h20", "h200 sxm 141gb": "h200-sxm",
           "h200": "h200-sxm", "h100 sxm 80gb": "h100-sxm", "h100": "h100-sxm", "l40s 48gb": "l40s", "l40s": "l40s",
           "rtx 4090": "rtx-4090", "rtx a6000": "rtx-a6000", "rtx 3090": "rtx-3090", "rtx 5090": "rtx-5090",
           "rtx 3090 ti": "rtx-3090-ti", "rtx 2080 ti": "rtx-2080-ti", "rtx 3060 12gb": "rtx-3060-12gb",
           "tesla v100-pcie-16gb": "v100-pcie-16gb", "amd radeon ai pro r9700 32gb": "radeon-ai-pro-r9700",
           "apple m2 ultra": "apple-m2-ultra-192gb", "apple m1 ultra (64-core gpu)": "apple-m1-ultra-128gb",
           "apple m2 max (30-core gpu)": "apple-m2-max-32gb", "amd rx 7900 xtx": "rx-7900-xtx", "p40": "tesla-p40"}


def gpu_id_of(name: str, catalog) -> str | None:
    """The catalog id of a row's GPU as published: ``GPU_IDS``, else the name written as a catalog id
    ('RTX 4070 Ti' → 'rtx-4070-ti'); None when the catalog has no such GPU."""
    key = name.strip().lower()
    gpu = GPU_IDS.get(key, "-".join(key.split()))
    return gpu if gpu in catalog.gpus else None


WEIGHTS = {"gptq-int4": "gptq", "gptq-int8": "gptq-int8", "fp16": "fp16", "bf16": "bf16", "fp8": "fp8", "awq": "awq",
           "nf4": "nf4", "int8": "int8"}
#: Training engines of the rows that are a framework a user picks (``--framework``, the same names); hf: the HF Trainer
#: (+ PEFT), the rows this project measured (h100dev-*).
TRAIN_ENGINES = frozenset({"torchtitan", "torchtune", "litgpt", "unsloth", "hf", "axolotl"})
SIMPLE_LAYOUTS = ("none", "tp", "pp", "layer-split", "fsdp", "ddp")


def hardware_of(row: dict[str, str], catalog, gpu: str, n: int):
    """The build a row ran on, as a user builds it (GPU × count, and machines × network card): ``n``
    cards of one GPU (``gpu_build``: SXM modules on their NVSwitch board, the TensorRT-LLM rows name
    'H100 SXM 80GB' and 'H200 SXM 141GB'; the 'A100' and 'A100 80GB' rows are mapped to the SXM part),
    or, where the row states its machines (``nodes``, ``nic``, ``nics``: ``--nodes``, ``--nic``, ``--nics``),
    identical machines of ``n / nodes`` cards joined by that network. A row that does not describe its machine
    runs on the cards with their own slots, as the build editor keeps them when the platform's cost is stated, not
    on the typical tier the app would guess for cards alone (whose slots and CPU the source never had)."""
    nodes = _int(row, "nodes", 1)
    if nodes > 1:
        return hosted(row, catalog, with_nodes(with_network(catalog, gpu_build(catalog, gpu, n // nodes), row["nic"],
                                                            _int(row, "nics", 1)), nodes))
    return hosted(row, catalog, bridged(gpu_build(catalog, gpu, n)) if (row.get("interconnect") or "").strip() == "nvlink"
                  else gpu_build(catalog, gpu, n))


def hosted(row: dict[str, str], catalog, build):
    """``build`` on the host CPU the row's source states (``host``), as a user gets it: a catalog CPU part is the
    platform of a build naming that CPU (``resolve_platform``, what the build editor's parts resolve to); a cloud
    instance is that instance (``resolve_cloud``: a user picks it), which must carry the row's GPUs — its host
    CPU's measured mark times the engine's per-token overhead (``ResolvedBuild.host_single_thread_mark``).
    Unchanged where the source does not say."""
    host = (row.get("host") or "").strip()
    if not host:
        return build
    if host in catalog.parts:
        named = Build(id="speed-row", name=build.name, sources=[row["url"]], parts=BuildParts(cpu=host),
                      gpus=(BuildGpu(gpu_id=build.gpus[0].id, count=build.gpus_per_node),))
        return build.model_copy(update={"platform": resolve_platform(catalog, named, f"speed row {row['id']!r}")})
    instance = resolve_cloud(catalog, host)
    if instance.gpu_count != build.gpu_count or {g.id for g in instance.gpus} != {g.id for g in build.gpus}:
        raise ValueError(f"speed row {row['id']!r}: host {host!r} does not carry the row's {build.gpu_count}x "
                         f"{build.gpus[0].name} (name the instance that does, or the host's CPU part)")
    return instance


def bridged(build):
    """``build``'s cards joined by NVLink bridges (``bridge_pairs``: 0-1, 2-3 …), as a user builds a row whose source
    says its PCIe cards ran over NVLink: the build editor's "NVLink bridge" box, or the catalog's "2× RTX 3090 + NVLink
    bridge". Unchanged where the card takes no bridge (``NvLink.bridge_slot_spacings`` empty: SXM modules are on their
    baseboard already)."""
    gpu = build.gpus[0]
    if gpu.nvlink is None or not gpu.nvlink.bridge_slot_spacings or build.topology.nvswitch:
        return build
    topology = build.topology.model_copy(update={"nvlink_pairs": bridge_pairs(build.gpu_count)})
    return build.model_copy(update={"topology": topology, "name": f"{build.gpu_count}x {gpu.name} + NVLink bridge"})


def unstated_network(row: dict[str, str]) -> str | None:
    """Why a row across machines whose network its source does not state is not scored; None otherwise."""
    if _int(row, "nodes", 1) > 1 and not (row.get("nic") or "").strip():
        return (f"known gap: {row['nodes']} machines whose network the source does not state (the per-GPU figure is "
                "the source's; the app times the traffic between machines by their network card)")
    return None


def split_of(row: dict[str, str]) -> str:
    """'held-out' or 'calibration': whole sources at once, by the sha256 of the row's URL (mod 3 == 0
    is held out, about a third of the sources), so no row of a held-out source informs the fit
    (``sources.hash_split``)."""
    return sources.hash_split(row["url"])


def part_of(row: dict[str, str]) -> str:
    """The row's part for the report: calibration, held-out but seen while a mechanism was chosen, or
    held-out and never seen (``sources.part_of``); only the last counts for the held-out targets."""
    return sources.part_of(row["url"])


@dataclass(frozen=True)
class Outcome:
    row_id: str
    group: str
    engine: str
    n_gpus: int
    trusted: bool
    split: str
    measured: float
    estimate: float | None = None
    skipped: str = ""
    gpu_id: str = ""
    family: str = ""  # the GPU's speed family (``Gpu.speed_family``: 'NVIDIA sm_86', 'Apple M2', ...)

    @property
    def error_pct(self) -> float:
        return abs(self.estimate - self.measured) / self.measured * 100


def _int(row, col, default=0) -> int:
    value = (row.get(col) or "").strip()
    return int(float(value)) if value else default


def compiled(row: dict[str, str]) -> bool | None:
    """torch.compile as the row's ``compile`` column states it (``--compile``; SPEEDS.md says, per source, where
    the source says so); None (the framework's default) where the column is empty."""
    return True if (row.get("compile") or "").strip().lower() == "yes" else None


def job_of(row: dict[str, str]) -> PlannedJob | str:
    """The job the row describes, or why it cannot be expressed."""
    engine, layout = row["engine"], (row.get("parallel") or "none").strip()
    n = _int(row, "n_gpus", 1)
    if layout not in SIMPLE_LAYOUTS:
        return f"layout {layout} not expressed by one scheme"
    parallel = "none" if n == 1 else layout
    if row["group"] == "train":
        if engine not in TRAIN_ENGINES:
            return f"training engine {engine}"
        training = train_weights_options(row)
        if isinstance(training, str):
            return training
        # The row's own columns, the options a user sets: --method, --checkpointing, --compile, --optimizer-kernel,
        # and its weights as --weights / --precision (``train_weights_options``).
        return PlannedJob(mode="train", method=row.get("method") or "full", framework=engine, n_gpus=n,
                          parallel=parallel, batch=max(1, _int(row, "batch", 1)), seq_len=_int(row, "context_tokens", 2048),
                          checkpointing=row.get("checkpointing") or "none", compile=compiled(row),
                          optimizer_kernel=row.get("optimizer_kernel") or None, **training)
    weights = WEIGHTS.get(row["weights"].strip().lower())
    if weights is None:
        try:  # GGUF types, f16, EXL2's Nbpw: the names the app takes as they are
            weights = weight_format(row["weights"]).name
        except ValueError:
            return f"weight format {row['weights']}"
    # The row's own columns, the options a user sets: --kv-dtype (TensorRT-LLM's FP8 tables also quantise the KV
    # cache: 'kv_cache_quant_algo FP8' in their build configs, quoted in the rows' notes) and --attention.
    kv = (row.get("kv_dtype") or "").strip() or "bf16"
    if row["group"] == "prefill":  # llama-bench ppN: one batch of N prompt tokens (--context N)
        context, prompt = max(1, _int(row, "prompt_tokens", 512)), None
    else:  # a request of P prompt and G generated tokens per sequence (--context P+G --prompt-tokens P;
        # llama-bench's tg test has no prompt: P = 0)
        prompt = max(0, _int(row, "prompt_tokens", 1))
        context = prompt + max(1, _int(row, "gen_tokens", 1))
    # A TensorRT-LLM row's version (``--engine-version``): the app runs the job as that version did (its
    # decode attention kernel, 16-bit experts of an FP8 MoE build before 0.10: ``engine_versions.as_run``).
    version = ((row.get("engine_version") or "").strip() or None) if engine == "tensorrt-llm" else None
    # llama.cpp's micro-batch as the source ran it (``--ubatch-size``; llama-bench's -ub); empty: its default.
    ubatch = _int(row, "ubatch", LLAMA_CPP_UBATCH)
    return PlannedJob(engine=engine, weights=weights, batch=max(1, _int(row, "batch", 1)), n_gpus=n,
                      parallel=parallel, context_len=context, prompt_tokens=prompt, kv_dtype=kv, engine_version=version,
                      custom_all_reduce=custom_all_reduce_of(row), ubatch_tokens=ubatch, **attention_of(row))


#: What a training row's ``weights`` column is in the app's options: fp32 training is ``--precision fp32``; bf16 and fp16
#: are the framework's 16-bit training (its default precision: the same tensor-core rate for either); a LoRA's frozen base
#: and QLoRA's 4-bit base are ``--weights``. FP8 training (torchao's Float8Linear, Transformer Engine) has no option.
TRAIN_16_BIT = ("bf16", "fp16")
TRAIN_4_BIT = ("nf4", "fp4")


def train_weights_options(row: dict[str, str]) -> dict[str, str] | str:
    """The ``--weights`` / ``--precision`` a training row's ``weights`` column is, or why it is a known gap."""
    weights, method = row["weights"].strip().lower(), (row.get("method") or "full").strip()
    if weights == "fp8":
        return ("known gap: FP8 training (torchao's Float8Linear, Transformer Engine): the app trains in 16 or 32 bits, "
                "with no FP8 option")
    options = {"precision": "fp32"} if weights == "fp32" else {}
    if method == "lora" and weights in (*TRAIN_16_BIT, "fp32"):
        options["weights"] = weights
    elif method == "qlora" and weights in TRAIN_4_BIT:
        options["weights"] = weights
    elif weights not in (*TRAIN_16_BIT, "fp32"):
        return f"training weights {weights} with method {method}"
    return options


def custom_all_reduce_of(row: dict[str, str]) -> bool:
    """``--custom-all-reduce`` / ``--no-custom-all-reduce`` as the row's ``custom_all_reduce`` column states it (the
    source's server arguments: vLLM's and SGLang's ``disable_custom_all_reduce``); on (the engines' default) where
    the column is empty."""
    value = (row.get("custom_all_reduce") or "").strip().lower()
    if value not in ("", "yes", "no"):
        raise ValueError(f"row {row.get('id')}: custom_all_reduce {value!r} is neither 'yes' nor 'no'")
    return value != "no"


#: The ``flash_attention`` column's values and the ``--attention`` each is.
STATED_ATTENTION = {"yes": "flash", "no": "sdpa", "eager": "eager"}


def attention_of(row: dict[str, str]) -> dict[str, str]:
    """``--attention`` as the row's ``flash_attention`` column states it: 'yes' → flash; 'no' → sdpa, flash
    attention off (llama.cpp's and Ollama's prompt then writes its scores to memory; transformers' default without
    FlashAttention-2 is PyTorch's fused SDPA); 'eager' → eager, transformers' own unfused attention (its default
    for Llama and Mistral before SDPA became it in 4.36); empty → the app's default. An Ollama row that does not
    state it says what its build ran by default (tests/data/SPEEDS.md, ``flash_attention``)."""
    stated = (row.get("flash_attention") or "").strip().lower()
    return {"attention": STATED_ATTENTION[stated]} if stated in STATED_ATTENTION else {}


#: Sources whose engines were built without a checkpoint, on their filler weights (random, or left unfilled,
#: by version: tensorrt_llm/parameter.py). Speed does not depend on a dense model's weight values, but an MoE
#: model's router decides from them which experts each token reads: with filler weights its choices are not a
#: trained router's, which spreads a batch's tokens over the experts (``moe_reads.experts_picked``). Such
#: a row of an MoE model times a job no user runs, and is a known gap. TensorRT-LLM's 0.9.0 performance page
#: builds every engine it documents with ``trtllm-build --model_config <config.json>`` from a config it prints
#: ("Prepare a config json file"; GPT-J, Llama 2 7B and 70B, Falcon 180B) and documents no Mixtral build; three
#: of its sixteen Mixtral rows are faster than reading, each step, the experts a balanced routing of their batch
#: touches (``weight_read_bound``), which a trained router's batch cannot be.
FILLER_WEIGHT_SOURCES = {
    "https://nvidia.github.io/TensorRT-LLM/performance/perf-overview.html":
        "TensorRT-LLM's 0.9.0 performance page builds its engines from a model config, without weights",
}


#: llama.cpp backends the app runs a GGUF job on: each GPU's own stack (``Gpu.backend``: CUDA, ROCm/HIP,
#: Metal). A llama-bench row run on another backend of the same card (the row's ``backend`` column: Vulkan, which
#: geerlingguy/ai-benchmarks runs on every vendor) timed kernels the app does not model, and is skipped with the reason.
BACKEND_NAMES = {"vulkan": "Vulkan", "sycl": "SYCL", "opencl": "OpenCL"}


def other_backend(row: dict[str, str]) -> str | None:
    """Why a llama.cpp row run on a backend other than its GPU's own stack is not scored; None otherwise."""
    backend = (row.get("backend") or "").strip().lower()
    if not backend or row["engine"] not in ("llama.cpp", "ollama"):
        return None
    return (f"llama.cpp's {BACKEND_NAMES.get(backend, backend)} backend: the app runs llama.cpp on each GPU's own stack "
            "(CUDA, ROCm, Metal)")


def filler_weight_moe(row: dict[str, str], arch: ModelArch) -> str | None:
    """Why an MoE row measured on filler weights is not scored (``FILLER_WEIGHT_SOURCES``); None otherwise."""
    why = FILLER_WEIGHT_SOURCES.get(row.get("url", "").strip())
    if why is None or arch.moe is None:
        return None
    return f"known gap: an MoE model run on filler weights ({why}): its router is not a trained one"


def weight_read_bound(row: dict[str, str], arch: ModelArch, job: PlannedJob, build, weights_bytes: float) -> float | None:
    """The most a decode row's quantity can be for its job: one step of the batch reads at least the
    busiest GPU's weights (``weights_bytes``) — of an MoE model, less the experts that uniform routing of the
    batch leaves unpicked (``moe_reads.read_weight_bytes``), as trained routers balance them — at the card's
    datasheet peak bandwidth; the prompt, the KV cache, compute and every overhead are left out. A GGUF prompt in
    micro-batches of at most ``MATVEC_MAX_TOKENS`` is such steps too, each of its micro-batch's tokens (the app's
    ``prefill._matvec_prefill_seconds``). None for a layer or pipeline split (its GPUs take turns) and for rows of
    other groups."""
    matvec = row["group"] == "prefill" and prompt_as_decode_steps(job)
    if not (row["group"] == "decode" or matvec) or (job.n_gpus > 1 and job.parallel is not Parallel.TP):
        return None
    bandwidth = min(g.mem_bandwidth_gb_per_s or 0.0 for g in build.gpus[:job.n_gpus]) * 1e9
    if bandwidth <= 0 or weights_bytes <= 0:
        return None
    step_tokens = min(job.gguf_ubatch_tokens, job.context_len * job.batch) if matvec else job.batch
    read = read_weight_bytes(arch, job, weights_bytes, step_tokens, 1 / job.n_gpus)
    return in_row_unit(step_tokens * bandwidth / read, row, job)


def fp32_train_bound(arch: ModelArch, job: PlannedJob, build) -> float | None:
    """The most an FP32 training job's tokens/s per GPU can be with its matmuls in IEEE FP32 (``--precision fp32``):
    its FLOPs per token (``flops.train_flops_per_token``) at the card's datasheet FP32 peak; None for another
    precision or an unknown peak. A row above it ran TF32 tensor cores."""
    peak = build.gpus[0].fp32_tflops
    if job.precision is not Precision.FP32 or not peak:
        return None
    return peak * 1e12 / train_flops_per_token(arch, job)


def in_row_unit(tokens_per_s: float | None, row: dict[str, str], job: PlannedJob) -> float | None:
    """The job's tokens/s (every sequence on every GPU) in the row's unit, ``tokens_per_s_kind``: per sequence of the
    batch, per GPU, or the aggregate as it is; None stays None (the catalog lacks a figure)."""
    if tokens_per_s is None:
        return None
    kind = row["tokens_per_s_kind"]
    return tokens_per_s / (job.batch if kind == "per-sequence" else job.n_gpus if kind == "per-gpu" else 1)


def evaluate(row: dict[str, str], catalog) -> Outcome:
    n = _int(row, "n_gpus", 1)
    base = dict(row_id=row["id"], group=row["group"], engine=row["engine"], n_gpus=n,
                trusted=row.get("trusted") == "yes", split=part_of(row), measured=float(row["tokens_per_s"]))
    gpu = gpu_id_of(row["gpu"], catalog)
    if gpu is None:
        return Outcome(**base, skipped=f"no catalog GPU for {row['gpu']}")
    base["gpu_id"], base["family"] = gpu, catalog.gpus[gpu].speed_family
    arch = catalog.models.get(row.get("model_id") or "")
    if arch is None:
        return Outcome(**base, skipped=f"no model preset for {row['model']}")
    job = job_of(row)
    skipped = _left_out(row, arch, catalog.gpus[gpu], job)
    if skipped is not None:
        return Outcome(**base, skipped=skipped)
    assert not isinstance(job, str)
    try:
        build = hardware_of(row, catalog, gpu, n)
        refused = check_planned(arch, job, build)
        if refused:  # what the window shows as blocked and the CLI reports as a problem, with no speed
            return Outcome(**base, skipped=f"the app refuses the job: {refused[0].message}")
        value, skipped = _estimated(row, arch, job, build, base["measured"])
    except ValueError as exc:
        return Outcome(**base, skipped=f"not estimable: {exc}".splitlines()[0])
    if skipped is not None:
        return Outcome(**base, skipped=skipped)
    if value is None:
        return Outcome(**base, skipped="the catalog lacks a figure the speed needs")
    return Outcome(**base, estimate=value)


def _left_out(row: dict[str, str], arch, gpu, job) -> str | None:
    """Why the row is not scored before any estimate (its job, another backend, a filler MoE, a build of an era the app
    does not model: ``build_eras``, machines whose network is not stated); None to score it."""
    if isinstance(job, str):
        return job
    backend = other_backend(row)
    if backend is not None:
        return backend
    return (filler_weight_moe(row, arch) or pre_graph_build(row, gpu) or pre_v1_vllm(row)
            or pre_matrix_mmq_build(row, gpu) or unstated_network(row))


def _estimated(row: dict[str, str], arch, job, build, measured: float) -> tuple[float | None, str | None]:
    """The app's tokens/s in the row's unit (None where the catalog lacks a figure), or why the row is a known gap."""
    if row["group"] == "train":
        if (bound := fp32_train_bound(arch, job, build)) is not None and measured > bound:
            return None, (f"known gap: FP32 training measured above {bound:,.0f} tokens/s, the most FP32 matmuls at the "
                          "card's FP32 peak allow: they ran TF32, which the app has no option for")
        return in_row_unit(estimate(arch, job, build).speed.train_tokens_per_s, row, job), None
    est = estimate(arch, job, build)
    bound = weight_read_bound(row, arch, job, build, est.memory.weights)
    if bound is not None and measured > bound:
        return None, (f"known gap: measured above {bound:,.0f}, the most its job allows "
                      "(each step reads the weights at the cards' peak bandwidth)")
    if row["group"] == "prefill":
        return est.speed.prefill_tokens_per_s, None
    if (row.get("rate") or "").strip() == "request-all":  # every token of the request over the app's request time
        seconds = est.speed.request_s
        return in_row_unit(None if seconds is None else job.context_len * job.batch / seconds, row, job), None
    # The request's generated tokens/s, prefill included ("incl. prefill"), or the decode rate alone ("decode").
    tps = est.speed.request_tokens_per_s if publishes_request_rate(row) else est.speed.decode_tokens_per_s
    return in_row_unit(tps, row, job), None


def publishes_request_rate(row: dict[str, str]) -> bool:
    """Whether a decode row's figure is its request's rate, the prefill inside (the app's "incl. prefill"
    line), rather than the decode rate alone (the app's "decode" line) of the same job. The ``rate`` column
    says which (``request`` / ``decode``): a source that times the generated tokens only (llama-server's
    ``predicted_per_second``, Ollama's ``eval rate``, 1 / TPOT) publishes ``decode``; ``request-all`` is a request's
    prompt and generated tokens over its whole time (llama-bench's ``-pg`` test: compared with every token of the
    request over the app's request time, ``SpeedEstimate.request_s``). Empty: a request's rate when the row states a generated
    length; a row that states none publishes the engine's generation rate (ExLlamaV2's README table, llama-bench
    ``tg`` after a filled context)."""
    rate = (row.get("rate") or "").strip()
    if rate:
        if rate not in ("request", "request-all", "decode"):
            raise ValueError(f"row {row.get('id')}: rate {rate!r} is not 'request', 'request-all' or 'decode'")
        return rate != "decode"
    return bool((row.get("gen_tokens") or "").strip())


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.9 * (len(ordered) - 1))))]


def group_of(o: Outcome) -> str:
    if o.group == "train":
        return "training"
    if o.group == "prefill":
        return "prefill 1 GPU" if o.n_gpus == 1 else "prefill multi-GPU"
    return "decode 1 GPU" if o.n_gpus == 1 else "decode multi-GPU"


def summarize(outcomes: list[Outcome], split: str | None = None) -> dict[str, tuple[int, float, float]]:
    """(rows, median %, p90 %) per group, per engine and overall, over the trusted scored rows
    (of one ``split`` only when given)."""
    scored = [o for o in outcomes if o.estimate is not None and o.trusted and split in (None, o.split)]
    out = {}
    keys = sorted({group_of(o) for o in scored}) + sorted({f"engine {o.engine}" for o in scored}) + ["overall"]
    for key in keys:
        errs = [o.error_pct for o in scored if key == "overall" or key == group_of(o) or key == f"engine {o.engine}"]
        if errs:
            out[key] = (len(errs), statistics.median(errs), p90(errs))
    return out


#: The targets, absolute % error: group -> (median at most, p90 at most; None: no p90 target). Decode and
#: prefill alike on one GPU and on several, training tokens/s tightened from a median of 20 % once its
#: mechanisms were measured (history in benchmarks/README.md).
TARGETS = {"decode 1 GPU": (10.0, 25.0), "decode multi-GPU": (10.0, 25.0), "prefill 1 GPU": (15.0, 35.0),
           "prefill multi-GPU": (15.0, 35.0), "training": (15.0, 25.0)}


def by_family(outcomes: list[Outcome], split: str | None = None) -> dict[str, tuple[int, float, float]]:
    """(rows, median %, p90 %) per GPU family and group ('NVIDIA sm_89 · decode 1 GPU'), trusted scored rows
    (of one ``split`` only when given): what the README's per-family table shows."""
    scored = [o for o in outcomes if o.estimate is not None and o.trusted and split in (None, o.split)]
    groups: dict[str, list[float]] = {}
    for o in scored:
        groups.setdefault(f"{o.family} · {group_of(o)}", []).append(o.error_pct)
    return {k: (len(v), statistics.median(v), p90(v)) for k, v in sorted(groups.items())}


def target_misses(summary: dict[str, tuple[int, float, float]]) -> list[str]:
    """The groups of ``summary`` (``summarize``) over a target or without a row, in words; empty when all are
    met."""
    misses = []
    for group, (median_max, p90_max) in TARGETS.items():
        if group not in summary:
            misses.append(f"{group}: no rows")
            continue
        _n, med, top = summary[group]
        if med > median_max:
            misses.append(f"{group} median {med:.1f} > {median_max:g}")
        if p90_max is not None and top > p90_max:
            misses.append(f"{group} p90 {top:.1f} > {p90_max:g}")
    return misses


def load_rows(path: Path = CSV) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", action="store_true", help="print every row")
    ap.add_argument("--families", action="store_true", help="also print the error per GPU family and group")
    args = ap.parse_args(argv)
    catalog = load_catalog().catalog
    outcomes = [evaluate(r, catalog) for r in load_rows()]
    if args.rows:
        for o in outcomes:
            tail = o.skipped or f"est {o.estimate:10.1f} err {o.error_pct:6.1f} %"
            print(f"{o.row_id:<58} {o.engine:<13} {_PART_TAG[o.split]:<5} meas {o.measured:10.1f}  {tail}")
    skipped = [o for o in outcomes if o.estimate is None]
    print(f"rows: {len(outcomes)}, scored: {len(outcomes) - len(skipped)}, skipped: {len(skipped)}")
    gaps: dict[str, list[str]] = {}  # trusted rows no option of the app expresses, by reason (not scored)
    for o in skipped:
        if o.trusted and o.skipped.startswith("known gap: "):
            gaps.setdefault(o.skipped.removeprefix("known gap: ").split(" (")[0], []).append(o.row_id)
    print(f"known gaps (trusted rows not scored): {sum(map(len, gaps.values()))}")
    for reason, ids in gaps.items():
        print(f"  {len(ids):3d} {reason}: {', '.join(ids[:3])}{', …' if len(ids) > 3 else ''}")
    names = (*sources.PARTS, "all")
    parts = {name: summarize(outcomes, None if name == "all" else name) for name in names}
    _print_table("trusted rows", parts)
    if args.families:
        _print_table("GPU family · group", {name: by_family(outcomes, None if name == "all" else name)
                                            for name in names}, width=44)
    print("targets (median / p90 %: decode 10 / 25, prefill 15 / 35 on one GPU and on several, training 15 / 25); "
          "'held-out' counts only sources never seen while a mechanism was chosen (benchmarks/sources.py):")
    for name, part in parts.items():
        misses = target_misses(part)
        print(f"  {name:<15} {'met' if not misses else 'missed: ' + '; '.join(misses)}")
    return 0


_PART_TAG = {sources.CALIBRATION: "calib", sources.HELD_OUT_SEEN: "seen", sources.HELD_OUT: "held"}


def _print_table(title: str, parts: dict[str, dict[str, tuple[int, float, float]]], width: int = 24) -> None:
    print(f"{title:<{width}}" + "".join(f" {name:>24}" for name in parts))
    print(f"{'':<{width}}" + f" {'rows':>6} {'median %':>9} {'p90 %':>7}" * len(parts))
    keys = list(dict.fromkeys(k for part in parts.values() for k in part))
    keys = sorted((k for k in keys if k != "overall"), key=lambda k: (k.startswith("engine "), k))
    keys += ["overall"] if any("overall" in part for part in parts.values()) else []
    for key in keys:
        cells = [parts[name].get(key) for name in parts]
        print(f"{key:<{width}}" + "".join(f" {c[0]:6d} {c[1]:9.1f} {c[2]:7.1f}" if c else f" {'-':>6} {'-':>9} {'-':>7}"
                                          for c in cells))


if __name__ == "__main__":
    sys.exit(main())
