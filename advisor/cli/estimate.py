"""``llm-advisor estimate [MODEL] [options] [--json]``: memory per GPU, speed and fit of one job.

MODEL is a preset id, a ``config.json``, a model folder or a ``.gguf`` (``advisor.storage.
model_import``), or ``--params N`` for a generic dense decoder of N parameters
(``advisor.core.model.generic``). ``--gpu``/``--build`` take hardware from the catalog (the
user's records included) and add fit and speed. Every bad input exits 2 with one line
that names the flag; the numbers come from ``advisor.core.estimation.estimator``.

With hardware, the build runs the job under its best plan (``advisor.core.plan.planner``):
``--gpus``, ``--parallel`` and ``--offload`` pin parts of it. A job that does not fit (or is
tight) lists the smallest changes that would make it fit (``fit.suggestions``).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any

from advisor.cli import UsageError
from advisor.cli._estimate_cost import cost_json
from advisor.cli._estimate_text import result_json, result_text
from advisor.cli._job_args import (
    ARCH_FLAGS,
    MAC_GPU_LIMIT_HELP,
    add_cost_arguments,
    cost_settings,
    dataset_tokens_arg,
    gpu_memory_limit,
    load_model_arg,
    machine_count,
    override_arch,
)
from advisor.cli._job_flags import (
    FIELD_FLAGS,
    add_workload_arguments,
    given_fields,
    job_fields,
    make_workload,
    refuse_ignored,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "estimate", help="memory per GPU, speed and fit of one model and workload",
        description="Estimate per-GPU memory (and with --gpu/--build: fit and speed) of running or training a model.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", nargs="?", metavar="MODEL", help="preset id, config.json, model folder or .gguf file")
    p.add_argument("--params", metavar="N", help="generic dense decoder of N parameters (6.74e9, 6.74B, 70b)")
    add_workload_arguments(p)
    h = p.add_argument_group("hardware")
    where = h.add_mutually_exclusive_group()
    where.add_argument("--gpu", metavar="ID", action="append",
                       help="catalog GPU id: a machine of --gpus N such cards on PCIe (default 1), all of them used; "
                            "repeat for different cards in one machine")
    where.add_argument("--build", metavar="ID", help="catalog build, prebuilt system or cloud instance id")
    h.add_argument("--nodes", type=machine_count, metavar="N",
                   help="N identical machines of --gpu/--build joined by their network card (default 1)")
    h.add_argument("--nic", metavar="ID", help="catalog network card ('nic' part) each machine gets "
                                               "(default: the build's own)")
    h.add_argument("--nics", type=machine_count, metavar="N", help="how many --nic cards each machine gets (default 1)")
    h.add_argument("--mac-gpu-limit", type=gpu_memory_limit, metavar="GIB", help=MAC_GPU_LIMIT_HELP)
    add_cost_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=run)


# --- turning flags into (model, job, plan pins, build) -------------------------------------


@dataclass(frozen=True)
class Request:
    arch: Any  # ModelArch
    workload: Any  # PlannedJob without hardware (the flags are the plan), else the Job alone
    build: Any  # ResolvedBuild | None
    imported: Any  # ImportedModel | None
    weights_bytes_override: float | None
    notes: tuple[str, ...]
    pins: Any = None  # PlanPins from --gpus / --parallel / --offload
    entry: Any = None  # BuildEntry of --gpu/--build (its price, as the window's): None without hardware
    catalog: Any = None  # the Catalog, read once per command; None without --gpu/--build


def _catalog_for(args: argparse.Namespace, read=None):
    """The catalog when --gpu/--build need it (read once for the whole command: ``read`` when the
    command has read it already), else None."""
    if not args.gpu and not args.build:
        return None
    if read is not None:
        return read
    from advisor.core import RecordKind
    from advisor.storage.catalog_store import load_catalog

    if args.gpu and not args.build:  # what the estimate needs: those cards, the network cards, the model presets
        gpus = [args.gpu] if isinstance(args.gpu, str) else list(args.gpu)
        return load_catalog(migrate_user_files=False, kinds=(RecordKind.GPU, RecordKind.PART, RecordKind.MODEL),
                            ids={RecordKind.GPU: gpus}).catalog
    return load_catalog(migrate_user_files=False).catalog


def _resolve_hardware(args: argparse.Namespace, catalog):
    """The ResolvedBuild for --gpu/--build (None without either), from ``catalog``, as --nodes
    machines with the --nic card where given."""
    if catalog is None:
        for flag in ("nodes", "nic", "nics", "mac_gpu_limit"):
            if getattr(args, flag, None) is not None:
                raise UsageError(f"--{flag.replace('_', '-')}: give --gpu or --build too")
        return None
    build = _resolve_one(args, catalog)
    from advisor.core import with_nodes

    if getattr(args, "nics", None) is not None and getattr(args, "nic", None) is None:
        raise UsageError("--nics: give --nic too")
    if getattr(args, "nic", None) is not None:  # '' too: no card has that id (it reached the comparison's check)
        build = _with_nic(args, catalog, build)
    if getattr(args, "nodes", None):
        build = with_nodes(build, args.nodes)
    limit = getattr(args, "mac_gpu_limit", None)
    if limit is not None:
        build = _with_mac_gpu_limit(build, limit)
    return build


def _with_nic(args: argparse.Namespace, catalog, build):
    """``build`` with --nics of the --nic card (a network card of the catalog)."""
    from advisor.core import IncompleteRecord, RecordKind, with_network

    part = catalog.parts.get(args.nic)
    if part is None or part.part.value != "nic":
        names = ", ".join(k for k, v in catalog.of(RecordKind.PART).items() if v.part.value == "nic")
        raise UsageError(f"--nic: no network card {args.nic!r} in the catalog (network cards: {names})")
    try:
        return with_network(catalog, build, args.nic, args.nics or 1)
    except IncompleteRecord as exc:
        raise UsageError(f"--nic: {exc}") from None


def _with_mac_gpu_limit(build, limit):
    """``build`` under macOS's GPU memory limit (--mac-gpu-limit); only a Mac has one."""
    from advisor.core import with_gpu_memory_limit

    changed = with_gpu_memory_limit(build, limit)
    if changed is build:
        raise UsageError(f"--mac-gpu-limit: {build.name} is not a Mac (the limit is macOS's, for Apple GPUs)")
    return changed


