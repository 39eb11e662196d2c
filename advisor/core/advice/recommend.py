"""A plain-words recommendation derived from the numbers alone (no opinion, no weights).

Rules, in order: the winner sentence (``advisor.core.advice.ranking``); when no build runs the
job, by how much each misses and what would make the closest fit; among those that run it, the
faster prefill when it differs by 20 % or more, the cheapest to buy and the cheapest to rent (apart: a
purchase price and an hourly rate are not one scale), the best cost per token/s to buy and per million
tokens to rent; say what the GPU-to-GPU link costs each build when it differs by 10 points or more; and
repeat the estimator's note when a second GPU adds capacity but not speed.
"""

from __future__ import annotations

import datetime as dt

from advisor.core.advice.ranking import (
    Criterion,
    need_and_have,
    purchase_price,
    rank,
    times,
)
from advisor.core.cost.running import is_stale, usd_per_million_tokens
from advisor.core.estimate.job_checks import message_of
from advisor.core.job.choices import Mode
from advisor.core.job.job import Job
from advisor.core.speed.layout import LAYER_SPLIT_NOTE
from advisor.core.units import format_usd

LINK_SHARE_NOTABLE = 0.10  # a difference in link share worth a sentence
PREFILL_NOTABLE = 1.2  # a prefill ratio worth a sentence



def _cannot(r) -> str:
    """'cannot run it' where the software does not run the job on the build, 'cannot run it as set' where the
    settings contradict each other or the build."""
    return "cannot run it" if r.chosen is not None and r.chosen.unsupported else "cannot run it as set"

def _headline(r, w: Job) -> float | None:
    s = r.estimate.speed
    return s.train_tokens_per_s if w.mode is Mode.TRAIN else s.decode_tokens_per_s


def _price(r) -> tuple[float | None, str]:
    """Today's price (``BuildResult.price``: the whole machine, the lower of new and used) or the hourly rate."""
    if r.usd_per_hour is not None:
        return r.usd_per_hour, "per hour"
    return purchase_price(r), ""


def _runs(r) -> bool:
    return r.runs


def _fix(r) -> str:
    """' What would make it fit: Q4_K_M weights (...) or 1 more GPU.' from the build's suggestions."""
    if not r.suggestions:
        return ""
    return " What would make it fit: " + _changes(r) + "."


def _does_not_fit(r, ranking, form: str) -> str:
    """A build that does not fit: its shortfall in ``form`` and what would make it fit; only the latter where
    the ranking's sentence has said the shortfall (the PDF's paragraph had said it twice)."""
    if any(r is said for said in ranking.short):
        return f"What would make {r.name} fit: {_changes(r)}." if r.suggestions else ""
    return form.format(name=r.name, lacks=_lacks(r)) + _fix(r)


def _changes(r) -> str:
    """'Q4_K_M weights (...) or 1 more GPU': the build's first two suggestions."""
    return " or ".join(s.change for s in r.suggestions[:2])


def _lacks(r) -> str:
    """'needs 21.8 GiB per GPU and has 20.0 GiB usable' (``ranking.need_and_have``)."""
    need, have = need_and_have(r)
    return f"needs {need} and has {have}"


def _prefill_sentence(ok) -> list[str]:
    """Prompt processing is compute- and link-bound where decode is bandwidth-bound: say when it differs."""
    rates = {r.name: r.estimate.speed.prefill_tokens_per_s for r in ok if r.estimate.speed.prefill_tokens_per_s}
    if len(rates) < 2:
        return []
    fast, slow = max(rates, key=rates.get), min(rates, key=rates.get)
    if rates[fast] < rates[slow] * PREFILL_NOTABLE:
        return []
    return [f"Prompt processing (prefill) differs more: {fast} {rates[fast]:,.0f} tokens/s, "
            f"{times(rates[fast], rates[slow])} as fast as {slow} ({rates[slow]:,.0f}), so its first token comes sooner."]


def _stale_sentence(ok, today: dt.date) -> list[str]:
    """Say when a price the comparison leans on is older than a year (issue 18)."""
    old = [r for r in ok if is_stale(r.price_date, today) and _price(r)[0] is not None]
    if not old:
        return []
    parts = ", ".join(f"{r.name} (seen {r.price_date.isoformat()})" for r in old)
    return [f"Prices older than a year (stale): {parts}; a current price may change the ranking."]


