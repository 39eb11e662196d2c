"""Which undoable changes a catalog bundle makes: records new to the user, records that replace a different one
of theirs (conflicts, named), and shipped records the bundle hides; nothing for a record the user already has."""

from __future__ import annotations

from advisor.core.hardware.catalog import RecordKind
from advisor.ui.catalog_editor.commands import hidden_changes, record_changes
from advisor.ui.catalog_editor.repository import CatalogRepository, UserState


def test_a_bundle_makes_changes_only_where_it_differs(tmp_path):
    repo = CatalogRepository(user_dir=tmp_path / "catalog")
    repo.load()
    shipped = repo.catalog.shipped.gpus["rtx-3090"]
    mine = shipped.model_copy(update={"id": "my-3090", "name": "My RTX 3090"})
    repo.apply(RecordKind.GPU, "my-3090", UserState(mine, False))  # the user's own record, as the editor saves it
    theirs = mine.model_copy(update={"name": "Their RTX 3090"})
    added = mine.model_copy(update={"id": "new-3090"})
    changes, conflicts = record_changes(repo, [theirs, added, repo.catalog.user.gpus["my-3090"], shipped])
    assert [c.record_id for c in changes] == ["my-3090", "new-3090", "rtx-3090"]  # the shipped one: a new override
    assert conflicts == ["GPU my-3090"]
    assert changes[0].before.record == mine and changes[0].after == UserState(theirs, False)
    hides = hidden_changes(repo, {RecordKind.GPU: {"rtx-4090", "no-such-card"}})
    assert [(c.record_id, c.after.hidden) for c in hides] == [("rtx-4090", True)]
    assert hidden_changes(repo, {RecordKind.GPU: set()}) == []
