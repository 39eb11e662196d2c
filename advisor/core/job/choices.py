"""The values a job's settings take: modes, methods, objectives, precisions, engines, parallel schemes …

Values are the command line's spellings, so flags, the comparison file and the window share one vocabulary.
"""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    INFERENCE = "inference"
    TRAIN = "train"


class Method(StrEnum):
    FULL = "full"
    LORA = "lora"
    QLORA = "qlora"
    ADAPTER = "adapter"  # LitGPT finetune_adapter: LLaMA-Adapter (Zhang et al. 2023, arXiv:2303.16199)
    ADAPTER_V2 = "adapter-v2"  # LitGPT finetune_adapter_v2: LLaMA-Adapter V2 (Gao et al. 2023, arXiv:2304.15010)

    @property
    def litgpt_adapter(self) -> bool:
        """LitGPT's adapter methods: a learnable prompt (and v2's biases, scales, norms) on a frozen base."""
        return self in (Method.ADAPTER, Method.ADAPTER_V2)


class Objective(StrEnum):
    """What the training step optimizes (beside the method, which says which weights train).

    * sft: next-token cross-entropy on one sequence per example;
    * dpo: Direct Preference Optimization (Rafailov et al. 2023, arXiv:2305.18290): chosen and
      rejected sequences of each pair through the policy, and through a frozen reference model
      unless its log-probabilities are precomputed (TRL ``DPOTrainer``);
    * orpo: Odds Ratio Preference Optimization (Hong et al. 2024, arXiv:2403.07691): chosen and
      rejected sequences, no reference model;
    * reward: a reward model (scalar head instead of the vocabulary) trained on chosen/rejected
      pairs (TRL ``RewardTrainer``).
    """

    SFT = "sft"
    DPO = "dpo"
    ORPO = "orpo"
    REWARD = "reward"

    @property
    def paired(self) -> bool:
        """Each example is a (chosen, rejected) pair: two sequences through the model per example."""
        return self is not Objective.SFT


class Precision(StrEnum):
    AMP = "amp"  # bf16 compute, fp32 master weights (Micikevicius et al. 2018)
    BF16 = "bf16"  # pure bf16 weights, grads and optimizer states
    FP32 = "fp32"


class Optimizer(StrEnum):
    ADAMW = "adamw"
    ADAMW_8BIT = "adamw-8bit"
    PAGED_ADAMW = "paged-adamw"
    PAGED_ADAMW_8BIT = "paged-adamw-8bit"
    SGD = "sgd"
    ADAFACTOR = "adafactor"


class OptimizerKernel(StrEnum):
    """How PyTorch's AdamW runs its step (torch.optim docs: "foreach" and "fused" implementations;
    ``advisor.core.job.frameworks.OPTIMIZER_KERNEL_SOURCES`` says which each framework uses)."""

    FOREACH = "foreach"  # multi-tensor ops one after another (PyTorch's default on CUDA): more passes, a temporary
    FUSED = "fused"  # one kernel per parameter group: each tensor read and written once, no temporary


class Checkpointing(StrEnum):
    NONE = "none"
    SELECTIVE = "selective"  # Korthikanti et al. 2022: attention core recomputed
    OP_SAC = "op-sac"  # torchtitan's op-level selective policy (saves matmul outputs)
    FULL = "full"


class Framework(StrEnum):
    """Training frameworks whose memory-relevant defaults differ (``advisor.core.job.frameworks``)."""

    HF = "hf"  # transformers Trainer + PEFT / TRL
    TORCHTUNE = "torchtune"
    TORCHTITAN = "torchtitan"
    LITGPT = "litgpt"
    AXOLOTL = "axolotl"
    UNSLOTH = "unsloth"
    DEEPSPEED = "deepspeed"
    HOROVOD = "horovod"


class Loss(StrEnum):
    """How the cross-entropy loss is computed over the vocabulary."""

    FP32_LOGITS = "fp32-logits"  # bf16 logits + fp32 upcast + shifted copy (transformers < 4.46)
    UPCAST = "upcast"  # logits upcast inside the loss, no shifted copy (transformers ≥ 4.46)
    CHUNKED = "chunked"  # chunked cross-entropy (torchtune CEWithChunkedOutputLoss, LitGPT chunked_cross_entropy)
    FUSED = "fused"  # fused linear cross-entropy (Liger, Cut Cross-Entropy): no full logits


class ActivationQuant(StrEnum):
    NONE = "none"
    FP8 = "fp8"
    INT8 = "int8"


class AttentionImpl(StrEnum):
    EAGER = "eager"
    SDPA = "sdpa"
    FLASH = "flash"


