"""The orders' passes over found candidates (``advisor.core.advice.catalog_search``): which candidate folds under which,
the Pareto front, and the two passes that keep a speed estimate from deciding what it cannot — fewer GPUs first
within the estimate's own error on value, and a measured machine above a guess that leads on its estimate alone.

Each takes the search's ``Found`` candidates (their price, speed, basis and GPU count) and returns them reordered or
folded; none evaluates anything.
"""

from __future__ import annotations

from dataclasses import replace

from advisor.core.advice.criterion import Criterion
from advisor.core.advice.found import Found
from advisor.core.plan.planner import SPEED_TIE


def _no_better(a: Found, b: Found) -> bool:
    """``a`` is no better than ``b``: no faster (beyond the estimate's own error), no cheaper, no fewer GPUs,
    and no more usable; and ``b`` is better in one of them (or ties on all)."""
    ca, cb = a.candidate, b.candidate
    if ca.rank_usd is None or cb.rank_usd is None or not a.rank_speed or not b.rank_speed:
        return False
    if a.usable and not b.usable:
        return False
    if a.calibrated and not b.calibrated:
        return False  # "no faster" would rest on an extrapolated estimate: a measured machine stays in view
    return (ca.rank_usd >= cb.rank_usd and ca.build.gpu_count >= cb.build.gpu_count
            and a.rank_speed <= b.rank_speed * (1 + SPEED_TIE))


#: Two candidates within 5 % on price per token/s are about as good value (``ranking.CLOSE``, the tie the
#: comparison's sentence uses): a smaller lead is no reason to prefer a guess to a measurement.
VALUE_TIE = 0.05


def _keeps_place(a: Found, b: Found, sort: Criterion) -> bool:
    """Whether extrapolated ``a``, ranked above calibrated ``b``, keeps its place: it must lead ``b`` on the order's
    own terms with its speed counted no higher than ``b``'s — its estimate may sink it, never lift it. On speed that
    leaves price (a tie on speed goes to the cheaper); on value, ``a``'s price over the lower of the two speeds must
    beat ``b``'s price per token/s by more than ``VALUE_TIE``."""
    return _keeps(a.candidate.rank_usd, a.rank_speed, b.candidate.rank_usd, b.rank_speed, sort is Criterion.SPEED)


def _keeps(pa: float | None, sa: float | None, pb: float | None, sb: float | None, on_speed: bool) -> bool:
    if pa is None or pb is None or not sa or not sb:
        return True  # the order already put what it cannot compare last
    if on_speed:
        return pa <= pb
    return pa / min(sa, sb) < (pb / sb) * (1 - VALUE_TIE)


def measured_first(ranked: list[Found], sort: Criterion = Criterion.BEST) -> list[Found]:
    """An extrapolated candidate never outranks a measured one on its speed estimate alone: it keeps a place above a
    calibrated one (as usable as it) only where it would lead even if it were no faster (``_keeps_place``);
    otherwise it moves just below the last such calibrated one (the order is otherwise kept). A buyer offered a
    cheaper card whose speed is a guess and a card whose speed is measured takes the measured one unless the guess
    would win anyway — on price (the speed order), or by more than the value tie at the measured card's speed."""
    on_speed = sort is Criterion.SPEED
    # (calibrated, usable, rank price, rank speed) of each, read once: the pass compares many pairs
    facts = {id(f): (f.calibrated, f.usable, f.candidate.rank_usd, f.rank_speed) for f in ranked}
    out = list(ranked)
    i = 0
    while i < len(out):
        cal, usable, pa, sa = facts[id(out[i])]
        last = None
        if not cal:
            for j in range(len(out) - 1, i, -1):  # the last one it may not stay above
                cal_b, usable_b, pb, sb = facts[id(out[j])]
                if cal_b and usable_b == usable and not _keeps(pa, sa, pb, sb, on_speed):
                    last = j
                    break
        if last is None:
            i += 1
            continue
        out.insert(last, out.pop(i))  # just below that calibrated one; each candidate moves at most once
    return out


def fewer_cards_first(ranked: list[Found]) -> list[Found]:
    """Within the speed estimate's own error (``SPEED_TIE``) on price per token/s, the machine with fewer GPUs comes
    first: a value lead smaller than the estimate's error is no evidence (as on speed, ``_no_better``), and fewer
    cards draw less power, need no risers or second power supply and split the model fewer ways. Each candidate
    moves just below the last one (as usable as it) that has fewer GPUs and a price per token/s within
    ``SPEED_TIE`` of its own; the order is otherwise kept."""
    facts = {id(f): (f.usable, f.candidate.build.gpu_count, f.value) for f in ranked}
    out = list(ranked)
    i = 0
    while i < len(out):
        usable, gpus, value = facts[id(out[i])]
        last = None
        if value is not None and gpus > 1:
            for j in range(len(out) - 1, i, -1):
                usable_b, gpus_b, value_b = facts[id(out[j])]
                if usable_b == usable and gpus_b < gpus and value_b is not None and value_b <= value * (1 + SPEED_TIE):
                    last = j
                    break
        if last is None:
            i += 1
            continue
        out.insert(last, out.pop(i))  # each candidate moves at most once
    return out


def fold(ranked: list[Found]) -> list[Found]:
    """Each candidate no better than one ranked above it (``_no_better``) folded under that one."""
    kept: list[Found] = []
    under: dict[int, list[Found]] = {}
    cheapest = float("inf")  # no candidate folds under one that costs more: skip the scan when none costs less
    for f in ranked:
        price = f.candidate.rank_usd
        host = None
        if price is not None and f.rank_speed and price >= cheapest:
            host = next((i for i, k in enumerate(kept) if _no_better(f, k)), None)
        if host is None:
            kept.append(f)
            if price is not None and f.rank_speed:
                cheapest = min(cheapest, price)
        else:
            under.setdefault(host, []).append(f)
    return [replace(k, folded=tuple(under.get(i, ()))) for i, k in enumerate(kept)]


def pareto_front(found: list[Found]) -> list[Found]:
    """Priced candidates that no other beats on both price (lower) and speed (higher)."""
    priced = sorted(((price, speed, f) for f in found
                     if (price := f.candidate.price_usd) is not None and (speed := f.speed_score)),
                    key=lambda t: (t[0], -t[1]))
    front: list[Found] = []
    best = 0.0
    for _, speed, f in priced:
        if speed > best:
            front.append(f)
            best = speed
    return front
