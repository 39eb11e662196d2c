"""PSU checks: its rating against the machine's load, its GPU power cables against the cards' sockets."""

from __future__ import annotations

from advisor.core.hardware.findings import BuildWarning, Severity, WarningKind, finding
from advisor.core.hardware.gpu import Gpu
from advisor.core.hardware.power import build_power
from advisor.core.hardware.resolved import ResolvedBuild

#: A PSU below this multiple of the sustained load relies on ATX 3.x excursion tolerance.
#: Intel (Stephen Eastman, platform power, interview with PCWorld 2022, reported at
#: https://www.tweaktown.com/news/85717/): a 750 W sustained load (300 W GPU + 300 W CPU +
#: 150 W rest) is fine on a 750 W ATX 3.0 PSU, which rides 200 % for 100 µs, but needs about
#: 1,100 W on an ATX 2.x unit because of GPU power excursions: 1100 / 750 ≈ 1.47.
PSU_ATX2_TRANSIENT_FACTOR = 1100 / 750


def check_psu(build: ResolvedBuild) -> list[BuildWarning]:
    """PSU rating vs sustained load, then vs the ATX 2.x transient margin (see the constant)."""
    power = build_power(build)
    if power.psu_w is None:
        return []
    if power.total_w is None:
        return [finding(
            WarningKind.PSU, Severity.INFO,
            "PSU headroom not checked: a GPU TDP or the platform power is unknown"
        )]
    load, psu = power.total_w, power.psu_w
    if load > psu:
        return [finding(
            WarningKind.PSU, Severity.ERROR,
            f"{psu:.0f} W PSU is below the {load:.0f} W sustained load (GPUs {power.gpus_w:.0f} W + "
            f"platform {power.platform_w:.0f} W)"
        )]
    if load * PSU_ATX2_TRANSIENT_FACTOR > psu:
        need = load * PSU_ATX2_TRANSIENT_FACTOR
        return [finding(
            WarningKind.PSU, Severity.WARNING,
            f"{psu:.0f} W PSU for a {load:.0f} W load: fine for an ATX 3.x unit, which absorbs GPU "
            f"power spikes; an older ATX 2.x unit may shut down (Intel's guidance implies "
            f"≈ {need:.0f} W)"
        )]
    return []


#: 8-pin PCIe cables an adapter needs per GPU connector: NVIDIA's 12V-2x6/12VHPWR adapters take
#: 3 cables up to 450 W and 4 for 600 W; the RTX 30 Founders 12-pin adapter takes 2.
_ADAPTER_8PIN = {"16-pin": (3, 4), "12-pin": (2, 2)}


def gpu_power_connectors(gpu: Gpu) -> dict[str, int] | None:
    """{'16-pin': n, '12-pin': n, '8-pin': n} a card needs, from its ``power_connectors`` text
    ('1x 16-pin', '2x 8-pin', '1x 6-pin + 1x 8-pin'); None when unknown or not a PCIe plug (EPS)."""
    text = gpu.power_connectors.strip().lower()
    if not text or "eps" in text:
        return None
    need = {"16-pin": 0, "12-pin": 0, "8-pin": 0}
    for chunk in text.split("+"):
        words = chunk.strip().split()
        if len(words) != 2 or not words[0].endswith("x") or not words[0][:-1].isdigit():
            return None
        count, plug = int(words[0][:-1]), words[1]
        if plug == "6-pin":
            plug = "8-pin"  # a 6+2-pin cable fits a 6-pin socket
        if plug not in need:
            return None
        need[plug] += count
    return need


def check_psu_connectors(build: ResolvedBuild) -> list[BuildWarning]:
    """The PSU part's 12V-2x6 and PCIe 8-pin cables against the cards' sockets; adapters from
    8-pin cables where the native ones run out (a warning), too few cables altogether an error."""
    psu = build.platform.psu if build.platform is not None else None
    if psu is None:
        return []
    if psu.connectors_12v_2x6 is None or psu.connectors_pcie_8pin is None:
        return [finding(WarningKind.PSU, Severity.INFO, f"{psu.name}: its GPU power cables are not stated; not checked")]
    needs = [gpu_power_connectors(g) for g in build.gpus]
    unknown = sorted({g.name for g, n in zip(build.gpus, needs) if n is None})
    out = []
    if unknown:
        out.append(finding(WarningKind.PSU, Severity.INFO,
                      f"power sockets of {', '.join(unknown)} not known: PSU cables not checked for them"))
    eight, adapters = _cables_left(build.gpus, needs, psu.connectors_12v_2x6, psu.connectors_pcie_8pin)
    if eight < 0:
        out.append(finding(
            WarningKind.PSU, Severity.ERROR,
            f"{psu.name} has {psu.connectors_12v_2x6} 12V-2x6 and {psu.connectors_pcie_8pin} PCIe 8-pin cables: "
            f"{-eight} too few for the GPUs' power sockets"
        ))
    elif adapters:
        out.append(finding(
            WarningKind.PSU, Severity.WARNING,
            f"{psu.name} has {psu.connectors_12v_2x6} native 12V-2x6 cable(s): {adapters} GPU socket(s) need "
            "an adapter from 8-pin PCIe cables"
        ))
    return out


def _cables_left(gpus: tuple[Gpu, ...], needs: list[dict[str, int] | None], native: int,
                 eight: int) -> tuple[int, int]:
    """8-pin PCIe cables left once every known socket is served (below 0: too few), and how many
    12V-2x6 or 12-pin sockets took an adapter because the native cables ran out."""
    adapters = 0
    for gpu, need in zip(gpus, needs):
        if need is None:
            continue
        eight -= need["8-pin"]
        for plug in ("16-pin", "12-pin"):
            for _ in range(need[plug]):
                if native > 0:
                    native -= 1
                    continue
                low, high = _ADAPTER_8PIN[plug]
                eight -= high if (gpu.tdp_w or 600) > 450 else low
                adapters += 1
    return eight, adapters
