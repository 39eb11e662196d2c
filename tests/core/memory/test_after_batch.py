"""What a training estimate works out after the activations: offload, the optimizer step's temporary, paged
states (``memory.after_batch``)."""

import pytest

from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.params import count_params

from tests.core.memory.memory_fixtures import LLAMA2_7B, TRAIN, full_sizes


def test_offload_moves_optimizer_to_host():
    w = PlannedJob(**TRAIN, n_gpus=2, parallel="zero2", optimizer="adamw-8bit")
    on_gpu = full_sizes(LLAMA2_7B, w)
    off = full_sizes(LLAMA2_7B, w.model_copy(update={"offload": ("optimizer",)}))
    # ZeRO-Offload: states, master and gradients live in host RAM; one layer's grads in flight.
    assert off.optimizer == 0 and off.gradients == 0
    assert off.host == pytest.approx((on_gpu.optimizer + on_gpu.gradients) * 2)
    assert 0 < off.buffers - on_gpu.buffers < on_gpu.gradients / 10


def test_param_offload_keeps_only_gathered_layers():
    w = PlannedJob(**TRAIN, n_gpus=2, parallel="zero3", offload=("optimizer", "params"))
    b = full_sizes(LLAMA2_7B, w)
    assert b.weights == 0 and b.host > 12 * count_params(LLAMA2_7B).total


def test_adamw_foreach_step_peak_when_activations_are_small():
    # torch.optim.AdamW (foreach) allocates sqrt(exp_avg_sq) for all parameters at once during
    # step(), after activations are freed: peak ≈ 2 + 2 + 12 + 4 bytes per parameter.
    # The phases: the optimizer step (states + grads + the temporary) is the peak of a short
    # sequence; a long one peaks in backward, with every activation and the logits alive.
    # The Hugging Face default since transformers 5 with PyTorch 2.8 is the fused kernel: no temporary.
    w = PlannedJob(**TRAIN, checkpointing="full", seq_len=512, optimizer_kernel="foreach")
    r = estimate_memory(LLAMA2_7B, w)
    psi = count_params(LLAMA2_7B).total
    assert r.breakdown.phases[0][0] == "optimizer step"
    assert r.breakdown.peak_allocated == pytest.approx(20 * psi)
    fused = estimate_memory(LLAMA2_7B, w.model_copy(update={"optimizer_kernel": None})).breakdown  # hf: fused
    assert fused.phases[0][0] != "optimizer step" and fused.peak_allocated < 17 * psi
    long = estimate_memory(LLAMA2_7B, PlannedJob(**TRAIN, seq_len=8192))
    assert long.breakdown.phases[0][0] in ("forward end", "backward")
    assert long.breakdown.gradients == 0  # no accumulation: gradients come after the activations are freed
    assert long.breakdown.buffers == pytest.approx(8192 * 32000 * 10)
    accumulating = estimate_memory(LLAMA2_7B, PlannedJob(**TRAIN, seq_len=8192, grad_accum_steps=4)).breakdown
    assert accumulating.gradients > 0 and accumulating.total > long.breakdown.total


def test_paged_optimizer_states_are_needed_but_not_allocated():
    # bitsandbytes' paged optimizers keep their states in CUDA managed memory (functional.get_paged:
    # cudaMallocManaged): in what the GPU needs, not in torch.cuda.max_memory_allocated / _reserved.
    qlora = dict(mode="train", method="qlora", weights="nf4", seq_len=512)
    plain = estimate_memory(LLAMA2_7B, PlannedJob(**qlora, optimizer="adamw-8bit")).breakdown
    paged = estimate_memory(LLAMA2_7B, PlannedJob(**qlora, optimizer="paged-adamw-8bit")).breakdown
    assert plain.paged == 0 and paged.paged == pytest.approx(paged.optimizer) and paged.optimizer > 0
    assert paged.total == pytest.approx(plain.total)
    assert paged.peak_allocated == pytest.approx(plain.peak_allocated - paged.optimizer)
    assert paged.peak_reserved == pytest.approx(plain.peak_reserved - paged.optimizer)
    offloaded = estimate_memory(LLAMA2_7B, PlannedJob(**qlora, optimizer="paged-adamw-8bit", offload=("optimizer",)))
    assert offloaded.breakdown.paged == 0  # states in host RAM: nothing paged on the GPU
