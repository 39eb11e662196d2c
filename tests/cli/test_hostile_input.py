"""Hostile files and flags, each class as a generated family, through the commands a user runs.

Every example asserts the bad-input rule (``tests/hostile.py``): the exit code, no traceback, one
error line on stderr (warnings about the bad file aside), bounded time and memory, and the user's
files exactly as they were. The classes: a JSON integer past Python's 4,300-digit limit in any user
file; numbers outside a real job's range in a comparison; a bad settings.json; a cloud record whose
NVLink pair names a GPU it lacks; flag values that pass the parser; output that cannot be written.
"""

from __future__ import annotations

import errno
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.core.advice.comparison import BuildEntry, canonical_comparison
from advisor.core.job.planned import PlannedJob
from advisor.storage import paths
from advisor.storage.comparison_file import to_json
from tests.catalog_fixtures import SRC
from tests.hostile import assert_clean, assert_one_line, files, fresh_home, run

REPO = Path(__file__).resolve().parents[2]
SHIPPED_GPU = REPO / "catalog" / "gpus" / "rtx-3090.json"
HYP = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])


def _long_int(digits: int, sign: str = "") -> str:
    return sign + "8" * digits


def _with_number(doc: dict, key: str, number: str) -> str:
    """``doc`` as JSON text with ``key``'s value replaced by the literal ``number``."""
    return json.dumps({**doc, key: "@@"}).replace('"@@"', number)


# --- 1. an integer past Python's int-from-string limit in any user file ---------------------------

_USER_FILES = ("gpu record", "model record", "hidden.json", "settings.json")


def _write_hostile(home: Path, which: str, key: str, number: str) -> Path:
    catalog = home / "data" / "catalog"
    if which == "gpu record":
        path = catalog / "gpus" / "rtx-3090.json"
        text = _with_number(json.loads(SHIPPED_GPU.read_text()), key, number)
    elif which == "model record":
        path = catalog / "models" / "hostile-model.json"
        doc = {"schema_version": 1, "id": "hostile-model", "name": "H", "n_layers": 2, "hidden_size": 64,
               "n_heads": 4, "n_kv_heads": 2, "head_dim": 16, "ffn_size": 128, "vocab_size": 1000}
        text = _with_number(doc, key, number)
    elif which == "hidden.json":
        path = catalog / "hidden.json"
        text = _with_number({"schema_version": 1, "hidden": {"gpu": ["rtx-4090"]}}, key, number)
    else:
        path = paths.settings_file()
        text = _with_number({"memory_unit": "GB", "years": 4}, key, number)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@HYP
@given(which=st.sampled_from(_USER_FILES), key=st.sampled_from(["tdp_w", "n_layers", "schema_version", "extra"]),
       digits=st.integers(4_301, 200_000), sign=st.sampled_from(["", "-"]))
def test_a_number_past_the_digit_limit_in_a_user_file(which, key, digits, sign):
    with fresh_home() as home:
        path = _write_hostile(home, which, key, _long_int(digits, sign))
        before = files(home)
        if which == "settings.json":
            o = run("estimate", "--params", "8b", "--gpu", "rtx-3090")
            assert_clean(o, 0)
            [warning] = [line for line in o.err.splitlines() if line.startswith("warning:")]
            assert str(path) in warning and "digits" in warning
        else:
            o = run("catalog", "validate")  # one line per problem on stdout, then the count
            assert_clean(o, 1)
            [problem] = [line for line in o.out.splitlines() if str(path) in line]
            assert "4,300 digits" in problem
            for argv in (("catalog", "list"), ("catalog", "list", "--json"), ("estimate", "--params", "8b"),
                         ("estimate", "llama-3.1-8b"), ("estimate", "--params", "8b", "--gpu", "rtx-4090")):
                assert_clean(run(*argv), 0)
        assert files(home) == before


@HYP
@given(key=st.sampled_from(["title", "rank_by", "schema_version", "workload", "model"]),
       digits=st.integers(4_301, 100_000))
def test_a_number_past_the_digit_limit_in_a_comparison(tmp_path, key, digits):
    with fresh_home() as home:
        path = tmp_path / "c.json"
        path.write_text(_with_number(json.loads(to_json(canonical_comparison())), key, _long_int(digits)))
        before = files(home), path.read_bytes()
        line = assert_one_line(run("report", str(path), "--out", str(tmp_path / "c.pdf"), "--overwrite"), 2)
        assert str(path) in line and "4,300 digits" in line
        assert (files(home), path.read_bytes()) == before and not (tmp_path / "c.pdf").exists()


# --- 2. numbers outside a real job's range --------------------------------------------------------

def _bounded_fields() -> list[tuple[str, float, float]]:
    out = []
    for name, info in PlannedJob.model_fields.items():
        lo = next((m.ge for m in info.metadata if hasattr(m, "ge")), None)
        hi = next((m.le for m in info.metadata if hasattr(m, "le")), None)
        if hi is not None and lo is not None:
            out.append((name, lo, hi))
    return out


