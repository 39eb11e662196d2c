"""Work around PySide6 6.12 dropping references to None/True/False on CPython < 3.12.

Measured here (PySide6 6.12.0, CPython 3.11.7): every call of a wrapped C++ method that
returns a null pointer (``QObject.parent()``, ``QGraphicsItem.scene()`` …) takes one
reference from ``None`` without giving one; pyqtgraph makes hundreds of such calls per
repaint, and ``None`` starts with ~7,000, so the app died with "Fatal Python error:
none_dealloc" after about ten workload changes (``benchmarks/ui_recompute.py``). Bools
suffer the same way ("bool_dealloc"). CPython 3.12 made these objects immortal (PEP 683),
which hides the bug; here we do the same by hand: give each singleton 2**40 extra
references, so a leak can never bring it to zero. They are never freed anyway (freeing
one is a fatal error), so nothing else changes.
"""

from __future__ import annotations

import ctypes
import sys

EXTRA_REFS = 1 << 40
LAYOUT_TOLERANCE = 1 << 16
_SINGLETONS = (None, True, False, NotImplemented, Ellipsis)
_done = False


def needed() -> bool:
    """Only on CPython before 3.12, and not on debug builds (another object layout)."""
    return sys.implementation.name == "cpython" and sys.version_info < (3, 12) and not hasattr(sys, "gettotalrefcount")


def protect_singletons() -> bool:
    """Make None, True, False … effectively immortal; True if it was applied (once per process)."""
    global _done
    if _done or not needed():
        return _done
    for obj in _SINGLETONS:
        before = sys.getrefcount(obj)
        cell = ctypes.c_ssize_t.from_address(id(obj))  # ob_refcnt is a PyObject's first field
        cell.value += EXTRA_REFS
        # None's count moves by a few between the two reads (other code drops references):
        # compare within a margin, far below EXTRA_REFS, to tell a wrong layout apart.
        if abs(sys.getrefcount(obj) - before - EXTRA_REFS) > LAYOUT_TOLERANCE:  # not the layout we expect: undo
            cell.value -= EXTRA_REFS
            return False
    _done = True
    return True
