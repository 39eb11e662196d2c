"""The comparison document: one model source, one hardware source per build, 2–6 unique builds."""

import pytest
from pydantic import ValidationError

from advisor.core.advice.comparison import (
    BuildEntry,
    Comparison,
    ModelRef,
    canonical_comparison,
    unique_name,
)
from advisor.core.hardware.records import Gpu, ResolvedBuild, Segment, Topology
from advisor.core.model.arch import ModelArch

ARCH = ModelArch(id="tiny", name="Tiny", n_layers=2, hidden_size=64, n_heads=4, n_kv_heads=2,
                 head_dim=16, ffn_size=128, vocab_size=1000)
GPU = Gpu(id="card", sources=["https://example.com/card"], vendor="X", name="Card",
          segment=Segment.CONSUMER, memory_gib=24, memory_gb_marketing=24)


def two(**extra):
    return (BuildEntry(name="a", build_id="b-one"), BuildEntry(name="b", gpu_id="card", gpu_count=2, **extra))


def test_canonical_is_the_3090_vs_4090_pair_with_tensor_parallel():
    c = canonical_comparison()
    assert [b.build_id for b in c.builds] == ["2x-rtx-3090-nvlink", "2x-rtx-4090-pcie-x16"]
    # The job only: each build plans itself (vLLM splits the model over both cards, tensor parallel).
    assert "parallel" not in c.workload.model_fields_set and "n_gpus" not in c.workload.model_fields_set
    assert all(not b.plan.any for b in c.builds)
    assert c.model.kind == "preset"


@pytest.mark.parametrize("fields", [{}, {"preset_id": "x", "generic_params": 7e9}])
def test_model_ref_needs_exactly_one_source(fields):
    with pytest.raises(ValidationError, match="exactly one"):
        ModelRef(**fields)


def test_imported_model_carries_its_arch():
    with pytest.raises(ValidationError, match="arch inline"):
        ModelRef(imported_path="/x/config.json")
    assert ModelRef(imported_path="/x/config.json", arch=ARCH).kind == "imported"


def test_build_entry_needs_exactly_one_source():
    with pytest.raises(ValidationError, match="exactly one"):
        BuildEntry(name="x")
    with pytest.raises(ValidationError, match="exactly one"):
        BuildEntry(name="x", build_id="a", cloud_id="b")
    with pytest.raises(ValidationError, match="go with gpu_id"):
        BuildEntry(name="x", build_id="a", gpu_count=2)


def test_inline_build_and_gpu_topology_are_accepted():
    e = BuildEntry(name="This machine", inline=ResolvedBuild(name="me", gpus=(GPU,)))
    assert e.source_kind == "inline"
    t = BuildEntry(name="pair", gpu_id="card", gpu_count=2, topology=Topology(nvlink_pairs=((0, 1),)))
    assert t.source_kind == "gpu_id"


@pytest.mark.parametrize("n", [1, 7])
def test_two_to_six_builds(n):
    builds = tuple(BuildEntry(name=f"b{i}", build_id="x") for i in range(n))
    with pytest.raises(ValidationError):
        Comparison(model=ModelRef(generic_params=7e9), builds=builds)


def test_build_names_unique():
    with pytest.raises(ValidationError, match="repeated: a"):
        Comparison(model=ModelRef(generic_params=7e9),
                   builds=(BuildEntry(name="a", build_id="x"), BuildEntry(name="a", build_id="y")))


def test_roundtrip_json_is_identical():
    c = Comparison(model=ModelRef(imported_path="/m", arch=ARCH), builds=two())
    assert Comparison.model_validate_json(c.model_dump_json()) == c


def test_unique_name():
    assert unique_name("a", set()) == "a"
    assert unique_name("a", {"a", "a (2)"}) == "a (3)"


@pytest.mark.parametrize("version", [True, 1.0, 2.0])
def test_schema_version_is_a_whole_number(version):
    data = {"schema_version": version, "model": {"preset_id": "x"},
            "builds": [{"name": "a", "gpu_id": "x"}, {"name": "b", "gpu_id": "y"}]}
    with pytest.raises(ValidationError, match="schema_version"):
        Comparison.model_validate(data)


def test_objective_and_adapter_method_round_trip_and_old_files_default_to_sft():
    # New workload fields have defaults, so a file written before them still loads.
    from advisor.core.job.choices import Method, Objective
    from advisor.core.job.planned import PlannedJob

    w = PlannedJob(mode="train", method="adapter-v2", objective="dpo", precompute_ref=True)
    c = Comparison(model=ModelRef(imported_path="/m", arch=ARCH), builds=two(), workload=w)
    back = Comparison.model_validate_json(c.model_dump_json())
    assert back == c
    assert (back.workload.method, back.workload.objective, back.workload.precompute_ref) == \
        (Method.ADAPTER_V2, Objective.DPO, True)
    old = c.model_dump(mode="json")
    for field in ("objective", "precompute_ref"):
        old["workload"].pop(field)
    legacy = Comparison.model_validate(old)
    assert legacy.workload.objective is Objective.SFT and legacy.workload.precompute_ref is False


def test_a_file_saved_with_the_three_way_all_reduce_reads_its_null_as_on():
    # comparison files saved while the own all-reduce was a three-way choice wrote null for "the engine's default",
    # which is on; the job itself takes only on or off
    from advisor.core.job.job import Job

    doc = Comparison(model=ModelRef(imported_path="/m", arch=ARCH), builds=two()).model_dump(mode="json")
    doc["workload"]["custom_all_reduce"] = None
    assert Comparison.model_validate(doc).workload.custom_all_reduce is True
    doc["workload"]["custom_all_reduce"] = False
    assert Comparison.model_validate(doc).workload.custom_all_reduce is False
    with pytest.raises(ValidationError):
        Job.model_validate({"custom_all_reduce": None})
