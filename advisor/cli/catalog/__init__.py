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
import sys
from collections.abc import Callable
from pathlib import Path

from advisor.cli import Parser, UsageError, is_output_error
from advisor.cli.catalog.edit import do_add, do_export, do_import, do_path, do_prices, do_remove, do_reset
from advisor.cli.catalog.inspect import do_list, do_show, do_validate
from advisor.cli.catalog.records import KINDS


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
    from advisor.core import IncompleteRecord, UnknownRecord

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


_ACTIONS: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": do_list, "show": do_show, "validate": do_validate, "add": do_add, "remove": do_remove, "reset": do_reset,
    "export": do_export, "import": do_import, "path": do_path, "prices": do_prices,
}
