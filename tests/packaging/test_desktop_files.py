"""The desktop entry and AppStream metainfo agree with the identity module and validate."""

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import advisor

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
DESKTOP = PACKAGING / f"{advisor.APP_ID}.desktop"
METAINFO = PACKAGING / f"{advisor.APP_ID}.metainfo.xml"


def test_committed_files_match_identity_module():
    out = subprocess.run([sys.executable, str(PACKAGING / "generate.py"), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


def test_metainfo_names_current_version_and_identity():
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == advisor.APP_ID
    assert root.findtext("name") == advisor.APP_NAME
    assert root.findtext("project_license") == advisor.APP_LICENSE
    versions = [r.get("version") for r in root.iter("release")]
    assert versions[0] == advisor.__version__


def test_desktop_entry_launches_gui_script_with_app_icon():
    text = DESKTOP.read_text(encoding="utf-8")
    assert "Exec=llm-advisor-gui %f" in text
    assert f"Icon={advisor.APP_ID}" in text


@pytest.mark.parametrize(
    ("tool", "args", "path"),
    [("desktop-file-validate", [], DESKTOP), ("appstreamcli", ["validate", "--no-net"], METAINFO)],
)
def test_validators_pass(tool, args, path):
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} not installed (.ci/run installs it)")
    out = subprocess.run([tool, *args, str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_icons_exist_at_every_size():
    icons = ROOT / "resources" / "icons"
    assert (icons / "llm-advisor.svg").is_file()
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        data = (icons / f"llm-advisor-{size}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"


def test_install_script_installs_and_removes(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path)}
    script = str(PACKAGING / "install-desktop-entry.sh")
    subprocess.run(["bash", script, "install"], check=True, env=env, capture_output=True)
    assert (tmp_path / "applications" / f"{advisor.APP_ID}.desktop").is_file()
    assert (tmp_path / "icons/hicolor/256x256/apps" / f"{advisor.APP_ID}.png").is_file()
    subprocess.run(["bash", script, "uninstall"], check=True, env=env, capture_output=True)
    assert not (tmp_path / "applications" / f"{advisor.APP_ID}.desktop").exists()
