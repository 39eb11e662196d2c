"""torch.compile's training speed-up: ``flops.TRAIN_COMPILE_SPEEDUP``, the
geometric mean of torchtitan's compile / no-compile pairs in the calibration sources."""

import math

import pytest

from advisor.core.job.choices import Framework
from advisor.core.job.frameworks import PROFILES, with_framework_defaults
from advisor.core.job.planned import PlannedJob
from advisor.core.speed import training as speed_train
from advisor.core.speed.optimizer_step import optimizer_step_seconds
from advisor.core.speed.flops import TRAIN_COMPILE_SPEEDUP
from advisor.core.speed.layout import split_of
from tests.benchmark_scripts import load_benchmark
from tests.core.speed.speed_fixtures import llama2_7b, one_4090

speed_calibration = load_benchmark("speed_calibration")


def train_tps(**kw):
    arch, build = llama2_7b(), one_4090()
    w = PlannedJob(mode="train", method="lora", batch=1, seq_len=1024, **kw)
    return speed_train.training_speed(arch, w, build, split_of(w), []).train_tokens_per_s


def matmul_s(**kw):
    """A step's time less its optimizer step (which torch.compile does not speed up here)."""
    arch, build = llama2_7b(), one_4090()
    w = with_framework_defaults(PlannedJob(mode="train", method="lora", batch=1, seq_len=1024, **kw))
    opt = optimizer_step_seconds(arch, w, split_of(w), build.gpus[0].mem_bandwidth_gb_per_s * 1e9)
    return 1024 / train_tps(**kw) - opt


def test_speedup_is_the_calibration_pairs_geometric_mean():
    speedup, pairs = speed_calibration.compile_speedup()
    # torchtitan docs/performance.md at d4c86e37, Table 1: 5,762 -> 6,667 (8 GPUs), 5,605 -> 6,514 (128); torchtitan
    # PR #1690, Qwen3 32B on 8 H100s with full checkpointing: 1,614 -> 1,874; daddyofadoggy/blog at db07f840, 8 GB200s:
    # Llama 3.1 8B FSDP 18,831 -> 20,849, Qwen3-32B FSDP 4 x TP 2 at batch 32 3,274 -> 4,249
    assert pairs == [("titan-l31-8b-8gpu-fsdp", "titan-l31-8b-8gpu-fsdp-compile"),
                     ("titan-l31-8b-128gpu-fsdp", "titan-l31-8b-128gpu-fsdp-compile"),
                     ("h43e-titan1690-qwen3-32b-8xh100-b2-fullac", "h43e-titan1690-qwen3-32b-8xh100-b2-fullac-compile"),
                     ("h71t-dadgb200-l31-8b-fsdp8-b16-s2048", "h71t-dadgb200-l31-8b-fsdp8-b16-s2048-compile"),
                     ("h71t-dadgb200-qwen3-32b-fsdp4tp2-b32-s2048", "h71t-dadgb200-qwen3-32b-fsdp4tp2-b32-s2048-compile")]
    ratios = (6667 / 5762, 6514 / 5605, 1874 / 1614, 20849 / 18831, 4249 / 3274)
    assert speedup == pytest.approx(math.prod(ratios) ** (1 / len(ratios)))
    assert TRAIN_COMPILE_SPEEDUP == round(speedup, 2) == 1.18


def test_compile_speeds_up_compute_bound_training():
    assert matmul_s(compile=True) == pytest.approx(matmul_s(compile=False) / TRAIN_COMPILE_SPEEDUP)


def test_unset_compile_is_the_frameworks_default():
    for fw in Framework:
        assert train_tps(framework=fw) == pytest.approx(train_tps(framework=fw, compile=PROFILES[fw].compile))


def test_training_speed_takes_the_frameworks_defaults_the_memory_estimate_takes():
    # torchtune's recipes checkpoint every layer and train in pure bf16 (frameworks.PROFILES): the speed
    # counts the recomputed forward and the bf16 optimizer step the memory estimate assumes.
    assert train_tps(framework="torchtune") == pytest.approx(
        train_tps(framework="torchtune", checkpointing="full", precision="bf16"))
    assert train_tps(framework="torchtune") < train_tps(framework="torchtune", checkpointing="none")
