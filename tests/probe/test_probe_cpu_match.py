"""The host CPU's reported name matched to a catalog CPU part, and what "This machine" takes from it."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from probe_data import load

from advisor.core import estimate
from advisor.core.job.planned import PlannedJob
from advisor.core.units import GIB
from advisor.probe import nvml
from advisor.probe.cpu_match import cpu_words, match_cpu
from advisor.probe.machine import build_this_machine
from advisor.probe.models import DetectedHost, Detection
from advisor.probe.text import report
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def catalog():
    return load_catalog().catalog


# What /proc/cpuinfo's 'model name' reads on each (Intel's and AMD's brand strings, as the kernel prints them)
@pytest.mark.parametrize(("reported", "part_id"), [
    ("AMD Ryzen 9 5950X 16-Core Processor", "amd-ryzen-9-5950x"),
    ("AMD EPYC 7742 64-Core Processor", "amd-epyc-7742"),
    ("Intel(R) Xeon(R) Silver 4210R CPU @ 2.40GHz", "intel-xeon-silver-4210r"),
    ("AMD Ryzen Threadripper PRO 5975WX 32-Cores", "amd-threadripper-pro-5975wx"),
    ("Intel(R) Core(TM) Ultra 9 285K", "intel-core-ultra-9-285k"),
    ("Intel(R) Xeon(R) w5-3435X", "intel-xeon-w5-3435x"),
    ("Intel(R) Core(TM) i9-14900K", "intel-core-i9-14900k"),
    ("AMD Ryzen 5 9600X 6-Core Processor", "amd-ryzen-5-9600x"),
    ("AMD Ryzen 7 5800X3D 8-Core Processor", "amd-ryzen-7-5800x3d"),
    ("Intel(R) Xeon(R) Platinum 8358P CPU @ 2.60GHz", "intel-xeon-platinum-8358p"),
    ("Intel(R) Xeon(R) Platinum 8470", "intel-xeon-platinum-8470"),
    ("AMD EPYC 7543 32-Core Processor", "amd-epyc-7543"),
    # near names are other CPUs: the 3D V-Cache part, the 4210 without R, a Ryzen 9 of another model
    ("AMD Ryzen 9 5950X3D 16-Core Processor", None),
    ("Intel(R) Xeon(R) Silver 4210 CPU @ 2.20GHz", None),
    ("AMD Ryzen 9 7950X 16-Core Processor", None),
    ("AMD EPYC 7543P 32-Core Processor", None),  # the one-socket 7543P is another part (PassMark 2,738, not 2,563)
    ("Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz", None),
    ("Apple M2 Max", None),
    ("", None),
    (None, None),
])
def test_a_reported_cpu_is_its_catalog_part(catalog, reported, part_id):
    found = match_cpu(reported, catalog.parts.values())
    assert (found.id if found else None) == part_id


def test_a_part_name_without_a_model_number_matches_nothing(catalog):
    vague = catalog.parts["amd-ryzen-9-5950x"].model_copy(update={"id": "ryzen-9", "name": "Ryzen 9"})
    assert match_cpu("AMD Ryzen 9 7950X 16-Core Processor", [vague]) is None
    assert cpu_words("Intel(R) Xeon(R) Silver 4210R CPU @ 2.40GHz") == {"intel", "xeon", "silver", "4210r"}


@given(st.text(max_size=200))
def test_any_reported_name_matches_a_part_or_none(catalog, text):
    found = match_cpu(text, catalog.parts.values())
    assert found is None or cpu_words(found.name) <= cpu_words(text)


def _machine(catalog, cpu_model):
    gpus, pairs = nvml.parse_nvml(load("nvml_fields_h100_sxm_device.json"))
    detection = Detection(host=DetectedHost(ram_total_bytes=64 * GIB, cpu_model=cpu_model), gpus=gpus, pairs=pairs)
    return detection, build_this_machine(detection, list(catalog.gpus.values()), catalog.parts.values())


def test_this_machine_takes_its_cpus_score_from_the_catalog(catalog):
    detection, machine = _machine(catalog, "Intel(R) Xeon(R) Silver 4210R CPU @ 2.40GHz")
    assert machine.cpu.id == "intel-xeon-silver-4210r"
    assert machine.resolved.host_single_thread_mark == catalog.parts["intel-xeon-silver-4210r"].single_thread_mark
    arch, job = catalog.models["qwen2.5-0.5b"], PlannedJob(engine="transformers", weights="bf16", context_len=64)
    ours = estimate(arch, job, machine.resolved).speed
    _, unknown = _machine(catalog, "Some Future CPU 9000")
    theirs = estimate(arch, job, unknown.resolved).speed
    assert ours.decode_tokens_per_s < theirs.decode_tokens_per_s  # a slower host than the reference: slower steps
    assert any("PassMark single-thread 1,830" in n for n in ours.notes)
    assert unknown.cpu is None and unknown.resolved.host_single_thread_mark is None
    assert any("no single-thread score for its CPU, Some Future CPU 9000" in n for n in theirs.notes)
    text = report({"detection": detection, "machine": machine, "findings": ()})
    assert "catalog part intel-xeon-silver-4210r (Intel Xeon Silver 4210R), PassMark single-thread 1,830" in text
    assert "not among the catalog's CPU parts" in report({"detection": _machine(catalog, "Some Future CPU 9000")[0],
                                                          "machine": unknown, "findings": ()})
