"""Which build wins for the job, by how much, on which criterion, and the runner-up: one sentence
that the window, the PDF and the CLI show word for word.

Order: builds that run the job come first (those that fit comfortably before those that are
"tight", i.e. within the memory estimate's measured error of their usable memory), ranked by the
criterion; then builds that do not fit, closest first; then builds that cannot run the job as
set. Criteria: speed (generated tokens/s for inference, training tokens/s for training), price
(what the build costs to buy; rented builds are priced by the hour and rank after bought ones)
and value (price per token/s). When the runner-up is within ``CLOSE`` of the winner on the
criterion (15 % on speed: the speed estimate's error), the next criterion decides and the sentence
says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.advice.criterion import Criterion  # its home; callers may import it from here too
from advisor.core.job.workload import Mode, Workload
from advisor.core.plan.search import SPEED_TIE, FitStatus
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
    return s.train_tokens_per_s if r.planned is not None and r.planned.workload.mode is Mode.TRAIN \
        else s.decode_tokens_per_s


def purchase_price(r) -> float | None:
    """What the build costs to buy: new, else used; None for rented builds and unknown prices."""
    if r.usd_per_hour is not None:
        return None
    return r.price_new_usd if r.price_new_usd is not None else r.price_used_usd


def value_of(r) -> float | None:
    price, speed = purchase_price(r), speed_of(r)
    return price / speed if price is not None and speed else None


def _key(r, criterion: Criterion) -> tuple:
    speed, price, value = speed_of(r), purchase_price(r), value_of(r)
    inf = float("inf")
    by = {Criterion.SPEED: (-(speed or 0.0), price if price is not None else inf),
          Criterion.PRICE: (price if price is not None else inf, -(speed or 0.0)),
          Criterion.VALUE: (value if value is not None else inf, -(speed or 0.0))}[criterion]
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


def _unit(job: Workload) -> str:
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


def _prices(win, wp: float, other, op: float) -> str:
    """'$3,038 vs $4,000', saying which of them is the GPUs' price alone (issue 18: a GPUs-only price
    set against a whole machine's is not a like-for-like saving)."""
    pw, po = win.price_gpus_only, other.price_gpus_only
    if pw and po:
        return f"{format_usd(wp)} vs {format_usd(op)}, GPUs only"
    return f"{format_usd(wp)}{' for the GPUs only' if pw else ''} vs {format_usd(op)}{' for the GPUs only' if po else ''}"


def _versus(win, other, criterion: Criterion, unit: str) -> str:
    """'on speed: 1,234 generated tokens/s, 1.3× X (950)' and the tie-break when close."""
    ws, os_ = speed_of(win), speed_of(other)
    wp, op = purchase_price(win), purchase_price(other)
    if criterion is Criterion.SPEED and ws and os_:
        if abs(ws - os_) <= max(ws, os_) * SPEED_CLOSE:
            if wp is not None and op is not None and wp < op:
                return (f"{win.name} wins: it runs it at about the speed of {other.name} ({ws:,.0f} vs {os_:,.0f} "
                        f"{unit}) for {format_usd(op - wp)} less ({_prices(win, wp, other, op)})")
            return f"{win.name} and {other.name} run it at about the same speed ({ws:,.0f} and {os_:,.0f} {unit})"
        return f"{win.name} wins on speed: {ws:,.0f} {unit}, {ws / os_:.1f}× {other.name} ({os_:,.0f})"
    if criterion is Criterion.SPEED and ws and not os_:
        return f"{win.name} wins on speed: {ws:,.0f} {unit}; no speed could be estimated for {other.name}"
    if criterion is Criterion.PRICE and wp is not None:
        if op is None:
            return f"{win.name} wins on price: {format_usd(wp)}; {other.name} has no purchase price"
        return f"{win.name} wins on price: {format_usd(op - wp)} less than {other.name} ({_prices(win, wp, other, op)})"
    wv, ov = value_of(win), value_of(other)
    if criterion is Criterion.VALUE and wv is not None:
        if ov is None:
            return f"{win.name} wins on value: {format_usd(wv)} per {unit.split()[0]} token/s; {other.name} has no price"
        return (f"{win.name} wins on value: {format_usd(wv)} per {unit.split()[0]} token/s, "
                f"{ov / wv:.1f}× less than {other.name} ({format_usd(ov)})")
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
        metric = purchase_price if criterion is Criterion.PRICE else value_of
        low = metric(lead)
        if low is None:
            return running
        close = [r for r in running if r.status is lead.status and metric(r) is not None and metric(r) <= low * (1 + CLOSE)]
        best = max(close, key=lambda r: speed_of(r) or 0.0)
    return [best, *(r for r in running if r is not best)]


def rank(results, job: Workload, criterion: Criterion = Criterion.SPEED) -> Ranking:
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
        at = f" at {speed:,.0f} {unit}" if speed else ""
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
              Criterion.PRICE: purchase_price, Criterion.VALUE: value_of}[criterion]
    ma, mb = metric(a), metric(b)
    return ma is not None and mb is not None and ma < mb


def _lead(better, worse, criterion: Criterion, unit: str) -> str:
    """'is 8.0× faster (40,890 vs 5,111 training tokens/s)', or cheaper, or better value."""
    if criterion is Criterion.SPEED:
        b, w = speed_of(better), speed_of(worse)
        if b and w:
            return f"is {b / w:.1f}× faster ({b:,.0f} vs {w:,.0f} {unit})"
        return "is faster"
    if criterion is Criterion.PRICE:
        b, w = purchase_price(better), purchase_price(worse)
        return f"costs {format_usd(w - b)} less ({format_usd(b)} vs {format_usd(w)})" if b is not None and w is not None \
            else "costs less"
    b, w = value_of(better), value_of(worse)
    return (f"is better value ({format_usd(b)} vs {format_usd(w)} per {unit.split()[0]} token/s)" if b is not None and w
            is not None else "is better value")
