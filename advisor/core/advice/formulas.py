"""The formulas behind every estimate and where they come from: one text for Help and the PDF.

Constants are read from the modules that use them, so what is shown is what is computed.
"""

from __future__ import annotations

from pydantic import Field

from advisor.core.hardware import allreduce, interconnect
from advisor.core.hardware import memory as usable
from advisor.core.job.choices import Engine, Framework, Mode, OptimizerKernel
from advisor.core.job.frameworks import FRAMEWORK_NAMES
from advisor.core.job.job import Job
from advisor.core.memory import inference as memory_inference
from advisor.core.schema import Frozen
from advisor.core.speed import engine_speed, flops, gguf_decode, host_cpu, prefill, scores
from advisor.core.speed import optimizer_step
from advisor.core.units import MIB


class Formula(Frozen):
    term: str
    formula: str
    sources: tuple[str, ...] = Field(min_length=1)


def _adamw_step_bytes(kernel: OptimizerKernel) -> float:
    """Bytes an AMP AdamW job's optimizer step moves per trained parameter with ``kernel``."""
    return optimizer_step.optimizer_step_bytes_per_param(Job(mode=Mode.TRAIN, optimizer_kernel=kernel))


def _engine_constants() -> str:
    """'vllm b 0.67 c 0.45 floor 0.17 ms/layer; …' for the fitted engines."""
    parts = []
    for engine, e in sorted(engine_speed.FITTED.items(), key=lambda kv: kv[0].value):
        kv = f" k {e.kv_bandwidth:.3f} at batch 1" if e.kv_bandwidth is not None else ""
        small = f" small kernels {e.kernels_s_per_layer * 1e3:.2f} ms/layer" if e.kernels_s_per_layer else ""
        parts.append(f"{engine.value} b {e.bandwidth:.2f} c {e.compute:.2f} floor {e.floor_s_per_layer * 1e3:.2f} "
                     f"ms/layer{small}{kv}")
    return "; ".join(parts)


def _fit_scope() -> str:
    """'TensorRT-LLM: c only, …; ' for the engines fitted on large batches only (none: '')."""
    return "".join(f"{e.label}: c only, its rows all at large batches, the rest {engine_speed.SIBLING[e].label}'s; "
                   for e in engine_speed.LARGE_BATCH_ONLY_COMPUTE)


def formulas() -> tuple[Formula, ...]:
    """Each estimated quantity: how it is computed and the source of the method."""
    return (*_model_memory(), *_training_memory(), *_device_memory(), *_speed(), *_traffic())


def _model_memory() -> tuple[Formula, ...]:
    """The model's own memory: parameters, weights, KV cache, activations."""
    return (
        Formula(term="Parameters", formula="Counted from the model's shapes: embeddings, q/k/v/o projections (GQA: "
                "k and v sized by the KV heads), gated or plain MLP, experts (MoE: active = routed-in-use + shared), "
                "MLA latent projections, norms.",
                sources=("Hugging Face transformers modeling_llama.py / modeling_deepseek.py",)),
        Formula(term="Weights", formula="parameters × bits per weight / 8; bitsandbytes, GPTQ, AWQ and LLM.int8 keep "
                "embeddings and lm_head at 16 bit; GGUF block sizes from llama.cpp's block layouts.",
                sources=("LLM.int8 arXiv:2208.07339", "QLoRA arXiv:2305.14314 §3", "GPTQ arXiv:2210.17323",
                         "AWQ arXiv:2306.00978", "llama.cpp ggml-common.h and tools/quantize/README.md")),
        Formula(term="KV cache", formula="2 × layers × KV heads × head dim × bytes per element × tokens × sequences; "
                "sliding-window layers cap tokens at the window; MLA caches the compressed latent (+ RoPE key).",
                sources=("PagedAttention/vLLM arXiv:2309.06180", "DeepSeek-V2 arXiv:2405.04434 (MLA)")),
        Formula(term="Activations", formula="Per layer and token after Korthikanti et al., adapted to Llama blocks "
                "(SwiGLU, RMSNorm, GQA); flash attention drops the s² score term; selective or full recomputation "
                "keeps less; fp32 logits of vocab × tokens are counted separately; where torch.compile covers the "
                "loss (torchtune, torchtitan) only the 16-bit logits and their gradient are stored, while an eager "
                "chunked cross-entropy keeps every chunk's 32-bit log-probabilities for the backward; a training loop of your "
                "own that keeps the model's output (out = model(...); out.loss.backward()) holds its logits, vocab × "
                "tokens in 16 bits, until the optimizer step ends (the HF Trainer keeps only the loss).",
                sources=("Korthikanti et al. 2022 arXiv:2205.05198", "FlashAttention arXiv:2205.14135",
                         "https://github.com/pytorch/torchtune/blob/0031bfb080bd35ec533c412df883cf2bf7bf7fe4/"
                         "torchtune/training/_compile.py (compile_loss)",
                         "https://github.com/pytorch/torchtitan/pull/1033 (the loss compiled with the model)",
                         "https://github.com/Anassbzdd/fitcheck/blob/02ebe015adf8cef1f2c33dee6dae41ab813e9773/"
                         "scripts/measure.py (one_step: the output kept through the step)")),
    )


