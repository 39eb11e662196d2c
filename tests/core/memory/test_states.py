"""Model states' bytes per parameter by precision and optimizer, and LoRA's trainable count (``memory.states``)."""

import pytest

from advisor.core.job.planned import PlannedJob
from advisor.core.memory.inference import (
    weights_bytes,
)
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.params import count_params, lora_params

from tests.core.memory.memory_fixtures import LLAMA2_7B, TRAIN, full_sizes


@pytest.mark.parametrize(
    ("precision", "optimizer", "bytes_per_param"),
    [
        ("amp", "adamw", 16),  # 2 + 2 + 12 (ZeRO §3.1)
        ("fp32", "adamw", 16),  # 4 + 4 + 8
        ("bf16", "adamw", 8),  # 2 + 2 + 2·2
        ("amp", "adamw-8bit", 10),  # 2 + 2 + 4 master + 2·1 (Dettmers et al. 2022)
        ("amp", "paged-adamw-8bit", 10),
        ("amp", "sgd", 12),  # 2 + 2 + 4 master + 4 momentum
    ],
)
def test_full_finetune_bytes_per_param(precision, optimizer, bytes_per_param):
    b = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, precision=precision, optimizer=optimizer))
    assert b.weights + b.gradients + b.optimizer == pytest.approx(bytes_per_param * count_params(LLAMA2_7B).total)


def test_adafactor_states_are_factored():
    b = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, optimizer="adafactor"))
    psi = count_params(LLAMA2_7B).total
    assert 4 * psi < b.optimizer < 4.01 * psi  # master copy + row/column vectors only


def test_lora_trains_exact_adapter_count_in_fp32():
    w = PlannedJob(**TRAIN, method="lora", lora_rank=16)
    r = estimate_memory(LLAMA2_7B, w)
    n = lora_params(LLAMA2_7B, 16, w.lora_targets)
    assert r.params_trainable == n
    b = r.sizes
    assert (b.adapters, b.gradients, b.optimizer) == (4 * n, 4 * n, 8 * n)
    assert b.weights == weights_bytes(LLAMA2_7B, w)
