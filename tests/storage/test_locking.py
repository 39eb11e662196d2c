"""The catalog lock: re-entrant in a thread, exclusive across threads and processes, no lost update."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from advisor.core.hardware.catalog import RecordKind
from advisor.storage.catalog_store import load_catalog
from advisor.storage.locking import LockTimeout, locked
from tests.catalog_fixtures import gpu_data, small_shipped, write

REPO = Path(__file__).resolve().parents[2]


def test_reentrant_in_one_thread(tmp_path):
    with locked(tmp_path):
        with locked(tmp_path):
            pass
    assert (tmp_path / ".lock").exists()


def test_another_thread_waits_then_times_out(tmp_path):
    inside, release = threading.Event(), threading.Event()

    def hold():
        with locked(tmp_path):
            inside.set()
            release.wait(10)

    t = threading.Thread(target=hold)
    t.start()
    inside.wait(10)
    try:
        with pytest.raises(LockTimeout, match="held its lock"):
            with locked(tmp_path, timeout_s=0.2):
                pass
    finally:
        release.set()
        t.join()
    with locked(tmp_path, timeout_s=5):  # released: free again
        pass


# A worker hides one shipped GPU in each user folder it is sent (one line each) and answers "ok".
# Two workers, started once, get each folder at the same moment: each round is a race of two
# read-modify-writes of that folder's hidden.json, and no import or start-up stands between
# the two (a fresh interpreter per hide spent 0.5 s importing: 20 s for 20 rounds).
HIDER = """
import sys
from pathlib import Path
from advisor.core.hardware.catalog import RecordKind
from advisor.storage.catalog_store import hide_record
shipped, gpu = Path(sys.argv[1]), sys.argv[2]
for line in sys.stdin:
    hide_record(RecordKind.GPU, gpu, shipped_dir=shipped, user_dir=Path(line.rstrip("\\n")))
    print("ok", flush=True)
"""
ROUNDS = 40


def _hiders(shipped: Path, gpus: tuple[str, ...]) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", HIDER, str(shipped), gpu], cwd=REPO, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE) for gpu in gpus]


def test_two_processes_hiding_different_ids_keep_both(tmp_path):
    shipped = small_shipped(tmp_path / "shipped")
    write(shipped, "gpu", gpu_data("card-b"))
    procs = _hiders(shipped, ("card-a", "card-b"))
    lost = 0
    try:
        for round_ in range(ROUNDS):
            user = tmp_path / f"user{round_}"
            for p in procs:  # both lines sent before either answer is read: the two hides overlap
                p.stdin.write(f"{user}\n")
                p.stdin.flush()
            assert [p.stdout.readline().strip() for p in procs] == ["ok", "ok"]
            hidden = load_catalog(shipped, user, migrate_user_files=False).catalog.hidden_ids(RecordKind.GPU)
            lost += hidden != {"card-a", "card-b"}
    finally:
        for p in procs:
            p.stdin.close()
        assert [p.wait(timeout=60) for p in procs] == [0, 0]
        for p in procs:
            p.stdout.close()
    assert lost == 0


def test_the_lock_is_released_when_its_holder_dies(tmp_path):
    code = f"import time; from advisor.storage.locking import locked\nwith locked({str(tmp_path)!r}):\n" \
           "    print('in', flush=True); time.sleep(60)"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "in"
        with pytest.raises(LockTimeout):
            with locked(tmp_path, timeout_s=0.1):
                pass
    finally:
        proc.kill()
        proc.wait(timeout=30)
        proc.stdout.close()
    start = time.monotonic()
    with locked(tmp_path, timeout_s=10):
        assert time.monotonic() - start < 10
