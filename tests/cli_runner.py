"""Run ``llm-advisor estimate`` in-process and read what it printed (shared by the CLI tests)."""

import json

from advisor.cli import main


def run_cli(capsys, *argv):
    try:
        rc = main(["estimate", *argv])
    except SystemExit as exc:  # argparse type/choice errors exit from inside parse_args
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


def run_json(capsys, *argv):
    rc, out, err = run_cli(capsys, *argv, "--json")
    assert rc == 0, err
    return json.loads(out)


def run_catalog(capsys, *argv):
    """``llm-advisor catalog …`` in-process: (exit code, stdout, stderr); never a traceback."""
    code = main(["catalog", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err
