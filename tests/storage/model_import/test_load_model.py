"""The entry point: preset ids (user overrides win), missing paths, odd names."""

import pytest

from advisor.core.model.params import count_params
from advisor.storage.model_import import ModelImportError, load_model


def test_preset_id():
    model = load_model("llama-2-7b")
    assert model.origin == "preset" and model.arch.id == "llama-2-7b"
    assert count_params(model.arch).total == 6_738_415_616
    assert model.weights_bytes_override is None and model.params_exact is None


def test_user_override_of_a_preset_wins(tmp_path):
    from advisor.storage import paths

    user_models = paths.user_catalog_dir() / "models"
    user_models.mkdir(parents=True, exist_ok=True)
    record = load_model("llama-2-7b").arch.model_copy(update={"name": "My Llama", "max_context": 8192})
    (user_models / "llama-2-7b.json").write_text(record.model_dump_json(), encoding="utf-8")
    assert load_model("llama-2-7b").arch.name == "My Llama"


def test_unknown_preset_names_the_id_and_lists_presets():
    with pytest.raises(ModelImportError, match="unknown model 'no-such-model'.*llama-2-7b"):
        load_model("no-such-model")


@pytest.mark.parametrize("text", ["./missing/config.json", "missing.gguf", "/nonexistent/dir"])
def test_missing_path_is_named(text):
    with pytest.raises(ModelImportError, match="no such file"):
        load_model(text)


@pytest.mark.parametrize("name", ["m" * 300, "dir/" + "m" * 300 + ".gguf", "x" * 5000, "a\0b"])
def test_a_name_the_os_cannot_use_is_one_clear_error(name):
    with pytest.raises(ModelImportError):
        load_model(name)


def test_a_home_of_no_such_user_is_one_clear_error():
    """'~name' where no user of that name exists: pathlib raises RuntimeError from ``expanduser``; the
    name is kept as written (as a shell keeps it) and is then no known model."""
    with pytest.raises(ModelImportError):
        load_model("~no-such-user-4f1c9/config.json")
    with pytest.raises(ModelImportError, match="~no-such-user-4f1c9"):
        load_model("~no-such-user-4f1c9")
