"""The H20 is an NVLink 4 part (900 GB/s per GPU; catalog/gpus/h20.json names its source): several H20 run
on one NVSwitch board, as the Qwen3 speed benchmark's 8-GPU tensor-parallel SGLang rows ran."""

from advisor.core.hardware.catalog import gpu_build
from advisor.core.hardware.interconnect import LinkKind, bottleneck_link
from advisor.storage.catalog_store import load_catalog


def test_eight_h20_share_an_nvswitch_board():
    catalog = load_catalog().catalog
    g = catalog.gpus["h20"]
    assert g.nvlink is not None and g.nvlink.total_gb_per_s_per_gpu == 900 and g.nvlink.max_gpus == 8
    assert bottleneck_link(gpu_build(catalog, "h20", 8), 8).kind is LinkKind.NVSWITCH
