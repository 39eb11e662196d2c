"""``catalog list``, ``catalog show`` and ``catalog validate``: what the catalog holds, one record with what
follows from it (price, power, checks), and whether files are valid."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from advisor.cli import UsageError
from advisor.cli.catalog.records import KINDS, load, pick, print_json


def _summary(kind, record) -> str:
    from advisor.core import RecordKind, vendor_brand

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
    from advisor.core import RecordKind

    kinds = [RecordKind(kind)] if kind else list(RecordKind)
    rows = []
    for k in kinds:
        for rid, record in catalog.of(k).items():
            name = getattr(record, "name", "") or getattr(record, "instance_type", "")
            rows.append({"kind": k.value, "id": rid, "origin": catalog.origin(k, rid).value, "name": name,
                         "summary": _summary(k, record)})
    return rows


def do_list(args: argparse.Namespace) -> int:
    rows = _rows(load(), args.kind)
    if args.json:
        print_json(rows)
        return 0
    for r in rows:
        print(f"{r['kind']:<7} {r['origin']:<9} {r['id']:<32} {r['name']}  [{r['summary']}]")
    return 0


def _resolved(catalog, kind, record):
    from advisor.core import RecordKind, resolve_build, resolve_cloud, resolve_system

    resolver = {RecordKind.BUILD: resolve_build, RecordKind.SYSTEM: resolve_system, RecordKind.CLOUD: resolve_cloud}
    return resolver[kind](catalog, record) if kind in resolver else None


def _money(value: float | None) -> str:
    return "unknown" if value is None else f"${value:,.0f}"


def _derived_lines(resolved, catalog=None) -> list[str]:
    import datetime as dt

    from advisor.core import PriceChoice, build_power, check_build, machine_price, price_tier, price_words

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
    from advisor.core import IncompleteRecord
    from advisor.storage.catalog_store import record_json

    catalog = load()
    kind, record = pick(catalog, args.id, args.kind)
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
        from advisor.core import on_platform

        for line in _derived_lines(on_platform(catalog, resolved), catalog):
            print(line)
    return 0


def _kind_for(path: Path, data: object, kind: str | None):
    from advisor.core import RecordKind, detect_kind

    if kind:
        return RecordKind(kind)
    by_folder = {k.folder: k for k in RecordKind}
    if path.parent.name in by_folder:
        return by_folder[path.parent.name]
    found = detect_kind(data) if isinstance(data, dict) else None
    if found is None:
        raise UsageError(f"{path}: cannot tell which kind of record this is: add --kind {'|'.join(KINDS)}")
    return found


def read_one(path: Path, kind: str | None, *, check_name: bool):
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
    from advisor.core import RecordKind
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
    record, problems = read_one(path, kind, check_name=False)
    return int(record is not None), problems


def do_validate(args: argparse.Namespace) -> int:
    from advisor.storage.catalog_store import load_catalog

    if args.path is None:
        from advisor.core import Severity, data_problems

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
