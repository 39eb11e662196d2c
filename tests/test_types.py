"""The type checker and the linter run as tests (settings in pyproject.toml).

- ruff: Python's own errors, bugbear's likely bugs and a complexity budget of 10, over every tree of code.
- mypy with the pydantic plugin over ``advisor``: the outer layers may keep the errors listed in
  ``tests/mypy-baseline.txt`` (mypy-baseline matches them without line numbers) and gain none; a listed
  error that is gone fails too, so the list only shrinks.
- The core (``advisor/core``) is checked with every strict flag (in the same run) and has no error at all,
  listed or not.

After fixing outer errors, rewrite the list (it drops what is gone; it must never gain core lines)::

    .venv/bin/python -m mypy | grep -v '^advisor/core/' | .venv/bin/python -m mypy_baseline sync
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "tests" / "mypy-baseline.txt"
CORE = "advisor/core/"
# A cold mypy run over the package takes about 10 s here, a warm one under a second; ruff well under one.
TIMEOUT_S = 300


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, input=stdin, capture_output=True, text=True,
                          timeout=TIMEOUT_S, check=False)


def _mypy() -> list[str]:
    """mypy's report lines over ``advisor``: one run checks the core with its strict flags (pyproject's
    overrides) and the outer layers with the default ones."""
    out = _run("mypy", "--cache-dir", str(ROOT / ".mypy_cache" / "tests"), "--no-color-output", "--no-error-summary")
    # 0: clean, 1: errors found; anything else is a crash or a bad setting.
    assert out.returncode in (0, 1), out.stdout[-4000:] + out.stderr[-4000:]
    return out.stdout.splitlines()


def _errors(lines: list[str]) -> list[str]:
    return [line for line in lines if ": error: " in line]


def test_ruff_finds_nothing():
    out = _run("ruff", "check", "--no-cache", "--output-format", "concise",
               "advisor", "tests", "benchmarks", "packaging")
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]


def test_mypy_finds_no_error_in_the_core_and_none_outside_it_beyond_the_baseline():
    """One run (a cold one takes about 10 s): the core clean, then the rest against the list."""
    lines = _mypy()
    core = _errors([line for line in lines if line.startswith(CORE)])
    assert core == [], f"{len(core)} mypy errors in the core:\n" + "\n".join(core[:60])
    outer = [line for line in lines if not line.startswith(CORE)]
    out = _run("mypy_baseline", "filter", "--no-colors", stdin="\n".join(outer) + "\n")
    assert out.returncode == 0, (
        "mypy's errors differ from tests/mypy-baseline.txt (new ones are printed; 'fixed' ones are listed "
        "but gone: rewrite the list as this module's docstring says)\n" + out.stdout[-6000:] + out.stderr[-2000:])


def test_the_baseline_lists_errors_mypy_can_read_back():
    lines = BASELINE.read_text(encoding="utf-8").splitlines()
    assert lines == sorted(lines), "mypy-baseline keeps the list sorted (sort_baseline): sync it, don't hand-edit"
    for line in lines:
        path, line_number, rest = line.split(":", 2)
        assert path.startswith("advisor/") and path.endswith(".py") and line_number == "0", line
        assert rest.startswith(" error: "), line


def test_the_baseline_lists_no_error_of_the_core():
    listed = [line for line in BASELINE.read_text(encoding="utf-8").splitlines() if line.startswith(CORE)]
    assert listed == [], f"{len(listed)} core errors in tests/mypy-baseline.txt, e.g. {listed[:5]}"
