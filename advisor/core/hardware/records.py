"""Hardware records: GPUs, build topologies, builds, prebuilt systems, cloud instances.

Every record is a frozen pydantic model that validates itself; ``None`` means *unknown*
(the UI says so), never zero. Units are in the field names. Memory capacity is in GiB as
the card reports it (``memory_gib``) beside the marketing figure (``memory_gb_marketing``);
bandwidth is decimal GB/s as vendors print it (see ``advisor.core.units``).
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated

from pydantic import Field, HttpUrl, field_validator, model_validator

from advisor.core.hardware.backend import (
    COMPUTE_CAPABILITY_PATTERN,
    GFX_TARGET_PATTERN,
    Backend,
    backend_of,
    cc_tuple,
    speed_family,
)
from advisor.core.hardware.quantities import (  # noqa: F401 (re-exported: the records' value types)
    GbMemory,
    GbPerS,
    Gib,
    GpuIndex,
    PlatformUsd,
    PlatformWatts,
    PriceKind,
    PricePoint,
    Tflops,
    Usd,
    UsdPerHour,
    Watts,
    _within,
)
from advisor.core.hardware.tiers import PlatformTier
from advisor.core.schema import Frozen, PositiveFloat, Record, RecordId

#: GPUs in one machine: a GB200 NVL72 rack, the largest single NVLink domain sold as one system.
MAX_GPUS_PER_MACHINE = 72


class Segment(StrEnum):
    CONSUMER = "consumer"
    WORKSTATION = "workstation"
    DATACENTER = "datacenter"
    UNIFIED_MEMORY = "unified-memory"


class NvLink(Frozen):
    """GPU-to-GPU link of a card or module (NVLink, or AMD Infinity Fabric for Instinct)."""

    version: str = Field(min_length=1, description="e.g. 'NVLink 3', 'NVLink 4', 'Infinity Fabric'")
    total_gb_per_s_per_gpu: GbPerS = Field(
        description="Total bidirectional GPU-to-GPU bandwidth per GPU, GB/s (a 3090 pair: 112.5)"
    )
    max_gpus: int = Field(ge=2, le=576, description="Largest all-to-all domain (2 = pair bridge)")
    bridge_slot_spacings: tuple[Annotated[int, Field(ge=1, le=8)], ...] = Field(
        (), description="Slot spacings the available bridges span (e.g. 3 and 4 for the RTX 3090)"
    )

    @property
    def infinity_fabric(self) -> bool:
        """AMD's link (Instinct xGMI, Vega 20's bridge), named so on screen rather than NVLink."""
        return "infinity fabric" in self.version.lower()

    @property
    def board_name(self) -> str:
        """What joins several such modules all-to-all on one board: NVSwitch (HGX) or Infinity Fabric (AMD UBB)."""
        return "Infinity Fabric" if self.infinity_fabric else "NVSwitch"


class Gpu(Record):
    """A GPU or accelerator SKU (or the GPU of a unified-memory SoC)."""

    vendor: str = Field(min_length=1)
    name: str = Field(min_length=1)
    architecture: str = ""
    segment: Segment
    memory_gib: Annotated[PositiveFloat, _within(0.25, 16_384, "GiB")] = Field(
        description="Memory the card reports, GiB (24 GB card: 24)")
    memory_gb_marketing: Annotated[PositiveFloat, _within(0.25, 16_384, "GB")] = Field(
        description="Capacity printed on the box, 'GB'")
    memory_type: str = ""
    mem_bandwidth_gb_per_s: GbPerS | None = Field(None, description="Peak DRAM bandwidth, GB/s")
    fp32_tflops: Tflops | None = Field(None, description="Non-tensor FP32 peak, TFLOP/s")
    bf16_tflops_dense: Tflops | None = Field(
        None, description="Dense FP16/BF16 tensor peak with FP32 accumulate, TFLOP/s"
    )
    fp16_acc16_tflops_dense: Tflops | None = Field(
        None, description="Dense FP16 tensor peak with FP16 accumulate (GeForce: 2x the above)"
    )
    fp8_tflops_dense: Tflops | None = None
    int8_tops_dense: Tflops | None = None
    fp4_tflops_dense: Tflops | None = None
    bf16_supported: bool | None = None
    tdp_w: Annotated[PositiveFloat, _within(1, 10_000, "W")] | None = Field(None, description="Max board/module power, W")
    form_factor: str = ""
    slot_width: Annotated[PositiveFloat, _within(0.5, 8, "slots")] | None = Field(
        None, description="PCIe slots the card occupies")
    length_mm: Annotated[PositiveFloat, _within(10, 1_000, "mm")] | None = None
    power_connectors: str = ""
    pcie_gen: int | None = Field(None, ge=1, le=7)
    pcie_lanes: int | None = Field(None, ge=1, le=32)
    p2p_supported: bool | None = Field(
        None, description="PCIe peer-to-peer on stock drivers (RTX 4090: False)"
    )
    nvlink: NvLink | None = Field(None, description="None = no GPU-to-GPU link (or unknown)")
    pci_device_ids: tuple[str, ...] = Field((), description="PCI device ids, e.g. '0x2204'")
    compute_capability: str | None = Field(
        None, pattern=COMPUTE_CAPABILITY_PATTERN,
        description="NVIDIA CUDA compute capability, e.g. '8.6' (developer.nvidia.com/cuda-gpus)")
    gfx_target: str = Field("", pattern=GFX_TARGET_PATTERN,
                            description="AMD LLVM target, e.g. 'gfx1100' (ROCm GPU hardware specifications)")
    launch_date: dt.date | None = None
    sold_new_until: dt.date | None = Field(
        None, description="Last day its maker sold it new (None: still sold, or not known); a new price seen up to "
                          "then is no price one can buy at after it")
    prices: tuple[PricePoint, ...] = ()
    gpu_memory_limit_gib: Gib | None = Field(
        None, description="Apple: the GPU memory limit of the machine it is in (macOS's iogpu.wired_limit_mb), GiB; "
                          "empty: macOS's default for its memory (set on the machine: Build.gpu_memory_limit_gib)")

    @model_validator(mode="after")
    def _memory_consistent(self) -> Gpu:
        # A card reports at most ~1.1x and at least ~0.85x its printed size (B200: 180 of 192).
        ratio = self.memory_gib / self.memory_gb_marketing
        if not 0.5 <= ratio <= 1.2:
            raise ValueError(
                f"memory_gib {self.memory_gib} is not close to memory_gb_marketing {self.memory_gb_marketing}"
            )
        return self

    @model_validator(mode="after")
    def _memory_limit_is_a_macs(self) -> Gpu:
        if self.gpu_memory_limit_gib is not None and not (
                self.segment is Segment.UNIFIED_MEMORY and self.vendor.lower() == "apple"):
            raise ValueError("gpu_memory_limit_gib is a Mac's GPU memory limit; this is not an Apple GPU")
        return self

    @model_validator(mode="after")
    def _stack_fields_match_vendor(self) -> Gpu:
        backend = self.backend
        if self.compute_capability is not None and backend is not Backend.CUDA:
            raise ValueError("compute_capability is NVIDIA's; this card's vendor is not NVIDIA")
        if self.gfx_target and backend is not Backend.ROCM:
            raise ValueError("gfx_target is AMD's; this card's vendor is not AMD")
        return self

    @property
    def backend(self) -> Backend | None:
        """The stack it runs LLM software on (CUDA, ROCm, Metal, XPU); None for an unknown vendor."""
        return backend_of(self.vendor)

    @property
    def cc(self) -> tuple[int, int] | None:
        """The compute capability as a comparable pair ((8, 6)); None when not NVIDIA or unknown."""
        return cc_tuple(self.compute_capability)

    @property
    def speed_family(self) -> str:
        """The family its speed is measured by ('NVIDIA sm_86', 'AMD gfx1100', 'Apple M2')."""
        return speed_family(self.vendor, self.architecture, self.compute_capability, self.gfx_target)

    @property
    def is_module(self) -> bool:
        """An SXM or OAM module: it sits on a baseboard (HGX, UBB), not in a PCIe slot (the catalog's
        form factors 'SXM5 module (HGX H100)', 'OAM module (8-GPU UBB platform)', …)."""
        return self.form_factor.upper().startswith(("SXM", "OAM"))


class LaneSource(StrEnum):
    CPU = "cpu"
    CHIPSET = "chipset"


class Topology(Frozen):
    """How the GPUs of a build are linked: to each other and to the host."""

    nvlink_pairs: tuple[tuple[GpuIndex, GpuIndex], ...] = Field(
        (), description="Pairs of GPU indexes joined by an NVLink bridge"
    )
    nvswitch: bool = Field(False, description="All GPUs on one NVSwitch/NVLink domain")
    pcie_gen: int = Field(4, ge=1, le=7, description="PCIe generation the platform runs")
    pcie_lanes_per_gpu: tuple[Annotated[int, Field(ge=1, le=32)], ...] = Field(
        (), description="Electrical lanes each GPU gets; empty = the card's own width"
    )
    lane_sources: tuple[LaneSource, ...] = Field((), description="Where each GPU's lanes come from")
    p2p: bool = Field(True, description="PCIe peer-to-peer enabled between the GPUs")
    slot_spacing: int | None = Field(
        None, ge=1, le=8, description="Slots between the starts of adjacent GPU slots"
    )

    @field_validator("nvlink_pairs")
    @classmethod
    def _pairs_distinct(cls, pairs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        for a, b in pairs:
            if a == b or a < 0 or b < 0:
                raise ValueError(f"NVLink pair ({a}, {b}) must join two different GPUs")
        return pairs


def topology_problem(topology: Topology, n: int) -> str | None:
    """Why ``topology`` cannot be that of a machine of ``n`` GPUs (an NVLink pair or a per-GPU list
    naming a GPU it does not have: the estimate indexes the GPUs by them), or None."""
    for a, b in topology.nvlink_pairs:
        if a >= n or b >= n:
            return f"NVLink pair ({a}, {b}) names a GPU beyond the machine's {n}"
    for name in ("pcie_lanes_per_gpu", "lane_sources"):
        values = getattr(topology, name)
        if values and len(values) != n:
            return f"topology.{name} has {len(values)} entries for {n} GPUs"
    return None


class BuildGpu(Frozen):
    gpu_id: RecordId
    count: int = Field(ge=1, le=MAX_GPUS_PER_MACHINE)


class Build(Record):
    """A named set of GPUs (mixed types allowed) with its topology and host platform.

    Total price and power are derived (``advisor.core.hardware.checks``), never typed twice.
    """

    name: str = Field(min_length=1)
    gpus: tuple[BuildGpu, ...] = Field(min_length=1)
    topology: Topology = Topology()
    host_ram_gib: Gib | None = None
    cpu: str = ""
    cpu_pcie_lanes: int | None = Field(None, ge=1, le=256, description="Lanes the CPU provides")
    platform_cost_usd: PlatformUsd | None = Field(
        None, description="Board, CPU, RAM, PSU, case: everything but the GPUs, USD"
    )
    platform_power_w: PlatformWatts | None = Field(None, description="Everything but GPUs, W")
    psu_w: Watts | None = None
    unified_memory: bool = Field(False, description="GPU and host share one memory pool (Apple, DGX Spark)")
    parts: BuildParts | None = Field(None, description="Platform parts by id (issue 18); None = not listed")
    gpu_memory_limit_gib: Gib | None = Field(
        None, description="A Mac's GPU memory limit raised with 'sudo sysctl iogpu.wired_limit_mb=…', GiB (empty: "
                          "macOS's default for its memory)")

    @property
    def gpu_count(self) -> int:
        return sum(g.count for g in self.gpus)

    @model_validator(mode="after")
    def _topology_fits(self) -> Build:
        if problem := topology_problem(self.topology, self.gpu_count):
            raise ValueError(problem)
        return self


class SystemKind(StrEnum):
    WORKSTATION = "workstation"
    SERVER = "server"
    RACK = "rack"
    UNIFIED_MEMORY = "unified-memory"


class PrebuiltSystem(Record):
    """A workstation, server, rack or unified-memory computer sold as one product."""

    kind: SystemKind
    vendor: str = Field(min_length=1)
    name: str = Field(min_length=1)
    build: Build | None = Field(None, description="None where the configuration is unverified")
    total_gpu_memory_gb: GbMemory | None = None
    sold_new_until: dt.date | None = Field(
        None, description="Last day its maker sold it new (None: still sold, or not known)")
    prices: tuple[PricePoint, ...] = ()
    url: HttpUrl | None = None
    nic: RecordId | None = Field(None, description="Network adapter it ships with to join others: a 'nic' part id (issue 21)")
    nics: int = Field(1, ge=1, le=64, description="How many of that adapter it has")


class CloudPrice(Frozen):
    usd_per_hour: UsdPerHour = Field(description="On-demand price of the whole instance, USD/h")
    region: str = Field(min_length=1)
    date_seen: dt.date
    source: HttpUrl
    note: str = ""


class CloudInstance(Record):
    provider: str = Field(min_length=1)
    instance_type: str = Field(min_length=1)
    gpu_id: RecordId
    gpu_count: int = Field(ge=1, le=72)
    interconnect: str = ""
    topology: Topology = Topology()
    vcpus: int | None = Field(None, ge=1, le=100_000)
    host_ram_gib: Gib | None = None
    prices: tuple[CloudPrice, ...] = ()
    nic: RecordId | None = Field(None, description="Network adapter between instances: a 'nic' part id (issue 21)")
    nics: int = Field(1, ge=1, le=64, description="How many of that adapter one instance has")

    @model_validator(mode="after")
    def _topology_fits(self) -> CloudInstance:
        if problem := topology_problem(self.topology, self.gpu_count):
            raise ValueError(problem)
        return self


class PartKind(StrEnum):
    """Kinds of platform part (the ``part`` field of a part record)."""

    CPU = "cpu"
    MOTHERBOARD = "motherboard"
    PSU = "psu"
    RAM = "ram"
    NVLINK_BRIDGE = "nvlink_bridge"
    NIC = "nic"  # a network adapter joining machines: InfiniBand, EFA, RoCE, Ethernet (issue 21)


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
    """A CPU, motherboard, PSU, RAM kit, NVLink bridge or network adapter with dated prices (issues 18, 21).

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
    nic_gbit_per_s: Annotated[PositiveFloat, _within(1, 3_200, "Gb/s")] | None = Field(
        None, description="NIC: line rate of one port, Gb/s each way (InfiniBand NDR: 400)")
    nic_ports: int = Field(1, ge=1, le=8, description="NIC: ports used at once on one adapter")
    nic_latency_us: Annotated[PositiveFloat, _within(0.05, 10_000, "µs")] | None = Field(
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
    nic: RecordId | None = Field(None, description="Network adapter joining this machine to others (issue 21)")
    nics: int = Field(1, ge=1, le=64, description="How many of that adapter the machine has")
    gpu_slots: tuple[Annotated[int, Field(ge=1, le=16)], ...] = Field(
        (), description="Board slot position of each GPU in slot order; empty = the board's first slots")


class ResolvedPlatform(Frozen):
    """A build's parts looked up; ``gpu_slots`` is the board slot of each GPU (may be short)."""

    cpu: PlatformPart | None = None
    board: PlatformPart | None = None
    psu: PlatformPart | None = None
    ram: PlatformPart | None = None
    ram_kits: int = 1
    nvlink_bridges: tuple[PlatformPart, ...] = ()
    gpu_slots: tuple[BoardSlot, ...] = ()
    nic: PlatformPart | None = None
    nics: int = 1

    def priced_parts(self) -> tuple[PlatformPart, ...]:
        """Every part bought, RAM kits and NICs repeated: what the platform price sums."""
        main = tuple(p for p in (self.cpu, self.board, self.psu) if p is not None)
        ram = (self.ram,) * self.ram_kits if self.ram is not None else ()
        nic = (self.nic,) * self.nics if self.nic is not None else ()
        return main + ram + self.nvlink_bridges + nic

    def lanes_for_gpus(self) -> tuple[int, ...]:
        """Electrical lanes each GPU's slot gives, with the slots that share lanes split."""
        used = {s.position for s in self.gpu_slots}
        return tuple(s.lanes_when_shared if s.shared_with in used and s.lanes_when_shared else s.lanes
                     for s in self.gpu_slots)


class NodeNetwork(Frozen):
    """The network adapters of one machine that join it to the others: ``count`` of ``nic``."""

    nic: PlatformPart
    count: int = Field(1, ge=1, le=64)

    @model_validator(mode="after")
    def _is_nic(self) -> NodeNetwork:
        if self.nic.part is not PartKind.NIC:
            raise ValueError(f"part {self.nic.id!r} is a {self.nic.part.value}, not a network adapter")
        return self

    @property
    def gbit_per_s(self) -> float:
        """Line rate of the machine's adapters together, Gb/s each way."""
        return self.count * self.nic.nic_ports * (self.nic.nic_gbit_per_s or 0.0)


MAX_NODES = 64


class ResolvedBuild(Frozen):
    """A build with its GPU records looked up: what the estimator and checks take.

    ``gpus`` has one entry per physical GPU, in slot order (index = topology index), across
    all ``nodes`` identical machines: GPU ``i`` sits in machine ``i // gpus_per_node`` at slot
    ``i % gpus_per_node`` (topology indexes are those of one machine). ``network`` is what
    joins the machines (issue 21); None where the build names no network adapter.
    """

    name: str
    gpus: tuple[Gpu, ...] = Field(min_length=1)
    topology: Topology = Topology()
    host_ram_gib: Gib | None = None
    unified_memory: bool = False
    build: Build | None = Field(None, description="The catalog build it came from, if any")
    platform: ResolvedPlatform | None = Field(None, description="The build's platform parts, looked up")
    nodes: int = Field(1, ge=1, le=MAX_NODES, description="Identical machines joined by the network (issue 21)")
    network: NodeNetwork | None = Field(None, description="Each machine's adapters to the others")
    tier: PlatformTier | None = Field(None, description="The typical platform that carries its cards, when the "
                                                        "build names cards only (price, host RAM, PSU)")
    machine_prices: tuple[PricePoint, ...] = Field((), description="Prices of the whole machine as sold (a prebuilt "
                                                                   "system): what it costs, GPUs included")
    machine_sold_new_until: dt.date | None = Field(None, description="Last day the system was sold new, if it is not")

    @model_validator(mode="after")
    def _nodes_divide(self) -> ResolvedBuild:
        if len(self.gpus) % self.nodes:
            raise ValueError(f"{len(self.gpus)} GPUs do not split evenly over {self.nodes} machines")
        if problem := topology_problem(self.topology, self.gpus_per_node):  # an inline build (comparison file)
            raise ValueError(problem)
        return self

    @property
    def gpu_count(self) -> int:
        return len(self.gpus)

    @property
    def gpus_per_node(self) -> int:
        return len(self.gpus) // self.nodes

    def node(self) -> ResolvedBuild:
        """One of the machines alone (what the physical checks, power and platform price are of)."""
        if self.nodes == 1:
            return self
        return self.model_copy(update={"gpus": self.gpus[: self.gpus_per_node], "nodes": 1})
