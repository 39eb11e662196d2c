"""FLOPs per token, peak rates of a GPU, and the measured efficiencies that turn peaks into speed.

Forward FLOPs per token = 2 × (weights a token multiplies) + attention (Kaplan et al. 2020,
arXiv:2001.08361 Table 1; the attention term as Hoffmann et al. 2022, "Chinchilla",
arXiv:2203.15556 Appendix F counts it: QKᵀ logits and the softmax-weighted sum of values,
2·d_head·n_heads·ctx each per layer). Training = forward + backward = 3 × forward
(backward computes activation and weight gradients, 2× forward), the 6N of Kaplan /
Chinchilla; full activation recomputation runs the forward twice: 8N (Korthikanti et al.
2022, arXiv:2205.05198 §5: "the FLOPs ... increases to 8" with recompute).
"""

from __future__ import annotations

import statistics
from functools import lru_cache

from advisor.core.hardware.records import Gpu
from advisor.core.job.choices import (
    Checkpointing,
    Engine,
    Method,
    Mode,
    Objective,
    Precision,
)
from advisor.core.job.job import Job
from advisor.core.memory.inference import sliding_window
from advisor.core.memory.states import trainable_params_of
from advisor.core.model.arch import AttentionKind, ModelArch
from advisor.core.model.params import count_params
from advisor.core.speed.gguf_paths import GgufPath, gguf_path, gguf_peak_flops
from advisor.core.speed.matmul_rates import MATMUL_ACHIEVABLE_TFLOPS, TYPICAL_MATMUL_SHARE
from advisor.core.units import TERA

# --- Efficiencies (achieved / peak), each from one published measurement ------------------
# Decode reads every weight once per step: llama.cpp llama-bench, RTX 3090, LLaMA 7B F16
# (12.55 GiB = 13.48 GB), tg128 = 48.52 t/s (ggml-org/llama.cpp PR #4766, master column):
# 48.52 × 13.48 GB = 654 GB/s of 936 GB/s.
DECODE_BANDWIDTH_EFFICIENCY = 48.52 * 12.55 * 1.073741824 / 936
# Matmul-bound inference (prefill, large-batch decode): same PR, RTX 3090, LLaMA 7B F16
# pp512 = 4407 t/s → 2 × 6.74e9 × 4407 = 59.4 TFLOP/s of the 142 TFLOP/s FP16 tensor peak
# (FP16 accumulate, which llama.cpp's cuBLAS F16 GEMM uses). Applied to whatever peak the
# engine runs at (see ``peak_flops``). The 3090's measured matmul rate (``matmul_rates``) is of its FP32-accumulate
# peak, not this one, so it does not move this share (``matmul_share``).
INFERENCE_COMPUTE_EFFICIENCY = 2 * 6.74e9 * 4407 / 142e12

