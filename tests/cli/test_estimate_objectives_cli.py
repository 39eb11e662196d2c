"""``llm-advisor estimate --objective / --precompute-ref / --method adapter``: the commands a user types for them."""


import pytest

from tests.cli_runner import run_cli, run_json


def test_lora_dpo_has_more_activation_memory_than_sft_and_no_reference_copy(capsys):
    # The acceptance command, as typed.
    dpo = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "lora", "--objective", "dpo")
    sft = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "lora")
    assert dpo["memory"]["per_gpu_gib"]["activations"] > sft["memory"]["per_gpu_gib"]["activations"]
    assert dpo["memory"]["per_gpu_gib"]["reference_weights"] == 0
    assert dpo["workload"]["objective"] == "dpo" and sft["workload"]["objective"] == "sft"
    assert any(a.startswith("objective: DPO") for a in dpo["assumptions"])
    assert any("adapters disabled" in a for a in dpo["assumptions"])


def test_full_dpo_reports_a_reference_copy_in_json_and_text(capsys):
    data = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "full", "--objective", "dpo")
    assert data["memory"]["per_gpu_gib"]["reference_weights"] == pytest.approx(
        data["memory"]["per_gpu_gib"]["weights"])  # a 16-bit copy beside the 16-bit policy
    rc, out, _ = run_cli(capsys, "llama-3.1-8b", "--mode", "train", "--method", "full", "--objective", "dpo")
    assert rc == 0 and "Reference model" in out
    pre = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "full", "--objective", "dpo",
                   "--precompute-ref")
    assert pre["memory"]["per_gpu_gib"]["reference_weights"] == 0 and pre["workload"]["precompute_ref"] is True


@pytest.mark.parametrize(("method", "trainable"), [("adapter", 1_229_760), ("adapter-v2", 4_279_744)])
def test_adapter_methods_report_litgpt_trainable_counts(capsys, method, trainable):
    data = run_json(capsys, "llama-2-7b", "--mode", "train", "--method", method)
    assert data["model"]["params_trainable"] == trainable
    assert data["workload"]["framework"] == "litgpt"


@pytest.mark.parametrize(("argv", "flag"), [
    (("--objective", "dpo"), "--objective"),  # inference has no objective
    (("--mode", "train", "--precompute-ref"), "--precompute-ref"),  # sft
    (("--mode", "train", "--method", "adapter", "--lora-rank", "8"), "--lora-rank"),
])
def test_objective_flags_refused_where_they_do_not_apply(capsys, argv, flag):
    rc, out, err = run_cli(capsys, "llama-2-7b", *argv)
    assert rc != 0 and err.strip().count("\n") == 0 and flag in err


def test_objective_choices(capsys):
    rc, _, err = run_cli(capsys, "llama-2-7b", "--mode", "train", "--objective", "kto")
    assert rc != 0 and "sft" in err and "reward" in err
