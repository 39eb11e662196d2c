"""What every record shares: frozen, unknown keys and NaN refused, ids a file can be named by, version 1 exactly."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from advisor.core.schema import SCHEMA_VERSION, Frozen, PositiveFloat, Record, exact_int


class _Thing(Frozen):
    size: PositiveFloat


def test_frozen_refuses_changes_unknown_keys_and_nan():
    thing = _Thing(size=1.0)
    with pytest.raises(ValidationError):
        thing.size = 2.0
    with pytest.raises(ValidationError, match="Extra inputs"):
        _Thing.model_validate({"size": 1.0, "colour": "red"})
    for bad in (math.nan, math.inf, 0.0, -1.0):
        with pytest.raises(ValidationError):
            _Thing(size=bad)


@pytest.mark.parametrize("value", [True, 1.0, "1"])
def test_a_version_number_is_an_int_not_a_bool_or_float(value):
    with pytest.raises(ValueError, match="whole number"):
        exact_int(value)
    assert exact_int(1) == 1


@pytest.mark.parametrize(("rid", "ok"), [("rtx-4090", True), ("a.b_c-1", True), ("RTX", False), ("-x", False),
                                         ("", False), ("x" * 81, False), ("a/b", False)])
def test_record_ids_are_lower_case_file_names(rid, ok):
    data = {"id": rid, "sources": ["https://example.org/"]}
    if ok:
        assert Record.model_validate(data).schema_version == SCHEMA_VERSION
    else:
        with pytest.raises(ValidationError):
            Record.model_validate(data)


def test_a_record_needs_a_source_and_version_one():
    with pytest.raises(ValidationError):
        Record.model_validate({"id": "x", "sources": []})
    with pytest.raises(ValidationError):
        Record.model_validate({"id": "x", "sources": ["https://example.org/"], "schema_version": 2})
