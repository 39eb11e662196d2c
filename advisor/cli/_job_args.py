"""The job flags every command shares (``estimate``, ``advise``, ``report``): parsing, the model
they name, and the ``Workload`` they describe. Every bad value is a ``UsageError`` naming its flag."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from advisor.cli import UsageError

MODES = ("inference", "train")
METHODS = ("full", "lora", "qlora", "adapter", "adapter-v2")
OBJECTIVES = ("sft", "dpo", "orpo", "reward")
PRECISIONS = ("amp", "bf16", "fp32")
OPTIMIZERS = ("adamw", "adamw-8bit", "paged-adamw", "paged-adamw-8bit", "sgd", "adafactor")
CHECKPOINTING = ("none", "selective", "op-sac", "full")
FRAMEWORKS = ("hf", "torchtune", "torchtitan", "litgpt", "axolotl", "unsloth", "deepspeed", "horovod")
LOSSES = ("fp32-logits", "upcast", "chunked", "fused")
OPTIMIZER_KERNELS = ("foreach", "fused")
ACTIVATION_QUANT = ("none", "fp8", "int8")
ATTENTION = ("eager", "sdpa", "flash")
DECODE_ATTENTION = ("grouped", "per-head")
ENGINES = ("transformers", "vllm", "sglang", "llama.cpp", "ollama", "exllamav2", "tensorrt-llm", "deepspeed")
PARALLEL = ("none", "ddp", "zero1", "zero2", "zero3", "fsdp", "fsdp-grad-op", "fsdp-no-shard", "tp", "pp", "layer-split")
OFFLOAD = ("optimizer", "params", "nvme")

# Architecture override flag → ModelArch field.
ARCH_FLAGS = {"layers": "n_layers", "hidden": "hidden_size", "heads": "n_heads", "kv_heads": "n_kv_heads",
              "head_dim": "head_dim", "ffn": "ffn_size", "vocab": "vocab_size"}
# Workload field → the flag that sets it (for error messages).
FIELD_FLAGS = {"mode": "--mode", "weights": "--weights", "double_quant": "--double-quant",
               "kv_dtype": "--kv-dtype", "context_len": "--context", "batch": "--batch", "engine": "--engine",
               "method": "--method", "objective": "--objective", "precompute_ref": "--precompute-ref",
               "precision": "--precision", "optimizer": "--optimizer",
               "lora_rank": "--lora-rank", "lora_targets": "--lora-targets", "seq_len": "--seq-len",
               "checkpointing": "--checkpointing", "attention": "--attention", "n_gpus": "--gpus",
               "parallel": "--parallel", "offload": "--offload", "grad_accum_steps": "--grad-accum",
               "framework": "--framework", "loss": "--loss", "loss_chunks": "--loss-chunks",
               "checkpoint_every": "--checkpoint-every", "activation_offload": "--activation-offload",
               "optimizer_in_backward": "--optimizer-in-backward", "optimizer_kernel": "--optimizer-kernel",
               "compile": "--compile", "tp": "--tp", "cp": "--cp",
               "bnb_legacy": "--bnb-legacy", "activation_quant": "--activation-quant",
               "expandable_segments": "--expandable-segments", "full_prompt_logits": "--full-prompt-logits",
               "prompt_tokens": "--prompt-tokens", "moe_offload_layers": "--moe-offload-layers",
               "decode_attention": "--decode-attention", "engine_version": "--engine-version",
               "dataset_tokens": "--dataset-tokens", "epochs": "--epochs"}
MEMORY_ROWS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "buffers", "allocator",
               "runtime")


def positive_int(text: str) -> int:
    """A whole number ≥ 1 written in ASCII digits ('٣' and '1e400' are refused, not read as numbers)."""
    return _whole(text, 1)


def count_int(text: str) -> int:
    """``positive_int``, 0 allowed."""
    return _whole(text, 0)


def _whole(text: str, least: int) -> int:
    stripped = text.strip()
    if not (stripped.isascii() and stripped.lstrip("+").isdigit()) or len(stripped) > 12:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}")
    try:
        value = int(stripped)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    return value


def engine_version_arg(text: str) -> str:
    """A version such as 0.9.0 or 0.7a (``Workload.engine_version``)."""
    from advisor.core.job.workload import ENGINE_VERSION_PATTERN  # noqa: PLC0415 - the CLI imports the core lazily

    value = text.strip()
    if len(value) > 20 or re.match(ENGINE_VERSION_PATTERN, value) is None:
        raise argparse.ArgumentTypeError(f"expected a version such as 0.9.0 or 0.7a, not {text!r}")
    return value


def machine_count(text: str) -> int:
    """A number of machines (or of network cards a machine gets): ASCII digits, 1 to MAX_NODES."""
    from advisor.core.hardware.records import MAX_NODES

    try:
        value = positive_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"a whole number from 1 to {MAX_NODES}, not {text!r}") from None
    if value > MAX_NODES:
        raise argparse.ArgumentTypeError(f"a whole number from 1 to {MAX_NODES}, not {value}")
    return value


def positive_number(text: str) -> float:
    """A positive finite number in ASCII ('1.5', '2e-1'); NaN, inf and 0 are refused."""
    stripped = text.strip()
    try:
        value = float(stripped) if stripped.isascii() and len(stripped) <= 32 else float("nan")
    except ValueError:
        value = float("nan")
    if not (value > 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
    return value


def add_cost_arguments(p: argparse.ArgumentParser) -> None:
    """The running-cost settings (defaults and sources: ``advisor.core.cost.running``)."""
    from advisor.core.cost.running import DEFAULT_HOURS_PER_DAY, DEFAULT_USD_PER_KWH, DEFAULT_YEARS

    c = p.add_argument_group("running cost")
    c.add_argument("--electricity-usd-per-kwh", type=positive_number, metavar="USD",
                   help=f"electricity price per kWh (default: the saved setting, else {DEFAULT_USD_PER_KWH}, "
                        "US average residential, EIA January 2024)")
    c.add_argument("--hours-per-day", type=positive_number, metavar="H",
                   help=f"hours of use per day (default: the saved setting, else {DEFAULT_HOURS_PER_DAY:g})")
    c.add_argument("--years", type=positive_number, metavar="Y",
                   help=f"years of ownership the price is spread over (default: the saved setting, else {DEFAULT_YEARS:g})")


def cost_settings(args: argparse.Namespace):
    """The saved running-cost settings with the flags given on top; UsageError naming the flag."""
    from pydantic import ValidationError

    from advisor.core.cost.running import CostSettings
    from advisor.storage.settings import load_settings

    loaded = load_settings()
    if loaded.warning:  # said, never silently replaced; the file is left as it is
        print(f"warning: {loaded.warning}", file=sys.stderr)
    base = loaded.settings.cost
    given = {k: getattr(args, k, None) for k in ("electricity_usd_per_kwh", "hours_per_day", "years")}
    try:
        return CostSettings(**{**base.model_dump(), **{k: v for k, v in given.items() if v is not None}})
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise UsageError(f"--{str(err['loc'][0]).replace('_', '-')}: {err['msg']}") from None


def dataset_tokens_arg(text: str | None, arch) -> tuple[int | None, str | None]:
    """(tokens, note): a count ('160B', '2.5e9') or 'chinchilla' (20 tokens per parameter of ``arch``)."""
    if text is None:
        return None, None
    from advisor.core.units import parse_count

    if text.strip().lower() == "chinchilla":
        from advisor.core.cost.running import CHINCHILLA_SOURCE, chinchilla_tokens
        from advisor.core.model.params import count_params

        n = count_params(arch).total
        tokens = round(chinchilla_tokens(n))
        return tokens, f"dataset: {tokens / 1e9:,.1f}B tokens, compute-optimal for {n / 1e9:.2f}B parameters ({CHINCHILLA_SOURCE})"
    try:
        value = parse_count(text) if text.strip().isascii() else float("nan")
    except ValueError:
        value = float("nan")
    if not (1 <= value <= 1e15):
        raise UsageError(f"--dataset-tokens: expected a token count (160B, 2.5e9) or 'chinchilla', not {text!r}")
    return round(value), None


def add_workload_arguments(p: argparse.ArgumentParser) -> None:
    """Architecture overrides, workload and GPU-use flags (shared with ``llm-advisor report``)."""
    arch = p.add_argument_group("architecture overrides")
    for flag in ARCH_FLAGS:
        arch.add_argument(f"--{flag.replace('_', '-')}", type=positive_int, metavar="N")
    w = p.add_argument_group("workload")
    w.add_argument("--mode", choices=MODES, default="inference")
    w.add_argument("--method", choices=METHODS,
                   help="training method (default full; adapter, adapter-v2: LitGPT's LLaMA-Adapter and v2)")
    w.add_argument("--objective", choices=OBJECTIVES,
                   help="training objective (default sft; dpo, orpo and reward train on chosen/rejected pairs)")
    w.add_argument("--precompute-ref", action="store_true",
                   help="DPO: reference log-probabilities computed before training (no reference model in memory)")
    w.add_argument("--weights", metavar="FORMAT",
                   help="weight format: bf16 fp16 (f16) fp32 fp8 int8 nf4 fp4 gptq awq q4_k_m … or Nbpw (EXL2, e.g. 4.65bpw)")
    w.add_argument("--double-quant", action="store_true", help="bitsandbytes double quantization (NF4/FP4)")
    w.add_argument("--precision", choices=PRECISIONS, help="training precision (default amp)")
    w.add_argument("--optimizer", choices=OPTIMIZERS, help="optimizer (default adamw)")
    w.add_argument("--lora-rank", type=positive_int, metavar="R", help="LoRA rank (default 16)")
    w.add_argument("--lora-targets", metavar="LIST", help="q,k,v,o,gate,up,down or all-linear")
    w.add_argument("--seq-len", type=positive_int, metavar="S", help="training sequence length (default 2048)")
    w.add_argument("--context", type=positive_int, metavar="TOKENS", help="inference context length (default 4096)")
    w.add_argument("--batch", type=positive_int, metavar="B", help="inference: sequences at once on the whole build; training: micro-batch per GPU (default 1)")
    w.add_argument("--grad-accum", type=positive_int, metavar="N", help="gradient accumulation steps (default 1)")
    w.add_argument("--checkpointing", choices=CHECKPOINTING, help="activation checkpointing (default none)")
    w.add_argument("--attention", choices=ATTENTION, help="attention kernel (default flash)")
    w.add_argument("--kv-dtype", metavar="DTYPE", help="KV cache type: bf16 fp16 fp32 fp8 q8_0 q4_0")
    w.add_argument("--engine", choices=ENGINES, help="inference engine (default vllm; llama.cpp for .gguf)")
    w.add_argument("--full-prompt-logits", action="store_true",
                   help="transformers before 4.45: generate computes logits for every prompt position")
    w.add_argument("--prompt-tokens", type=count_int, metavar="P",
                   help="prompt part of the context; the rest is generated: speed is then for that request (decode "
                        "at the mid-generation context, first token for the prompt, the whole request's time); 0: "
                        "no prompt")
    w.add_argument("--decode-attention", choices=DECODE_ATTENTION,
                   help="decode attention kernel: grouped (FlashAttention, XQA; default) or per-head "
                        "(TensorRT-LLM masked MHA: before v0.7, or a head layout without an XQA kernel)")
    w.add_argument("--engine-version", metavar="V", type=engine_version_arg,
                   help="TensorRT-LLM version (0.9.0, 0.7a): estimated as that version runs the model (its "
                        "decode attention kernel, FP8 MoE experts); default: a current one")
    r = p.add_argument_group("training run (time and cost; issue 18)")
    r.add_argument("--dataset-tokens", metavar="N|chinchilla",
                   help="tokens in the training set (160B, 2.5e9); 'chinchilla': 20 per parameter "
                        "(Hoffmann et al. 2022, compute-optimal pre-training)")
    r.add_argument("--epochs", type=positive_number, metavar="E", help="passes over the dataset (default 1)")
    t = p.add_argument_group("training framework and memory options")
    t.add_argument("--framework", choices=FRAMEWORKS,
                   help="training framework whose defaults apply (default hf: Trainer + PEFT/TRL)")
    t.add_argument("--loss", choices=LOSSES, help="cross-entropy implementation (default: the framework's)")
    t.add_argument("--loss-chunks", type=positive_int, metavar="N", help="chunks of the chunked loss (default 8)")
    t.add_argument("--checkpoint-every", type=positive_int, metavar="K", help="checkpoint every K-th layer")
    t.add_argument("--activation-offload", action="store_true", help="saved activations to host RAM")
    t.add_argument("--optimizer-in-backward", action="store_true", help="step and free each gradient in backward")
    t.add_argument("--optimizer-kernel", choices=OPTIMIZER_KERNELS,
                   help="PyTorch AdamW's step: foreach (PyTorch's default: more passes, a state-sized temporary) "
                        "or fused (default: the framework's)")
    t.add_argument("--compile", action="store_true", help="torch.compile")
    t.add_argument("--tp", type=positive_int, metavar="N", help="tensor-parallel degree inside --parallel fsdp")
    t.add_argument("--cp", type=positive_int, metavar="N", help="context-parallel degree inside --parallel fsdp")
    t.add_argument("--bnb-legacy", action="store_true",
                   help="bitsandbytes before 0.43.2 (every 4-bit layer keeps its input)")
    t.add_argument("--activation-quant", choices=ACTIVATION_QUANT, help="store saved activations in 8 bits")
    t.add_argument("--expandable-segments", action="store_true",
                   help="PyTorch allocator with expandable segments (less reserved beyond allocated)")
    h = p.add_argument_group("GPU use")
    h.add_argument("--gpus", type=positive_int, metavar="N", help="GPUs the job uses")
    h.add_argument("--parallel", choices=PARALLEL, help="how the GPUs share the work (default none)")
    h.add_argument("--moe-offload-layers", type=int, metavar="N",
                   help="llama.cpp --n-cpu-moe: layers whose MoE experts stay in host RAM (default: the fewest that fit)")
    h.add_argument("--offload", choices=OFFLOAD, action="append",
                   help="offload to host RAM (repeatable; add nvme to put it on NVMe, as ZeRO-Infinity)")



def load_model_arg(args: argparse.Namespace, catalog=None):
    from advisor.core.model.generic import generic_decoder
    from advisor.core.units import parse_count
    from advisor.storage.model_import import ModelImportError, load_model

    if args.model and args.params:
        raise UsageError("--params: give either MODEL or --params, not both")
    if args.params:
        try:
            n = parse_count(args.params)
            return None, generic_decoder(n)
        except ValueError as exc:
            raise UsageError(f"--params: {exc}") from None
    if not args.model:
        raise UsageError("MODEL: give a preset id, config.json, model folder or .gguf file, or --params N")
    try:
        imported = load_model(args.model, catalog=catalog)
    except ModelImportError as exc:
        raise UsageError(f"MODEL: {exc}") from None
    return imported, imported.arch


def override_arch(arch, args: argparse.Namespace):
    from pydantic import ValidationError

    from advisor.core.model.arch import ModelArch

    changes = {field: getattr(args, flag) for flag, field in ARCH_FLAGS.items() if getattr(args, flag) is not None}
    if not changes:
        return arch
    if ("hidden_size" in changes or "n_heads" in changes) and "head_dim" not in changes:
        hidden, heads = changes.get("hidden_size", arch.hidden_size), changes.get("n_heads", arch.n_heads)
        if hidden % heads:
            flag = "--heads" if "n_heads" in changes else "--hidden"
            raise UsageError(f"{flag}: {heads} heads do not divide hidden size {hidden} (give --head-dim)")
        changes["head_dim"] = hidden // heads
    if "n_heads" in changes and "n_kv_heads" not in changes and arch.n_kv_heads == arch.n_heads:
        changes["n_kv_heads"] = changes["n_heads"]  # multi-head attention stays multi-head
    if "n_heads" in changes and "n_kv_heads" not in changes and changes["n_heads"] % arch.n_kv_heads:
        raise UsageError(f"--kv-heads: {arch.n_kv_heads} KV heads do not divide {changes['n_heads']} heads; give --kv-heads")
    data = {**arch.model_dump(), **changes, "params_published": None}
    try:
        return ModelArch.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        msg = err["msg"].removeprefix("Value error, ")
        field = str(err["loc"][0]) if err["loc"] else ""
        flag = next((f"--{k.replace('_', '-')}" for k, v in ARCH_FLAGS.items() if v == field), None)
        if flag is None:  # a model-level check: blame the flag it names
            flag = "--kv-heads" if "n_kv_heads" in msg else "--heads"
        raise UsageError(f"{flag}: {msg}") from None


def lora_targets_arg(text: str) -> tuple[str, ...]:
    from advisor.core.job.workload import LORA_TARGETS

    names = tuple(t.strip().lower() for t in text.split(",") if t.strip())
    if names == ("all-linear",):
        return names
    bad = [t for t in names if t not in LORA_TARGETS]
    if not names or bad:
        raise UsageError(f"--lora-targets: unknown {', '.join(bad) or 'empty list'}; use {','.join(LORA_TARGETS)} or all-linear")
    return names


def workload_fields(args: argparse.Namespace, imported) -> dict[str, Any]:
    from advisor.core.memory.formats import kv_bytes_per_element, weight_format

    train = args.mode == "train"
    method = args.method or "full"
    if args.lora_rank is not None and (not train or method == "full"):
        raise UsageError("--lora-rank: only applies to training with --method lora or qlora")
    if args.lora_targets is not None and (not train or method == "full"):
        raise UsageError("--lora-targets: only applies to training with --method lora or qlora")
    for flag, value in (("--lora-rank", args.lora_rank), ("--lora-targets", args.lora_targets)):
        if value is not None and method.startswith("adapter"):
            raise UsageError(f"{flag}: only applies to --method lora or qlora (adapters train a prompt, not LoRA)")
    objective = getattr(args, "objective", None)
    if objective is not None and not train:
        raise UsageError("--objective: only applies to training (--mode train)")
    if getattr(args, "precompute_ref", False) and (objective or "sft") != "dpo":
        raise UsageError("--precompute-ref: only applies to --objective dpo")
    fields: dict[str, Any] = {"mode": args.mode, "method": method}
    if objective is not None:
        fields["objective"] = objective
    if getattr(args, "precompute_ref", False):
        fields["precompute_ref"] = True
    if args.weights is not None:
        try:
            weight_format(args.weights, double_quant=args.double_quant)
        except ValueError as exc:
            raise UsageError(f"--weights: {exc}") from None
        fields["weights"] = args.weights.strip().lower()
    elif imported is not None and imported.weight_format and not train:
        fields["weights"] = imported.weight_format
    elif train and method == "qlora":
        fields["weights"] = "nf4"  # QLoRA's base (Dettmers et al. 2023); said, not implied
    if args.kv_dtype is not None:
        try:
            kv_bytes_per_element(args.kv_dtype)
        except ValueError as exc:
            raise UsageError(f"--kv-dtype: {exc}") from None
        fields["kv_dtype"] = args.kv_dtype.strip().lower()
    if args.engine is not None:
        fields["engine"] = args.engine
    elif imported is not None and imported.origin == "gguf" and not train:
        fields["engine"] = "llama.cpp"
    simple = {"double_quant": args.double_quant or None, "precision": args.precision, "optimizer": args.optimizer,
              "lora_rank": args.lora_rank, "seq_len": args.seq_len, "context_len": args.context,
              "batch": args.batch, "grad_accum_steps": args.grad_accum, "checkpointing": args.checkpointing,
              "attention": args.attention, "n_gpus": args.gpus, "parallel": args.parallel,
              "framework": args.framework, "loss": args.loss, "loss_chunks": args.loss_chunks,
              "checkpoint_every": args.checkpoint_every, "tp": args.tp, "cp": args.cp,
              "activation_quant": args.activation_quant, "prompt_tokens": args.prompt_tokens,
              "activation_offload": args.activation_offload or None,
              "optimizer_in_backward": args.optimizer_in_backward or None, "compile": args.compile or None,
              "optimizer_kernel": args.optimizer_kernel,
              "bnb_legacy": args.bnb_legacy or None, "expandable_segments": args.expandable_segments or None,
              "full_prompt_logits": args.full_prompt_logits or None, "moe_offload_layers": args.moe_offload_layers,
              "decode_attention": args.decode_attention, "engine_version": args.engine_version}
    fields.update({k: v for k, v in simple.items() if v is not None})
    if args.lora_targets is not None:
        fields["lora_targets"] = lora_targets_arg(args.lora_targets)
    if args.offload:
        fields["offload"] = tuple(dict.fromkeys(args.offload))
    return fields


def make_workload(fields: dict[str, Any]):
    from pydantic import ValidationError

    from advisor.core.job.workload import Workload

    try:
        return Workload(**fields)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        field = str(err["loc"][0]) if err["loc"] else ""
        raise UsageError(f"{FIELD_FLAGS.get(field, field)}: {err['msg']}") from None


