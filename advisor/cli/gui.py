"""``llm-advisor gui [COMPARISON]``: open the window (Qt imported only here)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("gui", help="open the desktop app (the default)")
    p.add_argument("comparison", nargs="?", help="a comparison file to open")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from advisor.ui.app import run_app

    return run_app(args.comparison)


def gui_main() -> int:
    """Entry point of ``llm-advisor-gui`` (no console window on Windows)."""
    import sys

    from advisor.ui.app import run_app

    return run_app(sys.argv[1] if len(sys.argv) > 1 else None)
