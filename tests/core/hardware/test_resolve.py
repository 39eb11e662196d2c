"""Resolving catalog machines: one GPU record per physical GPU, parts looked up, cards-only builds on plain PCIe or their baseboard."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import (
    IncompleteRecord,
    RecordKind,
    UnknownRecord,
    dangling_references,
    gpu_build,
    resolve_build,
    resolve_cloud,
    resolve_system,
    with_record,
)
from advisor.core.hardware.records import Build, PrebuiltSystem
from tests.catalog_fixtures import (
    build_data,
    system_data,
)
from tests.hardware_builders import GPU_A, MIXED


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


def test_more_modules_than_one_board_holds_are_refused_as_machines():
    # Past its board's NVLink domain a module has nowhere to go in the same machine (no PCIe card form): 16 H100 SXM
    # are two HGX machines, which a user builds as 8 GPUs × 2 machines with a network card; it is not 16 GPUs on PCIe
    # staged through host memory. A module beside other cards is refused the same way.
    from advisor.core.hardware.catalog import board_limit, boards_needed, mixed_build
    from advisor.storage.catalog_store import load_catalog

    shipped = load_catalog().catalog
    h100, a100 = shipped.gpus["h100-sxm"], shipped.gpus["a100-80gb-sxm"]
    assert board_limit(h100, 8) == "" and board_limit(a100, 16) == ""  # HGX A100 16-GPU: one domain
    assert boards_needed(h100, 8) is None and boards_needed(h100, 12) == (8, 2) and boards_needed(a100, 40) == (16, 3)
    assert board_limit(h100, 16) == ("one NVSwitch board holds at most 8 H100 SXM 80GB: 16 of them are 2 machines "
                                     "of 8 joined by a network")
    assert board_limit(shipped.gpus["mi300x"], 12).startswith("one Infinity Fabric board holds at most 8")
    assert board_limit(shipped.gpus["rtx-4090"], 20) == ""  # a PCIe card: slots are the platform's question
    with pytest.raises(ValueError, match="at most 8 H100 SXM"):
        gpu_build(shipped, "h100-sxm", 16)
    with pytest.raises(ValueError, match="module on its own baseboard"):
        mixed_build(shipped, ["h100-sxm", "rtx-4090"])
    assert mixed_build(shipped, ["rtx-3090", "rtx-4090"]).gpu_count == 2
    assert mixed_build(shipped, ["h100-sxm"] * 2).topology.nvswitch  # one card twice: its own board, as gpu_build


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


def test_a_builds_host_cpu_mark_comes_from_its_cpu_part_or_its_cloud_instance():
    from advisor.core.hardware.catalog import gpu_build, resolve_build, resolve_cloud
    from advisor.storage.catalog_store import load_catalog

    catalog = load_catalog().catalog
    t4 = resolve_cloud(catalog, "gcp-n1-nvidia-tesla-t4")
    assert t4.host_single_thread_mark == catalog.cloud["gcp-n1-nvidia-tesla-t4"].cpu_single_thread_mark == 1637
    with_cpu = [b for b in catalog.builds.values() if b.parts is not None and b.parts.cpu == "amd-ryzen-9-5950x"]
    for build in with_cpu:
        assert resolve_build(catalog, build).host_single_thread_mark == 3470
    assert gpu_build(catalog, "rtx-4090", 1).host_single_thread_mark is None  # cards only: the CPU is not known
