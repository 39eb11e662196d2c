"""Undoable catalog edits: each command moves records between two user-layer states.

Add, edit, delete, hide, reset — every edit is "this (kind, id) goes from state A to
state B" (``UserState``: the user's record or none, hidden or not), so one command class
serves them all and undo writes A back through the same atomic storage path. ``apply``
is the editor's write function: it asks about conflicts and returns False when nothing
was written (the user said no, or the write failed and was reported).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtGui import QUndoCommand

from advisor.core.hardware.catalog import RecordKind
from advisor.ui.catalog_editor.repository import UserState

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
