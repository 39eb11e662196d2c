"""``llm-advisor estimate``: model sources, JSON shape, hardware, and one-line usage errors."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gguf import GGUFWriter
from safetensors.numpy import save_file

from advisor.cli import main
from tests.cli_runner import run_cli, run_json

ROOT = Path(__file__).resolve().parents[2]
TERMS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "buffers", "runtime", "total")






# --- output shape ---------------------------------------------------------------------------


def test_json_has_every_documented_key(capsys):
    data = run_json(capsys, "llama-2-7b")
    per_gpu = data["memory"]["per_gpu_gib"]
    assert set(TERMS) <= set(per_gpu)
    assert per_gpu["total"] == pytest.approx(sum(per_gpu[t] for t in TERMS if t != "total"), abs=0.01)
    assert per_gpu["weights"] == pytest.approx(6_738_415_616 * 2 / 2**30, rel=1e-3)  # bf16 default
    assert per_gpu["runtime"] > 0 and "host_gib" in data["memory"]
    speed = data["speed"]
    for key in ("decode_tokens_per_s", "prefill_tokens_per_s", "time_to_first_token_s", "request_s",
                "request_tokens_per_s", "train_tokens_per_s", "step_time_s"):
        assert key in speed and speed[key] is None  # no hardware: no speed
    assert data["fit"] is None and data["hardware"] is None
    assert isinstance(data["assumptions"], list) and data["assumptions"]
    assert data["model"]["id"] == "llama-2-7b" and data["model"]["params_total"] == 6_738_415_616
    assert data["rule_of_thumb"]["total_gib"] > 0


def test_text_table(capsys):
    rc, out, err = run_cli(capsys, "llama-2-7b")
    assert rc == 0 and err == ""
    assert "Memory per GPU" in out and "total" in out and "GiB" in out
    assert "Speed: give --gpu or --build" in out


def test_params_builds_a_generic_decoder(capsys):
    a = run_json(capsys, "--params", "6.74B")
    b = run_json(capsys, "--params", "6.74e9")
    assert a["model"]["origin"] == "generic" and a["model"] == b["model"]
    assert a["model"]["params_total"] == pytest.approx(6.74e9, rel=0.02)


def test_architecture_overrides(capsys):
    base = run_json(capsys, "llama-2-7b")
    half = run_json(capsys, "llama-2-7b", "--layers", "16")
    assert half["model"]["n_layers"] == 16
    assert half["memory"]["per_gpu_gib"]["kv_cache"] == pytest.approx(base["memory"]["per_gpu_gib"]["kv_cache"] / 2)
    gqa = run_json(capsys, "llama-2-7b", "--kv-heads", "8")
    assert gqa["memory"]["per_gpu_gib"]["kv_cache"] == pytest.approx(base["memory"]["per_gpu_gib"]["kv_cache"] / 4)
    wide = run_json(capsys, "llama-2-7b", "--hidden", "5120", "--heads", "40")
    assert wide["model"]["head_dim"] == 128


def test_context_and_batch_scale_the_kv_cache(capsys):
    one = run_json(capsys, "llama-3.1-8b", "--context", "8192", "--batch", "1")
    four = run_json(capsys, "llama-3.1-8b", "--context", "8192", "--batch", "4")
    assert four["memory"]["per_gpu_gib"]["kv_cache"] == pytest.approx(4 * one["memory"]["per_gpu_gib"]["kv_cache"])


def test_training_qlora(capsys):
    data = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "qlora", "--lora-rank", "16",
                    "--optimizer", "paged-adamw-8bit", "--checkpointing", "full", "--seq-len", "1024")
    assert data["workload"]["method"] == "qlora" and data["model"]["params_trainable"] > 0
    assert data["memory"]["per_gpu_gib"]["adapters"] > 0
    assert data["memory"]["per_gpu_gib"]["weights"] < 8  # 4-bit base, not 16 GB of bf16


# --- hardware ---------------------------------------------------------------------------------


def test_gpu_adds_fit_and_speed(capsys):
    data = run_json(capsys, "llama-3.1-8b", "--gpu", "rtx-4090")
    assert data["hardware"]["gpus"] == ["rtx-4090"]
    assert data["fit"]["fits"] is True and data["fit"]["usable_per_gpu_gib"] < 24
    assert data["speed"]["decode_tokens_per_s"] > 0 and data["speed"]["train_tokens_per_s"] is None


def test_text_lists_what_the_speed_is_timed_at_and_limited_by(capsys):
    """The speed's notes (the JSON's ``speed.notes``) are printed under its figures in the text output:
    the TensorRT-LLM kernel note, what a layer split costs and the like went to JSON readers only."""
    data = run_json(capsys, "mistral-7b-v0.1", "--engine", "tensorrt-llm", "--weights", "fp16", "--gpu", "h100-sxm")
    rc, text, _err = run_cli(capsys, "mistral-7b-v0.1", "--engine", "tensorrt-llm", "--weights", "fp16", "--gpu", "h100-sxm")
    assert rc == 0
    assert any("XQA" in n for n in data["speed"]["notes"])
    for note in data["speed"]["notes"]:
        assert f"  - {note}" in text


def test_gpu_with_gpus_is_n_cards_on_pcie(capsys):
    # --gpus with one --gpu card is the machine (N cards), not a pin: its plan is chosen, on all of them.
    data = run_json(capsys, "llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--gpu", "rtx-4090",
                    "--gpus", "2")
    assert data["hardware"]["gpu_count"] == 2 and data["workload"]["n_gpus"] == 2
    assert data["workload"]["parallel"] == "layer-split"  # the plan chosen for llama.cpp on 2 cards
    assert data["plan"]["text"] == "2 GPUs, split by layers over PCIe (through host memory), no offload"


def test_build_uses_all_its_gpus(capsys):
    data = run_json(capsys, "llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp",
                    "--build", "2x-rtx-3090-nvlink")
    assert data["workload"]["n_gpus"] == 2 and data["fit"] is not None


def test_too_big_model_does_not_fit(capsys):
    data = run_json(capsys, "llama-3.1-70b", "--gpu", "rtx-4090")
    assert data["fit"]["fits"] is False and data["fit"]["headroom_gib"] < 0
    rc, out, _ = run_cli(capsys, "llama-3.1-70b", "--gpu", "rtx-4090")
    assert rc == 0 and "Fit: NO" in out


# --- model files ------------------------------------------------------------------------------


def test_config_json_path(tmp_path, capsys):
    cfg = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32,
           "num_hidden_layers": 32, "num_key_value_heads": 32, "vocab_size": 32000, "max_position_embeddings": 4096}
    (tmp_path / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    data = run_json(capsys, str(tmp_path / "config.json"))
    assert data["model"]["origin"] == "config" and data["model"]["params_total"] == 6_738_415_616


def test_safetensors_folder_reports_exact_facts(tmp_path, capsys):
    cfg = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 172, "num_attention_heads": 4,
           "num_hidden_layers": 2, "num_key_value_heads": 2, "vocab_size": 32, "max_position_embeddings": 4096}
    (tmp_path / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    save_file({"model.embed_tokens.weight": np.zeros((32, 64), dtype=np.float16)}, str(tmp_path / "model.safetensors"))
    data = run_json(capsys, str(tmp_path), "--weights", "fp16")
    assert data["model"]["origin"] == "safetensors"
    assert data["model"]["params_exact"] == 32 * 64 and data["model"]["weights_bytes_exact"] == 32 * 64 * 2
    assert any("exact" in a for a in data["assumptions"])


def test_gguf_defaults_to_llama_cpp_and_its_type(tmp_path, capsys):
    path = tmp_path / "tiny.gguf"
    w = GGUFWriter(str(path), "llama")
    for add, value in ((w.add_block_count, 2), (w.add_embedding_length, 64), (w.add_feed_forward_length, 172),
                       (w.add_head_count, 4), (w.add_head_count_kv, 2), (w.add_context_length, 2048),
                       (w.add_vocab_size, 32), (w.add_file_type, 1)):
        add(value)
    w.add_tensor("token_embd.weight", np.zeros((32, 64), dtype=np.float16))
    w.add_tensor("blk.0.ffn_gate.weight", np.zeros((172, 64), dtype=np.float16))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    data = run_json(capsys, str(path))
    assert data["workload"]["engine"] == "llama.cpp" and data["workload"]["weights"] == "fp16"
    assert data["workload"]["context_len"] == 2048  # the file's context_length, not the 4096 default
    assert data["model"]["origin"] == "gguf" and data["model"]["weights_bytes_exact"] == (32 + 172) * 64 * 2


# --- usage errors: exit 2, one line naming the flag, no traceback ---------------------------------


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["llama-2-7b", "--batch", "0"], "--batch"),
        (["llama-2-7b", "--batch", "two"], "--batch"),
        (["llama-2-7b", "--heads", "30"], "--heads"),
        (["llama-2-7b", "--hidden", "4100"], "--hidden"),
        (["llama-2-7b", "--kv-heads", "64"], "--kv-heads"),
        (["llama-2-7b", "--kv-heads", "5"], "--kv-heads"),
        (["llama-3.1-8b", "--heads", "4"], "--kv-heads"),
        (["llama-3.1-8b", "--heads", "16", "--kv-heads", "6"], "--kv-heads"),
        (["llama-2-7b", "--weights", "q9_z"], "--weights"),
        (["llama-2-7b", "--kv-dtype", "int3"], "--kv-dtype"),
        (["llama-2-7b", "--gpus", "0"], "--gpus"),
        (["llama-2-7b", "--mode", "train", "--method", "full", "--lora-rank", "8"], "--lora-rank"),
        (["llama-2-7b", "--lora-rank", "8"], "--lora-rank"),
        (["llama-2-7b", "--mode", "train", "--method", "lora", "--lora-targets", "q,x"], "--lora-targets"),
        (["no-such-model"], "MODEL"),
        (["./missing/config.json"], "MODEL"),
        ([], "MODEL"),
        (["llama-2-7b", "--params", "7B"], "--params"),
        (["--params", "seven"], "--params"),
        (["--params", "-5B"], "--params"),
        (["llama-2-7b", "--gpu", "no-such-gpu"], "--gpu"),
        (["llama-2-7b", "--build", "no-such-build"], "--build"),
        (["llama-2-7b", "--build", "2x-rtx-3090-nvlink", "--gpus", "3"], "--gpus"),
        (["llama-2-7b", "--gpu", "rtx-4090", "--build", "2x-rtx-3090-nvlink"], "--build"),
        (["llama-2-7b", "--mode", "fly"], "--mode"),
        (["llama-2-7b", "--parallel", "magic"], "--parallel"),
        (["llama-2-7b", "--context", "100000"], "--context"),
        (["llama-2-7b", "--offload", "optimizer"], "--offload"),
        (["llama-2-7b", "--engine", "vllm", "--weights", "q4_k_m"], "--weights"),
        (["llama-2-7b", "--gpus", "2", "--parallel", "tp", "--gpu", "rtx-4090", "--gpus", "3"], "--gpus"),
    ],
)
def test_bad_input_is_one_line_naming_the_flag(capsys, argv, flag):
    rc, out, err = run_cli(capsys, *argv)
    assert rc == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert flag in lines[0]
    assert "Traceback" not in err


def test_corrupt_model_file_is_a_usage_error(tmp_path, capsys):
    bad = tmp_path / "model.gguf"
    bad.write_bytes(b"GGUF\x03\x00")
    rc, _, err = run_cli(capsys, str(bad))
    assert rc == 2 and str(bad) in err and len(err.strip().splitlines()) == 1


# --- the installed entry point --------------------------------------------------------------------


def test_python_dash_m_advisor_estimate_json():
    proc = subprocess.run([sys.executable, "-m", "advisor", "estimate", "llama-2-7b", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["model"]["id"] == "llama-2-7b"
    assert data["memory"]["per_gpu_gib"]["total"] > data["memory"]["per_gpu_gib"]["weights"] > 12


def test_exact_file_bytes_are_dropped_when_the_architecture_is_overridden(tmp_path, capsys):
    cfg = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 172, "num_attention_heads": 4,
           "num_hidden_layers": 2, "num_key_value_heads": 2, "vocab_size": 32, "max_position_embeddings": 4096}
    (tmp_path / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    save_file({"model.embed_tokens.weight": np.zeros((32, 64), dtype=np.float16)}, str(tmp_path / "model.safetensors"))
    data = run_json(capsys, str(tmp_path), "--weights", "fp16", "--layers", "4")
    assert data["model"]["weights_bytes_exact"] is None and data["model"]["n_layers"] == 4


def test_exact_file_bytes_replace_the_format_estimate(tmp_path, capsys):
    cfg = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 172, "num_attention_heads": 4,
           "num_hidden_layers": 2, "num_key_value_heads": 2, "vocab_size": 32, "max_position_embeddings": 4096}
    (tmp_path / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    # 3 MiB of fp16 weights: far from what the tiny config implies, so the source is visible.
    save_file({"w": np.zeros((1024, 1536), dtype=np.float16)}, str(tmp_path / "model.safetensors"))
    data = run_json(capsys, str(tmp_path), "--weights", "fp16")
    assert data["memory"]["per_gpu_gib"]["weights"] == pytest.approx(3 / 1024, abs=1e-3)
    assert any("replace the format estimate" in a for a in data["assumptions"])


def test_default_job_is_the_windows(capsys):
    # Defaults that agree: the CLI's job is the window's first-launch job.
    from advisor.core.job.defaults import default_job

    data = run_json(capsys, "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink")
    job = default_job()
    for field in ("engine", "context_len", "batch", "weights", "kv_dtype"):
        value = getattr(job, field)
        assert data["workload"][field] == getattr(value, "value", value)
    assert data["plan"] == {"n_gpus": 2, "parallel": "tp", "offload": [], "checkpointing": "none", "pinned": False,
                            "considered": data["plan"]["considered"], "notes": [],
                            "text": "2 GPUs, tensor parallel over NVLink, no offload"}
    assert data["fit"]["status"] == "fits" and data["fit"]["suggestions"] == []


def test_a_job_that_does_not_fit_lists_what_would(capsys):
    data = run_json(capsys, "llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--build", "1x-rtx-5090")
    fit = data["fit"]
    assert fit["status"] == "does not fit" and not fit["fits"]
    kinds = {s["kind"]: s for s in fit["suggestions"]}
    assert {"weights", "gpus"} <= set(kinds)
    for s in fit["suggestions"]:
        assert set(s) >= {"change", "per_gpu_gib", "decode_tokens_per_s"} and s["per_gpu_gib"] < fit["usable_per_gpu_gib"]
    assert kinds["gpus"]["extra_cost_usd"] > 0
    text = main(["estimate", "llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--build", "1x-rtx-5090"])
    out = capsys.readouterr().out
    assert text == 0 and "What would make it fit:" in out and "more GeForce RTX 5090" in out


def test_training_options_and_phases_in_json(capsys):
    # The framework and memory options are flags; the JSON carries the phases and the
    # allocator's figures, and per_gpu_gib.total stays the device need.
    data = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "full", "--framework", "torchtune",
                    "--optimizer", "paged-adamw-8bit", "--seq-len", "2048", "--batch", "2")
    mem = data["memory"]
    assert set(mem["phases"]) == {"forward end", "backward", "backward end", "optimizer step"}
    assert mem["peak_allocated_gib"] < mem["peak_reserved_gib"] < mem["per_gpu_gib"]["total"]
    assert data["workload"]["framework"] == "torchtune" and data["workload"]["precision"] == "bf16"
    long = ("--mode", "train", "--method", "lora", "--seq-len", "8192")  # the loss phase sets the peak
    chunked = run_json(capsys, "llama-3.1-8b", *long, "--loss", "chunked", "--loss-chunks", "16")
    upcast = run_json(capsys, "llama-3.1-8b", *long, "--loss", "upcast")
    assert chunked["memory"]["per_gpu_gib"]["total"] < upcast["memory"]["per_gpu_gib"]["total"]
    nvme = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--gpus", "2", "--parallel", "zero3",
                    "--offload", "optimizer", "--offload", "params", "--offload", "nvme")
    assert nvme["memory"]["disk_gib"] > 0


def test_help_lists_the_training_options(capsys):
    with pytest.raises(SystemExit):
        main(["estimate", "--help"])
    out = capsys.readouterr().out
    for flag in ("--framework", "--loss", "--checkpoint-every", "--activation-offload", "--optimizer-in-backward",
                 "--compile", "--tp", "--cp", "--bnb-legacy", "--activation-quant", "nvme"):
        assert flag in out


def test_optimizer_kernel_flag_moves_memory_and_speed(capsys):
    # PyTorch's foreach AdamW holds a state-sized sqrt(v) temporary (one fp32 state: 4 B per
    # trained parameter) and makes more passes over the states than the fused kernel.
    args = ("--mode", "train", "--method", "full", "--seq-len", "512", "--checkpointing", "full", "--gpu", "h200-sxm")
    default = run_json(capsys, "llama-3.2-1b", *args)  # the HF Trainer's default: fused
    foreach = run_json(capsys, "llama-3.2-1b", *args, "--optimizer-kernel", "foreach")
    assert default["workload"]["optimizer_kernel"] == "fused" and foreach["workload"]["optimizer_kernel"] == "foreach"
    extra = foreach["memory"]["per_gpu_gib"]["total"] - default["memory"]["per_gpu_gib"]["total"]
    assert 1.236e9 * 4 / 2**30 * 0.95 < extra < 1.236e9 * 4 / 2**30 * 1.15
    assert foreach["speed"]["train_tokens_per_s"] < default["speed"]["train_tokens_per_s"]
    # An 8B full fine-tune fits one H200 with the fused kernel; foreach's temporary needs the optimizer in host
    # RAM, which a bare card's build does not say it has (RAM not known is not RAM enough).
    assert run_json(capsys, "llama-3.1-8b", *args)["plan"]["offload"] == []
    fit = run_json(capsys, "llama-3.1-8b", *args, "--optimizer-kernel", "foreach")["fit"]
    assert not fit["fits"] and fit["reason"].endswith("of host RAM; the build's RAM is not known")
    with pytest.raises(SystemExit):
        main(["estimate", "--help"])
    assert "--optimizer-kernel" in capsys.readouterr().out


def test_repeated_gpu_makes_a_mixed_build(capsys):
    data = run_json(capsys, "llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp",
                    "--gpu", "rtx-3090", "--gpu", "rtx-5090")
    assert data["hardware"]["gpus"] == ["rtx-3090", "rtx-5090"]
    assert data["fit"]["fits"] and data["plan"]["parallel"] == "layer-split"


def test_more_sxm_modules_than_a_board_holds_say_how_to_build_them(capsys):
    # 16 H100 SXM are two HGX machines, not 16 cards on PCIe: refused with the flags that build them.
    rc, out, err = run_cli(capsys, "llama-3.1-70b", "--engine", "vllm", "--gpu", "h100-sxm", "--gpus", "16")
    assert rc == 2 and out == ""
    assert err.strip().endswith("--gpus: one NVSwitch board holds at most 8 H100 SXM 80GB: 16 of them are 2 machines "
                                "of 8 joined by a network (--gpus 8 --nodes 2 --nic ID)")
    rc, _, err = run_cli(capsys, "llama-3.1-70b", "--gpu", "h100-sxm", "--gpu", "rtx-4090")
    assert rc == 2 and "--gpu: the H100 SXM 80GB is a module on its own baseboard" in err
    assert run_json(capsys, "llama-3.1-70b", "--engine", "vllm", "--gpu", "h100-sxm", "--gpus", "8", "--nodes",
                    "2")["plan"]["n_gpus"] == 16


@pytest.mark.parametrize("value", ["٣", "1e400", "3.0", "99999999999999999999"])
def test_numbers_are_ascii_whole_numbers(capsys, value):
    with pytest.raises(SystemExit) as exc:
        main(["estimate", "llama-3.1-8b", f"--layers={value}"])
    assert exc.value.code == 2 and "expected a whole number" in capsys.readouterr().err


def test_decode_attention_per_head_slows_a_large_gqa_batch(capsys):
    # TensorRT-LLM's masked MHA (per head) against its XQA kernel (grouped).
    args = ("mistral-7b-v0.1", "--engine", "tensorrt-llm", "--weights", "fp8", "--kv-dtype", "fp8", "--batch", "120",
            "--context", "1152", "--gpu", "h200-sxm")
    grouped = run_json(capsys, *args)
    per_head = run_json(capsys, *args, "--decode-attention", "per-head")
    assert grouped["workload"]["decode_attention"] == "grouped"
    assert per_head["workload"]["decode_attention"] == "per-head"
    assert per_head["speed"]["decode_tokens_per_s"] < 0.5 * grouped["speed"]["decode_tokens_per_s"]
    rc, _, err = run_cli(capsys, *args, "--decode-attention", "xqa")
    assert rc != 0 and "--decode-attention" in err


def test_engine_version_runs_the_job_as_that_tensorrt_llm_did(capsys):
    # --engine-version 0.9.0: Mistral 7B (4 query heads per KV head) decodes per head, as with
    # --decode-attention per-head; a version is checked as one, in words.
    args = ("mistral-7b-v0.1", "--engine", "tensorrt-llm", "--weights", "fp8", "--kv-dtype", "fp8", "--batch", "120",
            "--context", "1152", "--gpu", "h200-sxm")
    per_head = run_json(capsys, *args, "--decode-attention", "per-head")
    v09 = run_json(capsys, *args, "--engine-version", "0.9.0")
    assert v09["workload"]["engine_version"] == "0.9.0"
    assert v09["speed"]["decode_tokens_per_s"] == pytest.approx(per_head["speed"]["decode_tokens_per_s"])
    assert any(n.startswith("TensorRT-LLM 0.9.0 decodes this model one query head at a time") for n in v09["speed"]["notes"])
    rc, _, err = run_cli(capsys, *args, "--engine-version", "latest")
    assert rc == 2 and "expected a version such as 0.9.0 or 0.7a, not 'latest'" in err


def test_prompt_tokens_give_the_requests_speed(capsys):
    """``--prompt-tokens``: the first token, the whole request and its tokens/s with the prefill (0: no prompt)."""
    from advisor.cli import main

    assert main(["estimate", "llama-3.1-8b", "--batch", "4", "--context", "4096", "--prompt-tokens", "2048",
                 "--gpu", "rtx-4090"]) == 0
    out = capsys.readouterr().out
    assert "whole request" in out and "incl. prefill" in out and "first token" in out
    assert main(["estimate", "llama-3.1-8b", "--context", "128", "--prompt-tokens", "0", "--engine", "llama.cpp",
                 "--weights", "q4_k_m", "--gpu", "rtx-4090"]) == 0
    out = capsys.readouterr().out
    assert "whole request" in out and "first token" not in out


def test_vllm_reports_the_sequences_it_runs_at_once(capsys):
    # 32 sequences of 8,192 tokens on one RTX 4090: vLLM's pool holds 4 of them; the speed is that of 4.
    d = run_json(capsys, "llama-3.1-8b", "--engine", "vllm", "--batch", "32", "--context", "8192", "--gpu", "rtx-4090")
    four = run_json(capsys, "llama-3.1-8b", "--engine", "vllm", "--batch", "4", "--context", "8192", "--gpu",
                    "rtx-4090")
    assert d["fit"]["fits"] and d["fit"]["sequences_at_once"] == 4 and four["fit"]["sequences_at_once"] == 4
    assert d["fit"]["reason"].startswith("runs 4 of the 32 sequences at once")
    assert d["speed"]["decode_tokens_per_s"] == pytest.approx(four["speed"]["decode_tokens_per_s"])
    assert any("8 rounds to serve all 32" in n for n in d["speed"]["notes"])
    # Engines without a pool scheduler say nothing of it.
    assert run_json(capsys, "llama-3.1-8b", "--engine", "transformers", "--batch", "32", "--gpu",
                    "rtx-4090")["fit"]["sequences_at_once"] is None


def test_speed_says_whether_it_was_measured_on_the_gpu_family(capsys):
    # The speed basis (advisor.core.speed.basis): vLLM on an A100 was measured (the Qwen2.5 tables); llama.cpp
    # on a Turing RTX 2080 Ti never was, and the text says "extrapolated" beside the figures.
    a100 = run_json(capsys, "llama-3.1-8b", "--engine", "vllm", "--gpu", "a100-80gb-sxm")["speed"]["basis"]
    assert a100["calibrated"] and a100["family"] == "NVIDIA sm_80" and a100["software"] == "vLLM" and a100["runs"] > 0
    assert a100["text"].startswith("Speed measured on this GPU family (NVIDIA sm_80) with vLLM")
    t = run_json(capsys, "llama-3.1-8b", "--engine", "llama.cpp", "--weights", "q4_k_m",
                    "--gpu", "rtx-2080-ti")["speed"]["basis"]
    assert not t["calibrated"] and t["runs"] == 0
    rc, out, _ = run_cli(capsys, "llama-3.1-8b", "--engine", "llama.cpp", "--weights", "q4_k_m",
                         "--gpu", "rtx-2080-ti")
    assert rc == 0 and ", extrapolated" in out and "Speed extrapolated: no published run of this GPU family" in out
    assert run_json(capsys, "llama-2-7b")["speed"]["basis"] is None  # no hardware: no basis


def test_a_macs_raised_gpu_memory_limit_is_a_flag_of_the_machine(capsys):
    """DeepSeek V3 Q4_K_M (377 GiB) on the 512 GB Mac Studio: tight in macOS's default 384 GiB, with room at the 480
    GiB a user raises it to; the flag is refused for a build with no Mac in it."""
    from advisor.cli import main as cli

    argv = ["estimate", "deepseek-v3", "--weights", "q4_k_m", "--engine", "llama.cpp", "--build",
            "apple-mac-studio-m3-ultra-512gb", "--json"]
    assert cli(argv) == 0
    import json as _j

    default = _j.loads(capsys.readouterr().out)
    assert cli([*argv, "--mac-gpu-limit", "480"]) == 0
    raised = _j.loads(capsys.readouterr().out)
    assert default["fit"]["usable_per_gpu_gib"] == 384 and default["fit"]["status"] == "tight"
    assert raised["fit"]["usable_per_gpu_gib"] == 480 and raised["fit"]["status"] == "fits"
    assert cli(["estimate", "llama-3.1-8b", "--gpu", "rtx-3090", "--mac-gpu-limit", "20"]) == 2
    assert "is not a Mac" in capsys.readouterr().err
