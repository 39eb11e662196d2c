"""The job: what the user wants to run (inference) or train, and how — knowing nothing of a build.

One ``Job`` model holds every setting with its default; the settings that do not apply to the mode are
ignored by the estimator (and listed as such in its assumptions). The plan a build runs it with (GPUs
used, parallel scheme, offload, MoE experts in host RAM) is not part of it: ``PlannedJob``
(``advisor.core.job.planned``) is the job with one build's plan applied, what the memory and speed models
take. Activation checkpointing is both: the job's own setting is the user's (or the framework's)
baseline, and a plan may raise it to fit (``Plan.checkpointing``).
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import Field

from advisor.core.job.choices import (
    ATTENTION_OPTION_ENGINES,
    LLAMA_CPP_UBATCH,
    ENGINE_VERSION_PATTERN,
    ActivationQuant,
    AttentionImpl,
    Checkpointing,
    DecodeAttention,
    Engine,
    Framework,
    Loss,
    Method,
    Mode,
    Objective,
    Optimizer,
    OptimizerKernel,
    Precision,
)
from advisor.core.schema import Frozen


class Job(Frozen):
    """What the user wants to run or train, and how: every setting but those of a build's plan (the
    GPUs it uses, how they share the work, what is offloaded: ``advisor.core.job.planned``). Defaults: bf16
    inference of one sequence."""

    mode: Mode = Mode.INFERENCE
    # --- inference
    weights: str = Field("bf16", description="Weight format: fp32 bf16 fp16 fp8 int8 nf4 fp4 gptq gptq-int8 awq or a GGUF type (q4_k_m)")
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
    custom_all_reduce: bool = Field(
        True, description="vLLM's, SGLang's and TensorRT-LLM's own all-reduce kernel where the links allow it "
                          "(False: NCCL)")
    # Part of the context, so the context's bound.
    prompt_tokens: int | None = Field(None, ge=0, le=10_000_000,
                                      description="Prompt part of the context; the rest is generated (0: no "
                                                  "prompt, as llama-bench's tg test; unset: the whole context "
                                                  "is both prompt and generation bound)")
    decode_attention: DecodeAttention = Field(DecodeAttention.GROUPED,
                                              description="Decode attention kernel: grouped (FlashAttention, XQA) "
                                                          "or per-head (TensorRT-LLM masked MHA)")
    ubatch_tokens: int = Field(LLAMA_CPP_UBATCH, ge=1, le=65_536,
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
    kbit_upcast: bool = Field(False, description="PEFT prepare_model_for_kbit_training: the weights left in 16 bits "
                                                 "(embeddings, lm_head, norms) cast to fp32")
    keeps_output: bool = Field(False, description="The training loop holds the model's output (its logits) until the "
                                                  "optimizer step: out = model(...); out.loss.backward()")
    activation_quant: ActivationQuant = Field(ActivationQuant.NONE, description="Saved activations in 8 bits")
    # Parallel degrees: Llama 3 405B trained with TP 8 and CP 16 (Dubey et al. 2024); 1,024 is far beyond.
    tp: int = Field(1, ge=1, le=1024, description="Tensor-parallel degree inside FSDP (2-D FSDP × TP)")
    cp: int = Field(1, ge=1, le=1024, description="Context-parallel degree (sequence split) inside FSDP")
    expandable_segments: bool = Field(False, description="PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")
    # Llama 3 pre-trained on 15.6T tokens (Dubey et al. 2024): 10^15 is 64 times that.
    dataset_tokens: int | None = Field(None, ge=1, le=10**15, description="Training run: tokens in the dataset "
                                                                        "(time and cost of the run)")
    # From a thousandth of the dataset (a smoke run) to 10,000 passes (far beyond any fine-tune's few):
    # 1e-320 epochs, a subnormal float, turned the run's time into inf.
    epochs: float = Field(1, ge=0.001, le=10_000, description="Training run: passes over the dataset")

    @property
    def is_request(self) -> bool:
        """Inference with a prompt shorter than the context: one request of ``prompt_tokens`` prompt tokens
        and the rest generated, whose speed the estimate gives (``estimator.request_speed``)."""
        return self.mode is Mode.INFERENCE and self.prompt_tokens is not None and self.prompt_tokens < self.context_len

    @property
    def gguf_ubatch_tokens(self) -> int:
        """Prompt tokens a GGUF engine computes per graph: ``ubatch_tokens`` (``--ubatch-size``) for llama.cpp;
        Ollama runs llama.cpp's default (``LLAMA_CPP_UBATCH``)."""
        return self.ubatch_tokens if self.engine is Engine.LLAMA_CPP else LLAMA_CPP_UBATCH

    @property
    def scores_in_memory(self) -> bool:
        """An inference job's prompt attention writes its seq × seq scores to memory rather than running a fused
        kernel: transformers with eager attention (SDPA and FlashAttention-2 are fused), llama.cpp and Ollama
        (llama.cpp underneath) without flash attention. Every other engine fuses it whatever ``attention`` says
        (``ATTENTION_OPTION_ENGINES``). The memory estimate (llama.cpp's compute buffer) and the prefill speed
        (``speed.scores``) both read it."""
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


#: A job or a planned job (``advisor.core.job.planned.PlannedJob``): what a function that reads only the job's own
#: settings takes, and gives back of the same type when it returns a changed copy.
JobT = TypeVar("JobT", bound=Job)
