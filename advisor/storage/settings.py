"""User preferences, window geometry and the last comparison: ``paths.settings_file()``.

A missing file gives the defaults. Nothing in a bad file is dropped without a word, and no copy
of it is ever lost:

* a value out of its range (or of a wrong type) is dropped alone, its default used, and the
  warning names it, its value and its range; the rest of the file is kept;
* a file that cannot be read at all (not JSON, nested too deeply, not a regular file, too large)
  gives the defaults, and the warning says why.

``load_settings`` only reads. The window, which saves the settings when it closes (over the file),
first calls ``keep_aside``: the file is moved (unreadable) or copied (values dropped) to a name of
its own, dated and numbered (``settings.json.2026-05-01T101530.bad``, then ``-2`` …): a second bad
file never replaces the first copy (it did: ``settings.json.bad`` was overwritten). The CLI moves
nothing: it prints the warning on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.core import (
    DEFAULT_ENGINE,
    DEFAULT_HOURS_PER_DAY,
    DEFAULT_USD_PER_KWH,
    DEFAULT_YEARS,
    HOURS_PER_DAY_RANGE,
    USD_PER_KWH_RANGE,
    YEARS_RANGE,
    CostSettings,
    Engine,
)
from advisor.storage import json_text, paths
from advisor.storage.atomic import atomic_write_text, keep_aside
from advisor.storage.locking import locked
from advisor.storage.safe_read import FileRefused, read_text_limited
from advisor.storage.window_place import MAX_BYTES  # window geometry and state included, settings are ~2 KB

#: Longest path the settings hold (Linux PATH_MAX is 4,096 bytes) and longest saved window state (Qt's
#: saveGeometry/saveState of this window are well under 1 KB as base64).
MAX_PATH_CHARS = 4_096
MAX_QT_STATE_CHARS = 100_000
#: File ▸ Open Recent shows 8 (``ui.recent.MAX_RECENT``); a longer list is someone else's file.
MAX_RECENT = 32


class Settings(BaseModel):
    """Everything the app remembers between runs."""

    model_config = ConfigDict(frozen=True, extra="ignore")  # keys from newer versions are dropped, not fatal

    schema_version: Literal[1] = 1
    memory_unit: Literal["GiB", "GB"] = Field("GiB", description="How memory sizes are shown")
    currency_style: Literal["symbol", "code"] = Field("symbol", description="'$1,234' or '1,234 USD'")
    default_engine: Engine = Field(DEFAULT_ENGINE, description="Engine of a new comparison's workload (first launch's)")
    window_geometry: str | None = Field(None, max_length=MAX_QT_STATE_CHARS, description="QWidget.saveGeometry(), base64")
    window_state: str | None = Field(None, max_length=MAX_QT_STATE_CHARS, description="QMainWindow.saveState(), base64")
    last_comparison: str | None = Field(None, min_length=1, max_length=MAX_PATH_CHARS,
                                        description="Path of the comparison open at exit")
    recent_comparisons: tuple[Annotated[str, Field(min_length=1, max_length=MAX_PATH_CHARS)], ...] = Field(
        (), max_length=MAX_RECENT, description="File ▸ Open Recent: paths, newest first")
    # Running cost: defaults, ranges and their sources in advisor.core.cost.running.
    electricity_usd_per_kwh: float = Field(DEFAULT_USD_PER_KWH, ge=USD_PER_KWH_RANGE[0], le=USD_PER_KWH_RANGE[1],
                                           allow_inf_nan=False, description="Electricity price, USD per kWh")
    hours_per_day: float = Field(DEFAULT_HOURS_PER_DAY, ge=HOURS_PER_DAY_RANGE[0], le=HOURS_PER_DAY_RANGE[1],
                                 allow_inf_nan=False, description="Hours of use per day")
    years: float = Field(DEFAULT_YEARS, ge=YEARS_RANGE[0], le=YEARS_RANGE[1], allow_inf_nan=False,
                         description="Years of ownership")

    @property
    def cost(self) -> CostSettings:
        """The running-cost settings the core takes."""
        return CostSettings(electricity_usd_per_kwh=self.electricity_usd_per_kwh, hours_per_day=self.hours_per_day,
                            years=self.years)


class LoadedSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    settings: Settings
    warning: str | None = Field(None, description="One line: what was wrong and what is used instead")
    path: Path | None = Field(None, description="The file read")
    damage: Literal["values", "file"] | None = Field(
        None, description="'values': some values dropped (the rest kept); 'file': nothing could be read")


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=True) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _message(err) -> str:
    msg = str(err.get("msg", "not valid"))
    return msg[:1].lower() + msg[1:]


def _drop_bad_values(source: Path, data: dict, exc: ValidationError) -> LoadedSettings:
    """The settings without the keys that failed (each said, with its value and why); the rest kept."""
    bad: dict[str, str] = {}
    for err in exc.errors(include_url=False):
        key = str(err["loc"][0]) if err["loc"] else None
        if key is None or key not in data:
            raise exc
        bad.setdefault(key, _message(err))
    kept = Settings.model_validate({k: v for k, v in data.items() if k not in bad})
    said = "; ".join(f"{key} {_shown(data[key])}: {why}, the default {_shown(getattr(kept, key))} is used"
                     for key, why in sorted(bad.items()))
    return LoadedSettings(settings=kept, warning=f"{source}: {said}", path=source, damage="values")


def load_settings(path: Path | None = None) -> LoadedSettings:
    """Read the settings; never raises, never writes (a bad file: see the module docstring)."""
    source = path or paths.settings_file()
    try:
        data = json_text.loads(read_text_limited(source, MAX_BYTES))
        try:
            return LoadedSettings(settings=Settings.model_validate(data), path=source)
        except ValidationError as exc:
            if not isinstance(data, dict):
                raise
            return _drop_bad_values(source, data, exc)
    except FileNotFoundError:
        return LoadedSettings(settings=Settings(), path=source)
    except (FileRefused, UnicodeDecodeError, json_text.JSONTextError, ValidationError) as exc:
        why = "not an object of settings" if isinstance(exc, ValidationError) else (str(exc).splitlines() or ["?"])[0]
        if isinstance(exc, FileRefused):
            why = exc.strerror
        elif isinstance(exc, UnicodeDecodeError):
            why = "not UTF-8 text"
        return LoadedSettings(settings=Settings(), path=source, damage="file",
                              warning=f"{source}: settings could not be read ({why}); the defaults are used")
    except OSError as exc:  # unreadable (permissions): left alone, defaults used
        return LoadedSettings(settings=Settings(), path=source,
                              warning=f"{source}: could not read settings ({exc.strerror or exc}); the defaults are used")


def keep_bad_settings(loaded: LoadedSettings) -> LoadedSettings:
    """Before the window saves over a bad settings file: move it (unreadable) or copy it (values
    dropped) to a dated, numbered name no other copy has; the warning then says where it is."""
    if loaded.damage is None or loaded.path is None:
        return loaded
    try:
        with locked(loaded.path.parent, name=".settings.lock"):
            kept = keep_aside(loaded.path, ".bad", move=loaded.damage == "file")
        where = f"the file is kept as {kept.name}"
    except OSError as exc:
        where = f"the file could not be kept aside ({exc.strerror or exc})"
    return loaded.model_copy(update={"warning": f"{loaded.warning}; {where}"})


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically (under a lock: two windows closing at once write one after the other)."""
    target = path or paths.settings_file()
    with locked(target.parent, name=".settings.lock"):
        atomic_write_text(target, settings.model_dump_json(indent=2) + "\n", backup=False)
