"""The layers the README draws (its "Layout" section) hold: import-linter's contracts (pyproject.toml) and no
cycle between any two modules of ``advisor``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def test_lint_imports_keeps_every_contract():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "broken" in out.stdout and " 0 broken" in out.stdout


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_through_others():
    graph = grimp.build_graph("advisor")
    assert _cycles(graph) == []


def test_cycle_finder_sees_a_cycle():
    graph = grimp.ImportGraph()
    for name in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(name)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.x")
    graph.add_import(importer="a.z", imported="a.x")
    assert _cycles(graph) == [["a.x", "a.y"]]
