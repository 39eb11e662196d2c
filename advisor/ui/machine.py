"""'This machine': a detection as a comparison entry, via ``advisor.probe.machine`` (Qt-free).

The build is stored inline (``BuildEntry.inline``) so the comparison file stands alone.
"""

from __future__ import annotations

from advisor.core.advice.comparison import BuildEntry


def this_machine_entry(catalog, detection) -> tuple[BuildEntry | None, str]:
    """(entry, status text) or (None, why not)."""
    from advisor.probe.machine import build_this_machine

    if not detection.gpus:
        lines = "; ".join(detection.status_lines[:3])
        return None, f"no GPU found ({lines})" if lines else "no GPU found"
    gpus = list(catalog.gpus.values()) if catalog is not None else []
    machine = build_this_machine(detection, gpus)
    notes = " ".join(machine.notes)
    if machine.resolved is None:
        return None, notes or "no detected GPU could be estimated"
    text = f"This machine: {machine.resolved.gpu_count} GPU(s) detected" + (f" — {notes}" if notes else "")
    return BuildEntry(name="This machine", inline=machine.resolved), text