# The per-engine figures (bandwidth and compute shares, the per-token floor of a decode step)
# are fitted to published tokens/s in ``advisor.core.speed.engine_speed``; the two above are its
# priors (where no calibration row constrains a constant) and what training's dequantisation
# kernels run at.
# Training model-FLOPs utilisation, kept apart by what it belongs to (each figure is of a card of typical
# matmul efficiency, ``TYPICAL_MATMUL_SHARE``; a card's own measured share moves it, ``train_matmul_factor``):
# * the GPU family (compute capability or gfx target, ``Gpu.speed_family``): what a pre-training stack reaches
#   there. Llama 3 pre-training reached 38-43 % BF16 MFU on H100 (Dubey et al. 2024, arXiv:2407.21783
#   Table 4): the low end, ``TRAIN_MFU``, is taken for every family without a calibration row of its own
#   (Hopper itself, Ada, Blackwell, the GA10x chips of compute capability 8.6, AMD, ...; stated in the
#   estimate's notes);
TRAIN_MFU = 0.38
#: The family whose pre-training figure ``TRAIN_MFU`` was measured on (Llama 3's H100s).
TRAIN_MFU_MEASURED_FAMILY = "NVIDIA sm_90"
# ... and by family where a calibration source measured a pre-training framework (``PRETRAINING_FRAMEWORKS``)
# there, fitted by benchmarks/speed_calibration.py (``train_mfu_fit``: the geometric mean, over calibration
# training rows run in bf16 without torch.compile, of measured tokens/s x ``train_flops_per_token`` / (the
# bf16 peak x the card's ``train_matmul_factor``)). NVIDIA sm_80 (GA100: A100, A30): torchtitan
# docs/performance.md at 1ea476e9 (FSDP2 on 64 A100 80GB, eager): Llama 2 13B without checkpointing 2,162
# tokens/s per GPU (0.569 of the peak), Llama 3 70B and Llama 2 70B with full checkpointing 331 and 353 (0.635,
# 0.646; the recomputed forward counted, as ``train_flops_per_token`` counts it); the A100 reaches 86.9 % of
# its peak in matmuls where a typical card reaches 80.3 % (``MATMUL_ACHIEVABLE_TFLOPS``): 0.62 / 1.082 = 0.57
# on a typical card; 0.50 (0.54 of an A100's peak) with torchtitan PR #355's Llama 3 8B on 8 A100s (batch 1 x 8,192,
# per-op selective checkpointing: 2,615 and 2,714 tokens/s per GPU, 0.44-0.45 of the peak). Measured on GA100 only,
# it is not applied to the GA10x chips (RTX 30, RTX A6000, A10, A40: compute capability 8.6, another SM and memory
# system), which keep ``TRAIN_MFU``.
TRAIN_MFU_BY_FAMILY: dict[str, float] = {"NVIDIA sm_80": 0.50}
# ... and, for a family timed only against another family with the same script (model, data, batch, precision,
# trainer), its figure as a share of that family's: the measured speed ratio over the ratio the cards' peaks and
# matmul shares give at equal figures. AMD gfx1100 against NVIDIA sm_86: AUGMXNT/rdna3-training-tests README.md at
# 38df683d (2024-02-18; LLaMA-Factory, the HF Trainer, TinyLlama 1.1B, LoRA on q and v, fp16, batch 4 x 4, three
# epochs of wiki_demo; ROCm 6.0 against CUDA): RX 7900 XTX 886 s LoRA and 887 s QLoRA, RTX 3090 706 s and 717 s, a
# speed ratio of 0.80 (geometric mean), where the peaks (122.8 and 71.2 TFLOP/s) and the two cards' measured matmul
# shares (``MATMUL_ACHIEVABLE_TFLOPS``: the 7900 XTX 71.7 %; the 3090 its whole peak, since the twelfth session — 0.52
# before, with the 3090 taken at a typical card's share) give 1.24: 0.80 / 1.24 = 0.65. The same runs check the model across NVIDIA
# families: the RTX 4090 took 305 s and 308 s, 2.31 and 2.33 times as fast as the 3090, where the peaks give 2.32.
# (A test recomputes the share from these seconds and the catalog's cards.)
TRAIN_MFU_RELATIVE: dict[str, tuple[str, float]] = {"AMD gfx1100": ("NVIDIA sm_86", 0.65)}
TRAIN_MFU_RELATIVE_SOURCE: dict[str, str] = {
    "AMD gfx1100": "the same LLaMA-Factory run timed on an RX 7900 XTX and an RTX 3090 (AUGMXNT/rdna3-training-tests)"}
