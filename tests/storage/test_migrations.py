"""Schema migrations: pure steps, and a user file backed up before it is rewritten."""

import json

import pytest

from advisor.storage import migrations
from advisor.storage.catalog_store import load_catalog
from advisor.storage.migrations import MigrationError, migrate
from tests.catalog_fixtures import gpu_data, small_shipped, write


def v0_gpu(gid="old"):
    data = gpu_data(gid)
    data["schema_version"] = 0
    return data


def test_v0_becomes_v1():
    data, start = migrate(v0_gpu())
    assert start == 0 and data["schema_version"] == 1


def test_missing_version_is_v0():
    data = gpu_data()
    del data["schema_version"]
    assert migrate(data)[1] == 0


@pytest.mark.parametrize(("version", "match"), [(2, "newer"), (-1, "not a version"), ("1", "integer"), (True, "integer")])
def test_bad_versions_are_refused(version, match):
    with pytest.raises(MigrationError, match=match):
        migrate({**gpu_data(), "schema_version": version})


@pytest.fixture
def dirs(tmp_path):
    return small_shipped(tmp_path / "shipped"), tmp_path / "user"


def test_fake_v0_user_file_is_backed_up_then_migrated(dirs, monkeypatch):
    """A made-up v0 layout (``memory_gb`` instead of ``memory_gib``) exercises the machinery."""
    shipped, user = dirs

    def fake_v0_to_v1(data):
        data = dict(data)
        data["memory_gib"] = data.pop("memory_gb")
        return data

    monkeypatch.setitem(migrations.MIGRATIONS, 0, fake_v0_to_v1)
    old = v0_gpu()
    old["memory_gb"] = old.pop("memory_gib")
    path = write(user, "gpu", old)
    raw = path.read_bytes()

    result = load_catalog(shipped, user)
    assert result.problems == [] and result.catalog.gpus["old"].memory_gib == 24
    assert path.with_name("old.json.v0.bak").read_bytes() == raw
    migrated = json.loads(path.read_text())
    assert migrated["schema_version"] == 1 and "memory_gb" not in migrated
    # a second load finds nothing to migrate and changes nothing
    before = path.read_bytes()
    assert load_catalog(shipped, user).problems == [] and path.read_bytes() == before


def test_migration_that_does_not_validate_writes_nothing(dirs):
    shipped, user = dirs
    broken = {**v0_gpu(), "memory_gib": -5}
    path = write(user, "gpu", broken)
    raw = path.read_bytes()
    result = load_catalog(shipped, user)
    assert [p.field for p in result.problems] == ["memory_gib"]
    assert path.read_bytes() == raw and not path.with_name("old.json.v0.bak").exists()


def test_newer_file_is_reported_and_untouched(dirs):
    shipped, user = dirs
    path = write(user, "gpu", {**gpu_data("future"), "schema_version": 7})
    raw = path.read_bytes()
    [problem] = load_catalog(shipped, user).problems
    assert problem.field == "schema_version" and "newer" in problem.message and path.read_bytes() == raw


def test_shipped_files_are_migrated_in_memory_only(tmp_path):
    shipped = small_shipped(tmp_path / "shipped")
    path = write(shipped, "gpu", v0_gpu("legacy"))
    raw = path.read_bytes()
    assert "legacy" in load_catalog(shipped, tmp_path / "user").catalog.gpus
    assert path.read_bytes() == raw and not path.with_name("legacy.json.v0.bak").exists()
