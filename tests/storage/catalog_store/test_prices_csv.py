"""``catalog prices import``: dated prices from a CSV file, all rows or none, bad rows by line (issue 18)."""

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.core.hardware.catalog import RecordKind
from advisor.storage.catalog_store import load_catalog
from advisor.storage.catalog_store.prices_csv import MAX_CSV_BYTES, PriceImportError, import_prices
from tests.catalog_fixtures import small_shipped

HEADER = "id,kind,usd,date,source_url\n"


@pytest.fixture
def dirs(tmp_path):
    return small_shipped(tmp_path / "shipped"), tmp_path / "user"


def gpu_id(shipped):
    return sorted(load_catalog(shipped, shipped / ".none").catalog.gpus)[0]


def write(tmp_path, text, name="p.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_good_rows_are_added_to_the_user_catalog(dirs, tmp_path):
    shipped, user = dirs
    gid = gpu_id(shipped)
    path = write(tmp_path, HEADER + f"{gid},used,700,2026-03-01,https://example.org/sold\n"
                                    f"{gid},new,999,2026-03-02,https://example.org/shop\n")
    report = import_prices(path, shipped_dir=shipped, user_dir=user)
    assert (report.added, report.records) == (2, [(RecordKind.GPU, gid)])
    prices = load_catalog(shipped, user).catalog.gpus[gid].prices
    assert {(p.kind.value, p.usd) for p in prices} >= {("used", 700.0), ("street_new", 999.0)}
    assert import_prices(path, shipped_dir=shipped, user_dir=user).unchanged == 2  # a repeat adds nothing


@pytest.mark.parametrize("row, message", [
    ("{gid},new,abc,2026-01-01,https://e.org", ":3: usd 'abc' is not a number"),
    ("{gid},new,5,01/02/2026,https://e.org", ":3: date '01/02/2026' is not YYYY-MM-DD"),
    ("{gid},new,5,2999-01-01,https://e.org", ":3: date 2999-01-01 is in the future"),
    ("{gid},sold,5,2026-01-01,https://e.org", ":3: kind 'sold' is not new, used or hourly"),
    ("nope,new,5,2026-01-01,https://e.org", ":3: no gpu or part or system or platform with id 'nope'"),
    ("{gid},hourly,5,2026-01-01,https://e.org", ":3: no cloud with id"),
    ("{gid},new,-5,2026-01-01,https://e.org", ":3: usd: "),
    ("{gid},new,5,2026-01-01,not a url", ":3: source: "),
    ("{gid},new,5,2026-01-01", ":3: 4 fields where the header has 5"),
])
def test_a_bad_row_is_named_by_line_and_nothing_is_applied(dirs, tmp_path, row, message):
    shipped, user = dirs
    gid = gpu_id(shipped)
    path = write(tmp_path, HEADER + f"{gid},used,700,2026-03-01,https://example.org/ok\n" + row.format(gid=gid) + "\n")
    with pytest.raises(PriceImportError) as err:
        import_prices(path, shipped_dir=shipped, user_dir=user)
    assert len(err.value.problems) == 1 and message in err.value.problems[0]
    assert "\n" not in err.value.problems[0]
    assert not (user / "gpus").exists()  # the good row on line 2 was not applied either


@pytest.mark.parametrize("text, message", [("", ":1: empty file"), ("id,kind,usd\n", "lacks date, source_url"),
                                           (HEADER, "no price rows"), ("id,kind,usd,date,source_url,x\n", "'x'")])
def test_bad_headers(dirs, tmp_path, text, message):
    shipped, user = dirs
    with pytest.raises(PriceImportError, match=message):
        import_prices(write(tmp_path, text), shipped_dir=shipped, user_dir=user)


def test_size_is_checked_before_reading_and_a_folder_is_refused(dirs, tmp_path):
    shipped, user = dirs
    big = write(tmp_path, HEADER + "x" * (MAX_CSV_BYTES + 1))
    with pytest.raises(PriceImportError, match="limit"):
        import_prices(big, shipped_dir=shipped, user_dir=user)
    with pytest.raises(PriceImportError, match="folder"):
        import_prices(tmp_path, shipped_dir=shipped, user_dir=user)


_cell = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.lists(_cell, min_size=0, max_size=7), max_size=6), header=st.booleans())
def test_fuzzed_csv_imports_or_fails_cleanly_fast_and_leaves_the_file(dirs, tmp_path, rows, header):
    shipped, user = dirs
    text = (HEADER if header else "") + "\n".join(",".join(r) for r in rows)
    path = write(tmp_path, text, "fuzz.csv")
    before = path.read_bytes()
    start = time.monotonic()
    try:
        import_prices(path, shipped_dir=shipped, user_dir=user, dry_run=True)
    except PriceImportError as exc:
        assert exc.problems and all("\n" not in p for p in exc.problems)
    assert time.monotonic() - start < 2
    assert path.read_bytes() == before
    assert not (user / "gpus").exists()
