"""A comparison entry to its build, model and prices: what is missing is said, never guessed (the catalog's own
lookups are tests/core/hardware/test_resolve.py)."""

import dataclasses
import datetime as dt
import pytest

from advisor.core.advice import evaluate as compute
from advisor.core.advice.build_results import BuildResult, MoneyFields
from advisor.core.advice.resolve import money, resolve_entry, resolve_model
from advisor.core.advice.comparison import BuildEntry, ModelRef
from advisor.core.job.planned import PlannedJob
from advisor.storage.catalog_store import load_catalog


def test_unknown_build_id_is_a_message_on_that_build():
    catalog = load_catalog().catalog
    r = compute.evaluate_build(catalog, None, PlannedJob(), BuildEntry(name="x", build_id="no-such-build"))
    assert r.estimate is None and "cannot resolve" in r.error


def test_model_resolution_says_what_is_missing():
    catalog = load_catalog().catalog
    with pytest.raises(LookupError, match="no-such-model"):
        compute.resolve_model(catalog, ModelRef(preset_id="no-such-model"))
    assert compute.resolve_model(catalog, ModelRef(generic_params=7e9)).family == "generic"


def test_a_model_reference_that_names_nothing_is_said_not_looked_up():
    """An imported model whose inline architecture was dropped (a copy skips validation) names no preset: the
    lookup said "no model preset None in the catalog" after indexing the catalog with None."""
    catalog = load_catalog().catalog
    imported = ModelRef(generic_params=7e9).model_copy(update={"generic_params": None, "imported_path": "x.gguf"})
    with pytest.raises(LookupError, match="names no preset"):
        resolve_model(catalog, imported)
    with pytest.raises(LookupError, match="not loaded"):
        resolve_model(None, ModelRef(preset_id="llama-3.1-8b"))


def test_an_entry_of_several_machines_resolves_to_them():
    catalog = load_catalog().catalog
    one = resolve_entry(catalog, BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"))
    assert one.nodes == 1 and one.gpu_count == 2
    with pytest.raises(LookupError, match="not loaded"):
        resolve_entry(None, BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink"))


def test_money_names_every_price_field_of_a_build_result():
    """The prices go onto a result by name (``BuildResult(**money(...))``): each key is a field there."""
    fields = {f.name for f in dataclasses.fields(BuildResult)}
    assert set(MoneyFields.__annotations__) <= fields


def test_a_bought_build_is_priced_whole_and_a_rented_one_by_the_hour():
    catalog = load_catalog().catalog
    today = dt.date(2026, 11, 1)
    pair = BuildEntry(name="pair", build_id="2x-rtx-3090-nvlink")
    bought = money(catalog, pair, resolve_entry(catalog, pair), today)
    assert bought["usd_per_hour"] is None and bought["price"] is not None and not bought["price"].rented
    assert bought["price"].usd is not None
    assert bought["price"].usd in (bought["price_new_usd"], bought["price_used_usd"])  # the lower of the two
    cloud_id = next(iter(catalog.cloud))
    rented_entry = BuildEntry(name="cloud", cloud_id=cloud_id, nodes=2)
    rented = money(catalog, rented_entry, resolve_entry(catalog, rented_entry), today)
    assert rented["price"].rented and rented["price_new"] is None and rented["price_used"] is None
    assert rented["price_note"] == "rented by the hour: 2 instances"
    assert rented["usd_per_hour"] == rented["price"].usd
