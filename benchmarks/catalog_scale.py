"""Catalog cost as the user's catalog grows: 1,000 and 10,000 user GPU records.

``generate(home, n)`` writes ``n`` valid, varied GPU records into the user catalog of an
``LLM_ADVISOR_HOME`` folder (``<home>/data/catalog/gpus/<id>.json``, the layout the app reads;
the real user folder is never touched). Each shipped GPU is a template: name, memory,
bandwidth, compute, power, launch date and a few dated prices vary per record, so the files
are as large and as different as hand-made ones.

Measured, 1k and 10k interleaved (the machine's load moves both alike), medians and the
10k / 1k ratio (linear growth: ≤ 10):

- ``load``: ``load_catalog()`` in-process (the shipped layer already read, as after start-up), a
  first load (every file parsed) and a load of the same, unchanged folder again;
- ``list``: ``llm-advisor catalog list`` as a whole process (``--runs`` pairs; the shipped
  catalog alone as a third, reference run);
- ``editor``: the catalog editor (offscreen Qt, in a fresh process per run, pyqtgraph and the
  catalog loaded first as in the running app) from construction to its first paint; one keystroke
  of the GPU search (the text typed one letter at a time; each letter's filter and repaint timed);
  a save of one edited record with the check of the disk that follows it.

Run: ``.venv/bin/python benchmarks/catalog_scale.py [--runs 5] [--only load|list|editor]``
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1_000, 10_000)
TYPED = "rtx 40"  # typed into the GPU tab's search box, one letter at a time


def _templates() -> list[dict]:
    from advisor.storage import shipped

    folder = shipped.catalog_dir() / "gpus"
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def _vary(template: dict, i: int, rng: random.Random) -> dict:
    """One user record from a shipped one: its own id and name, its own numbers, 0–4 dated prices."""
    data = {k: v for k, v in template.items() if k != "prices"}
    data["id"] = f"user-{i:05d}-{template['id']}"[:80]
    data["name"] = f"{template['name']} ({rng.choice(['OC', 'Lite', 'Pro', 'Max', 'SE', 'Ti'])} {i})"
    scale = rng.choice([0.5, 0.75, 1.0, 1.0, 1.5, 2.0])
    gib = round(max(1.0, template["memory_gib"] * scale), 1)
    data["memory_gib"] = gib
    data["memory_gb_marketing"] = gib
    for key in ("mem_bandwidth_gb_per_s", "fp32_tflops", "bf16_tflops_dense", "tdp_w"):
        if data.get(key):
            data[key] = round(data[key] * rng.uniform(0.8, 1.25), 2)
    data["launch_date"] = (dt.date(2016, 1, 1) + dt.timedelta(days=rng.randrange(3500))).isoformat()
    data["notes"] = f"benchmark record {i}: {template['id']} with its numbers varied"
    data["prices"] = [
        {"kind": rng.choice(["street_new", "used", "launch_msrp"]), "usd": round(rng.uniform(100, 40_000), 2),
         "date_seen": (dt.date(2024, 1, 1) + dt.timedelta(days=rng.randrange(600))).isoformat(),
         "source": f"https://example.com/prices/{data['id']}/{k}"}
        for k in range(rng.randrange(5))
    ]
    return data


def generate(home: Path, n: int, seed: int = 20) -> Path:
    """``n`` valid GPU records in ``home``'s user catalog (each validated, written as the app writes it)."""
    from advisor.core.hardware.records import Gpu
    from advisor.storage.catalog_store import record_json

    folder = home / "data" / "catalog" / "gpus"
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    templates = _templates()
    for i in range(n):
        record = Gpu.model_validate(_vary(rng.choice(templates), i, rng))
        (folder / f"{record.id}.json").write_text(record_json(record), encoding="utf-8")
    return home


def _ratio_line(what: str, times: dict[int, list[float]], unit: str = "s", scale: float = 1.0) -> str:
    a, b = (statistics.median(times[n]) for n in SIZES)
    return (f"{what}: 1k {a * scale:.3f} {unit}, 10k {b * scale:.3f} {unit}, ratio {b / a:.2f} "
            f"(medians of {len(times[SIZES[0]])})")


# --- load_catalog in-process ---------------------------------------------------------------


def _forget_parsed() -> None:
    """Empty the loader's per-file cache, so that a load parses every file."""
    from advisor.storage.catalog_store import reading

    getattr(reading, "_parsed", {}).clear()


def bench_load(homes: dict[int, Path], runs: int) -> None:
    from advisor.storage.catalog_store import load_catalog

    load_catalog(user_dir=homes[SIZES[0]] / "empty", migrate_user_files=False)  # the shipped layer, read once
    cold: dict[int, list[float]] = {n: [] for n in SIZES}
    cold_cpu: dict[int, list[float]] = {n: [] for n in SIZES}  # this process's CPU time: others' jobs left out
    warm: dict[int, list[float]] = {n: [] for n in SIZES}
    for _ in range(runs):
        for n in SIZES:
            for times in (cold, warm):  # a first load, then the same folder again (a reload after an edit)
                if times is cold:
                    _forget_parsed()
                t0, c0 = time.perf_counter(), time.process_time()
                result = load_catalog(user_dir=homes[n] / "data" / "catalog", migrate_user_files=False)
                times[n].append(time.perf_counter() - t0)
                if times is cold:
                    cold_cpu[n].append(time.process_time() - c0)
                assert len(result.catalog.user.gpus) == n and not result.problems, result.problems[:3]
                del result
    print(_ratio_line("load_catalog", cold))
    print(_ratio_line("load_catalog, CPU time", cold_cpu))
    print(_ratio_line("load_catalog again (files unchanged)", warm))


