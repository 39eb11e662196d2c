"""Time and size of a 4-build PDF report (target: ≤ 1 s and ≤ 1 MB on this machine), and the
whole ``llm-advisor report`` command with six builds as a ratio to ``import PySide6.QtGui``.

Run: ``.venv/bin/python benchmarks/report.py [--repeat 5] [--runs 7]``. Each repeat evaluates the
comparison and writes the whole report (charts included) from scratch, in-process, after
one warm-up (the first run also pays for importing pyqtgraph and laying out fonts). Then the
command, a fresh process each run, on a saved comparison of six builds of different kinds
(those of ``tests/plots/test_plot_labels.py``, a DGX H100 for its DGX-2), paired and alternating with a fresh
``python -c "import PySide6.QtGui"``; both with bytecode cached as an installed wheel has it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtWidgets import QApplication  # noqa: E402

from advisor.cli.report import report_results  # noqa: E402
from advisor.core.advice.comparison import BuildEntry, Comparison, ModelRef  # noqa: E402
from advisor.core.job.planned import PlannedJob  # noqa: E402
from advisor.report.export import export_pdf  # noqa: E402
from advisor.storage.catalog_store import load_catalog, shipped_catalog_date  # noqa: E402

FOUR_BUILDS = Comparison(
    title="Four builds for Llama 3.1 70B at 4 bits",
    model=ModelRef(preset_id="llama-3.1-70b"),
    workload=PlannedJob(weights="awq", context_len=8192, batch=4, n_gpus=2, parallel="tp", engine="vllm"),
    builds=(BuildEntry(name="2x RTX 3090 NVLink", build_id="2x-rtx-3090-nvlink"),
            BuildEntry(name="2x RTX 4090 x16", build_id="2x-rtx-4090-pcie-x16"),
            BuildEntry(name="2x RTX 5090", build_id="2x-rtx-5090"),
            BuildEntry(name="8x H100 SXM", build_id="8x-h100-sxm")),
)


SIX_BUILDS = Comparison(
    title="Six builds for Llama 3.1 8B",
    model=ModelRef(preset_id="llama-3.1-8b"),
    workload=PlannedJob(),
    builds=(BuildEntry(name="2× RTX 3090 (NVLink)", build_id="2x-rtx-3090-nvlink"),
            BuildEntry(name="2× RTX 4090 (PCIe)", build_id="2x-rtx-4090-pcie-x16"),
            BuildEntry(name="Mac Studio M3 Ultra 96GB", system_id="apple-mac-studio-m3-ultra-96gb"),
            BuildEntry(name="NVIDIA DGX H100", system_id="nvidia-dgx-h100"),  # the DGX-2 has no verified GPU configuration
            BuildEntry(name="RunPod H200 (Secure Cloud)", cloud_id="runpod-h200-secure-cloud"),
            BuildEntry(name="1× RTX 5090", gpu_id="rtx-5090", gpu_count=1)),
)


def _timed(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def cold_command(runs: int) -> None:
    """The six-build ``llm-advisor report`` command against ``import PySide6.QtGui``, paired."""
    from advisor.storage.comparison_file import save_comparison

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "advisor-report-pycache")
    with tempfile.TemporaryDirectory() as tmp:
        env["LLM_ADVISOR_HOME"] = tmp
        path = save_comparison(Path(tmp) / "six.json", SIX_BUILDS)
        report = [sys.executable, "-m", "advisor", "report", str(path), "--out", str(Path(tmp) / "six.pdf"),
                  "--overwrite"]
        qtgui = [sys.executable, "-c", "import PySide6.QtGui"]
        _timed(report, env), _timed(qtgui, env)  # warm the file and bytecode caches
        rep, ref = [], []
        for i in range(runs):
            for which in ((report, rep), (qtgui, ref)) if i % 2 == 0 else ((qtgui, ref), (report, rep)):
                which[1].append(_timed(which[0], env))
    r, q = statistics.median(rep), statistics.median(ref)
    ratios = statistics.median(a / b for a, b in zip(rep, ref))
    print(f"llm-advisor report, six builds, cold process: median {r:.3f} s; import PySide6.QtGui {q:.3f} s; "
          f"ratio {r / q:.1f} (median of pair ratios {ratios:.1f}; {runs} paired runs)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--runs", type=int, default=7, help="paired cold runs of the six-build command")
    args = parser.parse_args()
    app = QApplication(["bench"])  # noqa: F841
    catalog, date = load_catalog().catalog, shipped_catalog_date()
    times, sizes = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat + 1):
            out = Path(tmp) / f"r{i}.pdf"
            start = time.perf_counter()
            arch, results = report_results(FOUR_BUILDS, catalog)  # evaluated as `llm-advisor report` does
            pages = export_pdf(FOUR_BUILDS, arch, results, out, catalog_date=date, error_band="(benchmark)")
            elapsed = time.perf_counter() - start
            if i:  # the first run is the warm-up
                times.append(elapsed)
                sizes.append(out.stat().st_size)
    print(f"4-build report, {pages} pages: median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms over {len(times)} runs; size {max(sizes) / 1e6:.3f} MB")
    if args.runs:
        cold_command(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
