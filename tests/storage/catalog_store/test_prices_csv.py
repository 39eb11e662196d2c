"""``catalog prices import``: dated prices from a CSV file, all rows or none, bad rows by line."""

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


# --- hostile round two: linear in rows, the lock only for the write, odd amounts and dates ------------------

from advisor.storage.catalog_store import prices_csv  # noqa: E402
from advisor.storage.catalog_store.prices_csv import MAX_ROWS  # noqa: E402
from advisor.storage.locking import LockTimeout, locked  # noqa: E402
from tests.catalog_fixtures import gpu_data  # noqa: E402
from tests.catalog_fixtures import write as write_record  # noqa: E402
from tests.hostile import files  # noqa: E402


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    shipped = small_shipped(tmp_path_factory.mktemp("shipped"))
    for i in range(200):
        write_record(shipped, "gpu", gpu_data(f"m{i:03d}"))
    return shipped


_odd = st.one_of(
    st.sampled_from(["0", "-5", "-0", "0.001", "1e-320", "1e400", "inf", "nan", "1_000", "0x10", "$", "", "٣",
                     "1e9", "100000001", "1" + "0" * 5000]),
    st.sampled_from(["2999-01-01", "9999-12-31", "0001-01-01", "1999-12-31", "2026-13-01", "2026-W01-1", "20260101"]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 300), bad_at=st.one_of(st.none(), st.integers(0, 299)), odd=_odd,
       in_date=st.booleans())
def test_a_generated_price_file_is_imported_whole_or_not_at_all(many, tmp_path_factory, n, bad_at, odd, in_date):
    user = tmp_path_factory.mktemp("user")
    rows = [[f"m{i % 200:03d}", "used", str(300 + i), f"2026-01-{1 + i % 28:02d}", f"https://example.org/{i}"]
            for i in range(n)]
    if bad_at is not None:
        rows[bad_at % n][3 if in_date else 2] = odd
    path = tmp_path_factory.mktemp("csv") / "p.csv"
    path.write_text(HEADER + "\n".join(",".join(r) for r in rows) + "\n")
    start = time.monotonic()
    try:
        report = import_prices(path, shipped_dir=many, user_dir=user)
    except PriceImportError as exc:
        assert exc.problems and all("\n" not in p for p in exc.problems)
        assert files(user) == {}  # nothing written
        assert bad_at is not None and f":{bad_at % n + 2}:" in exc.problems[0]
    else:
        assert report.added == n
        catalog = load_catalog(many, user).catalog
        assert sum(len(catalog.gpus[f"m{i:03d}"].prices) - 2 for i in range(min(n, 200))) == n
    assert time.monotonic() - start < 30


def test_the_catalog_lock_is_free_while_the_rows_are_checked(many, tmp_path, monkeypatch):
    user = tmp_path / "user"
    path = write(tmp_path, HEADER + "m000,used,300,2026-01-01,https://example.org/a\n")
    free = []
    real = prices_csv.parse_rows

    def checking(*args, **kwargs):
        try:
            with locked(user, timeout_s=0.05):  # another process's save, while this import reads and checks
                free.append(True)
        except LockTimeout:
            free.append(False)
        return real(*args, **kwargs)

    monkeypatch.setattr(prices_csv, "parse_rows", checking)
    assert import_prices(path, shipped_dir=many, user_dir=user).added == 1
    assert free == [True]


def test_a_save_meanwhile_is_checked_again_under_the_lock(many, tmp_path, monkeypatch):
    """Another process adds the same price while this import plans: under the lock it is seen as already there."""
    from advisor.core.hardware.records import Gpu
    from advisor.storage.catalog_store import save_record

    user = tmp_path / "user"
    path = write(tmp_path, HEADER + "m000,used,300,2026-01-01,https://example.org/a\n")
    real = prices_csv._updated

    def meanwhile(catalog, rows, where, report):
        out = real(catalog, rows, where, report)
        if not (user / "gpus" / "m000.json").exists():
            save_record(Gpu.model_validate(out[(RecordKind.GPU, "m000")].model_dump()), user_dir=user)
        return out

    monkeypatch.setattr(prices_csv, "_updated", meanwhile)
    report = import_prices(path, shipped_dir=many, user_dir=user)
    assert (report.added, report.unchanged) == (0, 1)
    assert len(load_catalog(many, user).catalog.gpus["m000"].prices) == 3


def test_the_documented_maximum_of_rows_imports(many, tmp_path):
    rows = [f"m{i % 200:03d},used,{300 + i},2025-{1 + i % 12:02d}-{1 + i % 28:02d},https://example.org/{i}"
            for i in range(MAX_ROWS)]
    path = write(tmp_path, HEADER + "\n".join(rows) + "\n")
    start = time.monotonic()
    assert import_prices(path, shipped_dir=many, user_dir=tmp_path / "user").added == MAX_ROWS
    assert time.monotonic() - start < 60  # 62 s for 4,000 rows before (quadratic); ~2 s here


def test_a_record_grown_past_the_file_limit_is_refused(many, tmp_path):
    rows = [f"m000,used,{300 + i},2025-{1 + i % 12:02d}-{1 + i % 28:02d},https://e.org/{i}"
            for i in range(MAX_ROWS)]
    path = write(tmp_path, HEADER + "\n".join(rows) + "\n")
    with pytest.raises(PriceImportError, match="over the 1,000,000 a record file may have"):
        import_prices(path, shipped_dir=many, user_dir=tmp_path / "user")
    assert not (tmp_path / "user" / "gpus").exists()
