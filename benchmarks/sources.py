"""Which published sources a fidelity figure may count as held out.

Both fidelity benchmarks (memory: ``benchmarks/fidelity.py``; speed: ``benchmarks/speed_fidelity.py``)
split their rows by whole sources, never by row: the sha256 of the row's ``url`` mod 3 == 0 is held out
(about a third of the sources), the rest is calibration (``hash_split``). A source is decided by its URL
alone, so its part is fixed before any of its rows is scored.

Held out by the hash is not enough to be unseen: earlier sessions printed every row while choosing
mechanisms (benchmarks/README.md). ``SEEN_SOURCES`` (``benchmarks/seen_sources.txt``) lists the sources
whose rows were in view when a mechanism or a constant was chosen; a held-out source listed there is
reported apart ("held-out, seen") and never counts for a held-out target. Only a source held out by the
hash and never seen is "held-out".
"""

from __future__ import annotations

import hashlib
from pathlib import Path

SEEN_FILE = Path(__file__).resolve().parent / "seen_sources.txt"

CALIBRATION = "calibration"
HELD_OUT_SEEN = "held-out, seen"
HELD_OUT = "held-out"
#: The parts in the order the benchmarks print them.
PARTS = (CALIBRATION, HELD_OUT_SEEN, HELD_OUT)


def load_seen(path: Path = SEEN_FILE) -> frozenset[str]:
    """The URLs of ``seen_sources.txt`` (blank lines and '#' comments skipped)."""
    if not path.is_file():
        return frozenset()
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


SEEN_SOURCES = load_seen()


def hash_split(url: str) -> str:
    """'held-out' or 'calibration' by the sha256 of the source's URL (mod 3 == 0: held out)."""
    digest = int(hashlib.sha256(url.strip().encode("utf-8")).hexdigest(), 16)
    return HELD_OUT if digest % 3 == 0 else CALIBRATION


def part_of(url: str, seen: frozenset[str] = SEEN_SOURCES) -> str:
    """CALIBRATION, HELD_OUT_SEEN (held out by the hash, but seen while a mechanism was chosen) or
    HELD_OUT (held out and never seen)."""
    if hash_split(url) == CALIBRATION:
        return CALIBRATION
    return HELD_OUT_SEEN if url.strip() in seen else HELD_OUT
