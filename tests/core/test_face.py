"""The core's face (``advisor.core.__all__``): every name resolves to its home's object, none is the name of a
core module (a from-import would give the module once it is loaded), and importing the package loads nothing."""

import importlib
import pkgutil
import subprocess
import sys

import advisor.core as core


def test_every_name_of_the_face_is_its_homes_object():
    assert core.__all__ == sorted(core.__all__) and len(set(core.__all__)) == len(core.__all__)
    for name in core.__all__:
        home = importlib.import_module(core._HOMES[name])
        assert getattr(core, name) is getattr(home, name), name


def test_no_name_of_the_face_is_a_core_module():
    modules = {m.name for m in pkgutil.iter_modules(core.__path__)}
    assert "estimation" in modules and not modules & set(core.__all__)
    assert "estimate" in core.__all__  # the function, once a subpackage's name too


def test_the_estimate_function_comes_through_the_face_once_its_package_is_loaded():
    importlib.import_module("advisor.core.estimation.estimator")
    from advisor.core import estimate

    assert callable(estimate) and estimate.__module__ == "advisor.core.estimation.estimator"


def test_importing_the_face_loads_no_core_module():
    code = "import sys, advisor.core; print(sorted(m for m in sys.modules if m.startswith('advisor.core.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"
