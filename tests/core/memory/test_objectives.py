"""Training objectives (SFT, DPO, ORPO, reward) and LitGPT's adapter methods.

One row per cited source:
* LitGPT's adapter code at 26857050 (litgpt/adapter.py, adapter_v2.py) and its resource tables
  (tutorials/resource-tables.md at 4839345: trainable parameter counts printed by the scripts);
* TRL's DPOTrainer at f2cd577 (reference copy unless PEFT or precompute_ref_log_probs; chosen
  and rejected concatenated into one batch) and the DPO / ORPO papers (arXiv:2305.18290, 2403.07691);
* TRL's RewardTrainer (``num_labels = 1``: a scalar head, no vocabulary logits).
"""

import pytest

from advisor.core.job.choices import Framework, Method, Objective
from advisor.core.job.frameworks import apply_framework
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.states import trainable_params_of
from advisor.core.memory.objectives import PAIR_SEQUENCES, TRL_COMMIT, reference_weights_bytes
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import (
    ADAPTER_PROMPT_LENGTH,
    ADAPTER_START_LAYER,
    adapter_params,
    count_params,
)
from advisor.core.speed import inference as sp
from advisor.core.speed.flops import matmul_params, train_flops_per_token
from advisor.core.speed.training import reference_forward_flops_per_token
from tests.core.speed.speed_fixtures import llama2_7b, one_4090

#: A small Llama-shaped config to count by hand.
TINY = ModelArch(id="tiny", name="Tiny", n_layers=4, hidden_size=64, n_heads=4, n_kv_heads=2, head_dim=16,
                 ffn_size=128, vocab_size=1000)


def train(**kw) -> PlannedJob:
    return PlannedJob(mode="train", **kw)


def test_litgpt_defaults_are_pinned():
    # litgpt/adapter.py Config: adapter_prompt_length: int = 10, adapter_start_layer: int = 2
    assert (ADAPTER_PROMPT_LENGTH, ADAPTER_START_LAYER) == (10, 2)


def test_adapter_params_of_a_small_config_by_hand():
    """TINY: 4 layers, hidden 64, 4 heads (2 KV heads of 16), MLP 128, vocab 1000.

    Adapter (v1): layers 2 and 3 get adapter_wte (10 × 64 = 640) and gating_factor (4): 2 × 644 = 1,288.
    Adapter v2 adds 2 × out_features per Linear: q 64 + k 32 + v 32 (LitGPT's fused qkv: 128),
    proj 64, fc_1 128, fc_2 128, proj 64 = 512 per layer → 2 × 512 × 4 = 4,096; lm_head 2 × 1000 = 2,000;
    norms 2 × 64 per layer + ln_f 64 = 576. v2 total 1,288 + 4,096 + 2,000 + 576 = 7,960.
    """
    assert adapter_params(TINY) == 1_288
    assert adapter_params(TINY, v2=True) == 7_960


@pytest.mark.parametrize(("method", "published"), [
    # LitGPT resource tables (tutorials/resource-tables.md at 4839345a), Llama 2 7B rows.
    ("adapter", 1_229_760),
    ("adapter-v2", 4_279_744),
])
def test_adapter_params_match_litgpt_resource_tables(method, published):
    w = train(method=method)
    assert trainable_params_of(llama2_7b(), w) == published
    assert estimate_memory(llama2_7b(), w).params_trainable == published


def test_adapter_methods_default_to_litgpt_and_its_pure_bf16():
    w = apply_framework(train(method="adapter"))
    assert w.framework is Framework.LITGPT and w.precision.value == "bf16"
    assert apply_framework(train(method="adapter", framework="hf")).framework is Framework.HF  # a choice stands


def test_adapter_memory_frozen_bf16_base_and_tiny_states():
    a = llama2_7b()
    lora = estimate_memory(a, train(method="lora", framework="litgpt")).breakdown
    for method in ("adapter", "adapter-v2"):
        b = estimate_memory(a, train(method=method)).breakdown
        assert b.weights == lora.weights  # the same frozen 16-bit base
        assert b.gradients < 0.1 * 2**30 and b.optimizer < 0.1 * 2**30
        assert b.reference_weights == 0
    v1 = estimate_memory(a, train(method="adapter")).breakdown
    v2 = estimate_memory(a, train(method="adapter-v2")).breakdown
    assert v2.activations > v1.activations  # every Linear's output kept for its scale


# --- objectives ------------------------------------------------------------------------
@pytest.mark.parametrize(("method", "objective", "precompute", "has_reference"), [
    ("full", "sft", False, False),
    ("full", "dpo", False, True),  # TRL: a second copy of the checkpoint
    ("full", "dpo", True, False),  # precompute_ref_log_probs: no reference in memory
    ("lora", "dpo", False, False),  # PEFT: the base with adapters disabled
    ("qlora", "dpo", False, False),
    ("adapter", "dpo", False, False),
    ("full", "orpo", False, False),  # ORPO has no reference model
    ("full", "reward", False, False),
])
def test_reference_model_by_trl_rules(method, objective, precompute, has_reference):
    w = train(method=method, objective=objective, precompute_ref=precompute,
              weights="nf4" if method == "qlora" else "bf16")
    b = estimate_memory(llama2_7b(), w).breakdown
    assert (b.reference_weights > 0) is has_reference
    if has_reference:
        assert b.reference_weights == pytest.approx(count_params(llama2_7b()).total * 2)  # 16-bit copy
    assert len(TRL_COMMIT) == 40