def _training_memory() -> tuple[Formula, ...]:
    """What training adds: optimizer states, adapters and the objectives' second sequence."""
    return (
        Formula(term="Training states", formula="Mixed precision: 2 (bf16 weights) + 2 (grads) + 12 (fp32 master + "
                "Adam moments) bytes per trained parameter; 8-bit Adam moments 2 bytes; ZeRO-1/2/3 and FSDP divide "
                "optimizer, gradients and parameters by the GPU count by stage; FSDP keeps two layers gathered, and its "
                "root unit whole from the forward into the backward (with the HF Trainer, Axolotl and LitGPT the "
                "embedding and lm_head, with torchtitan the lm_head; a full fine-tune's lm_head gradient whole at the "
                "backward's start); DDP keeps gradient buckets the size of the gradients from step to step (Horovod a "
                "128 MiB fusion buffer), alive at the optimizer step too.",
                sources=("ZeRO arXiv:1910.02054", "8-bit optimizers arXiv:2110.02861", "PyTorch FSDP arXiv:2304.11277",
                         "PyTorch FSDP _post_forward_reshard at 3ade90a6 (root not resharded after forward)",
                         "PyTorch c10d reducer.cpp at ad78a7b3 (Reducer::initialize_buckets)")),
        Formula(term="LoRA / QLoRA", formula="r × (d_in + d_out) trainable parameters per adapted matrix (fp32 with "
                "gradients and AdamW states); QLoRA: NF4 base with optional double quantization plus a transient "
                "dequantized layer; with PEFT's prepare_model_for_kbit_training the embeddings, output layer and "
                "norms in fp32 (4 bytes), under mixed precision the residual stream too and a 16-bit copy of the "
                "output layer kept for its backward.",
                sources=("LoRA arXiv:2106.09685", "QLoRA arXiv:2305.14314",
                         "peft src/peft/utils/other.py at 5d602fdb (prepare_model_for_kbit_training)")),
        Formula(term="LitGPT adapters", formula="adapter: (layers − 2) × (10 × hidden + heads) trainable parameters "
                "(a learned 10-token prompt and a gate per layer from the third); adapter v2 adds 2 × out_features "
                "per Linear (bias and scale, lm_head included) and the norms; frozen 16-bit (or bnb 4-bit) base.",
                sources=("LLaMA-Adapter arXiv:2303.16199", "LLaMA-Adapter V2 arXiv:2304.15010",
                         "https://github.com/Lightning-AI/litgpt/blob/26857050fe3ff627cd714fe92f5838f51a3d5efa/"
                         "litgpt/adapter.py and adapter_v2.py")),
        Formula(term="Objectives", formula="DPO, ORPO and reward modelling put a chosen and a rejected sequence "
                "through the model per example: activations, logits and step FLOPs of 2 × the micro-batch. DPO adds "
                "a frozen reference copy of the weights for full fine-tuning (sharded like the policy), none with "
                "PEFT adapters or precomputed reference log-probabilities, and a reference forward of 2N FLOPs per "
                "token unless precomputed. Reward model: a scalar head, no vocabulary logits.",
                sources=("DPO arXiv:2305.18290", "ORPO arXiv:2403.07691",
                         "https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/"
                         "trl/trainer/dpo_trainer.py and reward_trainer.py")),
    )


