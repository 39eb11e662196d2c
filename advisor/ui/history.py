"""Undo and redo of the comparison's edits: each edit is a pair of snapshots on a QUndoStack.

A snapshot is the whole edited document (workload, model, builds, rank-by), all frozen
values, so undo is "put the old snapshot back" and no edit needs its own inverse. The
session makes every setter a command here; the main window's Edit menu shows the stack.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from PySide6.QtGui import QUndoCommand

from advisor.ui import words


@dataclass(frozen=True)
class Snapshot:
    """What an edit can change (frozen pydantic values and a tuple: cheap to keep)."""

    workload: object
    model: object
    arch: object
    builds: tuple
    criterion: object

    def changed(self, other: Snapshot) -> set[str]:
        return {f.name for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)}


class SnapshotCommand(QUndoCommand):
    """One edit: ``redo`` puts ``after`` in place, ``undo`` puts ``before`` back."""

    def __init__(self, restore, text: str, before: Snapshot, after: Snapshot) -> None:
        super().__init__(text)
        self._restore, self.before, self.after = restore, before, after

    def redo(self) -> None:
        self._restore(self.after)

    def undo(self) -> None:
        self._restore(self.before)


def workload_edit_text(before, after) -> str:
    """"Change Context length", "Change Mode and Weights": the Edit menu's words for a workload edit."""
    names = [name for name in type(after).model_fields if getattr(before, name) != getattr(after, name)]
    labels = list(dict.fromkeys(words.label(n) for n in names))
    if not labels:
        return "Change settings"
    if len(labels) > 2:
        return "Change settings"
    return "Change " + " and ".join(labels)
