"""User preferences, window geometry and the last comparison: ``paths.settings_file()``.

A missing file gives the defaults; a corrupt one is kept as ``settings.json.bad``, the
defaults are used and a warning says so (the user loses preferences, never the app).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.core.job.workload import Engine
from advisor.storage import paths
from advisor.storage.atomic import atomic_write_text


class Settings(BaseModel):
    """Everything the app remembers between runs."""

    model_config = ConfigDict(frozen=True, extra="ignore")  # keys from newer versions are dropped, not fatal

    schema_version: Literal[1] = 1
    memory_unit: Literal["GiB", "GB"] = Field("GiB", description="How memory sizes are shown")
    currency_style: Literal["symbol", "code"] = Field("symbol", description="'$1,234' or '1,234 USD'")
    default_engine: Engine = Field(Engine.TRANSFORMERS, description="Engine of a new comparison's workload")
    window_geometry: str | None = Field(None, description="QWidget.saveGeometry(), base64")
    window_state: str | None = Field(None, description="QMainWindow.saveState(), base64")
    last_comparison: str | None = Field(None, description="Path of the comparison open at exit")


class LoadedSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    settings: Settings
    warning: str | None = None


def load_settings(path: Path | None = None) -> LoadedSettings:
    """Read the settings; never raises for a bad file (it is moved aside to ``.bad``)."""
    source = path or paths.settings_file()
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        return LoadedSettings(settings=Settings())
    except (OSError, UnicodeDecodeError) as exc:
        return LoadedSettings(settings=Settings(), warning=f"{source}: could not read settings ({exc}); using defaults")
    try:
        return LoadedSettings(settings=Settings.model_validate(json.loads(text)))
    except (json.JSONDecodeError, ValidationError, TypeError) as exc:
        bad = source.with_name(source.name + ".bad")
        try:
            source.replace(bad)
            kept = f"kept as {bad.name}"
        except OSError:
            kept = "could not be moved aside"
        why = str(exc).splitlines()[0]
        return LoadedSettings(settings=Settings(), warning=f"{source}: settings were unreadable ({why}); {kept}, defaults used")


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically."""
    atomic_write_text(path or paths.settings_file(), settings.model_dump_json(indent=2) + "\n", backup=False)
