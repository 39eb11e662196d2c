"""Which published sources a fidelity figure may count as held out.

Both fidelity benchmarks (memory: ``benchmarks/fidelity.py``; speed: ``benchmarks/speed_fidelity.py``)
split their rows by whole sources, never by row: the sha256 of the row's ``url`` mod 3 == 0 is held out
(about a third of the sources), the rest is calibration (``hash_split``). A source is decided by its URL
alone, so its part is fixed before any of its rows is scored.

One file of a GitHub repository is one source whatever commit its URL pins (``source_key``): a table committed
again and again is one campaign — one harness, one machine (fms-acceleration re-ran its whole A100 benchmark and
committed each run over the last). Every version takes the part of the first of its versions the tables hold
(``anchor``: the first row of ``speeds.csv``, then ``measurements.csv``, in their append-only order), so that a part,
once fixed, does not change when another version is added, and no held-out version is judged with a constant
fitted on another. A file counts as seen when any of its versions was.

Held out by the hash is not enough to be unseen: earlier sessions printed every row while choosing
mechanisms (benchmarks/README.md). ``SEEN_SOURCES`` (``benchmarks/seen_sources.txt``) lists the sources
whose rows were in view when a mechanism or a constant was chosen; a held-out source listed there is
reported apart ("held-out, seen") and never counts for a held-out target. Only a source held out by the
hash and never seen is "held-out".
"""

from __future__ import annotations

import csv
import hashlib
import re
from functools import lru_cache
from pathlib import Path

SEEN_FILE = Path(__file__).resolve().parent / "seen_sources.txt"
#: The tables whose row order decides each file's first version (``anchor``).
TABLES = tuple(Path(__file__).resolve().parent.parent / "tests" / "data" / n for n in ("speeds.csv", "measurements.csv"))

CALIBRATION = "calibration"
HELD_OUT_SEEN = "held-out, seen"
HELD_OUT = "held-out"
#: The parts in the order the benchmarks print them.
PARTS = (CALIBRATION, HELD_OUT_SEEN, HELD_OUT)


_PINNED_FILE = re.compile(r"https://github\.com/([^/]+/[^/]+)/(?:blob|raw)/[0-9a-fA-F]{7,40}/(.+)")


def source_key(url: str) -> str:
    """The source a URL names: ``owner/repo:path`` for a file of a GitHub repository pinned at a commit (each
    commit of that file is a version of one source), else the URL itself (an issue, a pull request, a page)."""
    url = url.strip()
    m = _PINNED_FILE.fullmatch(url)
    return f"{m.group(1)}:{m.group(2)}" if m else url


@lru_cache(maxsize=1)
def _first_versions() -> dict[str, str]:
    """``source_key`` -> the URL of its first row in ``TABLES`` (in their order)."""
    first: dict[str, str] = {}
    for table in TABLES:
        if table.is_file():
            with table.open(encoding="utf-8", newline="") as f:
                for row in csv.DictReader(f):
                    url = (row.get("url") or "").strip()
                    if url:
                        first.setdefault(source_key(url), url)
    return first


def anchor(url: str) -> str:
    """The version of ``url``'s source whose URL decides its part: its first in the tables (itself if absent)."""
    return _first_versions().get(source_key(url), url.strip())


def load_seen(path: Path = SEEN_FILE) -> frozenset[str]:
    """The URLs of ``seen_sources.txt`` (blank lines and '#' comments skipped)."""
    if not path.is_file():
        return frozenset()
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


SEEN_SOURCES = load_seen()


def hash_split(url: str) -> str:
    """'held-out' or 'calibration' by the sha256 of the source's URL (mod 3 == 0: held out) — of its first
    version's URL (``anchor``) where the tables hold several versions of one file."""
    digest = int(hashlib.sha256(anchor(url).encode("utf-8")).hexdigest(), 16)
    return HELD_OUT if digest % 3 == 0 else CALIBRATION


def part_of(url: str, seen: frozenset[str] = SEEN_SOURCES) -> str:
    """CALIBRATION, HELD_OUT_SEEN (held out by the hash, but seen while a mechanism was chosen: this version or
    another of the same file) or HELD_OUT (held out and never seen)."""
    if hash_split(url) == CALIBRATION:
        return CALIBRATION
    return HELD_OUT_SEEN if source_key(url) in _seen_keys(seen) else HELD_OUT


@lru_cache(maxsize=4)
def _seen_keys(seen: frozenset[str]) -> frozenset[str]:
    return frozenset(source_key(u) for u in seen)
