"""What the winner of a comparison is chosen on: its own module, so that the comparison document
(``comparison.py``) does not load the ranking and the plan search with it; the window's first
paint needs the document, not the search (issue 20)."""

from __future__ import annotations

from enum import StrEnum


class Criterion(StrEnum):
    SPEED = "speed"
    PRICE = "price"
    VALUE = "value"
