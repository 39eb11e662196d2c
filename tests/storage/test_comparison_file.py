"""Comparison files: atomic save, faithful reload, one clear error for each kind of bad file."""

import json

import pytest

from advisor.core.advice.comparison import canonical_comparison
from advisor.storage.comparison_file import ComparisonFileError, load_comparison, save_comparison


def test_save_then_load_roundtrips(tmp_path):
    c = canonical_comparison()
    path = save_comparison(tmp_path / "sub" / "c.json", c)
    assert load_comparison(path) == c
    assert [p.name for p in path.parent.iterdir()] == ["c.json"]  # no temp file left behind


def test_save_replaces_existing_file(tmp_path):
    path = tmp_path / "c.json"
    path.write_text("old")
    save_comparison(path, canonical_comparison())
    assert json.loads(path.read_text())["schema_version"] == 2  # plans per build (version 1 migrates)


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"schema_version": 9}', "schema_version 9 is not supported"),
        ('{"model": {"preset_id": "x"}, "builds": []}', "builds"),
    ],
)
def test_bad_files_give_one_clear_error(tmp_path, text, expect):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ComparisonFileError, match=expect) as info:
        load_comparison(path)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(ComparisonFileError, match="no such file"):
        load_comparison(tmp_path / "nope.json")


def test_save_into_unwritable_place_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ComparisonFileError, match="could not save"):
        save_comparison(blocker / "c.json", canonical_comparison())