class Engine(StrEnum):
    TRANSFORMERS = "transformers"
    VLLM = "vllm"
    SGLANG = "sglang"
    LLAMA_CPP = "llama.cpp"
    OLLAMA = "ollama"  # llama.cpp underneath, with Ollama's defaults
    EXLLAMAV2 = "exllamav2"
    TENSORRT_LLM = "tensorrt-llm"
    DEEPSPEED = "deepspeed"  # DeepSpeed-FastGen / MII

    @property
    def pooled(self) -> bool:
        """Pre-allocates a share of the card and fills the rest with a paged KV cache (vLLM
        ``gpu_memory_utilization``, SGLang ``mem_fraction_static``, TensorRT-LLM
        ``kv_cache_free_gpu_mem_fraction``, DeepSpeed-FastGen's KV block pool)."""
        return self in (Engine.VLLM, Engine.SGLANG, Engine.TENSORRT_LLM, Engine.DEEPSPEED)

    @property
    def gguf(self) -> bool:
        """Runs GGUF files with llama.cpp's CUDA/Metal backends (llama.cpp, Ollama)."""
        return self in (Engine.LLAMA_CPP, Engine.OLLAMA)

    @property
    def label(self) -> str:
        """The engine as its users write it ('vLLM', 'TensorRT-LLM'; the others by their own names)."""
        return ENGINE_NAMES.get(self, self.value)


#: Engines whose name is not their value, as their users write it (``Engine.label``).
ENGINE_NAMES = {Engine.VLLM: "vLLM", Engine.SGLANG: "SGLang", Engine.TENSORRT_LLM: "TensorRT-LLM",
                Engine.DEEPSPEED: "DeepSpeed-FastGen", Engine.OLLAMA: "Ollama", Engine.EXLLAMAV2: "ExLlamaV2"}


class DecodeAttention(StrEnum):
    """How a decode step's attention kernel reads the KV cache.

    * ``grouped``: each KV head is read once for all the query heads that share it, and the
      products run on tensor cores: FlashAttention-2 / Flash-Decoding, FlashInfer, vLLM's and
      SGLang's default backends, TensorRT-LLM's XQA kernels. The step's attention is the KV read.
    * ``per-head``: one thread block per query head on the CUDA cores, FP32 multiply-adds
      (TensorRT-LLM's masked multi-head attention, ``MMHA_USE_FP32_ACUM_FOR_FMA`` in
      decoderMaskedMultiheadAttentionTemplate.h): what TensorRT-LLM ran for every model before its
      XQA kernels (v0.7/v0.8; NVIDIA/TensorRT-LLM docs/source/blogs/XQA-kernel.md: 2.4x Llama-70B
      throughput on one H200 at 128/2048 with XQA) and, after them, for any head layout its
      precompiled XQA kernels lack (only 8 query heads per KV head, head size 128 or 256, in
      cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/cubin/xqa_kernel_cubin.h at
      2340c776: Mistral 7B, Mixtral and Falcon-180B ran masked MHA in v0.9.0). Its cost grows with
      query heads × context, not with the KV bytes, so GQA saves it nothing.
    """

    GROUPED = "grouped"
    PER_HEAD = "per-head"


class Parallel(StrEnum):
    NONE = "none"
    DDP = "ddp"
    ZERO1 = "zero1"
    ZERO2 = "zero2"
    ZERO3 = "zero3"
    FSDP = "fsdp"  # FULL_SHARD
    FSDP_GRAD_OP = "fsdp-grad-op"  # SHARD_GRAD_OP
    FSDP_NO_SHARD = "fsdp-no-shard"
    TP = "tp"
    PP = "pp"
    LAYER_SPLIT = "layer-split"  # accelerate device_map="auto" / llama.cpp --split-mode layer


class Offload(StrEnum):
    OPTIMIZER = "optimizer"
    PARAMS = "params"
    NVME = "nvme"  # with optimizer/params: to NVMe instead of host RAM (DeepSpeed ZeRO-Infinity)


LORA_TARGETS = ("q", "k", "v", "o", "gate", "up", "down")
#: The inference engines whose prompt attention the attention option sets (``Job.scores_in_memory``); the
#: others decide it themselves. Ollama runs llama.cpp's llama-server for every GGML model with ``--flash-attn auto``
#: where the GPUs support it, and off when OLLAMA_FLASH_ATTENTION is false (``LlamaServerFlashAttention``,
#: llm/llama_server.go, since PR #16031 of 2026-05-29; ollama/ollama at fb307609); before that, on by default only
#: for a list of architectures (``GGML.FlashAttention``, fs/ggml/ggml.go).
ATTENTION_OPTION_ENGINES = (Engine.TRANSFORMERS, Engine.LLAMA_CPP, Engine.OLLAMA)
#: llama.cpp's default micro-batch: prompt tokens computed per graph (n_ubatch, 512 in common/common.h).
LLAMA_CPP_UBATCH = 512
ENGINE_VERSION_PATTERN = r"^\d+\.\d+(\.\d+)?[a-z0-9.]*$"  # 0.9, 0.9.0, 0.7a, 0.10.0rc1
