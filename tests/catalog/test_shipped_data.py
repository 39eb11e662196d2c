"""The shipped catalog (catalog/gpus, systems, cloud, builds): valid, sourced, complete, and
consistent with the shared reference tables it was converted from.

The reference CSVs live in ``../shared/reference`` beside the clone (CI has it there too); the
spot checks against them skip with a reason when that folder is absent.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from advisor.core.hardware.records import Build, CloudInstance, Gpu, PrebuiltSystem

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "catalog"
REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference"

KINDS = {"gpus": Gpu, "systems": PrebuiltSystem, "cloud": CloudInstance, "builds": Build}
MIN_COUNTS = {"gpus": 70, "systems": 12, "cloud": 20}


def _files(kind: str) -> list[Path]:
    return sorted((CATALOG / kind).glob("*.json"))


def _load(kind: str) -> dict[str, object]:
    model = KINDS[kind]
    return {p.stem: model.model_validate_json(p.read_text(encoding="utf-8")) for p in _files(kind)}


ALL_FILES = [(kind, p) for kind in KINDS for p in _files(kind)]


@pytest.fixture(scope="module")
def catalog() -> dict[str, dict[str, object]]:
    return {kind: _load(kind) for kind in KINDS}


# --- every file -------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "path"), ALL_FILES, ids=[f"{k}/{p.name}" for k, p in ALL_FILES])
def test_file_validates_and_is_named_by_its_id(kind: str, path: Path) -> None:
    record = KINDS[kind].model_validate_json(path.read_text(encoding="utf-8"))
    assert record.id == path.stem
    assert len(record.sources) >= 1
    # Parenthetical notes belong in `notes`, never inside a URL.
    for url in record.sources:
        assert not re.search(r"[\s()]", str(url)), f"{path.name}: source URL with a note in it: {url}"


def test_counts_meet_the_targets(catalog) -> None:
    for kind, minimum in MIN_COUNTS.items():
        assert len(catalog[kind]) >= minimum, f"{kind}: {len(catalog[kind])} < {minimum}"
    assert len(catalog["builds"]) >= 9


def test_ids_are_unique_across_kinds(catalog) -> None:
    seen: dict[str, str] = {}
    for kind, records in catalog.items():
        for rid in records:
            assert rid not in seen, f"id {rid!r} is used by {seen[rid]} and {kind}"
            seen[rid] = kind


def test_cloud_instances_have_distinct_names(loaded) -> None:
    # the window's build list and the PDF name an instance by provider and type: two alike (one T4 and two T4s on
    # Google Cloud's N1) would be indistinguishable there
    from advisor.core.hardware.resolve import resolve_cloud

    names = [resolve_cloud(loaded, cid).name for cid in loaded.cloud]
    assert len(set(names)) == len(names), sorted(n for n in names if names.count(n) > 1)


def test_every_price_is_dated_and_sourced(catalog) -> None:
    def check(where: str, price) -> None:
        assert price.date_seen is not None, where
        assert str(price.source).startswith("http"), where
        if getattr(price, "usd_low", None) is not None:
            assert price.usd_low <= price.usd <= price.usd_high, where

    for kind in ("gpus", "systems"):
        for rid, rec in catalog[kind].items():
            for p in rec.prices:
                check(f"{kind}/{rid}", p)
    for rid, rec in catalog["cloud"].items():
        for p in rec.prices:
            check(f"cloud/{rid}", p)
            assert p.usd_per_hour > 0


def test_no_undated_snapshot_price_slipped_in(catalog) -> None:
    # The reference marks pre-June-2025 AWS snapshot prices as undated; they must not appear
    # as dated prices (AWS cut P4/P5 prices in June 2025: p5.48xlarge was $98.32/h before).
    for rec in catalog["cloud"].values():
        for p in rec.prices:
            assert p.usd_per_hour not in (98.32, 84.80, 32.7726, 40.96575), rec.id


def test_pci_device_ids_are_well_formed_and_consistent(catalog) -> None:
    for rid, gpu in catalog["gpus"].items():
        for dev in gpu.pci_device_ids:
            assert re.fullmatch(r"0x[0-9a-f]{4}", dev), f"{rid}: {dev}"
    # A few ids read from the PCI ID Repository (pci.ids).
    expected = {"rtx-3090": "0x2204", "rtx-4090": "0x2684", "rtx-5090": "0x2b85", "h100-sxm": "0x2330",
                "a100-80gb-sxm": "0x20b2", "rtx-a6000": "0x2230", "mi300x": "0x74a1", "rx-7900-xtx": "0x744c"}
    for rid, dev in expected.items():
        assert dev in catalog["gpus"][rid].pci_device_ids, rid


# --- references between records ---------------------------------------------------------------


def _all_builds(catalog) -> list[Build]:
    builds = list(catalog["builds"].values())
    builds += [s.build for s in catalog["systems"].values() if s.build is not None]
    return builds


def test_build_and_cloud_gpu_ids_exist(catalog) -> None:
    gpus = catalog["gpus"]
    for b in _all_builds(catalog):
        for g in b.gpus:
            assert g.gpu_id in gpus, f"build {b.id} names unknown GPU {g.gpu_id}"
    for c in catalog["cloud"].values():
        assert c.gpu_id in gpus, f"cloud {c.id} names unknown GPU {c.gpu_id}"


def test_unverified_seed_systems_have_no_build(catalog) -> None:
    for sid in ("mentor-100", "mentor-200", "mentor-300", "mentor-400", "maingear-pro-ai-shodan-64",
                "maingear-pro-ai-shodan-96", "maingear-pro-ai-shodan-192"):
        rec = catalog["systems"][sid]
        assert rec.build is None
        assert "UNVERIFIED" in rec.notes
        assert rec.total_gpu_memory_gb is not None


# --- canonical builds --------------------------------------------------------------------------


def test_canonical_builds(catalog) -> None:
    b = catalog["builds"]
    pair = b["2x-rtx-3090-nvlink"]
    assert [(g.gpu_id, g.count) for g in pair.gpus] == [("rtx-3090", 2)]
    assert pair.topology.nvlink_pairs == ((0, 1),)
    assert pair.topology.pcie_gen == 4 and pair.topology.pcie_lanes_per_gpu in ((16, 16), (8, 8))
    # The bridge must fit the slot spacing the build names.
    nv = catalog["gpus"]["rtx-3090"].nvlink
    assert nv is not None and pair.topology.slot_spacing in nv.bridge_slot_spacings

    x16 = b["2x-rtx-4090-pcie-x16"]
    assert [(g.gpu_id, g.count) for g in x16.gpus] == [("rtx-4090", 2)]
    assert x16.topology.p2p is False and x16.topology.pcie_lanes_per_gpu == (16, 16)
    assert x16.topology.nvlink_pairs == ()
    assert b["2x-rtx-4090-pcie-x8"].topology.pcie_lanes_per_gpu == (8, 8)

    assert b["1x-rtx-5090"].gpu_count == 1 and b["2x-rtx-5090"].gpu_count == 2
    assert b["4x-rtx-3090"].gpu_count == 4
    assert b["1x-rtx-pro-6000"].gpus[0].gpu_id == "rtx-pro-6000-blackwell"
    h100 = b["8x-h100-sxm"]
    assert h100.gpu_count == 8 and h100.topology.nvswitch
    assert b["mac-studio-m3-ultra"].unified_memory
    for build in b.values():
        assert build.name and "×" in build.name or build.unified_memory, build.id


def test_consumer_interconnect_facts(catalog) -> None:
    g = catalog["gpus"]
    nv = g["rtx-3090"].nvlink
    assert nv.total_gb_per_s_per_gpu == 112.5 and nv.max_gpus == 2 and set(nv.bridge_slot_spacings) == {3, 4}
    assert g["rtx-4090"].p2p_supported is False and g["rtx-4090"].nvlink is None
    assert g["rtx-5090"].p2p_supported is False and g["rtx-5090"].nvlink is None
    # GeForce: the bf16 field is the FP32-accumulate rate, FP16-accumulate is twice it.
    for rid in ("rtx-3090", "rtx-3090-ti", "rtx-4090", "rtx-5090"):
        gpu = g[rid]
        assert gpu.fp16_acc16_tflops_dense == pytest.approx(2 * gpu.bf16_tflops_dense, rel=0.01), rid


def test_used_market_bands(catalog) -> None:
    # Dated used-market bands where a source gave one (rtx-a6000: none found).
    for rid in ("rtx-3090", "rtx-3090-ti", "rtx-4090", "a100-80gb-pcie"):
        used = [p for p in catalog["gpus"][rid].prices if p.kind == "used"]
        assert used, rid
        assert all(p.usd_low is not None and p.usd_high is not None for p in used), rid


def test_memory_rule(catalog) -> None:
    g = catalog["gpus"]
    assert (g["h100-sxm"].memory_gib, g["h100-sxm"].memory_gb_marketing) == (80, 80)
    assert (g["b200"].memory_gib, g["b200"].memory_gb_marketing) == (180, 192)
    assert g["l4"].memory_gib == pytest.approx(22888 / 1024, abs=0.01)  # AWS-reported MiB
    assert g["h200-sxm"].memory_gib == 141


# --- every name in the seeds has a record -----------------------------------------------------

# (name as the seed writes it, kind, id, text the record's name/instance type must contain)
SEED_NAMES = [
    # seed 000: GPU memory options
    ("Radeon RX 7900 XT", "gpus", "rx-7900-xt", "7900 XT"),
    ("Radeon RX 7900 XTX", "gpus", "rx-7900-xtx", "7900 XTX"),
    ("Radeon Pro W7800", "gpus", "radeon-pro-w7800", "W7800"),
    ("Radeon Pro W7900", "gpus", "radeon-pro-w7900", "W7900"),
    ("MI300 (128GB)", "gpus", "mi300a", "MI300A"),
    ("MI300 (192GB)", "gpus", "mi300x", "MI300X"),
    ("RTX A4500", "gpus", "rtx-a4500", "A4500"),
    ("RTX 4000 Ada", "gpus", "rtx-4000-ada", "RTX 4000 Ada"),
    ("RTX 4090", "gpus", "rtx-4090", "RTX 4090"),
    ("RTX A5000", "gpus", "rtx-a5000", "A5000"),
    ("RTX A5500", "gpus", "rtx-a5500", "A5500"),
    ("RTX 4500 Ada", "gpus", "rtx-4500-ada", "RTX 4500 Ada"),
    ("RTX 5000 Ada", "gpus", "rtx-5000-ada", "RTX 5000 Ada"),
    ("RTX A6000", "gpus", "rtx-a6000", "A6000"),
    ("RTX 6000 Ada", "gpus", "rtx-6000-ada", "RTX 6000 Ada"),
    ("RTX 5880 Ada", "gpus", "rtx-5880-ada", "RTX 5880 Ada"),
    ("H100 (80GB)", "gpus", "h100-sxm", "H100"),
    # seed 000: text
    ("RTX 4080", "gpus", "rtx-4080", "RTX 4080"),
    ("RTX 3090", "gpus", "rtx-3090", "RTX 3090"),
    ("V100", "gpus", "v100-sxm2-32gb", "V100"),
    ("DGX-2", "systems", "nvidia-dgx-2", "DGX-2"),
    ("LLM Superstation", "systems", "lamini-llm-superstation", "Superstation"),
    # seed 000: workstation table
    ("Mentor-100", "systems", "mentor-100", "Mentor-100"),
    ("Mentor-200", "systems", "mentor-200", "Mentor-200"),
    ("Mentor-300", "systems", "mentor-300", "Mentor-300"),
    ("Mentor-400", "systems", "mentor-400", "Mentor-400"),
    ("MAINGEAR SHODAN 64", "systems", "maingear-pro-ai-shodan-64", "SHODAN 64"),
    ("MAINGEAR SHODAN 96", "systems", "maingear-pro-ai-shodan-96", "SHODAN 96"),
    ("MAINGEAR SHODAN 192", "systems", "maingear-pro-ai-shodan-192", "SHODAN 192"),
    ("Answer.AI (24GB x 2)", "systems", "answerai-fsdp-qlora-2x24gb", "Answer.AI"),
    # seed 004: data-center table
    ("H200 80GB SXM", "gpus", "h200-sxm", "H200 SXM"),
    ("H200 80GB NVL", "gpus", "h200-nvl", "H200 NVL"),
    ("H100 PCIe", "gpus", "h100-pcie", "H100 PCIe"),
    ("H100 SXM", "gpus", "h100-sxm", "H100 SXM"),
    ("H100 NVL", "gpus", "h100-nvl", "H100 NVL"),
    ("A100 80GB PCIe", "gpus", "a100-80gb-pcie", "A100 80GB PCIe"),
    ("A100 80GB SXM", "gpus", "a100-80gb-sxm", "A100 80GB SXM"),
    ("A100 40GB PCIe", "gpus", "a100-40gb-pcie", "A100 40GB PCIe"),
    ("A100 40GB SXM", "gpus", "a100-40gb-sxm", "A100 40GB SXM"),
    ("L40s", "gpus", "l40s", "L40S"),
    ("L40", "gpus", "l40", "L40"),
    ("L4", "gpus", "l4", "L4"),
    ("A2", "gpus", "a2", "A2"),
    ("A40", "gpus", "a40", "A40"),
    ("A30", "gpus", "a30", "A30"),
    ("A16", "gpus", "a16", "A16"),
    ("A10G", "gpus", "a10g", "A10G"),
    ("A10", "gpus", "a10", "A10"),
    ("T4", "gpus", "t4", "T4"),
    ("RTX A4000", "gpus", "rtx-a4000", "A4000"),
    ("Quadro RTX 8000", "gpus", "quadro-rtx-8000", "Quadro RTX 8000"),
    ("Quadro RTX 6000", "gpus", "quadro-rtx-6000", "Quadro RTX 6000"),
    ("Quadro RTX 5000", "gpus", "quadro-rtx-5000", "Quadro RTX 5000"),
    ("Quadro RTX 4000", "gpus", "quadro-rtx-4000", "Quadro RTX 4000"),
    # seed 004: cloud columns
    ("p5.48xlarge", "cloud", "aws-p5.48xlarge", "p5.48xlarge"),
    ("a3-megagpu-8g", "cloud", "gcp-a3-megagpu-8g", "a3-megagpu-8g"),
    ("NC_A100_v4-series", "cloud", "azure-standard_nc24ads_a100_v4", "NC24ads_A100_v4"),
    ("p4de.24xlarge", "cloud", "aws-p4de.24xlarge", "p4de.24xlarge"),
    ("a2-ultragpu-1g", "cloud", "gcp-a2-ultragpu-1g", "a2-ultragpu-1g"),
    ("p4d.24xlarge", "cloud", "aws-p4d.24xlarge", "p4d.24xlarge"),
    ("a2-highgpu-1g", "cloud", "gcp-a2-highgpu-1g", "a2-highgpu-1g"),
    ("a2-highgpu-16g (seed typo)", "cloud", "gcp-a2-megagpu-16g", "a2-megagpu-16g"),
    ("g6.xlarge", "cloud", "aws-g6.xlarge", "g6.xlarge"),
    ("g6.48xlarge", "cloud", "aws-g6.48xlarge", "g6.48xlarge"),
    ("g2-standard-4", "cloud", "gcp-g2-standard-4", "g2-standard-4"),
    ("g2-standard-96", "cloud", "gcp-g2-standard-96", "g2-standard-96"),
    ("g5.xlarge", "cloud", "aws-g5.xlarge", "g5.xlarge"),
    ("g5.48xlarge", "cloud", "aws-g5.48xlarge", "g5.48xlarge"),
    ("nvidia-tesla-t4", "cloud", "gcp-n1-nvidia-tesla-t4", "nvidia-tesla-t4"),
]

# The current generation buyers weigh (task list), by id.
CURRENT_GENERATION = ["rtx-5090", "rtx-5080", "rtx-pro-6000-blackwell", "b200", "b300", "mi300x", "mi325x", "mi355x",
                      "radeon-ai-pro-r9700", "arc-pro-b60", "gb10-dgx-spark", "apple-m3-ultra-96gb", "apple-m4-max-36gb",
                      "ryzen-ai-max-plus-395"]


@pytest.mark.parametrize(("seed_name", "kind", "rid", "must_contain"), SEED_NAMES, ids=[s[0] for s in SEED_NAMES])
def test_seed_name_is_in_the_catalog(catalog, seed_name: str, kind: str, rid: str, must_contain: str) -> None:
    assert rid in catalog[kind], f"seed name {seed_name!r}: no {kind}/{rid}.json"
    rec = catalog[kind][rid]
    label = rec.instance_type if kind == "cloud" else rec.name
    assert must_contain.lower() in label.lower(), f"{kind}/{rid} is named {label!r}, expected {must_contain!r}"


def test_current_generation_is_present(catalog) -> None:
    missing = [rid for rid in CURRENT_GENERATION if rid not in catalog["gpus"]]
    assert not missing


# --- spot checks against the reference tables -------------------------------------------------


def _reference(name: str) -> list[dict[str, str]]:
    path = REFERENCE / name
    if not path.is_file():
        pytest.skip(f"shared reference table {path} not present (it sits beside the clone in CI)")
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# (gpu id, reference name, Gpu field, reference column)
GPU_SPOTS = [
    ("rtx-3090", "GeForce RTX 3090", "mem_bandwidth_gb_per_s", "mem_bandwidth_gbs"),
    ("rtx-3090", "GeForce RTX 3090", "bf16_tflops_dense", "fp16_bf16_dense_tflops"),
    ("rtx-4090", "GeForce RTX 4090", "bf16_tflops_dense", "fp16_bf16_dense_tflops"),
    ("rtx-5090", "GeForce RTX 5090", "mem_bandwidth_gb_per_s", "mem_bandwidth_gbs"),
    ("h100-sxm", "H100 SXM 80GB", "mem_bandwidth_gb_per_s", "mem_bandwidth_gbs"),
    ("h100-pcie", "H100 PCIe 80GB", "mem_bandwidth_gb_per_s", "mem_bandwidth_gbs"),
    ("h100-sxm", "H100 SXM 80GB", "fp8_tflops_dense", "fp8_dense_tflops"),
    ("a100-80gb-sxm", "A100 80GB SXM", "bf16_tflops_dense", "fp16_bf16_dense_tflops"),
    ("b200", "B200 (HGX B200)", "fp4_tflops_dense", "fp4_dense_tflops"),
    ("mi300x", "Instinct MI300X", "bf16_tflops_dense", "fp16_bf16_dense_tflops"),
    ("rtx-pro-6000-blackwell", "RTX PRO 6000 Blackwell Workstation Edition", "bf16_tflops_dense", "fp16_bf16_dense_tflops"),
    ("l40s", "L40S", "tdp_w", "tdp_w"),
    ("rtx-a6000", "RTX A6000", "memory_gb_marketing", "vram_gb"),
    ("quadro-rtx-5000", "Quadro RTX 5000", "memory_gb_marketing", "vram_gb"),
]


@pytest.mark.parametrize(("rid", "ref_name", "field", "column"), GPU_SPOTS, ids=[f"{s[0]}.{s[2]}" for s in GPU_SPOTS])
def test_gpu_numbers_match_the_reference(catalog, rid: str, ref_name: str, field: str, column: str) -> None:
    row = {r["name"]: r for r in _reference("gpus.csv")}[ref_name]
    assert getattr(catalog["gpus"][rid], field) == pytest.approx(float(row[column]))


def test_rdna4_matrix_peaks_follow_amds_launch_figures(catalog) -> None:
    # The RX 9070 XT's FP16/BF16 matrix peak from AMD's launch figure, 1,557 INT4 TOPS with sparsity (RDNA 4: INT4
    # twice INT8, INT8 twice FP16, sparsity twice dense), and the same Navi 48 as the R9700 at the 9070 XT's 2.97 GHz
    # boost against the R9700's 2.92: the two entries agree within their clocks.
    xt, r9700 = catalog["gpus"]["rx-9070-xt"], catalog["gpus"]["radeon-ai-pro-r9700"]
    assert xt.bf16_tflops_dense == pytest.approx(1557 / 8, abs=0.1)
    assert xt.bf16_tflops_dense / r9700.bf16_tflops_dense == pytest.approx(2.97 / 2.92, rel=0.01)
    assert any("purepc.pl" in str(s) for s in xt.sources)


def test_nvlink_numbers_match_the_reference(catalog) -> None:
    rows = {r["name"]: r for r in _reference("gpus.csv")}
    for rid, name in (("rtx-3090", "GeForce RTX 3090"), ("a100-80gb-sxm", "A100 80GB SXM"), ("h100-sxm", "H100 SXM 80GB")):
        nv = catalog["gpus"][rid].nvlink
        assert nv.total_gb_per_s_per_gpu == pytest.approx(float(rows[name]["nvlink_bw_gbs_per_gpu"]))
        assert nv.max_gpus == int(rows[name]["nvlink_max_gpus"])


@pytest.mark.parametrize(("cid", "instance_type"), [("aws-p5.48xlarge", "p5.48xlarge"), ("gcp-a2-megagpu-16g", "a2-megagpu-16g"),
                                                    ("azure-standard_nc24ads_a100_v4", "Standard_NC24ads_A100_v4"),
                                                    ("runpod-rtx-4090-secure-cloud", "RTX 4090 (Secure Cloud)")])
def test_cloud_prices_match_the_reference(catalog, cid: str, instance_type: str) -> None:
    row = {r["instance_type"]: r for r in _reference("cloud.csv")}[instance_type]
    rec = catalog["cloud"][cid]
    assert rec.gpu_count == int(row["gpu_count"])
    assert rec.prices[0].usd_per_hour == pytest.approx(float(row["on_demand_usd_per_hour"]))
    assert rec.prices[0].date_seen.isoformat() == row["price_date"]


def test_system_memory_matches_the_reference(catalog) -> None:
    rows = {r["name"]: r for r in _reference("systems.csv")}
    for sid, name in (("nvidia-gb200-nvl72", "NVIDIA GB200 NVL72"), ("mentor-400", "Mentor-400"),
                      ("apple-mac-studio-m3-ultra-512gb", "Apple Mac Studio (M3 Ultra, 512 GB max config)")):
        assert catalog["systems"][sid].total_gpu_memory_gb == pytest.approx(float(rows[name]["total_gpu_memory_gb"]))


def test_every_reference_row_was_converted(catalog) -> None:
    """Each reference row has a record carrying its sources (names map by the reference's own name)."""
    gpu_names = {r["name"] for r in _reference("gpus.csv")}
    catalog_names = {g.name for g in catalog["gpus"].values()}
    missing = {n for n in gpu_names - catalog_names if not n.startswith(("M3 Ultra", "M4 Max"))}
    assert not missing  # Apple rows are split into one record per configuration
    system_names = {r["name"] for r in _reference("systems.csv")}
    assert system_names <= {s.name for s in catalog["systems"].values()}
    cloud_types = {r["instance_type"] for r in _reference("cloud.csv")}
    ours = {c.instance_type for c in catalog["cloud"].values()}
    assert {t for t in cloud_types if not t.startswith("n1-")} <= ours


def test_files_are_plain_json_objects() -> None:
    for _, path in ALL_FILES:
        assert isinstance(json.loads(path.read_text(encoding="utf-8")), dict)


def test_catalog_data_checks_find_no_error() -> None:
    """A name against its memory (Tesla V100 PCIe 16GB had 32 GiB, so two "fit" 70B Q4), display
    vendors without origin notes ("unknown (named in seed document)"), every platform tier priced."""
    from advisor.core.hardware.data_checks import Severity, data_problems
    from advisor.storage.catalog_store import load_catalog

    cat = load_catalog(CATALOG, CATALOG / ".no-user").catalog
    errors = [str(p) for p in data_problems(cat) if p.severity is Severity.ERROR]
    assert errors == []
    assert (cat.gpus["v100-pcie-16gb"].memory_gib, cat.gpus["v100-pcie-16gb"].memory_gb_marketing) == (16, 16)


def test_every_system_is_evaluable_or_named_as_not_offered() -> None:
    from advisor.core.hardware.catalog import resolve_system
    from advisor.core.hardware.data_checks import offered_systems, unevaluable_systems
    from advisor.storage.catalog_store import load_catalog

    cat = load_catalog(CATALOG, CATALOG / ".no-user").catalog
    offered, not_offered = offered_systems(cat), {p.record_id for p in unevaluable_systems(cat)}
    assert set(offered) | not_offered == set(cat.systems) and not set(offered) & not_offered
    for sid in offered:
        assert resolve_system(cat, sid).gpus, sid  # each one it offers resolves


PASSMARK_CHART = ("https://github.com/lainbo/cpu-mark/blob/10c6b6b00d94240d16008784089483d6ef650d11/src/assets/"
                  "staticData/cpuSData.json")
#: PassMark's CPU list scraped 2025-11-06, for CPUs launched after the chart above (column 'thread', PassMark's Thread Mark;
#: the 3,966 names in both agree to a median ratio of 1.000).
PASSMARK_LIST_2025 = ("https://github.com/emmausconnect/cpumarks/blob/7f858a21144421472ba8485f549faabf51ddea15/marksdata/"
                      "cpumarks-20251106.150008.csv")
SPARECORES = "https://github.com/SpareCores/sc-inspector-data/blob/804d3c71ddaec2fb0fe443c77b6719bd03a96072/data/"


@pytest.fixture(scope="module")
def loaded():
    """The shipped catalog as the app loads it (parts included)."""
    from advisor.storage.catalog_store import load_catalog

    return load_catalog().catalog


@pytest.mark.parametrize(("part_id", "mark"), [
    # 'mark' of each CPU's entry in PassMark's chart as pinned (cpuSData.json at 10c6b6b0)
    ("amd-epyc-7742", 2161), ("intel-xeon-silver-4210r", 1830), ("amd-ryzen-9-5950x", 3470),
    ("amd-threadripper-pro-5975wx", 3307), ("amd-epyc-9124", 2940), ("amd-epyc-7f52", 2444), ("amd-epyc-74f3", 2940),
    ("amd-epyc-7j13", 2451), ("amd-ryzen-7-5800x3d", 3213), ("amd-epyc-7413", 2365), ("amd-epyc-7543", 2563)])
def test_cpu_parts_carry_passmarks_chart_figure(loaded, part_id: str, mark: int) -> None:
    part = loaded.parts[part_id]
    assert part.single_thread_mark == mark and PASSMARK_CHART in [str(s) for s in part.sources]


@pytest.mark.parametrize(("part_id", "mark"), [
    # 'thread' of each CPU's line in the 2025-11-06 list (cpumarks-20251106.150008.csv at 7f858a21); the Xeons' only or
    # two-socket entries ('[Dual CPU] Intel Xeon Platinum 8470', '[Dual CPU] Intel Xeon Platinum 8358P @ 2.60GHz')
    ("amd-ryzen-5-9600x", 4567), ("amd-ryzen-9-9950x", 4732), ("intel-core-i9-14900k", 4697),
    ("intel-core-ultra-9-285k", 5095), ("intel-xeon-platinum-8470", 2485), ("intel-xeon-platinum-8358p", 2378)])
def test_newer_cpu_parts_carry_passmarks_2025_figure(loaded, part_id: str, mark: int) -> None:
    part = loaded.parts[part_id]
    assert part.single_thread_mark == mark and PASSMARK_LIST_2025 in [str(s) for s in part.sources]


@pytest.mark.parametrize(("cloud_id", "machine", "mark"), [
    # CPU_SINGLETHREAD in SpareCores' PassMark run on that machine type (passmark/stdout at 804d3c71), rounded
    ("gcp-n1-nvidia-tesla-t4", "gcp/n1-standard-4", 1637), ("gcp-n1-nvidia-tesla-t4-x2", "gcp/n1-standard-4", 1637),
    ("aws-p4d.24xlarge", "aws/p4d.24xlarge", 2167),
    ("gcp-a3-highgpu-8g", "gcp/a3-highgpu-8g", 3135), ("azure-standard_nc24ads_a100_v4", "azure/Standard_NC24ads_A100_v4", 2276)])
def test_cloud_instances_carry_the_mark_measured_on_them(loaded, cloud_id: str, machine: str, mark: int) -> None:
    cloud = loaded.cloud[cloud_id]
    assert cloud.cpu_single_thread_mark == mark and cloud.cpu
    assert f"{SPARECORES}{machine}/passmark/stdout" in [str(s) for s in cloud.sources]


def test_every_single_thread_mark_names_its_source(loaded) -> None:
    for part in loaded.parts.values():
        if part.single_thread_mark is not None:
            assert {PASSMARK_CHART, PASSMARK_LIST_2025} & {str(s) for s in part.sources}, part.id
    for cloud in loaded.cloud.values():
        if cloud.cpu_single_thread_mark is not None:
            assert any(str(s).startswith(SPARECORES) and str(s).endswith("/passmark/stdout") for s in cloud.sources), \
                cloud.id
