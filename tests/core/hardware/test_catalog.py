"""Catalog aggregate: overlay rules, pure edits, kind detection, resolving builds."""

import pytest

from advisor.core.hardware.catalog import (
    Catalog,
    CatalogLayer,
    IncompleteRecord,
    Origin,
    RecordKind,
    UnknownRecord,
    dangling_references,
    detect_kind,
    gpu_build,
    hide,
    reset_to_shipped,
    resolve_build,
    resolve_cloud,
    resolve_system,
    unhide,
    with_record,
    without_record,
)
from advisor.core.hardware.records import Build, CloudInstance, Gpu, PrebuiltSystem
from advisor.core.model.arch import ModelArch
from tests.catalog_fixtures import (
    bridged_gpu_data,
    build_data,
    catalog_of,
    cloud_data,
    gpu_data,
    model_data,
    system_data,
)

GPU_A = Gpu.model_validate(gpu_data("card-a"))
GPU_NV = Gpu.model_validate(bridged_gpu_data("card-nv"))
BUILD = Build.model_validate(build_data("two-a"))
MIXED = Build.model_validate(build_data("mixed", gpus=[{"gpu_id": "card-nv", "count": 1}, {"gpu_id": "card-a", "count": 2}]))
SYSTEM = PrebuiltSystem.model_validate(system_data("box"))
CLOUD = CloudInstance.model_validate(cloud_data("inst"))
MODEL = ModelArch.model_validate(model_data("tiny"))


@pytest.fixture
def catalog() -> Catalog:
    return catalog_of(GPU_A, GPU_NV, BUILD, MIXED, SYSTEM, CLOUD, MODEL)


def test_effective_view_holds_every_kind(catalog):
    assert set(catalog.gpus) == {"card-a", "card-nv"}
    assert set(catalog.builds) == {"two-a", "mixed"}
    assert list(catalog.systems) == ["box"] and list(catalog.cloud) == ["inst"] and list(catalog.models) == ["tiny"]
    assert len(catalog) == 7
    assert catalog.origin(RecordKind.GPU, "card-a") is Origin.SHIPPED


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


def test_resolve_build_expands_counts_in_slot_order(catalog):
    resolved = resolve_build(catalog, "mixed")
    assert [g.id for g in resolved.gpus] == ["card-nv", "card-a", "card-a"]
    assert resolved.build == MIXED and resolved.name == MIXED.name


def test_resolve_build_names_the_missing_gpu(catalog):
    dangling = Build.model_validate(build_data("ghost", gpu="no-such-card"))
    with pytest.raises(UnknownRecord, match="no gpu with id 'no-such-card'.*build 'ghost'"):
        resolve_build(catalog, dangling)
    assert dangling_references(with_record(catalog, dangling)) == [
        (RecordKind.BUILD, "ghost", "gpus.0.gpu_id", "names GPU 'no-such-card', which is not in the catalog")
    ]


def test_resolve_system_and_cloud(catalog):
    assert resolve_system(catalog, "box").name == "Acme Box"
    cloud = resolve_cloud(catalog, "inst")
    assert cloud.gpu_count == 2 and cloud.host_ram_gib == 128 and cloud.name == "Cloudy g.2x"


def test_system_without_verified_build_cannot_resolve(catalog):
    bare = PrebuiltSystem.model_validate(system_data("bare", build=None))
    with pytest.raises(IncompleteRecord, match="bare"):
        resolve_system(catalog, bare)


def test_gpu_build_is_plain_pcie_even_for_a_bridged_card(catalog):
    pair = gpu_build(catalog, "card-nv", 2)
    assert pair.topology.nvlink_pairs == () and pair.name.endswith("(PCIe)")
    assert pair.topology.p2p is False  # p2p_supported unknown counts as off
    assert pair.topology.pcie_lanes_per_gpu == (16, 16) and pair.topology.pcie_gen == 4
    p2p_card = with_record(catalog, GPU_A.model_copy(update={"id": "dc", "p2p_supported": True}))
    assert gpu_build(p2p_card, "dc", 4).topology.p2p is True


def test_several_sxm_modules_are_one_nvswitch_board():
    # An SXM module has no PCIe card form: several of them are GPUs of one HGX board, all-to-all on
    # NVLink through NVSwitch, up to the record's NVLink domain (the speed benchmark's rows run on it
    # as a user builds it, GPU x count).
    from advisor.core.hardware.catalog import on_baseboard
    from advisor.storage.catalog_store import load_catalog

    shipped = load_catalog().catalog
    eight = gpu_build(shipped, "h100-sxm", 8)
    assert eight.topology.nvswitch and eight.name.endswith("(NVSwitch board)")
    assert not gpu_build(shipped, "h100-sxm", 1).topology.nvswitch
    h100 = shipped.gpus["h100-sxm"]
    assert on_baseboard(h100, 8) and not on_baseboard(h100, 9)  # past its 8-GPU domain: no board
    assert not on_baseboard(shipped.gpus["v100-sxm2-32gb"], 4)  # no NVLink record: not assumed
    pcie = gpu_build(shipped, "h100-pcie", 2)
    assert not pcie.topology.nvswitch and pcie.name.endswith("(PCIe)")


def test_several_oam_modules_are_one_infinity_fabric_board_and_say_so():
    # AMD's OAM modules (MI300X) sit on a UBB, all-to-all on Infinity Fabric: a board like HGX's, but
    # the window, the CLI and the PDF must not call AMD's link NVSwitch.
    from advisor.core.hardware.interconnect import LinkKind, link
    from advisor.core.job.choices import Mode, Parallel
    from advisor.core.job.planned import Plan
    from advisor.core.plan.words import plan_words
    from advisor.storage.catalog_store import load_catalog

    shipped = load_catalog().catalog
    eight = gpu_build(shipped, "mi300x", 8)
    assert eight.topology.nvswitch and eight.name.endswith("(Infinity Fabric board)")
    assert link(eight, 0, 5).kind is LinkKind.INFINITY_FABRIC
    words = plan_words(Plan(n_gpus=8, parallel=Parallel.TP), eight, Mode.INFERENCE)
    assert "over Infinity Fabric" in words and "NVSwitch" not in words
    h100 = gpu_build(shipped, "h100-sxm", 8)
    assert link(h100, 0, 5).kind is LinkKind.NVSWITCH


def test_gpu_build_rejects_bad_count(catalog):
    with pytest.raises(ValueError, match="count"):
        gpu_build(catalog, "card-a", 0)
    with pytest.raises(UnknownRecord):
        gpu_build(catalog, "nope", 1)


def test_model_copy_recomputes_the_effective_view(catalog):
    copied = catalog.model_copy(update={"hidden": {RecordKind.GPU: frozenset({"card-a"})}})
    assert "card-a" not in copied.gpus and "card-a" in catalog.gpus
