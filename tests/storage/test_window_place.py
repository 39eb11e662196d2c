"""The window's saved place, read before the settings' model loads (the window opens there at once): never raises,
never writes, refuses what is not a regular file or too large, bounded time on any bytes."""

import json
import os
import time

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from advisor.storage import paths
from advisor.storage.settings import Settings, save_settings
from advisor.storage.window_place import MAX_BYTES, saved_place


def test_the_place_saved_by_the_settings_is_read_back():
    save_settings(Settings(window_geometry="AdnQywAD", window_state="AAAA/wAA"))
    assert saved_place() == ("AdnQywAD", "AAAA/wAA")


def test_no_file_no_place():
    assert not paths.settings_file().exists()
    assert saved_place() == (None, None)


@pytest.mark.parametrize("text", ["{broken", "[]", '{"window_geometry": 12, "window_state": "AAAA"}',
                                  "[" * 100_000 + "]" * 100_000, '"x"' + " " * (MAX_BYTES + 1)])
def test_odd_contents_give_no_place_and_leave_the_file_as_it_is(text):
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    f.write_text(text)
    got = saved_place()
    assert got[0] is None and got[1] in (None, "AAAA")
    assert f.read_text() == text  # load_settings, after the first paint, moves it aside and says so


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_is_not_opened_for_reading(tmp_path):
    f = tmp_path / "settings.json"
    os.mkfifo(f)
    t = time.monotonic()
    assert saved_place(f) == (None, None)  # a read would block forever
    assert time.monotonic() - t < 5 and f.exists()


@hyp_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=300), st.builds(
    lambda d: json.dumps(d).encode(),
    st.dictionaries(st.sampled_from(["window_geometry", "window_state", "memory_unit", "x"]),
                    st.one_of(st.none(), st.integers(), st.text(max_size=12), st.lists(st.integers(), max_size=2)),
                    max_size=4))))
def test_any_bytes_give_strings_or_none_quickly_and_touch_nothing(tmp_path, data):
    f = tmp_path / "settings.json"
    f.write_bytes(data)
    t = time.monotonic()
    geometry, state = saved_place(f)
    assert time.monotonic() - t < 2
    assert all(v is None or isinstance(v, str) for v in (geometry, state))
    assert f.read_bytes() == data
