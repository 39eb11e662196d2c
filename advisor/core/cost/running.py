"""Running cost: what a build costs to use — electricity, cost per token, ownership vs renting,
and what a training run takes.

Pure functions over numbers and frozen models; the speed and the price come in as arguments
(this package sits below the estimator). Unknown inputs give ``None``, never a guess.

Formulas (the window, the PDF and the CLI state them):

* energy per year = load power (kW) × hours of use per day × 365 × price per kWh. The machine
  is taken as switched off outside the hours of use (idle draw is shown, not billed);
* owned cost per hour of use = energy per hour + purchase price / (years × 365 × hours per day)
  (the price spread over the hours it is used while owned; no resale value, no interest);
* cost per million tokens (generated, or trained for a training job) = cost per hour / (tokens/s × 3600)
  × 10⁶ (cloud: its rate);
* total cost of ownership = price + energy per year × years;
* break-even hours of renting = price / (cloud rate − owned energy per hour): the hours of use
  after which buying has cost less than renting (speed differences not counted);
* training hours = dataset tokens × epochs / training tokens/s / 3600; a cloud run costs
  hours × rate, an owned one its energy plus the price's share over the hours it is owned;
* Chinchilla (Hoffmann et al. 2022, arXiv:2203.15556): a compute-optimal model of N parameters
  trains on about 20 tokens per parameter, with about 6·N·D FLOPs.
"""

from __future__ import annotations

import datetime as dt

from pydantic import Field

from advisor.core.cost.machine import STALE_DAYS, is_stale  # noqa: F401 (one definition; re-exported)
from advisor.core.hardware.power import build_power
from advisor.core.hardware.records import ResolvedBuild, Segment
from advisor.core.schema import Frozen

#: US average residential price of electricity, USD per kWh: 15.45 ¢/kWh, EIA Electricity
#: Monthly Update, End Use, data for January 2024 (released 2024-03-26).
DEFAULT_USD_PER_KWH = 0.1545
ELECTRICITY_SOURCE = ("US average residential price, 15.45 ¢/kWh (EIA Electricity Monthly Update, January 2024: "
                      "https://www.eia.gov/electricity/monthly/update/end-use.php)")
#: A working day of use (a workstation used during office hours); a server that answers around
#: the clock is 24.
DEFAULT_HOURS_PER_DAY = 8.0
#: About one and a half GPU generations (NVIDIA has launched one every ~2 years): a common refresh cycle.
DEFAULT_YEARS = 3.0
#: Desktop idle of one discrete GPU, W: measured single-monitor idle of the RTX 3090 ≈ 18 W and of
#: the RTX 3090 Ti ≈ 21 W (https://www.ecoenergygeek.com/rtx-3090-power-consumption/,
#: https://nationalpcbuilder.com/rtx-3090-ti-power-consumption-how-much-power-does-the-rtx-3090-ti-use/).
IDLE_W_PER_GPU = 20.0
IDLE_SOURCE = "about 20 W per discrete GPU at desktop idle (RTX 3090 ≈ 18 W, RTX 3090 Ti ≈ 21 W measured)"
#: Chinchilla's compute-optimal ratio (Hoffmann et al. 2022, arXiv:2203.15556).
CHINCHILLA_TOKENS_PER_PARAM = 20.0
CHINCHILLA_SOURCE = "Chinchilla (Hoffmann et al. 2022, arXiv:2203.15556): ~20 tokens per parameter, 6·N·D FLOPs"
DAYS_PER_YEAR = 365
#: The settings' ranges (a real owner's): a tenth of a cent to $5 per kWh (retail tariffs run from about
#: 1 ¢ to under 1 $), six minutes to 24 hours a day, a few days (0.01 year) to 20 years. Below these a
#: value such as 1e-320 h (a subnormal float) made the price per hour of use infinite.
USD_PER_KWH_RANGE = (0.001, 5.0)
HOURS_PER_DAY_RANGE = (0.1, 24.0)
YEARS_RANGE = (0.01, 20.0)


