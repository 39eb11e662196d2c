"""Settings: defaults when missing, round trip; a bad file said, its values never dropped silently, every copy kept."""

import json

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from advisor.core.job.choices import Engine
from advisor.storage import paths
from advisor.storage.settings import (
    Settings,
    keep_bad_settings,
    load_settings,
    save_settings,
)


def test_missing_file_gives_defaults_without_warning():
    loaded = load_settings()
    assert loaded.settings == Settings() and loaded.warning is None


def test_roundtrip_under_the_redirected_config_dir(_isolated_user_dirs):
    s = Settings(memory_unit="GB", currency_style="code", default_engine=Engine.VLLM,
                 window_geometry="AAAA", last_comparison="/tmp/c.json")
    save_settings(s)
    assert paths.settings_file().is_relative_to(_isolated_user_dirs)
    assert load_settings().settings == s


def _kept(f):
    return sorted(p for p in f.parent.iterdir() if p.name.startswith("settings.json.") and p.name.endswith(".bad"))


@pytest.mark.parametrize("text", ["{broken", "[]", '"settings"', '{"a": ' + '9' * 5000 + '}'])
def test_an_unreadable_file_is_said_left_alone_by_reading_and_moved_aside_by_the_window(text):
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    f.write_text(text)
    loaded = load_settings()
    assert loaded.settings == Settings() and loaded.damage == "file"
    assert "could not be read" in loaded.warning and "defaults" in loaded.warning and "\n" not in loaded.warning
    assert f.read_text() == text  # reading changes nothing (the CLI reads)
    kept = keep_bad_settings(loaded)  # the window, before it saves over the file
    [copy] = _kept(f)
    assert copy.read_text() == text and not f.exists() and copy.name in kept.warning


def test_a_value_of_the_wrong_kind_is_dropped_alone_and_named():
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    f.write_text('{"memory_unit": "furlongs", "currency_style": "code"}')
    loaded = load_settings()
    assert loaded.settings.memory_unit == "GiB" and loaded.settings.currency_style == "code"
    assert loaded.damage == "values" and "memory_unit 'furlongs'" in loaded.warning


_bad_texts = st.one_of(st.text(max_size=20).filter(lambda t: not t.strip().startswith("{")),
                       st.builds(lambda k, v: json.dumps({k: v}),
                                 st.sampled_from(["hours_per_day", "years", "memory_unit", "last_comparison"]),
                                 st.one_of(st.integers(-10**9, 10**9), st.floats(), st.text(max_size=5))))


@hyp_settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(_bad_texts, min_size=1, max_size=5))
def test_every_bad_file_the_window_meets_is_kept(tmp_path_factory, texts):
    f = tmp_path_factory.mktemp("config") / "settings.json"
    kept_texts = []
    for text in texts:
        f.write_bytes(text.encode("utf-8", "surrogatepass"))
        loaded = load_settings(f)
        if loaded.damage is None:
            continue  # a good file (the text happened to be valid settings): nothing to keep
        assert loaded.warning and "\n" not in loaded.warning
        kept = keep_bad_settings(loaded)
        assert "kept as" in kept.warning
        kept_texts.append(text)
    assert sorted(p.read_bytes() for p in _kept(f)) == sorted(t.encode("utf-8", "surrogatepass") for t in kept_texts)


def test_unknown_keys_from_a_newer_version_are_ignored():
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    f.write_text('{"memory_unit": "GB", "future_thing": 3}')
    assert load_settings().settings.memory_unit == "GB"


# --- hostile settings ------------------------------------------------------------------------------------

import os  # noqa: E402


def test_deeply_nested_settings_are_moved_aside_and_defaults_used():
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    text = "[" * 100_000 + "]" * 100_000
    f.write_text(text)
    loaded = keep_bad_settings(load_settings())
    assert loaded.settings == Settings() and "nested too deeply" in loaded.warning and "kept as" in loaded.warning
    assert [p.read_text() for p in _kept(f)] == [text]


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="FIFOs and /dev/zero")
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_odd_settings_files_are_moved_aside_not_read(kind):
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    os.mkfifo(f) if kind == "fifo" else f.symlink_to("/dev/zero")
    loaded = load_settings()
    assert loaded.settings == Settings() and "not a regular file" in loaded.warning and os.path.lexists(f)
    keep_bad_settings(loaded)
    assert not os.path.lexists(f) and len(_kept(f)) == 1


@hyp_settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                            st.sampled_from(["memory_unit", "schema_version", "default_engine", "x"]), inner,
                            max_size=3), max_leaves=10))
def test_fuzzed_settings_load_or_fall_back_to_defaults(tmp_path, doc):
    f = tmp_path / "settings.json"
    f.write_text(json.dumps(doc))
    loaded = load_settings(f)
    assert isinstance(loaded.settings, Settings)
    assert loaded.warning is None or "\n" not in loaded.warning


# --- running cost -----------------------------------------------------------------------------


def test_running_cost_settings_round_trip_and_default_sources():
    from advisor.core.cost.running import DEFAULT_USD_PER_KWH, ELECTRICITY_SOURCE

    assert Settings().electricity_usd_per_kwh == DEFAULT_USD_PER_KWH and "EIA" in ELECTRICITY_SOURCE
    s = Settings(electricity_usd_per_kwh=0.31, hours_per_day=24, years=5)
    save_settings(s)
    back = load_settings().settings
    assert back == s and back.cost.electricity_usd_per_kwh == 0.31 and back.cost.hours_owned == 5 * 365 * 24


@pytest.mark.parametrize("bad", [{"electricity_usd_per_kwh": 0}, {"electricity_usd_per_kwh": -1},
                                 {"electricity_usd_per_kwh": "cheap"}, {"hours_per_day": 25},
                                 {"hours_per_day": 0}, {"years": 0}, {"years": 100}])
def test_bad_running_cost_values_are_refused(bad):
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        Settings(**bad)


def test_a_bad_running_cost_value_in_the_file_falls_back_to_its_default_only():
    import json

    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    f.write_text(json.dumps({"memory_unit": "GB", "electricity_usd_per_kwh": -3, "years": 4}))
    loaded = load_settings()
    assert loaded.settings.memory_unit == "GB" and loaded.settings.years == 4  # the rest is kept
    assert loaded.settings.electricity_usd_per_kwh == Settings().electricity_usd_per_kwh
    assert "electricity_usd_per_kwh -3: input should be greater than or equal to 0.001" in loaded.warning
    assert f.exists()
    kept = keep_bad_settings(loaded)  # the window keeps a copy: its save at exit writes the default
    [copy] = _kept(f)
    assert json.loads(copy.read_text())["electricity_usd_per_kwh"] == -3 and f.exists() and copy.name in kept.warning