#: Frameworks whose calibration rows give a family's figure, which every other framework is measured against.
PRETRAINING_FRAMEWORKS = ("torchtitan",)
# * the framework: a fine-tuning framework measured on a family reaches its figure there, and the same share
#   of a pre-training stack's figure on every other family (``train_mfu``). ("hf", "NVIDIA sm_90"): this
#   project's measurement on one H100 SXM (tests/data/device/h100-sxm-2026-11-26.jsonl,
#   benchmarks/gpu_measure.py; HF Trainer, transformers 5.17, bf16=True, PyTorch's foreach AdamW
#   ('adamw_torch'), batch 1 x 2,048 tokens), each step less its optimizer step (``training.optimizer_step_
#   seconds`` of the foreach kernel: 1.3 ms for LoRA 8B, 38.0 ms for the full 1B): Llama 3.1 8B LoRA r=16
#   all-linear 7,566 tokens/s (0.245) and with full checkpointing 4,834 (0.233; the recomputed forward
#   counted), Llama 3.2 1B full fine-tune 19,426 (0.240) and with full checkpointing 16,082 (0.242);
#   geometric mean 0.24 (the H100's matmul share is the typical one). An eager single-GPU step of the HF
#   Trainer reaches 0.24 / 0.38 = 0.63 of what Llama 3's pre-training reached on H100: on an A100 it is
#   taken at 0.63 x 0.50, on an RTX 4090 at 0.63 x 0.38. (Timing the optimizer step as a fused kernel's
#   had left 0.181-0.244: the foreach step's extra passes are what split the 1B rows from the 8B ones.)
TRAIN_MFU_BY_FRAMEWORK: dict[tuple[str, str], float] = {("hf", "NVIDIA sm_90"): 0.24}
#: ... where each of those was measured, in the estimate's notes.
TRAIN_MFU_MEASURED_ON: dict[tuple[str, str], str] = {("hf", "NVIDIA sm_90"): "the HF Trainer measured on one H100"}


def measured_peak_tflops(gpu: Gpu, precision: str) -> float | None:
    """The datasheet peak a ``MATMUL_ACHIEVABLE_TFLOPS`` row of ``precision`` ("16", "8") is a share of: FP8, or
    16-bit with FP32 accumulation (the card's BF16 figure; its FP16-accumulate one where it has no other)."""
    return gpu.fp8_tflops_dense if precision == "8" else (gpu.bf16_tflops_dense or gpu.fp16_acc16_tflops_dense)


def card_matmul_factor(gpu: Gpu, precision: str = "16") -> float:
    """How much more (> 1) or less of that peak ``gpu``'s matmuls reach than a typical card's
    (``MATMUL_ACHIEVABLE_TFLOPS`` / ``measured_peak_tflops``, capped at the peak, over ``TYPICAL_MATMUL_SHARE``; 1
    where not measured): a fact of the card, apart from any framework or engine (an MI300X reaches 51 % of its
    1,307 TFLOP/s, an H100 80 %)."""
    mamf, peak = MATMUL_ACHIEVABLE_TFLOPS.get((gpu.id, precision)), measured_peak_tflops(gpu, precision)
    if mamf is None or not peak:
        return 1.0
    return min(1.0, mamf / peak) / TYPICAL_MATMUL_SHARE


def train_matmul_factor(gpu: Gpu) -> float:
    """``card_matmul_factor`` of the card's BF16 GEMMs, which training runs."""
    return card_matmul_factor(gpu, "16")


def train_mfu(gpu: Gpu, framework: str = "torchtitan") -> float:
    """Model-FLOPs utilisation of eager bf16 training on ``gpu`` with ``framework``: the framework's share of a
    pre-training stack's figure (1 for a pre-training framework or one never measured; ``TRAIN_MFU_BY_FRAMEWORK``
    over the pre-training figure of the family it was measured on) × the pre-training figure of the GPU's family
    (``_family_mfu``) × the card's ``train_matmul_factor``."""
    return _framework_share(framework) * _family_mfu(gpu.speed_family) * train_matmul_factor(gpu)


def _family_mfu(family: str) -> float:
    """A pre-training stack's figure on ``family``: fitted there (``TRAIN_MFU_BY_FAMILY``), else as a share of a
    family it was timed against (``TRAIN_MFU_RELATIVE``), else ``TRAIN_MFU``."""
    if family in TRAIN_MFU_BY_FAMILY:
        return TRAIN_MFU_BY_FAMILY[family]
    if family in TRAIN_MFU_RELATIVE:
        reference, share = TRAIN_MFU_RELATIVE[family]
        return share * TRAIN_MFU_BY_FAMILY.get(reference, TRAIN_MFU)
    return TRAIN_MFU


