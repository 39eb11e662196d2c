"""``catalog prices import FILE.csv``: dated prices into the user's catalog, all rows or none.

The file has a header row naming at least ``id, kind, usd, date, source_url`` (any order;
``region`` and ``note`` are optional). ``kind`` is ``new`` (a street price), ``used`` or
``hourly`` (a cloud instance's on-demand price; ``region`` says where, else "not stated").
``id`` names a GPU, platform part or prebuilt system (new/used) or a cloud instance
(hourly); ``gpu:rtx-3090`` picks the kind where several share an id.

The file is read bounded (regular files only, at most ``MAX_CSV_BYTES``); every row is
checked against the catalog, each changed record is validated once with all its new prices
(time linear in the rows: 10,000 rows, the most a file holds, take about a second), and only
when every row is good are the records written. The catalog lock is held only for the write:
under it, each record the import changes is read again, and if another process changed one
meanwhile the rows are checked again against what is there now. The records are written as
one journaled step (``storage.journal``): a kill at any moment leaves every price or none.
A bad row is one line: ``FILE:LINE: message``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from advisor.core import Catalog, CatalogRecord, CloudPrice, PriceKind, PricePoint, RecordKind
from advisor.storage import journal
from advisor.storage.catalog_store.files import MAX_FILE_BYTES
from advisor.storage.catalog_store.hidden import HIDDEN_FILE, parse_hidden_file
from advisor.storage.catalog_store.problems import CatalogStoreError
from advisor.storage.catalog_store.reading import load_catalog
from advisor.storage.catalog_store.records import read_record_file, record_json
from advisor.storage.catalog_store.writing import _refuse_if_invalid, _root, user_record_path
from advisor.storage.safe_read import FileRefused, read_bytes_limited

MAX_CSV_BYTES = 1_048_576  # ~10,000 rows: far more than a price update holds
MAX_ROWS = 10_000
REQUIRED = ("id", "kind", "usd", "date", "source_url")
OPTIONAL = ("region", "note")
_PRICED_KINDS = (RecordKind.GPU, RecordKind.PART, RecordKind.SYSTEM, RecordKind.PLATFORM)
_KIND_WORDS = {"new": PriceKind.STREET_NEW, "used": PriceKind.USED}
#: No price of the hardware this app knows predates this (the first CUDA GPU, the GeForce 8800, is 2006).
EARLIEST_PRICE_DATE = dt.date(2000, 1, 1)


class PriceImportError(CatalogStoreError):
    """The file could not be imported; ``problems`` holds one line per bad row (nothing written)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems[0] if len(problems) == 1 else f"{len(problems)} bad rows")
        self.problems = problems


@dataclass(frozen=True)
class PriceRow:
    line: int
    kind: RecordKind
    record_id: str
    price: PricePoint | CloudPrice


@dataclass
class PriceImport:
    added: int = 0
    unchanged: int = 0
    records: list[tuple[RecordKind, str]] = field(default_factory=list)


def read_rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    """(line number, row) for each data row; ``PriceImportError`` for an unreadable file or header."""
    where = str(path)
    reader = csv.reader(io.StringIO(_read_text(path, where), newline=""), strict=True)
    try:
        names = _header_names(reader, where)
        rows = _data_rows(reader, names, where)
    except csv.Error as exc:
        raise PriceImportError([f"{where}:{reader.line_num}: not CSV: {exc}"]) from None
    if not rows:
        raise PriceImportError([f"{where}: no price rows after the header"])
    return rows


def _read_text(path: Path, where: str) -> str:
    try:
        return read_bytes_limited(path, MAX_CSV_BYTES).decode("utf-8-sig")
    except FileRefused as exc:
        raise PriceImportError([f"{where}: {exc.strerror}"]) from None
    except UnicodeDecodeError:
        raise PriceImportError([f"{where}: not UTF-8 text"]) from None
    except OSError as exc:
        raise PriceImportError([f"{where}: cannot read: {exc.strerror or exc}"]) from None


def _header_names(reader: Iterator[list[str]], where: str) -> list[str]:
    """The header's column names, lower case; each required one once, no unknown one."""
    header = next(reader, None)
    if header is None:
        raise PriceImportError([f"{where}:1: empty file; the header row is {','.join(REQUIRED)}"])
    names = [h.strip().lower() for h in header]
    lacking = [n for n in REQUIRED if n not in names]
    unknown = [n for n in names if n not in REQUIRED + OPTIONAL]
    if lacking or unknown or len(set(names)) != len(names):
        why = (f"lacks {', '.join(lacking)}" if lacking else
               f"has unknown column(s) {', '.join(map(repr, unknown))}" if unknown else "repeats a column")
        raise PriceImportError([f"{where}:1: the header {why}; expected {','.join(REQUIRED)}[,region][,note]"])
    return names


