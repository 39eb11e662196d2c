"""``llm-advisor catalog …``: output, exit codes, one-line errors, edits reach the user catalog."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.storage import paths
from tests.catalog_fixtures import gpu_data, model_data, use_small_shipped, write
from tests.cli_runner import run_catalog

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def shipped(tmp_path, monkeypatch):
    return use_small_shipped(tmp_path, monkeypatch)


run = run_catalog


def test_list_json_names_kind_origin_and_id(capsys):
    code, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert code == 0 and {(r["kind"], r["id"], r["origin"]) for r in rows} >= {("gpu", "card-a", "shipped"), ("model", "tiny", "shipped")}
    code, out, _ = run(capsys, "list", "--kind", "build")
    assert code == 0 and [line.split()[2] for line in out.splitlines()] == ["two-a", "two-nv"]


def test_show_a_build_prints_derived_price_power_and_checks(capsys):
    code, out, _ = run(capsys, "show", "two-a")
    assert code == 0
    assert "price new: $3,200 new (seen 2026-05-01)" in out and "power: 950 W sustained (GPUs 700 W, platform 250 W), PSU 1600 W" in out
    assert "warning: PCIe peer-to-peer is off" in out


def test_show_json_can_be_added_back(capsys, tmp_path):
    code, out, _ = run(capsys, "show", "card-a", "--json")
    edited = {**json.loads(out), "name": "Mine"}
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    code, out, _ = run(capsys, "add", str(path))
    assert code == 0 and "overrides the shipped record" in out
    code, out, _ = run(capsys, "list", "--json")
    row = next(r for r in json.loads(out) if r["id"] == "card-a" and r["kind"] == "gpu")
    assert row["origin"] == "override" and row["name"] == "Mine"


def test_add_detects_kind_from_fields(capsys, tmp_path):
    path = tmp_path / "anything.json"
    path.write_text(json.dumps(model_data("my-model")))
    assert run(capsys, "add", str(path))[0] == 0
    assert (paths.user_catalog_dir() / "models" / "my-model.json").is_file()


def test_add_of_unknown_kind_is_a_usage_error(capsys, tmp_path):
    path = tmp_path / "what.json"
    path.write_text('{"id": "what"}')
    code, _, err = run(capsys, "add", str(path))
    assert code == 2 and "--kind" in err and len(err.strip().splitlines()) == 1


def test_add_of_invalid_record_exits_1_and_saves_nothing(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(gpu_data("bad", tdp_w=0)))
    code, _, err = run(capsys, "add", str(path))
    assert code == 1 and f"{path}: id 'bad': tdp_w:" in err
    assert not (paths.user_catalog_dir() / "gpus" / "bad.json").exists()


def test_validate_clean_and_broken(capsys, tmp_path):
    assert run(capsys, "validate")[0] == 0
    bad = write(paths.user_catalog_dir(), "gpu", gpu_data("bad", memory_gb_marketing="lots"))
    code, out, _ = run(capsys, "validate")
    assert code == 1 and f"{bad}: id 'bad': memory_gb_marketing:" in out
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 1 and "memory_gb_marketing" in out


def test_validate_a_folder_and_a_missing_path(capsys, shipped):
    assert run(capsys, "validate", str(shipped))[0] == 0
    assert run(capsys, "validate", str(shipped / "gpus"))[0] == 0
    code, _, err = run(capsys, "validate", str(shipped / "nope.json"))
    assert code == 2 and "no such file" in err


def test_remove_user_record_then_hide_shipped(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(gpu_data("card-a", name="Mine")))
    run(capsys, "add", str(path))
    code, out, _ = run(capsys, "remove", "card-a")
    assert code == 0 and "removed user gpu" in out and "hid shipped gpu" in out
    code, out, _ = run(capsys, "list", "--kind", "gpu", "--json")
    assert "card-a" not in [r["id"] for r in json.loads(out)]
    code, _, err = run(capsys, "show", "card-a")
    assert code == 2 and "hidden" in err
    code, out, _ = run(capsys, "reset", "card-a")
    assert code == 0 and "unhid it" in out
    assert json.loads(run(capsys, "show", "card-a", "--json")[1])["name"] == "Acme card-a"


def test_export_and_import(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(gpu_data("mine")))
    run(capsys, "add", str(path))
    out_file = tmp_path / "bundle.json"
    assert run(capsys, "export", str(out_file))[0] == 0
    (paths.user_catalog_dir() / "gpus" / "mine.json").unlink()
    code, out, _ = run(capsys, "import", str(out_file))
    assert code == 0 and "imported 1 record(s)" in out
    code, _, err = run(capsys, "import", str(tmp_path / "missing.json"))
    assert code == 2


def test_unknown_id_is_one_line_exit_2(capsys):
    code, _, err = run(capsys, "show", "no-such-id")
    assert code == 2 and err.strip() == "llm-advisor catalog: error: no record with id 'no-such-id' in the catalog"


def test_path_prints_the_user_folder(capsys, shipped):
    assert run(capsys, "path")[1].strip() == str(paths.user_catalog_dir())
    assert run(capsys, "path", "--shipped")[1].strip() == str(shipped)


def test_real_process_never_prints_a_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not json")
    for argv, expected in ((["show", "no-such-id"], 2), (["add", str(bad), "--kind", "gpu"], 1), ([], 2)):
        proc = subprocess.run([sys.executable, "-m", "advisor", "catalog", *argv], cwd=REPO, capture_output=True, text=True)
        assert proc.returncode == expected and "Traceback" not in proc.stderr


# --- hostile input ------------------------------------------------------------------------------------


def test_export_refuses_to_overwrite_without_the_flag_and_keeps_a_backup(capsys, tmp_path):
    out = tmp_path / "b.json"
    out.write_text("precious")
    code, _, err = run(capsys, "export", str(out))
    assert code == 2 and "--overwrite" in err and out.read_text() == "precious"
    code, _, _ = run(capsys, "export", str(out), "--overwrite")
    assert code == 0 and json.loads(out.read_text())["format"] and (tmp_path / "b.json.bak").read_text() == "precious"


def test_remove_force_removes_an_invalid_user_file_naming_it(capsys):
    path = paths.user_catalog_dir() / "gpus" / "broken.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    code, _, err = run(capsys, "remove", "broken")
    assert code == 2 and "no record with id 'broken'" in err and path.exists()
    code, out, _ = run(capsys, "remove", "broken", "--force")
    assert code == 0 and str(path) in out and not path.exists()
    assert path.with_name("broken.json.bak").read_text() == "{not json"


def test_list_json_warns_on_stderr_about_corrupt_user_files(capsys):
    path = paths.user_catalog_dir() / "gpus" / "broken.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    code, out, err = run(capsys, "list", "--json")
    assert code == 0 and json.loads(out) and "1 catalog problem" in err


def test_list_into_a_closed_pipe_exits_quietly(tmp_path):
    script = "import sys; from advisor.cli import main; sys.exit(main(['catalog', 'list']))"
    env = {**__import__("os").environ, "LLM_ADVISOR_HOME": str(tmp_path / "home")}
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env)
    proc.stdout.readline()  # `| head -1`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0 and err == ""


@pytest.mark.parametrize(("over", "field"), [
    ({"tdp_w": 1e308}, "tdp_w"), ({"mem_bandwidth_gb_per_s": 1e-308}, "mem_bandwidth_gb_per_s"),
    ({"bf16_tflops_dense": 1e-308}, "bf16_tflops_dense"),
])
def test_add_refuses_values_that_would_crash_estimate_and_report(capsys, tmp_path, over, field):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(gpu_data("absurd", **over)))
    code, _, err = run(capsys, "add", str(path))
    assert code == 1 and field in err and "between" in err and len(err.strip().splitlines()) == 1
    assert not (paths.user_catalog_dir() / "gpus" / "absurd.json").exists()


def test_add_refuses_a_vocabulary_of_10_to_the_400(capsys, tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model_data("huge-vocab", vocab_size=10**400)))
    code, _, err = run(capsys, "add", str(path))
    assert code == 1 and "vocab_size" in err


def test_a_file_named_gpus_where_the_folder_belongs_is_reported(capsys):
    paths.user_catalog_dir().mkdir(parents=True)
    (paths.user_catalog_dir() / "gpus").write_text("")
    code, out, _ = run(capsys, "validate")
    assert code == 1 and "gpus: should be the folder of gpu records but is a file" in out


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=st.sampled_from(["list", "show", "validate", "remove", "reset", "export", "import", "path"]),
       extra=st.lists(st.sampled_from(["--kind", "--json", "--force", "--overwrite", "--", "gpu", "card-a",
                                       "../x", "x" * 300, "/dev/zero", "--kind=--", "٣"]), max_size=3))
def test_fuzzed_catalog_flags_fail_cleanly(capsys, tmp_path, monkeypatch, action, extra):
    work = tmp_path / "cwd"  # an export named by the fuzzer lands here, never in the checkout
    work.mkdir(exist_ok=True)
    monkeypatch.chdir(work)
    try:
        code = main(["catalog", action, *extra])
    except SystemExit as exc:  # argparse: one line, exit 2
        code = exc.code
    err = capsys.readouterr().err
    assert code in (0, 1, 2) and "Traceback" not in err
