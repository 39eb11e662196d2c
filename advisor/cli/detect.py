"""``llm-advisor detect [--json] [--timeout S]``: this machine's GPUs, links and warnings.

Exit 0 whenever detection ran, GPUs or not (a machine without GPUs is a valid answer);
every backend that could not read says why in a status line.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from advisor.cli import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("detect", help="detect this machine's GPUs and offer it as a build")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the report")
    p.add_argument("--timeout", type=float, default=5.0, metavar="S",
                   help="seconds to wait for the NVIDIA driver (default 5)")
    p.set_defaults(handler=run)


def _catalog_records() -> tuple[list, list, str | None]:
    """The catalog's GPUs and platform parts (what the GPUs and the CPU are matched to), and why not."""
    try:
        from advisor.storage.catalog_store import load_catalog

        catalog = load_catalog().catalog
        return list(catalog.gpus.values()), list(catalog.parts.values()), None
    except Exception as exc:  # noqa: BLE001 - no catalog must not stop detection
        return [], [], f"Catalog not available ({exc}); GPUs are shown without a catalog match."


def collect(timeout_s: float) -> dict[str, Any]:
    """Detection, catalog matches, the build and the findings, as plain objects."""
    from advisor.probe import detect
    from advisor.probe.checks import buyer_findings
    from advisor.probe.machine import build_this_machine

    detection = detect(timeout_s)
    gpus, parts, catalog_problem = _catalog_records()
    machine = build_this_machine(detection, gpus, parts)
    lanes = {e.detected.index: e.gpu.pcie_lanes for e in machine.gpus if e.gpu and e.match.gpu_id}
    return {"detection": detection, "machine": machine, "findings": buyer_findings(detection, lanes),
            "catalog_problem": catalog_problem}


def as_json(found: dict[str, Any]) -> dict[str, Any]:
    machine = found["machine"]
    return {
        "detection": found["detection"].model_dump(mode="json"),
        "matches": [
            {"gpu_index": e.detected.index, **e.match.model_dump(mode="json", exclude={"detected_index"}),
             "add_to_catalog": e.add_to_catalog,
             "adhoc_gpu": e.gpu.model_dump(mode="json") if e.add_to_catalog and e.gpu else None}
            for e in machine.gpus
        ],
        "findings": [f.model_dump(mode="json") for f in found["findings"]],
        "cpu_part_id": machine.cpu.id if machine.cpu else None,
        "build": machine.build.model_dump(mode="json") if machine.build else None,
        "build_notes": list(machine.notes),
        "catalog_problem": found["catalog_problem"],
    }


def run(args: argparse.Namespace) -> int:
    if not args.timeout > 0 or args.timeout > 600:
        raise UsageError("--timeout: give seconds between 0 and 600")
    found = collect(args.timeout)
    if args.json:
        json.dump(as_json(found), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        from advisor.probe.text import report

        sys.stdout.write(report(found))
    return 0
