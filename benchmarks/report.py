"""Time and size of a 4-build PDF report (target: ≤ 1 s and ≤ 1 MB on this machine).

Run: ``.venv/bin/python benchmarks/report.py [--repeat 5]``. Each repeat evaluates the
comparison and writes the whole report (charts included) from scratch, in-process, after
one warm-up (the first run also pays for importing pyqtgraph and laying out fonts).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtWidgets import QApplication  # noqa: E402

from advisor.core.advice.comparison import BuildEntry, Comparison, ModelRef  # noqa: E402
from advisor.core.job.workload import Workload  # noqa: E402
from advisor.report.export import export_pdf  # noqa: E402
from advisor.storage.catalog_store import load_catalog, shipped_catalog_date  # noqa: E402

FOUR_BUILDS = Comparison(
    title="Four builds for Llama 3.1 70B at 4 bits",
    model=ModelRef(preset_id="llama-3.1-70b"),
    workload=Workload(weights="awq", context_len=8192, batch=4, n_gpus=2, parallel="tp", engine="vllm"),
    builds=(BuildEntry(name="2x RTX 3090 NVLink", build_id="2x-rtx-3090-nvlink"),
            BuildEntry(name="2x RTX 4090 x16", build_id="2x-rtx-4090-pcie-x16"),
            BuildEntry(name="2x RTX 5090", build_id="2x-rtx-5090"),
            BuildEntry(name="8x H100 SXM", build_id="8x-h100-sxm")),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    app = QApplication(["bench"])  # noqa: F841
    catalog, date = load_catalog().catalog, shipped_catalog_date()
    times, sizes = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat + 1):
            out = Path(tmp) / f"r{i}.pdf"
            start = time.perf_counter()
            pages = export_pdf(FOUR_BUILDS, catalog, out, catalog_date=date, error_band="(benchmark)")
            elapsed = time.perf_counter() - start
            if i:  # the first run is the warm-up
                times.append(elapsed)
                sizes.append(out.stat().st_size)
    print(f"4-build report, {pages} pages: median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms over {len(times)} runs; size {max(sizes) / 1e6:.3f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
