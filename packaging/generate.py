"""Write the freedesktop entry and the AppStream metainfo from the identity module.

``python packaging/generate.py`` rewrites both files; ``--check`` exits 1 when the committed
files differ from what the identity module (``advisor/__init__.py``) says (the tests run it).
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import advisor  # noqa: E402

RELEASES = (("0.1.0", "2026-11-22", "First release: estimator, catalog, detection, comparison window."),)

DESCRIPTION = (
    "Decide what hardware to buy or rent for running and fine-tuning large language models. "
    "The app detects your GPUs, holds a sourced catalog of GPUs, builds, workstations and "
    "cloud instances with dated prices, estimates per-GPU memory and speed for inference "
    "and training techniques, and compares candidate builds side by side.",
    "Every number names its source, and a comparison can be exported as a PDF to forward "
    "to whoever signs the purchase order.",
)


def desktop_entry() -> str:
    return "\n".join(
        [
            "[Desktop Entry]",
            "Type=Application",
            f"Name={advisor.APP_NAME}",
            f"Comment={advisor.APP_SUMMARY}",
            "Exec=llm-advisor-gui %f",
            f"Icon={advisor.APP_ID}",
            "Terminal=false",
            "Categories=Science;ComputerScience;",
            "Keywords=GPU;LLM;VRAM;hardware;fine-tuning;inference;",
            "MimeType=application/json;",
            "StartupNotify=true",
            f"StartupWMClass={advisor.APP_NAME}",
            "",
        ]
    )


def metainfo() -> str:
    paragraphs = "\n".join(f"    <p>{escape(p)}</p>" for p in DESCRIPTION)
    releases = "\n".join(
        f'    <release version="{v}" date="{d}">\n      <description>\n        <p>{escape(text)}</p>\n'
        "      </description>\n    </release>"
        for v, d, text in RELEASES
    )
    shot = f"{advisor.APP_URL}/raw/main/resources/screenshots/main-window.png".replace(
        "https://github.com/", "https://raw.githubusercontent.com/"
    ).replace("/raw/main/", "/main/")
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<component type="desktop-application">
  <id>{advisor.APP_ID}</id>
  <metadata_license>CC0-1.0</metadata_license>
  <project_license>{advisor.APP_LICENSE}</project_license>
  <name>{escape(advisor.APP_NAME)}</name>
  <summary>{escape(advisor.APP_SUMMARY)}</summary>
  <description>
{paragraphs}
  </description>
  <launchable type="desktop-id">{advisor.APP_ID}.desktop</launchable>
  <url type="homepage">{advisor.APP_URL}</url>
  <developer id="{advisor.APP_ID.rsplit('.', 1)[0]}">
    <name>LLM Hardware Advisor developers</name>
  </developer>
  <content_rating type="oars-1.1"/>
  <provides>
    <binary>llm-advisor</binary>
  </provides>
  <screenshots>
    <screenshot type="default">
      <caption>Two candidate builds compared for one workload</caption>
      <image>{shot}</image>
    </screenshot>
  </screenshots>
  <releases>
{releases}
  </releases>
</component>
"""


FILES = {
    ROOT / "packaging" / f"{advisor.APP_ID}.desktop": desktop_entry,
    ROOT / "packaging" / f"{advisor.APP_ID}.metainfo.xml": metainfo,
}


def main(argv: list[str]) -> int:
    stale = [p for p, make in FILES.items() if not p.exists() or p.read_text(encoding="utf-8") != make()]
    if "--check" in argv:
        for p in stale:
            print(f"{p.relative_to(ROOT)} differs from advisor/__init__.py: run packaging/generate.py")
        return 1 if stale else 0
    for path, make in FILES.items():
        path.write_text(make(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
