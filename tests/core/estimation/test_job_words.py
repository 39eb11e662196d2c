"""A job's settings in words (``advisor.core.estimation.job_words``): what the window, the PDF and the
command line's text say for each value, from the declarations."""

import re

from advisor.core.estimation.job_words import job_rows, say
from advisor.core.job.choices import Mode
from advisor.core.job.defaults import default_job
from advisor.core.job.planned import PlannedJob

RAW = re.compile(r"(?<![\w-])(q4_k_m|nf4|gptq|amp|adamw|hf|zero1|qlora|sft|fp32-logits|n_ctx|n_ubatch)(?![\w-])")


def test_values_in_words():
    assert say("weights", "q4_k_m") == "Q4_K_M (GGUF, 4.9 bits)"  # llama.cpp's README average for Llama 3.1 8B
    assert say("weights", "nf4", PlannedJob(double_quant=True)) == "NF4 (4.1 bits)"
    assert say("weights", "gptq", PlannedJob(quant_group_size=32)) == "GPTQ (4.6 bits)"  # 4 + 20 / 32
    assert say("kv_dtype", "q8_0") == "Q8_0 (llama.cpp, 8.5 bits)"
    assert say("precision", "amp") == "mixed precision"
    assert say("optimizer", "adamw") == "AdamW"
    assert say("framework", "hf") == "Hugging Face"
    assert say("parallel", "zero1") == "ZeRO-1 (optimizer states sharded)"
    assert say("loss", "upcast") == "full logits" and say("loss", None) == "framework default"
    assert say("context_len", 8192) == "8,192 tokens" and say("batch", 1) == "1 sequence"
    assert say("dataset_tokens", 2_000_000_000) == "2,000 M tokens" and say("dataset_tokens", None) == "not set"
    assert say("lora_rank", None) == "16" and say("engine", "vllm") == "vLLM"
    assert say("compile", True) == "on" and say("double_quant", False) == "off"


def test_the_job_table_has_no_raw_ids():
    jobs = [default_job(), default_job(Mode.TRAIN),
            PlannedJob(mode="train", method="qlora", weights="nf4", objective="dpo", framework="torchtune",
                     optimizer="adamw-8bit", checkpointing="op-sac"),
            PlannedJob(engine="llama.cpp", weights="q4_k_m", kv_dtype="q8_0", prompt_tokens=512)]
    for job in jobs:
        rows = job_rows(job)
        assert rows[0] == ("Mode", "fine-tuning" if job.mode is Mode.TRAIN else "inference")
        for label, words in rows:
            assert not RAW.search(words) and "loss: upcast" not in words and "_" not in label, (label, words)


def test_the_table_lists_what_applies_and_the_frameworks_choices():
    rows = dict(job_rows(PlannedJob(mode="train", method="full", framework="torchtune")))
    assert "LoRA rank" not in rows and "Context length" not in rows  # they do not apply
    assert rows["Loss"] == "chunked" and rows["Loss chunks"] == "8"  # torchtune's, what the estimate uses
    assert rows["Micro-batch"] == "1 sequence"
    inference = dict(job_rows(default_job()))
    assert inference["Concurrent sequences"] == "16 sequences" and "Micro-batch" not in inference
