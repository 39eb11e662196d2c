"""User preferences, window geometry and the last comparison: ``paths.settings_file()``.

A missing file gives the defaults; a corrupt one (not JSON, nested too deeply, not a
regular file, too large) is kept as ``settings.json.bad``, the defaults are used and a
warning says so (the user loses preferences, never the app: a deeply nested
file had stopped it on every launch).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.core.cost.running import DEFAULT_HOURS_PER_DAY, DEFAULT_USD_PER_KWH, DEFAULT_YEARS, CostSettings
from advisor.core.job.defaults import DEFAULT_ENGINE
from advisor.core.job.workload import Engine
from advisor.storage import paths
from advisor.storage.atomic import atomic_write_text
from advisor.storage.locking import locked
from advisor.storage.safe_read import FileRefused, read_text_limited
from advisor.storage.window_place import MAX_BYTES
COST_FIELDS = ("electricity_usd_per_kwh", "hours_per_day", "years")  # window geometry and state included, settings are ~2 KB


class Settings(BaseModel):
    """Everything the app remembers between runs."""

    model_config = ConfigDict(frozen=True, extra="ignore")  # keys from newer versions are dropped, not fatal

    schema_version: Literal[1] = 1
    memory_unit: Literal["GiB", "GB"] = Field("GiB", description="How memory sizes are shown")
    currency_style: Literal["symbol", "code"] = Field("symbol", description="'$1,234' or '1,234 USD'")
    default_engine: Engine = Field(DEFAULT_ENGINE, description="Engine of a new comparison's workload (first launch's)")
    window_geometry: str | None = Field(None, description="QWidget.saveGeometry(), base64")
    window_state: str | None = Field(None, description="QMainWindow.saveState(), base64")
    last_comparison: str | None = Field(None, description="Path of the comparison open at exit")
    recent_comparisons: tuple[str, ...] = Field((), description="File ▸ Open Recent: paths, newest first")
    # Running cost: defaults and their sources in advisor.core.cost.running.
    electricity_usd_per_kwh: float = Field(DEFAULT_USD_PER_KWH, gt=0, le=5, allow_inf_nan=False,
                                           description="Electricity price, USD per kWh")
    hours_per_day: float = Field(DEFAULT_HOURS_PER_DAY, gt=0, le=24, allow_inf_nan=False,
                                 description="Hours of use per day")
    years: float = Field(DEFAULT_YEARS, gt=0, le=20, allow_inf_nan=False, description="Years of ownership")

    @property
    def cost(self) -> CostSettings:
        """The running-cost settings the core takes."""
        return CostSettings(electricity_usd_per_kwh=self.electricity_usd_per_kwh, hours_per_day=self.hours_per_day,
                            years=self.years)


class LoadedSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    settings: Settings
    warning: str | None = None


def load_settings(path: Path | None = None) -> LoadedSettings:
    """Read the settings; never raises for a bad file (it is moved aside to ``.bad``)."""
    source = path or paths.settings_file()
    try:
        data = json.loads(read_text_limited(source, MAX_BYTES))
        try:
            return LoadedSettings(settings=Settings.model_validate(data))
        except ValidationError as exc:
            # A bad running-cost value is dropped (its default used, said), not the whole file.
            bad = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
            if not isinstance(data, dict) or not bad or not bad <= set(COST_FIELDS):
                raise
            kept = Settings.model_validate({k: v for k, v in data.items() if k not in bad})
            return LoadedSettings(settings=kept, warning=f"{source}: {', '.join(sorted(bad))} out of range; "
                                                         "the default is used")
    except FileNotFoundError:
        return LoadedSettings(settings=Settings())
    except (FileRefused, UnicodeDecodeError, json.JSONDecodeError, ValidationError, TypeError, ValueError,
            RecursionError) as exc:
        bad = source.with_name(source.name + ".bad")
        try:
            source.replace(bad)
            kept = f"kept as {bad.name}"
        except OSError:
            kept = "could not be moved aside"
        why = "JSON nested too deeply" if isinstance(exc, RecursionError) else (str(exc).splitlines() or ["?"])[0]
        return LoadedSettings(settings=Settings(), warning=f"{source}: settings were unreadable ({why}); {kept}, defaults used")
    except OSError as exc:  # unreadable (permissions): left alone, defaults used
        return LoadedSettings(settings=Settings(), warning=f"{source}: could not read settings ({exc.strerror or exc}); "
                              "using defaults")


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically (under a lock: two windows closing at once write one after the other)."""
    target = path or paths.settings_file()
    with locked(target.parent, name=".settings.lock"):
        atomic_write_text(target, settings.model_dump_json(indent=2) + "\n", backup=False)
