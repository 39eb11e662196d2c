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

from advisor.core.advice.build_results import BuildResult, Results
from advisor.core.advice.criterion import Criterion
from advisor.core.advice.ranking import Ranking, need_and_have, purchase_price, rank, times
from advisor.core.cost.machine import is_stale
from advisor.core.cost.running import usd_per_million_tokens
from advisor.core.estimation.job_checks import message_of
from advisor.core.estimation.results import Estimate, Fit
from advisor.core.job.choices import Mode
from advisor.core.job.job import Job
from advisor.core.speed.layout import LAYER_SPLIT_NOTE
from advisor.core.units import format_usd

LINK_SHARE_NOTABLE = 0.10  # a difference in link share worth a sentence
PREFILL_NOTABLE = 1.2  # a prefill ratio worth a sentence

#: A build that runs the job with its price: (build, USD or USD per hour, "" or "per hour").
Priced = tuple[BuildResult, float, str]


def _estimate(r: BuildResult) -> Estimate:
    """The estimate of a build picked for having one (the lists below hold only such builds)."""
    if r.estimate is None:
        raise ValueError(f"{r.name} has no estimate")
    return r.estimate


def _fit(r: BuildResult) -> Fit | None:
    return r.estimate.fit if r.estimate is not None else None


def _cannot(r: BuildResult) -> str:
    """'cannot run it' where the software does not run the job on the build, 'cannot run it as set' where the
    settings contradict each other or the build."""
    return "cannot run it" if r.chosen is not None and r.chosen.unsupported else "cannot run it as set"


def _headline(r: BuildResult, w: Job) -> float | None:
    s = _estimate(r).speed
    return s.train_tokens_per_s if w.mode is Mode.TRAIN else s.decode_tokens_per_s


def _price(r: BuildResult) -> tuple[float | None, str]:
    """Today's price (``BuildResult.price``: the whole machine, the lower of new and used) or the hourly rate."""
    if r.usd_per_hour is not None:
        return r.usd_per_hour, "per hour"
    return purchase_price(r), ""


def _fix(r: BuildResult) -> str:
    """' What would make it fit: Q4_K_M weights (...) or 1 more GPU.' from the build's suggestions."""
    if not r.suggestions:
        return ""
    return " What would make it fit: " + _changes(r) + "."


def _does_not_fit(r: BuildResult, ranking: Ranking, form: str) -> str:
    """A build that does not fit: its shortfall in ``form`` and what would make it fit; only the latter where
    the ranking's sentence has said the shortfall (the PDF's paragraph had said it twice)."""
    if any(r is said for said in ranking.short):
        return f"What would make {r.name} fit: {_changes(r)}." if r.suggestions else ""
    return form.format(name=r.name, lacks=_lacks(r)) + _fix(r)


def _changes(r: BuildResult) -> str:
    """'Q4_K_M weights (...) or 1 more GPU': the build's first two suggestions."""
    return " or ".join(s.change for s in r.suggestions[:2])


def _lacks(r: BuildResult) -> str:
    """'needs 21.8 GiB per GPU and has 20.0 GiB usable' (``ranking.need_and_have``)."""
    need, have = need_and_have(r)
    return f"needs {need} and has {have}"


def _prefill_sentence(ok: list[BuildResult]) -> list[str]:
    """Prompt processing is compute- and link-bound where decode is bandwidth-bound: say when it differs."""
    rates = {r.name: rate for r in ok if (rate := _estimate(r).speed.prefill_tokens_per_s)}
    if len(rates) < 2:
        return []
    fast, slow = max(rates, key=rates.__getitem__), min(rates, key=rates.__getitem__)
    if rates[fast] < rates[slow] * PREFILL_NOTABLE:
        return []
    return [f"Prompt processing (prefill) differs more: {fast} {rates[fast]:,.0f} tokens/s, "
            f"{times(rates[fast], rates[slow])} as fast as {slow} ({rates[slow]:,.0f}), so its first token comes sooner."]


def _stale_sentence(ok: list[BuildResult], today: dt.date) -> list[str]:
    """Say when a price the comparison leans on is older than a year: a year moves GPU prices more than the
    ranking's margins (``cost.machine.STALE_DAYS``)."""
    old = [(r, r.price_date) for r in ok if r.price_date is not None and is_stale(r.price_date, today)
           and _price(r)[0] is not None]
    if not old:
        return []
    parts = ", ".join(f"{r.name} (seen {date.isoformat()})" for r, date in old)
    return [f"Prices older than a year (stale): {parts}; a current price may change the ranking."]


