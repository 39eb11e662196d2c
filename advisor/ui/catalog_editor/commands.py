"""Undoable catalog edits: each command moves records between two user-layer states.

Add, edit, delete, hide, reset — every edit is "this (kind, id) goes from state A to
state B" (``UserState``: the user's record or none, hidden or not), so one command class
serves them all and undo writes A back through the same atomic storage path. ``apply``
is the editor's write function: it asks about conflicts and returns False when nothing
was written (the user said no, or the write failed and was reported).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from PySide6.QtGui import QUndoCommand

from advisor.core import RecordKind
from advisor.ui.catalog_editor.repository import CatalogRepository, UserState

Apply = Callable[[RecordKind, str, UserState], bool]


@dataclass(frozen=True)
class Change:
    kind: RecordKind
    record_id: str
    before: UserState
    after: UserState


class StateCommand(QUndoCommand):
    """One or more changes (Reset all is many), applied in order and undone in reverse."""

    def __init__(self, apply: Apply, changes: list[Change], text: str) -> None:
        super().__init__(text)
        self.apply = apply
        self.changes = [c for c in changes if c.before != c.after]
        self.done = 0

    def redo(self) -> None:
        done = 0
        for change in self.changes:
            if not self.apply(change.kind, change.record_id, change.after):
                break
            done += 1
        if done == 0:
            # Nothing was written (refused or failed): QUndoStack.push drops obsolete commands.
            self.setObsolete(True)
        self.changes = self.changes[:done] if done < len(self.changes) and self.done == 0 else self.changes
        self.done = done

    def undo(self) -> None:
        for change in reversed(self.changes):
            if not self.apply(change.kind, change.record_id, change.before):
                break


def record_changes(repo: CatalogRepository, records) -> tuple[list[Change], list[str]]:
    """The changes that put ``records`` (a bundle's) into the user layer, and the words naming each one that
    replaces a different record of the user's (a conflict); records the user already has as they are are left
    out."""
    from advisor.core import kind_of
    from advisor.ui.catalog_editor.columns import KIND_WORDS

    changes, conflicts = [], []
    for record in records:
        kind = kind_of(record)
        before = repo.state(kind, record.id)
        if before.record == record:
            continue
        if before.record is not None:
            conflicts.append(f"{KIND_WORDS[kind]} {record.id}")
        changes.append(Change(kind, record.id, before, UserState(record, before.hidden)))
    return changes, conflicts


def hidden_changes(repo: CatalogRepository, hidden: Mapping[RecordKind, AbstractSet[str]]) -> list[Change]:
    """The changes that hide the shipped records a bundle hides and this catalog does not hide yet."""
    changes = []
    for kind, ids in hidden.items():
        for rid in sorted(ids - repo.catalog.hidden_ids(kind)):
            if rid in repo.catalog.shipped.of(kind):
                before = repo.state(kind, rid)
                changes.append(Change(kind, rid, before, UserState(before.record, True)))
    return changes
