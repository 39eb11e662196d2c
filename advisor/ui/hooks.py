"""The app's one doorway to the core, storage and probe functions it calls.

Everything the views show comes through here, so the screen, the PDF and the CLI agree;
an API change elsewhere is adapted in one place. Imports are lazy: a piece that is not
installed (or not written yet) is reported by name instead of breaking the app.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from advisor.core.comparison import BuildEntry
from advisor.core.hardware import ResolvedBuild
from advisor.core.llm import ModelArch
from advisor.core.workload import Workload

ESTIMATOR_MISSING = "the estimator (advisor.core.estimate) is not available in this version"


@cache
def _module(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def estimator_available() -> bool:
    m = _module("advisor.core.estimate")
    return m is not None and hasattr(m, "estimate") and _module("advisor.core.generic") is not None


def estimate(arch: ModelArch, workload: Workload, build: ResolvedBuild | None):
    return _module("advisor.core.estimate").estimate(arch, workload, build)


def memory_need_bytes(arch: ModelArch, workload: Workload) -> float:
    """Per-GPU memory with no build: the memory half of ``estimate(arch, workload, None)``.

    The fit curves need only this; calling ``estimate_memory`` directly skips the speed
    and rule-of-thumb work (two thirds of an estimate's time), with the same numbers.
    """
    return _module("advisor.core.memory").estimate_memory(arch, workload, None).breakdown.total


@cache
def generic_decoder(n_params: float) -> ModelArch:
    return _module("advisor.core.generic").generic_decoder(n_params)


def check_workload(arch: ModelArch, workload: Workload, build: ResolvedBuild | None) -> tuple[str, ...]:
    """Contradictions as 'field: message' lines; a failing checker is itself reported."""
    m = _module("advisor.core.estimate")
    fn = getattr(m, "check_workload", None)
    if fn is None:
        return ()
    try:
        return tuple(f"{p.field}: {p.message}" if getattr(p, "field", "") else str(p.message) for p in fn(arch, workload, build))
    except Exception as exc:  # noqa: BLE001
        return (f"the workload checks failed: {exc}",)


def resolve_entry(catalog, entry: BuildEntry) -> ResolvedBuild:
    """A comparison entry → the build the estimator takes (catalog lookups by id)."""
    if entry.inline is not None:
        return entry.inline
    cat = _module("advisor.core.catalog")
    if catalog is None or cat is None:
        raise LookupError("the catalog is not loaded")
    if entry.build_id is not None:
        return cat.resolve_build(catalog, entry.build_id)
    if entry.cloud_id is not None:
        return cat.resolve_cloud(catalog, entry.cloud_id)
    if entry.system_id is not None:
        return cat.resolve_system(catalog, entry.system_id)
    resolved = cat.gpu_build(catalog, entry.gpu_id, entry.gpu_count)
    if entry.topology is not None:
        resolved = resolved.model_copy(update={"topology": entry.topology})
    return resolved


def money(catalog, entry: BuildEntry, resolved: ResolvedBuild) -> dict[str, Any]:
    """New and used price, cloud $/h and power of a build; None where unknown (notes say what)."""
    out: dict[str, Any] = {"price_new_usd": None, "price_used_usd": None, "usd_per_hour": None,
                           "power_w": None, "price_note": ""}
    b = _module("advisor.core.builds")
    if b is not None:
        new, used = b.build_cost(resolved, b.Condition.NEW), b.build_cost(resolved, b.Condition.USED)
        out["price_new_usd"] = new.total_usd if new.total_usd is not None else new.gpus_usd
        out["price_used_usd"] = used.total_usd if used.total_usd is not None else used.gpus_usd
        if new.total_usd is None and new.gpus_usd is not None:
            out["price_note"] = "GPUs only (platform cost unknown)"
        elif new.missing:
            out["price_note"] = "unknown: " + "; ".join(new.missing)
        power = b.build_power(resolved)
        out["power_w"] = power.total_w if power.total_w is not None else power.gpus_w
    if entry.cloud_id is not None and catalog is not None:
        inst = catalog.cloud.get(entry.cloud_id)
        if inst is not None and inst.prices:
            out["usd_per_hour"] = min(p.usd_per_hour for p in inst.prices)
        out["price_new_usd"] = out["price_used_usd"] = None  # rented, not bought
        out["price_note"] = "rented by the hour"
    return out


def build_warnings(catalog, resolved: ResolvedBuild) -> tuple[str, ...]:
    b = _module("advisor.core.builds")
    if b is None:
        return ()
    try:
        return tuple(f"{w.severity.value}: {w.message}" for w in b.check_build(resolved))
    except Exception as exc:  # noqa: BLE001
        return (f"the build checks failed: {exc}",)


def load_catalog():
    """(catalog or None, problems as text lines)."""
    m = _module("advisor.storage.catalog_store")
    if m is None:
        return None, ["the catalog store (advisor.storage.catalog_store) is not available"]
    try:
        res = m.load_catalog()
    except Exception as exc:  # noqa: BLE001
        return None, [f"the catalog could not be loaded: {exc}"]
    return res.catalog, [str(p) for p in res.problems]


def catalog_date() -> str:
    m = _module("advisor.storage.catalog_store")
    fn = getattr(m, "shipped_catalog_date", None)
    try:
        return str(fn()) if fn else "unknown"
    except Exception:  # noqa: BLE001
        return "unknown"


def load_model(path: str) -> ModelArch:
    m = _module("advisor.storage.model_import")
    if m is None:
        raise RuntimeError("model import (advisor.storage.model_import) is not available in this version")
    return m.load_model(path)


def detect(timeout_s: float):
    m = _module("advisor.probe")
    if m is None or not hasattr(m, "detect"):
        raise RuntimeError("hardware detection (advisor.probe) is not available in this version")
    return m.detect(timeout_s)
