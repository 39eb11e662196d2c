"""Which build wins for the job, by how much, on which criterion, and the runner-up: one sentence
that the window, the PDF and the CLI show word for word.

Order: builds that run the job come first (those that fit comfortably before those that are
"tight", i.e. within the memory estimate's measured error of their usable memory), ranked by the
criterion; then builds that do not fit, closest first; then builds that cannot run the job as
set. Criteria: speed (generated tokens/s for inference, training tokens/s for training), price
(today's price of the whole machine, the lower of new and used: ``BuildResult.price``; rented builds
are priced by the hour and rank after bought ones), value (price per token/s) and best (the builds
that run the job at a usable speed first — ``advisor.core.advice.usable`` — by value). A price partly
older than a year ranks at its high end (``MachinePrice.rank_usd``). When the runner-up is within
``CLOSE`` of the winner on the criterion (15 % on speed: the speed estimate's error), the next
criterion decides and the sentence says so. The sentence is plain English: "3.2 times as fast as",
"17 % less per token/s than", never "3.2× X".
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.advice.criterion import Criterion  # its home; callers may import it from here too
from advisor.core.advice.usable import USABLE_TOKENS_PER_S, usable_why
from advisor.core.job.choices import Mode
from advisor.core.job.job import Job
from advisor.core.plan.planner import SPEED_TIE, FitStatus
from advisor.core.units import GIB, format_usd

#: Two builds within 5 % on price or value are "about the same" there; on speed, within the speed
#: estimate's own error (``SPEED_TIE``, 15 %): a smaller lead is not evidence.
CLOSE = 0.05
SPEED_CLOSE = SPEED_TIE


STATUS_ORDER = {FitStatus.FITS: 0, FitStatus.TIGHT: 1, FitStatus.NO: 2, FitStatus.BLOCKED: 3, None: 4}


def speed_of(r) -> float | None:
    if r.estimate is None:
        return None
    s = r.estimate.speed
    return s.train_tokens_per_s if r.chosen is not None and r.chosen.planned.mode is Mode.TRAIN \
        else s.decode_tokens_per_s


def _bought(r):
    """Today's price of a bought build (``BuildResult.price``); None for rented builds and unknown prices."""
    p = getattr(r, "price", None)
    return None if r.usd_per_hour is not None or p is None or p.rented or p.usd is None else p


def purchase_price(r) -> float | None:
    """What the build costs to buy today: the whole machine, the lower of new and used (``BuildResult.price``)."""
    p = _bought(r)
    return p.usd if p is not None else None


def rank_price(r) -> float | None:
    """The price the ranking compares: its part older than a year at its high end."""
    p = _bought(r)
    return p.rank_usd if p is not None else None


def value_of(r) -> float | None:
    price, speed = rank_price(r), speed_of(r)
    return price / speed if price is not None and speed else None


def slow_why(r) -> str | None:
    """Why a build that runs the job does not run it at a usable speed (``advisor.core.advice.usable``)."""
    if r.chosen is None or r.estimate is None:
        return None
    return usable_why(r.chosen, 1.0, USABLE_TOKENS_PER_S, None)


def _key(r, criterion: Criterion) -> tuple:
    speed, price, value = speed_of(r), rank_price(r), value_of(r)
    inf = float("inf")
    by = {Criterion.SPEED: (-(speed or 0.0), price if price is not None else inf),
          Criterion.PRICE: (price if price is not None else inf, -(speed or 0.0)),
          Criterion.VALUE: (value if value is not None else inf, -(speed or 0.0)),
          Criterion.BEST: (0 if slow_why(r) is None else 1, value if value is not None else inf, -(speed or 0.0))
          }[criterion]
    if not r.runs:
        headroom = r.estimate.fit.headroom_bytes if r.estimate is not None and r.estimate.fit is not None else -inf
        return (STATUS_ORDER[r.status], -headroom, 0.0)
    return (STATUS_ORDER[r.status], *by)


@dataclass(frozen=True)
class Ranking:
    order: tuple  # BuildResult, best first
    criterion: Criterion
    sentence: str
    short: tuple = ()  # the builds whose shortfall ``sentence`` states (``recommendation`` does not say it again)

    @property
    def winner(self):
        return self.order[0] if self.order and self.order[0].runs else None

    @property
    def runner_up(self):
        return self.order[1] if len(self.order) > 1 and self.order[1].runs else None


def _unit(job: Job) -> str:
    return "training tokens/s" if job.mode is Mode.TRAIN else "generated tokens/s"


