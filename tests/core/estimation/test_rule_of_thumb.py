"""The seeds' rules of thumb: their own worked numbers, and a why_different that names the gap."""

import pytest

from advisor.core.estimation.rule_of_thumb import nominal_bits, rule_of_thumb
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.peak import estimate_memory
from advisor.core.model.arch import ModelArch
from advisor.core.units import GB, GIB

LLAMA2_7B = ModelArch(id="llama-2-7b", name="Llama 2 7B", n_layers=32, hidden_size=4096, n_heads=32,
                      n_kv_heads=32, head_dim=128, ffn_size=11008, vocab_size=32000)
LLAMA2_70B = ModelArch(id="llama-2-70b", name="Llama 2 70B", n_layers=80, hidden_size=8192, n_heads=64,
                       n_kv_heads=8, head_dim=128, ffn_size=28672, vocab_size=32000)
PSI_7B = 6_738_415_616


# Seed 000 "Estimate Memory Usage for Inference": 7B → 28 / 14 / 7 / 3.5 GB (fp32 / bf16 / int8 / int4),
# with the exact parameter count of Llama-2-7B in place of "7B".
@pytest.mark.parametrize(("weights", "bytes_per_param"), [("fp32", 4), ("bf16", 2), ("int8", 1), ("nf4", 0.5),
                                                          ("gptq", 0.5), ("q4_k_m", 0.5), ("q8_0", 1)])
def test_inference_weights_rule(weights, bytes_per_param):
    r = rule_of_thumb(LLAMA2_7B, PlannedJob(weights=weights))
    assert r.total_bytes == PSI_7B * bytes_per_param


def test_seed_70b_bf16_cell_is_140_not_150():
    r = rule_of_thumb(LLAMA2_70B, PlannedJob(weights="bf16"))
    assert r.total_bytes / GB == pytest.approx(138, abs=1)  # 68.98B × 2: the seed's "150 GB" is a typo


@pytest.mark.parametrize(("method", "bytes_per_param"),
                         [("full", 16), ("lora", 4), ("qlora", 16 * 0.25 * 0.6 * 0.5)])
def test_training_rules(method, bytes_per_param):
    r = rule_of_thumb(LLAMA2_7B, PlannedJob(mode="train", method=method))
    assert r.total_bytes == pytest.approx(PSI_7B * bytes_per_param)


def test_why_different_reports_both_totals_and_main_terms():
    w = PlannedJob(mode="train", method="qlora", weights="nf4", seq_len=4096)
    r = rule_of_thumb(LLAMA2_7B, w)
    detailed = estimate_memory(LLAMA2_7B, w).breakdown.total
    assert f"{detailed / GIB:.1f} GiB" in r.why_different  # one unit per sentence: a reader compares them
    assert f"{r.total_bytes / GIB:.1f} GiB" in r.why_different and " GB" not in r.why_different
    assert "activations" in r.why_different  # the biggest term the rule leaves out here


def test_given_breakdown_is_used_and_matches_the_computed_one(monkeypatch):
    w = PlannedJob(mode="train", method="lora", seq_len=2048)
    breakdown = estimate_memory(LLAMA2_7B, w).breakdown
    assert rule_of_thumb(LLAMA2_7B, w, breakdown) == rule_of_thumb(LLAMA2_7B, w)
    import advisor.core.estimation.rule_of_thumb as rot

    def _fail(*_a, **_k):
        raise AssertionError("estimate_memory must not run when a breakdown is given")

    monkeypatch.setattr(rot, "estimate_memory", _fail)
    doubled = breakdown.model_copy(update={"activations": 2 * breakdown.activations})
    r = rule_of_thumb(LLAMA2_7B, w, doubled)
    assert f"{doubled.total / GIB:.1f} GiB" in r.why_different


def test_inference_why_mentions_kv_cache():
    r = rule_of_thumb(LLAMA2_7B, PlannedJob(context_len=32768))
    assert "kv cache" in r.why_different.lower()


@pytest.mark.parametrize(("name", "bits"), [("iq2_xxs", 2), ("q3_k_m", 3), ("q6_k", 6), ("fp8", 8)])
def test_nominal_bits(name, bits):
    assert nominal_bits(name) == bits


def test_nominal_bits_unknown():
    with pytest.raises(ValueError):
        nominal_bits("mystery")
