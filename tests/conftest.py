"""Test-wide setup: Qt offscreen, every user directory redirected to tmp_path."""

from __future__ import annotations

import os

# With no display and no platform set, Qt aborts the whole pytest process (exit 134).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from hypothesis import settings

# CI runs the same examples every time (a red CI must be reproducible); locally, random.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path, monkeypatch):
    """A developer's own catalog and settings are never touched by a test."""
    home = tmp_path / "advisor-home"
    monkeypatch.setenv("LLM_ADVISOR_HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    yield home
