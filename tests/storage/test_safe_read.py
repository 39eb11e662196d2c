"""Only regular files are read, never past the limit: FIFOs and /dev/zero cannot hang or exhaust memory."""

import os

import pytest

from advisor.storage.safe_read import FileRefused, FileTooLarge, is_regular_file, read_bytes_limited

posix_only = pytest.mark.skipif(os.name != "posix" or not os.path.exists("/dev/zero"), reason="FIFOs and /dev/zero")


def test_a_regular_file_within_the_limit_is_read(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"12345")
    assert read_bytes_limited(path, 5) == b"12345"
    assert is_regular_file(path)


def test_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"123456")
    with pytest.raises(FileTooLarge, match="limit"):
        read_bytes_limited(path, 5)


@posix_only
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)  # no writer: a plain read would block forever
    with pytest.raises(FileRefused, match="FIFO"):
        read_bytes_limited(fifo, 1000)
    assert not is_regular_file(fifo)


@posix_only
def test_a_link_to_dev_zero_is_refused(tmp_path):
    link = tmp_path / "hidden.json"
    link.symlink_to("/dev/zero")  # stated size 0, endless content
    with pytest.raises(FileRefused, match="character device"):
        read_bytes_limited(link, 1000)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(FileRefused, match="folder"):
        read_bytes_limited(tmp_path, 1000)


def test_refusals_are_os_errors_with_a_reason(tmp_path):
    try:
        read_bytes_limited(tmp_path, 10)
    except OSError as exc:  # callers' `except OSError` handlers keep working
        assert exc.strerror == "a folder, not a regular file"