class CostSettings(Frozen):
    """The user's running-cost settings (stored with the preferences; flags on the CLI)."""

    electricity_usd_per_kwh: float = Field(DEFAULT_USD_PER_KWH, ge=USD_PER_KWH_RANGE[0], le=USD_PER_KWH_RANGE[1],
                                           description="Electricity price, USD per kWh")
    hours_per_day: float = Field(DEFAULT_HOURS_PER_DAY, ge=HOURS_PER_DAY_RANGE[0], le=HOURS_PER_DAY_RANGE[1],
                                 description="Hours of use per day")
    years: float = Field(DEFAULT_YEARS, ge=YEARS_RANGE[0], le=YEARS_RANGE[1], description="Years of ownership")

    @property
    def hours_owned(self) -> float:
        """Hours of use over the years of ownership."""
        return self.years * DAYS_PER_YEAR * self.hours_per_day


class PowerDraw(Frozen):
    load_w: float | None = Field(description="Sustained draw under load: GPU TDPs plus the platform, W")
    idle_w: float | None = Field(description="GPUs at idle, W (platform idle not counted: no figure)")
    note: str = ""


def power_draw(build: ResolvedBuild) -> PowerDraw:
    """Load: GPU board powers (TDP) plus the platform's stated figure; the GPUs alone when the
    platform is unknown (said). Idle: ``IDLE_W_PER_GPU`` per discrete GPU; unknown for
    unified-memory machines (no figure)."""
    p = build_power(build)
    load = p.total_w if p.total_w is not None else p.gpus_w
    note = "" if p.total_w is not None or load is None else "GPUs only; platform power unknown"
    unified = build.unified_memory or any(g.segment is Segment.UNIFIED_MEMORY for g in build.gpus)
    idle = None if unified else IDLE_W_PER_GPU * build.gpu_count
    return PowerDraw(load_w=load, idle_w=idle, note=note)


def energy_usd_per_hour(load_w: float | None, settings: CostSettings) -> float | None:
    return None if load_w is None else load_w / 1000 * settings.electricity_usd_per_kwh


def energy_usd_per_year(load_w: float | None, settings: CostSettings) -> float | None:
    """Load power × hours of use per day × 365 × price per kWh (off outside the hours of use)."""
    per_hour = energy_usd_per_hour(load_w, settings)
    return None if per_hour is None else per_hour * settings.hours_per_day * DAYS_PER_YEAR


def owned_usd_per_hour(price_usd: float | None, load_w: float | None, settings: CostSettings) -> float | None:
    """Energy per hour plus the price spread over the hours of use while owned."""
    energy = energy_usd_per_hour(load_w, settings)
    if price_usd is None or energy is None:
        return None
    return energy + price_usd / settings.hours_owned


def usd_per_million_tokens(usd_per_hour: float | None, tokens_per_s: float | None) -> float | None:
    if usd_per_hour is None or not tokens_per_s or tokens_per_s <= 0:
        return None
    return usd_per_hour / (tokens_per_s * 3600) * 1e6


def total_cost_of_ownership(price_usd: float | None, load_w: float | None, settings: CostSettings) -> float | None:
    """Price plus the energy of the years of ownership."""
    energy = energy_usd_per_year(load_w, settings)
    if price_usd is None or energy is None:
        return None
    return price_usd + energy * settings.years


def break_even_hours(price_usd: float | None, cloud_usd_per_hour: float | None,
                     owned_energy_usd_per_hour: float | None) -> float | None:
    """Hours of use after which buying has cost less than renting: price / (rate − energy per hour).
    None when a figure is missing or renting costs no more per hour than the owned build's power."""
    if price_usd is None or cloud_usd_per_hour is None or owned_energy_usd_per_hour is None:
        return None
    margin = cloud_usd_per_hour - owned_energy_usd_per_hour
    return price_usd / margin if margin > 0 else None


def train_hours(dataset_tokens: float | None, epochs: float, tokens_per_s: float | None) -> float | None:
    """Hours to finish: dataset tokens × epochs / training tokens/s / 3600."""
    if dataset_tokens is None or not tokens_per_s or tokens_per_s <= 0:
        return None
    return dataset_tokens * epochs / tokens_per_s / 3600