def has_pretraining_figure(family: str) -> bool:
    """Whether a pre-training figure was measured on ``family`` (only there is a framework's share separable): fitted
    there, or timed against a family whose figure was (RDNA 3's is a share of GA10x's, which none measured)."""
    measured = family == TRAIN_MFU_MEASURED_FAMILY or family in TRAIN_MFU_BY_FAMILY
    return measured or (family in TRAIN_MFU_RELATIVE and has_pretraining_figure(TRAIN_MFU_RELATIVE[family][0]))


@lru_cache(maxsize=16)
def _framework_share(framework: str) -> float:
    """The framework's figure over a pre-training stack's on the families it was measured on (geometric mean)."""
    shares = [m / _family_mfu(fam) for (f, fam), m in TRAIN_MFU_BY_FRAMEWORK.items() if f == framework]
    return statistics.geometric_mean(shares) if shares else 1.0


def train_mfu_source(gpu: Gpu, framework: str = "torchtitan") -> str:
    """Where ``train_mfu``'s figure comes from, in words for the estimate's notes."""
    family = gpu.speed_family
    measured = [(f, fam) for f, fam in TRAIN_MFU_BY_FRAMEWORK if f == framework]
    if (framework, family) in TRAIN_MFU_BY_FRAMEWORK:
        where = TRAIN_MFU_MEASURED_ON[(framework, family)]
    elif measured:
        if family in TRAIN_MFU_RELATIVE:
            reference, share = TRAIN_MFU_RELATIVE[family]
            scaled = f", at {share:.2f} of {reference}'s figure on {family}: {TRAIN_MFU_RELATIVE_SOURCE[family]}"
        else:
            scaled = (f", scaled to {family} by what torchtitan reaches there" if family in TRAIN_MFU_BY_FAMILY
                      else f"; taken as on the H100 for {family}, where no run calibrates it")
        where = TRAIN_MFU_MEASURED_ON[measured[0]] + scaled
    elif family in TRAIN_MFU_BY_FAMILY:
        where = f"torchtitan FSDP on A100, the GPU's family ({family})"
    elif family in TRAIN_MFU_RELATIVE:
        reference, share = TRAIN_MFU_RELATIVE[family]
        where = f"{family} at {share:.2f} of {reference}'s: {TRAIN_MFU_RELATIVE_SOURCE[family]}"
    else:
        where = f"Llama 3, H100; {family} unmeasured"
    factor = train_matmul_factor(gpu)
    return where + (f"; this card's matmuls reach {factor:.2f}x a typical card's share of its peak"
                    if abs(factor - 1) > 0.01 else "")


def generation(architecture: str) -> str:
    """A GPU's generation: the first word of ``Gpu.architecture`` ("Ampere (GA102)" -> "Ampere")."""
    return architecture.split(" ", 1)[0]


#: FP32 lanes per streaming multiprocessor (results per clock of a 32-bit floating-point multiply-add):
#: 64 on compute capability 6.0, 7.x and 8.0, 128 on 5.x, 6.1, 8.6, 8.9, 9.0 and later (CUDA C++ Programming
#: Guide, "Arithmetic Instructions", throughput table; warp shuffles are 32 per clock on every one of them).
#: By the chip named in ``Gpu.architecture`` ("Ampere (GA100)") where its generation holds both kinds, else by
#: the generation; an architecture named neither way takes 128, the lanes of every generation since Ampere's
#: GA10x.
FP32_LANES_64_CHIPS = ("GP100", "GV100", "GA100")  # Pascal's, Volta's and Ampere's data-center chips
FP32_LANES_64_GENERATIONS = ("Volta", "Turing")


def fp32_lanes_per_sm(architecture: str) -> int:
    """FP32 lanes per SM of a GPU of ``architecture`` (``FP32_LANES_64_CHIPS``, ``FP32_LANES_64_GENERATIONS``)."""
    if generation(architecture) in FP32_LANES_64_GENERATIONS or any(c in architecture for c in FP32_LANES_64_CHIPS):
        return 64
    return 128


