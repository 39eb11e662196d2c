"""The comparison document alone: no session, no scheduler, no window, no catalog (its model resolver is given).

Each edit is one step on its undo stack, says what changed (``state_changed``) and nothing else happens: no
estimate is computed here. Opening and saving go through ``advisor.storage.comparison_file``.
"""

from __future__ import annotations

import pytest

from advisor.core.advice.comparison import MAX_BUILDS, MIN_BUILDS, BuildEntry, ModelRef, canonical_comparison
from advisor.core.advice.criterion import Criterion
from advisor.core.job.planned import PlanPins
from advisor.core.model.generic import generic_decoder
from advisor.ui.document import ComparisonDocument


@pytest.fixture
def doc(qapp):
    """A document whose presets resolve to a generic 8 B decoder (no catalog is loaded here)."""
    resolved = []

    def resolve(ref: ModelRef):
        resolved.append(ref)
        if ref.preset_id == "unknown":
            raise LookupError(f"no model preset {ref.preset_id!r}")
        return ref.arch or generic_decoder(8e9)

    d = ComparisonDocument(resolve)
    d.resolved = resolved
    d.events = []
    d.state_changed.connect(lambda changed: d.events.append(("state", changed)))
    d.workload_changed.connect(lambda _w: d.events.append(("workload",)))
    d.model_changed.connect(lambda _m: d.events.append(("model",)))
    d.builds_changed.connect(lambda: d.events.append(("builds",)))
    d.problem_reported.connect(lambda text: d.events.append(("problem", text)))
    return d


def _entry(name: str) -> BuildEntry:
    return BuildEntry(name=name, build_id="1x-rtx-5090")


def test_it_starts_as_the_canonical_comparison_with_nothing_to_undo(doc):
    start = canonical_comparison()
    assert (doc.workload, doc.model, doc.builds, doc.title) == (start.workload, start.model, start.builds, start.title)
    assert doc.criterion is Criterion.SPEED and doc.path is None and not doc.dirty
    assert doc.undo_stack.count() == 0 and doc.arch is None  # resolved once a catalog is there (the session)


def test_a_workload_edit_is_one_undoable_step_that_says_what_changed(doc):
    before = doc.workload
    after = before.model_copy(update={"batch": before.batch + 3})
    doc.set_workload(after)
    assert doc.workload == after and doc.undo_stack.count() == 1
    assert doc.undo_stack.undoText() == "Change Concurrent sequences"  # the control's words (history.py)
    assert doc.events == [("workload",), ("state", frozenset({"workload"}))]
    assert doc.dirty
    doc.events.clear()
    doc.undo_stack.undo()
    assert doc.workload == before and doc.events == [("workload",), ("state", frozenset({"workload"}))]
    assert not doc.dirty  # back where it was saved (a new document counts as saved)
    doc.undo_stack.redo()
    assert doc.workload == after


def test_setting_the_same_value_pushes_nothing(doc):
    doc.set_workload(doc.workload)
    doc.set_criterion(doc.criterion)
    doc.set_build_plan(0, doc.builds[0].plan)
    assert doc.undo_stack.count() == 0 and doc.events == []


def test_a_rank_by_change_is_an_edit_of_its_own(doc):
    doc.set_criterion("price")  # a combo box hands back the plain string
    assert doc.criterion is Criterion.PRICE and doc.events == [("state", frozenset({"criterion"}))]
    assert doc.undo_stack.undoText() == "Rank by price"


def test_the_model_is_resolved_through_the_given_function_and_a_preset_keeps_its_arch_inline(doc):
    doc.set_model(ModelRef(preset_id="llama-3.1-8b"))
    assert doc.resolved[-1].preset_id == "llama-3.1-8b"
    assert doc.arch is not None and doc.model.arch == doc.arch  # the saved file stands alone
    assert doc.events[-1] == ("state", frozenset({"model", "arch"}))
    doc.events.clear()
    doc.set_model(ModelRef(preset_id="unknown"))
    assert ("problem", "model: no model preset 'unknown'") in doc.events and doc.arch is None


def test_builds_are_added_moved_renamed_and_removed_within_the_limits(doc):
    n = len(doc.builds)
    doc.add_build(_entry(doc.builds[0].name))  # a taken name gets a number
    assert len(doc.builds) == n + 1 and doc.builds[-1].name != doc.builds[0].name
    doc.move_build(n, -1)
    assert doc.builds[n - 1].build_id == "1x-rtx-5090"
    assert doc.undo_stack.undoText().startswith("Move “") and doc.undo_stack.undoText().endswith("” up")
    assert doc.rename_build(0, "  Mine ")
    assert doc.builds[0].name == "Mine"
    assert not doc.rename_build(0, doc.builds[1].name) and not doc.rename_build(0, "x" * 121)
    assert doc.events[-1][0] == "problem" and doc.builds[0].name == "Mine"
    while doc.can_remove():
        doc.remove_build(0)
    assert len(doc.builds) == MIN_BUILDS
    doc.events.clear()
    doc.remove_build(0)
    assert len(doc.builds) == MIN_BUILDS and doc.events == [("problem", f"a comparison needs at least {MIN_BUILDS} builds")]
    while doc.can_add():
        doc.add_build(_entry("more"))
    doc.add_build(_entry("one too many"))
    assert len(doc.builds) == MAX_BUILDS and doc.events[-1] == ("problem", f"a comparison holds at most {MAX_BUILDS} builds")


def test_a_pinned_plan_is_an_edit_and_empty_pins_unpin(doc):
    doc.set_build_plan(0, PlanPins(n_gpus=1))
    assert doc.builds[0].plan.n_gpus == 1 and doc.undo_stack.undoText().startswith("Pin the plan of")
    doc.set_build_plan(0, PlanPins())
    assert not doc.builds[0].plan.any and doc.undo_stack.undoText().startswith("Unpin the plan of")
    doc.set_build_plan(99, PlanPins(n_gpus=1))  # no such build: nothing
    assert doc.undo_stack.count() == 2


def test_save_then_open_round_trips_and_starts_a_fresh_undo_history(doc, tmp_path):
    doc.set_workload(doc.workload.model_copy(update={"batch": 5}))
    doc.set_criterion(Criterion.VALUE)
    path = tmp_path / "mine.json"
    assert doc.save(path)
    assert doc.path == path and not doc.dirty and doc.undo_stack.isClean()
    other = ComparisonDocument(lambda ref: ref.arch or generic_decoder(8e9))
    assert other.open(path)
    assert other.comparison() == doc.comparison() and other.undo_stack.count() == 0 and other.path == path
    doc.set_workload(doc.workload.model_copy(update={"batch": 6}))
    doc.events.clear()
    doc.new()
    assert doc.undo_stack.count() == 0 and doc.path is None and not doc.dirty
    assert ("state", frozenset({"workload", "model", "arch", "builds", "criterion"})) in doc.events


def test_a_file_that_cannot_be_opened_is_one_message_and_changes_nothing(doc, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    before = doc.comparison()
    assert not doc.open(bad)
    assert doc.comparison() == before and doc.events and doc.events[-1][0] == "problem" and str(bad) in doc.events[-1][1]
