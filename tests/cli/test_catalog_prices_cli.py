"""``llm-advisor catalog prices import FILE.csv``: one line per bad row, all or nothing."""

import json

import pytest

from advisor.core.hardware.catalog import RecordKind
from advisor.storage.catalog_store import load_catalog
from tests.catalog_fixtures import use_small_shipped
from tests.cli_runner import run_catalog


@pytest.fixture(autouse=True)
def shipped(tmp_path, monkeypatch):
    return use_small_shipped(tmp_path, monkeypatch)


run = run_catalog


def test_import_then_list_and_the_editor_show_the_price(capsys, tmp_path, shipped, qtbot):
    gid = sorted(load_catalog(shipped, shipped / ".none").catalog.gpus)[0]
    csv = tmp_path / "p.csv"
    csv.write_text(f"id,kind,usd,date,source_url\n{gid},used,123,2026-02-03,https://example.org/sold\n")
    code, out, _ = run(capsys, "prices", "import", str(csv))
    assert code == 0 and "added 1 price(s)" in out
    code, out, _ = run(capsys, "list", "--kind", "gpu", "--json")
    assert {"override"} == {r["origin"] for r in json.loads(out) if r["id"] == gid}
    from advisor.ui.catalog_editor.window import CatalogEditor

    editor = CatalogEditor()
    qtbot.addWidget(editor)
    assert "Parts" in [editor.tabs.tabText(i) for i in range(editor.tabs.count())]
    assert 123 in [p.usd for p in editor.repo.catalog.gpus[gid].prices]


def test_bad_rows_exit_1_with_line_numbers_and_nothing_is_saved(capsys, tmp_path, shipped):
    gid = sorted(load_catalog(shipped, shipped / ".none").catalog.gpus)[0]
    csv = tmp_path / "p.csv"
    csv.write_text(f"id,kind,usd,date,source_url\n{gid},used,123,2026-02-03,https://example.org/sold\n"
                   f"{gid},used,lots,2026-02-03,https://example.org/sold\nnope,new,1,2026-01-01,https://e.org\n")
    code, out, err = run(capsys, "prices", "import", str(csv))
    lines = err.strip().splitlines()
    assert code == 1 and lines[0].endswith(":3: usd 'lots' is not a number") and ":4: no gpu" in lines[1]
    assert lines[-1] == "nothing imported: 2 bad row(s)"
    assert not load_catalog(shipped).catalog.user.of(RecordKind.GPU)
