"""What every ``catalog`` action shares: the record kinds, loading the catalog, finding a record by id, and
the two ways of printing."""

from __future__ import annotations

import json
import sys

from advisor.cli import UsageError

KINDS = ("gpu", "build", "system", "cloud", "model", "part", "platform")


def print_json(data: object) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def err(line: str) -> None:
    print(line, file=sys.stderr)


def load():
    """The catalog; a warning line on stderr when some files did not load."""
    from advisor.storage.catalog_store import load_catalog

    result = load_catalog()
    if result.problems:
        err(f"warning: {len(result.problems)} catalog problem(s); see 'llm-advisor catalog validate'")
    return result.catalog


def pick(catalog, record_id: str, kind: str | None):
    """(kind, record) for an id; the kind must be given when several kinds share it."""
    from advisor.core import RecordKind

    if kind:
        return RecordKind(kind), catalog.get(RecordKind(kind), record_id)
    found = catalog.find(record_id)
    if not found:
        hidden = [k.value for k in RecordKind if record_id in catalog.hidden_ids(k)]
        why = f" (a hidden shipped {hidden[0]})" if hidden else ""
        raise UsageError(f"no record with id {record_id!r} in the catalog{why}")
    if len(found) > 1:
        kinds = ", ".join(k.value for k, _ in found)
        raise UsageError(f"{record_id!r} is the id of several kinds ({kinds}): add --kind")
    return found[0]
