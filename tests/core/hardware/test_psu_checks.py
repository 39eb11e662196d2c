"""PSU checks: the rating against the load and the ATX 2.x transient margin, the GPU power cables against the cards' sockets."""

from __future__ import annotations

import pytest

from advisor.core.hardware.checks import (
    PSU_ATX2_TRANSIENT_FACTOR,
    Severity,
    WarningKind,
    check_build,
    gpu_power_connectors,
)
from advisor.core.hardware.psu_checks import check_psu_connectors
from advisor.core.hardware.records import PlatformPart, ResolvedBuild, ResolvedPlatform
from tests.hardware_builders import SOURCES, gpu, kinds, resolved


def test_psu_below_load_is_an_error_and_thin_margin_a_warning():
    assert kinds(check_build(resolved(psu_w=900))).count((WarningKind.PSU, Severity.ERROR)) == 1
    thin = 950 * PSU_ATX2_TRANSIENT_FACTOR - 1
    assert (WarningKind.PSU, Severity.WARNING) in kinds(check_build(resolved(psu_w=thin)))
    assert not [w for w in check_build(resolved(psu_w=1600)) if w.kind is WarningKind.PSU]


def test_psu_with_unknown_load_says_not_checked():
    warnings = check_build(resolved(platform_power_w=None))
    assert (WarningKind.PSU, Severity.INFO) in kinds(warnings)


@pytest.mark.parametrize("text, need", [("1x 16-pin", {"16-pin": 1, "12-pin": 0, "8-pin": 0}),
                                        ("1x 6-pin + 1x 8-pin", {"16-pin": 0, "12-pin": 0, "8-pin": 2}),
                                        ("8-pin EPS", None), ("", None), ("2x 8pin", None)])


def test_gpu_power_connectors_parsed(text, need):
    assert gpu_power_connectors(gpu(connectors=text)) == need


def _psu_findings(tdp: float, count: int, native: int, eight: int) -> list[tuple[Severity, str]]:
    psu = PlatformPart.model_validate({"id": "psu", "sources": SOURCES, "part": "psu", "vendor": "V", "name": "PSU",
                                       "psu_w": 2000, "connectors_12v_2x6": native, "connectors_pcie_8pin": eight})
    build = ResolvedBuild(name="b", gpus=(gpu(tdp=tdp),) * count, platform=ResolvedPlatform(psu=psu))
    return [(w.severity, w.message) for w in check_psu_connectors(build)]


@pytest.mark.parametrize(("tdp", "count", "native", "eight", "expect"), [
    (450, 2, 2, 0, None),  # a native cable each
    (450, 2, 1, 3, (Severity.WARNING, "1 GPU socket(s) need an adapter")),  # 450 W: a 3-cable adapter
    (450, 2, 1, 2, (Severity.ERROR, "1 too few")),
    (575, 2, 1, 3, (Severity.ERROR, "1 too few")),  # over 450 W: the adapter takes 4
    (575, 2, 1, 4, (Severity.WARNING, "1 GPU socket(s) need an adapter")),
    (575, 2, 0, 8, (Severity.WARNING, "2 GPU socket(s) need an adapter")),
])


def test_cables_native_first_then_adapters_by_card_power(tdp, count, native, eight, expect):
    found = _psu_findings(tdp, count, native, eight)
    if expect is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0][0] is expect[0] and expect[1] in found[0][1]


def test_a_psu_without_stated_cables_is_not_checked():
    psu = PlatformPart.model_validate({"id": "psu", "sources": SOURCES, "part": "psu", "vendor": "V", "name": "PSU",
                                       "psu_w": 2000})
    build = ResolvedBuild(name="b", gpus=(gpu(),), platform=ResolvedPlatform(psu=psu))
    assert [w.severity for w in check_psu_connectors(build)] == [Severity.INFO]
    assert check_psu_connectors(ResolvedBuild(name="b", gpus=(gpu(),))) == []