# torch.compile (``PlannedJob.compile``): Inductor fuses the elementwise work between the matmuls
# (norms, activations, rotary, residual adds) into fewer kernels, so a step spends less time off the
# tensor cores. Training throughput × 1.18, the geometric mean of the calibration sources' pairs with and without
# it (printed by benchmarks/speed_calibration.py): torchtitan docs/performance.md at d4c86e37 (Llama 3.1 8B,
# FSDP, H100, selective checkpointing), Table 1, FSDP 5,762 -> FSDP + torch.compile 6,667 TPS/GPU on 8 GPUs and
# 5,605 -> 6,514 on 128; torchtitan PR #1690's Qwen3-32B on 8 H100s; and (twenty-fourth session, 1.16 before) a
# torchtitan study on 8 GB200s (daddyofadoggy/blog at db07f840: Llama 3.1 8B FSDP 18,831 -> 20,849, Qwen3-32B
# FSDP 4 x TP 2 3,274 -> 4,249). Several of those rows infer a setting (trusted=no); both rows of a pair share it,
# so their ratio does not depend on it.
TRAIN_COMPILE_SPEEDUP = 1.18
# QLoRA dequantizes each 4-bit weight to bf16 before every matmul (bitsandbytes
# dequantize_4bit: read 4-bit codes + scales, write bf16), a memory-bound kernel. Bytes per
# weight moved: 0.5 read + 2 written + 2 read back by the matmul.
QLORA_DEQUANT_BYTES_PER_WEIGHT = 0.5 + 2 + 2


def matmul_params(arch: ModelArch) -> float:
    """Weights one token multiplies: active parameters minus the embedding lookup (not a
    matmul), plus the output projection even when it is tied to the embedding."""
    c = count_params(arch)
    return c.active - c.embedding - c.lm_head + arch.vocab_size * arch.hidden_size


def attention_flops_per_token(arch: ModelArch, attended: float) -> float:
    """Forward attention FLOPs of one token that attends to ``attended`` earlier tokens:
    Σ_layers 2·n_heads·(d_qk + d_v)·ctx (Chinchilla App. F), sliding layers capped at the
    window. Callers pass ctx/2 for a causal prompt or training sequence (flash attention
    skips masked blocks) and the full context for a decode step."""
    att = arch.attention
    if att.kind is AttentionKind.MLA:
        d_qk = (att.qk_nope_head_dim or arch.head_dim) + (att.qk_rope_head_dim or 0)
        d_v = att.v_head_dim or arch.head_dim
    else:
        d_qk = d_v = arch.head_dim
    per_layer = 2 * arch.n_heads * (d_qk + d_v)
    if att.kind is AttentionKind.SLIDING:
        n_slide = arch.n_layers if att.sliding_layers is None else min(att.sliding_layers, arch.n_layers)
        window = min(attended, sliding_window(arch))
        return per_layer * (n_slide * window + (arch.n_layers - n_slide) * attended)
    return per_layer * arch.n_layers * attended


def forward_flops_per_token(arch: ModelArch, attended: float) -> float:
    """2 × matmul weights + attention (Kaplan Table 1 / Chinchilla App. F)."""
    return 2 * matmul_params(arch) + attention_flops_per_token(arch, attended)


def trainable_params(arch: ModelArch, job: Job) -> float:
    if job.mode is Mode.INFERENCE:
        return 0.0
    return trainable_params_of(arch, job)


def train_flops_per_token(arch: ModelArch, job: Job) -> float:
    """Training FLOPs per token, forward + backward (+ recompute).

    Full fine-tuning: 3 × forward (6N + 3·attn). LoRA/QLoRA: the frozen base needs no weight
    gradients, so the backward is activation gradients only (2N + 2·attn), plus the
    adapters' 6 FLOPs per adapter weight (Hu et al. 2021, arXiv:2106.09685; an adapter of r
    columns costs 2r(d_in+d_out) per token forward): 4N + 3·attn + 6·N_lora. Full
    checkpointing adds one more forward; selective recomputes only the attention core
    (Korthikanti §4.2). LitGPT's adapters are counted like LoRA (a frozen base, 6 FLOPs per
    trained weight; the prompt's attention over 10 keys and v2's elementwise scales are
    negligible). A reward model has no vocabulary projection (a scalar head instead).
    """
    n = matmul_params(arch)
    if job.objective is Objective.REWARD:
        n -= arch.vocab_size * arch.hidden_size
    attn = attention_flops_per_token(arch, job.seq_len / 2)
    if job.method is Method.FULL:
        fwd, total = 2 * n + attn, 6 * n + 3 * attn
    else:
        lora = trainable_params(arch, job)
        fwd, total = 2 * n + attn + 2 * lora, 4 * n + 3 * attn + 6 * lora
    if job.checkpointing is Checkpointing.FULL:
        total += fwd
    elif job.checkpointing is Checkpointing.SELECTIVE:
        total += attn
    return total