def need_and_have(r) -> tuple[str, str]:
    """What a build that does not fit needs and has, in words: GPU memory per GPU, or host RAM where the
    GPUs' part fits and what goes to the host (or, on unified memory, what the GPU part leaves) does not."""
    fit = r.estimate.fit
    if fit.host_short:
        have = (f"{fit.host_available_bytes / GIB:.1f} GiB there" if fit.host_available_bytes is not None
                else "its RAM not known")
        return f"{fit.host_need_bytes / GIB:.1f} GiB of host RAM", have
    return f"{fit.need_per_gpu_bytes / GIB:.1f} GiB per GPU", f"{fit.usable_per_gpu_bytes / GIB:.1f} GiB usable"


def _shortfall(r) -> str:
    need, have = need_and_have(r)
    return f"needs {need}, {have}"


def _money(r, amount: float | None = None) -> str:
    """'$2,320 used' — the figure and its kind (new, used, or which part is which)."""
    p = _bought(r)
    value = amount if amount is not None else (p.usd if p is not None else None)
    if value is None:
        return "no price"
    return f"{format_usd(value)} {p.kind_words}" if p is not None else format_usd(value)


def times(a: float, b: float) -> str:
    """'3.2 times as fast as' style ratio words for a / b ≥ 1: 'twice', '3.2 times', '1.3 times'."""
    ratio = a / b
    return "twice" if abs(ratio - 2) < 0.05 else f"{ratio:.1f} times"


def percent_less(low: float, high: float) -> str:
    """'17 % less' for low < high."""
    return f"{(1 - low / high) * 100:.0f} % less"


def _versus(win, other, criterion: Criterion, unit: str) -> str:
    """The winner against the runner-up, in plain English, and the tie-break when close."""
    ws, os_ = speed_of(win), speed_of(other)
    wp, op = purchase_price(win), purchase_price(other)
    if criterion is Criterion.SPEED and ws and os_:
        if abs(ws - os_) <= max(ws, os_) * SPEED_CLOSE:
            if wp is not None and op is not None and wp < op:
                return (f"{win.name} wins: about as fast as {other.name} ({ws:,.0f} vs {os_:,.0f} {unit}) for "
                        f"{format_usd(op - wp)} less ({_money(win)} vs {_money(other)})")
            return f"{win.name} and {other.name} run the job at about the same speed ({ws:,.0f} and {os_:,.0f} {unit})"
        return (f"{win.name} wins on speed: {ws:,.0f} {unit}, {times(ws, os_)} as fast as {other.name} "
                f"({os_:,.0f})")
    if criterion is Criterion.SPEED and ws and not os_:
        return f"{win.name} wins on speed: {ws:,.0f} {unit}; no speed could be estimated for {other.name}"
    if criterion is Criterion.PRICE and wp is not None:
        if op is None:
            return f"{win.name} wins on price: {_money(win)}; {other.name} has no purchase price"
        if op <= wp:  # ranked first on a stale price's high end, or a tie: say the figures, not a negative saving
            return f"{win.name} wins on price: {_money(win)} against {_money(other)} for {other.name}"
        return (f"{win.name} wins on price: it costs {format_usd(op - wp)} less than {other.name} "
                f"({_money(win)} vs {_money(other)})")
    wv, ov = value_of(win), value_of(other)
    per = f"per {unit.split()[0]} token/s"
    if criterion in (Criterion.VALUE, Criterion.BEST) and wv is not None:
        usable = " at a usable speed" if criterion is Criterion.BEST else ""
        head = f"{win.name} wins: the most speed for the money{usable}" if criterion is Criterion.BEST \
            else f"{win.name} wins on value"
        if criterion is Criterion.BEST and (why := slow_why(other)) is not None and slow_why(win) is None:
            return f"{head}, {format_usd(wv)} {per}; {other.name} is slower than usable ({why})"
        if ov is None:
            return f"{head}: {format_usd(wv)} {per}; {other.name} has no price"
        if ov <= wv:
            return f"{head}: {format_usd(wv)} {per}, about the same as {other.name} ({format_usd(ov)})"
        return f"{head}: {format_usd(wv)} {per}, {percent_less(wv, ov)} than {other.name} ({format_usd(ov)})"
    return f"{win.name} comes first; {other.name} second (not enough prices or speeds to say by how much)"


