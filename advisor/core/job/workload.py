"""Workloads: what the user wants to run (inference) or train, and how.

One ``Workload`` model holds every setting with its default; the fields that do not apply
to the mode are ignored by the estimator (and listed as such in its assumptions). Values
are the CLI's spellings, so flags, the comparison file and the UI share one vocabulary.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from advisor.core.schema import Frozen


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
    """How a decode step's attention kernel reads the KV cache (issue 15).

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
#: The inference engines whose prompt attention the attention option sets (``Workload.scores_in_memory``); the
#: others decide it themselves.
ATTENTION_OPTION_ENGINES = (Engine.TRANSFORMERS, Engine.LLAMA_CPP)
ENGINE_VERSION_PATTERN = r"^\d+\.\d+(\.\d+)?[a-z0-9.]*$"  # 0.9, 0.9.0, 0.7a, 0.10.0rc1


class Workload(Frozen):
    """Every setting of one estimate. Defaults: bf16 inference of one sequence."""

    mode: Mode = Mode.INFERENCE
    # --- inference
    weights: str = Field("bf16", description="Weight format: fp32 bf16 fp16 fp8 int8 nf4 fp4 gptq awq or a GGUF type (q4_k_m)")
    double_quant: bool = Field(False, description="bitsandbytes double quantization of NF4/FP4 constants")
    # At most one row of the widest linear layer (per-channel quantization; the largest hidden or MLP size of
    # any open model is under 65,536): a group is part of a row (GPTQ, AWQ: 32, 64 or 128 in practice).
    quant_group_size: int = Field(128, ge=1, le=65_536, description="GPTQ/AWQ group size")
    kv_dtype: str = Field("bf16", description="KV cache element type: fp32 bf16 fp16 fp8 q8_0 q4_0")
    # 10M tokens: Llama 4 Scout's advertised window (Meta, April 2025), the longest any open model states.
    context_len: int = Field(4096, ge=1, le=10_000_000, description="Tokens per sequence (prompt + output)")
    # Concurrent sequences: vLLM's max_num_seqs defaults to 256; 100,000 is far beyond one deployment's.
    batch: int = Field(1, ge=1, le=100_000, description="Concurrent sequences (inference) or micro-batch (training)")
    engine: Engine = Engine.TRANSFORMERS
    # A share of the card: above 0, at most all of it.
    gpu_memory_utilization: float = Field(0.9, gt=0, le=1, description="vLLM's share of the card it pre-allocates")
    full_prompt_logits: bool = Field(False, description="transformers < 4.45: logits of every prompt position")
    # Layers of a model (DeepSeek-V3: 61); the model's own count caps it when the estimate plans.
    moe_offload_layers: int = Field(0, ge=0, le=100_000,
                                    description="llama.cpp --n-cpu-moe: layers whose routed experts stay in host RAM")
    # Part of the context, so the context's bound.
    prompt_tokens: int | None = Field(None, ge=0, le=10_000_000,
                                      description="Prompt part of the context; the rest is generated (0: no "
                                                  "prompt, as llama-bench's tg test; unset: the whole context "
                                                  "is both prompt and generation bound)")
    decode_attention: DecodeAttention = Field(DecodeAttention.GROUPED,
                                              description="Decode attention kernel: grouped (FlashAttention, XQA) "
                                                          "or per-head (TensorRT-LLM masked MHA)")
    ubatch_tokens: int = Field(512, ge=1, le=65_536,
                               description="llama.cpp --ubatch-size: prompt tokens computed per graph (n_ubatch, "
                                           "default 512 in common/common.h)")
    engine_version: str | None = Field(None, max_length=20, pattern=ENGINE_VERSION_PATTERN,
                                       description="TensorRT-LLM version (0.9, 0.7a): its decode kernels and FP8 "
                                                   "paths differ by version (``engine_versions.as_run``); unset: a "
                                                   "current one")
    # --- training
    method: Method = Method.FULL
    objective: Objective = Field(Objective.SFT, description="Training objective: sft, dpo, orpo or reward")
    precompute_ref: bool = Field(False, description="DPO: reference log-probabilities computed before training "
                                                    "(TRL precompute_ref_log_probs): no reference model in the step")
    precision: Precision = Precision.AMP
    optimizer: Optimizer = Optimizer.ADAMW
    # Ranks of 8 to 256 are usual; a rank beyond the layer's width (< 65,536) is a full-rank update.
    lora_rank: int | None = Field(None, ge=1, le=65536)
    lora_targets: tuple[str, ...] = ("q", "k", "v", "o", "gate", "up", "down")
    # A training sequence is at most the longest context (above).
    seq_len: int = Field(2048, ge=1, le=10_000_000, description="Training sequence length, tokens")
    # A 16M-token global batch (Llama 3 405B pre-training, Dubey et al. 2024, arXiv:2407.21783) from one GPU's
    # micro-batch of one 512-token sequence is 32,768 steps; 10^400 overflowed the report's float arithmetic.
    grad_accum_steps: int = Field(1, ge=1, le=100_000, description="Gradient accumulation steps")
    checkpointing: Checkpointing = Checkpointing.NONE
    # Every K-th of a model's layers: no open model has 1,000.
    checkpoint_every: int = Field(1, ge=1, le=1000, description="Checkpoint every K-th layer (1: all layers)")
    attention: AttentionImpl = AttentionImpl.FLASH
    framework: Framework = Field(Framework.HF, description="Training framework whose defaults apply")
    loss: Loss | None = Field(None, description="Cross-entropy implementation (None: the framework's default)")
    # torchtune and LitGPT use 8 and 128-token chunks; 1,024 chunks of a 1M-token sequence are still 1K tokens.
    loss_chunks: int = Field(8, ge=1, le=1024, description="Chunks of the chunked cross-entropy")
    activation_offload: bool | None = Field(None, description="Saved activations to host RAM (torchtune, Unsloth)")
    optimizer_in_backward: bool | None = Field(None, description="Optimizer step fused into backward (torchtune)")
    optimizer_kernel: OptimizerKernel | None = Field(None, description="PyTorch AdamW's step, foreach or fused "
                                                                       "(None: the framework's default)")
    compile: bool | None = Field(None, description="torch.compile (None: the framework's default)")
    bnb_legacy: bool = Field(False, description="bitsandbytes < 0.43.2: every 4-bit Linear keeps its input")
    activation_quant: ActivationQuant = Field(ActivationQuant.NONE, description="Saved activations in 8 bits")
    # Parallel degrees: Llama 3 405B trained with TP 8 and CP 16 (Dubey et al. 2024); 1,024 is far beyond.
    tp: int = Field(1, ge=1, le=1024, description="Tensor-parallel degree inside FSDP (2-D FSDP × TP)")
    cp: int = Field(1, ge=1, le=1024, description="Context-parallel degree (sequence split) inside FSDP")
    expandable_segments: bool = Field(False, description="PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")
    # Llama 3 pre-trained on 15.6T tokens (Dubey et al. 2024): 10^15 is 64 times that.
    dataset_tokens: int | None = Field(None, ge=1, le=10**15, description="Training run: tokens in the dataset "
                                                                        "(time and cost of the run; issue 18)")
    # From a thousandth of the dataset (a smoke run) to 10,000 passes (far beyond any fine-tune's few):
    # 1e-320 epochs, a subnormal float, turned the run's time into inf.
    epochs: float = Field(1, ge=0.001, le=10_000, description="Training run: passes over the dataset")
    # --- hardware use
    # The largest published training runs used 16K (Llama 3) to about 100K GPUs.
    n_gpus: int = Field(1, ge=1, le=100_000, description="GPUs the job uses")
    parallel: Parallel = Parallel.NONE
    offload: tuple[Offload, ...] = ()

    @property
    def is_request(self) -> bool:
        """Inference with a prompt shorter than the context: one request of ``prompt_tokens`` prompt tokens
        and the rest generated, whose speed the estimate gives (``estimator.request_speed``)."""
        return self.mode is Mode.INFERENCE and self.prompt_tokens is not None and self.prompt_tokens < self.context_len

    @property
    def scores_in_memory(self) -> bool:
        """An inference job's prompt attention writes its seq × seq scores to memory rather than running a fused
        kernel: transformers with eager attention (SDPA and FlashAttention-2 are fused), llama.cpp without flash
        attention, and Ollama, which leaves it off unless OLLAMA_FLASH_ATTENTION=1 is set (Ollama docs, FAQ).
        Every other engine fuses it whatever ``attention`` says (``ATTENTION_OPTION_ENGINES``). The memory
        estimate (llama.cpp's compute buffer) and the prefill speed (``speed.scores``) both read it."""
        if self.engine is Engine.OLLAMA:
            return True
        if self.engine not in ATTENTION_OPTION_ENGINES:
            return False
        if self.engine is Engine.TRANSFORMERS:  # SDPA and FlashAttention-2 are fused
            return self.attention is AttentionImpl.EAGER
        return self.attention is not AttentionImpl.FLASH  # llama.cpp: only its flash attention is

    @property
    def foreach_adamw(self) -> bool:
        """PyTorch's AdamW in its foreach form (more passes over the states, a state-sized temporary):
        AdamW with the foreach kernel, or with none chosen (PyTorch's own default; a job with its
        framework's defaults applied always has one)."""
        return self.optimizer is Optimizer.ADAMW and self.optimizer_kernel is not OptimizerKernel.FUSED

    @property
    def lora_rank_effective(self) -> int:
        """LoRA rank used for LoRA/QLoRA (16 when not set: the PEFT/QLoRA examples' common choice)."""
        return self.lora_rank or 16
