"""Loading the shipped catalog + user overlay: problems listed with path, id and field; bad files survive."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.core.hardware.catalog import Origin, RecordKind
from advisor.core.hardware.records import Gpu
from advisor.storage.catalog_store import MAX_FILE_BYTES, load_catalog, save_record, shipped_catalog_date
from tests.catalog_fixtures import build_data, gpu_data, write
from tests.storage.catalog_store.conftest import REPO


def test_small_catalog_loads_every_kind(shipped, user):
    result = load_catalog(shipped, user)
    assert result.problems == []
    assert len(result.catalog) == 7 and set(result.catalog.builds) == {"two-a", "two-nv"}


def test_default_locations_are_shipped_dir_and_user_dir(shipped, monkeypatch):
    monkeypatch.setattr("advisor.storage.shipped.catalog_dir", lambda: shipped)
    save_record(Gpu.model_validate(gpu_data("mine")))
    result = load_catalog()
    assert result.catalog.origin(RecordKind.GPU, "mine") is Origin.USER
    from advisor.storage import paths

    assert (paths.user_catalog_dir() / "gpus" / "mine.json").is_file()


def test_invalid_field_is_reported_with_path_id_and_field(shipped, user):
    bad = write(user, "gpu", gpu_data("bad", memory_gib=-1))
    result = load_catalog(shipped, user)
    assert [(p.path, p.record_id, p.field) for p in result.problems] == [(bad, "bad", "memory_gib")]
    assert "bad" not in result.catalog.gpus and "card-a" in result.catalog.gpus  # the rest loads


def test_id_must_match_file_name(shipped, user):
    path = write(user, "gpu", gpu_data("inner"), name="outer")
    [problem] = load_catalog(shipped, user).problems
    assert (problem.path, problem.field) == (path, "id") and "outer" in problem.message


def test_dangling_gpu_reference_is_a_problem_but_the_build_loads(shipped, user):
    path = write(user, "build", build_data("ghost", gpu="no-card"))
    result = load_catalog(shipped, user)
    assert [(p.path, p.record_id, p.field) for p in result.problems] == [(path, "ghost", "gpus.0.gpu_id")]
    assert "ghost" in result.catalog.builds


def test_temp_and_backup_files_are_ignored(shipped, user):
    folder = user / "gpus"
    folder.mkdir(parents=True)
    (folder / ".card-a.json.abc.tmp").write_text("{half")  # leftover of a killed save
    (folder / ".card-a.json").write_text("{half")  # any dot-file
    (user / "gpus" / "card-a.json.bak").write_text("{not json")
    (user / "gpus" / "card-a.json.v0.bak").write_text("{not json")
    assert load_catalog(shipped, user).problems == []


def test_user_override_wins_and_survives_a_restart(shipped, user):
    save_record(Gpu.model_validate(gpu_data("card-a", name="My own A")), user_dir=user)
    code = textwrap.dedent(f"""
        from pathlib import Path
        from advisor.storage.catalog_store import load_catalog
        r = load_catalog(Path({str(shipped)!r}), Path({str(user)!r}))
        print(r.catalog.gpus["card-a"].name, r.catalog.origin("gpu", "card-a").value, len(r.problems))
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["My", "own", "A", "override", "0"]


def test_missing_shipped_folder_is_a_problem_not_a_crash(tmp_path, user):
    result = load_catalog(tmp_path / "nowhere", user)
    assert len(result.catalog) == 0 and "not found" in result.problems[0].message


def test_oversized_file_is_refused_unread(shipped, user):
    path = write(user, "gpu", " " * (MAX_FILE_BYTES + 1), name="huge")
    [problem] = load_catalog(shipped, user).problems
    assert problem.path == path and "limit" in problem.message


def test_shipped_catalog_date_is_the_newest_price(shipped, tmp_path):
    assert shipped_catalog_date(shipped) == "2026-07-01"  # the cloud price beats the GPU prices
    assert shipped_catalog_date(tmp_path / "nowhere") == "unknown"


def test_shipped_cache_notices_an_edited_file(shipped, user):
    assert load_catalog(shipped, user).catalog.gpus["card-a"].name == "Acme card-a"
    time.sleep(0.01)
    write(shipped, "gpu", gpu_data("card-a", name="Edited name"))
    assert load_catalog(shipped, user).catalog.gpus["card-a"].name == "Edited name"


# --- the real shipped catalog -----------------------------------------------------------------


def test_shipped_catalog_loads_without_problems(user):
    result = load_catalog(user_dir=user)
    assert [str(p) for p in result.problems] == []
    assert len(result.catalog.gpus) > 0


def test_every_shipped_file_declares_its_schema_version():
    from advisor.storage.shipped import catalog_dir

    missing = [str(p) for p in sorted(catalog_dir().glob("*/*.json")) if "schema_version" not in json.loads(p.read_text())]
    assert missing == []


def test_shipped_catalog_is_cached_per_process(user):
    # Load time is a benchmark figure (benchmarks/README.md, "Catalog"), not a timed test;
    # what keeps it fast here is that the shipped part is parsed once per process.
    from advisor.storage import catalog_store

    first = catalog_store.load_catalog(user_dir=user).catalog
    second = catalog_store.load_catalog(user_dir=user).catalog
    assert second.gpus == first.gpus