def _close_calls(running: list, criterion: Criterion) -> list:
    """Among the builds within ``CLOSE`` of the best on the criterion, the next criterion decides
    (speed ties: the cheaper; price or value ties: the faster), so a 0.1 % lead never wins alone."""
    if len(running) < 2 or running[0].status is not running[1].status:
        return running
    lead = running[0]
    if criterion is Criterion.SPEED:
        top = speed_of(lead) or 0.0
        close = [r for r in running if r.status is lead.status and (speed_of(r) or 0.0) >= top * (1 - SPEED_CLOSE)]
        best = min(close, key=lambda r: purchase_price(r) if purchase_price(r) is not None else float("inf"))
    else:
        metric = rank_price if criterion is Criterion.PRICE else value_of
        low = metric(lead)
        if low is None:
            return running
        close = [r for r in running if r.status is lead.status and metric(r) is not None and metric(r) <= low * (1 + CLOSE)]
        best = max(close, key=lambda r: speed_of(r) or 0.0)
    return [best, *(r for r in running if r is not best)]


def rank(results, job: Job, criterion: Criterion = Criterion.SPEED) -> Ranking:
    """Builds best first and the one sentence that names the winner and why."""
    criterion = Criterion(criterion)
    builds = [r for r in results.builds if r.estimate is not None or r.error]
    order = tuple(sorted(builds, key=lambda r: _key(r, criterion)))
    unit = _unit(job)
    running = [r for r in order if r.runs]
    if not running:
        closest = next((r for r in order if r.estimate is not None and r.estimate.fit is not None
                        and r.status is FitStatus.NO), None)
        if closest is None:
            sentence = "No build can run this job as set; see the problems listed per build."
        else:
            sentence = (f"No build runs this job as set; the closest is {closest.name} ({_shortfall(closest)}). "
                        "See what would make it fit.")
        return Ranking(order, criterion, sentence, (closest,) if closest is not None else ())
    running = _close_calls(running, criterion)
    order = (*running, *(r for r in order if not r.runs))
    win = running[0]
    tight = " (tight: within the estimate's error of its memory)" if win.status is FitStatus.TIGHT else ""
    if len(running) == 1:
        others = [r for r in order if r is not win and r.estimate is not None and r.estimate.fit is not None]
        why = f"; {others[0].name} {_shortfall(others[0])}" if others else ""
        speed = speed_of(win)
        at = f", at {speed:,.0f} {unit}" if speed else ""
        sentence = f"{win.name} wins: it is the only build that runs this job{at}{tight}{why}."
        return Ranking(order, criterion, sentence, tuple(others[:1]))
    other = running[1]
    if win.status is FitStatus.FITS and other.status is FitStatus.TIGHT and _better_on(other, win, criterion):
        # The runner-up does better on the criterion but fits only within the estimate's error: the
        # winner wins by fitting with room to spare, not on the criterion (a "0.1× faster" win is nonsense).
        return Ranking(order, criterion, f"{win.name} wins: it fits with room to spare; {other.name} "
                       f"{_lead(other, win, criterion, unit)} but is tight (within the estimate's error of its "
                       "memory).")
    return Ranking(order, criterion, _versus(win, other, criterion, unit) + tight + ".")


def _better_on(a, b, criterion: Criterion) -> bool:
    """``a`` does strictly better than ``b`` on the criterion itself, both figures known."""
    metric = {Criterion.SPEED: lambda r: -speed_of(r) if speed_of(r) else None,
              Criterion.PRICE: rank_price, Criterion.VALUE: value_of, Criterion.BEST: value_of}[criterion]
    ma, mb = metric(a), metric(b)
    return ma is not None and mb is not None and ma < mb


def _lead(better, worse, criterion: Criterion, unit: str) -> str:
    """'is 8.0× faster (40,890 vs 5,111 training tokens/s)', or cheaper, or better value."""
    if criterion is Criterion.SPEED:
        b, w = speed_of(better), speed_of(worse)
        if b and w:
            return f"is {times(b, w)} as fast ({b:,.0f} vs {w:,.0f} {unit})"
        return "is faster"
    if criterion is Criterion.PRICE:
        b, w = purchase_price(better), purchase_price(worse)
        return (f"costs {format_usd(w - b)} less ({_money(better)} vs {_money(worse)})"
                if b is not None and w is not None and w > b else "costs less")
    b, w = value_of(better), value_of(worse)
    return (f"is better value ({format_usd(b)} vs {format_usd(w)} per {unit.split()[0]} token/s)" if b is not None and w
            is not None else "is better value")
