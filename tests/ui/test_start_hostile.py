"""The window starts after any hostile last comparison or user record: it names the file and starts without it.

A comparison holding a 5,000-digit number, or a gradient accumulation of 10^400, stopped the window
from finishing its start, and the settings kept it as the last comparison: every later start stopped
the same way. A user record with such a number did the same on every start.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.core.advice.comparison import canonical_comparison
from advisor.storage import paths
from advisor.storage.comparison_file import to_json
from advisor.storage.settings import Settings, load_settings, save_settings
from tests.hostile import fresh_home

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]
HYP = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                      HealthCheck.too_slow])


def _canonical() -> dict:
    return json.loads(to_json(canonical_comparison()))


def _hostile_comparison(kind: str, digits: int) -> str:
    doc = _canonical()
    if kind == "long number":
        return json.dumps({**doc, "title": "@@"}).replace('"@@"', "9" * digits)
    if kind == "grad accumulation":
        doc["workload"] = {**doc["workload"], "mode": "train", "grad_accum_steps": "@@"}
        return json.dumps(doc).replace('"@@"', "1" + "0" * (digits % 500 + 6))
    if kind == "nested":
        return '{"title": ' + "[" * digits + "]" * digits + "}"
    if kind == "inline pair":
        return json.dumps({**doc, "builds": [{"name": "x", "gpu_id": "rtx-3090", "gpu_count": 2,
                                              "topology": {"nvlink_pairs": [[0, digits % 500 + 2]]}},
                                             doc["builds"][1]]})
    return "{" * (digits % 50)  # not JSON


def _start(qtbot):
    from advisor.ui.app import build_window

    session, window = build_window()
    session.slice_ms = math.inf
    window.skip_unsaved_prompt = True
    qtbot.addWidget(window)
    window.show()
    window.finish_start()
    qtbot.waitUntil(lambda: not session.results_pending, timeout=20000)
    return session, window


@HYP
@given(kind=st.sampled_from(["long number", "grad accumulation", "nested", "inline pair", "not JSON"]),
       digits=st.integers(4_301, 60_000))
def test_a_hostile_last_comparison_is_named_and_forgotten(qtbot, tmp_path, kind, digits):
    with fresh_home():
        path = tmp_path / "last.json"
        path.write_text(_hostile_comparison(kind, digits))
        save_settings(Settings(last_comparison=str(path)))
        text = path.read_bytes()
        session, window = _start(qtbot)
        try:
            message = window.statusBar().currentMessage()
            assert str(path) in message and "\n" not in message
            assert session.results.builds  # started without it: the first-launch comparison is shown
            assert path.read_bytes() == text
        finally:
            window.close()
            session.close()
        assert load_settings().settings.last_comparison is None  # the next start does not try it again


@HYP
@given(kind=st.sampled_from(["long number", "nested", "not JSON", "tdp"]), digits=st.integers(4_301, 60_000))
def test_a_hostile_user_record_is_named_and_the_window_starts(qtbot, kind, digits):
    record = json.loads((paths.Path(__file__).resolve().parents[2] / "catalog" / "gpus" / "rtx-3090.json").read_text())
    if kind == "long number":
        text = json.dumps({**record, "tdp_w": "@@"}).replace('"@@"', "9" * digits)
    elif kind == "nested":
        text = '{"notes": ' + "[" * digits + "]" * digits + "}"
    elif kind == "tdp":
        text = json.dumps({**record, "tdp_w": "@@"}).replace('"@@"', "1e" + str(digits))
    else:
        text = "{" * (digits % 50)
    with fresh_home():
        f = paths.user_catalog_dir() / "gpus" / "rtx-3090.json"
        f.parent.mkdir(parents=True)
        f.write_text(text)
        session, window = _start(qtbot)
        try:
            assert any(str(f) in p for p in session.catalog_problems)
            assert session.results.builds and session.catalog is not None
            assert f.read_text() == text
        finally:
            window.close()
            session.close()