def _device_memory() -> tuple[Formula, ...]:
    """What the card keeps for itself and what of it the job may use."""
    return (
        Formula(term="Runtime", formula=f"CUDA context and library workspaces outside the allocator: "
                f"{memory_inference.CUDA_CONTEXT_BYTES / MIB:.0f} MiB; vLLM CUDA graphs {memory_inference.VLLM_CUDA_GRAPH_BYTES / MIB:.0f} MiB.",
                sources=("pytorch/pytorch#107667", "pytorch/pytorch#28113", "vLLM docs: Conserving memory")),
        Formula(term="Usable memory", formula=f"card memory minus {usable.DRIVER_RESERVED_BYTES / MIB:.0f} MiB the "
                f"driver keeps (RTX 4090 deviceQuery); Apple: macOS's Metal working set, "
                f"{usable.APPLE_WORKING_SET_SMALL:.0%} of a Mac's memory up to {usable.APPLE_SMALL_MAC_GIB} GB and "
                f"{usable.APPLE_WORKING_SET_LARGE:.0%} above, or the machine's raised GPU memory limit.",
                sources=("thamada/nvidia-smi RTX4090_deviceQuery", "llama.cpp ggml_metal_init logs")),
    )


def _quant_kernels_words() -> str:
    """The per-layer time of the dequantizing kernels (``engine_speed.QUANT_KERNEL_S_PER_LAYER``), for the widths
    whose fit found one (a fitted 0 is left out)."""
    times = [f"{seconds * 1e3:.2f} ms ({width})" for width, seconds in
             (("4-bit", engine_speed.QUANT_KERNEL_S_PER_LAYER["int4"]), ("8-bit", engine_speed.QUANT_KERNEL_S_PER_LAYER["int8"]))
             if round(seconds * 1e3, 2) > 0]
    if not times:
        return ""
    return (" — with GPTQ, AWQ or 8-bit weights in vLLM, SGLang, TensorRT-LLM or DeepSpeed plus " + " or ".join(times)
            + " a layer for the dequantizing kernels")


