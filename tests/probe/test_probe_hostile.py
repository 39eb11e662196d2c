"""Detection against hostile tools: values out of a real machine's range, and tools that never stop writing.

Values that parse but cannot be real (a PCIe width of -1 or 99,999, a generation of 1e308, 73 or more
identical GPUs, ``hw.memsize`` of 10^26) become "not read" with the value as the reason, and the
report and the build still come out; a tool's output is read up to a bound and the tool is stopped.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.core.hardware.records import MAX_GPUS_PER_MACHINE
from advisor.probe import amd, apple, gather, nvidia_smi
from advisor.probe.models import RANGES
from advisor.probe.tool import run_tool
from tests.hostile import assert_clean, files, fresh_home, run

HYP = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

_ROW = {"index": "0", "name": "NVIDIA GeForce RTX 3090", "uuid": "GPU-1", "pci.bus_id": "00000000:01:00.0",
        "pci.device_id": "0x220410DE", "memory.total": "24576", "memory.used": "100", "memory.free": "24000",
        "driver_version": "550.1", "compute_cap": "8.6", "pcie.link.gen.current": "4", "pcie.link.gen.max": "4",
        "pcie.link.width.current": "16", "pcie.link.width.max": "16", "power.limit": "350",
        "power.default_limit": "350", "power.max_limit": "400", "display_active": "Disabled",
        "display_mode": "Disabled", "mig.mode.current": "[N/A]"}
_NUMERIC = [k for k in _ROW if k.startswith(("memory.", "pcie.", "power.", "index"))]
_HOSTILE = st.one_of(
    st.sampled_from(["-1", "0", "99999", "1e308", "-1e308", "inf", "nan", "1" + "0" * 30, "1" + "0" * 400, "٣", "",
                     "0x10", "4.9e-324", "[Unknown Error]"]),
    st.integers(-10**20, 10**20).map(str), st.floats().map(repr),
)


def _csv(rows: list[dict[str, str]]) -> str:
    return "".join(", ".join(row[f] for f in nvidia_smi.FIELDS) + "\n" for row in rows)


def _no_nvml(monkeypatch):
    def fail(*_):
        raise RuntimeError("NVML Shared Library Not Found")

    monkeypatch.setattr(gather.nvml, "query_nvml", fail)


@HYP
@given(changes=st.dictionaries(st.sampled_from(_NUMERIC), _HOSTILE, min_size=1, max_size=4),
       count=st.integers(1, 100), as_json=st.booleans())
def test_nvidia_smi_values_out_of_range_are_not_read_and_the_rest_stands(monkeypatch, changes, count, as_json):
    rows = [{**_ROW, **changes, "index": changes.get("index", str(i)), "pci.bus_id": f"00000000:{i % 256:02x}:00.0"}
            for i in range(count)]
    _no_nvml(monkeypatch)
    monkeypatch.setattr(nvidia_smi, "run_nvidia_smi", lambda timeout_s=5.0: (_csv(rows), nvidia_smi.FIELDS))
    with fresh_home() as home:
        o = run("detect", "--timeout", "2", *(["--json"] if as_json else []))
        assert_clean(o, 0)
        assert files(home) == {}
    if as_json:
        doc = json.loads(o.out)
        for gpu in doc["detection"]["gpus"]:
            for name, (lo, hi) in RANGES.items():
                value = gpu.get(name)
                assert value is None or lo <= value <= hi, (name, value)
        if doc["build"]:
            assert sum(g["count"] for g in doc["build"]["gpus"]) <= MAX_GPUS_PER_MACHINE
    elif count > MAX_GPUS_PER_MACHINE and "This machine as a build: none" not in o.out:
        assert f"the build takes the first {MAX_GPUS_PER_MACHINE}" in o.out


@HYP
@given(ram=st.one_of(st.integers(-10**30, 10**30).map(str), st.integers(0, 400).map(lambda k: "9" * k),
                     st.sampled_from(["", "hw.memsize: 17179869184", "1e26", "٣", "17179869184\n\n"])),
       cores=st.one_of(st.integers(-10, 10**12).map(str), st.sampled_from(["", "٣", "1" * 5000])))
def test_apple_memory_and_cores_out_of_range(monkeypatch, ram, cores):
    profiler = json.dumps({"SPDisplaysDataType": [{"_name": "Apple M2 Max", "sppci_model": "Apple M2 Max",
                                                   "spdisplays_vendor": "sppci_vendor_Apple",
                                                   "sppci_cores": cores}]})
    _no_nvml(monkeypatch)
    monkeypatch.setattr(nvidia_smi, "run_nvidia_smi", lambda timeout_s=5.0: "nvidia-smi not found")
    monkeypatch.setattr(gather.platform, "system", lambda: "Darwin")
    monkeypatch.setattr(apple, "read_system_profiler", lambda timeout_s=10.0: profiler)
    monkeypatch.setattr(apple, "read_memsize", lambda timeout_s=5.0: ram)
    monkeypatch.setattr(amd, "read_amd_smi", lambda timeout_s=5.0: (None, amd.NOT_FOUND))
    monkeypatch.setattr(amd, "read_rocm_smi", lambda timeout_s=5.0: (None, amd.NOT_FOUND))
    o = run("detect", "--json", "--timeout", "1")
    assert_clean(o, 0)
    for gpu in json.loads(o.out)["detection"]["gpus"]:
        assert gpu["memory_total_bytes"] is None or 0 <= gpu["memory_total_bytes"] <= RANGES["memory_total_bytes"][1]
        assert gpu["gpu_cores"] is None or 1 <= gpu["gpu_cores"] <= RANGES["gpu_cores"][1]


@HYP
@given(size=st.one_of(st.floats(), st.integers(-10**30, 10**30)), unit=st.sampled_from(["B", "MB", "GB", "TB"]),
       width=st.one_of(st.integers(-10**6, 10**6), st.floats()), gpu=st.one_of(st.integers(-10**30, 10**30),
                                                                               st.text(max_size=3)))
def test_amd_smi_values_out_of_range(monkeypatch, size, unit, width, gpu):
    item = {"gpu": gpu, "asic": {"market_name": "AMD Instinct MI210", "device_id": "0x740f", "vendor_id": "0x1002"},
            "bus": {"bdf": "0000:03:00.0", "max_pcie_width": width}, "vram": {"size": {"value": size, "unit": unit}}}
    _no_nvml(monkeypatch)
    monkeypatch.setattr(nvidia_smi, "run_nvidia_smi", lambda timeout_s=5.0: "nvidia-smi not found")
    monkeypatch.setattr(amd, "read_amd_smi", lambda timeout_s=5.0: (json.dumps([item]), None))
    o = run("detect", "--json", "--timeout", "1")
    assert_clean(o, 0)
    for g in json.loads(o.out)["detection"]["gpus"]:
        assert g["memory_total_bytes"] is None or 0 <= g["memory_total_bytes"] <= RANGES["memory_total_bytes"][1]
        assert g["pcie_width_max"] is None or 1 <= g["pcie_width_max"] <= 32


# --- a tool that keeps writing ----------------------------------------------------------------------

def _gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


_WRITERS = {
    "yes to stdout": "yes 'x, y, z'",
    "yes to stderr": "yes err >&2",
    "both": "yes out & yes err >&2",
    "a child that outlives it": "(yes child &) ; echo done",
    "sleeps, then floods": "sleep 0.2; yes late",
    "long lines": "head -c 100000000 /dev/zero | tr '\\0' 'a'",
    "silent forever": "sleep 60",
}


@pytest.mark.skipif(os.name != "posix" or shutil.which("yes") is None, reason="POSIX shell tools")
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(writer=st.sampled_from(sorted(_WRITERS)), timeout=st.sampled_from([0.3, 0.6, 1.5]),
       cap=st.sampled_from([1_000, 65_536, 4_000_000]))
def test_a_tool_that_keeps_writing_is_read_to_a_bound_and_stopped(tmp_path, writer, timeout, cap):
    script, sid_file = tmp_path / "tool.sh", tmp_path / "sid"
    sid_file.unlink(missing_ok=True)
    script.write_text(f"#!/bin/sh\necho $$ > {sid_file}\n" + _WRITERS[writer] + "\n")
    script.chmod(0o755)
    start = time.monotonic()
    result = run_tool([str(script)], timeout, cap)
    took = time.monotonic() - start
    assert len(result.stdout.encode()) <= cap and len(result.stderr.encode()) <= cap
    assert took < timeout + 6
    assert result.problem is None or "\n" not in result.problem
    sid = int(sid_file.read_text())  # the tool leads its own session: everything it started is in it
    deadline = time.monotonic() + 3
    while _in_session(sid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _in_session(sid) == []


def _in_session(sid: int) -> list[str]:
    """Live (not zombie) processes of session ``sid``."""
    found = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            fields = p.joinpath("stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(p.name)
    return found


@pytest.mark.skipif(os.name != "posix" or shutil.which("yes") is None, reason="POSIX shell tools")
def test_detect_with_a_streaming_nvidia_smi_stays_small(monkeypatch, tmp_path):
    tool = tmp_path / "nvidia-smi"
    tool.write_text("#!/bin/sh\nwhile :; do echo '0, NVIDIA GeForce RTX 3090, GPU-x, 00000000:01:00.0, 0x220410DE, "
                    "24576, 100, 24000, 550.1, 8.6, 4, 4, 16, 16, 350, 350, 400, Disabled, Disabled, [N/A]'; done\n")
    tool.chmod(0o755)
    _no_nvml(monkeypatch)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    o = run("detect", "--timeout", "3")
    assert_clean(o, 0, max_s=10, max_growth_mb=100)
    assert "nvidia-smi wrote over 4,000,000 bytes; stopped" in o.out


def test_the_kill_reaches_what_the_tool_started(tmp_path):
    if os.name != "posix":
        pytest.skip("process groups are POSIX")
    script = tmp_path / "t.sh"
    script.write_text("#!/bin/sh\nsleep 30 &\necho $!\nwait\n")
    script.chmod(0o755)
    result = run_tool([str(script)], 0.5)
    child = int(result.stdout.split()[0])
    deadline = time.monotonic() + 3
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)  # the group was killed, not only the shell


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
