"""``llm-advisor report``: write a comparison's PDF without opening the window.

    llm-advisor report COMPARISON.json --out FILE.pdf
    llm-advisor report --model llama-3.1-8b --build 2x-rtx-3090-nvlink --build 2x-rtx-4090-pcie-x16 \
        [estimate flags] --out FILE.pdf
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import stat
import sys
from pathlib import Path

from advisor.cli import UsageError
from advisor.cli._job_args import add_cost_arguments, cost_settings
from advisor.cli.estimate import add_workload_arguments


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "report", help="write a build comparison as a PDF (from a comparison file or from flags)",
        description="Write the PDF report of a comparison: a saved comparison file, or --model with "
                    "two to six --build ids and the estimate command's workload flags.")
    p.add_argument("comparison", nargs="?", metavar="COMPARISON.json", help="a comparison saved by the app")
    p.add_argument("--out", required=True, metavar="FILE.pdf", help="where to write the PDF")
    p.add_argument("--page-size", choices=("a4", "letter"), help="paper size (default: from the locale)")
    p.add_argument("--overwrite", action="store_true", help="replace FILE.pdf if it exists")
    p.add_argument("--unit", choices=("GiB", "GB"), default="GiB", help="memory unit in the report")
    p.add_argument("--model", metavar="MODEL", help="preset id, config.json, model folder or .gguf (with --build)")
    p.add_argument("--params", metavar="N", help="generic dense decoder of N parameters (with --build)")
    p.add_argument("--build", action="append", metavar="ID", default=[],
                   help="catalog build, system or cloud id; ID:N for N machines of it joined by its "
                        "network card (repeat: 2 to 6)")
    p.add_argument("--title", default="", help="title of the report")
    add_workload_arguments(p)
    add_cost_arguments(p)
    p.set_defaults(handler=run)


def _comparison_from_file(path: str):
    from advisor.storage.comparison_file import ComparisonFileError, load_comparison

    try:
        return load_comparison(path)
    except ComparisonFileError as exc:
        raise UsageError(f"COMPARISON.json: {exc}") from None


def _id_and_nodes(given: str) -> tuple[str, int]:
    """``ID`` or ``ID:N`` (N identical machines joined by the build's network card)."""
    import argparse

    from advisor.cli._job_args import machine_count

    rid, sep, count = given.partition(":")
    if not sep:
        return rid, 1
    try:
        return rid, machine_count(count)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"--build {given!r}: after ':' give {exc}") from None


def _entries(catalog, ids: list[str]):
    from advisor.core import (
        MAX_BUILDS,
        MIN_BUILDS,
        BuildEntry,
        RecordKind,
        unique_name,
    )

    if not MIN_BUILDS <= len(ids) <= MAX_BUILDS:
        raise UsageError(f"--build: give {MIN_BUILDS} to {MAX_BUILDS} builds (got {len(ids)})")
    entries: list[BuildEntry] = []
    taken: set[str] = set()
    for given in ids:
        rid, nodes = _id_and_nodes(given)
        for kind, field in ((RecordKind.BUILD, "build_id"), (RecordKind.SYSTEM, "system_id"), (RecordKind.CLOUD, "cloud_id")):
            record = catalog.of(kind).get(rid)
            if record is not None:
                label = getattr(record, "name", None) or f"{record.provider} {record.instance_type}"
                name = unique_name(label if nodes == 1 else f"{nodes} × {label}", taken)
                taken.add(name)
                entries.append(BuildEntry(name=name, nodes=nodes, **{field: rid}))
                break
        else:
            raise UsageError(f"--build: unknown build, system or cloud instance {rid!r} (see 'llm-advisor catalog list')")
    return tuple(entries)


def _comparison_from_flags(args: argparse.Namespace, catalog):
    from advisor.cli.estimate import _check, build_request
    from advisor.core import Comparison, ModelRef, job_of, parse_count, pins_of

    if not args.model and not args.params:
        raise UsageError("COMPARISON.json: give a comparison file, or --model (or --params) with --build ids")
    entries = _entries(catalog, args.build)
    args.gpu = None  # build_request's hardware comes from the --build entries, not --gpu
    args.build = None
    request = build_request(args, catalog)  # the model preset from the catalog read once
    # Each build plans itself; --gpus / --parallel / --offload, when given, pin that part on every build.
    pins = pins_of(request.workload)
    entries = tuple(e.model_copy(update={"plan": pins}) for e in entries)
    workload = job_of(request.workload)
    _check(dataclasses.replace(request, workload=workload))  # the job; pins are checked per build
    if args.params:
        ref = ModelRef(generic_params=parse_count(args.params))  # build_request has validated it
    elif request.imported is not None and request.imported.origin != "preset":
        ref = ModelRef(imported_path=args.model, arch=request.arch)
    else:
        ref = ModelRef(preset_id=request.arch.id)
    return Comparison(title=args.title, workload=workload, model=ref, builds=entries)


