"""What each kind's table shows: one ``Column`` per header, read off the core record.

``value`` gives the sortable value (numbers stay numbers, unknown is None); ``field``
names the record field a cell edits in place, or None where the cell is derived.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from advisor.core import CatalogRecord, RecordKind


@dataclass(frozen=True)
class Column:
    header: str
    value: Callable[[CatalogRecord], object]
    field: str | None = None
    unit: str = ""


def _attr(name: str) -> Callable[[CatalogRecord], object]:
    return lambda r: getattr(r, name)


def latest_price_usd(record: CatalogRecord) -> float | None:
    """The most recently seen price (USD), whatever its kind; None when there is none."""
    prices = getattr(record, "prices", ())
    if not prices:
        return None
    newest = max(prices, key=lambda p: p.date_seen)
    return getattr(newest, "usd", None) or getattr(newest, "usd_per_hour", None)


def _gpus_of_build(record) -> str:
    return " + ".join(f"{g.count}x {g.gpu_id}" for g in record.gpus)


def _system_gpus(record) -> str:
    return _gpus_of_build(record.build) if record.build else "unverified"


COLUMNS: dict[RecordKind, tuple[Column, ...]] = {
    RecordKind.GPU: (
        Column("Id", _attr("id")),
        Column("Name", _attr("name"), "name"),
        Column("Vendor", _attr("vendor"), "vendor"),
        Column("Segment", lambda r: r.segment.value),
        Column("Memory", _attr("memory_gib"), "memory_gib", "GiB"),
        Column("Bandwidth", _attr("mem_bandwidth_gb_per_s"), "mem_bandwidth_gb_per_s", "GB/s"),
        Column("BF16 dense", _attr("bf16_tflops_dense"), "bf16_tflops_dense", "TFLOP/s"),
        Column("TDP", _attr("tdp_w"), "tdp_w", "W"),
        Column("Latest price", latest_price_usd, None, "USD"),
    ),
    RecordKind.BUILD: (
        Column("Id", _attr("id")),
        Column("Name", _attr("name"), "name"),
        Column("GPUs", _gpus_of_build),
        Column("Host RAM", _attr("host_ram_gib"), "host_ram_gib", "GiB"),
        Column("Platform cost", _attr("platform_cost_usd"), "platform_cost_usd", "USD"),
    ),
    RecordKind.SYSTEM: (
        Column("Id", _attr("id")),
        Column("Vendor", _attr("vendor"), "vendor"),
        Column("Name", _attr("name"), "name"),
        Column("Kind", lambda r: r.kind.value.replace("-", " ")),
        Column("GPUs", _system_gpus),
        Column("Latest price", latest_price_usd, None, "USD"),
    ),
    RecordKind.CLOUD: (
        Column("Id", _attr("id")),
        Column("Provider", _attr("provider"), "provider"),
        Column("Instance", _attr("instance_type"), "instance_type"),
        Column("GPU", _attr("gpu_id")),
        Column("Count", _attr("gpu_count"), "gpu_count"),
        Column("Latest price", latest_price_usd, None, "USD/h"),
    ),
    RecordKind.MODEL: (
        Column("Id", _attr("id")),
        Column("Name", _attr("name"), "name"),
        Column("Family", _attr("family"), "family"),
        Column("Layers", _attr("n_layers"), "n_layers"),
        Column("Hidden", _attr("hidden_size"), "hidden_size"),
        Column("Published params", _attr("params_published"), "params_published"),
    ),
    RecordKind.PART: (
        Column("Id", _attr("id")),
        Column("Part", lambda r: r.part.value.replace("_", " ")),
        Column("Vendor", _attr("vendor"), "vendor"),
        Column("Name", _attr("name"), "name"),
        Column("Power", _attr("power_w"), "power_w", "W"),
        Column("Latest price", latest_price_usd, None, "USD"),
    ),
    RecordKind.PLATFORM: (
        Column("Id", _attr("id")),
        Column("Name", _attr("name"), "name"),
        Column("Kind", lambda r: r.kind.words),
        Column("Cards", _attr("max_cards"), "max_cards"),
        Column("Host RAM", _attr("host_ram_gib"), "host_ram_gib", "GiB"),
        Column("GPU power", _attr("gpu_power_w"), "gpu_power_w", "W"),
        Column("Latest price", latest_price_usd, None, "USD"),
    ),
}

#: A kind of record in a sentence ("New GPU", "save prebuilt system …"), not its CLI spelling.
KIND_WORDS = {
    RecordKind.GPU: "GPU", RecordKind.BUILD: "build", RecordKind.SYSTEM: "prebuilt system",
    RecordKind.CLOUD: "cloud instance", RecordKind.MODEL: "model", RecordKind.PART: "platform part",
}

#: What a record says about where it came from, not what it is: Duplicate leaves these out, so a new
#: card never carries its sibling's sources, notes, PCI ids, launch date or dated prices.
PROVENANCE_FIELDS = frozenset({"sources", "source", "notes", "pci_device_ids", "launch_date", "prices", "url"})

TAB_TITLES = {
    RecordKind.GPU: "GPUs", RecordKind.BUILD: "Builds", RecordKind.SYSTEM: "Systems",
    RecordKind.CLOUD: "Cloud", RecordKind.MODEL: "Models", RecordKind.PART: "Parts",
    RecordKind.PLATFORM: "Platforms",
}


def format_value(value: object, unit: str = "") -> str:
    """Cell text: unknown says so, numbers without trailing zeros, money with separators."""
    if value is None:
        return "unknown" if unit else ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    # The unit is in the column header, so a cell is just the number.
    if isinstance(value, float):
        return f"{value:,.0f}" if unit.startswith("USD") and value >= 100 else f"{value:g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def field_diff(shipped: CatalogRecord, edited: CatalogRecord) -> list[tuple[str, object, object]]:
    """(field, shipped value, edited value) for each top-level field the user changed."""
    a, b = shipped.model_dump(mode="json"), edited.model_dump(mode="json")
    return [(k, a.get(k), b.get(k)) for k in a.keys() | b.keys() if a.get(k) != b.get(k)]


def diff_text(diff: list[tuple[str, object, object]], width: int = 60) -> str:
    def short(v: object) -> str:
        text = "unknown" if v is None else str(v)
        return text if len(text) <= width else text[: width - 1] + "…"

    from advisor.ui.catalog_editor.model_form import field_label  # labels, not field names

    return "\n".join(f"{field_label(k)}: {short(old)} → {short(new)}" for k, old, new in sorted(diff))
