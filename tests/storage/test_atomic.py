"""Atomic replace with backup: a failure at any step leaves the old file as it was."""

import os

import pytest

from advisor.storage import atomic
from advisor.storage.atomic import atomic_write_bytes, backup_path, copy_aside, remove_with_backup


def test_first_write_creates_the_file_and_no_backup(tmp_path):
    path = tmp_path / "sub" / "a.json"
    atomic_write_bytes(path, b"one")
    assert path.read_bytes() == b"one" and not backup_path(path).exists()


def test_second_write_keeps_the_previous_bytes(tmp_path):
    path = tmp_path / "a.json"
    atomic_write_bytes(path, b"one")
    atomic_write_bytes(path, b"two")
    assert path.read_bytes() == b"two" and backup_path(path).read_bytes() == b"one"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "a.json.bak"]  # no temp left


def test_failed_replace_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "a.json"
    atomic_write_bytes(path, b"old")
    real = os.replace

    def failing(src, dst):
        if str(dst) == str(path):
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", failing)
    with pytest.raises(OSError, match="No space"):
        atomic_write_bytes(path, b"new")
    assert path.read_bytes() == b"old"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_failed_write_leaves_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "a.json"

    def failing_fsync(fd):
        raise OSError(5, "I/O error")

    monkeypatch.setattr(atomic.os, "fsync", failing_fsync)
    with pytest.raises(OSError):
        atomic_write_bytes(path, b"new")
    assert list(tmp_path.iterdir()) == []


def test_remove_moves_the_file_to_its_backup(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"keep me")
    assert remove_with_backup(path).read_bytes() == b"keep me" and not path.exists()


def test_copy_aside_is_byte_for_byte(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"\xff\x00 raw")
    assert copy_aside(path, ".v0.bak").read_bytes() == b"\xff\x00 raw"
    assert path.read_bytes() == b"\xff\x00 raw"


def _stale_temp(folder, name="a.json", age_s=3600):
    tmp = folder / f".{name}.abcd1234.tmp"
    tmp.write_bytes(b"half")
    old = tmp.stat().st_mtime - age_s
    os.utime(tmp, (old, old))
    return tmp


def test_the_next_save_removes_stale_temp_files_of_killed_saves(tmp_path):
    stale = [_stale_temp(tmp_path), _stale_temp(tmp_path, "b.json")]
    fresh = tmp_path / ".c.json.efgh5678.tmp"  # a save in progress elsewhere: left alone
    fresh.write_bytes(b"writing")
    others = [tmp_path / "notes.tmp", tmp_path / ".hidden.tmp"]  # not this program's temp names
    for p in others:
        p.write_bytes(b"x")
        os.utime(p, (0, 0))
    atomic_write_bytes(tmp_path / "a.json", b"new")
    assert not any(p.exists() for p in stale)
    assert fresh.exists() and all(p.exists() for p in others)


def test_a_backup_of_a_non_regular_file_is_refused(tmp_path):
    if os.name != "posix":
        pytest.skip("FIFOs")
    fifo = tmp_path / "a.json"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        atomic_write_bytes(fifo, b"x")  # copying it aside would block forever


# --- file modes and kept copies ------------------------------------------------------------------------------

import stat  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from advisor.storage.atomic import atomic_write_text, keep_aside  # noqa: E402


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes and umask")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(umask=st.sampled_from([0o022, 0o002, 0o077, 0o027, 0o000]),
       existing=st.one_of(st.none(), st.sampled_from([0o600, 0o644, 0o640, 0o664, 0o444])))
def test_a_saved_file_gets_the_folders_default_mode_or_keeps_its_own(tmp_path_factory, umask, existing):
    """A new file: 0666 less the umask (as any program's new file); a replaced file: the mode it had (tempfile
    made every save 0600, whatever the umask or the file's own mode)."""
    path = tmp_path_factory.mktemp("modes") / "settings.json"
    if existing is not None:
        path.write_text("old")
        path.chmod(existing)
    old = os.umask(umask)
    try:
        atomic_write_text(path, "new")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == (existing if existing is not None else 0o666 & ~umask)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 12), move=st.booleans())
def test_keep_aside_never_replaces_a_copy(tmp_path_factory, n, move):
    folder = tmp_path_factory.mktemp("kept")
    path = folder / "settings.json"
    for i in range(n):
        path.write_text(f"bad {i}")
        keep_aside(path, ".bad", move=move)
        assert path.exists() != move
    kept = sorted(p.read_text() for p in folder.iterdir() if p.name.endswith(".bad"))
    assert kept == sorted(f"bad {i}" for i in range(n))