def run(args: argparse.Namespace) -> int:
    if args.comparison and (args.model or args.params or args.build):
        raise UsageError("COMPARISON.json: give a comparison file or --model/--build flags, not both")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # headless: no window is ever shown
    from advisor.storage.catalog_store import load_catalog, shipped_catalog_date

    _check_title(args.title)
    _check_out(Path(args.out), args.overwrite)
    catalog = load_catalog(migrate_user_files=False).catalog
    comparison = _comparison_from_file(args.comparison) if args.comparison else _comparison_from_flags(args, catalog)
    _check_resolvable(comparison, catalog)
    return _write(comparison, catalog, args, shipped_catalog_date())


# Checked before anything is computed, so that a bad flag is one line and exit 2, never a traceback.
MAX_TITLE_CHARS = 200  # Comparison.title
MAX_OUT_NAME_BYTES = 255 - 24  # a file name part (255 bytes on common file systems) less the temp file's additions


def _check_title(title: str) -> None:
    if len(title) > MAX_TITLE_CHARS:
        raise UsageError(f"--title: at most {MAX_TITLE_CHARS} characters (got {len(title):,})")
    # A byte the locale cannot decode reaches Python as a lone surrogate (PEP 383), which no file or PDF can hold.
    bad = next((c for c in title if "\ud800" <= c <= "\udfff"), None)
    if bad is not None:
        shown = f"byte 0x{ord(bad) - 0xDC00:02x}" if "\udc80" <= bad <= "\udcff" else f"U+{ord(bad):04X}"
        raise UsageError(f"--title: not text in this terminal's encoding ({shown}); type the title again")


def _check_out(out: Path, overwrite: bool) -> None:
    """The PDF's name fits the file system, and an existing target is a plain file (never a link, FIFO or device)."""
    name = os.fsencode(out.name)
    if len(name) > MAX_OUT_NAME_BYTES:
        raise UsageError(f"--out: the file name is {len(name):,} bytes long; at most {MAX_OUT_NAME_BYTES} are allowed")
    try:
        info = out.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(f"--out: {out}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL character: no file system takes it (found by the fuzzed flags test)
        raise UsageError(f"--out: {out!r} is not a usable file name") from None
    if stat.S_ISLNK(info.st_mode):
        raise UsageError(f"--out: {out} is a symbolic link: not replaced (give the path of the file itself)")
    if not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
        raise UsageError(f"--out: {out} is not a regular file: not replaced")


def _check_resolvable(comparison, catalog) -> None:
    """The model and every build resolve (a hidden shipped GPU, a removed build): one line naming which."""
    from advisor.core import resolve_entry, resolve_model

    try:
        resolve_model(catalog, comparison.model)
    except (LookupError, ValueError) as exc:
        raise UsageError(f"model: {str(exc).strip(chr(34))}") from None
    for entry in comparison.builds:
        try:
            resolve_entry(catalog, entry)
        except (LookupError, ValueError) as exc:  # UnknownRecord, IncompleteRecord
            raise UsageError(f"build {entry.name!r}: {str(exc).strip(chr(34))}") from None


def report_results(comparison, catalog, cost=None, today=None):
    """(arch, results) of ``comparison`` as the report prints them: evaluated once, a fit within the
    estimate's measured median error "tight" (as in the window), carrying each build's speed basis (from the
    measured table) and its running cost under
    ``cost`` (``CostSettings``; default: the defaults) on ``today``. Raises LookupError for a model that
    cannot be resolved."""
    import datetime as dt

    from advisor.core import CostSettings, evaluate, resolve_model, with_running_costs, with_speed_bases
    from advisor.storage.error_bands import median_pct, speed_basis_table

    arch = resolve_model(catalog, comparison.model)
    w = comparison.workload
    band = median_pct(w)
    results = evaluate(catalog, arch, w, comparison.builds, margin=band / 100 if band else 0.0)
    results = with_speed_bases(results, w, speed_basis_table())
    return arch, with_running_costs(results, arch, w, cost or CostSettings(), today or dt.date.today())


def _write(comparison, catalog, args: argparse.Namespace, catalog_date: str) -> int:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["llm-advisor"])  # noqa: F841 - pyqtgraph draws the charts
    from advisor.report.export import default_page_size, export_pdf
    from advisor.report.pdf import PdfWriteError
    from advisor.storage.error_bands import error_band_text

    try:
        arch, results = report_results(comparison, catalog, cost_settings(args))
        pages = export_pdf(comparison, arch, results, args.out, catalog_date=catalog_date,
                           error_band=error_band_text(comparison.workload), page_size=args.page_size or default_page_size(),
                           unit=args.unit, overwrite=args.overwrite)
    except LookupError as exc:
        raise UsageError(f"model: {exc}") from None
    except PdfWriteError as exc:
        print(f"llm-advisor report: error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({pages} pages)")
    return 0