def recommendation(results, w: Job, criterion: Criterion = Criterion.SPEED, today: dt.date | None = None) -> str:
    """The winner sentence, then what else the numbers say (same text in the window and the PDF).
    ``today`` (default: the date now) decides which prices are stale."""
    today = today or dt.date.today()
    ranking = rank(results, w, criterion)
    with_estimate = [r for r in results.builds if r.estimate is not None and r.estimate.fit is not None]
    ok = [r for r in with_estimate if _runs(r)]
    out: list[str] = [ranking.sentence]
    too_big = [r for r in with_estimate if not r.estimate.fit.fits and not r.problems]
    blocked = [r for r in with_estimate if r.problems]
    if not ok:
        for r in too_big:
            out.append(_does_not_fit(r, ranking, "{name} {lacks}."))
        if not too_big:
            out.append("Lower the precision, the context or batch, use LoRA/QLoRA or sharding, or add GPUs.")
        for r in blocked:
            out.append(f"{r.name} {_cannot(r)}: {message_of(r.problems[0])}.")
        return " ".join(filter(None, out))
    unit = "training tokens/s" if w.mode is Mode.TRAIN else "generated tokens/s"
    known = {r.name: _headline(r, w) for r in ok if _headline(r, w)}
    if w.mode is Mode.INFERENCE:
        out += _prefill_sentence(ok)
    priced = [(r, *_price(r)) for r in ok if _price(r)[0] is not None]
    if priced:
        # A purchase price and an hourly rate are not one scale: the cheapest to buy and to rent apart.
        bought = [t for t in priced if not t[2]]
        rented = [t for t in priced if t[2]]
        both = bool(bought) and bool(rented)
        if bought:
            cheapest, amount, _ = min(bought, key=lambda t: t[1])
            verb = "to buy " if both else ""
            out.append(f"The cheapest {verb}that runs it is {cheapest.name} at {format_usd(amount)} "
                       f"{cheapest.price.kind_words}.")
        if rented:
            cheapest, amount, _ = min(rented, key=lambda t: t[1])
            out.append(f"The cheapest {'to rent ' if both else ''}that runs it is {cheapest.name} at "
                       f"{format_usd(amount)} per hour.")
        value = [(r, p / known[r.name]) for r, p, _ in bought if known.get(r.name)]
        if len(value) > 1:
            best, cost = min(value, key=lambda t: t[1])
            out.append(f"Per {unit.split()[0]} token/s, {best.name} costs least to buy ({format_usd(cost)}).")
        # Rented: dollars per million tokens at the estimated rate (the hour's price / the hour's tokens).
        per_million = [(r, usd_per_million_tokens(p, known[r.name])) for r, p, _ in rented if known.get(r.name)]
        if len(per_million) > 1:
            best, cost = min(per_million, key=lambda t: t[1])
            word = "trained" if w.mode is Mode.TRAIN else "generated"
            out.append(f"Per million {word} tokens, {best.name} costs least to rent ({format_usd(cost)}).")
        out += _stale_sentence(ok, today)
    else:
        out.append("No price is known for the builds that run it, so cost is not compared.")
    shares = {r.name: r.estimate.speed.interconnect_share for r in ok}
    if len(shares) > 1 and max(shares.values()) - min(shares.values()) >= LINK_SHARE_NOTABLE:
        parts = ", ".join(f"{n} {s:.0%}" for n, s in shares.items())
        out.append(f"The GPU-to-GPU link matters here: it takes {parts} of the time.")
    if any(LAYER_SPLIT_NOTE in r.estimate.speed.notes for r in ok):
        out.append("Where the model is split by layers, the second GPU adds memory, not speed.")
    for r in too_big:
        out.append(_does_not_fit(r, ranking, "{name} does not fit: it {lacks}."))
    for r in blocked:
        out.append(f"{r.name} {_cannot(r)}: {message_of(r.problems[0])}.")
    return " ".join(filter(None, out))
