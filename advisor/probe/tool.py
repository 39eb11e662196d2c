"""Run a detection tool (nvidia-smi, amd-smi, system_profiler …) with a deadline and a cap on its output.

``subprocess.run(capture_output=True)`` keeps everything a tool writes until it exits: a tool
that keeps writing (a wedged ``nvidia-smi`` in a loop, a wrapper script gone wrong) took
``llm-advisor detect --timeout 3`` to 3.7 GB before the timeout stopped it. Here each stream is
read in chunks into at most ``max_bytes``; past that, or past the deadline, the tool is killed
(and waited for) and the run says why. The answers these tools give are a few KB per GPU.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

#: The largest answer read from a tool: nvidia-smi's CSV is ~300 bytes per GPU, amd-smi's JSON
#: ~3 KB per GPU, system_profiler's display list a few KB; 4 MB is over a thousand times that.
MAX_OUTPUT_BYTES = 4_000_000
_CHUNK = 65_536


@dataclass(frozen=True)
class ToolRun:
    """What a tool gave: its exit status and output (decoded; bad bytes replaced), or why it gave none."""

    returncode: int | None
    stdout: str
    stderr: str
    problem: str | None = None  # "did not answer within 3 s", "wrote over 4,000,000 bytes", "could not run (…)"


def _drain(fd: int, box: list[bytes], limit: int, over: threading.Event) -> None:
    size = 0
    try:
        while chunk := os.read(fd, _CHUNK):
            if size + len(chunk) > limit:
                box.append(chunk[: limit - size])
                over.set()
                return
            box.append(chunk)
            size += len(chunk)
    except OSError:  # the pipe went away (the tool was killed): what was read stands
        pass


def _kill(proc: subprocess.Popen) -> None:
    """The tool and whatever it started (its own process group on POSIX: a script's ``yes`` too)."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except OSError:  # gone already
        pass


def _watch(proc: subprocess.Popen[bytes], readers: list[threading.Thread], over: threading.Event, name: str,
           timeout_s: float, max_bytes: int) -> str | None:
    """Wait until the tool exits and its output is read: None, or why it was stopped."""
    deadline = time.monotonic() + timeout_s
    while proc.poll() is None or any(r.is_alive() for r in readers):
        if over.is_set():
            return f"{name} wrote over {max_bytes:,} bytes; stopped"
        if time.monotonic() > deadline:
            # Exited, but something it started still holds its output open: its answer is what it wrote.
            problem = None if proc.poll() is not None else f"{name} did not answer within {timeout_s:g} s"
            _kill(proc)
            return problem
        over.wait(0.01)
    return None


def _reap(proc: subprocess.Popen[bytes], readers: list[threading.Thread]) -> None:
    """Collect the exit status and the readers; close the pipes no reader still blocks on."""
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # unkillable (stuck in the kernel): left behind
        pass
    for reader in readers:
        reader.join(1)
    if not any(r.is_alive() for r in readers):  # a reader still blocked keeps its pipe (closing it under a read can hang)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def run_tool(argv: list[str], timeout_s: float, max_bytes: int = MAX_OUTPUT_BYTES) -> ToolRun:
    """Run ``argv`` (its first item an executable path) for at most ``timeout_s`` seconds, keeping at
    most ``max_bytes`` of each of stdout and stderr; a tool past either limit is killed."""
    name = argv[0].replace("\\", "/").rsplit("/", 1)[-1]
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=os.name == "posix")
    except (OSError, ValueError) as exc:
        return ToolRun(None, "", "", f"{name} could not run ({exc})")
    out: list[bytes] = []
    err: list[bytes] = []
    over = threading.Event()
    readers = [threading.Thread(target=_drain, args=(stream.fileno(), box, max_bytes, over), daemon=True)
               for stream, box in ((proc.stdout, out), (proc.stderr, err))]
    for reader in readers:
        reader.start()
    problem = _watch(proc, readers, over, name, timeout_s, max_bytes)
    if problem is not None:
        _kill(proc)
    _reap(proc, readers)
    decode = lambda box: b"".join(box).decode("utf-8", errors="replace")  # noqa: E731
    return ToolRun(proc.returncode if problem is None else None, decode(out), decode(err), problem)
