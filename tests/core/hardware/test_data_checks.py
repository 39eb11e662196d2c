"""Catalog data checks (advisor.core.hardware.data_checks): errors a record's schema cannot see."""

from __future__ import annotations

from advisor.core.hardware.catalog import RecordKind, with_record
from advisor.core.hardware.data_checks import Severity, data_problems
from advisor.core.hardware.records import Gpu, PrebuiltSystem
from tests.catalog_fixtures import catalog_of, gpu_data, system_data


def _errors(catalog):
    return [(p.kind, p.record_id, p.field) for p in data_problems(catalog) if p.severity is Severity.ERROR]


def test_a_name_that_states_another_memory_size_is_an_error():
    bad = Gpu.model_validate(gpu_data("v16", name="Tesla V100 PCIe 16GB", memory_gib=32, memory_gb_marketing=32))
    good = Gpu.model_validate(gpu_data("v32", name="Tesla V100 PCIe 32 GB", memory_gib=32, memory_gb_marketing=32))
    chip = Gpu.model_validate(gpu_data("gb10", name="GB10 Superchip, 273 GB/s", memory_gib=128, memory_gb_marketing=128))
    assert _errors(catalog_of(bad, good, chip)) == [(RecordKind.GPU, "v16", "memory_gb_marketing")]


def test_a_vendor_with_notes_is_an_error_and_unknown_is_allowed():
    cat = catalog_of(Gpu.model_validate(gpu_data("a", vendor="NVIDIA (via OEMs)")),
                     Gpu.model_validate(gpu_data("b", vendor="unknown")), Gpu.model_validate(gpu_data("c", vendor="be quiet!")))
    assert _errors(cat) == [(RecordKind.GPU, "a", "vendor")]


def test_a_system_without_gpus_is_a_note_that_it_is_not_offered():
    cat = with_record(catalog_of(Gpu.model_validate(gpu_data())), PrebuiltSystem.model_validate(system_data("x", build=None)))
    notes = [p for p in data_problems(cat) if p.severity is Severity.NOTE]
    assert [(p.record_id, p.field) for p in notes] == [("x", "build")] and "do not offer" in notes[0].message
