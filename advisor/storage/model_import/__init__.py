"""Offline model import: a preset id, a Hugging Face ``config.json``, a model folder, a ``.gguf``.

``load_model`` (``load``) turns any of these into an ``ImportedModel``: the ``ModelArch``
plus what the files state exactly. Nothing is downloaded and no tensor is loaded. One
module per format: ``import_config`` (config.json), ``import_safetensors`` (folders and
safetensors headers), ``import_gguf`` over ``gguf_header`` (a bounded header reader).
Every failure is a ``ModelImportError`` whose message names the path and what is wrong.
"""

from advisor.storage.model_import.common import ImportedModel, ModelImportError
from advisor.storage.model_import.import_config import arch_from_hf_config
from advisor.storage.model_import.import_safetensors import read_safetensors_headers
from advisor.storage.model_import.load import load_model

__all__ = ["ImportedModel", "ModelImportError", "arch_from_hf_config", "load_gguf", "load_model",
           "read_safetensors_headers"]


def __getattr__(name: str):
    """``load_gguf`` is imported when first asked for: gguf is slow to import, and only .gguf files need it."""
    if name == "load_gguf":
        from advisor.storage.model_import.import_gguf import load_gguf

        return load_gguf
    raise AttributeError(name)
