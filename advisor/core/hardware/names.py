"""Record names as people read them: the brand once, never a note about the vendor."""

from __future__ import annotations

import re

from advisor.core.hardware.builds import CloudInstance
from advisor.core.hardware.catalog_model import Catalog


#: Vendor words that are no brand to put before a name: no vendor is known, or nobody sells it whole.
NOT_A_BRAND = ("unknown", "build-your-own")


def display_name(vendor: str, name: str) -> str:
    """A record's name as people read it: the brand once, never a note about the vendor.

    Catalog vendors carry notes ("NVIDIA (HGX boards via OEMs)", "unknown (named in seed
    document)") and names often start with the brand already ("Apple Mac Studio"); a name on screen says each once.
    """
    brand = vendor_brand(vendor)
    if not brand or name.lower().startswith(brand.lower()):
        return name
    return f"{brand} {name}"


def vendor_brand(vendor: str) -> str:
    """The brand a catalog vendor names ("NVIDIA (HGX boards via OEMs)" → "NVIDIA"); "" when it names none
    ("unknown (named in seed document)", "(build-your-own)")."""
    brand = re.split(r"[ (;,]", vendor.strip(), maxsplit=1)[0] if vendor.strip() else ""
    return "" if brand.lower() in NOT_A_BRAND else brand


def cloud_display_name(catalog: Catalog, cloud: CloudInstance) -> str:
    """An instance as people read it, the GPU by name (not id): "AWS p5.48xlarge · 8× NVIDIA H100 SXM 80GB"."""
    gpu = catalog.gpus.get(cloud.gpu_id)
    gpu_name = display_name(gpu.vendor, gpu.name) if gpu is not None else "unknown GPU"
    return f"{cloud.provider} {cloud.instance_type} · {cloud.gpu_count}× {gpu_name}"

