"""The support table: one row per (feature, backend), with its condition, its words and its source.

A *feature* is something a job asks of the software: an inference engine, a training framework, a
weight format or a kernel (bitsandbytes 4-bit, FP8 weights in one engine, FlashAttention-2 …). A row
says whether the feature runs on one backend (CUDA, ROCm, Metal, XPU), and for CUDA from which compute
capability, for ROCm on which gfx targets. A row with ``backend=None`` covers every backend the feature
has no row of its own for (a CPU-only "GPU" included). A (feature, backend) pair with no row at all is
not judged: nothing sourced says either way.

Verdicts: *runs*; *cannot run* (the software has no build for that hardware, or no kernel for that
format there); *not modelled* (it runs there only through another runtime — MLX on Apple silicon —
whose memory and speed this app's figures do not describe). Both of the last two make a build
"cannot run" before any memory arithmetic (``advisor.core.support.check``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from advisor.core.hardware.backend import Backend


class Feature(StrEnum):
    """What a job asks of the software; ``label`` is its name in a sentence, ``field`` the job setting it
    comes from (the window points at that control, the CLI at that flag)."""

    TRANSFORMERS = "engine:transformers"
    VLLM = "engine:vllm"
    SGLANG = "engine:sglang"
    LLAMA_CPP = "engine:llama.cpp"
    OLLAMA = "engine:ollama"
    EXLLAMAV2 = "engine:exllamav2"
    TENSORRT_LLM = "engine:tensorrt-llm"
    DEEPSPEED_FASTGEN = "engine:deepspeed"
    UNSLOTH = "framework:unsloth"
    BNB_4BIT = "weights:bnb-4bit"
    BNB_INT8 = "weights:bnb-int8"
    BNB_OPTIMIZER = "optimizer:bnb"
    GGUF_IN_TRANSFORMERS = "weights:gguf-transformers"
    FP8_VLLM = "weights:fp8-vllm"
    FP8_TRANSFORMERS = "weights:fp8-transformers"
    FP8_TENSORRT_LLM = "weights:fp8-tensorrt-llm"
    FP8_KV_TENSORRT_LLM = "kv_dtype:fp8-tensorrt-llm"
    FP8_KV_LLAMA_CPP = "kv_dtype:fp8-llama.cpp"
    FLASH_ATTENTION_2 = "attention:flash-attention-2"
    MXFP4_GGML = "weights:mxfp4-ggml"
    MXFP4_VLLM = "weights:mxfp4-vllm"
    MXFP4_TRANSFORMERS = "weights:mxfp4-transformers"
    MXFP4_SGLANG = "weights:mxfp4-sglang"
    MXFP4_OTHER = "weights:mxfp4-other"

    @property
    def field(self) -> str:
        """The workload field a refusal is blamed on ('engine', 'weights', 'optimizer' …)."""
        return self.value.split(":", 1)[0]

    @property
    def label(self) -> str:
        return FEATURE_LABELS[self]


FEATURE_LABELS = {
    Feature.TRANSFORMERS: "transformers", Feature.VLLM: "vLLM", Feature.SGLANG: "SGLang",
    Feature.LLAMA_CPP: "llama.cpp", Feature.OLLAMA: "Ollama", Feature.EXLLAMAV2: "ExLlamaV2",
    Feature.TENSORRT_LLM: "TensorRT-LLM", Feature.DEEPSPEED_FASTGEN: "DeepSpeed-FastGen", Feature.UNSLOTH: "Unsloth",
    Feature.BNB_4BIT: "bitsandbytes 4-bit (NF4/FP4, what QLoRA trains on)",
    Feature.BNB_INT8: "bitsandbytes LLM.int8()", Feature.BNB_OPTIMIZER: "bitsandbytes' 8-bit and paged optimizers",
    Feature.GGUF_IN_TRANSFORMERS: "a GGUF file in transformers",
    Feature.FP8_VLLM: "vLLM's FP8 weights", Feature.FP8_TRANSFORMERS: "transformers' FP8 weights",
    Feature.FP8_TENSORRT_LLM: "TensorRT-LLM's FP8 weights", Feature.FP8_KV_TENSORRT_LLM: "TensorRT-LLM's FP8 KV cache",
    Feature.FP8_KV_LLAMA_CPP: "an FP8 KV cache in llama.cpp", Feature.FLASH_ATTENTION_2: "FlashAttention-2",
    Feature.MXFP4_GGML: "MXFP4 weights in llama.cpp's kernels", Feature.MXFP4_VLLM: "vLLM's MXFP4 weights",
    Feature.MXFP4_TRANSFORMERS: "transformers' MXFP4 weights", Feature.MXFP4_SGLANG: "SGLang's MXFP4 weights",
    Feature.MXFP4_OTHER: "MXFP4 weights",
}


class Verdict(StrEnum):
    RUNS = "runs"
    CANNOT = "cannot run"
    NOT_MODELLED = "not modelled"


@dataclass(frozen=True)
class Rule:
    """One cell of the table. ``min_cc`` (CUDA) and ``gfx`` (ROCm; a trailing ``*`` is a prefix) narrow a
    *runs* row to the cards that meet them; ``why`` is the refusal in a buyer's words (a *cannot run* or
    *not modelled* row) and ``instead`` what to choose; ``source`` and ``version`` say where it comes from."""

    feature: Feature
    backend: Backend | None
    verdict: Verdict
    source: str
    version: str
    min_cc: tuple[int, int] | None = None
    gfx: tuple[str, ...] = ()
    why: str = ""
    instead: str = ""


R, C, N = Verdict.RUNS, Verdict.CANNOT, Verdict.NOT_MODELLED
CUDA, ROCM, METAL, XPU = Backend.CUDA, Backend.ROCM, Backend.METAL, Backend.XPU

_PYTORCH = ("PyTorch backends: CUDA and ROCm as torch.cuda (docs.pytorch.org/docs/2.8/notes/hip.html), Apple "
            "Metal as 'mps' (docs.pytorch.org/docs/2.8/notes/mps.html), Intel GPUs as 'xpu' "
            "(docs.pytorch.org/docs/2.8/notes/get_start_xpu.html)")
_VLLM_GPU = "docs.vllm.ai/en/v0.14.0/getting_started/installation/gpu/ ('Requirements' per GPU tab)"
_VLLM_APPLE = ("vllm-project/vllm docs/getting_started/installation/gpu.apple.inc.md at 0c007a5d (GPU only "
               "through the community vLLM-Metal plugin, MLX backend) and cpu.apple.inc.md (macOS build: CPU only)")
_VLLM_QUANT = ("vllm-project/vllm docs/features/quantization/supported_hardware.md at 01129ffb (FP8: Ada, Hopper, "
               "AMD GPU; not Intel GPU) and docs.vllm.ai features/quantization/fp8 ('FP8 models will run on compute "
               "capability >= 7.5 (Turing) as weight-only W8A16, utilizing FP8 Marlin')")
_SGLANG = "docs.sglang.io/docs/hardware-platforms/ (NVIDIA GPUs, AMD GPUs, XPU pages)"
_SGLANG_METAL = ("docs.sglang.io/docs/hardware-platforms/apple_metal (SGLANG_USE_MLX=1: MLX as the runtime; "
                 "without it torch.mps, 'which has less support')")
_LLAMA_CPP = ("ggml-org/llama.cpp README.md 'Supported backends' at a5410f04: Metal (Apple silicon), CUDA, HIP "
              "(AMD), SYCL (Intel), Vulkan")
_OLLAMA = ("ollama/ollama docs/gpu.mdx at fb307609: NVIDIA compute capability 5.0+, AMD through ROCm v7 and "
           "Vulkan, Metal, Intel through Vulkan")
_EXLLAMA = ("turboderp-org/exllamav2 setup.py at da07facd: one torch CUDAExtension, built for HIP when torch is "
            "a ROCm build; no Metal or SYCL kernels")
_TRT = ("NVIDIA/TensorRT-LLM docs/source/reference/support-matrix.md at 03dad628: 'optimizes ... on NVIDIA "
        "GPUs'; architectures Blackwell, Hopper, Ada Lovelace, Ampere; precision FP8 on SM89 and SM90 only")
_FASTGEN = ("deepspeedai/DeepSpeed-MII README.md and docs/source/quick-start.rst at 8abdd987: 'NVIDIA GPUs with "
            "compute capabilities 8.0+ (Ampere+)', '>=sm_80'")
_UNSLOTH = ("unslothai/unsloth README.md at 015bdef0: NVIDIA, AMD and Intel GPUs train; 'macOS: Training, MLX "
            "and GGUF inference'")
_BNB = ("bitsandbytes-foundation/bitsandbytes README.md 'Accelerator support' at tag 0.50.0 (c5d481be, "
        "2026-07-24)")
_FA2 = ("Dao-AILab/flash-attention README.md at 0251105a: CUDA 'Ampere, Ada, or Hopper GPUs' (Turing only in "
        "the separate flash-attention-turing repository); ROCm CK backend MI200x, MI250x, MI300x, MI355x, RDNA 3/4, "
        "Triton backend CDNA (MI200, MI300) and RDNA; no Metal or XPU build")
_HF_FP8 = ("transformers docs quantization/finegrained_fp8, v4.49 to v5.14: 'You need a GPU with Compute "
           "Capability>=9 (H100)'")
_HF_GGUF = ("transformers docs gguf (v4.56): 'The GGUF checkpoint is dequantized to fp32'; main "
            "quantization/gguf: packed blocks only for Qwen3.5 on Metal, every other case dequantized at load")
_LLAMA_KV = ("ggml-org/llama.cpp common/arg.cpp kv_cache_types at 145b6280: f32, f16, bf16, q8_0, q4_0, q4_1, "
             "iq4_nl, q5_0, q5_1")

_GGML_MXFP4 = ("ggml-org/llama.cpp ggml/src/ggml-cuda/vecdotq.cuh at cf1d533a (vec_dot_mxfp4_q8_1: ggml_cuda_dp4a over "
               "kvalues_mxfp4) and mmq.cu at b75c3912 (GGML_TYPE_MXFP4 in ggml_cuda_should_use_mmq); HIP builds the same "
               "ggml-cuda sources; Metal: ggml/src/ggml-metal/ggml-metal.metal at 000a1174 (dequantize_mxfp4, "
               "kvalues_mxfp4_f, e8m0_to_fp32). SYCL and Vulkan kernels not checked here")
_VLLM_MXFP4 = ("vllm-project/recipes OpenAI/GPT-OSS.md at 59dc5f18: H100, H200, B200, MI300x, MI325x, MI355x, Radeon AI "
               "PRO R9700; 'works on Ampere devices by default, using ... Marlin MXFP4 MoE'")
_HF_MXFP4 = ("transformers docs/source/en/quantization/mxfp4.md at ce0dfb5c: Triton >= 3.4 and 'NVIDIA GPU Compute "
             "Capability >= 7.5'; elsewhere the checkpoint is dequantized to bf16 at load")
_SGLANG_MXFP4 = ("sgl-project/sglang python/sglang/srt/layers/quantization/mxfp4.py at bafa16ec (Mxfp4Config: "
                 "get_min_capability 80; on ROCm from_config raises 'not support mxfp4 computation' unless "
                 "mxfp_supported()) and python/sglang/srt/utils/common.py at 4e75f468 (mxfp_supported: gfx95x only)")
_NOT_NVIDIA = "{what} runs on NVIDIA GPUs only; the {gpu} is {kind}"
_NO_ENGINE = "choose another engine, such as llama.cpp"

RULES: tuple[Rule, ...] = (
    # --- inference engines
    Rule(Feature.TRANSFORMERS, CUDA, R, _PYTORCH, "PyTorch 2.8"),
    Rule(Feature.TRANSFORMERS, ROCM, R, _PYTORCH, "PyTorch 2.8"),
    Rule(Feature.TRANSFORMERS, METAL, R, _PYTORCH, "PyTorch 2.8"),
    Rule(Feature.TRANSFORMERS, XPU, R, _PYTORCH, "PyTorch 2.8"),
    Rule(Feature.VLLM, CUDA, R, _VLLM_GPU, "vLLM 0.14", min_cc=(7, 0), instead=_NO_ENGINE),
    Rule(Feature.VLLM, ROCM, R, _VLLM_GPU, "vLLM 0.14",
         gfx=("gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1101", "gfx1200", "gfx1201", "gfx1150", "gfx1151"),
         instead=_NO_ENGINE),
    Rule(Feature.VLLM, XPU, R, _VLLM_GPU, "vLLM 0.14"),
    Rule(Feature.VLLM, METAL, N, _VLLM_APPLE, "vLLM 0.21",
         why="no vLLM on Mac GPUs; its Mac build runs on the CPU, and vLLM-Metal, a separate MLX plugin, is not "
             "modelled",
         instead="choose llama.cpp or Ollama"),
    Rule(Feature.SGLANG, CUDA, R, _SGLANG, "SGLang 0.5.12"),
    Rule(Feature.SGLANG, ROCM, R, _SGLANG, "SGLang 0.5.12"),
    Rule(Feature.SGLANG, XPU, R, _SGLANG, "SGLang 0.5.12"),
    Rule(Feature.SGLANG, METAL, N, _SGLANG_METAL, "SGLang 0.5.12",
         why="SGLang runs on a Mac through MLX; not the engine modelled here", instead="choose llama.cpp or Ollama"),
    Rule(Feature.LLAMA_CPP, CUDA, R, _LLAMA_CPP, "llama.cpp b5046"),
    Rule(Feature.LLAMA_CPP, ROCM, R, _LLAMA_CPP, "llama.cpp b5046"),
    Rule(Feature.LLAMA_CPP, METAL, R, _LLAMA_CPP, "llama.cpp b5046"),
    Rule(Feature.LLAMA_CPP, XPU, R, _LLAMA_CPP, "llama.cpp b5046"),
    Rule(Feature.OLLAMA, CUDA, R, _OLLAMA, "Ollama 2026-08", min_cc=(5, 0), instead="choose llama.cpp built for the card"),
    Rule(Feature.OLLAMA, ROCM, R, _OLLAMA, "Ollama 2026-08"),
    Rule(Feature.OLLAMA, METAL, R, _OLLAMA, "Ollama 2026-08"),
    Rule(Feature.OLLAMA, XPU, R, _OLLAMA, "Ollama 2026-08"),
    Rule(Feature.EXLLAMAV2, CUDA, R, _EXLLAMA, "ExLlamaV2 0.3"),
    Rule(Feature.EXLLAMAV2, ROCM, R, _EXLLAMA, "ExLlamaV2 0.3"),
    Rule(Feature.EXLLAMAV2, None, C, _EXLLAMA, "ExLlamaV2 0.3",
         why="ExLlamaV2 runs on NVIDIA (CUDA) and AMD (ROCm) GPUs only; the {gpu} is {kind}", instead=_NO_ENGINE),
    Rule(Feature.TENSORRT_LLM, CUDA, R, _TRT, "TensorRT-LLM 0.19", min_cc=(8, 0), instead=_NO_ENGINE),
    Rule(Feature.TENSORRT_LLM, None, C, _TRT, "TensorRT-LLM 0.19", why=_NOT_NVIDIA, instead=_NO_ENGINE),
    Rule(Feature.DEEPSPEED_FASTGEN, CUDA, R, _FASTGEN, "DeepSpeed-MII 0.3", min_cc=(8, 0), instead=_NO_ENGINE),
    Rule(Feature.DEEPSPEED_FASTGEN, None, C, _FASTGEN, "DeepSpeed-MII 0.3", why=_NOT_NVIDIA, instead=_NO_ENGINE),
    # --- training frameworks
    Rule(Feature.UNSLOTH, CUDA, R, _UNSLOTH, "Unsloth 2026-08"),
    Rule(Feature.UNSLOTH, ROCM, R, _UNSLOTH, "Unsloth 2026-08"),
    Rule(Feature.UNSLOTH, XPU, R, _UNSLOTH, "Unsloth 2026-08"),
    Rule(Feature.UNSLOTH, METAL, N, _UNSLOTH, "Unsloth 2026-08",
         why="Unsloth trains on a Mac through MLX; not the PyTorch code modelled here",
         instead="choose the Hugging Face framework"),
    # --- weight formats, optimizers and kernels
    Rule(Feature.BNB_4BIT, CUDA, R, _BNB, "bitsandbytes 0.50.0", min_cc=(6, 0)),
    Rule(Feature.BNB_4BIT, ROCM, R, _BNB, "bitsandbytes 0.50.0",
         gfx=("gfx908", "gfx90a", "gfx942", "gfx950", "gfx103*", "gfx110*", "gfx115*", "gfx120*")),
    Rule(Feature.BNB_4BIT, XPU, R, _BNB, "bitsandbytes 0.50.0"),
    Rule(Feature.BNB_4BIT, METAL, R, _BNB, "bitsandbytes 0.50.0 (first release with 4-bit on Metal)"),
    Rule(Feature.BNB_INT8, CUDA, R, _BNB, "bitsandbytes 0.50.0", min_cc=(7, 5), instead="pick 4-bit or GPTQ weights"),
    Rule(Feature.BNB_INT8, ROCM, R, _BNB, "bitsandbytes 0.50.0",
         gfx=("gfx908", "gfx90a", "gfx942", "gfx950", "gfx103*", "gfx110*", "gfx115*", "gfx120*")),
    Rule(Feature.BNB_INT8, XPU, R, _BNB, "bitsandbytes 0.50.0"),
    Rule(Feature.BNB_INT8, METAL, R, _BNB, "bitsandbytes 0.50.0 (unoptimized on Metal)"),
    Rule(Feature.BNB_OPTIMIZER, CUDA, R, _BNB, "bitsandbytes 0.50.0", min_cc=(6, 0)),
    Rule(Feature.BNB_OPTIMIZER, ROCM, R, _BNB, "bitsandbytes 0.50.0",
         gfx=("gfx908", "gfx90a", "gfx942", "gfx950", "gfx103*", "gfx110*", "gfx115*", "gfx120*")),
    Rule(Feature.BNB_OPTIMIZER, XPU, R, _BNB, "bitsandbytes 0.50.0"),
    Rule(Feature.BNB_OPTIMIZER, METAL, C, _BNB, "bitsandbytes 0.50.0 ('planned' on Metal)",
         why="bitsandbytes has no 8-bit or paged optimizer on Apple's Metal (planned in 0.50.0)",
         instead="choose plain AdamW"),
    Rule(Feature.GGUF_IN_TRANSFORMERS, None, R, _HF_GGUF, "transformers 4.56"),
    Rule(Feature.FP8_VLLM, CUDA, R, _VLLM_QUANT, "vLLM 0.14", min_cc=(7, 5), instead="pick 8-bit integer or 4-bit weights"),
    Rule(Feature.FP8_VLLM, ROCM, R, _VLLM_QUANT, "vLLM 0.14", gfx=("gfx942", "gfx950"),
         instead="pick 8-bit integer or 4-bit weights"),
    Rule(Feature.FP8_VLLM, XPU, C, _VLLM_QUANT, "vLLM 0.14", why="vLLM has no FP8 weights on Intel GPUs",
         instead="pick 8-bit integer or 4-bit weights"),
    Rule(Feature.FP8_TRANSFORMERS, CUDA, R, _HF_FP8, "transformers 5.14", min_cc=(9, 0),
         instead="pick 8-bit integer or 4-bit weights"),
    Rule(Feature.FP8_TENSORRT_LLM, CUDA, R, _TRT, "TensorRT-LLM 0.19", min_cc=(8, 9),
         instead="pick 8-bit integer or 4-bit weights"),
    Rule(Feature.FP8_KV_TENSORRT_LLM, CUDA, R, _TRT, "TensorRT-LLM 0.19", min_cc=(8, 9),
         instead="keep a 16-bit KV cache"),
    Rule(Feature.FP8_KV_LLAMA_CPP, None, C, _LLAMA_KV, "llama.cpp 2026",
         why="llama.cpp has no FP8 KV cache type (its cache types are f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, "
             "q5_0 and q5_1)", instead="choose q8_0"),
    Rule(Feature.FLASH_ATTENTION_2, CUDA, R, _FA2, "flash-attn 2.8", min_cc=(8, 0), instead="choose SDPA attention"),
    Rule(Feature.FLASH_ATTENTION_2, ROCM, R, _FA2, "flash-attn 2.8",
         gfx=("gfx90a", "gfx942", "gfx950", "gfx10*", "gfx11*", "gfx12*"), instead="choose SDPA attention"),
    Rule(Feature.FLASH_ATTENTION_2, METAL, C, _FA2, "flash-attn 2.8",
         why="FlashAttention-2 has no Metal build", instead="choose SDPA attention"),
    Rule(Feature.FLASH_ATTENTION_2, XPU, C, _FA2, "flash-attn 2.8",
         why="FlashAttention-2 has no Intel GPU build", instead="choose SDPA attention"),
    Rule(Feature.MXFP4_GGML, CUDA, R, _GGML_MXFP4, "llama.cpp 2026"),
    Rule(Feature.MXFP4_GGML, ROCM, R, _GGML_MXFP4, "llama.cpp 2026"),
    Rule(Feature.MXFP4_GGML, METAL, R, _GGML_MXFP4, "llama.cpp 2026"),
    Rule(Feature.MXFP4_GGML, None, C, _GGML_MXFP4, "llama.cpp 2026",
         why="this app has not confirmed llama.cpp's MXFP4 kernels on the {gpu} ({kind}); it has on NVIDIA and AMD "
             "cards and Apple Silicon", instead="pick a GGUF type such as Q4_K_M"),
    Rule(Feature.MXFP4_VLLM, CUDA, R, _VLLM_MXFP4, "vLLM 0.10.2", min_cc=(8, 0), instead="choose llama.cpp"),
    Rule(Feature.MXFP4_VLLM, ROCM, R, _VLLM_MXFP4, "vLLM 0.14.1", gfx=("gfx942", "gfx950", "gfx1201"),
         instead="choose llama.cpp"),
    Rule(Feature.MXFP4_VLLM, None, C, _VLLM_MXFP4, "vLLM 0.10.2",
         why="vLLM's gpt-oss guide names NVIDIA and AMD GPUs only; the {gpu} is {kind}", instead="choose llama.cpp"),
    Rule(Feature.MXFP4_TRANSFORMERS, CUDA, R, _HF_MXFP4, "transformers 4.55", min_cc=(7, 5),
         instead="choose llama.cpp, or BF16 weights (what transformers unpacks them to there)"),
    Rule(Feature.MXFP4_TRANSFORMERS, None, C, _HF_MXFP4, "transformers 4.55",
         why="transformers keeps MXFP4 weights packed only on NVIDIA GPUs (compute capability 7.5 or newer) and "
             "unpacks them to 16 bits elsewhere; the {gpu} is {kind}",
         instead="choose llama.cpp, or BF16 weights to size the unpacked model"),
    Rule(Feature.MXFP4_SGLANG, CUDA, R, _SGLANG_MXFP4, "SGLang 2026", min_cc=(8, 0), instead="choose llama.cpp"),
    Rule(Feature.MXFP4_SGLANG, ROCM, R, _SGLANG_MXFP4, "SGLang 2026", gfx=("gfx950",), instead="choose llama.cpp"),
    Rule(Feature.MXFP4_SGLANG, None, C, _SGLANG_MXFP4, "SGLang 2026",
         why="SGLang runs MXFP4 weights on NVIDIA GPUs (compute capability 8.0 or newer) and MI350-class AMD GPUs only; "
             "the {gpu} is {kind}", instead="choose llama.cpp"),
    Rule(Feature.MXFP4_OTHER, None, C, "this app's sources (none checked for this engine)", "-",
         why="this app has not confirmed that this engine runs gpt-oss's MXFP4 weights",
         instead="choose vLLM or llama.cpp"),
)

#: (feature, backend or None) -> its row; a test holds every pair to one row.
TABLE: dict[tuple[Feature, Backend | None], Rule] = {(r.feature, r.backend): r for r in RULES}


def rule_for(feature: Feature, backend: Backend | None) -> Rule | None:
    """The row that judges ``feature`` on ``backend``: its own, else the feature's every-backend row, else None
    (not judged)."""
    if backend is not None and (feature, backend) in TABLE:
        return TABLE[feature, backend]
    return TABLE.get((feature, None))
