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


# --- each hostile file is one ComparisonFileError, the file untouched -----------------------

import os  # noqa: E402
import re  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.catalog_fixtures import gpu_data  # noqa: E402


def _doc(**model) -> dict:
    return json.loads(canonical_comparison().model_copy().model_dump_json()) | ({"model": model} if model else {})


def _inline_gpu_doc(**gpu_over) -> dict:
    doc = _doc()
    gpu = {k: v for k, v in gpu_data("inline", **gpu_over).items() if k != "schema_version"}
    doc["builds"][0] = {"name": "inline", "inline": {"name": "inline", "gpus": [gpu]}}
    return doc


@pytest.mark.parametrize(("doc", "expect"), [
    (_inline_gpu_doc(tdp_w=1e308), "between 1 and 10,000 W"),
    (_inline_gpu_doc(prices=[{"kind": "used", "usd": 1e308, "date_seen": "2026-01-01",
                              "source": "https://example.org"}]), "100,000,000 USD"),
    (_doc(generic_params=5), "generic_params: 5 is outside 1e+07 to 1e+13"),
])
def test_values_the_estimate_cannot_use_are_refused(tmp_path, doc, expect):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    before = path.read_bytes()
    with pytest.raises(ComparisonFileError, match=re.escape(expect)):
        load_comparison(path)
    assert path.read_bytes() == before


def test_json_nested_100k_deep_is_one_error(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"title": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ComparisonFileError, match="nested too deeply"):
        load_comparison(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_is_refused(tmp_path):
    os.mkfifo(tmp_path / "c.json")
    with pytest.raises(ComparisonFileError, match="FIFO"):
        load_comparison(tmp_path / "c.json")


_leaf = st.one_of(st.none(), st.booleans(), st.integers(-(10**400), 10**400), st.floats(), st.text(max_size=8))
_value = st.recursive(_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                         max_size=3), max_leaves=10)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(section=st.sampled_from(["title", "workload", "model", "builds", "rank_by", "schema_version"]), value=_value)
def test_fuzzed_comparison_opens_or_is_one_clear_error(tmp_path, section, value):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({**_doc(), section: value}))
    before = path.read_bytes()
    try:
        load_comparison(path)
    except ComparisonFileError as exc:
        assert "\n" not in str(exc).split(": not a valid comparison: ")[0]
    assert path.read_bytes() == before
