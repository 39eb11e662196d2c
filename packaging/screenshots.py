"""Screenshots of the window for the README and for looking at it as a user would.

Run under a virtual screen, e.g.::

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python packaging/screenshots.py OUT_DIR [--size 1280x800 ...]

Scenes: ``first-launch`` (the canonical comparison, the winner named), ``does-not-fit`` (a build on
which the job does not fit, with what would make it fit), ``find-builds`` (the catalog search with
its plot) and ``six-builds`` (two catalog pairs, a prebuilt server, a Mac, a cloud instance and a GPU × count
on its typical platform side by side), ``six-builds-details`` (the same six builds on the Details tab: each
build's rule of thumb, parameters and assumptions), ``catalog-editor`` (the editor on the RTX 3090's
record). Each is saved as ``SCENE-WxH.png``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SCENES = ("first-launch", "does-not-fit", "find-builds", "six-builds", "six-builds-details", "catalog-editor")


def _settle(app, rounds: int = 6, window=None) -> None:
    for _ in range(rounds):
        app.processEvents()
    if window is not None:  # the fit sweep and the search come from a worker thread, after the table (issue 20)
        import time

        from PySide6.QtCore import QEventLoop

        deadline = time.monotonic() + 10
        s = window.session  # the search for what would make a build fit follows the job's last change
        while (s.results_pending or s.sweep_pending or s.suggestions_pending or not window.tabs.up_to_date()
               or window.builds_panel.lines_pending) and time.monotonic() < deadline:
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
        for _ in range(rounds):
            app.processEvents()


def _scene(name: str, session, window):
    from advisor.core.advice.comparison import BuildEntry, ModelRef, canonical_comparison
    from advisor.core.job.workload import Engine

    session.apply(canonical_comparison(), None)
    window.tabs.setCurrentIndex(0)
    if name == "does-not-fit":
        session.add_build(BuildEntry(name="1× RTX 5090", build_id="1x-rtx-5090"))
        session.set_model(ModelRef(preset_id="llama-3.1-70b"))
        session.set_workload(session.workload.model_copy(update={"weights": "q4_k_m", "engine": Engine.LLAMA_CPP,
                                                                 "batch": 1, "context_len": 4096}))
    if name in ("six-builds", "six-builds-details"):
        cat = session.catalog
        mac = next(k for k in cat.systems if "mac-studio" in k and session.resolved_ok(BuildEntry(name="m", system_id=k)))
        cloud = next(k for k, v in cat.cloud.items() if v.gpu_count == 8)
        system = next(k for k, v in cat.systems.items() if "mac" not in k and v.build is not None)
        for entry in (BuildEntry(name="Mac Studio", system_id=mac), BuildEntry(name="Cloud 8 GPUs", cloud_id=cloud),
                      BuildEntry(name="Workstation", system_id=system),
                      BuildEntry(name="2× Tesla P40", gpu_id="tesla-p40", gpu_count=2)):  # cards on a typical platform
            session.add_build(entry)
        if name == "six-builds-details":
            window.tabs.setCurrentIndex(next(i for i in range(window.tabs.count())
                                             if window.tabs.tabText(i) == "Details"))
    if name == "catalog-editor":
        from advisor.core.hardware.catalog import RecordKind
        from advisor.ui.catalog_editor.window import CatalogEditor

        editor = CatalogEditor(session, parent=window)
        editor.tabs.setCurrentIndex(list(RecordKind).index(RecordKind.GPU))
        editor.kind_tabs[RecordKind.GPU].select("rtx-3090")
        return editor
    if name == "find-builds":
        from advisor.core.advice.candidates import PriceChoice
        from advisor.ui.find_builds import FindBuildsDialog

        session.set_model(ModelRef(preset_id="llama-3.1-70b"))
        session.set_workload(session.workload.model_copy(update={"weights": "q4_k_m", "engine": Engine.LLAMA_CPP,
                                                                 "batch": 1, "context_len": 4096}))
        dialog = FindBuildsDialog(session, window)
        dialog.spin_budget.setValue(4000)
        dialog.combo_price.setCurrentIndex(dialog.combo_price.findData(PriceChoice.EITHER))
        dialog.run_search()
        return dialog
    return window


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--size", action="append", default=[], help="WxH (default 1280x800 and 1920x1080)")
    ap.add_argument("--scene", action="append", choices=SCENES, default=[])
    args = ap.parse_args()
    os.environ.setdefault("LLM_ADVISOR_HOME", str(args.out / ".home"))  # never the user's own catalog
    from PySide6.QtWidgets import QApplication

    from advisor.ui.app import build_window

    app = QApplication.instance() or QApplication(sys.argv[:1])
    session, window = build_window(None)
    session.resolved_ok = lambda entry: _resolves(session, entry)
    window.skip_unsaved_prompt = True
    window.show()
    window.finish_start()
    args.out.mkdir(parents=True, exist_ok=True)
    for scene in args.scene or SCENES:
        for size in args.size or ["1280x800", "1920x1080"]:
            w, h = (int(x) for x in size.split("x"))
            target = _scene(scene, session, window)
            target.resize(w, h) if target is window or scene == "catalog-editor" else target.resize(min(w, 1100), min(h, 760))
            target.show()
            _settle(app, window=window)
            path = args.out / f"{scene}-{size}.png"
            target.grab().save(str(path))
            print(path)
            if target is not window:
                target.close()
    window.close()
    return 0


def _resolves(session, entry) -> bool:
    from advisor.core.advice.evaluate import resolve_entry

    try:
        resolve_entry(session.catalog, entry)
        return True
    except (LookupError, ValueError):
        return False


if __name__ == "__main__":
    sys.exit(main())
