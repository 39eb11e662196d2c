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
