"""The Value chart: price against capability, and what a million tokens cost to run."""

from __future__ import annotations

from advisor.plots.axes import bar_ticks, plot_item
from advisor.plots.bars import BarPair, runs, why_no_bar
from advisor.plots.style import BUILD_COLORS


class ValuePlot:
    """Price against capability: $ per GB of GPU memory and $ per token/s (bought builds), and what a
    million tokens cost to run under the running-cost settings (bought and rented builds).

    Empty slots say why: "no price", "rented" (see rent vs buy below) or "does not fit".
    """

    def __init__(self) -> None:
        self.per_gb = plot_item("Price per GB of GPU memory", "USD / GB")
        self.per_tps = plot_item("Price per token/s", "USD / (tok/s)")
        self.per_million = plot_item("Running cost per million tokens", "USD / M tok")
        self.per_million.getAxis("left").enableAutoSIPrefix(False)  # cents per million, not "(x0.001)"
        self.gb_bars = BarPair(self.per_gb, BUILD_COLORS[4], "")
        self.tps_bars = BarPair(self.per_tps, BUILD_COLORS[3], "")
        self.million_bars = BarPair(self.per_million, BUILD_COLORS[2], "")
        self.gb_bars.set_title("Price per GB of GPU memory")
        self.tps_bars.set_title("Price per token/s")
        self.million_bars.set_title("Running cost per million tokens")
        self.items = [self.per_gb, self.per_tps, self.per_million]
        self.million_values: dict[int, float] = {}  # slot → USD per million tokens (what the bars show)

    def update(self, results, training: bool) -> None:
        """Draw ``results``; the running-cost bars read ``results.running`` (computed by the caller under the
        user's cost settings: ``advisor.core.advice.running.with_running_costs``)."""
        gb_rows, tps_rows = ([], [], [], [], {}), ([], [], [], [], {})
        for i, r in enumerate(results.builds):
            price = r.price.usd if r.price is not None and r.usd_per_hour is None else None  # today's, as the table
            if price is None or r.resolved is None:
                note = "rented" if r.usd_per_hour is not None else ("no price" if r.resolved is not None else "no estimate")
                gb_rows[4][i] = tps_rows[4][i] = note
                continue
            gb = sum(g.memory_gb_marketing for g in r.resolved.gpus)
            for lst, val in zip(gb_rows, (i, price / gb, 0.0, f"{r.name}: ${price:,.0f} / {gb:g} GB = ${price / gb:,.0f}/GB")):
                lst.append(val)
            s = r.estimate.speed if r.estimate is not None else None
            rate = (s.train_tokens_per_s if training else s.decode_tokens_per_s) if s is not None else None
            if runs(r) and rate:
                for lst, val in zip(tps_rows, (i, price / rate, 0.0, f"{r.name}: ${price:,.0f} / {rate:,.1f} tok/s = ${price / rate:,.1f} per tok/s")):
                    lst.append(val)
            else:
                tps_rows[4][i] = why_no_bar(r) or "speed not estimated"
        self.gb_bars.set(*gb_rows)
        self.tps_bars.set(*tps_rows)
        self._update_million(results, training)
        names = [r.name for r in results.builds]
        bar_ticks(self.per_gb, names, self.gb_bars.notes)
        bar_ticks(self.per_tps, names, self.tps_bars.notes)
        bar_ticks(self.per_million, names, self.million_bars.notes)

    def _update_million(self, results, training: bool) -> None:
        """USD per million generated (or trained) tokens: owned, energy plus the price spread over the
        hours of use while owned; rented, the hourly rate."""
        running = results.running
        kind = "trained" if training else "generated"
        rows: tuple = ([], [], [], [], {})
        self.million_values = {}
        for i, r in enumerate(results.builds):
            rc = running.builds[i] if running is not None else None
            per_m = rc.usd_per_million_tokens if rc is not None else None
            if per_m is None:
                rows[4][i] = ("running cost not computed" if rc is None else "no price" if rc.price_usd is None
                              else "power not stated" if rc.usd_per_hour is None else why_no_bar(r) or "speed not estimated")
                continue
            self.million_values[i] = per_m
            cost = running.settings
            how = (f"${rc.usd_per_hour:,.2f}/h rented" if rc.rented else
                   f"${rc.usd_per_hour:,.3f}/h (energy + price over {cost.years:g} years of {cost.hours_per_day:g} h a day)")
            for lst, val in zip(rows, (i, per_m, 0.0, f"{r.name}: ${per_m:,.3f} per million {kind} tokens; {how}")):
                lst.append(val)
        self.million_bars.set_title(f"Running cost per million {kind} tokens")
        self.million_bars.set(*rows)
