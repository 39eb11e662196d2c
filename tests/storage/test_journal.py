"""journal.commit: several files as one step. Stopped at any instant (every rename, every write, and for
real with ``kill -9`` mid-import), what the next start sees is every new file or none of them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.storage import journal
from advisor.storage.catalog_store import load_catalog
from tests.catalog_fixtures import gpu_data, small_shipped, write

REPO = Path(__file__).resolve().parents[2]


class _Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs, no ``except Exception`` catches it."""


def _crash_after(monkeypatch, steps: int) -> None:
    """Every rename and every fsync counts as a step; the process 'dies' at step ``steps``."""
    count = {"n": 0}

    def step(real):
        def wrapped(*args, **kwargs):
            count["n"] += 1
            if count["n"] > steps:
                raise _Killed
            return real(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(os, "replace", step(os.replace))
    monkeypatch.setattr(os, "fsync", step(os.fsync))


def _state(root: Path, names: list[str]) -> list[str | None]:
    return [(root / n).read_text() if (root / n).exists() else None for n in names]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 6), existing=st.lists(st.booleans(), min_size=6, max_size=6), steps=st.integers(0, 80))
def test_stopped_at_any_step_the_next_start_sees_all_or_nothing(tmp_path_factory, monkeypatch, n, existing, steps):
    root = tmp_path_factory.mktemp("user")
    names = [f"gpus/g{i}.json" for i in range(n)]
    for name, there in zip(names, existing):
        if there:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(f"old {name}")
    old = _state(root, names)
    new = [f"new {name}" for name in names]
    with monkeypatch.context() as m:
        _crash_after(m, steps)
        try:
            with journal.catalog_lock(root):
                journal.commit(root, {root / name: text.encode() for name, text in zip(names, new)})
        except _Killed:
            pass
    journal.recover(root)  # what the next start does (load_catalog, or the lock of the next write)
    assert _state(root, names) in (old, new)
    assert not journal.pending(root)
    for name, before in zip(names, old):  # a replaced file's previous version is kept, as every save keeps it
        if before is not None and _state(root, [name]) == [f"new {name}"]:
            assert (root / (name + ".bak")).read_text() == before


def test_a_stage_without_its_journal_is_dropped(tmp_path):
    (tmp_path / journal.STAGE).mkdir()
    (tmp_path / journal.STAGE / "0.staged").write_text("half")
    journal.recover(tmp_path)
    assert not journal.pending(tmp_path) and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", ["{", "[]", '{"entries": [{"target": "../../etc/passwd", "staged": "0.staged"}]}',
                                  '{"entries": [{"target": "gpus/a.json", "staged": "../x.staged"}]}'])
def test_a_damaged_journal_is_kept_aside_never_applied(tmp_path, text):
    (tmp_path / journal.JOURNAL).write_text(text)
    (tmp_path / journal.STAGE).mkdir()
    with pytest.raises(journal.JournalError, match="kept as"):
        journal.recover(tmp_path)
    assert not journal.pending(tmp_path)
    assert len([p for p in tmp_path.iterdir() if p.name.endswith(".bad")]) == 2  # the journal and its stage


def test_the_catalog_read_finishes_a_committed_import(tmp_path):
    shipped = small_shipped(tmp_path / "shipped")
    user = tmp_path / "user"
    stage = user / journal.STAGE
    stage.mkdir(parents=True)
    (stage / "0.staged").write_text(json.dumps(gpu_data("late")))
    (user / journal.JOURNAL).write_text(json.dumps({"entries": [{"target": "gpus/late.json", "staged": "0.staged"}]}))
    assert "late" in load_catalog(shipped, user).catalog.gpus and not journal.pending(user)


# --- for real: kill -9 during an import ------------------------------------------------------------

PRICE_IMPORT = """
import sys
from pathlib import Path
from advisor.storage.catalog_store.prices_csv import import_prices
import_prices(Path(sys.argv[1]), shipped_dir=Path(sys.argv[2]), user_dir=Path(sys.argv[3]))
print("done", flush=True)
"""
BUNDLE_IMPORT = """
import sys
from pathlib import Path
from advisor.storage.bundle import import_bundle
report = import_bundle(Path(sys.argv[1]), user_dir=Path(sys.argv[3]))
assert not report.problems and not report.conflicts, report
print("done", flush=True)
"""
RECORDS = 120


@pytest.fixture(scope="module")
def shipped_many(tmp_path_factory):
    root = tmp_path_factory.mktemp("shipped")
    small_shipped(root)
    for i in range(RECORDS):
        write(root, "gpu", gpu_data(f"g{i:03d}"))
    return root


def _prices_csv(path: Path) -> Path:
    rows = [f"g{i:03d},used,{500 + i},2026-01-{1 + i % 28:02d},https://example.org/{i}" for i in range(RECORDS)]
    path.write_text("id,kind,usd,date,source_url\n" + "\n".join(rows) + "\n")
    return path


def _bundle(path: Path) -> Path:
    records = [gpu_data(f"b{i:03d}") for i in range(RECORDS)]
    path.write_text(json.dumps({"format": "llm-advisor-catalog-bundle", "schema_version": 1,
                                "records": {"gpu": records}, "hidden": {"gpu": ["card-a"]}}))
    return path


def _kill_after(script: str, args: list[str], delay_s: float) -> bool:
    """Run ``script``; SIGKILL it after ``delay_s`` unless it finished; True when it was killed."""
    proc = subprocess.Popen([sys.executable, "-c", script, *args], cwd=REPO, stdout=subprocess.PIPE, text=True)
    time.sleep(delay_s)
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    out = proc.stdout.read()
    proc.stdout.close()
    return "done" not in out


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX")
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(delay=st.floats(0.3, 2.5), kind=st.sampled_from(["prices", "bundle"]))
def test_kill_9_during_an_import_leaves_all_or_nothing(tmp_path_factory, shipped_many, delay, kind):
    work = tmp_path_factory.mktemp("kill")
    user = work / "user"
    if kind == "prices":
        source, script = _prices_csv(work / "p.csv"), PRICE_IMPORT
    else:
        source, script = _bundle(work / "b.json"), BUNDLE_IMPORT
    _kill_after(script, [str(source), str(shipped_many), str(user)], delay)
    catalog = load_catalog(shipped_many, user).catalog  # the next start: finishes or drops what was left
    if kind == "prices":
        counts = {len(catalog.gpus[f"g{i:03d}"].prices) for i in range(RECORDS)}
        assert counts in ({2}, {3})  # every record got its price, or none did
    else:
        there = {f"b{i:03d}" in catalog.gpus for i in range(RECORDS)} | {"card-a" in catalog.hidden_ids("gpu")}
        assert len(there) == 1  # every record and the hidden id, or none
    assert not journal.pending(user)
