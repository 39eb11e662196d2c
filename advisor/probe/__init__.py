"""Local hardware detection (NVML, nvidia-smi, amd-smi/rocm-smi/sysfs, Apple system_profiler).

Each backend splits running its tool from a pure ``parse_…`` function tested on recorded
real outputs. :func:`detect` is what the GUI (off its thread) and ``llm-advisor detect`` call.
"""

from __future__ import annotations

from advisor.probe.models import Detection


def detect(timeout_s: float = 5.0) -> Detection:
    """Read this machine's GPUs and host; never raises (failures become status lines)."""
    try:
        from advisor.probe.gather import detect as _detect

        return _detect(timeout_s)
    except Exception as exc:  # noqa: BLE001 - the last guard: the app always gets an answer
        return Detection(status_lines=(f"Detection failed: {type(exc).__name__}: {exc}",))


__all__ = ["Detection", "detect"]
