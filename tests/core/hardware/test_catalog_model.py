"""Catalog aggregate: overlay rules, pure edits, kind detection, resolving builds."""

import pytest

from advisor.core.hardware.catalog import (
    CatalogLayer,
    Origin,
    RecordKind,
    UnknownRecord,
    detect_kind,
    hide,
    with_record,
)
from advisor.core.hardware.records import Build
from tests.catalog_fixtures import (
    build_data,
    cloud_data,
    gpu_data,
    model_data,
    system_data,
)
from tests.hardware_builders import GPU_A


def test_effective_view_holds_every_kind(catalog):
    assert set(catalog.gpus) == {"card-a", "card-nv"}
    assert set(catalog.builds) == {"two-a", "mixed"}
    assert list(catalog.systems) == ["box"] and list(catalog.cloud) == ["inst"] and list(catalog.models) == ["tiny"]
    assert len(catalog) == 7
    assert catalog.origin(RecordKind.GPU, "card-a") is Origin.SHIPPED


def test_unknown_record_names_kind_and_id(catalog):
    with pytest.raises(UnknownRecord) as info:
        catalog.get(RecordKind.BUILD, "nope")
    assert str(info.value) == "no build with id 'nope' in the catalog"
    assert isinstance(info.value, KeyError) and info.value.kind is RecordKind.BUILD


def test_ids_are_per_kind(catalog):
    same_id = Build.model_validate(build_data("card-a"))
    edited = with_record(catalog, same_id)
    assert [k for k, _ in edited.find("card-a")] == [RecordKind.GPU, RecordKind.BUILD]


def test_layer_rejects_key_that_is_not_the_id():
    with pytest.raises(ValueError, match="holds record"):
        CatalogLayer(gpus={"other": GPU_A})


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (gpu_data(), RecordKind.GPU),
        (build_data(), RecordKind.BUILD),
        (system_data(), RecordKind.SYSTEM),
        (cloud_data(), RecordKind.CLOUD),
        (model_data(), RecordKind.MODEL),
        ({"id": "x"}, None),
        ({**gpu_data(), "n_layers": 2, "hidden_size": 8}, None),  # two signatures: ambiguous
    ],
)


def test_detect_kind(data, kind):
    assert detect_kind(data) is kind


def test_model_copy_recomputes_the_effective_view(catalog):
    copied = catalog.model_copy(update={"hidden": {RecordKind.GPU: frozenset({"card-a"})}})
    assert "card-a" not in copied.gpus and "card-a" in catalog.gpus


def test_each_kinds_view_is_its_property_and_read_only(catalog):
    views = {RecordKind.GPU: catalog.gpus, RecordKind.BUILD: catalog.builds, RecordKind.SYSTEM: catalog.systems,
             RecordKind.CLOUD: catalog.cloud, RecordKind.MODEL: catalog.models, RecordKind.PART: catalog.parts,
             RecordKind.PLATFORM: catalog.platforms}
    for kind, view in views.items():
        assert catalog.of(kind) is view and catalog.of(kind.value) is view
        assert all(isinstance(r, kind.record_type) for r in view.values())
    with pytest.raises(TypeError):
        catalog.gpus["new"] = GPU_A


def test_a_hidden_record_is_missing_and_says_so(catalog):
    hidden = hide(catalog, RecordKind.GPU, "card-a")
    assert str(hidden.missing(RecordKind.GPU, "card-a")).endswith("(hidden by the user)")
    assert str(hidden.missing(RecordKind.GPU, "nope")) == "no gpu with id 'nope' in the catalog"
