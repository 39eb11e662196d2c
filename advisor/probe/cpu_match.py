"""The host CPU's name, as the system reports it, matched to a catalog CPU part (pure).

Linux reports /proc/cpuinfo's ``model name`` ("AMD Ryzen 9 5950X 16-Core Processor", "Intel(R) Xeon(R)
Silver 4210R CPU @ 2.40GHz"), macOS ``machdep.cpu.brand_string``; a part names the model as its vendor
sells it ("Ryzen 9 5950X"). A part matches when every word of its name is among the reported words and
its name carries a model number (a word of three characters or more with a digit): "Ryzen 9 5950X" is not "Ryzen 9 5950X3D", and a
part named "Xeon" alone matches nothing. Of several parts that match, the one with the most words wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from advisor.core import PartKind, PlatformPart

#: Words a reported name carries that no part name does: trademarks, core counts, "CPU", the clock.
_NOISE = re.compile(r"\((?:r|tm)\)|@.*$|\b\d+-cores?\b|\bcpu\b|\bprocessor\b")


def cpu_words(name: str) -> frozenset[str]:
    """'Intel(R) Xeon(R) Silver 4210R CPU @ 2.40GHz' -> {'intel', 'xeon', 'silver', '4210r'}."""
    return frozenset(w for w in re.split(r"[\s,/]+", _NOISE.sub(" ", name.lower())) if w)


def _model_number(word: str) -> bool:
    """'5950x', '4210r', 'w5-3435x'; not the '9' of 'Ryzen 9' or 'Core Ultra 9'."""
    return len(word) >= 3 and any(c.isdigit() for c in word)


def match_cpu(reported: str | None, parts: Iterable[PlatformPart]) -> PlatformPart | None:
    """The catalog CPU part this reported CPU name is, or None."""
    if not reported:
        return None
    words = cpu_words(reported)
    named = [(len(own), p) for p in parts if p.part is PartKind.CPU
             and (own := cpu_words(p.name)) <= words and any(_model_number(w) for w in own)]
    return max(named, key=lambda found: found[0], default=(0, None))[1]
