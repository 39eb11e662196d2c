"""llama.cpp's layer placement (advisor.core.memory.llama_cpp_layers): the input embedding stays on the CPU, the output
layer counts as one more layer of the split (ggml-org/llama.cpp src/llama-model.cpp, load_tensors)."""

from __future__ import annotations

import pytest

from advisor.core.job.choices import Engine, Parallel
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.inference import estimate_inference, weights_bytes
from advisor.core.memory.llama_cpp_layers import (
    gguf_io_bytes,
    llama_cpp_busiest,
    llama_cpp_device_layers,
)
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def models():
    return load_catalog(migrate_user_files=False).catalog.models


@pytest.mark.parametrize(("layers", "devices", "expected"), [
    (80, 2, [(41, False), (39, True)]),  # 81 slots: il 0-40 on the first (40/81 < 1/2), 41-80 on the second
    (32, 1, [(32, True)]),
    (94, 4, [(24, False), (24, False), (24, False), (22, True)]),
    (61, 3, [(21, False), (21, False), (19, True)]),
])
def test_the_output_layer_is_one_more_layer_of_the_split(layers, devices, expected):
    placed = llama_cpp_device_layers(layers, devices)
    assert placed == expected
    assert sum(n for n, _ in placed) == layers and sum(o for _, o in placed) == 1


def test_the_input_embedding_stays_in_host_ram(models):
    """Qwen2.5 72B Q4_K_M on two 24 GB cards: the busiest card holds 41 of 80 layers, not 40 plus the embedding."""
    arch = models["qwen2.5-72b"]
    w = PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP, n_gpus=2, parallel=Parallel.LAYER_SPLIT)
    whole = weights_bytes(arch, w)
    emb, out = gguf_io_bytes(arch, w)
    assert emb == pytest.approx(152_064 * 8192 * 4.5 / 8)  # token_embd at Q4_K
    assert out == pytest.approx(152_064 * 8192 * 6.5625 / 8)  # output.weight at Q6_K
    weights, kv, host = llama_cpp_busiest(arch, w, whole, 0.0, 2)
    assert host == emb
    assert weights == pytest.approx(41 * (whole - emb - out) / 80)  # 41 layers outweigh 39 and the output
    mem = estimate_inference(arch, w, 24 * 2**30, None)
    assert mem.breakdown.weights == pytest.approx(weights) and mem.breakdown.host == 0.0
    assert any("input embedding" in n for n in mem.assumptions)


def test_a_tied_embedding_is_loaded_twice(models):
    """A tied embedding is one tensor in the file; llama.cpp keeps it on the CPU for the input and a duplicate on
    the GPU for the output: the GPU holds the whole file."""
    arch = models["llama-3.2-1b"]
    assert arch.tied_embeddings
    w = PlannedJob(weights="q4_k_m", engine=Engine.LLAMA_CPP)
    whole = weights_bytes(arch, w)
    emb, out = gguf_io_bytes(arch, w)
    assert emb == out
    weights, _kv, host = llama_cpp_busiest(arch, w, whole, 0.0, 1)
    assert weights == pytest.approx(whole) and host == emb