# --- malformed input never crashes the loader ---------------------------------------------

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True), st.just(0), st.just(-1.0), st.text(max_size=30),
)
json_value = st.recursive(
    json_leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=30,
)
GPU_FIELDS = sorted(gpu_data())


def _assert_clean_load(shipped: Path, user: Path, path: Path, raw: bytes) -> None:
    result = load_catalog(shipped, user, migrate_user_files=False)
    mine = [p for p in result.problems if p.path == path]
    loaded = path.stem in result.catalog.user.gpus
    assert loaded != bool(mine), "either the record loads or it is reported, never both or neither"
    for p in mine:
        assert p.message and "\n" not in str(p)
    assert path.read_bytes() == raw


HYP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@HYP
@given(raw=st.binary(max_size=300))
def test_arbitrary_bytes(shipped, user, raw):
    path = write(user, "gpu", raw, name="fuzz")
    _assert_clean_load(shipped, user, path, raw)


@HYP
@given(value=json_value)
def test_arbitrary_json_values(shipped, user, value):
    raw = json.dumps(value).encode()
    path = write(user, "gpu", raw, name="fuzz")
    _assert_clean_load(shipped, user, path, raw)


@HYP
@given(field=st.sampled_from(GPU_FIELDS), value=json_value)
def test_one_field_of_a_valid_record_replaced(shipped, user, field, value):
    raw = json.dumps({**gpu_data("fuzz"), field: value}).encode()
    path = write(user, "gpu", raw, name="fuzz")
    _assert_clean_load(shipped, user, path, raw)


@HYP
@given(cut=st.integers(min_value=0, max_value=len(json.dumps(gpu_data("fuzz"))) - 1))
def test_truncated_record(shipped, user, cut):
    raw = json.dumps(gpu_data("fuzz")).encode()[:cut]
    path = write(user, "gpu", raw, name="fuzz")
    _assert_clean_load(shipped, user, path, raw)


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested(shipped, user, depth):
    raw = ("[" * depth + "]" * depth).encode()
    path = write(user, "gpu", raw, name="deep")
    _assert_clean_load(shipped, user, path, raw)
    nested = json.dumps({**gpu_data("deep2"), "notes": 0})[:-1] + ', "prices": ' + "[" * 5000 + "]" * 5000 + "}"
    path2 = write(user, "gpu", nested, name="deep2")
    _assert_clean_load(shipped, user, path2, nested.encode())


@pytest.mark.parametrize("value", [math.nan, math.inf, -24.0, 0.0, 1e308, 10**400])
def test_bad_numbers_name_the_field(shipped, user, value):
    raw = json.dumps(gpu_data("num", memory_gib=value)).encode()
    path = write(user, "gpu", raw, name="num")
    result = load_catalog(shipped, user)
    # A field check names the field; the cross-field check (memory_gib vs marketing) says it in words.
    assert any(p.path == path and "memory_gib" in f"{p.field} {p.message}" for p in result.problems)


# --- files that are not what they seem -----------------------------------------------------

posix_only = pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo") or not Path("/dev/zero").exists(),
                                reason="FIFOs and /dev/zero")


@posix_only
def test_a_fifo_in_the_user_catalog_is_a_problem_not_a_hang(shipped, user):
    import os

    (user / "gpus").mkdir(parents=True)
    os.mkfifo(user / "gpus" / "x.json")
    result = load_catalog(shipped, user)
    [problem] = result.problems
    assert problem.path == user / "gpus" / "x.json" and "FIFO" in problem.message
    assert "card-a" in result.catalog.gpus


@posix_only
@pytest.mark.parametrize("name", ["hidden.json", "gpus/x.json"])
def test_a_link_to_dev_zero_is_a_problem_not_a_memory_error(shipped, user, name):
    link = user / name
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to("/dev/zero")
    result = load_catalog(shipped, user)
    [problem] = result.problems
    assert problem.path == link and "character device" in problem.message
    assert link.is_symlink()  # left as it was


def test_a_file_where_a_kind_folder_belongs_is_reported(shipped, user):
    user.mkdir(parents=True)
    (user / "gpus").write_text("{}")
    [problem] = load_catalog(shipped, user).problems
    assert problem.path == user / "gpus" and "is a file" in problem.message


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_a_record_schema_version_must_be_the_integer_1(shipped, user, version):
    path = write(user, "gpu", gpu_data("mine", schema_version=version))
    [problem] = load_catalog(shipped, user).problems
    assert problem.path == path and problem.field == "schema_version"


@pytest.mark.parametrize(("field", "value", "message"), [
    ("tdp_w", 1e308, "between 1 and 10,000 W"),
    ("mem_bandwidth_gb_per_s", 1e-308, "between 1 and 100,000 GB/s"),
    ("bf16_tflops_dense", 1e-308, "between 0.01 and 1,000,000 TFLOP/s"),
    ("prices", [{"kind": "used", "usd": 1e308, "date_seen": "2026-01-01", "source": "https://example.org"}],
     "between 0.01 and 100,000,000 USD"),
])
def test_numbers_outside_physical_ranges_name_the_range(shipped, user, field, value, message):
    path = write(user, "gpu", gpu_data("mine", **{field: value}))
    [problem] = load_catalog(shipped, user).problems
    assert problem.path == path and field in problem.field and message in problem.message
