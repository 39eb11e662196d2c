"""``llm-advisor estimate`` as a whole process, as a ratio to ``python -c "import pydantic"``.

Paired and interleaved runs in one go (the machine's load moves both alike); prints the medians and the ratio.

    .venv/bin/python benchmarks/cli_startup.py [--runs 9]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ESTIMATE = [sys.executable, "-m", "advisor", "estimate", "llama-3.1-8b", "--build", "2x-rtx-3090-nvlink", "--json"]
REFERENCE = [sys.executable, "-c", "import pydantic"]


def _time(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    _time(ESTIMATE), _time(REFERENCE)  # warm the file cache
    est, ref = [], []
    for _ in range(args.runs):
        est.append(_time(ESTIMATE))
        ref.append(_time(REFERENCE))
    e, r = statistics.median(est), statistics.median(ref)
    print(f"estimate {e:.3f} s, import pydantic {r:.3f} s, ratio {e / r:.2f} (medians of {args.runs} paired runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
