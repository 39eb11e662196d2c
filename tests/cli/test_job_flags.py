"""The job's flags come from the settings' declarations (``advisor.cli._job_flags``): one per setting, the
bounds of the model, a flag for a setting the job ignores refused, and the command line saying what it does
(which GPUs it plans on, the default job, long-context fine-tuning)."""

import re
from pathlib import Path

import pytest

from advisor.cli import build_parser
from advisor.cli._job_flags import FIELD_FLAGS, whole_in
from advisor.core.job.defaults import default_job_words
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import SETTINGS, setting
from tests.cli_runner import run_cli, run_json

ROOT = Path(__file__).resolve().parents[2]


def _estimate_help() -> str:
    sub = build_parser()._subparsers._group_actions[0].choices["estimate"]
    return sub.format_help()


def test_every_declared_flag_is_an_option_and_every_field_has_one():
    text = _estimate_help()
    for s in SETTINGS:
        assert s.flag is not None, s.name  # every setting of the job has a flag
        assert re.search(rf"{re.escape(s.flag)}\b", text), s.flag
    assert set(FIELD_FLAGS) == set(PlannedJob.model_fields)
    assert len(set(FIELD_FLAGS.values())) == len(FIELD_FLAGS)  # no flag sets two settings


def test_bounds_are_read_from_the_model(capsys):
    parse = whole_in(setting("batch"))
    most = int(PlannedJob.model_fields["batch"].metadata[-1].le)
    assert parse(str(most)) == most
    with pytest.raises(Exception, match=f"{most:,}"):
        parse(str(most + 1))
    rc, _out, err = run_cli(capsys, "llama-2-7b", "--batch", str(most + 1))
    assert rc == 2 and "--batch" in err and f"from 1 to {most:,}" in err


@pytest.mark.parametrize(("argv", "flag", "words"), [
    (["--mode", "train", "--method", "full", "--lora-rank", "8"], "--lora-rank", "only applies to --method lora or qlora"),
    (["--lora-rank", "8"], "--lora-rank", "only applies to --mode train"),
    (["--mode", "train", "--precompute-ref"], "--precompute-ref", "only applies to --objective dpo"),
    (["--engine", "vllm", "--engine-version", "0.9"], "--engine-version", "only applies to --engine tensorrt-llm"),
    (["--mode", "train", "--loss-chunks", "4"], "--loss-chunks", "only applies to --loss chunked"),
    (["--double-quant"], "--double-quant", "only applies to --weights nf4 or fp4"),
    (["--mode", "train", "--context", "1024"], "--context", "only applies to --mode inference"),
    (["--seq-len", "1024"], "--seq-len", "only applies to --mode train"),
    (["--epochs", "2"], "--epochs", "only applies to --mode train"),
    (["--engine", "llama.cpp", "--gpu-memory-utilization", "0.8"], "--gpu-memory-utilization", "only applies to"),
])
def test_a_flag_the_job_would_ignore_is_refused_naming_it(capsys, argv, flag, words):
    rc, out, err = run_cli(capsys, "llama-2-7b", *argv)
    assert rc == 2 and out == ""
    assert err.strip().endswith(f"{flag}: {words}") or f"{flag}: {words}" in err, err


def test_the_same_flags_where_they_apply_are_taken(capsys):
    for argv in (["--mode", "train", "--method", "lora", "--lora-rank", "8"],
                 ["--mode", "train", "--objective", "dpo", "--precompute-ref"],
                 ["--mode", "train", "--loss", "chunked", "--loss-chunks", "4"],
                 ["--mode", "train", "--framework", "torchtune", "--loss-chunks", "4"],  # torchtune's loss is chunked
                 ["--weights", "nf4", "--double-quant"], ["--engine", "tensorrt-llm", "--engine-version", "0.9"]):
        run_json(capsys, "llama-2-7b", *argv)


def test_the_flags_the_cli_lacked_now_set_the_job(capsys):
    # vLLM's --gpu-memory-utilization and GPTQ's group size had no flag: a smaller share leaves a smaller KV
    # cache, a smaller group costs more bits (4 + 20 / group).
    base = ["llama-3.1-8b", "--gpu", "h100-sxm", "--engine", "vllm"]
    share = run_json(capsys, *base, "--gpu-memory-utilization", "0.5")
    full = run_json(capsys, *base)
    assert share["workload"]["gpu_memory_utilization"] == 0.5
    assert share["memory"]["per_gpu_gib"]["kv_cache"] < full["memory"]["per_gpu_gib"]["kv_cache"]
    g32 = run_json(capsys, "llama-2-7b", "--weights", "gptq", "--engine", "transformers", "--quant-group-size", "32")
    g128 = run_json(capsys, "llama-2-7b", "--weights", "gptq", "--engine", "transformers")
    assert g32["workload"]["quant_group_size"] == 32
    assert g32["memory"]["per_gpu_gib"]["weights"] > g128["memory"]["per_gpu_gib"]["weights"]
    rc, _out, err = run_cli(capsys, "llama-2-7b", "--gpu-memory-utilization", "1.5")
    assert rc == 2 and "--gpu-memory-utilization" in err


