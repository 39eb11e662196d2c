"""json_text.loads: every way JSON text can fail is one JSONTextError of one line; what json reads, it reads."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.storage.json_text import INT_MAX_DIGITS, JSONTextError, loads

# The test puts its number where a *value* "@" was (a number key is not JSON at all), found as the text '"@"':
# so no key and no other string holds an "@", which could end in that text once escaped ('x"@' is '"x\\"@"').
_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                     st.text(max_size=10).filter(lambda t: t == "@" or "@" not in t))
_keys = st.text(max_size=6).filter(lambda k: "@" not in k)
_docs = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(_keys, inner, max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(doc=_docs, digits=st.integers(INT_MAX_DIGITS + 1, 50_000), sign=st.sampled_from(["", "-"]),
       where=st.integers(0, 10_000), indent=st.sampled_from([None, 1, 2]))
def test_an_integer_past_pythons_limit_anywhere_is_one_line_naming_where(doc, digits, sign, where, indent):
    text = json.dumps(doc, indent=indent)
    marker = json.dumps("@")  # a string value somewhere in the document, replaced by the number
    spots = [i for i in range(len(text)) if text.startswith(marker, i)]
    number = sign + "7" * digits
    if spots:
        at = spots[where % len(spots)]
        text = text[:at] + number + text[at + len(marker):]
    else:
        text = json.dumps([doc, "@"], indent=indent).replace(marker, number)
    start = time.monotonic()
    with pytest.raises(JSONTextError) as info:
        loads(text)
    message = str(info.value)
    assert "\n" not in message and f"over {INT_MAX_DIGITS:,} digits" in message
    line = int(message.split("line ")[1].split(",")[0])
    assert text.splitlines()[line - 1].count("7" * (INT_MAX_DIGITS + 1)) >= 1  # the line it names holds the number
    assert time.monotonic() - start < 5


@settings(max_examples=100, deadline=None)
@given(doc=_docs)
def test_what_json_reads_loads_reads_the_same(doc):
    text = json.dumps(doc)
    assert loads(text) == json.loads(text) and loads(text.encode()) == json.loads(text)


@pytest.mark.parametrize(("text", "says"), [
    (b"\xff{}", "not UTF-8"), ("{", "not JSON (line 1, column 2"), ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"a": 1} x', "not JSON"),
])
def test_other_failures_are_one_line(text, says):
    with pytest.raises(JSONTextError, match=says.replace("(", r"\(")) as info:
        loads(text)
    assert "\n" not in str(info.value)
