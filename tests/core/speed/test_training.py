"""Training speed: FLOPs at a stated MFU, the pipeline bubble, QLoRA's dequantizing reads (``speed.training``)."""

import pytest

from advisor.core.job.frameworks import with_framework_defaults
from advisor.core.job.planned import PlannedJob
from advisor.core.speed import inference as sp
from advisor.core.speed import layout as speed_plan
from advisor.core.speed.optimizer_step import optimizer_step_seconds
from advisor.core.speed.train_comm import train_comm_per_step
from advisor.core.speed.flops import (
    TRAIN_MFU,
    matmul_params,
    train_flops_per_token,
    train_matmul_factor,
)
from advisor.core.speed.results import Bottleneck
from tests.core.speed.speed_fixtures import (
    llama2_7b,
    one_4090,
    pair_3090_nvlink,
    pair_4090_pcie,
    rtx4090,
    speed,
)


def test_fsdp_training_link_time_differs_a_lot():
    a = llama2_7b()
    w = PlannedJob(mode="train", method="full", optimizer="adamw-8bit", checkpointing="full", n_gpus=2,
                 parallel="fsdp", seq_len=2048)
    c3 = train_comm_per_step(a, w, pair_3090_nvlink(), sp.split_of(w))
    c4 = train_comm_per_step(a, w, pair_4090_pcie(), sp.split_of(w))
    assert c4 / c3 > 3
    s3, s4 = speed(a, w, pair_3090_nvlink()), speed(a, w, pair_4090_pcie())
    assert s4.interconnect_share > 4 * s3.interconnect_share
    assert s3.interconnect_share < 0.2 < 0.4 < s4.interconnect_share


def test_pipeline_parallel_training_has_a_bubble():
    a = llama2_7b()
    w = PlannedJob(mode="train", method="lora", n_gpus=2, parallel="pp", seq_len=512, grad_accum_steps=4)
    pp = speed(a, w, pair_3090_nvlink())
    ls = speed(a, w.model_copy(update={"parallel": "layer-split"}), pair_3090_nvlink())
    # GPipe: (m + s - 1) stage slots vs m·s for turn-taking: 5 vs 8
    assert ls.step_time_s / pp.step_time_s == pytest.approx(8 / 5, rel=0.05)


def test_training_flops_6n_8n_and_lora_4n():
    a = llama2_7b()
    n = matmul_params(a)
    assert n == pytest.approx(6.738e9 - 32000 * 4096, rel=1e-3)
    short = dict(mode="train", seq_len=2)
    assert train_flops_per_token(a, PlannedJob(method="full", **short)) == pytest.approx(6 * n, rel=1e-3)
    assert train_flops_per_token(a, PlannedJob(method="full", checkpointing="full", **short)) == pytest.approx(8 * n, rel=1e-3)
    lora = train_flops_per_token(a, PlannedJob(method="lora", **short))
    assert 4 * n < lora < 4.05 * n
    long = train_flops_per_token(a, PlannedJob(method="full", mode="train", seq_len=4096))
    assert long > 6 * n * 1.05  # attention matters at 4k context


def test_single_gpu_training_throughput_is_peak_times_mfu():
    a = llama2_7b()
    w = with_framework_defaults(PlannedJob(mode="train", method="lora", seq_len=2048))  # as the estimate takes it
    s = speed(a, w, one_4090())
    # the matmuls at the peak × MFU, then one optimizer step (memory-bound, timed apart)
    mfu = TRAIN_MFU * 0.24 / TRAIN_MFU * train_matmul_factor(rtx4090())  # the HF Trainer (the default framework)
    # measured on Hopper: its share of a pre-training stack's figure, on the RTX 4090's unmeasured family the
    # pre-training figure TRAIN_MFU, times the card's own measured matmul share (its whole peak: matmul_rates)
    matmul_s = w.seq_len * train_flops_per_token(a, w) / (rtx4090().bf16_tflops_dense * 1e12 * mfu)
    optimizer_s = optimizer_step_seconds(a, w, speed_plan.split_of(w), rtx4090().mem_bandwidth_gb_per_s * 1e9)
    assert 0 < optimizer_s < 0.01 * matmul_s  # LoRA: the adapters' states only
    assert s.train_tokens_per_s == pytest.approx(w.seq_len / (matmul_s + optimizer_s))
    assert s.bottleneck is Bottleneck.COMPUTE


def test_qlora_pays_for_dequantization():
    a = llama2_7b()
    lora = speed(a, PlannedJob(mode="train", method="lora", seq_len=512), one_4090())
    qlora = speed(a, PlannedJob(mode="train", method="qlora", weights="nf4", seq_len=512), one_4090())
    assert qlora.train_tokens_per_s < lora.train_tokens_per_s


def test_axolotl_trains_at_the_hf_trainers_share():
    # Axolotl's trainer is transformers' Trainer (AxolotlTrainer(..., Trainer), axolotl at 067b021c): its step reaches
    # the HF Trainer's measured share, not a pre-training stack's (which a framework never measured would take).
    from advisor.core.job.choices import Framework
    from advisor.core.job.frameworks import AXOLOTL_TRAINER, training_loop

    assert training_loop(Framework.AXOLOTL) is Framework.HF and "Trainer)" in AXOLOTL_TRAINER
    assert training_loop(Framework.TORCHTUNE) is Framework.TORCHTUNE and training_loop(Framework.HF) is Framework.HF
    a = llama2_7b()
    hf, axolotl, titan = (speed(a, with_framework_defaults(PlannedJob(mode="train", method="lora", seq_len=2048,
                                                                      framework=f)), one_4090())
                          for f in ("hf", "axolotl", "torchtitan"))
    assert axolotl.train_tokens_per_s == pytest.approx(hf.train_tokens_per_s, rel=0.01)
    assert titan.train_tokens_per_s > 1.3 * axolotl.train_tokens_per_s
    assert any("HF Trainer" in n for n in axolotl.notes)