def test_a_switch_the_framework_decides_can_be_turned_off(capsys):
    off = run_json(capsys, "llama-2-7b", "--mode", "train", "--framework", "unsloth", "--no-activation-offload")
    on = run_json(capsys, "llama-2-7b", "--mode", "train", "--framework", "unsloth")
    assert off["workload"]["activation_offload"] is False and on["workload"]["activation_offload"] is True


def test_pinning_a_scheme_keeps_the_builds_gpus(capsys):
    data = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "full", "--parallel", "fsdp",
                    "--build", "nvidia-dgx-h100")
    assert data["plan"]["n_gpus"] == 8 and data["plan"]["parallel"] == "fsdp"
    rc, _out, err = run_cli(capsys, "llama-3.1-8b", "--mode", "train", "--parallel", "fsdp", "--gpu", "rtx-4090")
    assert rc == 2 and "--parallel: FSDP (fully sharded) needs 2 or more GPUs (--gpus)" in err  # one card: said with the flag to fix


def test_gpus_with_one_card_is_per_machine_and_every_gpu_is_used(capsys):
    data = run_json(capsys, "llama-3.1-8b", "--gpu", "h100-sxm", "--gpus", "8", "--nodes", "2")
    assert data["hardware"]["gpu_count"] == 16 and data["plan"]["n_gpus"] == 16
    assert "idle" not in data["plan"]["text"]
    pinned = run_json(capsys, "llama-3.1-8b", "--build", "nvidia-dgx-h100", "--nodes", "2", "--gpus", "12",
                      "--parallel", "pp")
    assert pinned["plan"]["n_gpus"] == 12 and "4 idle" in pinned["plan"]["text"]  # --build: counted over all
    rc, _out, err = run_cli(capsys, "llama-3.1-8b", "--build", "nvidia-dgx-h100", "--gpus", "9")
    assert rc == 2 and "--gpus: " in err and "8 GPU(s) in all, not 9" in err
    help_text = " ".join(_estimate_help().split())
    assert "with one --gpu card: the machine has N such cards (each of --nodes machines), all used" in help_text
    assert "counted over all its machines" in help_text


def test_one_default_job_in_the_help_the_readme_and_the_output(capsys):
    sentence = default_job_words()
    assert sentence in " ".join(_estimate_help().split())
    assert sentence in " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    data = run_json(capsys, "llama-3.1-8b")
    assert (data["workload"]["context_len"], data["workload"]["batch"]) == (8192, 16)
    assert "16 sequences of 8,192 tokens at once" in sentence
    assert "not given, the default job's: 16 sequences of 8,192 tokens at once with vLLM" in data["assumptions"]
    chat = run_json(capsys, "llama-3.1-8b", "--engine", "llama.cpp", "--weights", "q4_k_m")
    assert (chat["workload"]["context_len"], chat["workload"]["batch"]) == (4096, 1)
    assert "one sequence of 4,096 tokens" in sentence


def test_training_past_the_trained_context_is_allowed_with_a_warning(capsys):
    data = run_json(capsys, "llama-2-7b", "--mode", "train", "--seq-len", "16384")
    assert data["workload"]["seq_len"] == 16384
    assert data["warnings"] and data["warnings"][0].startswith("16,384-token training sequences, past the 4,096")
    rc, out, _err = run_cli(capsys, "llama-2-7b", "--mode", "train", "--seq-len", "16384")
    assert rc == 0 and "Warning: 16,384-token training sequences" in out
    assert run_json(capsys, "llama-2-7b", "--mode", "train", "--seq-len", "2048")["warnings"] == []


def test_the_text_says_the_job_in_words_and_the_json_keeps_ids(capsys):
    rc, out, _err = run_cli(capsys, "llama-3.1-8b", "--mode", "train", "--method", "qlora", "--gpu", "rtx-4090")
    assert rc == 0
    job = out.split("\nJob\n")[1].split("\nBuild:")[0]
    assert "QLoRA (4-bit base)" in job and "NF4 (4.5 bits)" in job and "mixed precision" in job
    for raw in ("qlora", "nf4", "amp", "adamw", "framework hf", "zero1", "loss: upcast", "advisor.core", "n_ctx",
                "n_ubatch", "logits_to_keep"):
        assert not re.search(rf"(?<![\w-]){re.escape(raw)}(?![\w-])", out), raw
    data = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "qlora", "--gpu", "rtx-4090")
    assert data["workload"]["method"] == "qlora" and data["workload"]["weights"] == "nf4"


def test_a_switch_that_is_on_by_default_has_its_off_form(capsys):
    # the engines' own all-reduce is on unless the server turns it off (vLLM --disable-custom-all-reduce)
    base = ("llama-3.1-70b", "--engine", "vllm", "--weights", "awq", "--build", "2x-rtx-3090-nvlink", "--gpus", "2",
            "--parallel", "tp")
    on, off = run_json(capsys, *base), run_json(capsys, *base, "--no-custom-all-reduce")
    assert on["workload"]["custom_all_reduce"] is True and off["workload"]["custom_all_reduce"] is False
    assert off["speed"]["decode_tokens_per_s"] < on["speed"]["decode_tokens_per_s"]
    rc, out, _err = run_cli(capsys, "--help")
    said = " ".join(out.split())
    assert rc == 0 and "--custom-all-reduce, --no-custom-all-reduce" in said
    assert "else NCCL; default: on" in said
