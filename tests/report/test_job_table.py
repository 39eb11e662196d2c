"""The job in the report's words: the PlannedJob table's rows say what each setting is and what the estimate made
of it."""

from __future__ import annotations

from advisor.core.job.planned import PlannedJob
from advisor.storage.catalog_store import load_catalog


def test_workload_rows_state_the_objective_and_no_lora_rank_for_adapters():
    # The PDF says what the training optimizes (with its source) beside the method.
    from advisor.report.job_table import workload_rows
    from tests.core.speed.speed_fixtures import llama2_7b

    # The settings in their declared words (the sources of each objective are the estimate's assumptions).
    rows = dict(workload_rows(llama2_7b(), PlannedJob(mode="train", method="lora", objective="dpo"), None))
    assert rows["Objective"].startswith("DPO (preferences)")
    assert rows["Method"] == "LoRA" and rows["LoRA rank"] == "16"
    rows = dict(workload_rows(llama2_7b(), PlannedJob(mode="train", method="adapter-v2"), None))
    assert rows["Method"] == "LLaMA-Adapter V2 (LitGPT)" and rows["Objective"].startswith("SFT (instructions)")
    assert "LoRA rank" not in rows
    rows = dict(workload_rows(llama2_7b(), PlannedJob(mode="train", objective="dpo", precompute_ref=True), None))
    assert rows["Reference scores computed beforehand"] == "on"


def test_workload_rows_say_when_the_prompt_attention_is_not_fused():
    # A prompt without a fused attention kernel is slower; the PDF says so.
    from advisor.report.job_table import workload_rows
    from tests.core.speed.speed_fixtures import llama2_7b

    assert "Prompt attention" not in dict(workload_rows(llama2_7b(), PlannedJob(engine="transformers"), None))
    assert "Prompt attention" not in dict(workload_rows(llama2_7b(), PlannedJob(engine="vllm", attention="eager"), None))
    rows = dict(workload_rows(llama2_7b(), PlannedJob(engine="transformers", attention="eager"), None))
    assert rows["Prompt attention"] == ("not fused (eager attention): the prompt's attention scores go through the "
                                        "card's memory")
    assert "Prompt attention" not in dict(workload_rows(llama2_7b(), PlannedJob(engine="ollama", weights="q4_k_m"), None))
    rows = dict(workload_rows(llama2_7b(), PlannedJob(engine="ollama", weights="q4_k_m", attention="sdpa"), None))
    assert rows["Prompt attention"].startswith("not fused (flash attention off)")
    # llama.cpp with any attention but its flash attention: said as the speed note says it, not as "sdpa"
    rows = dict(workload_rows(llama2_7b(), PlannedJob(engine="llama.cpp", weights="q4_k_m", attention="sdpa"), None))
    assert rows["Prompt attention"].startswith("not fused (flash attention off)")


def test_workload_rows_name_a_per_head_decode_kernel():
    # The PDF states the decode attention kernel when it is not the default.
    from advisor.report.job_table import workload_rows
    from tests.core.speed.speed_fixtures import llama2_7b

    assert "Decode attention" not in dict(workload_rows(llama2_7b(), PlannedJob(engine="tensorrt-llm"), None))
    rows = dict(workload_rows(llama2_7b(), PlannedJob(engine="tensorrt-llm", decode_attention="per-head"), None))
    assert rows["Decode attention"].startswith("per head")
    # A named TensorRT-LLM version: the task names it, and what it runs (per-head before 0.7; an MoE model's
    # experts in 16-bit in an FP8 build before 0.10) is stated as the estimate used it.
    rows = dict(workload_rows(llama2_7b(), PlannedJob(engine="tensorrt-llm", engine_version="0.5.0"), None))
    assert rows["Engine"] == "TensorRT-LLM" and rows["TensorRT-LLM version"] == "0.5.0"
    assert rows["Decode attention"].startswith("per head: one query head at a time")
    mixtral = load_catalog().catalog.models["mixtral-8x7b"]
    rows = dict(workload_rows(mixtral, PlannedJob(engine="tensorrt-llm", engine_version="0.9.0", weights="fp8"), None))
    assert rows["Weights"] == "FP8 (8 bits) (experts in FP16 (16 bits): no FP8 path for MoE experts before 0.10)"


def test_workload_rows_name_the_framework_and_what_it_sets():
    # The PDF names the training framework and shows the precision, loss and checkpointing
    # the estimate used, the framework's defaults where the job set nothing (LitGPT trains in pure
    # bf16 with a chunked loss; the job's own 'amp' default is not what was estimated).
    from advisor.report.job_table import workload_rows
    from tests.core.speed.speed_fixtures import llama2_7b

    rows = dict(workload_rows(llama2_7b(), PlannedJob(mode="train", method="lora", framework="litgpt"), None))
    assert rows["Framework"].startswith("LitGPT: pure bf16")
    from advisor.core.job.choices import Framework
    from advisor.core.job.frameworks import PROFILES

    assert rows["Precision"] == "bf16" and rows["Loss"] == "chunked"
    assert rows["Loss chunks"] == str(PROFILES[Framework.LITGPT].loss_chunks)  # the framework's, as estimated
    rows = dict(workload_rows(llama2_7b(), PlannedJob(mode="train", method="lora"), None))
    assert rows["Framework"].startswith("Hugging Face: ") and rows["Precision"].startswith("mixed precision")
    assert rows["Optimizer"] == "AdamW" and rows["Optimizer kernel"] == "fused"  # the kernel the estimate took
    lit = dict(workload_rows(llama2_7b(), PlannedJob(mode="train", method="lora", framework="litgpt"), None))
    assert lit["Optimizer kernel"] == "foreach"
    eight = dict(workload_rows(llama2_7b(), PlannedJob(mode="train", method="lora", optimizer="adamw-8bit"), None))
    assert eight["Optimizer"] == "AdamW 8-bit" and "Optimizer kernel" not in eight  # bitsandbytes' own kernel
    rows = dict(workload_rows(llama2_7b(), PlannedJob(mode="train", method="lora", framework="litgpt", precision="amp"), None))
    assert rows["Precision"].startswith("mixed precision")  # what the user set stands
    assert "Framework" not in dict(workload_rows(llama2_7b(), PlannedJob(), None))
