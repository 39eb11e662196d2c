"""What each control means, in a sentence or two, with the source of the technique."""

TIPS: dict[str, str] = {
    "model": "The model to fit. Presets come from published config.json files (catalog/models/); "
             "type to search.",
    "generic": "Any size: a generic dense decoder of this many parameters, shaped like the Llama "
               "family (hidden size, layers and heads scaled together). Good for 'how big could I go?'.",
    "import": "Open a Hugging Face config.json, a model folder or a .gguf file; its architecture is read "
              "and stored in the comparison so the file stands alone. You can also drop one on the window.",
    "mode": "Inference serves a trained model; fine-tuning trains it (all weights, or small adapters).",
    "weights": "How weights are stored. bf16/fp16: 2 bytes each. int8: LLM.int8() (Dettmers et al. 2022, "
               "arXiv:2208.07339). nf4/fp4: bitsandbytes 4-bit as in QLoRA (arXiv:2305.14314). "
               "gptq: GPTQ (Frantar et al. 2022, arXiv:2210.17323). awq: AWQ (Lin et al. 2023, "
               "arXiv:2306.00978). q4_k_m and friends: llama.cpp GGUF block quantization. "
               "TensorRT-LLM before 0.10 runs an MoE model's experts in 16-bit even in an fp8 build.",
    "engine": "The program serving the model. vLLM pre-allocates a share of the card for a paged KV cache "
              "(PagedAttention, Kwon et al. 2023, arXiv:2309.06180); llama.cpp runs GGUF files; "
              "transformers is the Hugging Face reference implementation; TensorRT-LLM compiles the model for "
              "NVIDIA GPUs only (FP8 from Ada) and runs sequences past the model's trained length.",
    "context_len": "Tokens per sequence (prompt plus output). The KV cache grows linearly with it: "
                   "2 × layers × KV heads × head size × bytes per element, per token.",
    "prompt_tokens": "The prompt's share of the context; the rest is generated. Set, the speed is that of one "
                     "such request for every sequence: the first token after the prompt, then the generation at "
                     "the decode speed of its middle, and the whole request's time (how published throughput "
                     "tables time a batch). Not set: decode speed at the full context.",
    "batch": "Inference: sequences served at once by the whole build (each has its own KV cache; "
             "copies of the model on several GPUs share them out). Fine-tuning: the "
             "micro-batch per GPU per step (activations grow with it).",
    "kv_dtype": "Element type of the KV cache. fp8 halves it against bf16 (vLLM --kv-cache-dtype fp8); "
                "q8_0/q4_0 are llama.cpp's quantized caches.",
    "engine_version": "The TensorRT-LLM version that serves the model. Versions before 0.7 decode every model one "
                      "query head at a time; up to 0.9, a model whose head layout its precompiled XQA kernels do "
                      "not cover (8 query heads per KV head, head size 128 or 256) does too; before 0.10, an FP8 "
                      "build keeps an MoE model's experts in 16-bit. current: as a current version runs it.",
    "decode_attention": "How the engine's kernel reads the KV cache while generating. grouped: once per KV head "
                        "for all the query heads that share it (FlashAttention, vLLM, SGLang, TensorRT-LLM's XQA). "
                        "per-head: once per query head on the CUDA cores (TensorRT-LLM's masked attention, what "
                        "versions before 0.7 ran, and later ones for head layouts XQA lacks): slower at large "
                        "batches for models that share KV heads.",
    "gpu_memory_utilization": "vLLM pre-allocates this share of each card's memory at start and fills the "
                              "rest of its share with KV-cache blocks (vLLM docs, --gpu-memory-utilization).",
    "method": "Full: every weight is trained. LoRA: the base is frozen and small low-rank adapters are "
              "trained (Hu et al. 2021, arXiv:2106.09685). QLoRA: LoRA on a 4-bit NF4 base "
              "(Dettmers et al. 2023, arXiv:2305.14314). adapter / adapter-v2: LitGPT's LLaMA-Adapter, a "
              "learned 10-token prompt in each layer from the third (arXiv:2303.16199), and v2, which also "
              "trains every layer's biases, scales and norms (arXiv:2304.15010).",
    "objective": "What the training teaches. Instruction tuning (SFT): example answers. Preference tuning "
                 "(DPO, arXiv:2305.18290; ORPO, arXiv:2403.07691): a preferred and a rejected answer per "
                 "example, so twice the sequences per step; DPO with full fine-tuning also keeps a frozen "
                 "reference copy of the model. Reward model: scores answer pairs (a scalar head, no "
                 "vocabulary). Rejection sampling is two jobs: generate answers (inference), then SFT.",
    "framework": "The training framework (Hugging Face: Trainer with PEFT or TRL): its defaults for the loss, checkpointing, torch.compile, activation "
                 "offload and the allocator differ and change peak memory (tests/data/FRAMEWORK_PROFILES.md "
                 "names each default with its source).",
    "loss": "How the cross-entropy over the vocabulary is computed: full logits (upcast to fp32), chunked "
            "(torchtune, LitGPT) or fused with the output layer (Liger), which never holds all logits.",
    "activation_offload": "Keep the saved activations in host RAM during the step (torchtune, Unsloth): "
                          "less GPU memory, more PCIe traffic.",
    "compile": "torch.compile: fuses operations, which changes activation memory and speed.",
    "optimizer_in_backward": "Step the optimizer inside the backward pass, one tensor at a time, and free each "
                             "gradient at once (torchtune optimizer_in_bwd): about one tensor's gradient alive "
                             "instead of all of them. Full fine-tuning without gradient accumulation.",
    "optimizer_kernel": "How PyTorch's AdamW runs its step. Fused: one kernel reads and writes each weight, "
                        "gradient and optimizer state once. Foreach (PyTorch's own default): several passes "
                        "over the optimizer states and a temporary as large as one of them, so a slower step "
                        "and more memory. Hugging Face (transformers 5 with PyTorch 2.8 or later), torchtune "
                        "and torchtitan use fused; LitGPT, and PyTorch's AdamW wherever a script does not "
                        "choose, use foreach.",
    "activation_quant": "Store the activations kept for the backward pass in 8 bits instead of 16: half "
                        "their memory, at some cost in accuracy and speed.",
    "loss_chunks": "How many pieces the chunked cross-entropy splits the vocabulary's logits into: more "
                   "pieces, less memory at the loss (torchtune uses 8).",
    "checkpoint_every": "Recompute only every K-th layer's activations in the backward pass (1: every layer): "
                        "the other layers keep theirs, more memory, less recomputation.",
    "tp": "Split each layer across this many GPUs inside FSDP (2-D FSDP × tensor parallel, as torchtitan "
          "does for large models); 1: no tensor parallel.",
    "cp": "Split each long sequence across this many GPUs inside FSDP (context parallel, as torchtitan does "
          "for long contexts); 1: no split.",
    "bnb_legacy": "QLoRA with bitsandbytes older than 0.43.2: every 4-bit layer keeps its input for the "
                  "backward pass, not only the layers with an adapter.",
    "expandable_segments": "PyTorch's allocator with expandable segments (PYTORCH_CUDA_ALLOC_CONF): less memory "
                           "reserved beyond what is allocated.",
    "precompute_ref": "DPO: compute the reference model's scores once before training (TRL "
                      "precompute_ref_log_probs), so no reference copy is held during training.",
    "precision": "amp: bf16 compute with fp32 master weights (Micikevicius et al. 2018, arXiv:1710.03740). "
                 "bf16: everything in bf16. fp32: everything in 4-byte floats.",
    "optimizer": "AdamW keeps two fp32 states per trained weight (8 bytes). 8-bit AdamW keeps them in 8 bits "
                 "(Dettmers et al. 2021, arXiv:2110.02861); paged variants spill to host memory on "
                 "pressure. SGD (no momentum) keeps none; Adafactor factorizes the second moment.",
    "seq_len": "Training sequence length in tokens: activations grow with it (quadratically for eager "
               "attention, linearly with FlashAttention).",
    "checkpointing": "Activation recomputation: keep only some activations and recompute the rest in the "
                     "backward pass, trading ~30 % more compute for much less memory (Korthikanti et al. "
                     "2022, arXiv:2205.05198). Selective recomputes only attention.",
    "attention": "FlashAttention computes attention in tiles without storing the seq × seq score matrix "
                 "(Dao et al. 2022, arXiv:2205.14135); sdpa is PyTorch's fused kernel; eager stores it: more "
                 "memory in training, a slower prompt. In inference it is chosen with transformers and llama.cpp "
                 "(flash: llama.cpp's flash attention on); vLLM, SGLang, TensorRT-LLM, ExLlamaV2 and DeepSpeed always "
                 "fuse it, and Ollama leaves it off unless its flash-attention setting is turned on.",
    "lora_rank": "Rank r of each adapter: it adds r × (d_in + d_out) trainable weights per adapted matrix "
                 "(Hu et al. 2021, arXiv:2106.09685 §4).",
    "lora_targets": "Which projections get adapters: attention q/k/v/o and the MLP gate/up/down. "
                    "QLoRA adapts all linear layers (arXiv:2305.14314 §4).",
    "grad_accum_steps": "Micro-batches summed before one optimizer step: a larger effective batch "
                        "without more memory.",
    "dataset_tokens": "Tokens in your training set, in millions, for the run's hours and cost on each build "
                      "(Value tab and the PDF). Pre-training: about 20 tokens per parameter is compute-optimal "
                      "(Hoffmann et al. 2022, arXiv:2203.15556). Leave at 'not set' to see speed only.",
    "epochs": "Passes over the dataset: the run trains dataset × epochs tokens.",
    "n_gpus": "GPUs the job uses (at most the build's count).",
    "parallel": "How the work is split over GPUs. ddp: a full copy per GPU, gradients all-reduced. "
                "zero1/2/3: optimizer states, gradients and weights sharded (ZeRO, Rajbhandari et al. 2019, "
                "arXiv:1910.02054). fsdp: PyTorch's fully sharded data parallel (Zhao et al. 2023, "
                "arXiv:2304.11277). tp: every layer split across GPUs, two all-reduces per layer (Megatron, "
                "Shoeybi et al. 2019, arXiv:1909.08053; one for Falcon in TensorRT-LLM and vLLM, which add "
                "its side-by-side attention and MLP first). pp/layer-split: whole layers per GPU.",
    "offload": "Move optimizer states (or weights) to host RAM between uses (ZeRO-Offload): less GPU "
               "memory, much slower steps, host RAM needed.",
    "double_quant": "Quantize the 4-bit blocks' scale constants too: ~0.37 bits per weight saved "
                    "(QLoRA §3, arXiv:2305.14314).",
}
