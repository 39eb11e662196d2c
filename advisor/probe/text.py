"""The readable ``llm-advisor detect`` report: host, each GPU's facts, links, warnings, match."""

from __future__ import annotations

from typing import Any

from advisor.core import GIB, MIB, PlatformPart
from advisor.probe.checks import Finding
from advisor.probe.machine import MachineGpu, ThisMachine
from advisor.probe.models import DetectedGpu, DetectedHost, Detection

UNKNOWN = "unknown"


def _gib(n: int | None) -> str:
    return UNKNOWN if n is None else f"{n / GIB:.2f} GiB"


def _yes(flag: bool | None, yes: str = "yes", no: str = "no") -> str:
    return UNKNOWN if flag is None else (yes if flag else no)


def host_lines(h: DetectedHost, cpu: PlatformPart | None = None) -> list[str]:
    """``cpu``: the catalog part the CPU was matched to (its single-thread score paces an engine's host work)."""
    cores = f"{h.cpu_cores or '?'} cores / {h.cpu_threads or '?'} threads"
    ram = _gib(h.ram_total_bytes)
    if h.ram_available_bytes is not None:
        ram += f" ({_gib(h.ram_available_bytes)} available)"
    out = ["Host", f"  CPU:     {h.cpu_model or UNKNOWN}, {cores}"]
    if h.cpu_model:
        out.append(f"           {_cpu_match(cpu)}")
    return out + [f"  RAM:     {ram}", f"  OS:      {h.os or UNKNOWN}"]


def _cpu_match(cpu: PlatformPart | None) -> str:
    if cpu is None:
        return ("not among the catalog's CPU parts: speed estimates time the engines' per-token CPU work as on a "
                "server CPU (add the CPU as a part, with its PassMark single-thread score, to count its own speed)")
    if cpu.single_thread_mark is None:
        return f"catalog part {cpu.id} ({cpu.vendor} {cpu.name}), which has no single-thread score yet"
    return f"catalog part {cpu.id} ({cpu.vendor} {cpu.name}), PassMark single-thread {cpu.single_thread_mark:,}"


def _pcie(g: DetectedGpu) -> str:
    def pair(now: int | None, top: int | None, prefix: str) -> str:
        if now is None and top is None:
            return f"{prefix}{UNKNOWN}"
        return f"{prefix}{now or '?'} now (max {prefix}{top or '?'})"

    text = f"Gen {pair(g.pcie_gen_current, g.pcie_gen_max, '')}, width {pair(g.pcie_width_current, g.pcie_width_max, 'x')}"
    if g.pcie_width_card:
        text += f", card x{g.pcie_width_card}"
    return text


def _power(g: DetectedGpu) -> str:
    if g.power_limit_w is None:
        return UNKNOWN
    extra = [f"default {g.power_default_limit_w:.0f} W" if g.power_default_limit_w else None,
             f"max {g.power_max_limit_w:.0f} W" if g.power_max_limit_w else None]
    text = f"limit {g.power_limit_w:.0f} W"
    if any(extra):
        text += " (" + ", ".join(e for e in extra if e) + ")"
    return text + (" - user-set cap" if g.power_capped else "")


def _match(entry: MachineGpu) -> str:
    m = entry.match
    if m.gpu_id:
        by = {"pci_device_id": "PCI device id", "name": "name"}.get(m.method or "", m.method or "")
        text = f"{m.gpu_id} ({entry.gpu.name if entry.gpu else ''}), matched by {by}"
        return text + (f"; note: {m.note}" if m.note else "")
    if entry.gpu is not None:
        return f"{m.note}; estimated as '{entry.gpu.id}' from what was read (add to catalog?)"
    return f"{m.note}; memory unknown, cannot be estimated"


