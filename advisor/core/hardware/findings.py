"""What the physical checks report: a one-sentence finding with its kind and how bad it is."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from advisor.core.schema import Frozen


class Severity(StrEnum):
    INFO = "info"  # could not check, or worth knowing
    WARNING = "warning"  # works, but slower, louder or riskier than it looks
    ERROR = "error"  # will not work as described


class WarningKind(StrEnum):
    PSU = "psu"
    SLOT_SPACING = "slot_spacing"
    NVLINK_BRIDGE = "nvlink_bridge"
    PCIE_LANES = "pcie_lanes"
    MIXED_GPUS = "mixed_gpus"
    P2P = "p2p"
    NETWORK = "network"  # the adapters joining several machines


class BuildWarning(Frozen):
    kind: WarningKind
    severity: Severity
    message: str = Field(min_length=1, description="One sentence for the UI and the PDF")


def finding(kind: WarningKind, severity: Severity, message: str) -> BuildWarning:
    return BuildWarning(kind=kind, severity=severity, message=message)
