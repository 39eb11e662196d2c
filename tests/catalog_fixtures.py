"""Small, made-up catalog records for catalog tests (never the shipped data, which changes).

Numbers are plausible but invented for the tests; nothing here is a spec claim.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from advisor.core.hardware.catalog import Catalog, CatalogLayer, RecordKind

SRC = "https://example.org/spec"


def price(kind: str, usd: float, date: str, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "usd": usd, "date_seen": date, "source": SRC, **extra}


def gpu_data(gid: str = "card-a", **over: Any) -> dict[str, Any]:
    data = {
        "schema_version": 1, "id": gid, "sources": [SRC], "vendor": "Acme", "name": f"Acme {gid}",
        "segment": "consumer", "memory_gib": 24, "memory_gb_marketing": 24, "tdp_w": 350,
        "slot_width": 3, "pcie_gen": 4, "pcie_lanes": 16, "p2p_supported": False,
        "prices": [price("launch_msrp", 1499, "2020-09-01"), price("street_new", 1100, "2026-05-01")],
    }
    data.update(over)
    return data


def bridged_gpu_data(gid: str = "card-nv", **over: Any) -> dict[str, Any]:
    link = {"version": "NVLink 3", "total_gb_per_s_per_gpu": 112.5, "max_gpus": 2, "bridge_slot_spacings": [3, 4]}
    return gpu_data(gid, nvlink=link, p2p_supported=None, **over)


def build_data(bid: str = "two-a", gpu: str = "card-a", count: int = 2, **over: Any) -> dict[str, Any]:
    data = {
        "schema_version": 1, "id": bid, "sources": [SRC], "name": f"{count}x {gpu}",
        "gpus": [{"gpu_id": gpu, "count": count}], "topology": {"p2p": False, "slot_spacing": 4},
        "platform_cost_usd": 1000, "platform_power_w": 250, "psu_w": 1600, "cpu_pcie_lanes": 24,
    }
    data.update(over)
    return data


def system_data(sid: str = "box", **over: Any) -> dict[str, Any]:
    data = {"schema_version": 1, "id": sid, "sources": [SRC], "kind": "workstation", "vendor": "Acme",
            "name": "Box", "build": build_data("box-build")}
    data.update(over)
    return data


def cloud_data(cid: str = "inst", gpu: str = "card-a", **over: Any) -> dict[str, Any]:
    data = {"schema_version": 1, "id": cid, "sources": [SRC], "provider": "Cloudy", "instance_type": "g.2x",
            "gpu_id": gpu, "gpu_count": 2, "host_ram_gib": 128,
            "prices": [{"usd_per_hour": 2.5, "region": "us", "date_seen": "2026-07-01", "source": SRC}]}
    data.update(over)
    return data


def model_data(mid: str = "tiny", **over: Any) -> dict[str, Any]:
    data = {"schema_version": 1, "id": mid, "name": "Tiny", "n_layers": 2, "hidden_size": 64, "n_heads": 4,
            "n_kv_heads": 2, "head_dim": 16, "ffn_size": 128, "vocab_size": 1000}
    data.update(over)
    return data


def write(root: Path, kind: RecordKind | str, data: Any, name: str | None = None) -> Path:
    """Write ``data`` (a dict, or raw text/bytes) as ``root/<folder>/<id>.json``."""
    folder = root / RecordKind(kind).folder
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name or data['id']}.json"
    if isinstance(data, bytes):
        path.write_bytes(data)
    elif isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def small_shipped(root: Path) -> Path:
    """A shipped catalog of one record per kind (plus a bridged card and its pair build)."""
    write(root, "gpu", gpu_data("card-a"))
    write(root, "gpu", bridged_gpu_data("card-nv"))
    write(root, "build", build_data("two-a"))
    write(root, "build", build_data("two-nv", gpu="card-nv", topology={"nvlink_pairs": [[0, 1]], "slot_spacing": 4, "p2p": False}))
    write(root, "system", system_data("box"))
    write(root, "cloud", cloud_data("inst"))
    write(root, "model", model_data("tiny"))
    return root


def use_small_shipped(tmp_path: Path, monkeypatch) -> Path:
    """Point the app's shipped catalog at a fresh ``small_shipped`` one under ``tmp_path``."""
    root = small_shipped(tmp_path / "shipped")
    monkeypatch.setattr("advisor.storage.shipped.catalog_dir", lambda: root)
    return root


def catalog_of(*records, user=()) -> Catalog:
    """A Catalog with ``records`` shipped and ``user`` in the user layer."""
    def layer(items):
        fields: dict[str, dict] = {k.folder: {} for k in RecordKind}
        for r in items:
            from advisor.core.hardware.catalog import kind_of

            fields[kind_of(r).folder][r.id] = r
        return CatalogLayer(**fields)

    return Catalog(shipped=layer(records), user=layer(user))
