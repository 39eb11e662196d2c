"""Modules a reader can hold, and comments that say why rather than which issue asked for the code."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 350
# This project's issues were cited by the word and a bare number; other projects' issues and pull requests,
# which are sources, are cited with their repository and a "#" (litgpt's "#1417", "PR #8215").
PROJECT_ISSUE = re.compile(r"\b[Ii]ssues? \d")


def _python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def test_no_module_of_the_app_is_over_350_lines():
    long = {str(p.relative_to(ROOT)): n for p in _python_files("advisor")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_comment_cites_an_issue_of_this_project():
    cited = [f"{p.relative_to(ROOT)}:{i}" for p in _python_files("advisor", "tests", "benchmarks", "packaging")
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if PROJECT_ISSUE.search(line)]
    assert cited == []
