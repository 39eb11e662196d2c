"""The window inside its screen: a default or saved size that fits the screen's free area, title bar included."""

from __future__ import annotations


def fit_into(window, free) -> None:
    """Resize and move ``window`` so that its frame lies inside ``free`` (a QRect of the screen)."""
    frame_w = max(window.frameGeometry().width() - window.width(), 0)  # 0 before the window manager framed it
    frame_h = max(window.frameGeometry().height() - window.height(), 0)
    w, h = min(window.width(), free.width() - frame_w), min(window.height(), free.height() - frame_h)
    if (w, h) != (window.width(), window.height()):
        window.resize(w, h)
    x = min(max(window.x(), free.left()), free.right() + 1 - w - frame_w)
    y = min(max(window.y(), free.top()), free.bottom() + 1 - h - frame_h)
    if (x, y) != (window.x(), window.y()):
        window.move(x, y)