def test_reference_is_sharded_like_the_policy_under_fsdp_and_replicated_under_ddp():
    a = llama2_7b()
    full = reference_weights_bytes(a, train(method="full", objective="dpo"))
    fsdp = estimate_memory(a, train(method="full", objective="dpo", n_gpus=8, parallel="fsdp")).breakdown
    ddp = estimate_memory(a, train(method="full", objective="dpo", n_gpus=8, parallel="zero2")).breakdown
    assert fsdp.reference_weights == pytest.approx(full / 8)
    assert fsdp.reference_weights == pytest.approx(fsdp.weights)
    assert ddp.reference_weights == pytest.approx(full)


@pytest.mark.parametrize("objective", ["dpo", "orpo", "reward"])
def test_paired_objectives_keep_activations_of_chosen_and_rejected(objective):
    a = llama2_7b()
    sft = estimate_memory(a, train(method="lora", batch=1)).sizes
    pair = estimate_memory(a, train(method="lora", batch=1, objective=objective)).sizes
    doubled = estimate_memory(a, train(method="lora", batch=PAIR_SEQUENCES)).sizes
    assert pair.activations == pytest.approx(doubled.activations)
    assert pair.activations == pytest.approx(2 * sft.activations)


def test_reward_model_has_no_vocabulary_logits_or_lm_head():
    a = llama2_7b()
    orpo = estimate_memory(a, train(method="full", objective="orpo")).sizes
    reward = estimate_memory(a, train(method="full", objective="reward"))
    assert reward.sizes.buffers < orpo.buffers  # no logits
    counts = count_params(a)
    assert reward.params_trainable == counts.total - counts.lm_head + a.hidden_size  # score head, hidden → 1
    lora_reward = estimate_memory(a, train(method="lora", objective="reward")).breakdown
    lora_sft = estimate_memory(a, train(method="lora")).breakdown
    assert lora_reward.weights == pytest.approx(lora_sft.weights - counts.lm_head * 2)


def test_objective_and_method_in_the_assumptions():
    notes = estimate_memory(llama2_7b(), train(method="lora", objective="dpo")).assumptions
    assert any(n.startswith("objective: DPO") and "arXiv:2305.18290" in n and "method: LoRA" in n for n in notes)
    notes = estimate_memory(llama2_7b(), train(method="adapter")).assumptions
    assert any(n.startswith("objective: supervised fine-tuning") for n in notes)
    assert any("1,229,760 trainable params" in n for n in notes)


# --- speed ----------------------------------------------------------------------------
def _speed(w):
    a = llama2_7b()
    return sp.estimate_speed(a, w, one_4090(), estimate_memory(a, w).breakdown)


def test_dpo_reference_forward_is_2n_per_token():
    a = llama2_7b()
    w = train(method="full", objective="dpo", seq_len=2)
    assert reference_forward_flops_per_token(a, w) == pytest.approx(2 * matmul_params(a), rel=1e-3)
    # ≈ 1/3 of full fine-tuning's 6N
    assert reference_forward_flops_per_token(a, w) / train_flops_per_token(a, w) == pytest.approx(1 / 3, rel=1e-2)
    assert reference_forward_flops_per_token(a, train(method="full", objective="dpo", precompute_ref=True)) == 0
    assert reference_forward_flops_per_token(a, train(method="full", objective="orpo")) == 0


@pytest.mark.parametrize(("objective", "precompute", "step_ratio"), [
    ("orpo", False, 2.0),  # twice the sequences, the same work per token
    ("reward", False, None),  # twice the sequences, no vocabulary projection: less than 2×
    ("dpo", True, 2.0),
    ("dpo", False, None),  # plus the reference forward
])
def test_paired_objectives_double_the_step(objective, precompute, step_ratio):
    sft = _speed(train(method="lora", seq_len=1024))
    pair = _speed(train(method="lora", seq_len=1024, objective=objective, precompute_ref=precompute))
    ratio = pair.step_time_s / sft.step_time_s
    if step_ratio is not None:
        # twice the matmul work; the optimizer step (once per step, a LoRA's adapters: under 1 % of it) is not
        assert ratio == pytest.approx(step_ratio, rel=1e-2) and ratio < step_ratio
        assert pair.train_tokens_per_s == pytest.approx(sft.train_tokens_per_s, rel=1e-2)  # chosen + rejected tokens
    elif objective == "dpo":
        assert ratio > 2.0 and pair.train_tokens_per_s < sft.train_tokens_per_s
    else:
        assert 1.5 < ratio < 2.0


def test_objective_enum_is_the_cli_vocabulary():
    assert [o.value for o in Objective] == ["sft", "dpo", "orpo", "reward"]
    assert [o.paired for o in Objective] == [False, True, True, True]
    assert Method.ADAPTER.litgpt_adapter and Method.ADAPTER_V2.litgpt_adapter and not Method.LORA.litgpt_adapter


def test_fit_plot_draws_an_adapter_job_as_the_current_technique():
    from advisor.core.advice.evaluate import technique_workloads

    variants, current = technique_workloads(train(method="adapter-v2", objective="dpo"))
    assert current == "LLaMA-Adapter V2 (LitGPT) (current)" and variants[current].method is Method.ADAPTER_V2
    assert {"full fine-tune", "LoRA", "QLoRA"} <= set(variants)
    assert all(v.objective is Objective.DPO for v in variants.values())  # the objective is kept for every technique
