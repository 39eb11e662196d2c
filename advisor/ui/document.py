"""The open comparison as an undoable document: its job, model, builds (with their plan pins) and rank-by.

Every setter is an edit on ``undo_stack`` (``advisor.ui.history``): pushing it applies it, and undo puts
the snapshot before it back. Opening or starting a comparison clears the stack. The document knows
nothing of estimates: after each edit (or its undo) it says what changed (``state_changed``) and the
session recomputes. A preset model is resolved through the ``resolve`` function it is given (the
session's catalog), so the document can be built and tested without one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from advisor.core import (
    MAX_BUILDS,
    MIN_BUILDS,
    BuildEntry,
    Comparison,
    Criterion,
    Job,
    ModelArch,
    ModelRef,
    PlanPins,
    canonical_comparison,
    job_of,
    unique_name,
)
from advisor.ui.history import Snapshot, SnapshotCommand, workload_edit_text

#: A model reference → its architecture; raises LookupError or ValueError for one that cannot be resolved.
Resolver = Callable[[ModelRef], ModelArch]
#: A build's name: at most this many characters (and unlike the other builds' names).
MAX_NAME_CHARS = 120


def resolve_without_catalog(ref: ModelRef) -> ModelArch:
    """An inline architecture or a generic size; a catalog preset raises LookupError (no catalog here)."""
    from advisor.core import (
        resolve_model,  # the core loads after the window's first paint
    )

    return resolve_model(None, ref)


class ComparisonDocument(QObject):
    """Title, job, model, builds and rank-by of the open comparison; its file and unsaved state.

    Signals (past-tense events):
      workload_changed(object)   the Job was replaced
      model_changed(object)      the ModelRef changed (its architecture in ``arch``, None if unresolved)
      builds_changed()           builds were added, removed, moved, renamed, re-pinned or replaced
      state_changed(object)      after an edit, its undo or its redo, or another document: the frozenset
                                 of what changed ("workload", "model", "arch", "builds", "criterion")
      document_changed()         path or unsaved-changes flag changed
      problem_reported(str)      an edit the user asked for was refused or failed; the text says why
    """

    workload_changed = Signal(object)
    model_changed = Signal(object)
    builds_changed = Signal()
    state_changed = Signal(object)
    document_changed = Signal()
    problem_reported = Signal(str)

    def __init__(self, resolve: Resolver = resolve_without_catalog, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.resolve = resolve
        start = canonical_comparison()
        self.title: str = start.title
        self.workload: Job = start.workload
        self.model: ModelRef = start.model
        self.arch: ModelArch | None = None
        self.builds: tuple[BuildEntry, ...] = start.builds
        self.criterion: Criterion = Criterion.SPEED
        self.path: Path | None = None
        self.dirty = False
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def resolve_model(self, ref: ModelRef, report: bool = True) -> ModelArch | None:
        """The architecture of ``ref``; None (and, with ``report``, a message) when it cannot be resolved."""
        try:
            return self.resolve(ref)
        except (LookupError, ValueError) as exc:  # unknown preset, size out of range: said, not raised
            if report:
                self.problem_reported.emit(f"model: {exc}")
            return None

    # --- edits (each one undoable) ---------------------------------------------------
    def snapshot(self) -> Snapshot:
        return Snapshot(workload=self.workload, model=self.model, arch=self.arch, builds=self.builds,
                        criterion=self.criterion)

    def _edit(self, text: str, **changes: object) -> None:
        """Push one edit on the undo stack; pushing applies it (``SnapshotCommand.redo``)."""
        before = self.snapshot()
        after = Snapshot(**{**before.__dict__, **changes})
        if before.changed(after):
            self.undo_stack.push(SnapshotCommand(self._restore, text, before, after))

    def _restore(self, state: Snapshot) -> None:
        """Put a snapshot in place and say what changed (an edit, its undo or its redo)."""
        changed = self.snapshot().changed(state)
        self.workload, self.model, self.arch = state.workload, state.model, state.arch
        self.builds, self.criterion = state.builds, state.criterion
        if "workload" in changed:
            self.workload_changed.emit(self.workload)
        if changed & {"model", "arch"}:
            self.model_changed.emit(self.model)
        if "builds" in changed:
            self.builds_changed.emit()
        self.state_changed.emit(frozenset(changed))

    def _on_clean_changed(self, clean: bool) -> None:
        self.dirty = not clean
        self.document_changed.emit()

    def set_workload(self, workload: Job) -> None:
        workload = job_of(workload)  # the job alone: each build's plan is its own (a planned job's is dropped)
        if workload == self.workload:
            return
        self._edit(workload_edit_text(self.workload, workload), workload=workload)

    def set_model(self, ref: ModelRef) -> None:
        arch = self.resolve_model(ref)
        if ref.kind == "preset":  # the file stands alone: keep the preset's arch inline
            ref = ref.model_copy(update={"arch": arch})
        name = arch.name if arch is not None else "model"
        self._edit(f"Choose {name}", model=ref, arch=arch)

    def import_model(self, path: str) -> bool:
        """A model read from a file (config.json, safetensors or GGUF header) becomes the model."""
        from advisor.storage.model_import import ModelImportError, load_model

        try:
            arch = load_model(path).arch
        except ModelImportError as exc:  # every import failure is a message
            self.problem_reported.emit(f"{path}: {exc}")
            return False
        self.set_model(ModelRef(imported_path=str(path), arch=arch))
        return True

    def set_builds(self, builds: tuple[BuildEntry, ...], text: str) -> None:
        """Replace the whole list of builds in one edit named ``text``."""
        self._edit(text, builds=builds)

    def can_add(self) -> bool:
        return len(self.builds) < MAX_BUILDS

    def can_remove(self) -> bool:
        return len(self.builds) > MIN_BUILDS

    def add_build(self, entry: BuildEntry) -> None:
        if not self.can_add():
            self.problem_reported.emit(f"a comparison holds at most {MAX_BUILDS} builds")
            return
        name = unique_name(entry.name, {b.name for b in self.builds})
        self.set_builds((*self.builds, entry.model_copy(update={"name": name})), f"Add “{name}”")

    def remove_build(self, index: int) -> None:
        if not self.can_remove():
            self.problem_reported.emit(f"a comparison needs at least {MIN_BUILDS} builds")
            return
        self.set_builds(self.builds[:index] + self.builds[index + 1:], f"Remove “{self.builds[index].name}”")

    def move_build(self, index: int, delta: int) -> None:
        j = index + delta
        if not (0 <= index < len(self.builds) and 0 <= j < len(self.builds)):
            return
        b = list(self.builds)
        b[index], b[j] = b[j], b[index]
        self.set_builds(tuple(b), f"Move “{b[j].name}” {'up' if delta < 0 else 'down'}")

    def rename_build(self, index: int, name: str) -> bool:
        name = name.strip()
        others = {b.name for i, b in enumerate(self.builds) if i != index}
        if not name or name in others or len(name) > MAX_NAME_CHARS:
            self.problem_reported.emit(f"“{name}” cannot be a build's name: a name has 1 to {MAX_NAME_CHARS} "
                                       "characters and differs from the other builds' names")
            return False
        b = list(self.builds)
        old = b[index].name
        b[index] = b[index].model_copy(update={"name": name})
        self.set_builds(tuple(b), f"Rename “{old}” to “{name}”")
        return True

    def replace_build(self, index: int, entry: BuildEntry) -> None:
        b = list(self.builds)
        others = {x.name for i, x in enumerate(self.builds) if i != index}
        b[index] = entry.model_copy(update={"name": unique_name(entry.name, others)})
        self.set_builds(tuple(b), f"Replace “{self.builds[index].name}”")

    def set_build_plan(self, index: int, pins: PlanPins) -> None:
        """Pin (or, with empty pins, unpin) parts of one build's plan."""
        if not 0 <= index < len(self.builds) or self.builds[index].plan == pins:
            return
        b = list(self.builds)
        b[index] = b[index].model_copy(update={"plan": pins})
        self.set_builds(tuple(b), f"{'Pin' if pins.any else 'Unpin'} the plan of “{b[index].name}”")

    def set_criterion(self, criterion: Criterion | str) -> None:
        """What the winner is chosen on: speed, price or value (price per token/s)."""
        criterion = Criterion(criterion)  # a combo box hands back the plain string
        if criterion is self.criterion:
            return
        self._edit(f"Rank by {criterion.value}", criterion=criterion)

    # --- documents -------------------------------------------------------------------
    def comparison(self) -> Comparison:
        return Comparison(title=self.title, rank_by=self.criterion, workload=self.workload, model=self.model,
                          builds=self.builds)

    def apply(self, comparison: Comparison, path: Path | None) -> None:
        """Another comparison in place of this one (opened, or a new one): its edits start afresh."""
        self.title, self.workload, self.builds = comparison.title, comparison.workload, comparison.builds
        self.criterion = comparison.rank_by
        self.model = comparison.model
        self.arch = self.resolve_model(self.model)
        self.path, self.dirty = path, False
        self.undo_stack.clear()  # another document: the edits of the last one are not undone into it
        self.workload_changed.emit(self.workload)
        self.model_changed.emit(self.model)
        self.builds_changed.emit()
        self.document_changed.emit()
        self.state_changed.emit(frozenset(Snapshot.__dataclass_fields__))

    def new(self, workload: Job | None = None) -> None:
        c = canonical_comparison()
        if workload is not None:
            c = c.model_copy(update={"workload": workload})
        self.apply(c, None)

    def open(self, path: str | Path) -> bool:
        from advisor.storage import comparison_file

        try:
            c = comparison_file.load_comparison(path)
        except comparison_file.ComparisonFileError as exc:
            self.problem_reported.emit(str(exc))
            return False
        self.apply(c, Path(path))
        return True

    def save(self, path: str | Path) -> bool:
        from advisor.storage import comparison_file

        try:
            written = comparison_file.save_comparison(path, self.comparison())
        except (comparison_file.ComparisonFileError, ValueError) as exc:
            self.problem_reported.emit(str(exc))
            return False
        self.path, self.dirty = written, False
        self.undo_stack.setClean()  # undoing back to here is "saved" again
        self.document_changed.emit()
        return True