def peak_flops(gpu: Gpu, job: Job) -> float | None:
    """Dense tensor peak the workload's kernels run at, FLOP/s (None: not published).

    fp32 work runs on the non-tensor FP32 units (PyTorch leaves TF32 matmuls off by default
    since 1.12); llama.cpp and Ollama at the peak of the kernel path their weights take
    (``gguf_paths``: F16 GEMMs accumulate in FP16, the GeForce 2× rate; quantized weights on the int8
    tensor cores, with dp4a on the CUDA cores, on Metal's FP32 pipelines); everything else is
    BF16/FP16 with FP32 accumulate (reference gpus.csv column definitions).
    """
    fp32 = (job.mode is Mode.TRAIN and job.precision is Precision.FP32) or (
        job.mode is Mode.INFERENCE and job.weights.lower() == "fp32")
    if fp32:
        tflops = gpu.fp32_tflops
    elif job.mode is Mode.INFERENCE and job.engine.gguf:  # the kernel path of its weights' format
        return gguf_peak_flops(gpu, job.weights)
    elif runs_fp8(gpu, job):
        tflops = gpu.fp8_tflops_dense
    else:
        tflops = gpu.bf16_tflops_dense or gpu.fp16_acc16_tflops_dense
    return None if tflops is None else tflops * TERA


def runs_fp8(gpu: Gpu, job: Job) -> bool:
    """FP8 checkpoints in vLLM/SGLang/TensorRT-LLM run W8A8 GEMMs on FP8 tensor cores (vLLM docs
    "FP8 W8A8": dynamic per-token activation scales) at twice the BF16 rate, where the card has them."""
    return bool(job.mode is Mode.INFERENCE and job.weights.lower() == "fp8" and gpu.fp8_tflops_dense
                and job.engine is not Engine.TRANSFORMERS and not job.engine.gguf)


# --- How much of its tensor peak a card's matmuls can reach: ``matmul_rates`` (the measured table) -----------


def matmul_share(gpu: Gpu, job: Job) -> float:
    """How much more (> 1) or less of its tensor peak ``gpu`` reaches than a typical card
    (``MATMUL_ACHIEVABLE_TFLOPS`` / the peak the workload runs at, over ``TYPICAL_MATMUL_SHARE``);
    1 where the table has no row for the card and precision."""
    if job.mode is Mode.INFERENCE and job.engine.gguf and gguf_path(gpu, job.weights) is not GgufPath.CUBLAS:
        return 1.0  # measured for BF16 / FP8 GEMMs only: no figure for llama.cpp's int8 or Metal kernels
    precision = "8" if runs_fp8(gpu, job) else "16"
    peak, measured_at = peak_flops(gpu, job), measured_peak_tflops(gpu, precision)
    if not peak or not measured_at or abs(peak / TERA - measured_at) > 1e-6 * measured_at:
        # not the peak the measurement ran at: a GeForce card's FP16-accumulate GEMMs (llama.cpp's F16 prompts) run
        # at twice its FP32-accumulate peak under the same power limit, where its PyTorch rate says nothing
        return 1.0
    return card_matmul_factor(gpu, precision)


def bandwidth_bytes_per_s(gpu: Gpu) -> float | None:
    return None if gpu.mem_bandwidth_gb_per_s is None else gpu.mem_bandwidth_gb_per_s * 1e9