def _speed() -> tuple[Formula, ...]:
    """Decode, prefill and training speed."""
    return (
        Formula(term="Decode speed", formula="kernel by kernel: the weight GEMMs, max(weight bytes / (bandwidth × b), "
                f"FLOPs / (peak × c)){_quant_kernels_words()}, plus each layer's small kernels (norms, RoPE, cache stores, the attention, adds): the "
                "engine's own time a layer (below), and in llama.cpp and Ollama "
                f"{gguf_decode.MOE_DISPATCH_S_PER_LAYER * 1e3:.3g} ms a MoE "
                "layer for its routing and expert dispatch kernels, with LLM.int8 weights in transformers plus "
                f"{engine_speed.BNB_INT8_S_PER_LINEAR * 1e3:.2f} ms a Linear (its outlier check makes the host wait "
                "for the GPU) — then the attention, max(KV cache bytes × reads / (bandwidth × k), its FLOPs; reads 1, or "
                "query heads / KV heads where llama.cpp's kernel loads a KV head once per query head (Apple GPUs; a q8_0 or "
                "q4_0 cache on NVIDIA GPUs, one sequence); a per-head kernel, "
                f"TensorRT-LLM's masked MHA, does them at {engine_speed.PER_HEAD_ATTENTION_SHARE:.2f} of the FP32 peak, "
                "twice that on chips of 64 FP32 lanes per SM: A100, V100, T4), at least "
                "the host floor × layers (in llama.cpp and Ollama where the host launches each kernel — Apple GPUs, "
                f"NVIDIA before Volta — {gguf_decode.HOST_LAUNCHED_S_PER_LAYER * 1e3:.3f} ms a layer and "
                f"{gguf_decode.HOST_LAUNCHED_S_PER_MOE_LAYER * 1e3:.3f} ms more a MoE layer; "
                "in transformers plus, for each Linear a token passes, "
                f"{engine_speed.LINEAR_HOST_S['gptq-int8'] * 1e3:.3f} ms with GPTQ-Int8 and "
                f"{engine_speed.LINEAR_HOST_S['awq'] * 1e3:.3f} ms with AWQ and "
                f"{engine_speed.LINEAR_HOST_S['nf4'] * 1e3:.3f} ms with bitsandbytes 4-bit (NF4 or FP4) weights: CPU work in the "
                "quantized layer's own code; outside llama.cpp and Ollama, × (PassMark single-thread "
                f"{host_cpu.REFERENCE_HOST_MARK:,} of an {host_cpu.REFERENCE_HOST_CPU} / the build's CPU's) ^ "
                f"{host_cpu.HOST_TIME_EXPONENT:g} where the build names its CPU, its mark held within the hosts "
                f"measured ({host_cpu.FITTED_MARKS[0]:,}-{host_cpu.FITTED_MARKS[1]:,})), plus tensor-parallel all-reduces (two a layer; one where the engine adds a "
                "Falcon layer's attention and MLP before reducing: TensorRT-LLM, vLLM). Per engine "
                f"(b, c, floor, k), fitted to published tokens/s: {_engine_constants()} ({_fit_scope()}SGLang: the "
                "floor only, it runs vLLM's kernels); DeepSpeed takes vLLM's, ExLlamaV2 llama.cpp's; llama.cpp's c is "
                f"the prior, its RTX 3090 pp512 ({engine_speed.PRIOR_COMPUTE:.2f}; its prompts' kernel paths have their own).",
                sources=("benchmarks/speed_calibration.py (Qwen2.5 and Qwen3 speed benchmarks)",
                         "bitsandbytes functional.py int8_vectorwise_quant at 81e6345d; its benchmarking README",
                         "PassMark single-thread chart (lainbo/cpu-mark@10c6b6b0; CPUs launched after it: PassMark's "
                         "list of 2025-11-06, emmausconnect/cpumarks@7f858a21); SpareCores sc-inspector-data@804d3c71",
                         "llama.cpp PR #4766 (RTX 3090 llama-bench)", "Megatron-LM arXiv:1909.08053",
                         "TensorRT-LLM decoderMaskedMultiheadAttentionTemplate.h at 2a9abd95 (per-key shuffle reductions)",
                         "TensorRT-LLM models/falcon/model.py at 585c7565, vLLM models/falcon.py at 7477b4f8 "
                         "(one all-reduce per side-by-side layer)",
                         "CUDA C++ Programming Guide, arithmetic instruction throughput",
                         "llama.cpp src/llama-graph.cpp at 434f71a5 (build_moe_ffn)",
                         "llama.cpp ggml-metal.metal at 177ab454; ggml-cuda fattn.cu at 00a2d609 and fattn-vec.cuh at "
                         "026f95b1 (attention kernels that load a KV head per query head)")),
        Formula(term="Prefill and training speed", formula="FLOPs / (peak × c): 2·P per prompt token "
                f"(c per engine, above; in llama.cpp and Ollama a MoE model's routed experts each take their share of "
                f"the micro-batch in tiles of {prefill.MOE_PROMPT_TILE_TOKENS} tokens, so where that share is smaller "
                f"their FLOPs cost tile / share as much; each card's measured matmul share of its peak moves c: power-capped "
                f"inference cards reach less, GeForce cards above their datasheet clock their whole peak); a prompt's "
                f"attention without a fused kernel (transformers' eager attention, llama.cpp and Ollama without flash "
                f"attention) also moves its scores through memory, "
                f"{scores.SCORE_BYTES[Engine.TRANSFORMERS]:g} and {scores.SCORE_BYTES[Engine.LLAMA_CPP]:g} bytes a score, "
                f"at the bandwidth share b; training 6·P per token, 8·P with full "
                f"recomputation, at {flops.TRAIN_MFU:.0%} model-FLOPs utilisation ("
                + ", ".join(f"{g} GPUs {m:.0%}" for g, m in sorted(flops.TRAIN_MFU_BY_FAMILY.items()))
                + "; " + ", ".join(f"{FRAMEWORK_NAMES[Framework(f)]} on {g} {m:.0%}, the same share of the "
                                   "others' elsewhere"
                                   for (f, g), m in sorted(flops.TRAIN_MFU_BY_FRAMEWORK.items()))
                + "; each card's own matmul share of its peak moves it: maximum achievable matmul FLOP/s"
                + f"), × {flops.TRAIN_COMPILE_SPEEDUP:g} with torch.compile; plus one optimizer step a step, "
                "each trained weight (and master copy), its gradient and its optimizer states read and written "
                f"once by a fused AdamW at decode's bandwidth share ({flops.DECODE_BANDWIDTH_EFFICIENCY:.2f}, llama.cpp's "
                f"RTX 3090 tg128; AMP: {_adamw_step_bytes(OptimizerKernel.FUSED):g} "
                "bytes per trained parameter); PyTorch's foreach AdamW passes over each state several times ("
                f"{_adamw_step_bytes(OptimizerKernel.FOREACH):g} bytes) and holds a state-sized temporary; "
                "the framework decides which unless the optimizer kernel is set.",
                sources=("Kaplan et al. 2020 arXiv:2001.08361", "Chinchilla arXiv:2203.15556 App. F",
                         "llama.cpp ggml-cuda/mmq.cuh (get_mmq_x_max_host) and mmid.cu (tokens sorted by expert)",
                         "Llama 3 arXiv:2407.21783 Table 4 (MFU)",
                         "torchtitan docs/performance.md (A100 FSDP2 at 1ea476e9; torch.compile at d4c86e37)",
                         "this project's H100 measurement (tests/data/device/h100-sxm-2026-11-26.jsonl)",
                         "Loshchilov & Hutter arXiv:1711.05101 (AdamW); torch/optim/adamw.py at 002d2f0b (foreach and fused AdamW)",
                         "transformers modeling_llama.py at 00227283 (eager attention); llama.cpp src/llama-graph.cpp at "
                         "434f71a5 (attention without flash attention)",
                         "maximum achievable matmul FLOP/s: stas00/ml-engineering compute/accelerator/README.md at "
                         "744d01e1; zzc0721/torch-performance-test-data database.md at 9d828276")),
    )