# --- llm-advisor catalog list as a process -------------------------------------------------


def _run_list(home: Path) -> float:
    env = {**os.environ, "LLM_ADVISOR_HOME": str(home)}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "advisor", "catalog", "list"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def bench_list(homes: dict[int, Path], empty: Path, runs: int) -> None:
    for home in (empty, *homes.values()):
        _run_list(home)  # warm the file cache
    times: dict[int, list[float]] = {n: [] for n in SIZES}
    shipped_only = []
    for _ in range(runs):
        shipped_only.append(_run_list(empty))
        for n in SIZES:
            times[n].append(_run_list(homes[n]))
    ref = statistics.median(shipped_only)
    print(_ratio_line("catalog list (process)", times)
          + f"; shipped catalog only {ref:.3f} s, 10k / shipped {statistics.median(times[SIZES[1]]) / ref:.2f}")


# --- the catalog editor ---------------------------------------------------------------------


def _editor_child(home: Path, runs: int) -> None:
    """In a fresh process (LLM_ADVISOR_HOME=home): JSON {open_s, key_s, save_s: [...]} on stdout.

    As in the running app: pyqtgraph imported and the catalog loaded (the window did both at start-up).
    """
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    import pyqtgraph  # noqa: F401 - the window has it loaded before the editor opens
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    from advisor.core.hardware.catalog import RecordKind
    from advisor.storage.catalog_store import load_catalog
    from advisor.ui.catalog_editor.window import CatalogEditor

    app = QApplication([])
    load_catalog()  # the session's load at start-up

    class FirstPaint(QObject):
        painted = False

        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint and obj.isWidgetType():
                self.painted = True
            return False

    out: dict[str, list[float]] = {"open_s": [], "key_s": [], "save_s": []}
    for run in range(runs):
        spy = FirstPaint()
        app.installEventFilter(spy)
        t0 = time.perf_counter()
        editor = CatalogEditor()
        editor.show()
        while not spy.painted:
            app.processEvents()
        table = editor.kind_tabs[RecordKind.GPU].table
        table.viewport().repaint()  # the visible rows drawn: the window is usable
        out["open_s"].append(time.perf_counter() - t0)
        app.removeEventFilter(spy)
        tab = editor.kind_tabs[RecordKind.GPU]
        for k in range(1, len(TYPED) + 1):
            t0 = time.perf_counter()
            tab.edit_search.setText(TYPED[:k])  # filters at once, as a keystroke does
            table.viewport().repaint()
            out["key_s"].append(time.perf_counter() - t0)
        assert tab.proxy.rowCount() > 0
        record = next(iter(editor.repo.catalog.user.gpus.values()))
        t0 = time.perf_counter()
        assert editor.save_record(record.model_copy(update={"name": f"{record.name} (renamed {run})"}))
        editor.check_disk()  # what the folder watcher runs after the write
        out["save_s"].append(time.perf_counter() - t0)
        editor.skip_unsaved_prompt = True
        editor.close()
        editor.deleteLater()
        app.processEvents()
    print(json.dumps(out))


def bench_editor(homes: dict[int, Path], runs: int) -> None:
    got: dict[str, dict[int, list[float]]] = {key: {n: [] for n in SIZES} for key in ("open_s", "key_s", "save_s")}
    for _ in range(runs):
        for n in SIZES:
            env = {**os.environ, "LLM_ADVISOR_HOME": str(homes[n]), "QT_QPA_PLATFORM": "offscreen"}
            done = subprocess.run([sys.executable, __file__, "--editor-child", "1"], cwd=ROOT, env=env, check=True,
                                  capture_output=True, text=True)
            child = json.loads(done.stdout.strip().splitlines()[-1])
            for key, values in child.items():
                got[key][n].append(statistics.median(values))
    print(_ratio_line("editor open to first paint", got["open_s"]))
    print(_ratio_line("editor search, one keystroke", got["key_s"], "ms", 1000))
    print(_ratio_line("editor save of one record (and the check of the disk after it)", got["save_s"]))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", choices=("load", "list", "editor"))
    ap.add_argument("--editor-child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.editor_child:
        _editor_child(Path(os.environ["LLM_ADVISOR_HOME"]), args.editor_child)
        return 0
    with tempfile.TemporaryDirectory(prefix="catalog-scale-") as tmp:
        homes = {n: generate(Path(tmp) / f"home-{n}", n) for n in SIZES}
        empty = Path(tmp) / "home-empty"
        empty.mkdir()
        if args.only in (None, "load"):
            bench_load(homes, args.runs)
        if args.only in (None, "list"):
            bench_list(homes, empty, args.runs)
        if args.only in (None, "editor"):
            bench_editor(homes, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
