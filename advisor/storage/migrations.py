"""Schema migrations of catalog files: one small function per version step.

``MIGRATIONS[n]`` turns a version-``n`` dict into a version-``n + 1`` dict (pure; it
never touches files). The store backs a user file up (``<id>.json.v<n>.bak``) before it
writes the migrated version, and never writes when the result fails validation.
Pattern from napari ``src/napari/settings/_migrations.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.core import SCHEMA_VERSION

Data = dict[str, Any]
Migration = Callable[[Data], Data]


class MigrationError(ValueError):
    """A file's version cannot be brought to the current one."""


def _v0_to_v1(data: Data) -> Data:
    """Version 0 = files written before ``schema_version`` existed: same fields, key added."""
    return {**data, "schema_version": 1}


#: from-version → function producing the next version.
MIGRATIONS: dict[int, Migration] = {0: _v0_to_v1}


def file_version(data: Data) -> int:
    """The version a file declares; a file without the key is version 0."""
    version = data.get("schema_version", 0)
    if isinstance(version, bool) or not isinstance(version, int):
        raise MigrationError(f"schema_version must be an integer, not {version!r}")
    return version


def migrate(data: Data, target: int = SCHEMA_VERSION) -> tuple[Data, int]:
    """``data`` brought to ``target``; also returns the version it started from."""
    start = version = file_version(data)
    if version > target:
        raise MigrationError(f"schema_version {version} is newer than this app reads ({target}); update the app")
    if version < 0:
        raise MigrationError(f"schema_version {version} is not a version")
    while version < target:
        step = MIGRATIONS.get(version)
        if step is None:
            raise MigrationError(f"no migration from schema_version {version}")
        data = step(dict(data))
        version += 1
        data["schema_version"] = version
    return data, start
