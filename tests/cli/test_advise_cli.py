"""``llm-advisor advise``: catalog builds that run a job within a budget, best first."""

import json

import pytest

from advisor.cli import main


def _json(capsys, *argv):
    assert main(["advise", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_70b_q4_within_4000_used_lists_the_3090_pair(capsys):
    data = _json(capsys, "llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "4000", "--used",
                 "--top", "100")
    cands = data["candidates"]
    assert cands and all(c["fits"] and c["price_usd"] is not None and c["price_usd"] <= 4000 for c in cands)
    shown = {c["id"] for c in cands} | {f["id"] for c in cands for f in c["folded"]}
    assert "2x-rtx-3090" in shown  # a desktop with two used 3090s: listed, or folded under an equal machine
    pair = next(c for c in cands if c["gpus"] == ["rtx-3090-ti", "rtx-3090-ti"] or c["gpus"] == ["rtx-3090"] * 2)
    assert pair["price_kind"] == "used" and pair["plan"].startswith("2 GPUs, split by layers")
    assert set(pair) >= {"id", "name", "gpus", "plan", "fits", "per_gpu_gib", "decode_tokens_per_s",
                         "prefill_tokens_per_s", "train_tokens_per_s", "price_usd", "price_kind", "price_includes",
                         "price", "power_w", "reasons", "usable", "speed_basis", "folded", "host_ram_gib"}
    assert "desktop for two cards, typical" in pair["price_includes"] and pair["price"]["date"]
    usable = [c["usable"] for c in cands]
    assert usable == sorted(usable, reverse=True)  # --sort best is the default: usable machines first
    assert any("left out: over budget" in a for a in data["assumptions"])
    assert any(a.startswith("prices: whole machines") for a in data["assumptions"])


def test_no_candidate_is_priced_as_gpus_alone(capsys):
    """Issue: `advise llama-3.1-70b --weights q4_k_m --engine llama.cpp --budget 4000 --used` opened with 3x … 8x
    Tesla P100 at $180-480, the cards alone."""
    data = _json(capsys, "llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "4000", "--used",
                 "--sort", "price", "--top", "100")
    for c in data["candidates"]:
        assert c["price"]["includes"] and c["price"]["date"]
        if c["kind"] == "machine":
            assert " + " in c["price_includes"] and c["price"]["platform"]
    p100 = [c for c in data["candidates"] if c["gpus"][0] == "tesla-p100-16gb-pcie"]
    assert all(c["price_usd"] > 1000 for c in p100)
    assert all("extrapolated" in c["speed_basis"][0] for c in p100)


def test_sort_by_speed_and_top(capsys):
    data = _json(capsys, "llama-3.1-8b", "--engine", "llama.cpp", "--weights", "q4_k_m", "--sort", "speed",
                 "--top", "5", "--budget", "3000")
    speeds = [c["speed_for_ranking"] for c in data["candidates"]]  # an extrapolated speed at its band's low end
    assert len(speeds) == 5 and speeds == sorted(speeds, reverse=True)


def test_cloud_budget_is_per_hour(capsys):
    data = _json(capsys, "llama-3.1-70b", "--engine", "vllm", "--cloud", "--budget", "20")
    assert data["candidates"] and all(c["price_kind"] == "per_hour" and c["price_usd"] <= 20
                                      for c in data["candidates"])


def test_training_job_and_limits(capsys):
    data = _json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "qlora", "--max-gpus", "2",
                 "--max-power", "900", "--budget", "5000")
    for c in data["candidates"]:
        assert len(c["gpus"]) <= 2
        assert (c["train_tokens_per_s"] or 0) > 0 or "speed unknown" in " ".join(c["reasons"])
        assert c["power_w"] is None or c["power_w"] <= 900


def test_training_text_names_a_candidate_without_a_speed(capsys):
    """A candidate whose speed the catalog cannot give (host-RAM offload) is listed in words, not a crash."""
    assert main(["advise", "llama-3.1-8b", "--mode", "train", "--method", "lora", "--budget", "5000"]) == 0
    out = capsys.readouterr().out
    assert " 1. " in out and "tokens/s" in out
    data = _json(capsys, "llama-3.1-8b", "--mode", "train", "--method", "lora", "--budget", "5000")
    if any(c["train_tokens_per_s"] is None for c in data["candidates"][:10]):
        assert "speed not estimated" in out


@pytest.mark.parametrize(("argv", "flag"), [(["--budget", "-5"], "--budget"), (["--budget", "lots"], "--budget"),
                                             (["--sort", "fast"], "--sort"), (["--max-gpus", "0"], "--max-gpus")])
def test_bad_flags_are_one_line(capsys, argv, flag):
    with pytest.raises(SystemExit) as exc:
        main(["advise", "llama-3.1-8b", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and flag in err


def test_a_raised_mac_gpu_limit_reaches_every_mac_offered(capsys):
    """--mac-gpu-limit: each Mac as if its GPU memory limit were raised (sudo sysctl iogpu.wired_limit_mb); a
    model that needs more than macOS's default share runs on the Mac with it, not without."""
    argv = ("qwen2.5-72b", "--weights", "q8_0", "--engine", "llama.cpp", "--used", "--top", "200")
    ids = lambda data: {c["id"] for c in data["candidates"]} | {f["id"] for c in data["candidates"] for f in c["folded"]}  # noqa: E731
    default = ids(_json(capsys, *argv))
    raised = ids(_json(capsys, *argv, "--mac-gpu-limit", "88"))
    # Q8_0 72B: ~72 GiB of weights; a 96 GB Mac gives Metal 72 GiB by default, 88 GiB raised
    assert "apple-mac-studio-m3-ultra-96gb" not in default and "apple-mac-studio-m3-ultra-96gb" in raised
    with pytest.raises(SystemExit) as bad:
        main(["advise", *argv, "--mac-gpu-limit", "0"])
    assert bad.value.code == 2