def _cheapest_sentences(bought: list[Priced], rented: list[Priced]) -> list[str]:
    """The cheapest to buy and the cheapest to rent, apart: a purchase price and an hourly rate are not one scale."""
    out = []
    both = bool(bought) and bool(rented)
    if bought:
        cheapest, amount, _ = min(bought, key=lambda t: t[1])
        verb = "to buy " if both else ""
        kind = f" {cheapest.price.kind_words}" if cheapest.price is not None else ""
        out.append(f"The cheapest {verb}that runs it is {cheapest.name} at {format_usd(amount)}{kind}.")
    if rented:
        cheapest, amount, _ = min(rented, key=lambda t: t[1])
        out.append(f"The cheapest {'to rent ' if both else ''}that runs it is {cheapest.name} at "
                   f"{format_usd(amount)} per hour.")
    return out


def _cost_per_speed_sentences(bought: list[Priced], rented: list[Priced], known: dict[str, float],
                              w: Job) -> list[str]:
    """Per token/s to buy; per million tokens to rent (the hour's price / the hour's tokens)."""
    out = []
    unit = "training" if w.mode is Mode.TRAIN else "generated"
    value = [(r, p / known[r.name]) for r, p, _ in bought if known.get(r.name)]
    if len(value) > 1:
        best, cost = min(value, key=lambda t: t[1])
        out.append(f"Per {unit} token/s, {best.name} costs least to buy ({format_usd(cost)}).")
    per_million = [(r, c) for r, p, _ in rented if known.get(r.name)
                   and (c := usd_per_million_tokens(p, known[r.name])) is not None]
    if len(per_million) > 1:
        best, cost = min(per_million, key=lambda t: t[1])
        word = "trained" if w.mode is Mode.TRAIN else "generated"
        out.append(f"Per million {word} tokens, {best.name} costs least to rent ({format_usd(cost)}).")
    return out


def _price_sentences(ok: list[BuildResult], w: Job, today: dt.date) -> list[str]:
    priced = [(r, p, per) for r in ok for p, per in [_price(r)] if p is not None]
    if not priced:
        return ["No price is known for the builds that run it, so cost is not compared."]
    known = {r.name: s for r in ok if (s := _headline(r, w))}
    bought = [t for t in priced if not t[2]]
    rented = [t for t in priced if t[2]]
    return (_cheapest_sentences(bought, rented) + _cost_per_speed_sentences(bought, rented, known, w)
            + _stale_sentence(ok, today))


def _speed_notes(ok: list[BuildResult]) -> list[str]:
    """What the link costs each build when it differs notably, and the layer split's capacity-not-speed note."""
    out = []
    shares = {r.name: _estimate(r).speed.interconnect_share for r in ok}
    if len(shares) > 1 and max(shares.values()) - min(shares.values()) >= LINK_SHARE_NOTABLE:
        parts = ", ".join(f"{n} {s:.0%}" for n, s in shares.items())
        out.append(f"The GPU-to-GPU link matters here: it takes {parts} of the time.")
    if any(LAYER_SPLIT_NOTE in _estimate(r).speed.notes for r in ok):
        out.append("Where the model is split by layers, the second GPU adds memory, not speed.")
    return out


def _blocked_sentences(blocked: list[BuildResult]) -> list[str]:
    return [f"{r.name} {_cannot(r)}: {message_of(r.problems[0])}." for r in blocked]


def recommendation(results: Results, w: Job, criterion: Criterion = Criterion.SPEED,
                   today: dt.date | None = None) -> str:
    """The winner sentence, then what else the numbers say (same text in the window and the PDF).
    ``today`` (default: the date now) decides which prices are stale."""
    today = today or dt.date.today()
    ranking = rank(results, w, criterion)
    with_fit = [(r, fit) for r in results.builds if (fit := _fit(r)) is not None]
    ok = [r for r, _ in with_fit if r.runs]
    too_big = [r for r, fit in with_fit if not fit.fits and not r.problems]
    blocked = [r for r, _ in with_fit if r.problems]
    out: list[str] = [ranking.sentence]
    if not ok:
        out += [_does_not_fit(r, ranking, "{name} {lacks}.") for r in too_big]
        if not too_big:
            out.append("Lower the precision, the context or batch, use LoRA/QLoRA or sharding, or add GPUs.")
        return " ".join(filter(None, out + _blocked_sentences(blocked)))
    if w.mode is Mode.INFERENCE:
        out += _prefill_sentence(ok)
    out += _price_sentences(ok, w, today) + _speed_notes(ok)
    out += [_does_not_fit(r, ranking, "{name} does not fit: it {lacks}.") for r in too_big]
    return " ".join(filter(None, out + _blocked_sentences(blocked)))
