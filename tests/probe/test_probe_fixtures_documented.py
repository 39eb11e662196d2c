"""Every recorded output says which machine it came from and where it was published."""

import pytest
from probe_data import DATA

RECORDINGS = sorted(p for p in DATA.iterdir() if p.suffix in (".json", ".csv"))


def test_there_are_recordings():
    assert len(RECORDINGS) >= 8


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.name)
def test_each_recording_has_a_sidecar_with_machine_and_source(path):
    sidecar = path.with_suffix(".md")
    assert sidecar.exists(), f"{path.name} has no {sidecar.name}"
    text = sidecar.read_text()
    assert "Machine:" in text and "Source:" in text
    assert "http" in text or "recorded here" in text
