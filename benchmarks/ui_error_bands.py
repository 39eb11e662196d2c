"""Write the app's error bands (``resources/fidelity.json``) from a fresh fidelity run.

The desktop app shows, beside every estimate, the memory estimator's measured error for
its group (inference, full, lora, qlora): the median and p90 absolute % error over the
trusted rows of ``benchmarks/fidelity.py`` (published peak-memory measurements). This
script runs that benchmark's own evaluation and writes the figures the app ships; it never
writes a figure it did not measure (a group with no scored row is left out, and the app
says "error band not yet measured").

Run after the estimator or the measurements change:
``.venv/bin/python benchmarks/ui_error_bands.py`` (``--check`` compares instead of writing).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import fidelity  # noqa: E402  (benchmarks/fidelity.py)
import sources  # noqa: E402  (benchmarks/sources.py)
import speed_fidelity  # noqa: E402  (benchmarks/speed_fidelity.py)

TARGET = ROOT / "resources" / "fidelity.json"


def measure() -> dict:
    outcomes = [fidelity.evaluate(r) for r in fidelity.load_rows()]
    trusted = [o for o in outcomes if o.trusted]
    groups = {g: {"rows": n, "median_pct": round(med, 1), "p90_pct": round(p90, 1)}
              for g, (n, med, p90) in fidelity.summarize(trusted).items()}
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    from advisor.storage.catalog_store import load_catalog

    catalog = load_catalog().catalog
    speed = [speed_fidelity.evaluate(r, catalog) for r in speed_fidelity.load_rows()]
    speeds = {key.removeprefix("engine "): {"rows": n, "median_pct": round(med, 1), "p90_pct": round(p90, 1)}
              for key, (n, med, p90) in speed_fidelity.summarize(speed).items()
              if key.startswith("engine ") or key == "overall"}
    return {"schema_version": 1, "what": "absolute % error of the per-GPU peak memory estimate (memory) and of "
            "tokens/s by engine (speed) vs published measurements, trusted rows of benchmarks/fidelity.py and "
            "benchmarks/speed_fidelity.py", "measured_on": dt.date.today().isoformat(),
            "commit": commit, "memory": groups, "speed": speeds, "speed_basis": speed_basis(speed, catalog)}


def _band(errs: list[float]) -> dict:
    return {"rows": len(errs), "median_pct": round(statistics.median(errs), 1),
            "p90_pct": round(speed_fidelity.p90(errs), 1)}


def speed_basis(outcomes: list, catalog) -> dict:
    """Per GPU family and engine (or training framework), the trusted scored rows and their error
    (``advisor.core.speed.basis``): which pairs the speed was measured on. Calibration and held-out
    rows both count as measured there; a pair's held-out rows (sources held out of every fit by
    ``speed_fidelity.split_of``, seen or not) also give their own band (``held_out``).

    The ``extrapolated`` entry: the band of held-out rows whose (family, software) pair the calibration rows do not
    measure as the app reads a table (``basis.measured_in``: the pair's own runs, or a training framework's on a
    family measured with another) — runs of a family the fit never saw with that software, which is what an
    extrapolated estimate is (TensorRT-LLM on the A100 and L40S, fitted on the H200; llama.cpp on families without a
    calibration run)."""
    from advisor.core.speed.basis import EXTRAPOLATED_KEY, basis_key, measured_in

    groups: dict[str, list[float]] = {}
    held: dict[str, list[float]] = {}
    fitted: set[str] = set()
    for o in outcomes:
        if o.estimate is None or not o.trusted or not o.gpu_id:
            continue
        key = basis_key(catalog.gpus[o.gpu_id].speed_family, engine_words(o.engine))
        groups.setdefault(key, []).append(o.error_pct)
        if o.split == sources.CALIBRATION:
            fitted.add(key)
        else:
            held.setdefault(key, []).append(o.error_pct)
    table = {key: {**_band(errs), **({"held_out": _band(held[key])} if key in held else {})}
             for key, errs in sorted(groups.items())}
    calibrated = {key: {"rows": len(groups[key])} for key in fitted}
    unseen = sorted(k for k in held if not measured_in(calibrated, *k.split("|", 1)))
    if unseen:
        table[EXTRAPOLATED_KEY] = {**_band([e for k in unseen for e in held[k]]), "pairs": unseen}
    return table


def engine_words(engine: str) -> str:
    """An engine or framework as the app names it (``Engine.label``; training frameworks as
    ``FRAMEWORK_NAMES`` has them, 'Hugging Face' for the HF Trainer): ``basis.software_of``'s words."""
    from advisor.core.job.choices import Engine, Framework
    from advisor.core.job.frameworks import FRAMEWORK_NAMES

    try:
        return Engine(engine).label
    except ValueError:
        pass
    try:
        return FRAMEWORK_NAMES[Framework(engine)]
    except ValueError:
        return engine


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="exit 1 if the shipped figures differ from a fresh run")
    args = parser.parse_args()
    fresh = measure()
    if args.check:
        shipped = json.loads(TARGET.read_text(encoding="utf-8"))
        parts = ("memory", "speed", "speed_basis")
        same = all(shipped.get(part) == fresh[part] for part in parts)
        print("shipped error bands match a fresh run" if same else
              "\n".join(f"{part}: shipped {shipped.get(part)}\n{part}: fresh   {fresh[part]}"
                        for part in parts if shipped.get(part) != fresh[part]))
        return 0 if same else 1
    TARGET.write_text(json.dumps(fresh, indent=2) + "\n", encoding="utf-8")
    for g, v in fresh["memory"].items():
        print(f"{g:10s} n={v['rows']:3d}  median {v['median_pct']:5.1f} %  p90 {v['p90_pct']:5.1f} %")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
