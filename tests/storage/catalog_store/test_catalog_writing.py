"""Changing the user catalog: backups, refusals of invalid files, hide/unhide/reset, saves killed mid-write."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from advisor.core.hardware.catalog import Origin, RecordKind, UnknownRecord
from advisor.core.hardware.records import Gpu
from advisor.storage import catalog_store as store
from advisor.storage.catalog_store import (
    RefusedOverwrite,
    hide_record,
    load_catalog,
    remove_record,
    save_record,
    unhide_record,
)
from tests.catalog_fixtures import gpu_data, write
from tests.storage.catalog_store.conftest import REPO


def test_corrupt_user_file_is_preserved_byte_for_byte(shipped, user):
    raw = b'{"id": "card-a", "memory_gib": \xff broken'
    path = write(user, "gpu", raw, name="card-a")
    result = load_catalog(shipped, user)
    assert result.problems and result.problems[0].path == path
    assert result.catalog.gpus["card-a"].name == "Acme card-a"  # the shipped record shows meanwhile
    with pytest.raises(RefusedOverwrite, match="fails validation"):
        save_record(Gpu.model_validate(gpu_data("card-a")), user_dir=user)
    with pytest.raises(RefusedOverwrite):
        remove_record(RecordKind.GPU, "card-a", user_dir=user)
    assert path.read_bytes() == raw
    save_record(Gpu.model_validate(gpu_data("card-a")), user_dir=user, force=True)
    assert (path.parent / "card-a.json.bak").read_bytes() == raw  # forced: the old bytes are kept


def test_save_keeps_previous_version_and_remove_keeps_the_file(shipped, user):
    first = save_record(Gpu.model_validate(gpu_data("mine", name="One")), user_dir=user)
    old = first.read_bytes()
    save_record(Gpu.model_validate(gpu_data("mine", name="Two")), user_dir=user)
    assert first.with_name("mine.json.bak").read_bytes() == old
    backup = remove_record(RecordKind.GPU, "mine", user_dir=user)
    assert not first.exists() and json.loads(backup.read_text())["name"] == "Two"
    with pytest.raises(UnknownRecord):
        remove_record(RecordKind.GPU, "mine", user_dir=user)


def test_saved_file_round_trips(user):
    record = Gpu.model_validate(gpu_data("mine"))
    path = save_record(record, user_dir=user)
    read = store.read_record_file(path, RecordKind.GPU)
    assert read.record == record and read.problems == []
    assert list(json.loads(path.read_text()))[:2] == ["schema_version", "id"]


def test_hide_and_unhide_shipped(shipped, user):
    hide_record(RecordKind.GPU, "card-a", shipped_dir=shipped, user_dir=user)
    result = load_catalog(shipped, user)
    assert "card-a" not in result.catalog.gpus
    # builds that name the hidden card now dangle, and say so
    assert {p.record_id for p in result.problems} >= {"two-a"}
    with pytest.raises(UnknownRecord, match="only those can be hidden"):
        hide_record(RecordKind.GPU, "nope", shipped_dir=shipped, user_dir=user)
    unhide_record(RecordKind.GPU, "card-a", user_dir=user)
    assert "card-a" in load_catalog(shipped, user).catalog.gpus


def test_corrupt_hidden_file_hides_nothing_and_is_not_overwritten(shipped, user):
    user.mkdir(parents=True)
    (user / "hidden.json").write_text('{"hidden": {"gpu": "card-a"}}')
    result = load_catalog(shipped, user)
    assert "card-a" in result.catalog.gpus and result.problems[0].field == "hidden.gpu"
    with pytest.raises(RefusedOverwrite):
        hide_record(RecordKind.GPU, "card-a", shipped_dir=shipped, user_dir=user)
    assert (user / "hidden.json").read_text() == '{"hidden": {"gpu": "card-a"}}'


def test_reset_record_drops_override_and_unhides(shipped, user):
    save_record(Gpu.model_validate(gpu_data("card-a", name="Mine")), user_dir=user)
    hide_record(RecordKind.GPU, "card-a", shipped_dir=shipped, user_dir=user)
    done = store.reset_record(RecordKind.GPU, "card-a", shipped_dir=shipped, user_dir=user)
    assert len(done) == 2
    result = load_catalog(shipped, user)
    assert result.catalog.origin(RecordKind.GPU, "card-a") is Origin.SHIPPED and result.problems == []
    with pytest.raises(UnknownRecord):
        store.reset_record(RecordKind.GPU, "not-shipped", shipped_dir=shipped, user_dir=user)



# --- a save killed mid-write -----------------------------------------------------------------

CHILD = """
import os, sys, time, json
from pathlib import Path
from advisor.core.hardware.records import Gpu
from advisor.storage.catalog_store import save_record
user, marker, pause_at = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
big = "x" * 300_000
calls = 0
real_fsync = os.fsync
def paused_fsync(fd):
    global calls
    calls += 1
    if calls == pause_at:
        marker.write_text("paused")
        time.sleep(120)
    real_fsync(fd)
os.fsync = paused_fsync
base = json.loads(sys.argv[4])
if pause_at:
    save_record(Gpu.model_validate({**base, "name": "New", "notes": big}), user_dir=user)
else:
    marker.write_text("looping")
    for i in range(100_000):
        save_record(Gpu.model_validate({**base, "name": f"V{i % 2}", "notes": big}), user_dir=user)
"""


def _kill_child_when(marker: Path, args: list[str], extra_wait: float) -> None:
    proc = subprocess.Popen([sys.executable, "-c", CHILD, *args], cwd=REPO)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert proc.poll() is None, "child exited before reaching the pause point"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(extra_wait)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)


@pytest.mark.parametrize("pause_at", [1, 2, 3])  # fsync of: the backup, the new file, the folder
def test_save_killed_mid_write_leaves_a_loadable_catalog(shipped, user, tmp_path, pause_at):
    path = save_record(Gpu.model_validate(gpu_data("mine", name="Old")), user_dir=user)
    marker = tmp_path / "marker"
    _kill_child_when(marker, [str(user), str(marker), str(pause_at), json.dumps(gpu_data("mine"))], 0)
    result = load_catalog(shipped, user)
    assert result.problems == []
    expected = "New" if pause_at == 3 else "Old"  # the rename is the commit point
    assert result.catalog.gpus["mine"].name == expected
    assert path.exists()


def test_save_loop_killed_at_a_random_moment(shipped, user, tmp_path):
    save_record(Gpu.model_validate(gpu_data("mine", name="V0")), user_dir=user)
    marker = tmp_path / "marker"
    _kill_child_when(marker, [str(user), str(marker), "0", json.dumps(gpu_data("mine"))], 0.4)
    result = load_catalog(shipped, user)
    assert result.problems == []
    assert result.catalog.gpus["mine"].name in {"V0", "V1"}