def gpu_lines(g: DetectedGpu, entry: MachineGpu | None) -> list[str]:
    lines = [f"GPU {g.index}: {g.name or 'unnamed ' + g.vendor + ' GPU'}  [{g.source}]"]
    if entry is not None:
        lines.append(f"  Catalog: {_match(entry)}")
    if g.unified_memory:
        lines.append(f"  Memory:  {_gib(g.memory_total_bytes)} unified; GPU work may use about "
                     f"{_gib(g.gpu_usable_memory_bytes)} by default")
    else:
        lines.append(f"  Memory:  {_gib(g.memory_total_bytes)} total, {_gib(g.memory_used_bytes)} used, "
                     f"{_gib(g.memory_free_bytes)} free")
    if g.pci_bus_id or g.pci_device_id:
        lines.append(f"  PCI:     {g.pci_bus_id or UNKNOWN}, device {g.pci_device_id or UNKNOWN}; {_pcie(g)}")
    if g.uuid:
        lines.append(f"  UUID:    {g.uuid}")
    if g.driver_version or g.compute_capability:
        lines.append(f"  Driver:  {g.driver_version or UNKNOWN}, CUDA {g.cuda_driver_version or UNKNOWN}, "
                     f"compute capability {g.compute_capability or UNKNOWN}")
    if g.vendor == "NVIDIA":
        held = "" if g.display_memory_bytes is None else f", {g.display_memory_bytes / MIB:.0f} MiB held by graphics"
        lines += [f"  Power:   {_power(g)}",
                  f"  Display: active {_yes(g.display_active)}, monitor attached {_yes(g.display_connected)}{held}",
                  f"  MIG:     {_yes(g.mig_enabled, 'on', 'off')}",
                  f"  NVLink:  {_nvlink(g)}"]
    if g.gpu_cores:
        lines.append(f"  Cores:   {g.gpu_cores} GPU cores")
    if g.unread:
        lines.append("  Unread:  " + "; ".join(f"{u.field} ({u.reason})" for u in g.unread))
    return lines


def _nvlink(g: DetectedGpu) -> str:
    if not g.nvlinks:
        return {None: UNKNOWN, False: "none"}.get(g.nvlink_supported, "none")
    remotes = sorted({lk.remote_pci_bus_id for lk in g.nvlinks if lk.active and lk.remote_pci_bus_id})
    text = f"{g.active_nvlinks} of {len(g.nvlinks)} links active"
    return text + (f" -> {', '.join(remotes)}" if remotes else "")


def build_lines(machine: ThisMachine) -> list[str]:
    if machine.build is None:
        return ["This machine as a build: none (no GPU that can be estimated)."]
    b, t = machine.build, machine.build.topology
    gpus = " + ".join(f"{g.count}x {g.gpu_id}" for g in b.gpus)
    lanes = "/".join(f"x{w}" for w in t.pcie_lanes_per_gpu) or "card widths"
    pairs = ", ".join(f"{a}-{c}" for a, c in t.nvlink_pairs) or ("NVSwitch" if t.nvswitch else "none")
    ram = f"{b.host_ram_gib:g} GiB" if b.host_ram_gib else UNKNOWN
    lines = [f"This machine as a build: {gpus}",
             f"  PCIe Gen {t.pcie_gen}, lanes {lanes}, P2P {'on' if t.p2p else 'off'}, NVLink pairs: {pairs}, host RAM {ram}"]
    lines += [f"  note: {n}" for n in machine.notes]
    return lines


def report(found: dict[str, Any]) -> str:
    detection: Detection = found["detection"]
    machine: ThisMachine = found["machine"]
    findings: tuple[Finding, ...] = found["findings"]
    by_index = {e.detected.index: e for e in machine.gpus}
    out = host_lines(detection.host, machine.cpu) + [""]
    if not detection.gpus:
        out += ["GPUs: none read", ""]
    for g in detection.gpus:
        out += gpu_lines(g, by_index.get(g.index)) + [""]
    if detection.pairs:
        out.append("GPU pairs")
        for p in detection.pairs:
            out.append(f"  GPU {p.a} <-> GPU {p.b}: P2P {p.p2p_read or UNKNOWN}, path {p.topology or UNKNOWN}, "
                       f"NVLink {'yes' if p.nvlink else 'no'}")
        out.append("")
    warnings = [f for f in findings if f.level == "warning"]
    notes = [f for f in findings if f.level == "note"]
    if warnings:
        out += ["Warnings"] + [f"  ! {f.text}" for f in warnings] + [""]
    if notes:
        out += ["Notes"] + [f"  - {f.text}" for f in notes] + [""]
    if detection.gpus:
        out += build_lines(machine) + [""]
    out.append("Status")
    out += [f"  {line}" for line in detection.status_lines]
    if found.get("catalog_problem"):
        out.append(f"  {found['catalog_problem']}")
    if detection.elapsed_s is not None:
        out.append(f"  Detection took {detection.elapsed_s:.2f} s.")
    return "\n".join(out) + "\n"
