"""The Speed chart: per build, decode and prefill (inference) or training throughput and time, with the
share lost to GPU-to-GPU traffic."""

from __future__ import annotations

from advisor.plots.axes import bar_ticks, plot_item
from advisor.plots.bars import BarPair, runs, why_no_bar
from advisor.plots.style import BUILD_COLORS, set_text


class SpeedPlot:
    """Per build: decode and prefill tok/s (inference) or training tok/s and time for N tokens.

    The grey top of a bar is what the interconnect costs: the rate without GPU-to-GPU time
    (rate / (1 − share)) minus the rate with it. A build that cannot run the job (does not
    fit, contradicts the settings) gets no bar and a word why.
    """

    def __init__(self, train_tokens: float = 1e9) -> None:
        self.train_tokens = train_tokens
        self.top = plot_item("Decode", "tokens/s")
        self.bottom = plot_item("Prefill", "tokens/s")
        self.top_bars = BarPair(self.top, BUILD_COLORS[0], "lost to GPU-to-GPU traffic")
        self.bottom_bars = BarPair(self.bottom, BUILD_COLORS[2], "lost to GPU-to-GPU traffic")
        self.items = [self.top, self.bottom]

    def _series(self, results, attr: str, unit: str, scale=None):
        xs, vals, lost, tips, notes = [], [], [], [], {}
        for i, r in enumerate(results.builds):
            s = r.estimate.speed if r.estimate is not None else None
            v = getattr(s, attr, None) if s is not None else None
            if not runs(r) or v is None:
                notes[i] = why_no_bar(r) or "not estimated"
                continue
            share = s.interconnect_share
            ideal = v / (1 - share) if share < 1 else v
            shown, lost_v = (scale(v), 0.0) if scale else (v, ideal - v)
            xs.append(i)
            vals.append(shown)
            lost.append(lost_v)
            tips.append(f"{r.name}: {shown:,.1f} {unit}; interconnect {share:.0%} of the time"
                        + (f" (≈{ideal - v:,.0f} tok/s lost)" if not scale and share > 0 else ""))
        return xs, vals, lost, tips, notes

    def update(self, results, training: bool) -> None:
        names = [r.name for r in results.builds]
        if training:
            self.top_bars.set_title("Training throughput")
            set_text(self.top, "left", "tokens/s")
            self.bottom_bars.set_title(f"Time for {self.train_tokens / 1e9:g} B training tokens")
            set_text(self.bottom, "left", "hours")
            self.top_bars.set(*self._series(results, "train_tokens_per_s", "tok/s"))
            self.bottom_bars.set(*self._series(results, "train_tokens_per_s", "h",
                                               scale=lambda v: self.train_tokens / v / 3600))
        else:
            self.top_bars.set_title("Decode (all sequences)")
            set_text(self.top, "left", "tokens/s")
            self.bottom_bars.set_title("Prefill")
            set_text(self.bottom, "left", "tokens/s")
            self.top_bars.set(*self._series(results, "decode_tokens_per_s", "tok/s"))
            self.bottom_bars.set(*self._series(results, "prefill_tokens_per_s", "tok/s"))
        bar_ticks(self.top, names, self.top_bars.notes)
        bar_ticks(self.bottom, names, self.bottom_bars.notes)

