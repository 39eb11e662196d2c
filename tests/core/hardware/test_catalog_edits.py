"""Pure edits of a catalog (each returns a new one) and the references its records make to records it lacks."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import (
    Origin,
    RecordKind,
    UnknownRecord,
    dangling_references,
    hide,
    reset_to_shipped,
    unhide,
    with_record,
    without_record,
)
from tests.hardware_builders import CPU, GPU_A, parts_catalog


def test_dangling_and_wrong_kind_part_references():
    problems = dangling_references(parts_catalog(CPU, parts={"cpu": "nope", "psu": "cpu"}))
    assert [(f, m.split(",")[0]) for _, _, f, m in problems] == [
        ("parts.cpu", "names part 'nope'"), ("parts.psu", "names part 'cpu'")]


def test_user_record_overrides_shipped_and_edits_are_pure(catalog):
    mine = GPU_A.model_copy(update={"name": "My card A"})
    edited = with_record(catalog, mine)
    assert edited.gpus["card-a"].name == "My card A"
    assert edited.origin(RecordKind.GPU, "card-a") is Origin.OVERRIDE
    assert catalog.gpus["card-a"].name == "Acme card-a"  # the original is untouched
    back = reset_to_shipped(edited, RecordKind.GPU, "card-a")
    assert back.gpus["card-a"] == GPU_A and back.origin(RecordKind.GPU, "card-a") is Origin.SHIPPED


def test_new_user_record_has_user_origin(catalog):
    new = GPU_A.model_copy(update={"id": "card-z"})
    assert with_record(catalog, new).origin(RecordKind.GPU, "card-z") is Origin.USER


def test_without_record_hides_shipped_and_unhide_brings_it_back(catalog):
    gone = without_record(catalog, RecordKind.GPU, "card-a")
    assert "card-a" not in gone.gpus and gone.hidden_ids(RecordKind.GPU) == {"card-a"}
    with pytest.raises(UnknownRecord, match="hidden by the user"):
        gone.get(RecordKind.GPU, "card-a")
    assert unhide(gone, RecordKind.GPU, "card-a").gpus["card-a"] == GPU_A
    assert "card-a" in catalog.gpus


def test_without_record_drops_user_only_record(catalog):
    new = GPU_A.model_copy(update={"id": "card-z"})
    dropped = without_record(with_record(catalog, new), RecordKind.GPU, "card-z")
    assert "card-z" not in dropped.gpus and not dropped.hidden


def test_hiding_a_user_only_record_is_refused(catalog):
    edited = with_record(catalog, GPU_A.model_copy(update={"id": "card-z"}))
    with pytest.raises(UnknownRecord, match="only shipped"):
        hide(edited, RecordKind.GPU, "card-z")
