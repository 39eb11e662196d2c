"""``catalog add``, ``remove``, ``reset``, ``export``, ``import``, ``prices import`` and ``path``: edits of the
user catalog, each written atomically under the catalog's lock by ``advisor.storage``."""

from __future__ import annotations

import argparse

from advisor.cli import UsageError
from advisor.cli.catalog.inspect import read_one
from advisor.cli.catalog.records import err, load, pick


def do_add(args: argparse.Namespace) -> int:
    from advisor.core import kind_of
    from advisor.storage.catalog_store import load_catalog, save_record

    record, problems = read_one(args.file, args.kind, check_name=False)
    for problem in problems:
        err(str(problem))
    if record is None:
        return 1
    shipped = record.id in load_catalog(migrate_user_files=False).catalog.shipped.of(kind_of(record))
    path = save_record(record, force=args.force)
    print(f"saved {kind_of(record).value} {record.id!r} to {path}" + (" (overrides the shipped record)" if shipped else ""))
    return 0


def _remove_invalid_file(record_id: str, kind: str | None) -> int:
    """``remove --force`` of an id no record has: the user file of that name that fails validation."""
    from advisor.core import RecordKind
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

    catalog = load()
    try:
        kind, record = pick(catalog, args.id, args.kind)
    except (UsageError, LookupError):
        if args.force:  # else an invalid user file could not be removed at all
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
    from advisor.core import RecordKind
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
        count = export_bundle(args.out, load(), overwrite=args.overwrite)
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
        err(str(problem))
    if report.problems:
        err(f"nothing imported: {len(report.problems)} problem(s)")
        return 1
    for line in report.conflicts:
        err(f"conflict: {line}")
    if report.conflicts:  # all or nothing: records and hidden ids alike
        err(f"nothing imported: {len(report.conflicts)} conflict(s)"
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
            err(line)
        err(f"nothing imported: {len(exc.problems)} bad row(s)" if exc.problems else "nothing imported")
        return 1
    names = ", ".join(f"{k.value} {rid}" for k, rid in report.records)
    verb = "would add" if args.dry_run else "added"
    print(f"{verb} {report.added} price(s), {report.unchanged} already there" + (f" ({names})" if names else ""))
    return 0


def do_path(args: argparse.Namespace) -> int:
    from advisor.storage import paths, shipped

    print(shipped.catalog_dir() if args.shipped else paths.user_catalog_dir())
    return 0
