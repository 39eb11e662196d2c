"""Where shipped data lives: ``catalog/`` and ``resources/``, in every way the app runs.

- installed wheel: hatchling force-includes them as ``advisor/catalog`` and ``advisor/resources``;
- PyInstaller bundle: the spec puts them at the same place under ``sys._MEIPASS``;
- checkout / editable install: the repository's top-level folders beside ``advisor/``.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _candidates(name: str) -> list[Path]:
    found = [_PACKAGE_DIR / name]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        found.append(Path(bundle) / "advisor" / name)
    found.append(_PACKAGE_DIR.parent / name)  # checkout / editable install
    return found


@cache
def shipped_dir(name: str) -> Path:
    """The folder of shipped data ``name`` ('catalog' or 'resources')."""
    for path in _candidates(name):
        if path.is_dir():
            return path
    tried = ", ".join(str(p) for p in _candidates(name))
    raise FileNotFoundError(f"shipped data folder {name!r} not found (looked in {tried})")


def catalog_dir() -> Path:
    return shipped_dir("catalog")


def resources_dir() -> Path:
    return shipped_dir("resources")
