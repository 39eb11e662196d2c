"""The window opens a hostile comparison file or model as a message and stays as it was.

A comparison with a 1e308 W inline GPU, a generic model of 5 parameters or JSON nested 100k
deep had switched the title and build list while keeping the previous results; a model
file with a wrong-typed key raised past the window's ModelImportError handler.
"""

from __future__ import annotations

import json

import pytest

from advisor.storage.comparison_file import save_comparison

# The offscreen platform warns that it cannot resize to size hints: noise, not a failure.
pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")]


def _snapshot(session):
    return session.title, session.builds, session.model, session.workload, session.results


@pytest.mark.parametrize("change", ["tdp", "generic", "nested"])
def test_a_comparison_that_cannot_be_estimated_leaves_the_window_as_it_was(app_window, tmp_path, qtbot, change):
    session, _window = app_window
    path = tmp_path / "c.json"
    save_comparison(path, session.comparison().model_copy(update={"title": "Other"}))
    doc = json.loads(path.read_text())
    if change == "tdp":
        gpu = session.catalog.gpus["rtx-3090"].model_dump(mode="json", exclude={"schema_version"})
        doc["builds"][0] = {"name": "inline", "inline": {"name": "inline", "gpus": [{**gpu, "tdp_w": 1e308}]}}
        text = json.dumps(doc)
    elif change == "generic":
        text = json.dumps({**doc, "model": {"generic_params": 5}})
    else:
        text = '{"title": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path.write_text(text)
    before = _snapshot(session)
    with qtbot.waitSignal(session.problem_reported) as blocker:
        assert not session.open(path)
    assert str(path) in blocker.args[0] and "\n" not in blocker.args[0]
    assert _snapshot(session) == before


def test_a_config_with_a_wrong_type_is_a_message(app_window, tmp_path, qtbot):
    session, _window = app_window
    cfg = {"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
           "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 32000, "num_local_experts": "8"}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    before = _snapshot(session)
    with qtbot.waitSignal(session.problem_reported) as blocker:
        assert not session.import_model(str(path))
    assert "num_local_experts" in blocker.args[0]
    assert _snapshot(session) == before
