"""What the winner of a comparison is chosen on: its own module, so that the comparison document
(``comparison.py``) does not load the ranking and the plan search with it; the window's first
paint needs the document, not the search."""

from __future__ import annotations

from enum import StrEnum


class Criterion(StrEnum):
    SPEED = "speed"
    PRICE = "price"
    VALUE = "value"
    #: What an experienced buyer asks: among the machines that run the job at a usable speed, the one that gives
    #: the most speed for its price (``advisor.core.advice.usable``); then the rest.
    BEST = "best"

    @property
    def words(self) -> str:
        return {"speed": "speed", "price": "price", "value": "price per token/s",
                "best": "the most speed for the money at a usable speed"}[self.value]
