"""Render resources/icons/llm-advisor.svg to PNGs at 16–512 px (Qt's SVG renderer).

Run from the repository root: ``python packaging/make_icons.py``. The PNGs are committed,
so this only needs re-running when the SVG changes.
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES_PX = (16, 24, 32, 48, 64, 128, 256, 512)
ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"


def main() -> int:
    app = QGuiApplication(sys.argv)  # noqa: F841 - QPainter needs a GUI application
    renderer = QSvgRenderer(str(ICONS / "llm-advisor.svg"))
    if not renderer.isValid():
        print("invalid SVG", file=sys.stderr)
        return 1
    for size in SIZES_PX:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"llm-advisor-{size}.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
