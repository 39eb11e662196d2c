"""Fixtures of the catalog store tests: a small shipped catalog and an empty user folder."""

from pathlib import Path

import pytest

from tests.catalog_fixtures import small_shipped

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def shipped(tmp_path) -> Path:
    return small_shipped(tmp_path / "shipped")


@pytest.fixture
def user(tmp_path) -> Path:
    return tmp_path / "user"
