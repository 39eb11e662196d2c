"""What every hostile-input test asserts of a command that read a bad file or flag.

``run(argv)`` runs ``llm-advisor`` in this process and measures it: its exit code, what it
printed, how long it took and how much its peak resident memory grew (Linux: the peak is reset
through ``/proc/self/clear_refs`` first; elsewhere not measured). ``files(root)`` fingerprints
every file under a folder (bytes and mode), so a test can assert that a failed command left the
user's data exactly as it was. ``assert_one_line`` is the project's rule for bad input: no
traceback, and one error line on stderr (warnings about other files aside).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from advisor.cli import main

#: A generous ceiling on one command's time (they take well under a second to a few seconds here:
#: 2 shared cores) — a hang or a quadratic blow-up is what it catches.
MAX_SECONDS = 30.0
#: Growth of the peak resident memory of this process while the command ran.
MAX_GROWTH_MB = 200


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str
    seconds: float
    peak_growth_mb: float | None

    def error_lines(self) -> list[str]:
        """stderr less the lines that warn about other things (``warning: …``)."""
        return [line for line in self.err.splitlines() if line.strip() and not line.startswith("warning:")]


def _hwm_kb() -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # "reset the peak resident set size" (proc(5))
        return True
    except OSError:
        return False


def run(*argv: str) -> Outcome:
    """``llm-advisor argv…`` in this process; never raises (a traceback fails the test)."""
    out, err = io.StringIO(), io.StringIO()
    measured = _reset_peak()
    before = _rss_kb() if measured else None
    start = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    seconds = time.monotonic() - start
    peak = _hwm_kb() if measured else None
    growth = None if peak is None or before is None else max(0.0, (peak - before) / 1024)
    return Outcome(code, out.getvalue(), err.getvalue(), seconds, growth)


def _rss_kb() -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def assert_one_line(o: Outcome, code: int | tuple[int, ...], *, max_s: float = MAX_SECONDS,
                    max_growth_mb: float = MAX_GROWTH_MB) -> str:
    """The bad-input rule: the exit code, no traceback, one error line (returned), bounded time and memory."""
    codes = (code,) if isinstance(code, int) else code
    assert o.code in codes, (o.code, o.err[-2000:])
    assert "Traceback" not in o.err and "Traceback" not in o.out
    lines = o.error_lines()
    assert len(lines) == 1, o.err[-2000:]
    assert o.seconds < max_s, o.seconds
    if o.peak_growth_mb is not None:
        assert o.peak_growth_mb < max_growth_mb, o.peak_growth_mb
    return lines[0]


def assert_clean(o: Outcome, code: int | tuple[int, ...] = 0, *, max_s: float = MAX_SECONDS,
                 max_growth_mb: float = MAX_GROWTH_MB) -> None:
    """A command that ran (warnings allowed, no error line): the exit code, no traceback, bounded time and memory."""
    codes = (code,) if isinstance(code, int) else code
    assert o.code in codes, (o.code, o.err[-2000:])
    assert "Traceback" not in o.err and "Traceback" not in o.out
    assert o.seconds < max_s, o.seconds
    if o.peak_growth_mb is not None:
        assert o.peak_growth_mb < max_growth_mb, o.peak_growth_mb


def files(root: Path) -> dict[str, tuple[str, int]]:
    """Every entry under ``root``: relative path → (BLAKE2b of its bytes, or its kind; its mode)."""
    found: dict[str, tuple[str, int]] = {}
    if not os.path.lexists(root):
        return found
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            info = path.lstat()
            if stat.S_ISREG(info.st_mode):
                digest = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
            elif stat.S_ISLNK(info.st_mode):
                digest = "link:" + os.readlink(path)
            else:
                digest = "dir" if stat.S_ISDIR(info.st_mode) else "other"
            found[str(path.relative_to(root))] = (digest, stat.S_IMODE(info.st_mode))
    return found


@contextlib.contextmanager
def fresh_home() -> Iterator[Path]:
    """A new, empty ``LLM_ADVISOR_HOME`` for one hypothesis example (the test's own is shared by all of them)."""
    old = os.environ.get("LLM_ADVISOR_HOME")
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        os.environ["LLM_ADVISOR_HOME"] = tmp
        try:
            yield Path(tmp)
        finally:
            if old is None:
                os.environ.pop("LLM_ADVISOR_HOME", None)
            else:
                os.environ["LLM_ADVISOR_HOME"] = old
