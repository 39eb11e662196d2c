"""benchmarks/hostile_inputs.py: its cases are made from (family, seed) alone, and its checks catch what they count."""

from __future__ import annotations

import pytest

from tests.benchmark_scripts import load_benchmark

bench = load_benchmark("hostile_inputs")


@pytest.mark.parametrize("family", sorted(set(bench.FAMILIES) - {"window"}))
def test_a_case_of_every_family_runs_and_is_reported(tmp_path, family):
    result = bench.run_case(family, 7, tmp_path)
    assert result["family"] == family and not result["traceback"] and not result["changed_on_failure"]
    assert result["code"] in (0, 1, 2) and not result["unclear"]
    assert result["code"] == 0 or result["error_lines"] >= 1


def test_the_same_seed_makes_the_same_case(tmp_path):
    argv = [bench.make_case("flag", 3, tmp_path / f"h{i}", tmp_path / f"w{i}")[0] for i in (1, 2)]
    assert [a for a in argv[0] if "/" not in a] == [a for a in argv[1] if "/" not in a]


def test_the_summary_counts_what_went_wrong():
    results = [{"family": "record", "seed": 1, "code": -1, "traceback": "ValueError: x"},
               {"family": "flag", "seed": 2, "hang": True},
               {"family": "bundle", "seed": 3, "code": 1, "error_lines": 0, "changed_on_failure": True},
               {"family": "window", "seed": 4, "code": 1, "first_error": "the file was not named"},
               {"family": "config", "seed": 5, "code": 2, "error_lines": 1, "unclear": True, "peak_mb": 12.0}]
    s = bench.summary(results, 1.0)
    assert (s["tracebacks"], s["hangs"], s["failed commands that changed a user file"],
            s["failures that said nothing on stderr"], s["window starts that did not start or name the file"],
            s["unclear error output (indented lines, pydantic or Python advice)"]) == (1, 1, 1, 1, 1, 1)
