"""The estimator's measured error band, per group, from the data file the app ships.

``resources/fidelity.json`` holds the medians and p90s that ``benchmarks/fidelity.py``
measured against published peak-memory figures, per group (inference, full, lora, qlora):
``{"memory": {"lora": {"rows": 12, "median_pct": 6.1, "p90_pct": 14.0}, ...}, "date": "..."}``.
Without that file (or a group's entry) the app says "error band not yet measured" — it
never shows a ± it did not measure.
"""

from __future__ import annotations

import json
from functools import cache

from advisor.core import Job, Mode, SpeedBasis, basis_of, software_of

NOT_MEASURED = "error band not yet measured"


@cache
def _bands() -> dict:
    try:
        from advisor.storage.shipped import resources_dir

        data = json.loads((resources_dir() / "fidelity.json").read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def group_of(workload: Job) -> str:
    if workload.mode is Mode.INFERENCE:
        return "inference"
    return "adapter" if workload.method.litgpt_adapter else workload.method.value  # v1 and v2 measured together


def median_pct(workload: Job) -> float | None:
    """The measured median % error of the memory estimate for this workload's group, or None."""
    entry = _bands().get("memory", {}).get(group_of(workload))
    return entry.get("median_pct") if isinstance(entry, dict) else None


def speed_band_text(workload: Job) -> str:
    """'speed ±15 % median, ±50 % p90 (67 measurements, vLLM)' — the engine's band (named as its users
    write it, ``Engine.label``), else
    the overall one (training uses the overall band too), or NOT_MEASURED."""
    bands = _bands().get("speed", {})
    key = workload.engine.value if workload.mode is Mode.INFERENCE else "overall"
    entry = bands.get(key) if isinstance(bands.get(key), dict) else bands.get("overall")
    if not isinstance(entry, dict) or entry.get("median_pct") is None:
        return f"speed: {NOT_MEASURED}"
    label = (key if key == "overall" else workload.engine.label) if bands.get(key) is entry else "all engines"
    return (f"speed ±{entry['median_pct']:.0f} % median, ±{entry['p90_pct']:.0f} % p90 "
            f"({entry.get('rows', '?')} measurements, {label})")


def _group_words(group: str) -> str:
    """A band's group as the job's settings say it ('QLoRA (4-bit base)', not 'qlora')."""
    from advisor.core import choice_label

    return group if group == "inference" else choice_label("method", group)


def error_band_text(workload: Job) -> str:
    """'memory ±6 % median, ±14 % p90 (12 measurements, LoRA); speed ±…' or NOT_MEASURED."""
    group = group_of(workload)
    entry = _bands().get("memory", {}).get(group)
    if not isinstance(entry, dict) or entry.get("median_pct") is None:
        return f"memory: {NOT_MEASURED} ({_group_words(group)}); {speed_band_text(workload)}"
    p90 = entry.get("p90_pct")
    tail = f", ±{p90:.0f} % p90" if p90 is not None else ""
    return (f"memory ±{entry['median_pct']:.0f} % median{tail} ({entry.get('rows', '?')} measurements, "
            f"{_group_words(group)}); {speed_band_text(workload)}")


def speed_basis(workload: Job, gpus) -> SpeedBasis:
    """What this job's speed on these GPUs stands on (``advisor.core.speed.basis.basis_of`` over the shipped
    table): measured on their family with the job's engine or framework, or extrapolated."""
    return basis_of(speed_basis_table(), gpus, software_of(workload))


def speed_basis_table() -> dict:
    """The shipped table of which GPU families were measured with which engine or framework
    (``advisor.core.speed.basis``), keyed 'family|software'; empty when not shipped."""
    table = _bands().get("speed_basis", {})
    return table if isinstance(table, dict) else {}


def extrapolated_band_pct() -> float | None:
    """The band of a speed with no measurement of its GPU family and software: the speed-basis table's
    'extrapolated' median where it has one, else the 90th percentile of every measured speed error
    (``speed.overall.p90_pct``): an unmeasured family is trusted no more than the worst tenth of the measured."""
    entry = speed_basis_table().get("extrapolated")
    if isinstance(entry, dict) and isinstance(entry.get("median_pct"), int | float):
        return float(entry["median_pct"])
    overall = _bands().get("speed", {}).get("overall")
    value = overall.get("p90_pct") if isinstance(overall, dict) else None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
