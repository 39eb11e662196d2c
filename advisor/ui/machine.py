"""'This machine': turn a detection into a comparison entry (Qt-free).

Each detected GPU is matched to a catalog GPU by PCI device id, else by name; the build is
stored inline (``BuildEntry.inline``) so the comparison file stands alone. A GPU the
catalog does not know is not guessed at: the entry is refused with the reason.
"""

from __future__ import annotations

from advisor.core.comparison import BuildEntry
from advisor.core.hardware import ResolvedBuild, Topology


def _match(catalog, gpu):
    dev = (gpu.pci_device_id or "").lower()
    for rec in catalog.gpus.values():
        if dev and dev in (d.lower() for d in rec.pci_device_ids):
            return rec
    name = (gpu.name or "").lower().replace("nvidia ", "")
    for rec in catalog.gpus.values():
        if name and name == rec.name.lower().replace("nvidia ", ""):
            return rec
    return None


def this_machine_entry(catalog, detection) -> tuple[BuildEntry | None, str]:
    """(entry, status text) or (None, why not)."""
    if not detection.gpus:
        lines = "; ".join(detection.status_lines[:3])
        return None, f"no GPU found ({lines})" if lines else "no GPU found"
    if catalog is None:
        return None, "the catalog is not loaded, so the GPUs cannot be matched"
    matched, unknown = [], []
    for g in sorted(detection.gpus, key=lambda g: g.index):
        rec = _match(catalog, g)
        (matched if rec is not None else unknown).append(rec or g)
    if unknown:
        names = ", ".join(g.name or g.pci_device_id or "?" for g in unknown)
        return None, f"not in the catalog: {names} (add it with Edit ▸ Catalog…)"
    pairs = tuple((p.a, p.b) for p in detection.pairs if p.nvlink)
    p2p = bool(detection.pairs) and all(p.p2p_ok for p in detection.pairs)  # unknown counts as off
    ram = getattr(detection.host, "ram_total_bytes", None)
    resolved = ResolvedBuild(
        name="This machine",
        gpus=tuple(matched),
        topology=Topology(nvlink_pairs=pairs, p2p=p2p, pcie_gen=matched[0].pcie_gen or 4),
        host_ram_gib=ram / 1024**3 if ram else None,
    )
    return BuildEntry(name="This machine", inline=resolved), f"This machine: {len(matched)} GPU(s) detected"