def _outside(lo: float, hi: float, past: int, below: bool) -> str:
    if past >= 10**300:  # as the file would carry it: a literal far past any float
        return ("-" if below else "") + "1" + "0" * 400
    if isinstance(lo, float) or isinstance(hi, float):
        return repr(lo / (1 + past) if below and lo > 0 else (lo - past if below else hi + past))
    return str(lo - past if below else hi + past)


@HYP
@given(field=st.sampled_from(_bounded_fields()), past=st.one_of(st.integers(1, 10**6), st.just(10**400)),
       below=st.booleans(), mode=st.sampled_from(["train", "inference"]))
def test_a_workload_number_outside_its_range_in_a_comparison(tmp_path, field, past, below, mode):
    name, lo, hi = field
    doc = json.loads(to_json(canonical_comparison()))
    doc["workload"] = {**doc["workload"], "mode": mode, name: "@@"}
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc).replace('"@@"', _outside(lo, hi, past, below)))
    with fresh_home() as home:
        before = files(home)
        line = assert_one_line(run("report", str(path), "--out", str(tmp_path / "c.pdf"), "--overwrite"), 2)
        assert str(path) in line and (f"workload.{name}" in line or "digits" in line), line
        assert files(home) == before


def test_every_workload_number_has_a_range():
    import annotated_types as at

    for name, info in PlannedJob.model_fields.items():
        if info.annotation in (int, float, int | None, float | None):
            kinds = {type(m) for m in info.metadata}
            assert kinds & {at.Ge, at.Gt} and kinds & {at.Le, at.Lt}, name


# --- 3. a bad settings.json: said on stderr, never moved or dropped by the CLI ---------------------

_bad_settings = st.one_of(
    st.sampled_from(["{", "[]", "null", '"x"', "\xff", "[" * 50_000]),
    st.builds(lambda k, v: json.dumps({k: v}), st.sampled_from(["hours_per_day", "years", "electricity_usd_per_kwh",
                                                                "memory_unit", "recent_comparisons"]),
              st.one_of(st.floats(), st.integers(-10**30, 10**30), st.text(max_size=5), st.lists(st.integers()))),
)


@HYP
@given(text=_bad_settings)
def test_a_bad_settings_file_is_said_and_left_as_it_is(text):
    with fresh_home() as home:
        f = paths.settings_file()
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(text.encode("utf-8", "surrogateescape") if text != "\xff" else b"\xff")
        before = files(home)
        o = run("estimate", "--params", "8b", "--gpu", "rtx-3090")
        assert_clean(o, 0)
        warnings = [line for line in o.err.splitlines() if line.startswith("warning:")]
        assert len(warnings) <= 1 and all(str(f) in w for w in warnings)
        assert files(home) == before  # the CLI moves nothing


# --- 4. a cloud record whose NVLink pair names a GPU it lacks -------------------------------------

@HYP
@given(count=st.integers(1, 8), pairs=st.lists(st.tuples(st.integers(0, 575), st.integers(0, 575)).filter(
    lambda p: p[0] != p[1]), min_size=1, max_size=4))
def test_a_cloud_nvlink_pair_past_its_gpu_count_fails_validation(count, pairs):
    if all(a < count and b < count for a, b in pairs):
        pairs = [*pairs, (0, count)]
    doc = {"schema_version": 1, "id": "hostile-cloud", "sources": [SRC], "provider": "Cloudy",
           "instance_type": "x", "gpu_id": "rtx-3090", "gpu_count": count,
           "topology": {"nvlink_pairs": [list(p) for p in pairs]},
           "prices": [{"usd_per_hour": 2.5, "region": "us", "date_seen": "2026-07-01", "source": SRC}]}
    with fresh_home() as home:
        path = home / "data" / "catalog" / "cloud" / "hostile-cloud.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(doc))
        before = files(home)
        o = run("catalog", "validate")
        assert o.code == 1 and "Traceback" not in o.err
        [problem] = [line for line in o.out.splitlines() if str(path) in line]
        assert "names a GPU beyond" in problem
        line = assert_one_line(run("estimate", "--params", "8b", "--build", "hostile-cloud"), 2)
        assert "hostile-cloud" in line
        assert files(home) == before


def test_an_inline_build_whose_nvlink_pair_names_a_gpu_it_lacks_is_refused(tmp_path):
    from advisor.core.advice.evaluate import resolve_entry
    from advisor.storage.catalog_store import load_catalog

    inline = resolve_entry(load_catalog().catalog, BuildEntry(name="x", build_id="2x-rtx-3090-nvlink"))
    doc = json.loads(to_json(canonical_comparison().model_copy(update={"builds": (
        BuildEntry(name="inline", inline=inline.model_copy(update={"build": None})),
        BuildEntry(name="b", build_id="2x-rtx-4090-pcie-x16"))})))
    doc["builds"][0]["inline"]["topology"]["nvlink_pairs"] = [[0, 7]]
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    line = assert_one_line(run("report", str(path), "--out", str(tmp_path / "c.pdf")), 2)
    assert "names a GPU beyond" in line


# --- 7. flag values that pass the parser ------------------------------------------------------------

