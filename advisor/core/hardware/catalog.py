"""The catalog: one import path for the aggregate, its edits and resolving machines from it.

``catalog_model`` holds the aggregate (shipped records, the user's overlay, hidden shipped ids),
``catalog_edits`` the pure edits and the referential checks, ``resolve`` turns builds, systems
and cloud instances into the machines the estimator takes, ``names`` says records' names as
people read them.
"""

from __future__ import annotations

from advisor.core.hardware.catalog_edits import (
    dangling_references,
    hide,
    reset_to_shipped,
    unhide,
    with_record,
    without_record,
)
from advisor.core.hardware.catalog_model import (
    Catalog,
    CatalogLayer,
    CatalogRecord,
    IncompleteRecord,
    Origin,
    RecordKind,
    UnknownRecord,
    detect_kind,
    kind_of,
)
from advisor.core.hardware.names import NOT_A_BRAND, cloud_display_name, display_name, vendor_brand
from advisor.core.hardware.resolve import (
    board_limit,
    boards_needed,
    gpu_build,
    mixed_build,
    on_baseboard,
    resolve_build,
    resolve_cloud,
    resolve_platform,
    resolve_system,
    with_network,
    with_nodes,
)

__all__ = [
    "NOT_A_BRAND",
    "Catalog",
    "CatalogLayer",
    "CatalogRecord",
    "IncompleteRecord",
    "Origin",
    "RecordKind",
    "UnknownRecord",
    "board_limit",
    "boards_needed",
    "cloud_display_name",
    "dangling_references",
    "detect_kind",
    "display_name",
    "gpu_build",
    "hide",
    "kind_of",
    "mixed_build",
    "on_baseboard",
    "reset_to_shipped",
    "resolve_build",
    "resolve_cloud",
    "resolve_platform",
    "resolve_system",
    "unhide",
    "vendor_brand",
    "with_network",
    "with_nodes",
    "with_record",
    "without_record",
]
