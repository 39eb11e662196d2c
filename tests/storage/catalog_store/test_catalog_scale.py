"""A large user catalog loads as each file would alone (the loader lists, reads, parses and
collects garbage differently for speed; none of it may change a result)."""

from __future__ import annotations

import gc
import json
import os
import random
from pathlib import Path

import pytest

from advisor.core.hardware.catalog import RecordKind
from advisor.core.hardware.records import Gpu
from advisor.storage.catalog_store import load_catalog, read_json, record_files
from advisor.storage.catalog_store import reading
from advisor.storage.safe_read import read_bytes_limited
from tests.catalog_fixtures import gpu_data, price

N = 10_000


def _varied(i: int, rng: random.Random) -> dict:
    """A valid GPU record of its own: memory, power, vendor, segment and prices vary."""
    gib = rng.choice([8, 12, 16, 24, 32, 48, 80, 96, 141, 192])
    prices = [price(rng.choice(["street_new", "used", "launch_msrp"]), round(rng.uniform(100, 30_000), 2),
                    f"202{rng.randrange(6)}-0{rng.randrange(1, 10)}-1{rng.randrange(10)}") for _ in range(rng.randrange(4))]
    return gpu_data(f"card-{i:05d}", vendor=rng.choice(["Acme", "Bolt", "Core"]), memory_gib=gib,
                    memory_gb_marketing=gib, tdp_w=rng.randrange(75, 1000), prices=prices,
                    segment=rng.choice(["consumer", "workstation", "datacenter"]), notes=f"made-up card {i}")


@pytest.fixture(scope="module")
def big_user(tmp_path_factory) -> Path:
    """A user catalog of N GPU records and nothing else."""
    root = tmp_path_factory.mktemp("big") / "user"
    folder = root / "gpus"
    folder.mkdir(parents=True)
    rng = random.Random(20)
    for i in range(N):
        (folder / f"card-{i:05d}.json").write_text(json.dumps(_varied(i, rng)), encoding="utf-8")
    return root


def test_ten_thousand_records_load_as_each_file_validates_alone(shipped, big_user):
    assert N >= reading.FREEZE_AT_FILES and gc.isenabled()  # the large load: collector paused, then frozen
    result = load_catalog(shipped, big_user, migrate_user_files=False)
    assert gc.isenabled()
    alone = {p.stem: Gpu.model_validate(json.loads(p.read_text(encoding="utf-8")))
             for p in sorted((big_user / "gpus").iterdir())}
    assert result.problems == []
    assert len(alone) == N and dict(result.catalog.user.gpus) == alone
    assert {k for k in RecordKind if result.catalog.user.of(k)} == {RecordKind.GPU}
    assert list(result.catalog.gpus)[:3] == ["card-00000", "card-00001", "card-00002"]


def test_the_collector_is_as_it_was_after_a_load(shipped, big_user, tmp_path):
    load_catalog(shipped, tmp_path / "empty", migrate_user_files=False)
    assert gc.isenabled()
    gc.disable()
    try:
        load_catalog(shipped, big_user, migrate_user_files=False)
        assert not gc.isenabled()  # a caller that turned it off keeps it off
    finally:
        gc.enable()


def test_problems_keep_their_order_across_kinds(shipped, user):
    """A kind folder that is a file is reported where its kind comes, among the other kinds' problems."""
    (user / "gpus").mkdir(parents=True)
    (user / "gpus" / "bad.json").write_text("{", encoding="utf-8")
    (user / "builds").write_text("not a folder", encoding="utf-8")
    (user / "cloud").mkdir()
    (user / "cloud" / "bad.json").write_text("[]", encoding="utf-8")
    problems = load_catalog(shipped, user).problems
    assert [p.path for p in problems] == [user / "gpus" / "bad.json", user / "builds", user / "cloud" / "bad.json"]


def test_record_files_are_the_sorted_glob(tmp_path):
    names = ["b.json", "a.json", "A.json", "z.JSON", ".tmp-a.json", "c.json.bak", "d.txt", "é.json", "10.json", "9.json"]
    for name in names:
        (tmp_path / name).write_text("{}", encoding="utf-8")
    (tmp_path / "folder.json").mkdir()  # listed, and refused when read, as before
    expected = sorted(p for p in tmp_path.glob("*.json") if not p.name.startswith("."))
    assert record_files(tmp_path) == expected and tmp_path / "folder.json" in expected
    assert record_files(tmp_path / "absent") == [] and record_files(tmp_path / "a.json") == []


