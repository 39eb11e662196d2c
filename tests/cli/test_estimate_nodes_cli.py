"""``llm-advisor estimate --nodes N [--nic ID]``: several machines through the inter-machine link."""

import pytest

from tests.cli_runner import run_cli, run_json

TRAIN = ("llama-3.1-8b", "--mode", "train", "--method", "full", "--seq-len", "8192", "--batch", "2")
# Pre-training across machines, as torchtitan runs it (at Llama 3's MFU on H100; the default HF Trainer's
# measured H100 figure is half that, so its steps hide more of a slow network).
TITAN = (*TRAIN, "--framework", "torchtitan")


def test_two_dgx_machines_change_training_speed_and_name_the_network(capsys):
    one = run_json(capsys, *TRAIN, "--build", "nvidia-dgx-h100")
    two = run_json(capsys, *TRAIN, "--build", "nvidia-dgx-h100", "--nodes", "2")
    assert two["hardware"]["nodes"] == 2 and two["hardware"]["gpu_count"] == 16
    assert two["workload"]["n_gpus"] == 16
    assert two["speed"]["train_tokens_per_s"] > 1.8 * one["speed"]["train_tokens_per_s"]
    net = two["hardware"]["network"]
    assert net["kind"] == "InfiniBand" and net["count"] == 8 and net["gbit_per_s_per_node"] == 3200
    assert any("InfiniBand" in n and "hierarchical" in n for n in two["speed"]["notes"])
    assert "InfiniBand between 2 machines" in two["plan"]["text"]
    # Price and power of two machines.
    assert two["cost"]["power_load_w"] == pytest.approx(2 * one["cost"]["power_load_w"])


def test_a_slow_card_lowers_per_gpu_speed_and_bounds_the_step(capsys):
    one = run_json(capsys, *TITAN, "--build", "nvidia-dgx-h100")
    slow = run_json(capsys, *TITAN, "--build", "nvidia-dgx-h100", "--nodes", "2", "--nic", "nvidia-connectx-7-25gbe-tcp")
    assert slow["speed"]["train_tokens_per_s"] / 16 < 0.6 * one["speed"]["train_tokens_per_s"] / 8
    assert slow["speed"]["bottleneck"] == "interconnect"
    assert "Ethernet link between the 2 machines" in slow["speed"]["comm_link"]
    rc, out, _ = run_cli(capsys, *TITAN, "--build", "nvidia-dgx-h100", "--nodes", "2", "--nic", "nvidia-connectx-7-25gbe-tcp")
    assert rc == 0 and "Machines: 2 × 8 GPUs" in out and "mostly over the Ethernet link between the 2 machines" in out


def test_two_rented_instances_cost_twice_per_hour(capsys):
    one = run_json(capsys, *TRAIN, "--build", "aws-p5.48xlarge")
    two = run_json(capsys, *TRAIN, "--build", "aws-p5.48xlarge", "--nodes", "2")
    assert two["cost"]["usd_per_hour"] == pytest.approx(2 * one["cost"]["usd_per_hour"])
    assert two["hardware"]["network"]["kind"] == "AWS EFA"


def test_a_desktop_without_a_network_card_says_so(capsys):
    data = run_json(capsys, "llama-3.1-8b", "--mode", "train", "--build", "2x-rtx-4090-pcie-x16", "--nodes", "2")
    assert data["speed"]["train_tokens_per_s"] is None
    assert any(c["kind"] == "network" and c["severity"] == "error" for c in data["checks"])
    rc, out, _ = run_cli(capsys, "llama-3.1-8b", "--mode", "train", "--build", "2x-rtx-4090-pcie-x16", "--nodes", "2")
    assert rc == 0 and "error: 2 machines need a network card" in out and "no network card named" in out


@pytest.mark.parametrize("argv, message", [
    (("--nodes", "2"), "--nodes: give --gpu or --build too"),
    (("--build", "nvidia-dgx-h100", "--nic", "bogus"), "--nic: no network card 'bogus'"),
    (("--build", "nvidia-dgx-h100", "--nic", "amd-ryzen-9-9950x"), "--nic: no network card"),
    (("--build", "nvidia-dgx-h100", "--nodes", "0"), "--nodes: a whole number from 1 to 64"),
    (("--build", "nvidia-dgx-h100", "--nodes", "٢"), "--nodes: a whole number from 1 to 64"),  # ASCII digits only
    (("--build", "nvidia-dgx-h100", "--nics", "2"), "--nics: give --nic too"),
])
def test_bad_machine_flags_are_one_line(capsys, argv, message):
    rc, out, err = run_cli(capsys, "llama-3.1-8b", *argv)
    assert rc == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) <= 2


def test_advise_lists_several_machines_with_the_cost_of_the_run(capsys):
    import json

    from advisor.cli import main

    rc = main(["advise", "llama-3.1-70b", "--mode", "train", "--method", "full", "--cloud", "--dataset-tokens", "1B",
               "--sort", "speed", "--top", "3", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0
    top = data["candidates"][0]
    assert top["nodes"] > 1 and top["train_hours"] > 0 and top["train_usd"] == pytest.approx(
        top["train_hours"] * top["price_usd"])
