"""Paths of the recorded outputs in tests/data/probe (each has a .md saying where it came from)."""

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "probe"


def text(name: str) -> str:
    return (DATA / name).read_text()


def load(name: str):
    return json.loads(text(name))