TEXTS = ['{"a": 1, "a": 2}', '{"x": NaN, "y": -Infinity}', '{"big": 123456789012345678901234567890}', '[1e400, -0.0, 0.1]',
         '"\\ud800"', '"a\tb"', '\ufeff{}', '01', '[1,]', '{"a": 1} x', "{'a': 1}", "[" * 300 + "]" * 300,
         "[" * 100_000 + "]" * 100_000, '"\\u0000 \u2028"', '', '   ', '{"a": {"b": [true, false, null]}}']


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_json_is_read_as_json_loads_reads_it(tmp_path, text):
    """The faster parser's result, or its refusal's message, is json.loads's own."""
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    data, problem = read_json(path)
    try:
        expected = json.loads(text)
    except json.JSONDecodeError as exc:
        assert data is None and problem.message == f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
    except RecursionError:
        assert data is None and problem.message == "JSON nested too deeply"
    else:
        assert problem is None and json.dumps(data) == json.dumps(expected)


def test_a_listed_file_reads_as_the_general_reader_reads_it(shipped, tmp_path):
    """Bytes, and refusals in the general reader's words (a file over the limit)."""
    from advisor.storage.catalog_store.files import listed_files, read_json_bytes

    folder = tmp_path / "gpus"
    folder.mkdir()
    (folder / "ok.json").write_text(json.dumps(gpu_data("ok")), encoding="utf-8")
    (folder / "large.json").write_bytes(b" " * 2_000 + b"{}")
    for path, plain in listed_files(folder):
        assert plain
        fast = read_json_bytes(path, 1_000, listed_regular=True)
        slow = read_json_bytes(path, 1_000)
        assert fast == slow
        if path.name == "ok.json":
            assert fast[2] == read_bytes_limited(path, 1_000) == path.read_bytes()
        else:
            assert fast[2] is None and "limit" in fast[1].message


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_linked_record_is_not_taken_for_a_plain_file(tmp_path):
    from advisor.storage.catalog_store.files import listed_files

    target = tmp_path / "elsewhere.json"
    target.write_text("{}", encoding="utf-8")
    (tmp_path / "gpus").mkdir()
    os.symlink(target, tmp_path / "gpus" / "link.json")
    assert listed_files(tmp_path / "gpus") == [(tmp_path / "gpus" / "link.json", False)]


def test_user_bytes_are_the_files_as_loaded(shipped, user):
    """keep_user_bytes: each user file's bytes (a migrated one as migrated; an unreadable one None)."""
    folder = user / "gpus"
    folder.mkdir(parents=True)
    (folder / "new.json").write_text(json.dumps(gpu_data("new")), encoding="utf-8")
    old = {k: v for k, v in gpu_data("old").items() if k != "schema_version"}  # version 0: migrated on load
    (folder / "old.json").write_text(json.dumps(old), encoding="utf-8")
    (folder / "bad.json").write_bytes(b"\xff")
    (folder / "dir.json").mkdir()
    result = load_catalog(shipped, user, keep_user_bytes=True)
    assert set(result.catalog.user.gpus) == {"new", "old"}
    assert result.user_bytes == {folder / "bad.json": b"\xff", folder / "dir.json": None,
                                 folder / "new.json": (folder / "new.json").read_bytes(),
                                 folder / "old.json": (folder / "old.json").read_bytes()}
    assert b'"schema_version": 1' in result.user_bytes[folder / "old.json"]
    assert load_catalog(shipped, user).user_bytes == {}


def test_a_reload_sees_an_edit_that_keeps_the_size_and_the_time(shipped, user):
    """Unchanged files are not validated again on a reload; any changed byte is seen."""
    folder = user / "gpus"
    folder.mkdir(parents=True)
    path = folder / "card.json"
    path.write_text(json.dumps(gpu_data("card", memory_gib=24, memory_gb_marketing=24)), encoding="utf-8")
    bad = folder / "bad.json"
    bad.write_text(json.dumps(gpu_data("bad", memory_gib=-1)), encoding="utf-8")
    first = load_catalog(shipped, user)
    stat = path.stat()
    path.write_text(json.dumps(gpu_data("card", memory_gib=32, memory_gb_marketing=32)), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns
    second = load_catalog(shipped, user)
    assert first.catalog.gpus["card"].memory_gib == 24 and second.catalog.gpus["card"].memory_gib == 32
    assert second.problems == first.problems and [p.path for p in second.problems] == [bad]
    assert load_catalog(shipped, user).catalog == second.catalog
