"""Platform parts: CPUs, motherboards and their slots, PSUs, RAM kits, NVLink bridges and network
adapters, and the parts a build names by id."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field, HttpUrl, model_validator

from advisor.core.hardware.quantities import Gib, PricePoint, Watts, physical_range
from advisor.core.hardware.topology import LaneSource
from advisor.core.schema import Frozen, PositiveFloat, Record, RecordId


class PartKind(StrEnum):
    """Kinds of platform part (the ``part`` field of a part record)."""

    CPU = "cpu"
    MOTHERBOARD = "motherboard"
    PSU = "psu"
    RAM = "ram"
    NVLINK_BRIDGE = "nvlink_bridge"
    NIC = "nic"  # a network adapter joining machines: InfiniBand, EFA, RoCE, Ethernet


class NicFabric(StrEnum):
    """The network a NIC speaks between machines (``advisor.core.hardware.interconnect`` words and figures)."""

    INFINIBAND = "infiniband"
    EFA = "efa"  # AWS Elastic Fabric Adapter (SRD transport)
    ROCE = "roce"  # RDMA over Converged Ethernet
    ETHERNET = "ethernet"  # plain TCP/IP Ethernet, no RDMA

    @property
    def words(self) -> str:
        """The fabric as a buyer reads it (window, PDF, CLI)."""
        return {"infiniband": "InfiniBand", "efa": "AWS EFA", "roce": "RoCE", "ethernet": "Ethernet"}[self.value]


class BoardSlot(Frozen):
    """One PCIe x16-size slot of a motherboard: where it sits and the lanes it gets."""

    position: int = Field(ge=1, le=16, description="Expansion slot position from the top (slot 1 = nearest the CPU); "
                                                   "the spacing of two slots is the difference of positions")
    lanes: int = Field(ge=1, le=32, description="Electrical lanes the slot gets when it is alone in its group")
    pcie_gen: int = Field(ge=1, le=7)
    source: LaneSource = LaneSource.CPU
    shared_with: int | None = Field(None, ge=1, le=16, description="Position of the slot it splits its lanes with")
    lanes_when_shared: int | None = Field(None, ge=1, le=32, description="Lanes when that slot is used too")


_PART_NEEDS = {
    PartKind.CPU: ("pcie_lanes",), PartKind.MOTHERBOARD: ("slots",), PartKind.PSU: ("psu_w",),
    PartKind.RAM: ("capacity_gib",), PartKind.NVLINK_BRIDGE: ("bridge_slot_spacing",),
    PartKind.NIC: ("nic_fabric", "nic_gbit_per_s"),
}


class PlatformPart(Record):
    """A CPU, motherboard, PSU, RAM kit, NVLink bridge or network adapter with dated prices:
    what a build names to make its price, power and checks whole-machine.

    Only the fields of its ``part`` kind are filled; ``power_w`` is the part's rated draw
    where the vendor states one (a CPU's TDP/PPT), None where it states none.
    """

    part: PartKind
    vendor: str = Field(min_length=1)
    name: str = Field(min_length=1)
    power_w: Watts | None = Field(None, description="Rated draw, W (CPU: TDP; None where no figure is stated)")
    prices: tuple[PricePoint, ...] = ()
    url: HttpUrl | None = Field(None, description="The manufacturer's spec page")
    socket: str = Field("", description="CPU socket (CPU and motherboard)")
    pcie_lanes: int | None = Field(None, ge=1, le=256, description="CPU: PCIe lanes usable by slots and devices")
    single_thread_mark: int | None = Field(
        None, ge=100, le=20_000, description="CPU: PassMark single-thread rating (cpubenchmark.net), what one core "
                                             "does: it paces an inference engine's host work per token")
    pcie_gen: int | None = Field(None, ge=1, le=7)
    slots: tuple[BoardSlot, ...] = Field((), description="Motherboard: its x16-size slots, top to bottom")
    psu_w: Watts | None = Field(None, description="PSU: continuous rating, W")
    connectors_12v_2x6: int | None = Field(None, ge=0, le=8, description="PSU: native 12V-2x6/12VHPWR cables")
    connectors_pcie_8pin: int | None = Field(None, ge=0, le=24, description="PSU: 6+2-pin PCIe cables")
    atx_version: str = Field("", description="PSU: ATX standard it meets, e.g. '3.1'")
    capacity_gib: Gib | None = Field(None, description="RAM kit: total capacity, GiB (GB as printed)")
    modules: int | None = Field(None, ge=1, le=32, description="RAM kit: modules in the kit")
    speed_mt_s: int | None = Field(None, ge=100, le=20_000, description="RAM kit: rated speed, MT/s")
    memory_type: str = Field("", description="RAM kit: DDR4, DDR5 RDIMM …")
    bridge_slot_spacing: int | None = Field(None, ge=1, le=8, description="NVLink bridge: slots it spans")
    bridge_gpu_ids: tuple[RecordId, ...] = Field((), description="NVLink bridge: GPU ids it joins")
    nic_fabric: NicFabric | None = Field(None, description="NIC: the network it speaks (infiniband, efa, roce, ethernet)")
    nic_gbit_per_s: Annotated[PositiveFloat, physical_range(1, 3_200, "Gb/s")] | None = Field(
        None, description="NIC: line rate of one port, Gb/s each way (InfiniBand NDR: 400)")
    nic_ports: int = Field(1, ge=1, le=8, description="NIC: ports used at once on one adapter")
    nic_latency_us: Annotated[PositiveFloat, physical_range(0.05, 10_000, "µs")] | None = Field(
        None, description="NIC: one small message machine to machine, µs (None: the fabric's measured default)")

    @model_validator(mode="after")
    def _kind_fields(self) -> PlatformPart:
        for name in _PART_NEEDS[self.part]:
            if not getattr(self, name):
                raise ValueError(f"a {self.part.value} part needs {name}")
        positions = [s.position for s in self.slots]
        if len(set(positions)) != len(positions):
            raise ValueError("two slots share one position")
        return self


class BuildParts(Frozen):
    """The platform parts a build names by id: its total, power and checks become whole-machine."""

    cpu: RecordId | None = None
    board: RecordId | None = None
    psu: RecordId | None = None
    ram: RecordId | None = None
    ram_kits: int = Field(1, ge=1, le=16, description="How many of the RAM kit")
    nvlink_bridges: tuple[RecordId, ...] = Field((), description="One bridge per NVLink pair, in pair order")
    nic: RecordId | None = Field(None, description="Network adapter joining this machine to others")
    nics: int = Field(1, ge=1, le=64, description="How many of that adapter the machine has")
    gpu_slots: tuple[Annotated[int, Field(ge=1, le=16)], ...] = Field(
        (), description="Board slot position of each GPU in slot order; empty = the board's first slots")

    def singles(self) -> tuple[tuple[str, str | None, PartKind], ...]:
        """(field, part id or None, the kind it must be) of each single part: CPU, board, PSU, RAM kit."""
        return (("cpu", self.cpu, PartKind.CPU), ("board", self.board, PartKind.MOTHERBOARD),
                ("psu", self.psu, PartKind.PSU), ("ram", self.ram, PartKind.RAM))
