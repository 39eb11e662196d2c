"""Catalog machines: a build (GPUs, topology, platform), a prebuilt system, a cloud instance.

Every record is a frozen pydantic model that validates itself; ``None`` means *unknown*.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from pydantic import Field, HttpUrl, model_validator

from advisor.core.hardware.parts import BuildParts
from advisor.core.hardware.quantities import GbMemory, Gib, PlatformUsd, PlatformWatts, PricePoint, UsdPerHour, Watts
from advisor.core.hardware.topology import Topology, topology_problem
from advisor.core.schema import Frozen, Record, RecordId

#: GPUs in one machine: a GB200 NVL72 rack, the largest single NVLink domain sold as one system.
MAX_GPUS_PER_MACHINE = 72


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
    parts: BuildParts | None = Field(None, description="Platform parts by id; None = not listed")
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
    nic: RecordId | None = Field(None, description="Network adapter it ships with to join others: a 'nic' part id")
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
    cpu: str = Field("", description="The host CPU as the provider or the VM reports it")
    cpu_single_thread_mark: int | None = Field(
        None, ge=100, le=20_000, description="The host CPU's PassMark single-thread rating (None: not known)")
    host_ram_gib: Gib | None = None
    prices: tuple[CloudPrice, ...] = ()
    nic: RecordId | None = Field(None, description="Network adapter between instances: a 'nic' part id")
    nics: int = Field(1, ge=1, le=64, description="How many of that adapter one instance has")

    @model_validator(mode="after")
    def _topology_fits(self) -> CloudInstance:
        if problem := topology_problem(self.topology, self.gpu_count):
            raise ValueError(problem)
        return self

