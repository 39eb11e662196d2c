"""``llm-advisor estimate [MODEL] [options] [--json]``: memory per GPU, speed and fit of one job.

MODEL is a preset id, a ``config.json``, a model folder or a ``.gguf`` (``advisor.storage.
model_import``), or ``--params N`` for a generic dense decoder of N parameters
(``advisor.core.model.generic``). ``--gpu``/``--build`` take hardware from the catalog (the
user's records included) and add fit and speed. Every bad input exits 2 with one line
that names the flag; the numbers come from ``advisor.core.estimate.estimator``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any

from advisor.cli import UsageError

MODES = ("inference", "train")
METHODS = ("full", "lora", "qlora")
PRECISIONS = ("amp", "bf16", "fp32")
OPTIMIZERS = ("adamw", "adamw-8bit", "paged-adamw", "paged-adamw-8bit", "sgd", "adafactor")
CHECKPOINTING = ("none", "selective", "full")
ATTENTION = ("eager", "sdpa", "flash")
ENGINES = ("transformers", "vllm", "llama.cpp")
PARALLEL = ("none", "ddp", "zero1", "zero2", "zero3", "fsdp", "fsdp-grad-op", "fsdp-no-shard", "tp", "pp", "layer-split")
OFFLOAD = ("optimizer", "params")

# Architecture override flag → ModelArch field.
ARCH_FLAGS = {"layers": "n_layers", "hidden": "hidden_size", "heads": "n_heads", "kv_heads": "n_kv_heads",
              "head_dim": "head_dim", "ffn": "ffn_size", "vocab": "vocab_size"}
# Workload field → the flag that sets it (for error messages).
FIELD_FLAGS = {"mode": "--mode", "weights": "--weights", "double_quant": "--double-quant",
               "kv_dtype": "--kv-dtype", "context_len": "--context", "batch": "--batch", "engine": "--engine",
               "method": "--method", "precision": "--precision", "optimizer": "--optimizer",
               "lora_rank": "--lora-rank", "lora_targets": "--lora-targets", "seq_len": "--seq-len",
               "checkpointing": "--checkpointing", "attention": "--attention", "n_gpus": "--gpus",
               "parallel": "--parallel", "offload": "--offload", "grad_accum_steps": "--grad-accum"}
MEMORY_ROWS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "adapters", "buffers", "runtime")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "estimate", help="memory per GPU, speed and fit of one model and workload",
        description="Estimate per-GPU memory (and with --gpu/--build: fit and speed) of running or training a model.")
    p.add_argument("model", nargs="?", metavar="MODEL", help="preset id, config.json, model folder or .gguf file")
    p.add_argument("--params", metavar="N", help="generic dense decoder of N parameters (6.74e9, 6.74B, 70b)")
    add_workload_arguments(p)
    h = p.add_argument_group("hardware")
    where = h.add_mutually_exclusive_group()
    where.add_argument("--gpu", metavar="ID", help="catalog GPU id (one card; N on PCIe with --gpus N)")
    where.add_argument("--build", metavar="ID", help="catalog build, prebuilt system or cloud instance id")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=run)


def add_workload_arguments(p: argparse.ArgumentParser) -> None:
    """Architecture overrides, workload and GPU-use flags (shared with ``llm-advisor report``)."""
    arch = p.add_argument_group("architecture overrides")
    for flag in ARCH_FLAGS:
        arch.add_argument(f"--{flag.replace('_', '-')}", type=_positive_int, metavar="N")
    w = p.add_argument_group("workload")
    w.add_argument("--mode", choices=MODES, default="inference")
    w.add_argument("--method", choices=METHODS, help="training method (default full)")
    w.add_argument("--weights", metavar="FORMAT", help="weight format: bf16 fp16 fp32 fp8 int8 nf4 fp4 gptq awq q4_k_m …")
    w.add_argument("--double-quant", action="store_true", help="bitsandbytes double quantization (NF4/FP4)")
    w.add_argument("--precision", choices=PRECISIONS, help="training precision (default amp)")
    w.add_argument("--optimizer", choices=OPTIMIZERS, help="optimizer (default adamw)")
    w.add_argument("--lora-rank", type=_positive_int, metavar="R", help="LoRA rank (default 16)")
    w.add_argument("--lora-targets", metavar="LIST", help="q,k,v,o,gate,up,down or all-linear")
    w.add_argument("--seq-len", type=_positive_int, metavar="S", help="training sequence length (default 2048)")
    w.add_argument("--context", type=_positive_int, metavar="TOKENS", help="inference context length (default 4096)")
    w.add_argument("--batch", type=_positive_int, metavar="B", help="sequences at once / micro-batch (default 1)")
    w.add_argument("--grad-accum", type=_positive_int, metavar="N", help="gradient accumulation steps (default 1)")
    w.add_argument("--checkpointing", choices=CHECKPOINTING, help="activation checkpointing (default none)")
    w.add_argument("--attention", choices=ATTENTION, help="attention kernel (default flash)")
    w.add_argument("--kv-dtype", metavar="DTYPE", help="KV cache type: bf16 fp16 fp32 fp8 q8_0 q4_0")
    w.add_argument("--engine", choices=ENGINES, help="inference engine (default transformers; llama.cpp for .gguf)")
    h = p.add_argument_group("GPU use")
    h.add_argument("--gpus", type=_positive_int, metavar="N", help="GPUs the job uses")
    h.add_argument("--parallel", choices=PARALLEL, help="how the GPUs share the work (default none)")
    h.add_argument("--offload", choices=OFFLOAD, action="append", help="offload to host RAM (repeatable)")


# --- turning flags into (model, workload, build) ------------------------------------------


@dataclass(frozen=True)
class Request:
    arch: Any  # ModelArch
    workload: Any  # Workload
    build: Any  # ResolvedBuild | None
    imported: Any  # ImportedModel | None
    weights_bytes_override: float | None
    notes: tuple[str, ...]


def _load_model(args: argparse.Namespace):
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
        imported = load_model(args.model)
    except ModelImportError as exc:
        raise UsageError(f"MODEL: {exc}") from None
    return imported, imported.arch


def _override_arch(arch, args: argparse.Namespace):
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


def _lora_targets(text: str) -> tuple[str, ...]:
    from advisor.core.job.workload import LORA_TARGETS

    names = tuple(t.strip().lower() for t in text.split(",") if t.strip())
    if names == ("all-linear",):
        return names
    bad = [t for t in names if t not in LORA_TARGETS]
    if not names or bad:
        raise UsageError(f"--lora-targets: unknown {', '.join(bad) or 'empty list'}; use {','.join(LORA_TARGETS)} or all-linear")
    return names


def _workload_fields(args: argparse.Namespace, imported) -> dict[str, Any]:
    from advisor.core.memory.formats import kv_bytes_per_element, weight_format

    train = args.mode == "train"
    method = args.method or "full"
    if args.lora_rank is not None and (not train or method == "full"):
        raise UsageError("--lora-rank: only applies to training with --method lora or qlora")
    if args.lora_targets is not None and (not train or method == "full"):
        raise UsageError("--lora-targets: only applies to training with --method lora or qlora")
    fields: dict[str, Any] = {"mode": args.mode, "method": method}
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
              "attention": args.attention, "n_gpus": args.gpus, "parallel": args.parallel}
    fields.update({k: v for k, v in simple.items() if v is not None})
    if args.lora_targets is not None:
        fields["lora_targets"] = _lora_targets(args.lora_targets)
    if args.offload:
        fields["offload"] = tuple(dict.fromkeys(args.offload))
    return fields


def _make_workload(fields: dict[str, Any]):
    from pydantic import ValidationError

    from advisor.core.job.workload import Workload

    try:
        return Workload(**fields)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        field = str(err["loc"][0]) if err["loc"] else ""
        raise UsageError(f"{FIELD_FLAGS.get(field, field)}: {err['msg']}") from None


def _resolve_hardware(args: argparse.Namespace):
    """The ResolvedBuild for --gpu/--build (None without either), from the catalog store."""
    if not args.gpu and not args.build:
        return None
    from advisor.core.hardware.catalog import (
        IncompleteRecord,
        RecordKind,
        UnknownRecord,
        gpu_build,
        resolve_build,
        resolve_cloud,
        resolve_system,
    )
    from advisor.storage.catalog_store import load_catalog

    catalog = load_catalog(migrate_user_files=False).catalog
    if args.gpu:
        if args.gpu not in catalog.gpus:
            raise UsageError(f"--gpu: unknown GPU {args.gpu!r} (see 'llm-advisor catalog list --kind gpu')")
        try:
            return gpu_build(catalog, args.gpu, args.gpus or 1)
        except ValueError as exc:
            raise UsageError(f"--gpus: {exc}") from None
    resolvers = ((RecordKind.BUILD, resolve_build), (RecordKind.SYSTEM, resolve_system),
                 (RecordKind.CLOUD, resolve_cloud))
    for kind, resolve in resolvers:
        if args.build in catalog.of(kind):
            try:
                return resolve(catalog, args.build)
            except (UnknownRecord, IncompleteRecord) as exc:
                raise UsageError(f"--build: {exc}") from None
    raise UsageError(f"--build: unknown build, system or cloud instance {args.build!r} "
                     "(see 'llm-advisor catalog list')")


def _weights_override(imported, workload) -> float | None:
    """Exact file bytes stand in for the weight estimate when the job serves the files as they are."""
    if imported is None or imported.weights_bytes_override is None or workload.mode.value != "inference":
        return None
    return imported.weights_bytes_override if workload.weights == imported.weight_format else None


def _default_parallel(args: argparse.Namespace) -> tuple[str, str]:
    """How several GPUs share the job when --parallel is not given."""
    if args.mode == "train":
        return "ddp", "the multi-GPU default of accelerate launch / torchrun scripts"
    if args.engine == "vllm":
        return "tp", "vLLM --tensor-parallel-size"
    return "layer-split", "transformers device_map='auto' / llama.cpp --split-mode layer"


def build_request(args: argparse.Namespace) -> Request:
    """Everything the estimate needs, validated; UsageError (naming the flag) otherwise."""
    imported, arch = _load_model(args)
    arch = _override_arch(arch, args)
    fields = _workload_fields(args, imported)
    build = _resolve_hardware(args)
    if build is not None and args.gpus is None:
        fields["n_gpus"] = build.gpu_count
    if build is not None and fields.get("n_gpus", 1) > build.gpu_count:
        raise UsageError(f"--gpus: {build.name} has {build.gpu_count} GPU(s), not {fields['n_gpus']}")
    notes = []
    clamp = ("seq_len", "seq_len", 2048) if args.mode == "train" else ("context", "context_len", 4096)
    for flag, field, default in (clamp,):
        if getattr(args, flag) is None and arch.max_context < default:
            fields[field] = arch.max_context
            notes.append(f"--{flag.replace('_', '-')} not given: the model's maximum, {arch.max_context} tokens")
    if fields.get("n_gpus", 1) > 1 and args.parallel is None:
        fields["parallel"], why = _default_parallel(args)
        notes.append(f"--parallel not given: {fields['parallel']} ({why})")
    workload = _make_workload(fields)
    if args.params:
        notes.append(f"generic dense decoder of {arch.n_layers} layers x {arch.hidden_size} wide (advisor.core.model.generic)")
    if any(getattr(args, flag) is not None for flag in ARCH_FLAGS):
        notes.append("architecture overridden from the command line")
    if imported is not None:
        notes.extend(imported.notes)
    arch_changed = any(getattr(args, flag) is not None for flag in ARCH_FLAGS)
    exact = None if arch_changed else _weights_override(imported, workload)  # files no longer match the shapes
    return Request(arch, workload, build, imported, exact, tuple(notes))


def _check(request: Request) -> None:
    """The first impossible or contradictory setting (``check_workload``), as a usage error."""
    from advisor.core.estimate.job_checks import check_workload

    problems = check_workload(request.arch, request.workload, request.build)
    if problems:
        first = problems[0]
        flag = FIELD_FLAGS.get(first.field, f"--{first.field.replace('_', '-')}")
        raise UsageError(f"{flag}: {first.message.replace('--n-gpus', '--gpus')}")


# --- output -------------------------------------------------------------------------------


def _gib(n: float | None) -> float | None:
    return None if n is None else round(n / 2**30, 3)


def result_json(request: Request, est) -> dict[str, Any]:
    from advisor.core.model.params import count_params

    arch, mem, speed = request.arch, est.memory, est.speed
    counts = count_params(arch)
    imported = request.imported
    model = {
        "id": arch.id, "name": arch.name, "family": arch.family,
        "origin": imported.origin if imported else "generic", "path": imported.path if imported else None,
        "n_layers": arch.n_layers, "hidden_size": arch.hidden_size, "n_heads": arch.n_heads,
        "n_kv_heads": arch.n_kv_heads, "head_dim": arch.head_dim, "ffn_size": arch.ffn_size,
        "vocab_size": arch.vocab_size, "attention": arch.attention.kind.value,
        "moe": arch.moe.model_dump() if arch.moe else None,
        "params_total": counts.total, "params_active": counts.active,
        "params_exact": imported.params_exact if imported else None,
        "params_trainable": est.params_trainable, "weights_bytes_exact": request.weights_bytes_override,
    }
    per_gpu = {term: _gib(getattr(mem, term)) for term in MEMORY_ROWS}
    per_gpu["total"] = _gib(mem.total)
    fit = None
    if est.fit is not None:
        f = est.fit
        fit = {"fits": f.fits, "need_per_gpu_gib": _gib(f.need_per_gpu_bytes),
               "usable_per_gpu_gib": _gib(f.usable_per_gpu_bytes), "headroom_gib": _gib(f.headroom_bytes),
               "host_need_gib": _gib(f.host_need_bytes), "host_available_gib": _gib(f.host_available_bytes),
               "reason": f.reason}
    hardware = None
    if request.build is not None:
        b = request.build
        hardware = {"name": b.name, "gpus": [g.id for g in b.gpus], "gpu_count": b.gpu_count,
                    "host_ram_gib": b.host_ram_gib}
    rot = est.rule_of_thumb
    return {
        "model": model,
        "workload": request.workload.model_dump(mode="json"),
        "hardware": hardware,
        "memory": {"per_gpu_gib": per_gpu, "host_gib": _gib(mem.host)},
        "speed": {"decode_tokens_per_s": speed.decode_tokens_per_s, "prefill_tokens_per_s": speed.prefill_tokens_per_s,
                  "time_to_first_token_s": speed.time_to_first_token_s,
                  "train_tokens_per_s": speed.train_tokens_per_s, "step_time_s": speed.step_time_s,
                  "interconnect_share": speed.interconnect_share,
                  "bottleneck": speed.bottleneck.value if speed.bottleneck else None, "notes": list(speed.notes)},
        "fit": fit,
        "rule_of_thumb": None if rot is None else {"total_gib": _gib(rot.total_bytes), "rule": rot.rule,
                                                   "why_different": rot.why_different},
        "assumptions": list(request.notes) + list(est.assumptions),
    }


def _fmt(value: float | None, unit: str, digits: int = 1) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f} {unit}"


def result_text(data: dict[str, Any]) -> str:
    m, w = data["model"], data["workload"]
    lines = [f"{m['name']} ({m['id']}): {m['params_total'] / 1e9:.2f}B parameters"
             + (f", {m['params_active'] / 1e9:.2f}B active" if m["moe"] else "")
             + f"; {m['n_layers']} layers, hidden {m['hidden_size']}, {m['n_heads']} heads / {m['n_kv_heads']} KV",
             f"Workload: {w['mode']}" + (f" {w['method']}" if w["mode"] == "train" else f", {w['weights']} weights")
             + f", batch {w['batch']}, {w['n_gpus']} GPU(s)"
             + (f", {data['hardware']['name']}" if data["hardware"] else ""), "", "Memory per GPU"]
    per_gpu = data["memory"]["per_gpu_gib"]
    for term in (*MEMORY_ROWS, "total"):
        if term == "total" or per_gpu[term]:
            lines.append(f"  {term.replace('_', ' '):<14}{per_gpu[term]:>10.2f} GiB")
    lines.append(f"  {'host RAM':<14}{data['memory']['host_gib']:>10.2f} GiB")
    if data["fit"] is not None:
        f = data["fit"]
        lines += ["", f"Fit: {'yes' if f['fits'] else 'NO'} ({f['reason']})"]
    s = data["speed"]
    speed_rows = [("decode", s["decode_tokens_per_s"], "tokens/s"), ("prefill", s["prefill_tokens_per_s"], "tokens/s"),
                  ("first token", s["time_to_first_token_s"], "s"), ("training", s["train_tokens_per_s"], "tokens/s"),
                  ("step time", s["step_time_s"], "s")]
    shown = [(k, v, u) for k, v, u in speed_rows if v is not None]
    if shown:
        lines += ["", "Speed" + (f" (bottleneck: {s['bottleneck']})" if s["bottleneck"] else "")]
        lines += [f"  {k:<14}{_fmt(v, u, 2 if u == 's' else 1):>16}" for k, v, u in shown]
    elif not data["hardware"]:
        lines += ["", "Speed: give --gpu or --build"]
    rot = data["rule_of_thumb"]
    if rot:
        lines += ["", f"Rule of thumb: {rot['total_gib']:.1f} GiB ({rot['rule']})"]
        if rot["why_different"]:
            lines.append(f"  {rot['why_different']}")
    if data["assumptions"]:
        lines += ["", "Assumptions"] + [f"  - {a}" for a in data["assumptions"]]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    request = build_request(args)
    _check(request)
    from advisor.core.estimate.estimator import estimate

    notes = []
    exact = request.weights_bytes_override
    if exact is not None:
        notes.append(f"weights: the files' exact {exact / 2**30:.2f} GiB replace the format estimate")
    est = estimate(request.arch, request.workload, request.build, weights_bytes_override=exact)
    data = result_json(request, est)
    data["assumptions"][len(request.notes):len(request.notes)] = notes
    print(json.dumps(data, indent=2) if args.json else result_text(data))
    return 0

