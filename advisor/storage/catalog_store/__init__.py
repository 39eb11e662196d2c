"""The user's catalog on disk: reading the shipped catalog with the user's overlay, and changing it.

``files`` reads one JSON file (bounded, regular files only); ``records`` turns it into a
record and back; ``hidden`` is ``hidden.json``; ``reading`` loads the layers into a
``Catalog`` with every problem listed (``migrated`` saves old records in the new schema);
``writing`` saves, removes, hides and resets records under the catalog lock (``storage.locking``).
"""

from advisor.storage.catalog_store.files import MAX_FILE_BYTES, read_json, record_files
from advisor.storage.catalog_store.hidden import HIDDEN_FILE, hidden_json, parse_hidden, parse_hidden_file
from advisor.storage.catalog_store.problems import CatalogStoreError, LoadProblem, RecordRead, RefusedOverwrite
from advisor.storage.catalog_store.reading import LoadResult, load_catalog, shipped_catalog_date
from advisor.storage.catalog_store.records import parse_record, read_record_file, record_json
from advisor.storage.catalog_store.writing import (
    hide_record,
    remove_record,
    reset_record,
    save_record,
    unhide_record,
    update_hidden,
    user_record_path,
    write_hidden,
)

__all__ = [
    "HIDDEN_FILE", "MAX_FILE_BYTES", "CatalogStoreError", "LoadProblem", "LoadResult", "RecordRead",
    "RefusedOverwrite", "hidden_json", "hide_record", "load_catalog", "parse_hidden", "parse_hidden_file",
    "parse_record", "read_json", "read_record_file", "record_files", "record_json", "remove_record", "reset_record",
    "save_record", "shipped_catalog_date", "unhide_record", "update_hidden", "user_record_path", "write_hidden",
]
