"""What every command that takes a job shares (``estimate``, ``advise``, ``report``): the model it
names, its architecture overrides, the running-cost settings and the number parsers; the job's own
flags are built from the settings' declarations (``_job_flags``). Every bad value is a
``UsageError`` naming its flag."""

from __future__ import annotations

import argparse
import re
import sys

from advisor.cli import UsageError

# Architecture override flag → ModelArch field.
ARCH_FLAGS = {"layers": "n_layers", "hidden": "hidden_size", "heads": "n_heads", "kv_heads": "n_kv_heads",
              "head_dim": "head_dim", "ffn": "ffn_size", "vocab": "vocab_size"}


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
    """A version such as 0.9.0 or 0.7a (``Job.engine_version``)."""
    from advisor.core import ENGINE_VERSION_PATTERN  # noqa: PLC0415 - the CLI imports the core lazily

    value = text.strip()
    if len(value) > 20 or re.match(ENGINE_VERSION_PATTERN, value) is None:
        raise argparse.ArgumentTypeError(f"expected a version such as 0.9.0 or 0.7a, not {text!r}")
    return value


def machine_count(text: str) -> int:
    """A number of machines (or of network cards a machine gets): ASCII digits, 1 to MAX_NODES."""
    from advisor.core import MAX_NODES

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
    from advisor.core import (
        DEFAULT_HOURS_PER_DAY,
        DEFAULT_USD_PER_KWH,
        DEFAULT_YEARS,
    )

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

    from advisor.core import CostSettings
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
    from advisor.core import parse_count

    if text.strip().lower() == "chinchilla":
        from advisor.core import CHINCHILLA_SOURCE, chinchilla_tokens, count_params

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


def load_model_arg(args: argparse.Namespace, catalog=None):
    from advisor.core import generic_decoder, parse_count
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

    from advisor.core import ModelArch

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
    from advisor.core import LORA_TARGETS

    names = tuple(t.strip().lower() for t in text.split(",") if t.strip())
    if names == ("all-linear",):
        return names
    bad = [t for t in names if t not in LORA_TARGETS]
    if not names or bad:
        raise UsageError(f"--lora-targets: unknown {', '.join(bad) or 'empty list'}; use {','.join(LORA_TARGETS)} or all-linear")
    return names


#: The --mac-gpu-limit help, shared by estimate and advise.
MAC_GPU_LIMIT_HELP = ("a Mac's GPU memory limit, GiB, as raised with 'sudo sysctl iogpu.wired_limit_mb=…' (default: "
                      "macOS's own — two thirds of the memory up to 36 GB, three quarters above)")


def gpu_memory_limit(text: str) -> float:
    """A Mac's GPU memory limit in GiB: from 1 to 16,384."""
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected GiB, not {text!r}") from None
    if not 1 <= value <= 16_384:
        raise argparse.ArgumentTypeError(f"must be from 1 to 16,384 GiB, not {text}")
    return value
