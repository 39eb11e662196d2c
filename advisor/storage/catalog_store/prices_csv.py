"""``catalog prices import FILE.csv``: dated prices into the user's catalog, all rows or none.

The file has a header row naming at least ``id, kind, usd, date, source_url`` (any order;
``region`` and ``note`` are optional). ``kind`` is ``new`` (a street price), ``used`` or
``hourly`` (a cloud instance's on-demand price; ``region`` says where, else "not stated").
``id`` names a GPU, platform part or prebuilt system (new/used) or a cloud instance
(hourly); ``gpu:rtx-3090`` picks the kind where several share an id.

The file is read bounded (regular files only, at most ``MAX_CSV_BYTES``); every row is
checked against the catalog as it is under the lock, the changed records are validated,
and only when every row is good are the records written, each atomically (previous file
kept as ``.bak``); a write that fails puts back the files already written. A bad row is one
line: ``FILE:LINE: message``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from advisor.core.hardware.catalog import Catalog, CatalogRecord, RecordKind
from advisor.core.hardware.records import CloudPrice, PriceKind, PricePoint
from advisor.storage.atomic import atomic_write_text
from advisor.storage.catalog_store.problems import CatalogStoreError
from advisor.storage.catalog_store.reading import load_catalog
from advisor.storage.catalog_store.records import record_json
from advisor.storage.catalog_store.writing import _refuse_if_invalid, _root, user_record_path
from advisor.storage.locking import locked
from advisor.storage.safe_read import FileRefused, read_bytes_limited

MAX_CSV_BYTES = 1_048_576  # ~10,000 rows: far more than a price update holds
MAX_ROWS = 10_000
REQUIRED = ("id", "kind", "usd", "date", "source_url")
OPTIONAL = ("region", "note")
_PRICED_KINDS = (RecordKind.GPU, RecordKind.PART, RecordKind.SYSTEM, RecordKind.PLATFORM)
_KIND_WORDS = {"new": PriceKind.STREET_NEW, "used": PriceKind.USED}


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
    try:
        text = read_bytes_limited(path, MAX_CSV_BYTES).decode("utf-8-sig")
    except FileRefused as exc:
        raise PriceImportError([f"{where}: {exc.strerror}"]) from None
    except UnicodeDecodeError:
        raise PriceImportError([f"{where}: not UTF-8 text"]) from None
    except OSError as exc:
        raise PriceImportError([f"{where}: cannot read: {exc.strerror or exc}"]) from None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
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
        rows = []
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
    except csv.Error as exc:
        raise PriceImportError([f"{where}:{reader.line_num}: not CSV: {exc}"]) from None
    if not rows:
        raise PriceImportError([f"{where}: no price rows after the header"])
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
    try:
        usd = float(row["usd"].replace(",", "").lstrip("$"))
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


def _updated(catalog: Catalog, rows: list[PriceRow], where: str, report: PriceImport) -> dict:
    """(kind, id) -> the record with the new prices appended (validated); an exact repeat is skipped."""
    out: dict[tuple[RecordKind, str], CatalogRecord] = {}
    bad = []
    for row in rows:
        key = (row.kind, row.record_id)
        record = out.get(key, catalog.get(row.kind, row.record_id))
        if row.price in record.prices:
            report.unchanged += 1
            continue
        data = record.model_dump(mode="json")
        data["prices"] = [*data["prices"], row.price.model_dump(mode="json")]
        try:
            out[key] = type(record).model_validate(data)
        except ValidationError as exc:
            bad.append(f"{where}:{row.line}: {row.record_id}: {_short(exc)}")
            continue
        report.added += 1
    if bad:
        raise PriceImportError(bad)
    return out


def import_prices(path: Path, *, shipped_dir: Path | None = None, user_dir: Path | None = None,
                  dry_run: bool = False) -> PriceImport:
    """Add every row's price to the user catalog, or none (``PriceImportError`` lists the bad rows)."""
    rows = read_rows(path)
    root = _root(user_dir)
    report = PriceImport()
    with locked(root):
        catalog = load_catalog(shipped_dir, root, migrate_user_files=False).catalog
        good, bad = parse_rows(catalog, rows, str(path))
        if bad:
            raise PriceImportError(bad)
        changed = _updated(catalog, good, str(path), report)
        targets = {key: user_record_path(key[0], key[1], root) for key in changed}
        for (kind, _), target in targets.items():
            _refuse_if_invalid(target, kind, force=False)
        report.records = sorted(changed, key=lambda k: (k[0].value, k[1]))
        if not dry_run:
            _write_all({targets[k]: record_json(r) for k, r in changed.items()})
    return report


def _write_all(files: dict[Path, str]) -> None:
    """Write every file atomically; when one fails, put back those already written."""
    before = {p: (p.read_text("utf-8") if p.is_file() else None) for p in files}
    done: list[Path] = []
    try:
        for path, text in files.items():
            atomic_write_text(path, text)
            done.append(path)
    except OSError as exc:
        for path in done:
            old = before[path]
            try:
                if old is None:
                    path.unlink()
                else:
                    atomic_write_text(path, old, backup=False)
            except OSError:
                pass
        raise CatalogStoreError(f"could not save the prices ({exc.strerror or exc}); nothing was imported") from exc
