"""Screenshots of the window for the README and for looking at it as a user would.

Run under a virtual screen, e.g.::

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python packaging/screenshots.py OUT_DIR [--size 1280x800 ...]

Scenes: ``first-launch`` (the canonical comparison, the winner named), ``fresh-new`` (File ▸ New after
an edit: the default job again), ``does-not-fit`` (a build on which the job does not fit, with what
would make it fit), ``find-builds`` (the catalog search with its plot), ``find-builds-empty`` (the
same dialog before its first search), ``six-builds`` (six builds of six kinds: a GPU pair with NVLink,
a GPU pair over PCIe, a Mac Studio, an 8-GPU cloud instance, a prebuilt workstation and one RTX PRO
6000) on the Fit tab, and the same on each other tab (``six-builds-memory``, ``-speed``, ``-value``,
``six-builds-details``), ``six-builds-train-memory`` (a LoRA fine-tune's Memory tab), ``moe-details`` (an MoE
model, Qwen3-30B-A3B in llama.cpp with a 2,048-token prompt, on the canonical builds' Details tab), ``catalog-editor``
(the editor on the RTX 3090's record). Each is saved as ``SCENE-WxH.png``; ``--pdf`` also writes the
six-build inference and training reports (``six-builds-inference.pdf``, ``six-builds-training.pdf``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TABS = {"six-builds": "Fit", "six-builds-memory": "Memory", "six-builds-speed": "Speed", "six-builds-value": "Value",
        "six-builds-details": "Details", "six-builds-train-memory": "Memory"}
SCENES = ("first-launch", "fresh-new", "does-not-fit", "find-builds", "find-builds-empty", *TABS, "moe-details",
          "catalog-editor")


def _settle(app, rounds: int = 6, window=None) -> None:
    for _ in range(rounds):
        app.processEvents()
    if window is not None:  # the fit sweep and the search come from a worker thread, after the table
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
    from advisor.core.advice.comparison import (
        BuildEntry,
        ModelRef,
        canonical_comparison,
    )
    from advisor.core.job.choices import Engine

    session.apply(canonical_comparison(), None)
    window.tabs.setCurrentIndex(0)
    if name == "does-not-fit":
        session.add_build(BuildEntry(name="1× RTX 5090", build_id="1x-rtx-5090"))
        session.set_model(ModelRef(preset_id="llama-3.1-70b"))
        session.set_workload(session.workload.model_copy(update={"weights": "q4_k_m", "engine": Engine.LLAMA_CPP,
                                                                 "batch": 1, "context_len": 4096}))
    if name == "moe-details":
        session.set_model(ModelRef(preset_id="qwen3-30b-a3b"))
        session.set_workload(session.workload.model_copy(update={"weights": "q4_k_m", "engine": Engine.LLAMA_CPP,
                                                                 "batch": 1, "context_len": 4096,
                                                                 "prompt_tokens": 2048}))
        window.tabs.setCurrentIndex(next(i for i in range(window.tabs.count()) if window.tabs.tabText(i) == "Details"))
    if name == "fresh-new":
        session.set_workload(session.workload.model_copy(update={"batch": 3}))
        window.new()
    if name in TABS:
        for entry in six_builds(session)[2:]:
            session.add_build(entry)
        if "train" in name:
            from advisor.core.job.choices import Method, Mode

            session.set_workload(session.workload.model_copy(update={"mode": Mode.TRAIN, "method": Method.LORA}))
        window.tabs.setCurrentIndex(next(i for i in range(window.tabs.count()) if window.tabs.tabText(i) == TABS[name]))
    if name == "catalog-editor":
        from advisor.core.hardware.catalog import RecordKind
        from advisor.ui.catalog_editor.window import CatalogEditor

        editor = CatalogEditor(session, parent=window)
        editor.tabs.setCurrentIndex(list(RecordKind).index(RecordKind.GPU))
        editor.kind_tabs[RecordKind.GPU].select("rtx-3090")
        return editor
    if name.startswith("find-builds"):
        from advisor.core.advice.candidates import PriceChoice
        from advisor.ui.find_builds import FindBuildsDialog

        session.set_model(ModelRef(preset_id="llama-3.1-70b"))
        session.set_workload(session.workload.model_copy(update={"weights": "q4_k_m", "engine": Engine.LLAMA_CPP,
                                                                 "batch": 1, "context_len": 4096}))
        dialog = FindBuildsDialog(session, window)
        dialog.spin_budget.setValue(4000)
        dialog.combo_price.setCurrentIndex(dialog.combo_price.findData(PriceChoice.EITHER))
        if name == "find-builds":
            dialog.run_search()
        return dialog
    return window


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--size", action="append", default=[], help="WxH (default 1280x800, 1024x700 and 1920x1080)")
    ap.add_argument("--scene", action="append", choices=SCENES, default=[])
    ap.add_argument("--pdf", action="store_true", help="also write the six-build inference and training reports")
    args = ap.parse_args()
    os.environ.setdefault("LLM_ADVISOR_HOME", str(args.out / ".home"))  # never the user's own catalog
    from PySide6.QtWidgets import QApplication

    from advisor.ui.app import build_window

    app = QApplication.instance() or QApplication(sys.argv[:1])
    session, window = build_window(None)
    window.skip_unsaved_prompt = True
    window.show()
    window.finish_start()
    args.out.mkdir(parents=True, exist_ok=True)
    for scene in args.scene or SCENES:
        for size in args.size or ["1280x800", "1024x700", "1920x1080"]:
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
    if args.pdf:
        write_reports(session, args.out)
    window.close()
    return 0


def six_builds(session):
    """The canonical pair (NVLink, PCIe), then a Mac Studio, an 8-GPU cloud instance, a prebuilt workstation
    and one RTX PRO 6000: six builds of six kinds."""
    from advisor.core.advice.comparison import BuildEntry, canonical_comparison

    cat = session.catalog
    macs = [k for k in cat.systems if "mac-studio" in k and _resolves(session, BuildEntry(name="m", system_id=k))]
    mac = next((k for k in macs if "m3-ultra" in k), macs[0])
    clouds = [k for k, v in cat.cloud.items() if v.gpu_count == 8]
    cloud = next((k for k in clouds if cat.cloud[k].gpu_id == "h100-sxm"), clouds[0])
    station = next(k for k, v in cat.systems.items() if v.kind.value == "workstation"
                   and _resolves(session, BuildEntry(name="w", system_id=k)))
    return (*canonical_comparison().builds, BuildEntry(name="Mac Studio", system_id=mac),
            BuildEntry(name="Cloud 8× H100", cloud_id=cloud), BuildEntry(name="Workstation", system_id=station),
            BuildEntry(name="1× RTX PRO 6000", build_id="1x-rtx-pro-6000"))


def write_reports(session, out: Path) -> None:
    """The six-build comparison's inference and training reports, as File ▸ Export PDF writes them."""
    from advisor.cli.report import report_results
    from advisor.core.advice.comparison import canonical_comparison
    from advisor.core.job.choices import Method, Mode
    from advisor.core.job.defaults import default_job
    from advisor.report.export import export_pdf
    from advisor.storage.catalog_store import shipped_catalog_date
    from advisor.storage.error_bands import error_band_text

    comp = canonical_comparison().model_copy(update={"builds": six_builds(session)})
    train = comp.model_copy(update={"workload": default_job(Mode.TRAIN).model_copy(
        update={"method": Method.FULL, "dataset_tokens": 10**9})})
    for name, c in (("six-builds-inference.pdf", comp), ("six-builds-training.pdf", train)):
        arch, results = report_results(c, session.catalog, session.prefs.cost)
        export_pdf(c, arch, results, out / name, catalog_date=shipped_catalog_date(),
                   error_band=error_band_text(c.workload), overwrite=True)
        print(out / name)


def _resolves(session, entry) -> bool:
    from advisor.core.advice.evaluate import resolve_entry

    try:
        resolve_entry(session.catalog, entry)
        return True
    except (LookupError, ValueError):
        return False


if __name__ == "__main__":
    sys.exit(main())
