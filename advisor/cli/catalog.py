"""``llm-advisor catalog …``: list, show, validate and edit the catalog from the shell.

``catalog add FILE.json`` tells a record's kind (a) from ``--kind``, else (b) from the
file's folder when it sits in ``gpus/ builds/ systems/ cloud/ models/``, else (c) from
fields only one kind has (GPU: memory_gib + segment; model: n_layers + hidden_size;
cloud: provider + instance_type; system: kind + vendor; build: gpus + name). A ``"kind"``
key cannot mark the record kind: prebuilt systems already use it (workstation, server…).

Exit codes: 0 fine, 1 invalid data (each problem one line: path: id: field: message),
2 usage (unknown id, missing file, bad flag). Never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from advisor.cli import Parser, UsageError, is_output_error

KINDS = ("gpu", "build", "system", "cloud", "model", "part", "platform")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("catalog", help="list, show, validate and edit the catalog")
    sub = p.add_subparsers(dest="action", parser_class=Parser, metavar="ACTION", required=True)
    a = sub.add_parser("list", help="list records (kind, origin, id, name)")
    a.add_argument("--kind", choices=KINDS)
    a.add_argument("--json", action="store_true", help="one JSON array")
    a = sub.add_parser("show", help="one record, with derived price, power and build checks")
    a.add_argument("id")
    a.add_argument("--kind", choices=KINDS, help="when several kinds share the id")
    a.add_argument("--json", action="store_true", help="the record as JSON (fit for 'catalog add')")
    a = sub.add_parser("validate", help="check files; no PATH = shipped + user catalog")
    a.add_argument("path", nargs="?", type=Path, help="a record file, a kind folder, a catalog folder or a bundle")
    a.add_argument("--kind", choices=KINDS, help="kind of a single record file")
    a = sub.add_parser("add", help="validate a record file and save it into the user catalog")
    a.add_argument("file", type=Path)
    a.add_argument("--kind", choices=KINDS, help="skip kind detection")
    a.add_argument("--force", action="store_true", help="replace a user file that currently fails validation")
    a = sub.add_parser("remove", help="remove a user record; hide a shipped one")
    a.add_argument("id")
    a.add_argument("--kind", choices=KINDS)
    a.add_argument("--force", action="store_true",
                   help="also when the user file fails validation (it is removed by its file name, kept as .bak)")
    a = sub.add_parser("reset", help="bring a shipped record back as shipped (drop override, unhide)")
    a.add_argument("id")
    a.add_argument("--kind", choices=KINDS)
    a.add_argument("--force", action="store_true", help="also when the user file fails validation")
    a = sub.add_parser("export", help="write the user's records and hidden ids to one JSON bundle")
    a.add_argument("out", type=Path)
    a.add_argument("--overwrite", action="store_true", help="replace OUT if it exists (the old file is kept as .bak)")
    a = sub.add_parser("import", help="validate a bundle, then save its records into the user catalog")
    a.add_argument("bundle", type=Path)
    a.add_argument("--replace", action="store_true", help="overwrite user records that differ")
    a = sub.add_parser("prices", help="add dated prices from a CSV file (id,kind,usd,date,source_url)")
    psub = a.add_subparsers(dest="prices_action", parser_class=Parser, metavar="ACTION", required=True)
    b = psub.add_parser("import", help="add every row's price to the user catalog, or none if a row is bad")
    b.add_argument("file", type=Path, help="CSV: id,kind (new|used|hourly),usd,date (YYYY-MM-DD),source_url"
                                           "[,region][,note]")
    b.add_argument("--dry-run", action="store_true", help="check every row, write nothing")
    a = sub.add_parser("path", help="print the user catalog folder")
    a.add_argument("--shipped", action="store_true", help="print the shipped catalog folder instead")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from advisor.core.hardware.catalog import IncompleteRecord, UnknownRecord

    try:
        return _ACTIONS[args.action](args)
    except (UnknownRecord, IncompleteRecord) as exc:
        raise UsageError(str(exc)) from exc
    except (UsageError, BrokenPipeError):
        raise
    except OSError as exc:
        if is_output_error(exc):  # writing the output failed: said once by main
            raise
        why = f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc)  # no "[Errno 20]"
        print(f"llm-advisor catalog {args.action}: error: {why}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - a CLI prints one line, never a traceback
        print(f"llm-advisor catalog {args.action}: error: {exc}", file=sys.stderr)
        return 1


def _print_json(data: object) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _err(line: str) -> None:
    print(line, file=sys.stderr)


def _load():
    """The catalog; a warning line on stderr when some files did not load."""
    from advisor.storage.catalog_store import load_catalog

    result = load_catalog()
    if result.problems:
        _err(f"warning: {len(result.problems)} catalog problem(s); see 'llm-advisor catalog validate'")
    return result.catalog


def _pick(catalog, record_id: str, kind: str | None):
    """(kind, record) for an id; the kind must be given when several kinds share it."""
    from advisor.core.hardware.catalog import RecordKind

    if kind:
        return RecordKind(kind), catalog.get(RecordKind(kind), record_id)
    found = catalog.find(record_id)
    if not found:
        hidden = [k.value for k in RecordKind if record_id in catalog.hidden_ids(k)]
        why = f" (a hidden shipped {hidden[0]})" if hidden else ""
        raise UsageError(f"no record with id {record_id!r} in the catalog{why}")
    if len(found) > 1:
        kinds = ", ".join(k.value for k, _ in found)
        raise UsageError(f"{record_id!r} is the id of several kinds ({kinds}): add --kind")
    return found[0]


# --- list / show -------------------------------------------------------------------------


def _summary(kind, record) -> str:
    from advisor.core.hardware.catalog import RecordKind, vendor_brand

    if kind is RecordKind.GPU:
        bw = f", {record.mem_bandwidth_gb_per_s:g} GB/s" if record.mem_bandwidth_gb_per_s else ""
        return f"{record.memory_gb_marketing:g} GB{bw}"
    if kind is RecordKind.BUILD:
        return " + ".join(f"{g.count}x {g.gpu_id}" for g in record.gpus)
    if kind is RecordKind.CLOUD:
        return f"{record.provider}: {record.gpu_count}x {record.gpu_id}"
    if kind is RecordKind.SYSTEM:  # the brand, never the catalog's note about the vendor
        maker = vendor_brand(record.vendor) or ("build it yourself" if "build-your-own" in record.vendor
                                                else "vendor unknown")
        return f"{maker}, {record.kind.value.replace('-', ' ')}" + ("" if record.build else
                                                                     ", not evaluable: no verified GPUs")
    if kind is RecordKind.PART:
        return ", ".join(x for x in (record.part.value.replace("_", " "), vendor_brand(record.vendor)) if x)
    if kind is RecordKind.PLATFORM:
        return (f"{record.kind.words}, up to {record.max_cards} card{'s' if record.max_cards > 1 else ''}, "
                f"{record.host_ram_gib:g} GiB RAM")
    return record.family


def _rows(catalog, kind: str | None) -> list[dict]:
    from advisor.core.hardware.catalog import RecordKind

    kinds = [RecordKind(kind)] if kind else list(RecordKind)
    rows = []
    for k in kinds:
        for rid, record in catalog.of(k).items():
            name = getattr(record, "name", "") or getattr(record, "instance_type", "")
            rows.append({"kind": k.value, "id": rid, "origin": catalog.origin(k, rid).value, "name": name,
                         "summary": _summary(k, record)})
    return rows


def do_list(args: argparse.Namespace) -> int:
    rows = _rows(_load(), args.kind)
    if args.json:
        _print_json(rows)
        return 0
    for r in rows:
        print(f"{r['kind']:<7} {r['origin']:<9} {r['id']:<32} {r['name']}  [{r['summary']}]")
    return 0


def _resolved(catalog, kind, record):
    from advisor.core.hardware.catalog import RecordKind, resolve_build, resolve_cloud, resolve_system

    resolver = {RecordKind.BUILD: resolve_build, RecordKind.SYSTEM: resolve_system, RecordKind.CLOUD: resolve_cloud}
    return resolver[kind](catalog, record) if kind in resolver else None


def _money(value: float | None) -> str:
    return "unknown" if value is None else f"${value:,.0f}"


def _derived_lines(resolved, catalog=None) -> list[str]:
    import datetime as dt

    from advisor.core.cost.machine import PriceChoice, machine_price, price_words
    from advisor.core.hardware.checks import check_build
    from advisor.core.hardware.machines import price_tier
    from advisor.core.hardware.power import build_power

    lines = []
    tier = price_tier(catalog, resolved) if catalog is not None else resolved.tier
    for choice in (PriceChoice.NEW, PriceChoice.USED):
        price = machine_price(resolved, choice, dt.date.today(), tier)
        gaps = f" (unknown: {'; '.join(price.missing)})" if price.missing else ""
        what = f": {price.includes}" if price.usd is not None and price.includes else ""
        lines.append(f"price {choice.value}: {price_words(price)}{what}{gaps}")
    power = build_power(resolved)
    def watts(value: float | None) -> str:
        return "unknown" if value is None else f"{value:.0f} W"

    lines.append(f"power: {watts(power.total_w)} sustained (GPUs {watts(power.gpus_w)}, platform "
                 f"{watts(power.platform_w)})" + (f", PSU {power.psu_w:.0f} W" if power.psu_w else ""))
    lines += [f"{w.severity.value}: {w.message}" for w in check_build(resolved)]
    return lines


def do_show(args: argparse.Namespace) -> int:
    from advisor.core.hardware.catalog import IncompleteRecord
    from advisor.storage.catalog_store import record_json

    catalog = _load()
    kind, record = _pick(catalog, args.id, args.kind)
    if args.json:
        sys.stdout.write(record_json(record))
        return 0
    print(f"{kind.value} {record.id} ({catalog.origin(kind, record.id).value})")
    sys.stdout.write(record_json(record))
    try:
        resolved = _resolved(catalog, kind, record)
    except IncompleteRecord as exc:
        print(f"derived: not available: {exc}")
        return 0
    if resolved is not None:
        from advisor.core.hardware.machines import on_platform

        for line in _derived_lines(on_platform(catalog, resolved), catalog):
            print(line)
    return 0


# --- validate / add ----------------------------------------------------------------------


def _kind_for(path: Path, data: object, kind: str | None):
    from advisor.core.hardware.catalog import RecordKind, detect_kind

    if kind:
        return RecordKind(kind)
    by_folder = {k.folder: k for k in RecordKind}
    if path.parent.name in by_folder:
        return by_folder[path.parent.name]
    found = detect_kind(data) if isinstance(data, dict) else None
    if found is None:
        raise UsageError(f"{path}: cannot tell which kind of record this is: add --kind {'|'.join(KINDS)}")
    return found


def _read_one(path: Path, kind: str | None, *, check_name: bool):
    """(record or None, problems) for one record file."""
    from advisor.storage import catalog_store as store

    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    data, problem = store.read_json(path)
    if problem:
        return None, [problem]
    read = store.parse_record(data, _kind_for(path, data, kind), path, path.stem if check_name else None)
    return read.record, read.problems


def _validate_path(path: Path, kind: str | None) -> tuple[int, list]:
    from advisor.core.hardware.catalog import RecordKind
    from advisor.storage import bundle
    from advisor.storage import catalog_store as store

    if path.is_dir():
        by_folder = {k.folder: k for k in RecordKind}
        if path.name in by_folder:
            reads = [store.read_record_file(p, by_folder[path.name]) for p in sorted(path.glob("*.json"))]
            return sum(r.record is not None for r in reads), [p for r in reads for p in r.problems]
        result = store.load_catalog(path, path / ".no-user-layer", migrate_user_files=False)
        return len(result.catalog), result.problems
    data, problem = store.read_json(path) if path.is_file() else (None, None)
    if isinstance(data, dict) and data.get("format") == bundle.BUNDLE_FORMAT:
        read = bundle.read_bundle(path)
        return len(read.records), read.problems
    record, problems = _read_one(path, kind, check_name=False)
    return int(record is not None), problems


def do_validate(args: argparse.Namespace) -> int:
    from advisor.storage.catalog_store import load_catalog

    if args.path is None:
        from advisor.core.hardware.data_checks import Severity, data_problems

        result = load_catalog(migrate_user_files=False)
        found = data_problems(result.catalog)  # data errors that change answers, and what is not offered
        count, problems = len(result.catalog), [*result.problems, *(p for p in found if p.severity is Severity.ERROR)]
        for note in (p for p in found if p.severity is not Severity.ERROR):
            print(note)
    else:
        if not args.path.exists():
            raise UsageError(f"{args.path}: no such file or folder")
        count, problems = _validate_path(args.path, args.kind)
    for problem in problems:
        print(problem)
    print(f"{count} record(s) valid, {len(problems)} problem(s)", file=sys.stderr if problems else sys.stdout)
    return 1 if problems else 0


def do_add(args: argparse.Namespace) -> int:
    from advisor.core.hardware.catalog import kind_of
    from advisor.storage.catalog_store import load_catalog, save_record

    record, problems = _read_one(args.file, args.kind, check_name=False)
    for problem in problems:
        _err(str(problem))
    if record is None:
        return 1
    shipped = record.id in load_catalog(migrate_user_files=False).catalog.shipped.of(kind_of(record))
    path = save_record(record, force=args.force)
    print(f"saved {kind_of(record).value} {record.id!r} to {path}" + (" (overrides the shipped record)" if shipped else ""))
    return 0


# --- remove / export / import / path -----------------------------------------------------


def _remove_invalid_file(record_id: str, kind: str | None) -> int:
    """``remove --force`` of an id no record has: the user file of that name that fails validation."""
    from advisor.core.hardware.catalog import RecordKind
    from advisor.storage.catalog_store import remove_record, user_record_path

    kinds = [RecordKind(kind)] if kind else list(RecordKind)
    found = [k for k in kinds if (p := user_record_path(k, record_id)).exists() or p.is_symlink()]
    if not found:
        raise UsageError(f"no record and no user file with id {record_id!r}")
    if len(found) > 1:
        raise UsageError(f"{record_id!r} names files of several kinds ({', '.join(k.value for k in found)}): add --kind")
    path = user_record_path(found[0], record_id)
    backup = remove_record(found[0], record_id, force=True)
    print(f"removed the user file {path}, which fails validation (kept as {backup})")
    return 0


def do_remove(args: argparse.Namespace) -> int:
    from advisor.storage.catalog_store import hide_record, remove_record

    catalog = _load()
    try:
        kind, record = _pick(catalog, args.id, args.kind)
    except (UsageError, LookupError):
        if args.force:  # issue 19: an invalid user file could not be removed at all
            return _remove_invalid_file(args.id, args.kind)
        raise
    if record.id in catalog.user.of(kind):
        backup = remove_record(kind, record.id, force=args.force)
        print(f"removed user {kind.value} {record.id!r} (previous file kept as {backup})")
    if record.id in catalog.shipped.of(kind):
        hide_record(kind, record.id, force=args.force)
        print(f"hid shipped {kind.value} {record.id!r} ('llm-advisor catalog reset {record.id}' brings it back)")
    return 0


def do_reset(args: argparse.Namespace) -> int:
    from advisor.core.hardware.catalog import RecordKind
    from advisor.storage.catalog_store import load_catalog, reset_record

    catalog = load_catalog(migrate_user_files=False).catalog
    kinds = [RecordKind(args.kind)] if args.kind else [k for k in RecordKind if args.id in catalog.shipped.of(k)]
    if len(kinds) != 1:
        why = "several kinds share it: add --kind" if kinds else "no shipped record has it"
        raise UsageError(f"cannot reset {args.id!r}: {why}")
    done = reset_record(kinds[0], args.id, force=args.force)
    print(f"{kinds[0].value} {args.id!r}: " + ("; ".join(done) if done else "already as shipped"))
    return 0


def do_export(args: argparse.Namespace) -> int:
    from advisor.storage.bundle import ExportRefused, export_bundle

    try:
        count = export_bundle(args.out, _load(), overwrite=args.overwrite)
    except ExportRefused as exc:
        raise UsageError(str(exc)) from None
    print(f"exported {count} user record(s) to {args.out}")
    return 0


def do_import(args: argparse.Namespace) -> int:
    from advisor.storage.bundle import import_bundle

    if not args.bundle.is_file():
        raise UsageError(f"{args.bundle}: no such file")
    report = import_bundle(args.bundle, replace=args.replace)
    for problem in report.problems:
        _err(str(problem))
    if report.problems:
        _err(f"nothing imported: {len(report.problems)} problem(s)")
        return 1
    for line in report.conflicts:
        _err(f"conflict: {line}")
    if report.conflicts:  # all or nothing: records and hidden ids alike
        _err(f"nothing imported: {len(report.conflicts)} conflict(s)"
             + ("; give --replace to overwrite the user's differing records" if not args.replace else ""))
        return 1
    print(f"imported {len(report.saved)} record(s), {len(report.unchanged)} unchanged, "
          f"{report.hidden_added} hidden id(s)")
    return 0


def do_prices(args: argparse.Namespace) -> int:
    """``catalog prices import FILE.csv``: all rows or none; each bad row one line with its line number."""
    from advisor.storage.catalog_store.prices_csv import PriceImportError, import_prices

    try:
        report = import_prices(args.file, dry_run=args.dry_run)
    except PriceImportError as exc:
        for line in exc.problems:
            _err(line)
        _err(f"nothing imported: {len(exc.problems)} bad row(s)" if exc.problems else "nothing imported")
        return 1
    names = ", ".join(f"{k.value} {rid}" for k, rid in report.records)
    verb = "would add" if args.dry_run else "added"
    print(f"{verb} {report.added} price(s), {report.unchanged} already there" + (f" ({names})" if names else ""))
    return 0


def do_path(args: argparse.Namespace) -> int:
    from advisor.storage import paths, shipped

    print(shipped.catalog_dir() if args.shipped else paths.user_catalog_dir())
    return 0


_ACTIONS: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": do_list, "show": do_show, "validate": do_validate, "add": do_add, "remove": do_remove, "reset": do_reset,
    "export": do_export, "import": do_import, "path": do_path, "prices": do_prices,
}
