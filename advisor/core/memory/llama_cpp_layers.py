"""Where llama.cpp puts a GGUF model's weights on its GPUs (``--split-mode layer``): the input embedding stays on the
CPU and the output layer counts as one more layer of the split (ggml-org/llama.cpp src/llama-model.cpp at 00342301,
``load_tensors``). ``advisor.core.memory.inference`` sizes the busiest GPU with it."""

from __future__ import annotations

from advisor.core.job.job import Job
from advisor.core.memory.formats import weight_format
from advisor.core.memory.gguf_mix import MIXES, io_bits
from advisor.core.memory.held import held_format_name
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params


def llama_cpp_device_layers(n_layers: int, devices: int) -> list[tuple[int, bool]]:
    """(repeating layers, holds the output layer) of each of ``devices`` equal GPUs under llama.cpp's layer split:
    ``load_tensors`` counts the output as layer ``n_layers`` of ``n_layers + 1`` and gives layer ``il`` to the first
    device whose cumulative split exceeds ``il / (n_layers + 1)`` (``std::upper_bound`` over the normalized splits;
    ggml-org/llama.cpp src/llama-model.cpp at 00342301, ``get_layer_buft_list``); equal free memory gives equal
    splits. Two GPUs and 80 layers: 41 layers on the first, 39 and the output on the second."""
    layers = [0] * devices
    holds_output = [False] * devices
    for il in range(n_layers + 1):
        d = min(devices - 1, il * devices // (n_layers + 1))
        if il == n_layers:
            holds_output[d] = True
        else:
            layers[d] += 1
    return list(zip(layers, holds_output, strict=True))


def gguf_io_bytes(arch: ModelArch, job: Job) -> tuple[float, float]:
    """(bytes of the input embedding ``token_embd``, bytes of the output layer on a GPU) of a GGUF file: the mix's
    types (``gguf_mix.io_bits``) or the format's. A tied embedding is one tensor in the file, but llama.cpp loads
    it twice: as ``token_embd`` for the input and as a duplicate (``TENSOR_DUPLICATED``) for the output."""
    counts = count_params(arch)
    name = held_format_name(job)  # the GGUF type it runs (gpt-oss's MXFP4 checkpoint: MXFP4_MOE)
    if name in MIXES:
        emb_bits, out_bits = io_bits(arch, name)
    else:
        fmt = weight_format(name, job.quant_group_size, job.double_quant)
        emb_bits = fmt.outside_experts_bits  # the format's own bits, or the rest's where only the experts are quantized
        out_bits = fmt.output_bits_per_weight or emb_bits
        if arch.tied_embeddings:
            emb_bits = out_bits
    emb = counts.embedding * emb_bits / 8
    return emb, (emb if arch.tied_embeddings else counts.lm_head * out_bits / 8)


def llama_cpp_busiest(arch: ModelArch, job: Job, whole: float, kv_whole: float, stages: int
                      ) -> tuple[float, float, float]:
    """(weights, KV cache) on llama.cpp's busiest GPU and the bytes its input layer keeps in host RAM. The input
    embedding always stays on the CPU — "there is very little benefit to offloading the input layer, so always keep
    it on the CPU" (``pimpl->dev_input = { cpu_dev, … }``, src/llama-model.cpp at 00342301) — and the output layer
    goes with the last layers (``llama_cpp_device_layers``)."""
    emb, out = gguf_io_bytes(arch, job)
    file_io = emb if arch.tied_embeddings else emb + out  # what the file holds of them (a tied one once)
    per_layer = max(0.0, whole - file_io) / arch.n_layers
    kv_layer = kv_whole / arch.n_layers
    best = (0.0, 0.0)
    for layers, output in llama_cpp_device_layers(arch.n_layers, max(1, stages)):
        weights, kv = layers * per_layer + (out if output else 0.0), layers * kv_layer
        if weights + kv > sum(best):
            best = (weights, kv)
    return best[0], best[1], emb
