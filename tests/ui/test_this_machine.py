"""'This machine' runs detection off the GUI thread and reports what it found (here: no GPU)."""

import pytest

from advisor.probe.models import DetectedHost, Detection

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def test_detection_runs_in_the_background_and_reports(app_window, qtbot, monkeypatch):
    import threading
    import time

    session, window = app_window
    seen = {}

    def slow_detect(timeout_s):
        seen["thread"] = threading.current_thread() is not threading.main_thread()
        time.sleep(0.2)  # the window must stay responsive meanwhile
        return Detection(host=DetectedHost(), gpus=(), status_lines=("nvml: library not found",))

    monkeypatch.setattr("advisor.probe.detect", slow_detect)
    window.add_this_machine()
    assert window.busy.isVisible() or not window.isVisible()
    assert not window.action_this_machine.isEnabled()
    qtbot.waitUntil(lambda: window.action_this_machine.isEnabled(), timeout=5000)
    assert seen["thread"] is True
    # said where the user looks (a status line is gone after 10 s)
    assert window.dialog_no_gpu.isVisible() and "No GPU" in window.dialog_no_gpu.text()
    assert len(session.builds) == 2  # nothing invented
    window.dialog_no_gpu.close()


def test_the_entry_names_the_cpu_found_in_the_catalog():
    from advisor.probe.models import DetectedGpu
    from advisor.storage.catalog_store import load_catalog
    from advisor.ui.machine import this_machine_entry

    catalog = load_catalog().catalog
    card = DetectedGpu(index=0, vendor="NVIDIA", source="nvml", name="NVIDIA GeForce RTX 4090",
                       memory_total_bytes=24 * 1024**3)
    found = Detection(host=DetectedHost(cpu_model="AMD Ryzen 9 5950X 16-Core Processor"), gpus=(card,))
    entry, text = this_machine_entry(catalog, found)
    assert entry.inline.host_single_thread_mark == catalog.parts["amd-ryzen-9-5950x"].single_thread_mark
    assert "CPU AMD Ryzen 9 5950X (its single-core score paces the engines' CPU work)" in text
    entry, text = this_machine_entry(catalog, found.model_copy(update={"host": DetectedHost(cpu_model="Mystery")}))
    assert entry.inline.host_single_thread_mark is None and "CPU" not in text.split(" — ")[0]
