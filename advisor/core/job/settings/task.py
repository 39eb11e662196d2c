"""The settings of every job: inference or training, the weights, the batch and the attention kernel."""

from __future__ import annotations

from advisor.core.job.choices import (
                  ATTENTION_OPTION_ENGINES,
                  AttentionImpl,
                  Method,
                  Mode,
)
from advisor.core.job.settings.declare import Choice, Section, Setting, Where, Widget

#: The weight formats the window lists for inference (any other GGUF type or EXL2 ``Nbpw`` is typed).
WEIGHT_CHOICES = ("bf16", "fp16", "fp32", "fp8", "int8", "nf4", "fp4", "gptq", "gptq-int8", "awq", "q8_0", "q6_k", "q5_k_m",
                  "q4_k_m", "q3_k_m", "iq4_xs", "mxfp4")
#: bitsandbytes' 4-bit formats (QLoRA's base, Dettmers et al. 2023, arXiv:2305.14314).
FOUR_BIT = ("nf4", "fp4")
#: Formats quantized in groups with a 16-bit scale and a zero point per group (GPTQ, AWQ, 8-bit GPTQ).
GROUPED = ("gptq", "awq", "gptq-int8")

SETTINGS = (
    Setting(
        "mode", "Mode", "run a trained model (inference) or train it (fine-tuning)", Section.TASK, Widget.CHOICE,
        flag="--mode", brief=True,
        choices=(Choice(Mode.INFERENCE, "inference"), Choice(Mode.TRAIN, "fine-tuning")),
        tip="Inference serves a trained model; fine-tuning trains it (all weights, or small adapters)."),
    Setting(
        "weights", "Weights", "how the weights are stored: bf16 fp16 (f16) fp32 fp8 int8 nf4 fp4 gptq gptq-int8 awq mxfp4, a "
        "GGUF type such as q4_k_m, or Nbpw (EXL2, e.g. 4.65bpw)", Section.TASK, Widget.OPEN_CHOICE,
        flag="--weights", metavar="FORMAT", brief=True, train_label="Base weights",
        choices=tuple(Choice(v, "") for v in WEIGHT_CHOICES),  # words from the format: memory.formats.format_words
        where=Where(methods=(Method.LORA, Method.QLORA, Method.ADAPTER, Method.ADAPTER_V2)), resets=True,
        tip="How weights are stored. bf16/fp16: 2 bytes each. int8: LLM.int8() (Dettmers et al. 2022, "
            "arXiv:2208.07339). nf4/fp4: bitsandbytes 4-bit as in QLoRA (arXiv:2305.14314). GPTQ (Frantar et al. "
            "2022, arXiv:2210.17323) and AWQ (Lin et al. 2023, arXiv:2306.00978): 4-bit in groups; GPTQ-Int8: 8-bit "
            "GPTQ in groups (GPTQ's kernels, not LLM.int8's outlier handling). Q4_K_M and "
            "friends: llama.cpp's GGUF block quantization. MXFP4: gpt-oss as OpenAI ships it, its experts in 4-bit "
            "floating point (4.25 bits with the shared scales) and the rest in 16 bits; llama.cpp runs its GGUF, "
            "whose rest is 8-bit (MXFP4_MOE). Full fine-tuning trains every weight in its precision's "
            "format. TensorRT-LLM before 0.10 runs an MoE model's experts in 16-bit even in an FP8 build."),
    Setting(
        "double_quant", "Double quantization", "bitsandbytes double quantization of the 4-bit blocks' constants",
        Section.TASK, Widget.SWITCH, flag="--double-quant",
        where=Where(when=(("weights", FOUR_BIT),)),
        tip="Quantize the 4-bit blocks' scale constants too: ~0.37 bits per weight saved (QLoRA §3, "
            "arXiv:2305.14314). Applies to NF4 and FP4 weights."),
    Setting(
        "quant_group_size", "Quantization group", "weights per GPTQ/AWQ group, each with its own 16-bit scale and "
        "zero point", Section.TASK, Widget.WHOLE, flag="--quant-group-size", metavar="G", unit="weights",
        where=Where(when=(("weights", GROUPED),)),
        tip="GPTQ and AWQ store one 16-bit scale and one 4-bit zero point per group of this many weights: "
            "4 + 20 / group bits per weight (128, the AutoGPTQ and AutoAWQ default: 4.16 bits; 32: 4.63 bits); "
            "8-bit GPTQ an 8-bit zero point: 8 + 24 / group."),
    Setting(
        "batch", "Concurrent sequences", "inference: sequences at once on the whole build; fine-tuning: the "
        "micro-batch per GPU", Section.TASK, Widget.WHOLE, flag="--batch", metavar="B", unit="sequences",
        train_label="Micro-batch", brief=True,
        tip="Inference: sequences served at once by the whole build (each has its own KV cache; copies of the "
            "model on several GPUs share them out). Fine-tuning: the micro-batch per GPU per step (activations "
            "grow with it)."),
    Setting(
        "attention", "Attention", "attention kernel: FlashAttention, PyTorch's fused SDPA, or eager (the scores "
        "in memory)", Section.TASK, Widget.CHOICE, flag="--attention",
        choices=(Choice(AttentionImpl.EAGER, "eager (scores in memory)"), Choice(AttentionImpl.SDPA, "PyTorch SDPA"),
                 Choice(AttentionImpl.FLASH, "FlashAttention")),
        where=Where(engines=ATTENTION_OPTION_ENGINES), brief=True,
        tip="FlashAttention computes attention in tiles without storing the seq × seq score matrix (Dao et al. "
            "2022, arXiv:2205.14135); SDPA is PyTorch's fused kernel; eager stores it: more memory in training, a "
            "slower prompt. In inference it is chosen with transformers, llama.cpp and Ollama (FlashAttention: "
            "llama.cpp's flash attention on, as current Ollama runs it where the GPU supports it; Ollama before "
            "mid-2026 turned it on only for some models, such as Qwen3 and Gemma 3); vLLM, SGLang, TensorRT-LLM, "
            "ExLlamaV2 and DeepSpeed always fuse it."),
)
