"""Apple silicon: ``system_profiler SPDisplaysDataType -json`` and ``sysctl -n hw.memsize``.

The GPU shares the machine's RAM. By default Metal lets GPU work wire only part of it
(``MTLDevice.recommendedMaxWorkingSetSize``). Measured values printed by llama.cpp's
``ggml_metal_init`` in public bug reports:

- 16 GiB -> 10922.67 MiB = 2/3 (https://github.com/abetlen/llama-cpp-python/issues/687)
- 32 GiB -> 21845.34 MiB = 2/3 (https://github.com/ollama/ollama/issues/434, M2 Max)
- 64 GiB -> 49152 MiB = 3/4 (https://github.com/ggml-org/llama.cpp/issues/1870, M1 Max)
- 96 GiB -> 73728 MiB = 3/4 (https://github.com/ggml-org/llama.cpp/issues/3213, M2 Max)

Newer macOS releases give more on large machines: 107.52 GiB of 128 GiB (0.84) measured on
two machines (https://github.com/antirez/ds4/pull/893), so the rule below is the
*conservative* default; ``sysctl iogpu.wired_limit_mb`` raises it.
"""

from __future__ import annotations

import json
import shutil

from advisor.core import GIB
from advisor.probe.models import DetectedGpu
from advisor.probe.tool import run_tool

# Below this much RAM the default is 2/3, above it 3/4 (reports above: 32 GiB -> 2/3,
# 64 GiB -> 3/4; the 36 GiB boundary is the commonly quoted one, not pinned by a measurement here).
METAL_SMALL_RAM_LIMIT_BYTES = 36 * GIB
METAL_SMALL_RAM_SHARE = 2 / 3
METAL_LARGE_RAM_SHARE = 3 / 4


def metal_default_working_set_bytes(ram_bytes: int) -> int:
    """Default share of unified memory GPU work may use (see module docstring for sources)."""
    share = METAL_SMALL_RAM_SHARE if ram_bytes <= METAL_SMALL_RAM_LIMIT_BYTES else METAL_LARGE_RAM_SHARE
    return int(ram_bytes * share)


def _run(argv: list[str], timeout_s: float) -> str | None:
    exe = shutil.which(argv[0])
    if exe is None:
        return None
    done = run_tool([exe, *argv[1:]], timeout_s)
    return done.stdout if done.problem is None and done.returncode == 0 else None


def read_system_profiler(timeout_s: float = 10.0) -> str | None:
    return _run(["system_profiler", "SPDisplaysDataType", "-json"], timeout_s)


def read_memsize(timeout_s: float = 5.0) -> str | None:
    return _run(["sysctl", "-n", "hw.memsize"], timeout_s)


def parse_memsize(text: str) -> int | None:
    """``sysctl -n hw.memsize`` ('17179869184\\n') or ``sysctl hw.memsize`` ('hw.memsize: 1717...')."""
    value = text.strip().rsplit(":", 1)[-1].strip()
    # ASCII digits only ('٣' is a digit to str.isdigit), and no more than a byte count can have (2^64 is 20 digits).
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 20 else None


def _is_apple(item: dict) -> bool:
    vendor = str(item.get("spdisplays_vendor", ""))
    model = str(item.get("sppci_model", ""))
    name = str(item.get("_name", ""))
    return "Apple" in vendor or model.startswith("Apple M") or name.startswith(("Apple M", "kHW_AppleM"))


def parse_system_profiler_json(text: str, ram_bytes: int | None) -> tuple[DetectedGpu, ...]:
    """Apple-silicon GPUs from ``system_profiler SPDisplaysDataType -json`` (pure).

    Intel/AMD GPUs of Intel Macs are skipped: their VRAM is not unified and this app does
    not estimate for them. ``ram_bytes`` is ``hw.memsize`` (None when unknown).
    """
    items = json.loads(text).get("SPDisplaysDataType", [])
    gpus: list[DetectedGpu] = []
    for item in items:
        if not _is_apple(item):
            continue
        cores = str(item.get("sppci_cores", ""))
        gpus.append(DetectedGpu(
            index=len(gpus),
            vendor="Apple",
            name=item.get("sppci_model") or item.get("_name"),
            source="system_profiler",
            memory_total_bytes=ram_bytes,
            unified_memory=True,
            gpu_usable_memory_bytes=None if ram_bytes is None else metal_default_working_set_bytes(ram_bytes),
            gpu_cores=int(cores) if cores.isascii() and cores.isdigit() and len(cores) <= 9 else None,
        ))
    return tuple(gpus)
