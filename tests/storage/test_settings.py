"""Settings: defaults when missing, round trip, a corrupt file kept as .bad with a warning."""

import pytest

from advisor.core.job.workload import Engine
from advisor.storage import paths
from advisor.storage.settings import Settings, load_settings, save_settings


def test_missing_file_gives_defaults_without_warning():
    loaded = load_settings()
    assert loaded.settings == Settings() and loaded.warning is None


def test_roundtrip_under_the_redirected_config_dir(_isolated_user_dirs):
    s = Settings(memory_unit="GB", currency_style="code", default_engine=Engine.VLLM,
                 window_geometry="AAAA", last_comparison="/tmp/c.json")
    save_settings(s)
    assert paths.settings_file().is_relative_to(_isolated_user_dirs)
    assert load_settings().settings == s


@pytest.mark.parametrize("text", ["{broken", '{"memory_unit": "furlongs"}', "[]"])
def test_corrupt_file_is_kept_as_bad_and_defaults_used(text):
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    f.write_text(text)
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert "settings.json.bad" in loaded.warning
    assert f.with_name("settings.json.bad").read_text() == text
    assert not f.exists()


def test_unknown_keys_from_a_newer_version_are_ignored():
    f = paths.settings_file()
    f.parent.mkdir(parents=True)
    f.write_text('{"memory_unit": "GB", "future_thing": 3}')
    assert load_settings().settings.memory_unit == "GB"
