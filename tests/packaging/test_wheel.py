"""The wheel carries catalog/ and resources/, and installs into a fresh venv that launches.

The fresh venv gets the built wheel only (``--no-deps``); its third-party dependencies are
made visible through a ``.pth`` file pointing at this interpreter's site-packages, so the
test exercises our packaging without downloading Qt again.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

import advisor

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True, capture_output=True, text=True,
    )
    (path,) = out.glob("*.whl")
    return path


def test_wheel_contains_shipped_data_and_entry_points(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("advisor/catalog/gpus/") and n.endswith(".json") for n in names)
    assert any(n.startswith("advisor/catalog/models/") and n.endswith(".json") for n in names)
    assert "advisor/resources/icons/llm-advisor.svg" in names
    assert "advisor/core/estimation/estimator.py" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "llm-advisor = advisor.cli:main" in text
    assert "[gui_scripts]" in text and "llm-advisor-gui" in text
    assert not any(n.startswith("tests/") for n in names)


@pytest.fixture(scope="module")
def fresh_venv(wheel, tmp_path_factory) -> Path:
    env_dir = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True, text=True)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "_deps_from_test_env.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return env_dir


def _clean_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(QT_QPA_PLATFORM="offscreen", LLM_ADVISOR_HOME=str(tmp_path / "home"))
    return env


def test_installed_cli_reads_catalog_from_the_wheel(fresh_venv, tmp_path):
    out = subprocess.run([str(fresh_venv / "bin" / "llm-advisor"), "--version"], cwd=tmp_path,
                         capture_output=True, text=True, env=_clean_env(tmp_path), check=True)
    assert advisor.__version__ in out.stdout and "catalog" in out.stdout
    where = subprocess.run(
        [str(fresh_venv / "bin" / "python"), "-c",
         "from advisor.storage.shipped import catalog_dir; print(catalog_dir())"],
        cwd=tmp_path, capture_output=True, text=True, env=_clean_env(tmp_path), check=True,
    )
    assert str(fresh_venv) in where.stdout  # found inside the installed package, not the checkout


def test_installed_gui_launcher_shows_main_window(fresh_venv, tmp_path):
    env = _clean_env(tmp_path) | {"LLM_ADVISOR_SMOKE_TEST": "1"}
    out = subprocess.run([str(fresh_venv / "bin" / "llm-advisor-gui")], cwd=tmp_path,
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "main window shown" in out.stdout