def train_usd(hours: float | None, *, cloud_usd_per_hour: float | None = None, price_usd: float | None = None,
              load_w: float | None = None, settings: CostSettings | None = None) -> float | None:
    """Cloud: hours × rate. Owned: hours × (energy per hour + price / hours of use while owned)."""
    if hours is None:
        return None
    if cloud_usd_per_hour is not None:
        return hours * cloud_usd_per_hour
    per_hour = owned_usd_per_hour(price_usd, load_w, settings or CostSettings())
    return None if per_hour is None else hours * per_hour


def chinchilla_tokens(n_params: float) -> float:
    """Compute-optimal dataset size: about 20 tokens per parameter (Hoffmann et al. 2022)."""
    return CHINCHILLA_TOKENS_PER_PARAM * n_params


def training_flops(n_params: float, tokens: float) -> float:
    """About 6 FLOPs per parameter per token (2 forward, 4 backward): 6·N·D."""
    return 6.0 * n_params * tokens


def gpu_days(hours: float | None, n_gpus: int) -> float | None:
    return None if hours is None else hours * n_gpus / 24


class RunningCost(Frozen):
    """One build's running cost under the settings; None where a figure is unknown."""

    price_usd: float | None = Field(description="Purchase price, or the hourly rate of a cloud instance")
    price_kind: str | None = Field(description="new | used | per_hour")
    price_date: dt.date | None = None
    price_stale: bool = False
    load_w: float | None = None
    idle_w: float | None = None
    energy_usd_per_year: float | None = None
    usd_per_hour: float | None = Field(None, description="Owned: energy + price share per hour of use; cloud: rate")
    usd_per_million_tokens: float | None = None
    tco_usd: float | None = Field(None, description="Price + energy over the years of ownership (owned only)")
    train_hours: float | None = None
    train_usd: float | None = None
    gpu_days: float | None = None
    notes: tuple[str, ...] = ()

    @property
    def rented(self) -> bool:
        return self.price_kind == "per_hour"


def running_cost(*, price_usd: float | None, price_kind: str | None, price_date_: dt.date | None,
                 power: PowerDraw | None, tokens_per_s: float | None, settings: CostSettings,
                 today: dt.date, n_gpus: int = 1, dataset_tokens: float | None = None, epochs: float = 1,
                 train_tokens_per_s: float | None = None) -> RunningCost:
    """Everything above for one build. ``price_kind`` 'per_hour' means rented (``price_usd`` is its rate)."""
    notes: list[str] = []
    rented = price_kind == "per_hour"
    stale = is_stale(price_date_, today)
    if price_usd is None:
        notes.append("no price")
    elif stale and price_date_ is not None:  # only a dated price is stale
        notes.append(f"stale price (seen {price_date_.isoformat()})")
    hours = train_hours(dataset_tokens, epochs, train_tokens_per_s)
    if rented:
        per_hour = price_usd
        return RunningCost(price_usd=price_usd, price_kind=price_kind, price_date=price_date_, price_stale=stale,
                           usd_per_hour=per_hour, usd_per_million_tokens=usd_per_million_tokens(per_hour, tokens_per_s),
                           train_hours=hours, train_usd=train_usd(hours, cloud_usd_per_hour=per_hour),
                           gpu_days=gpu_days(hours, n_gpus), notes=tuple(notes))
    load = power.load_w if power is not None else None
    if power is not None and power.note:
        notes.append(power.note)
    if load is None:
        notes.append("power unknown")
    per_hour = owned_usd_per_hour(price_usd, load, settings)
    return RunningCost(
        price_usd=price_usd, price_kind=price_kind, price_date=price_date_, price_stale=stale,
        load_w=load, idle_w=power.idle_w if power is not None else None,
        energy_usd_per_year=energy_usd_per_year(load, settings), usd_per_hour=per_hour,
        usd_per_million_tokens=usd_per_million_tokens(per_hour, tokens_per_s),
        tco_usd=total_cost_of_ownership(price_usd, load, settings),
        train_hours=hours, train_usd=train_usd(hours, price_usd=price_usd, load_w=load, settings=settings),
        gpu_days=gpu_days(hours, n_gpus), notes=tuple(notes))
