"""Where the user's files live: the one module that knows (tests redirect it).

``LLM_ADVISOR_HOME`` overrides every location (tests and portable installs set it);
otherwise platformdirs gives the platform's user data/config folders.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

_ENV = "LLM_ADVISOR_HOME"
_APP_DIR = "llm-advisor"


def _home() -> Path | None:
    value = os.environ.get(_ENV)
    return Path(value) if value else None


def user_data_dir() -> Path:
    """Root of the user's catalog and comparisons."""
    home = _home()
    return home / "data" if home else Path(platformdirs.user_data_dir(_APP_DIR, appauthor=False))


def user_config_dir() -> Path:
    home = _home()
    return home / "config" if home else Path(platformdirs.user_config_dir(_APP_DIR, appauthor=False))


def user_catalog_dir() -> Path:
    """The user's catalog overlay: same folders as the shipped ``catalog/``."""
    return user_data_dir() / "catalog"


def settings_file() -> Path:
    return user_config_dir() / "settings.json"

