"""The entry point: a preset id, a ``config.json``, a model folder or a ``.gguf`` → ``ImportedModel``."""

from __future__ import annotations

from pathlib import Path

from advisor.core import ModelArch
from advisor.storage.model_import.common import ImportedModel, ModelImportError, read_json, validate_arch
from advisor.storage.model_import.import_config import arch_from_hf_config
from advisor.storage.model_import.import_safetensors import INDEX_NAME, load_folder

MAX_NAME_CHARS = 4096  # PATH_MAX; a single name part is checked by the OS (255 bytes)


def load_model(path_or_id: str | Path, catalog_dir: Path | None = None, catalog=None) -> ImportedModel:
    """Resolve a preset id, a ``config.json``, a model folder or a ``.gguf`` file.

    ``catalog``: an already loaded Catalog to find presets in (a command reads the catalog once);
    without it the store is read.

    Every failure is a ``ModelImportError``; a file whose content breaks the mapping in a
    way not foreseen is reported as such rather than as a traceback.
    """
    text = str(path_or_id).strip()
    if not text:
        raise ModelImportError("empty model name")
    if len(text) > MAX_NAME_CHARS or "\0" in text:
        raise ModelImportError(f"{text[:60]}…: not a model name or path (too long or not text)")
    try:
        path = Path(text).expanduser()
    except RuntimeError:  # '~name' with no such user (pathlib: "Could not determine home directory"):
        path = Path(text)  # kept as written, as a shell keeps it
    try:
        exists = path.exists()
    except OSError as exc:  # a name longer than the OS allows (ENAMETOOLONG) …
        raise ModelImportError(f"{text[:60]}…: not a usable file name ({exc.strerror or exc})") from None
    try:
        if exists:
            return _load_path(path)
    except ModelImportError:
        raise
    except (ValueError, TypeError, ArithmeticError, RecursionError, MemoryError) as exc:
        raise ModelImportError(f"{path}: cannot be imported ({type(exc).__name__}: {str(exc)[:200]})") from None
    if isinstance(path_or_id, Path) or "/" in text or "\\" in text or path.suffix in (".json", ".gguf"):
        raise ModelImportError(f"{text}: no such file or folder")
    return ImportedModel(arch=_preset(text, catalog_dir, catalog), origin="preset")


def _load_path(path: Path) -> ImportedModel:
    if path.is_dir():
        return _load_folder(path)
    name = path.name.lower()
    if name.endswith(".gguf"):
        from advisor.storage.model_import.import_gguf import load_gguf  # gguf only for .gguf files (it is slow to import)
        return load_gguf(path)
    if name == INDEX_NAME or name.endswith(".safetensors"):
        return _load_folder(path.parent)
    if name.endswith(".json"):
        data = read_json(path)
        if "n_layers" in data:  # a ModelArch record (a preset file kept elsewhere)
            return ImportedModel(arch=validate_arch(data, path), origin="preset", path=str(path))
        return ImportedModel(arch=arch_from_hf_config(data, path), origin="config", path=str(path))
    raise ModelImportError(f"{path}: not a config.json, .safetensors, .gguf or model folder")


def _load_folder(folder: Path) -> ImportedModel:
    if not (folder / "config.json").exists():
        ggufs = sorted(p for p in folder.glob("*.gguf") if not p.name.startswith("."))
        if len(ggufs) == 1:
            from advisor.storage.model_import.import_gguf import load_gguf  # gguf only for .gguf files (it is slow to import)
            return load_gguf(ggufs[0])
        raise ModelImportError(f"{folder}: no config.json (needed for the architecture)")
    return load_folder(folder)


def _preset(model_id: str, catalog_dir: Path | None, catalog=None) -> ModelArch:
    """A model record by id: the catalog store (user overrides included)."""
    from advisor.core import RecordKind
    from advisor.storage.catalog_store import load_catalog

    if catalog is None:
        # A read-only lookup of the models alone: the user's other records are not needed to find one.
        catalog = load_catalog(catalog_dir, migrate_user_files=False, kinds=(RecordKind.MODEL,)).catalog
    models = dict(catalog.of(RecordKind.MODEL))
    if model_id not in models:
        known = ", ".join(sorted(models)) or "none found"
        raise ModelImportError(f"unknown model {model_id!r}: not a preset id and not a file (presets: {known})")
    return models[model_id]