def _cards(args: argparse.Namespace, catalog):
    """A machine of the --gpu cards (× --gpus) on the typical platform that carries them: host RAM, a PSU, a price."""
    from advisor.core import boards_needed, gpu_build, mixed_build, on_platform

    ids = [args.gpu] if isinstance(args.gpu, str) else list(args.gpu)
    for gid in ids:
        if gid not in catalog.gpus:
            raise UsageError(f"--gpu: unknown GPU {gid!r} (see 'llm-advisor catalog list --kind gpu')")
    if len(ids) > 1:
        if args.n_gpus is not None and args.n_gpus > len(ids):
            raise UsageError(f"--gpus: {len(ids)} cards given with --gpu, not {args.n_gpus}")
        try:
            return on_platform(catalog, mixed_build(catalog, ids))
        except ValueError as exc:
            raise UsageError(f"--gpu: {exc}") from None
    count = args.n_gpus or 1
    try:
        return on_platform(catalog, gpu_build(catalog, ids[0], count))
    except ValueError as exc:
        needed = boards_needed(catalog.gpus[ids[0]], count)
        hint = f" (--gpus {needed[0]} --nodes {needed[1]} --nic ID)" if needed else ""
        raise UsageError(f"--gpus: {exc}{hint}") from None


def _resolve_one(args: argparse.Namespace, catalog):
    """One machine of --gpu/--build."""
    from advisor.core import (
        IncompleteRecord,
        RecordKind,
        UnknownRecord,
        on_platform,
        resolve_build,
        resolve_cloud,
        resolve_system,
    )

    if args.gpu:
        return _cards(args, catalog)
    resolvers = ((RecordKind.BUILD, resolve_build), (RecordKind.SYSTEM, resolve_system),
                 (RecordKind.CLOUD, resolve_cloud))
    for kind, resolve in resolvers:
        if args.build in catalog.of(kind):
            try:
                return on_platform(catalog, resolve(catalog, args.build))
            except (UnknownRecord, IncompleteRecord) as exc:
                raise UsageError(f"--build: {exc}") from None
    raise UsageError(f"--build: unknown build, system or cloud instance {args.build!r} "
                     "(see 'llm-advisor catalog list')")


def _weights_override(imported, workload) -> float | None:
    """Exact file bytes stand in for the weight estimate when the job serves the files as they are."""
    if imported is None or imported.weights_bytes_override is None or workload.mode.value != "inference":
        return None
    return imported.weights_bytes_override if workload.weights == imported.weight_format else None


