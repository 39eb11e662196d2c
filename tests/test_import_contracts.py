"""The layers the README draws (its "Architecture" section) hold: import-linter's contracts (pyproject.toml) and no
cycle between any two modules of ``advisor``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def test_lint_imports_keeps_every_contract():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "broken" in out.stdout and " 0 broken" in out.stdout
    assert "ignored imports" not in out.stdout  # no contract kept by exempting the imports that break it


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    tarjan = _Tarjan(graph)
    for root in sorted(graph.modules):
        if root not in tarjan.index:
            tarjan.visit(root)
    return tarjan.found


class _Tarjan:
    def __init__(self, graph: grimp.ImportGraph) -> None:
        self.graph = graph
        self.index: dict[str, int] = {}
        self.low: dict[str, int] = {}
        self.stack: list[str] = []
        self.on_stack: set[str] = set()
        self.found: list[list[str]] = []

    def _enter(self, node: str) -> tuple[str, Iterator[str]]:
        self.index[node] = self.low[node] = len(self.index)
        self.stack.append(node)
        self.on_stack.add(node)
        return node, iter(sorted(self.graph.find_modules_directly_imported_by(node)))

    def visit(self, root: str) -> None:
        work = [self._enter(root)]
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in self.index:
                    work.append(self._enter(child))
                elif child in self.on_stack:
                    self.low[node] = min(self.low[node], self.index[child])
                continue
            work.pop()
            if work:
                self.low[work[-1][0]] = min(self.low[work[-1][0]], self.low[node])
            if self.low[node] == self.index[node]:
                self._close(node)

    def _close(self, node: str) -> None:
        """Pop ``node``'s component off the stack; keep it if it is a cycle."""
        component = []
        while True:
            member = self.stack.pop()
            self.on_stack.discard(member)
            component.append(member)
            if member == node:
                break
        if len(component) > 1:
            self.found.append(sorted(component))


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


# What evaluates, plans, searches or costs: the report lays out results its caller made with these, so it
# names none of them (import-linter sees only that it imports the face, ``advisor.core``, not which names).
_COMPUTES = {"best_plan", "build_running_cost", "check_planned", "chinchilla_plan", "detailed_results", "estimate",
             "evaluate", "fit_curve_steps", "prepare_build", "rank", "search", "suggestions", "with_running_costs",
             "with_search", "with_speed_bases"}


def _core_names(package: str) -> set[str]:
    import ast

    names: set[str] = set()
    for path in (ROOT / "advisor" / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("advisor.core"):
                names |= {alias.name for alias in node.names}
    return names


def test_the_report_imports_from_the_core_nothing_that_computes():
    report = _core_names("report")
    assert report, "the report reads the core's result types"
    assert report & _COMPUTES == set()


def test_the_names_that_compute_are_in_the_face():
    import advisor.core

    assert _COMPUTES <= set(advisor.core.__all__)
