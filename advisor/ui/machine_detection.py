"""Builds ▸ This machine: detect this computer's GPUs off the UI thread, and when none is found say so in a
dialog that offers a CPU-only build of this machine or the catalog search instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QThreadPool
from PySide6.QtWidgets import QMainWindow, QMessageBox

from advisor.ui.worker import WorkerJob, start_job

#: How long detection may wait on the drivers and tools (seconds).
DETECT_TIMEOUT_S = 8.0


def _detect() -> Any:
    from advisor.probe import (
        detect,  # loaded when asked: NVML bindings are not needed to start
    )

    return detect(DETECT_TIMEOUT_S)


def start_detection(on_done: Callable[[object, Any], None]) -> WorkerJob:
    """Detect on the global thread pool (it may wait on drivers for seconds); ``on_done(key, detection or the
    exception)`` on the UI thread. Keep the job returned until it reports."""
    return start_job(QThreadPool.globalInstance(), None, _detect, on_done)


def no_gpu_dialog(window: QMainWindow, detection, why: str) -> QMessageBox:
    """No usable GPU: said in a dialog (a status line is gone in seconds), with a CPU-only build of this machine
    (its RAM as the memory) or the catalog search instead. Opened, not run: the window goes on."""
    from advisor.ui.machine import cpu_only_entry

    cpu, cpu_text = cpu_only_entry(detection)
    box = QMessageBox(QMessageBox.Icon.Information, "This machine", "No GPU was found on this computer.", parent=window)
    box.setInformativeText(
        ("You can still compare it as a CPU-only build: its RAM holds the model and the estimate "
         "assumes the speed of common desktop memory (dual-channel DDR4-3200). "
         if cpu is not None else f"It cannot be added as a CPU-only build: {cpu_text}. ")
        + "Or let Find builds suggest hardware for this job.")
    box.setDetailedText("What detection saw:\n" + "\n".join(detection.status_lines or (why,)))
    window.button_cpu_only = box.addButton("Add CPU-only build", QMessageBox.ButtonRole.AcceptRole)
    window.button_cpu_only.setEnabled(cpu is not None and window.session.can_add())
    button_find = box.addButton("Find builds…", QMessageBox.ButtonRole.ActionRole)
    box.addButton(QMessageBox.StandardButton.Close)

    def _on_clicked(button) -> None:
        if button is window.button_cpu_only and cpu is not None:
            window.session.add_build(cpu)
            window.statusBar().showMessage(cpu_text, 8000)
        elif button is button_find:
            window.find_builds()

    box.buttonClicked.connect(_on_clicked)
    box.open()
    return box