def _with_defaults(fields: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """The default job (``advisor.core.job.defaults``, as the window's) under the flags given; a note says
    the default job's size where the flags leave it."""
    from advisor.core import Engine, Mode, default_job, shape_words

    mode = Mode(fields.get("mode", "inference"))
    engine = Engine(fields["engine"]) if "engine" in fields else None
    base = default_job(mode, engine)
    merged = {k: getattr(base, k) for k in base.model_fields_set}
    if mode is Mode.INFERENCE and not {"engine", "context_len", "batch"} <= set(fields):
        notes.append(f"not given, the default job's: {shape_words(base.engine)} with {base.engine.label}")
    merged.update(fields)
    return merged


def _gpus_given(args: argparse.Namespace, fields: dict[str, Any], build) -> None:
    """``--gpus N``: with one ``--gpu`` card, the machine has N of them (each of ``--nodes`` machines) and the job
    uses all; with ``--build`` or several ``--gpu`` cards, the job uses N of the build's GPUs, counted over all
    its machines. Without hardware it is the job's own count."""
    if args.n_gpus is None or build is None:
        return
    if args.gpu and len(args.gpu) == 1:
        fields.pop("n_gpus")  # the build's shape, not a pin: the plan uses every GPU of every machine
    elif args.n_gpus > build.gpu_count:
        raise UsageError(f"--gpus: {build.name} has {build.gpu_count} GPU(s) in all, not {args.n_gpus}")


def build_request(args: argparse.Namespace, read=None) -> Request:
    """Everything the estimate needs, validated; UsageError (naming the flag) otherwise.

    ``read``: the catalog the command has read already (advise, report), so that the model preset
    is looked up in it instead of a second read.
    """
    from advisor.core import job_of, pins_of

    catalog = _catalog_for(args, read)
    imported, arch = load_model_arg(args, catalog if catalog is not None else read)
    arch = override_arch(arch, args)
    notes: list[str] = []
    given = given_fields(args)
    fields = _with_defaults(job_fields(args, imported), notes)
    tokens, tokens_note = dataset_tokens_arg(getattr(args, "dataset_tokens", None), arch)
    if tokens is not None:
        fields["dataset_tokens"] = tokens
    if tokens_note:
        notes.append(tokens_note)
    build = _resolve_hardware(args, catalog)
    _gpus_given(args, fields, build)
    field = "seq_len" if fields["mode"] == "train" else "context_len"
    if field not in given and arch.max_context < fields.get(field, 2048):
        fields[field] = arch.max_context
        notes.append(f"{FIELD_FLAGS[field]} not given: the model's maximum, {arch.max_context:,} tokens")
    workload = make_workload(fields)
    refuse_ignored(workload, given)
    pins = pins_of(workload)
    if args.params:
        notes.append(f"generic dense decoder of {arch.n_layers} layers x {arch.hidden_size} wide (advisor.core.model.generic)")
    arch_changed = any(getattr(args, flag) is not None for flag in ARCH_FLAGS)
    if arch_changed:
        notes.append("architecture overridden from the command line")
    if imported is not None:
        notes.extend(imported.notes)
    exact = None if arch_changed else _weights_override(imported, workload)  # files no longer match the shapes
    job = workload if build is None else job_of(workload)  # without hardware, the flags are the plan
    return Request(arch, job, build, imported, exact, tuple(notes), pins, _entry(args, build, catalog), catalog)


def _entry(args: argparse.Namespace, build, catalog):
    """The comparison entry --gpu/--build stand for (so the price is found as the window finds it)."""
    if build is None:
        return None
    from advisor.core import BuildEntry

    if args.build:
        kind = ("cloud_id" if args.build in catalog.cloud else "system_id" if args.build in catalog.systems
                else "build_id")
        return BuildEntry(name=build.name, nodes=build.nodes, nic_id=getattr(args, "nic", None),
                          nics=getattr(args, "nics", None) or 1, **{kind: args.build})
    return BuildEntry(name=build.name, inline=build)


def _check(request: Request) -> None:
    """The first impossible or contradictory setting (``check_planned``), as a usage error. With a build,
    the pinned parts of the plan are checked against it, and the GPU count it leaves free as every GPU of the
    build (what the plan starts from: a pinned scheme keeps the build's GPUs)."""
    from advisor.core import BUILD_ONLY_FIELDS, alone, check_planned

    workload = alone(request.workload)  # a job alone: on one GPU, as its plan starts
    if request.build is not None and request.pins is not None:
        update = {k: getattr(request.pins, k) for k in BUILD_ONLY_FIELDS if getattr(request.pins, k) is not None}
        if "parallel" in update:
            update.setdefault("n_gpus", request.build.gpu_count)
        workload = workload.model_copy(update=update)
    # What the software does not run on the build is the build's verdict ("cannot run"), shown with the
    # estimate; only settings that contradict each other are usage errors.
    problems = [p for p in check_planned(request.arch, workload, request.build) if not p.support]
    if problems:
        first = problems[0]
        raise UsageError(f"{FIELD_FLAGS.get(first.field, first.field)}: {first.message}")


def estimate_request(request: Request, margin: float = 0.0):
    """(estimate, planned or None, suggestions): the build's best plan for the job, and what would
    make the job fit when it does not (or is tight)."""
    from advisor.core import FitStatus, best_plan, estimate, suggestions

    exact = request.weights_bytes_override
    if request.build is None:
        return estimate(request.arch, request.workload, None, weights_bytes_override=exact), None, []
    chosen = best_plan(request.arch, request.workload, request.build, request.pins, margin, exact)
    found = []
    if chosen.status in (FitStatus.NO, FitStatus.TIGHT):
        found = suggestions(request.arch, request.workload, request.build, request.pins, margin)
    return chosen.estimate, chosen, found


def run(args: argparse.Namespace) -> int:
    request = build_request(args)
    _check(request)
    from advisor.storage.error_bands import median_pct

    notes = []
    exact = request.weights_bytes_override
    if exact is not None:
        notes.append(f"weights: the files' exact {exact / 2**30:.2f} GiB replace the format estimate")
    band = median_pct(request.workload)
    est, chosen, found = estimate_request(request, band / 100 if band is not None else 0.0)
    data = result_json(request, est, chosen, found)
    data["cost"] = cost_json(request, est, chosen, cost_settings(args)) if request.build is not None else None
    data["assumptions"][len(request.notes):len(request.notes)] = notes
    print(json.dumps(data, indent=2) if args.json else result_text(data))
    return 0