def _data_rows(reader, names: list[str], where: str) -> list[tuple[int, dict[str, str]]]:
    """Each non-blank row by column name, or with ``__error__`` where its field count is wrong."""
    rows: list[tuple[int, dict[str, str]]] = []
    for values in reader:
        if not any(v.strip() for v in values):
            continue
        line = reader.line_num
        if len(rows) >= MAX_ROWS:
            raise PriceImportError([f"{where}:{line}: more than {MAX_ROWS:,} rows"])
        if len(values) != len(names):
            rows.append((line, {"__error__": f"{len(values)} fields where the header has {len(names)}"}))
            continue
        rows.append((line, {n: v.strip() for n, v in zip(names, values)}))
    return rows


def _find(catalog: Catalog, ref: str, hourly: bool) -> tuple[RecordKind, CatalogRecord]:
    if ":" in ref:
        word, rid = ref.split(":", 1)
        if word not in RecordKind.__members__.values():
            raise ValueError(f"{word!r} is not a record kind ({', '.join(k.value for k in RecordKind)})")
        kinds = (RecordKind(word),)
    else:
        rid, kinds = ref, (RecordKind.CLOUD,) if hourly else _PRICED_KINDS
    if hourly and kinds != (RecordKind.CLOUD,):
        raise ValueError("an hourly price belongs to a cloud instance")
    if not hourly and kinds[0] not in _PRICED_KINDS:
        raise ValueError(f"a {kinds[0].value} has no new or used price")
    found = [(k, catalog.of(k)[rid]) for k in kinds if rid in catalog.of(k)]
    if not found:
        raise ValueError(f"no {' or '.join(k.value for k in kinds)} with id {rid!r} in the catalog")
    if len(found) > 1:
        raise ValueError(f"{rid!r} is the id of several kinds ({', '.join(k.value for k, _ in found)}): "
                         f"write {found[0][0].value}:{rid}")
    return found[0]


def _price(row: dict[str, str], hourly: bool) -> PricePoint | CloudPrice:
    try:
        day = dt.date.fromisoformat(row["date"])
    except ValueError:
        raise ValueError(f"date {row['date']!r} is not YYYY-MM-DD") from None
    if day > dt.date.today():
        raise ValueError(f"date {day} is in the future")
    if day < EARLIEST_PRICE_DATE:
        raise ValueError(f"date {day} is before {EARLIEST_PRICE_DATE.year}: no price of this hardware is that old")
    text = row["usd"].replace(",", "").removeprefix("$")
    # A plain decimal amount: '1_000', '0x10', 'nan' and 'inf' parse as floats but are no price.
    if not text or len(text) > 20 or not text.isascii() or not all(c.isdigit() or c in ".eE+-" for c in text):
        raise ValueError(f"usd {row['usd']!r} is not a number")
    try:
        usd = float(text)  # its range (more than zero, at most a rack's price) is the price record's
    except ValueError:
        raise ValueError(f"usd {row['usd']!r} is not a number") from None
    note = row.get("note", "")
    if hourly:
        return CloudPrice(usd_per_hour=usd, region=row.get("region") or "not stated", date_seen=day,
                          source=row["source_url"], note=note)
    return PricePoint(kind=_KIND_WORDS[row["kind"].lower()], usd=usd, date_seen=day, source=row["source_url"],
                      note=note)


