"""Fixtures shared by the hardware tests. A test module that defines its own ``catalog`` (the shipped one) overrides this."""

from __future__ import annotations

import pytest

from advisor.core.hardware.catalog import Catalog
from tests.hardware_builders import every_kind_catalog


@pytest.fixture
def catalog() -> Catalog:
    """A small made-up catalog with one record of every kind (``tests.hardware_builders.every_kind_catalog``)."""
    return every_kind_catalog()
