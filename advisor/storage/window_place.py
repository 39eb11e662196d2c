"""The window's saved place, read before the app's models load (the frame is painted
first, where the user left it, and the rest of the settings are read after that paint).

Only the two strings Qt saved (``QWidget.saveGeometry()``, ``QMainWindow.saveState()``, base64)
are taken; anything odd about the file gives no place (the window opens at its default size)
and is left for ``settings.load_settings``, after the paint, to report and move aside.
"""

from __future__ import annotations

import json
from pathlib import Path

from advisor.storage import paths
from advisor.storage.safe_read import FileRefused, read_text_limited

MAX_BYTES = 1_000_000  # the settings file's limit (window geometry and state included, ~2 KB)


def saved_place(path: Path | None = None) -> tuple[str | None, str | None]:
    """(geometry, state) as saved at the last exit, or None each; never raises, never writes."""
    source = path or paths.settings_file()
    try:
        data = json.loads(read_text_limited(source, MAX_BYTES))
    except (OSError, FileRefused, UnicodeDecodeError, ValueError, RecursionError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    geometry, state = data.get("window_geometry"), data.get("window_state")
    return (geometry if isinstance(geometry, str) else None, state if isinstance(state, str) else None)
