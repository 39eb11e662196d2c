"""``llm-advisor``: argument parsing and subcommands; Qt is imported only by ``gui``.

Each module of this package that defines ``register(subparsers)`` adds one subcommand and
sets ``handler`` (a function taking the parsed namespace and returning an exit code).
Usage errors exit 2 with one line that names the flag, never a traceback. Output that cannot be
written (a full disk, ``/dev/full``, a closed terminal) is one line on stderr and exit 1; text the
terminal's encoding cannot show (an ASCII-only locale, a lone surrogate in a record's name) is
written with ``?`` in its place rather than ending the command.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import os
import pkgutil
import sys
from collections.abc import Sequence

from advisor import APP_NAME, __version__

PROG = "llm-advisor"


class UsageError(Exception):
    """Bad input from the command line: printed as one line, exit 2."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]):  # type: ignore[override]
        # `--hidden=--`: argparse drops the '--' and hands the flag an empty list, which no
        # handler expects (a traceback). Keep it as the value: type checks then say why.
        if arg_strings == ["--"] and action.nargs in (None, argparse.OPTIONAL):
            value = self._get_value(action, "--")
            self._check_value(action, value)
            return value
        return super()._get_values(action, arg_strings)


def _version_text() -> str:
    try:
        from advisor.storage.catalog_store import shipped_catalog_date

        return f"{PROG} {__version__} (catalog {shipped_catalog_date()})"
    except ImportError:
        return f"{PROG} {__version__}"


class _VersionAction(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help="print version and catalog date")

    def __call__(self, parser, namespace, values, option_string=None):
        print(_version_text())
        parser.exit(0)


def build_parser() -> Parser:
    parser = Parser(prog=PROG, description=f"{APP_NAME}: what hardware runs or fine-tunes which LLM.")
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


#: What a failed write to stdout raises: no space (a full disk, /dev/full), I/O error, a file too
#: large, a quota, a closed descriptor. These carry no file name (the stream has none).
_WRITE_ERRNOS = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EBADF, getattr(errno, "EDQUOT", errno.ENOSPC)}


def _tolerant_output() -> None:
    """Unencodable characters become '?' on stdout instead of a UnicodeEncodeError mid-output."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, io.UnsupportedOperation):  # detached or closed: nothing to write to
                pass


def is_output_error(exc: OSError) -> bool:
    """A failed write to stdout (not a file's error: those name their file)."""
    return exc.filename is None and exc.errno in _WRITE_ERRNOS


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    _tolerant_output()
    parser = build_parser()
    if not args_list or (args_list[0] not in parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
                         and not args_list[0].startswith("-")):
        # No subcommand (or a comparison file): open the window.
        args_list = ["gui", *args_list]
    args = parser.parse_args(args_list)
    try:
        code = int(args.handler(args) or 0)
        if sys.stdout is not None:
            sys.stdout.flush()  # a write error shows here, not in the interpreter's last flush (exit 120)
        return code
    except UsageError as exc:
        print(f"{PROG} {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `llm-advisor catalog list | head`: the reader left; exit quietly
        _silence_stdout()
        return 0
    except OSError as exc:
        if not is_output_error(exc):
            raise
        _silence_stdout()
        print(f"{PROG} {args.command}: error: could not write the output ({exc.strerror or exc})", file=sys.stderr)
        return 1


def _silence_stdout() -> None:
    """Point stdout at devnull so the interpreter's final flush does not fail again (Python docs, SIGPIPE note)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real stdout (tests capture it)
        pass