_NUMBERS = st.one_of(
    st.integers(-10**6, 10**6).map(str), st.integers(0, 400).map(lambda k: "1" + "0" * k),
    st.sampled_from(["1e-320", "4.9e-324", "1e308", "inf", "-inf", "nan", "0", "-0", "", " ", "٣", "0x10", "1_000",
                     "73", "65537", "100001", "1e400"]),
    st.floats().map(repr),
)
_FLAGS = ("--layers", "--hidden", "--heads", "--kv-heads", "--head-dim", "--ffn", "--vocab", "--lora-rank",
          "--seq-len", "--context", "--batch", "--grad-accum", "--prompt-tokens", "--dataset-tokens", "--epochs",
          "--loss-chunks", "--checkpoint-every", "--tp", "--cp", "--gpus", "--moe-offload-layers", "--nodes",
          "--nics", "--electricity-usd-per-kwh", "--hours-per-day", "--years", "--params")


@settings(max_examples=120, deadline=None)
@given(flag=st.sampled_from(_FLAGS), value=_NUMBERS, train=st.booleans())
def test_a_number_flag_is_used_or_one_line(flag, value, train):
    argv = ["estimate", "--gpu", "rtx-3090", flag, value]
    argv += [] if flag == "--params" else ["--params", "8b"]
    argv += ["--mode", "train", "--method", "lora"] if train else []
    argv += ["--nic", "nvidia-connectx-7-25gbe-tcp"] if flag == "--nics" else []
    with fresh_home() as home:
        o = run(*argv)
        if o.code == 0:
            assert_clean(o, 0)
        else:
            line = assert_one_line(o, 2)
            assert "--" in line or "MODEL" in line, line  # names the flag (or the flag it conflicts with)
        assert files(home) == {}


@settings(max_examples=30, deadline=None)
@given(argv=st.one_of(
    st.tuples(st.just("--max-gpus"), st.integers(73, 10**6).map(str)),
    st.tuples(st.sampled_from(["--budget", "--max-power"]), st.sampled_from(["1e-320", "0", "-1", "inf", "1e400"])),
    st.tuples(st.just("--top"), st.sampled_from(["0", "-1", "1e3", ""])),
))
def test_an_advise_limit_out_of_range_is_one_line(argv):
    line = assert_one_line(run("advise", "--params", "8b", *argv), 2)
    assert argv[0] in line


@settings(max_examples=30, deadline=None)
@given(nic=st.sampled_from(["", " ", "no-such-card", "rtx-3090", "x" * 200]), nodes=st.sampled_from([None, "2"]))
def test_a_network_card_that_is_not_one_is_one_line(nic, nodes):
    argv = ["estimate", "--params", "8b", "--build", "8x-h100-sxm", "--nic", nic] + (["--nodes", nodes] if nodes else [])
    line = assert_one_line(run(*argv), 2)
    assert "--nic" in line


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(head=st.text(max_size=10), byte=st.integers(0x80, 0xFF), tail=st.text(max_size=10))
def test_a_title_with_a_byte_the_terminal_cannot_decode_is_one_line(tmp_path, head, byte, tail):
    title = head + chr(0xDC00 + byte) + tail  # how Python hands over an undecodable argv byte (PEP 383)
    out = tmp_path / "t.pdf"
    line = assert_one_line(run("report", "--params", "8b", "--build", "2x-rtx-3090-nvlink",
                               "--build", "2x-rtx-4090-pcie-x16", f"--title={title}", "--out", str(out)), 2)
    assert "--title" in line and f"0x{byte:02x}" in line and not out.exists()


# --- 8. output that cannot be written ---------------------------------------------------------------

class _Full(io.RawIOBase):
    def writable(self):
        return True

    def write(self, b):
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("argv", [("estimate", "--params", "8b"), ("estimate", "--params", "8b", "--json"),
                                  ("advise", "--params", "8b", "--top", "1"), ("catalog", "list"),
                                  ("catalog", "show", "rtx-3090"), ("detect", "--timeout", "1")])
def test_a_full_stdout_is_one_line_and_exit_1(monkeypatch, argv):
    from advisor.cli import main

    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(_Full()), encoding="utf-8"))
    monkeypatch.setattr(sys, "stderr", err)
    assert main(list(argv)) == 1
    assert err.getvalue().strip().endswith("could not write the output (No space left on device)")
    assert len(err.getvalue().strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [("estimate", "--params", "8b", "--build", "2x-rtx-3090-nvlink"),
                                  ("catalog", "show", "2x-rtx-3090-nvlink")])
def test_an_ascii_terminal_gets_question_marks_not_a_traceback(monkeypatch, argv):
    from advisor.cli import main

    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    assert main(list(argv)) == 0
    sys.stdout.flush()
    assert b"2? RTX 3090" in raw.getvalue()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="/dev/full is Linux's")
@pytest.mark.parametrize("argv", [("estimate", "--params", "8b"), ("detect", "--json", "--timeout", "1")])
def test_dev_full_in_a_real_process_is_one_line_and_exit_1(argv):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "advisor", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines() == [f"llm-advisor {argv[0]}: error: could not write the output "
                                                "(No space left on device)"]