def _traffic() -> tuple[Formula, ...]:
    """Traffic between GPUs and between machines."""
    return (
        Formula(term="GPU-to-GPU traffic", formula=f"NCCL's own cost model over a ring (all-reduce moves 2(n−1)/n of "
                f"the data in 2(n−1) steps): {allreduce.NCCL_LAUNCH_S * 1e6:.1f} µs to launch, then the faster of its "
                f"low-latency protocol ({allreduce.NCCL_BASE_LATENCY_S['LL'] * 1e6:.1f} µs + "
                f"{allreduce.NCCL_HOP_LATENCY_S['nvlink']['LL'] * 1e6:.1f} µs a step over NVLink, "
                f"{allreduce.NCCL_HOP_LATENCY_S['pci']['LL'] * 1e6:.1f} µs over PCIe, at half the bandwidth) and its "
                f"bulk protocol; bandwidth: NVLink at {interconnect.NVLINK_EFFICIENCY:.0%} of peak, PCIe peer-to-peer "
                f"at {interconnect.PCIE_P2P_EFFICIENCY:.0%}, PCIe through host memory (no P2P) at "
                f"{interconnect.PCIE_HOST_EFFICIENCY:.0%}. vLLM, SGLang and TensorRT-LLM reduce a tensor-parallel "
                f"layer's output with their own one-shot kernel ({allreduce.CUSTOM_ALL_REDUCE_S * 1e6:.1f} µs + the "
                "bytes each GPU reads) where the GPUs read each other's memory: two GPUs with peer-to-peer, or more "
                "with NVLink between every pair.",
                sources=("NVIDIA/nccl src/graph/tuning.cc at 5067397c", "nccl-tests PERFORMANCE.md",
                         "vLLM custom_all_reduce.py at 00d618aa", "sgl-project/sglang PR #2904",
                         "haohervchb/sglang-V100 PR #2", "dbkinghorn/Notes 2x4090 P2P measurements",
                         "siboehm/bench NVLink measurement", "aikitoria open-gpu-kernel-modules README")),
        Formula(term="Traffic across machines", formula="hierarchical: reduce-scatter inside each machine, all-reduce "
                "of the 1/g shard across the k machines (2(k−1)/k · S/g per GPU) with every GPU on its share of the "
                f"machine's network cards, all-gather inside; the phases overlap. Network at "
                f"{interconnect.INTER_NODE_EFFICIENCY:.1%} of its line rate (measured for EFA, assumed for InfiniBand, "
                f"RoCE and Ethernet), {interconnect.INTER_NODE_LATENCY_S * 1e6:.0f} µs a step where the card states "
                "no latency.",
                sources=("Jia et al. 2018 arXiv:1807.11205 (hierarchical all-reduce)", "ZeRO++ arXiv:2306.10209",
                         "stas00/ml-engineering network/README.md at 744d01e (4x 8 B200 EFA all-reduce)",
                         "lessizzmore/create-a3mega-ztan-fork nccl-tests output at 02dd8f4 (latency)")),
    )
