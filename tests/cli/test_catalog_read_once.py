"""Every command reads the user's catalog once (it is the command's slowest step: report and advise read it twice, catalog remove
and reset read it again under the lock).

A read is ``catalog_store.reading._load_layer`` of the user's folder (the shipped layer is cached per
process and not counted); the user's folder holds one record so that there is something to read.
"""

from __future__ import annotations

import json

import pytest

from advisor.cli import main
from advisor.storage import paths, shipped
from advisor.storage.catalog_store import reading

MINE = "my-a10"


@pytest.fixture
def user_reads(monkeypatch, tmp_path):
    """The user's catalog holds MINE; returns the list of the user-folder reads made from then on."""
    data = json.loads((shipped.catalog_dir() / "gpus" / "a10.json").read_text(encoding="utf-8"))
    folder = paths.user_catalog_dir() / "gpus"
    folder.mkdir(parents=True)
    (folder / f"{MINE}.json").write_text(json.dumps({**data, "id": MINE}), encoding="utf-8")
    (tmp_path / "prices.csv").write_text(f"id,kind,usd,date,source_url\n{MINE},new,1234,2026-05-01,"
                                         "https://example.com/a10\n", encoding="utf-8")
    user_root = paths.user_catalog_dir().resolve()
    reads = []
    real = reading._load_layer

    def counting(root, **kwargs):
        if root.resolve() == user_root:
            reads.append(root)
        return real(root, **kwargs)

    monkeypatch.setattr(reading, "_load_layer", counting)
    return reads


COMMANDS = [
    ("catalog", "list"),
    ("catalog", "show", MINE),
    ("catalog", "validate"),
    ("catalog", "remove", "a10"),  # a shipped record: hidden
    ("catalog", "reset", "a10"),
    ("catalog", "prices", "import", "{tmp}/prices.csv"),
    ("catalog", "export", "{tmp}/bundle.json"),
    ("estimate", "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink"),
    ("advise", "llama-3.1-8b", "--top", "2"),
    ("report", "--model", "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink", "--build", "1x-rtx-5090",
     "--out", "{tmp}/report.pdf"),
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_each_command_reads_the_user_catalog_once(argv, user_reads, tmp_path, capsys):
    if argv[0] == "catalog" and argv[1] == "reset":
        assert main(["catalog", "remove", "a10"]) == 0  # something to reset
        user_reads.clear()
    code = main([a.format(tmp=tmp_path) for a in argv])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert len(user_reads) == 1


def test_reset_still_finds_the_users_copy_and_the_hidden_id(user_reads, capsys):
    """reset reads only the record's own file and hidden.json now: both are still undone."""
    folder = paths.user_catalog_dir() / "gpus"
    data = json.loads((folder / f"{MINE}.json").read_text(encoding="utf-8"))
    (folder / "a10.json").write_text(json.dumps({**data, "id": "a10", "name": "A10 (mine)"}), encoding="utf-8")
    assert main(["catalog", "remove", "a10"]) == 0  # removes the user's copy and hides the shipped one
    (folder / "a10.json").write_text(json.dumps({**data, "id": "a10", "name": "A10 (mine)"}), encoding="utf-8")
    capsys.readouterr()
    assert main(["catalog", "reset", "a10"]) == 0
    out = capsys.readouterr().out
    assert "removed the user's version" in out and "unhid it" in out
    assert not (folder / "a10.json").exists()
