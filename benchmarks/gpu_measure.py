"""Measure on a real CUDA GPU what the fidelity tables compare the estimates with (speed and training memory).

Run on a machine with an NVIDIA GPU, PyTorch, transformers, peft and accelerate (the device machine
lent to some sessions; nothing here runs in the tests or in CI)::

    python3 benchmarks/gpu_measure.py OUT_DIR            # every case, each in its own process
    python3 benchmarks/gpu_measure.py OUT_DIR --case NAME # one case (what the parent runs)

It writes ``OUT_DIR/results.jsonl`` (one JSON object per case) and, for detection,
``OUT_DIR/nvml_raw.json`` (``advisor.probe.nvml.query_nvml()``), ``OUT_DIR/detect.json``
(``python -m advisor detect --json``), ``OUT_DIR/nvidia_smi_query.csv`` (the fields
``advisor.probe.nvidia_smi`` asks for) and ``OUT_DIR/nvidia_smi_q.txt``.

The models are the catalog's shapes (``catalog/models/*.json``) with random weights: the time of a
step and its memory do not depend on the weights' values (no sparsity kernels; end-of-sequence is
suppressed with ``min_new_tokens``). What each case does is what a user of transformers does by
default: ``generate`` with its dynamic KV cache and SDPA attention, the HF ``Trainer`` with
``bf16=True`` and PEFT's LoRA. Each case runs in a fresh process so its peak memory and the memory
NVML says the process uses are its own.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name -> (catalog model id, kind, options)
CASES: dict[str, tuple[str, str, dict]] = {  # in the order they run: the most wanted first
    # decode-*: the rate between two generate calls that differ only in new tokens (prefill cancels);
    # prefill-*: one forward over the prompt into a KV cache, logits of the last position only (as generate);
    # lora-*, full-*: the HF Trainer (bf16=True: autocast), AdamW (torch), sequence 2048, batch 1.
    "decode-8b-b1": ("llama-3.1-8b", "decode", {"batch": 1, "prompt": 128, "short": 32, "long": 288}),
    "prefill-8b-p2048": ("llama-3.1-8b", "prefill", {"batch": 1, "prompt": 2048}),
    "lora-8b-ckpt": ("llama-3.1-8b", "train", {"method": "lora", "seq": 2048, "batch": 1, "checkpointing": True}),
    "full-1b": ("llama-3.2-1b", "train", {"method": "full", "seq": 2048, "batch": 1, "checkpointing": False}),
    "decode-8b-b8": ("llama-3.1-8b", "decode", {"batch": 8, "prompt": 128, "short": 32, "long": 288}),
    "decode-1b-b1": ("llama-3.2-1b", "decode", {"batch": 1, "prompt": 128, "short": 32, "long": 288}),
    "decode-8b-b32": ("llama-3.1-8b", "decode", {"batch": 32, "prompt": 128, "short": 32, "long": 288}),
    "prefill-8b-p8192": ("llama-3.1-8b", "prefill", {"batch": 1, "prompt": 8192}),
    "decode-8b-b1-p4096": ("llama-3.1-8b", "decode", {"batch": 1, "prompt": 4096, "short": 32, "long": 288}),
    "lora-8b": ("llama-3.1-8b", "train", {"method": "lora", "seq": 2048, "batch": 1, "checkpointing": False}),
    "full-1b-ckpt": ("llama-3.2-1b", "train", {"method": "full", "seq": 2048, "batch": 1, "checkpointing": True}),
    # The HF Trainer at more tokens a step (4-16 k; the cases above all run 2,048): whether its efficiency
    # grows with the step's size (larger GEMMs, a per-step cost spread over more tokens), and on 3B shapes.
    "lora-8b-b4-ckpt": ("llama-3.1-8b", "train", {"method": "lora", "seq": 2048, "batch": 4, "checkpointing": True}),
    "lora-8b-s4096-b2": ("llama-3.1-8b", "train", {"method": "lora", "seq": 4096, "batch": 2, "checkpointing": False}),
    "full-1b-b8": ("llama-3.2-1b", "train", {"method": "full", "seq": 2048, "batch": 8, "checkpointing": False}),
    "lora-3b": ("llama-3.2-3b", "train", {"method": "lora", "seq": 2048, "batch": 1, "checkpointing": False}),
    "lora-3b-b8-ckpt": ("llama-3.2-3b", "train", {"method": "lora", "seq": 2048, "batch": 8, "checkpointing": True}),
    "full-3b-b4-ckpt": ("llama-3.2-3b", "train", {"method": "full", "seq": 2048, "batch": 4, "checkpointing": True}),
    "lora-1b-b8": ("llama-3.2-1b", "train", {"method": "lora", "seq": 2048, "batch": 8, "checkpointing": False}),
}
GIB = 1024**3
# A dry run on a machine without a GPU (GPU_MEASURE_DEVICE=cpu GPU_MEASURE_TINY=1): the same code on
# two-layer, narrow models, so that a mistake shows before device time is spent.
DEVICE = os.environ.get("GPU_MEASURE_DEVICE", "cuda")
TINY = os.environ.get("GPU_MEASURE_TINY") == "1"
# The optimizer of the training cases: PyTorch's AdamW in its foreach form, as recorded in
# tests/data/device/h100-sxm-2026-11-26.jsonl. transformers 5.17's own default with torch >= 2.8 is the
# fused kernel ("adamw_torch_fused", fewer passes over the states): GPU_MEASURE_OPTIM=adamw_torch_fused.
OPTIM = os.environ.get("GPU_MEASURE_OPTIM", "adamw_torch")


def _config(model_id: str):
    from transformers import LlamaConfig

    m = json.loads((ROOT / "catalog" / "models" / f"{model_id}.json").read_text())
    if TINY:
        m.update(n_layers=2, hidden_size=256, n_heads=4, n_kv_heads=2, head_dim=64, ffn_size=512, vocab_size=1000)
    return LlamaConfig(hidden_size=m["hidden_size"], intermediate_size=m["ffn_size"],
                       num_hidden_layers=m["n_layers"], num_attention_heads=m["n_heads"],
                       num_key_value_heads=m["n_kv_heads"], head_dim=m["head_dim"],
                       vocab_size=m["vocab_size"], max_position_embeddings=m["max_context"],
                       rope_theta=500000.0, tie_word_embeddings=bool(m.get("tied_embeddings", False)),
                       attn_implementation="sdpa")


def _model(model_id: str, dtype):
    import torch
    from transformers import AutoModelForCausalLM

    with torch.device(DEVICE):
        model = AutoModelForCausalLM.from_config(_config(model_id), dtype=dtype)
    return model


def _nvml_used_bytes() -> int | None:
    """Memory NVML says this process holds on GPU 0 (what nvidia-smi lists for it)."""
    try:
        import pynvml

        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(0)
        for p in pynvml.nvmlDeviceGetComputeRunningProcesses(h):
            if p.pid == os.getpid():
                return int(p.usedGpuMemory)
        return int(pynvml.nvmlDeviceGetMemoryInfo(h).used)
    except Exception:  # noqa: BLE001 - a figure missing from the record, said as null
        return None


def _memory() -> dict:
    import torch

    if DEVICE != "cuda":
        return {}
    return {"max_allocated_gib": torch.cuda.max_memory_allocated() / GIB,
            "max_reserved_gib": torch.cuda.max_memory_reserved() / GIB,
            "nvml_process_used_gib": (lambda b: None if b is None else b / GIB)(_nvml_used_bytes())}


def _sync() -> None:
    import torch

    if DEVICE == "cuda":
        torch.cuda.synchronize()


def _reset_peak() -> None:
    import torch

    if DEVICE == "cuda":
        torch.cuda.reset_peak_memory_stats()


def _sync_time(fn) -> float:
    _sync()
    t = time.perf_counter()
    fn()
    _sync()
    return time.perf_counter() - t


def _decode(model_id: str, o: dict) -> dict:
    import torch

    model = _model(model_id, torch.bfloat16).eval()
    gen = torch.Generator(device=DEVICE).manual_seed(0)
    ids = torch.randint(0, model.config.vocab_size, (o["batch"], o["prompt"]), device=DEVICE, generator=gen)
    mask = torch.ones_like(ids)

    def run(n: int) -> None:
        with torch.inference_mode():
            out = model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=n, min_new_tokens=n,
                                 do_sample=False, pad_token_id=0)
        assert out.shape[1] == o["prompt"] + n, out.shape

    run(8)  # warm-up: kernels chosen, allocator grown
    _reset_peak()
    shorts = [_sync_time(lambda: run(o["short"])) for _ in range(2)]
    longs = [_sync_time(lambda: run(o["long"])) for _ in range(2)]
    t_short, t_long = min(shorts), min(longs)
    per_seq = (o["long"] - o["short"]) / (t_long - t_short)
    return {"decode_tokens_per_s_per_sequence": per_seq, "decode_tokens_per_s_total": per_seq * o["batch"],
            "generate_long_s": t_long, "generate_short_s": t_short,
            "whole_generate_tokens_per_s_per_sequence": o["long"] / t_long, **_memory()}


def _prefill(model_id: str, o: dict) -> dict:
    import torch
    from transformers import DynamicCache

    model = _model(model_id, torch.bfloat16).eval()
    ids = torch.randint(0, model.config.vocab_size, (o["batch"], o["prompt"]), device=DEVICE)

    def run() -> None:
        with torch.inference_mode():
            model(input_ids=ids, past_key_values=DynamicCache(config=model.config), use_cache=True,
                  logits_to_keep=1)

    for _ in range(2):
        run()
    _reset_peak()
    times = [_sync_time(run) for _ in range(5)]
    t = statistics.median(times)
    return {"prefill_tokens_per_s": o["batch"] * o["prompt"] / t, "prefill_s": t, **_memory()}


def _train(model_id: str, o: dict) -> dict:
    import torch
    from transformers import Trainer, TrainerCallback, TrainingArguments

    class Tokens(torch.utils.data.Dataset):
        def __init__(self, vocab: int, n: int):
            g = torch.Generator().manual_seed(0)
            self.x = torch.randint(0, vocab, (n, o["seq"]), generator=g)

        def __len__(self) -> int:
            return len(self.x)

        def __getitem__(self, i: int) -> dict:
            return {"input_ids": self.x[i], "labels": self.x[i], "attention_mask": torch.ones_like(self.x[i])}

    class StepTimes(TrainerCallback):
        def __init__(self) -> None:
            self.t: list[float] = []

        def on_step_end(self, args, state, control, **kw):  # noqa: ANN001
            _sync()
            self.t.append(time.perf_counter())

    lora = o["method"] == "lora"
    # LoRA: the base in bf16 (as loaded with torch_dtype=bfloat16); full: fp32 weights under autocast.
    model = _model(model_id, torch.bfloat16 if lora else torch.float32)
    loaded = _memory()
    if lora:
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0,
                                                 target_modules="all-linear", task_type="CAUSAL_LM"))
    steps = 12
    args = TrainingArguments(output_dir="/tmp/gpu_measure_trainer", per_device_train_batch_size=o["batch"],
                             max_steps=steps, bf16=True, optim=OPTIM, learning_rate=1e-5,
                             gradient_checkpointing=o["checkpointing"],
                             gradient_checkpointing_kwargs={"use_reentrant": False},
                             logging_steps=1000, save_strategy="no", report_to=[], dataloader_num_workers=0,
                             use_cpu=DEVICE != "cuda")
    cb = StepTimes()
    trainer = Trainer(model=model, args=args, train_dataset=Tokens(model.config.vocab_size, steps * o["batch"]),
                      callbacks=[cb])
    _reset_peak()
    trainer.train()
    gaps = [b - a for a, b in zip(cb.t[3:], cb.t[4:])]  # steps 5.. (after warm-up)
    step_s = statistics.median(gaps)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    total = sum(p.numel() for p in model.parameters())
    dtypes = sorted({str(p.dtype) for p in model.parameters() if p.requires_grad})
    return {"train_tokens_per_s": o["batch"] * o["seq"] / step_s, "step_s": step_s,
            "trainable_params": trainable, "total_params": total, "trainable_dtypes": dtypes, "optim": getattr(args.optim, "value", str(args.optim)),
            "after_load_allocated_gib": loaded.get("max_allocated_gib"), **_memory()}


def run_case(name: str) -> dict:
    import torch

    model_id, kind, o = CASES[name]
    fn = {"decode": _decode, "prefill": _prefill, "train": _train}[kind]
    out = fn(model_id, o)
    return {"case": name, "model_id": model_id, "kind": kind, "options": o,
            "gpu": torch.cuda.get_device_name(0) if DEVICE == "cuda" else DEVICE, "torch": torch.__version__,
            "transformers": __import__("transformers").__version__,
            "peft": getattr(sys.modules.get("peft"), "__version__", None), **out}


def detection(out: Path) -> None:
    """What the app's detection reads on this machine, raw and parsed."""
    sys.path.insert(0, str(ROOT))
    from advisor.probe import nvidia_smi
    from advisor.probe.nvml import query_nvml

    try:
        (out / "nvml_raw.json").write_text(json.dumps(query_nvml(), indent=2, default=str))
    except Exception as exc:  # noqa: BLE001 - the other records still come
        (out / "nvml_raw.json").write_text(json.dumps({"error": repr(exc)}))
    for args, name in (([f"--query-gpu={','.join(nvidia_smi.FIELDS)}", "--format=csv,noheader,nounits"],
                        "nvidia_smi_query.csv"), (["-q"], "nvidia_smi_q.txt")):
        try:
            done = subprocess.run(["nvidia-smi", *args], capture_output=True, text=True, timeout=60)
            (out / name).write_text(done.stdout + done.stderr)
        except (OSError, subprocess.SubprocessError) as exc:
            (out / name).write_text(repr(exc))
    done = subprocess.run([sys.executable, "-m", "advisor", "detect", "--json"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    (out / "detect.json").write_text(done.stdout + done.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--case", choices=sorted(CASES))
    ap.add_argument("--skip-detection", action="store_true")
    ap.add_argument("--detection-only", action="store_true")
    ap.add_argument("--only", help="comma-separated case names to run (default: all, in order)")
    ap.add_argument("--deadline-s", type=float, default=420.0, help="start no case after this many seconds")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    if a.case:
        print(json.dumps(run_case(a.case)), flush=True)
        return 0
    if not a.skip_detection:
        try:
            detection(a.out)
        except Exception as exc:  # noqa: BLE001 - the measurements still run
            print(f"detection failed: {exc!r}", flush=True)
    if a.detection_only:
        return 0
    began = time.perf_counter()
    with (a.out / "results.jsonl").open("a") as f:
        names = [n for n in CASES if not a.only or n in a.only.split(",")]
        for name in names:
            t = time.perf_counter()
            if t - began > a.deadline_s:
                print(f"{name}: not started (past --deadline-s)", flush=True)
                continue
            done = subprocess.run([sys.executable, __file__, str(a.out), "--case", name],
                                  capture_output=True, text=True, timeout=150)
            line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
            if done.returncode != 0 or not line.startswith("{"):
                line = json.dumps({"case": name, "error": (done.stderr or done.stdout)[-1500:]})
            f.write(line + "\n")
            f.flush()
            print(f"{name}: {time.perf_counter() - t:.1f} s {line[:300]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
