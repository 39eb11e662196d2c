"""A comparison entry → the build it names, the model it names, and the build's prices today.

Catalog lookups by id; an unknown id raises ``LookupError`` for the caller to say on the build.
"""

from __future__ import annotations

import datetime as dt

from advisor.core.advice.build_results import MoneyFields
from advisor.core.advice.comparison import BuildEntry, ModelRef
from advisor.core.cost.machine import PriceChoice, hourly_price, machine_price
from advisor.core.hardware.catalog import (
    Catalog,
    resolve_build,
    resolve_cloud,
    resolve_system,
    with_network,
    with_nodes,
)
from advisor.core.hardware.machines import machine_build, on_platform, price_tier
from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import ResolvedBuild
from advisor.core.model.arch import ModelArch
from advisor.core.model.generic import generic_decoder


def resolve_entry(catalog: Catalog | None, entry: BuildEntry) -> ResolvedBuild:
    """A comparison entry → the build the estimator takes (catalog lookups by id), as
    ``entry.nodes`` machines with the entry's network card where it names one."""
    resolved = _resolve_one(catalog, entry)
    if entry.nic_id is not None:
        if catalog is None:
            raise LookupError("the catalog is not loaded")
        resolved = with_network(catalog, resolved, entry.nic_id, entry.nics)
    if entry.nodes > 1 and entry.nodes != resolved.nodes:  # an inline build may carry its own machines
        resolved = with_nodes(resolved, entry.nodes)
    return resolved


def _resolve_one(catalog: Catalog | None, entry: BuildEntry) -> ResolvedBuild:
    if entry.inline is not None:
        return entry.inline
    if catalog is None:
        raise LookupError("the catalog is not loaded")
    if entry.build_id is not None:
        return on_platform(catalog, resolve_build(catalog, entry.build_id))
    if entry.cloud_id is not None:
        return resolve_cloud(catalog, entry.cloud_id)
    if entry.system_id is not None:
        return resolve_system(catalog, entry.system_id)
    if entry.gpu_id is None:  # the entry's validator requires one source; kept for a hand-built entry
        raise LookupError("the entry names no build, cloud instance, system or GPU")
    resolved = machine_build(catalog, entry.gpu_id, entry.gpu_count)
    if entry.topology is not None:  # the user's own links and slots over the tier's
        resolved = resolved.model_copy(update={"topology": entry.topology})
    return resolved


def resolve_model(catalog: Catalog | None, ref: ModelRef) -> ModelArch:
    """The architecture a comparison names: inline, a generic size, or a catalog preset."""
    if ref.arch is not None:
        return ref.arch
    if ref.generic_params is not None:
        return generic_decoder(ref.generic_params)
    if ref.preset_id is None:  # a hand-built reference that names nothing: said, not a KeyError on None
        raise LookupError("the model names no preset, size or architecture")
    if catalog is None:
        raise LookupError("the catalog is not loaded")
    try:
        return catalog.models[ref.preset_id]
    except KeyError:
        raise LookupError(f"no model preset {ref.preset_id!r} in the catalog") from None


def money(catalog: Catalog | None, entry: BuildEntry, resolved: ResolvedBuild,
          today: dt.date | None = None) -> MoneyFields:
    """The build's prices today (``advisor.core.cost.machine``: new, used, and ``price`` — the lower of the two,
    what the comparison ranks on — each a whole machine with its date and what it includes), cloud $/h and
    power; None where unknown (``price_note`` says why)."""
    today = today or dt.date.today()
    power = build_power(resolved)
    power_w = power.total_w if power.total_w is not None else power.gpus_w
    if entry.cloud_id is not None and catalog is not None:
        inst = catalog.cloud.get(entry.cloud_id)
        rate = hourly_price(inst.prices if inst is not None else (), today, resolved.nodes)
        return MoneyFields(power_w=power_w, price_gpus_only=False, price=rate, price_new=None, price_used=None,
                           price_new_usd=None, price_used_usd=None, usd_per_hour=rate.usd, price_date=rate.date,
                           price_note="rented by the hour" + (f": {resolved.nodes} instances" if resolved.nodes > 1
                                                              else ""))
    tier = price_tier(catalog, resolved) if catalog is not None else resolved.tier
    new, used, either = (machine_price(resolved, c, today, tier) for c in (PriceChoice.NEW, PriceChoice.USED,
                                                                              PriceChoice.EITHER))
    note = either.includes if either.usd is not None else "no price: " + "; ".join(either.missing)
    return MoneyFields(power_w=power_w, price_gpus_only=False, price=either, price_new=new, price_used=used,
                       price_new_usd=new.usd, price_used_usd=used.usd, usd_per_hour=None, price_date=either.date,
                       price_note=note)
