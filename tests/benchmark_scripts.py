"""Import a script of benchmarks/ (not a package) so tests can pin what it computes."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_benchmark(name: str):
    """``benchmarks/<name>.py`` as a module, loaded once per test process."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while executing it
    spec.loader.exec_module(module)
    return module
