"""The core stays free of Qt, plotting, file locations and subprocesses (architecture.md)."""

import subprocess
import sys

FORBIDDEN = ("PySide6", "pyqtgraph", "platformdirs", "subprocess")


def test_core_imports_no_qt_or_io_modules():
    code = (
        "import sys, importlib, pkgutil, advisor.core as c\n"
        "for m in pkgutil.walk_packages(c.__path__, 'advisor.core.'): importlib.import_module(m.name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(' '.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