def _short(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    return f"{loc}: {err['msg']}" if loc else err["msg"]


def parse_rows(catalog: Catalog, rows: list[tuple[int, dict[str, str]]], where: str) -> tuple[list[PriceRow], list[str]]:
    """Each row checked against ``catalog``: the good rows and one line per bad one."""
    good, bad = [], []
    for line, row in rows:
        try:
            if "__error__" in row:
                raise ValueError(row["__error__"])
            word = row["kind"].lower()
            if word not in ("new", "used", "hourly"):
                raise ValueError(f"kind {row['kind']!r} is not new, used or hourly")
            kind, record = _find(catalog, row["id"], word == "hourly")
            good.append(PriceRow(line, kind, record.id, _price(row, word == "hourly")))
        except ValidationError as exc:
            bad.append(f"{where}:{line}: {_short(exc)}")
        except ValueError as exc:
            bad.append(f"{where}:{line}: {exc}")
    return good, bad


def _price_key(price: PricePoint | CloudPrice) -> str:
    return price.model_dump_json()


def _updated(catalog: Catalog, rows: list[PriceRow], where: str, report: PriceImport) -> dict:
    """(kind, id) -> the record with its new prices appended, validated once per record (time linear in
    the rows: validating the whole record again for each row was quadratic); an exact repeat is skipped."""
    grouped: dict[tuple[RecordKind, str], list[PriceRow]] = {}
    for row in rows:
        grouped.setdefault((row.kind, row.record_id), []).append(row)
    out: dict[tuple[RecordKind, str], CatalogRecord] = {}
    bad = []
    for key, group in grouped.items():
        record = catalog.get(*key)
        seen = {_price_key(p) for p in record.prices}
        new = []
        for row in group:
            price_key = _price_key(row.price)
            if price_key in seen:
                report.unchanged += 1
                continue
            seen.add(price_key)
            new.append(row)
        if not new:
            continue
        data = record.model_dump(mode="json")
        data["prices"] = [*data["prices"], *(row.price.model_dump(mode="json") for row in new)]
        try:
            updated = type(record).model_validate(data)
        except ValidationError as exc:
            index = exc.errors()[0]["loc"][1] if exc.errors()[0]["loc"][:1] == ("prices",) else None
            row = new[index - len(record.prices)] if isinstance(index, int) and index >= len(record.prices) else new[0]
            bad.append(f"{where}:{row.line}: {row.record_id}: {_short(exc)}")
            continue
        size = len(record_json(updated).encode("utf-8"))
        if size > MAX_FILE_BYTES:  # it would be refused when read: the record would be lost to every reader
            bad.append(f"{where}:{new[0].line}: {key[1]}: {len(updated.prices):,} prices make its file "
                       f"{size:,} bytes, over the {MAX_FILE_BYTES:,} a record file may have")
            continue
        out[key] = updated
        report.added += len(new)
    if bad:
        raise PriceImportError(bad)
    return out


@dataclass
class _Plan:
    report: PriceImport
    records: dict[tuple[RecordKind, str], CatalogRecord]
    #: What each changed record was in the user's catalog when planned (None: not there) and whether it was
    #: hidden: under the lock, a difference means another process changed it meanwhile.
    seen: dict[tuple[RecordKind, str], tuple[CatalogRecord | None, bool]]


def _plan(path: Path, rows: list[tuple[int, dict[str, str]]], shipped_dir: Path | None, root: Path) -> _Plan:
    catalog = load_catalog(shipped_dir, root, migrate_user_files=False).catalog
    good, bad = parse_rows(catalog, rows, str(path))
    if bad:
        raise PriceImportError(bad)
    report = PriceImport()
    changed = _updated(catalog, good, str(path), report)
    report.records = sorted(changed, key=lambda k: (k[0].value, k[1]))
    seen = {key: (catalog.user.of(key[0]).get(key[1]), key[1] in catalog.hidden_ids(key[0])) for key in changed}
    return _Plan(report, changed, seen)


def _changed_meanwhile(plan: _Plan, root: Path) -> bool:
    hidden, _ = parse_hidden_file(root / HIDDEN_FILE)
    for (kind, rid), (record, was_hidden) in plan.seen.items():
        target = user_record_path(kind, rid, root)
        now = read_record_file(target, kind).record if target.exists() else None
        if now != record or (rid in hidden.get(kind, frozenset())) != was_hidden:
            return True
    return False


def import_prices(path: Path, *, shipped_dir: Path | None = None, user_dir: Path | None = None,
                  dry_run: bool = False) -> PriceImport:
    """Add every row's price to the user catalog, or none (``PriceImportError`` lists the bad rows)."""
    rows = read_rows(path)
    root = _root(user_dir)
    plan = _plan(path, rows, shipped_dir, root)  # the reading, checking and merging: no lock held
    if dry_run:
        return plan.report
    with journal.catalog_lock(root):
        if _changed_meanwhile(plan, root):  # another process saved one of these records: check against it
            plan = _plan(path, rows, shipped_dir, root)
        targets = {key: user_record_path(key[0], key[1], root) for key in plan.records}
        for (kind, _), target in targets.items():
            _refuse_if_invalid(target, kind, force=False)
        try:
            journal.commit(root, {targets[k]: record_json(r).encode("utf-8") for k, r in plan.records.items()})
        except OSError as exc:
            raise CatalogStoreError(f"could not save the prices ({exc.strerror or exc}); nothing was imported") from exc
    return plan.report
