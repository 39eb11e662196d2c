"""A machine as the estimator and the checks take it: its GPU and part records looked up, and
how many identical machines a network joins."""

from __future__ import annotations

import datetime as dt

from pydantic import Field, model_validator

from advisor.core.hardware.builds import Build
from advisor.core.hardware.gpu import Gpu
from advisor.core.hardware.parts import BoardSlot, PartKind, PlatformPart
from advisor.core.hardware.quantities import Gib, PricePoint
from advisor.core.hardware.tiers import PlatformTier
from advisor.core.hardware.topology import Topology, topology_problem
from advisor.core.schema import Frozen


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
    joins the machines; None where the build names no network adapter.
    """

    name: str
    gpus: tuple[Gpu, ...] = Field(min_length=1)
    topology: Topology = Topology()
    host_ram_gib: Gib | None = None
    unified_memory: bool = False
    build: Build | None = Field(None, description="The catalog build it came from, if any")
    platform: ResolvedPlatform | None = Field(None, description="The build's platform parts, looked up")
    nodes: int = Field(1, ge=1, le=MAX_NODES, description="Identical machines joined by the network")
    network: NodeNetwork | None = Field(None, description="Each machine's adapters to the others")
    tier: PlatformTier | None = Field(None, description="The typical platform that carries its cards, when the "
                                                        "build names cards only (price, host RAM, PSU)")
    machine_prices: tuple[PricePoint, ...] = Field((), description="Prices of the whole machine as sold (a prebuilt "
                                                                   "system): what it costs, GPUs included")
    machine_sold_new_until: dt.date | None = Field(None, description="Last day the system was sold new, if it is not")
    host_cpu_single_thread_mark: int | None = Field(
        None, ge=100, le=20_000, description="The host CPU's PassMark single-thread rating where the build names no CPU "
                                             "part: a cloud instance's, measured on it; this machine's, its CPU "
                                             "found among the catalog's CPU parts")

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
    def host_single_thread_mark(self) -> int | None:
        """The host CPU's PassMark single-thread rating: its CPU part's, else ``host_cpu_single_thread_mark`` (a
        cloud instance's, this machine's); None where the build does not say which CPU (cards only)."""
        cpu = self.platform.cpu if self.platform is not None else None
        if cpu is not None and cpu.single_thread_mark is not None:
            return cpu.single_thread_mark
        return self.host_cpu_single_thread_mark

    @property
    def gpus_per_node(self) -> int:
        return len(self.gpus) // self.nodes

    def node(self) -> ResolvedBuild:
        """One of the machines alone (what the physical checks, power and platform price are of)."""
        if self.nodes == 1:
            return self
        return self.model_copy(update={"gpus": self.gpus[: self.gpus_per_node], "nodes": 1})
