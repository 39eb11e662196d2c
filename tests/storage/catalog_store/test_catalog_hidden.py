"""hidden.json: ids validated (no junk, no '../', no 70,000 ids), a bad file hides nothing and is kept."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.core.hardware.catalog import RecordKind
from advisor.storage.catalog_store import HIDDEN_FILE, RefusedOverwrite, hide_record, load_catalog
from advisor.storage.catalog_store.hidden import MAX_HIDDEN_PER_KIND


def _hidden_file(user, body) -> bytes:
    user.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(body).encode()
    (user / HIDDEN_FILE).write_bytes(raw)
    return raw


@pytest.mark.parametrize(("ids", "message"), [
    (["../gpus/card-a"], "not a record id"),
    (["Card-A"], "not a record id"),
    ([""], "not a record id"),
    ([7], "not a record id"),
    (["x" * 81], "not a record id"),
    ([f"junk-{i}" for i in range(MAX_HIDDEN_PER_KIND + 1)], "at most 5,000"),
])
def test_bad_hidden_ids_hide_nothing_and_the_file_is_kept(shipped, user, ids, message):
    raw = _hidden_file(user, {"schema_version": 1, "hidden": {"gpu": ["card-a", *ids]}})
    result = load_catalog(shipped, user)
    assert "card-a" in result.catalog.gpus  # nothing hidden
    [problem] = [p for p in result.problems if p.path.name == HIDDEN_FILE]
    assert problem.field == "hidden.gpu" and message in problem.message
    with pytest.raises(RefusedOverwrite):
        hide_record(RecordKind.GPU, "card-nv", shipped_dir=shipped, user_dir=user)
    assert (user / HIDDEN_FILE).read_bytes() == raw


@pytest.mark.parametrize("version", [True, 1.0, "1", None, 2])
def test_schema_version_must_be_the_integer_1(shipped, user, version):
    _hidden_file(user, {"schema_version": version, "hidden": {"gpu": ["card-a"]}})
    result = load_catalog(shipped, user)
    assert "card-a" in result.catalog.gpus and result.problems[0].field == "schema_version"


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12))
value = st.recursive(leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["gpu", "build", "model", "x", "hidden", "schema_version"]) | st.text(max_size=5), inner,
    max_size=4), max_leaves=20)


@FUZZ
@given(doc=value)
def test_fuzzed_hidden_file_loads_or_is_one_problem_and_is_untouched(shipped, user, doc):
    raw = _hidden_file(user, doc)
    result = load_catalog(shipped, user)
    mine = [p for p in result.problems if p.path.name == HIDDEN_FILE]
    assert all("\n" not in str(p) for p in mine)
    if mine:
        assert not result.catalog.hidden
    assert (user / HIDDEN_FILE).read_bytes() == raw
