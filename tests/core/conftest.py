"""Fixtures shared by the core tests. The hardware tests get a made-up catalog instead
(``tests/core/hardware/conftest.py``); a test module that defines its own ``catalog`` overrides both."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import Catalog
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    """The shipped catalog (with the user's layer), loaded once a test module."""
    return load_catalog().catalog
