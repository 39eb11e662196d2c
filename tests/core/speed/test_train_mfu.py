"""Training MFU kept apart by what it belongs to (``flops.train_mfu``): the GPU family's pre-training figure
(``TRAIN_MFU_BY_FAMILY``, fitted by ``benchmarks/speed_calibration.train_mfu_fit`` on torchtitan FSDP2 on 64
A100 80GB, docs/performance.md at 1ea476e9; other families Llama 3's ``TRAIN_MFU``), the framework's share of
it (the HF Trainer measured on the lent H100), and the card's own matmul share of its peak (measured maximum
achievable matmul FLOP/s)."""

import pytest

from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job.choices import OptimizerKernel
from advisor.core.job.frameworks import with_framework_defaults
from advisor.core.job.planned import PlannedJob
from advisor.core.speed import flops
from advisor.core.speed import training as speed_train
from advisor.core.speed.optimizer_step import optimizer_step_seconds
from advisor.core.speed.layout import split_of
from tests.benchmark_scripts import load_benchmark
from tests.core.speed.speed_fixtures import llama2_7b, rtx4090

speed_calibration = load_benchmark("speed_calibration")


def test_mfu_by_family_is_the_calibration_fit(catalog):
    fit = speed_calibration.train_mfu_fit(catalog=catalog)
    assert set(fit) == {*flops.TRAIN_MFU_BY_FAMILY, *flops.TRAIN_MFU_BY_FRAMEWORK} == {
        "NVIDIA sm_80", ("hf", "NVIDIA sm_90")}
    mfu, ids = fit["NVIDIA sm_80"]
    assert ids == ["titan-a100-l2-13b-64gpu-noac", "titan-a100-l3-70b-64gpu-fullac", "titan-a100-l2-70b-64gpu-fullac",
                   "h43e-titan355-l3-8b-8xa100-sac-foreach", "h43e-titan355-l3-8b-8xa100-sac-fused"]
    # 0.54 of the A100's peak, whose matmuls reach 86.9 % of it where a typical card's reach 80.3 %: 13B and 70B on 64
    # A100s 0.57-0.65, Llama 3 8B on 8 (torchtitan PR #355, per-op selective checkpointing) 0.47
    assert flops.TRAIN_MFU_BY_FAMILY["NVIDIA sm_80"] == round(mfu, 2) == 0.50
    # one H100 SXM, HF Trainer, eager bf16 autocast, each step less its (foreach AdamW) optimizer step: LoRA
    # 8B 0.245 (0.233 with checkpointing), full 1B 0.240 (0.242 with checkpointing); the H100 is a typical card
    mfu, ids = fit[("hf", "NVIDIA sm_90")]
    assert ids == ["h100dev-lora-8b-ckpt", "h100dev-full-1b", "h100dev-lora-8b", "h100dev-full-1b-ckpt"]
    assert flops.TRAIN_MFU_BY_FRAMEWORK[("hf", "NVIDIA sm_90")] == round(mfu, 2) == 0.24


def test_a_frameworks_share_is_taken_only_where_a_pretraining_figure_was_measured(catalog):
    # TRL on eight B300s (sm_103) and torchtune's Qwen2.5 0.5B LoRA on MI355Xs (gfx950) are calibration rows, but no
    # pre-training figure was measured on either family: the framework's share and the family's figure cannot be told
    # apart there, so those rows give neither (a 0.5B LoRA at 3 % of an MI355X would have cut torchtune everywhere).
    rows = {r["id"]: r for r in speed_fidelity_rows() if r["group"] == "train"}
    assert any(i.startswith("h44a-halotrl-") for i in rows) and any(i.startswith("h44a-oteltt-") for i in rows)
    fit = speed_calibration.train_mfu_fit(catalog=catalog)
    assert all(not i.startswith(("h44a-halotrl-", "h44a-oteltt-")) for _, ids in fit.values() for i in ids)
    assert flops.has_pretraining_figure("NVIDIA sm_90") and flops.has_pretraining_figure("NVIDIA sm_80")
    # RDNA 3 was timed against GA10x with the same script, but no pre-training figure was measured on GA10x: the HF
    # Trainer's LoRA rows on an RX 7900 XTX (round 18, calibration) would have raised its share everywhere by a fifth
    assert not flops.has_pretraining_figure("AMD gfx1100") and "AMD gfx1100" in flops.TRAIN_MFU_RELATIVE
    assert not any(i.startswith("h54b-chenhy-") for _, ids in fit.values() for i in ids)
    assert not flops.has_pretraining_figure("NVIDIA sm_103") and not flops.has_pretraining_figure("AMD gfx950")


def speed_fidelity_rows():
    return load_benchmark("speed_fidelity").load_rows()


def test_a_familys_figure_stays_on_the_chips_it_was_measured_on(catalog):
    a100 = catalog.gpus["a100-80gb-sxm"]
    assert flops.train_mfu(a100) == pytest.approx(0.50 * 271.2 / 312 / flops.TYPICAL_MATMUL_SHARE)  # 0.54
    rtx3090 = catalog.gpus["rtx-3090"]  # GA102, compute capability 8.6: its family unmeasured, its matmuls measured
    assert flops.train_mfu(rtx3090) == pytest.approx(flops.TRAIN_MFU * flops.train_matmul_factor(rtx3090))
    assert flops.train_matmul_factor(rtx3090) == pytest.approx(1 / flops.TYPICAL_MATMUL_SHARE)  # at its whole peak
    assert flops.train_mfu(catalog.gpus["h100-sxm"]) == pytest.approx(flops.TRAIN_MFU, rel=1e-3)  # no Hopper row
    assert flops.train_mfu(rtx4090()) == pytest.approx(flops.TRAIN_MFU * flops.train_matmul_factor(rtx4090()))


def test_a_framework_keeps_its_share_of_the_pretraining_figure_on_every_family(catalog):
    h100, h200, a100 = (catalog.gpus[i] for i in ("h100-sxm", "h200-sxm", "a100-80gb-sxm"))
    assert flops.train_mfu(h100, "hf") == flops.train_mfu(h200, "hf") == pytest.approx(0.24, rel=1e-3)
    assert flops.train_mfu(h100, "torchtune") == pytest.approx(flops.TRAIN_MFU, rel=1e-3)  # only the HF Trainer
    assert flops.train_mfu(a100, "hf") == pytest.approx(0.24 / 0.38 * flops.train_mfu(a100))
    assert flops.train_mfu(rtx4090(), "hf") == pytest.approx(0.24 * flops.train_matmul_factor(rtx4090()))
    build = ResolvedBuild(name="1x H100", gpus=(h100,), topology=Topology(pcie_gen=5))
    arch = llama2_7b()
    hf, titan = (PlannedJob(mode="train", method="lora", seq_len=2048, framework=f) for f in ("hf", "torchtitan"))
    s_hf = speed_train.training_speed(arch, hf, build, split_of(hf), [])
    s_titan = speed_train.training_speed(arch, titan, build, split_of(titan), [])
    assert s_hf.train_tokens_per_s < s_titan.train_tokens_per_s * 0.7  # 0.24 / 0.38 of the peak
    assert any("24% model-FLOPs" in n and "HF Trainer" in n for n in s_hf.notes)


def test_the_same_job_ranks_cards_by_their_peaks_and_measured_matmul_shares(catalog):
    # An A10 (GA102) no longer outruns an RTX 4090 on the same job: the A100's figure is not carried to GA102.
    # An MI300X's matmuls reach 51 % of its 1,307 TFLOP/s (668 measured), an H200's 80 % of 989 (794).
    gpus = catalog.gpus
    for framework in ("hf", "torchtitan"):
        rate = {g: flops.train_mfu(gpus[g], framework) * gpus[g].bf16_tflops_dense for g in
                ("a10", "rtx-4090", "mi300x", "h200-sxm")}
        assert rate["a10"] < rate["rtx-4090"]
        assert rate["mi300x"] / rate["h200-sxm"] == pytest.approx(668.4 / 794.5, rel=1e-3)


def test_training_runs_at_the_gpus_mfu(catalog):
    a100 = catalog.gpus["a100-80gb-sxm"]
    build = ResolvedBuild(name="1x A100", gpus=(a100,), topology=Topology(pcie_gen=4))
    arch, w = llama2_7b(), with_framework_defaults(PlannedJob(mode="train", method="lora", seq_len=2048,
                                                            framework="torchtitan"))
    s = speed_train.training_speed(arch, w, build, split_of(w), [])
    matmul_s = w.seq_len * flops.train_flops_per_token(arch, w) / (a100.bf16_tflops_dense * 1e12 * flops.train_mfu(a100))
    optimizer_s = optimizer_step_seconds(arch, w, split_of(w), a100.mem_bandwidth_gb_per_s * 1e9)
    assert s.train_tokens_per_s == pytest.approx(w.seq_len / (matmul_s + optimizer_s))
    assert any("54% model-FLOPs" in n and "1.08x a typical card" in n for n in s.notes)


def test_the_foreach_step_is_what_splits_the_h100_rows_by_model_size(catalog):
    # The HF Trainer rows ran PyTorch's foreach AdamW. Each row's matmul share
    # (its step less its optimizer step, as train_mfu_fit takes it) agrees across LoRA 8B and full 1B when
    # the step is timed as the foreach kernel's (0.233-0.245), and splits by model size when timed as a
    # fused kernel's (the full 1B rows' optimizer step is most of what separates them).
    from advisor.core.speed.flops import (
        bandwidth_bytes_per_s,
        peak_flops,
        train_flops_per_token,
    )

    speed_fidelity = load_benchmark("speed_fidelity")
    h100 = catalog.gpus["h100-sxm"]

    def shares(kernel):
        out = {}
        for row in speed_fidelity.load_rows():
            if not (row["id"].startswith("h100dev-") and row["group"] == "train"):
                continue
            job = with_framework_defaults(speed_fidelity.job_of(row).model_copy(update={"optimizer_kernel": kernel}))
            arch = catalog.models[row["model_id"]]
            tokens = job.batch * job.seq_len
            step = tokens / float(row["tokens_per_s"])
            opt = optimizer_step_seconds(arch, job, split_of(job), bandwidth_bytes_per_s(h100))
            out[row["id"]] = tokens * train_flops_per_token(arch, job) / (peak_flops(h100, job) * (step - opt))
        return out

    foreach, fused = shares(OptimizerKernel.FOREACH), shares(OptimizerKernel.FUSED)
    assert len(foreach) == 4
    assert max(foreach.values()) / min(foreach.values()) < 1.06
    assert max(fused.values()) / min(fused.values()) > 1.25
    assert fused["h100dev-full-1b"] < 0.19 < 0.23 < foreach["h100dev-full-1b"]


#: AUGMXNT/rdna3-training-tests README.md at 38df683d: one LLaMA-Factory script (TinyLlama 1.1B LoRA / QLoRA)
#: timed on three cards, seconds: (LoRA, QLoRA).
RDNA3_TRAINING_SECONDS = {"rx-7900-xtx": (886, 887), "rtx-3090": (706, 717), "rtx-4090": (305, 308)}


def _modelled(catalog, gpu_id):
    """What the model's compute part gives a card at equal family figures: its bf16 peak x its matmul share."""
    g = catalog.gpus[gpu_id]
    return g.bf16_tflops_dense * flops.train_matmul_factor(g)


def _measured_ratio(a, b):
    (la, qa), (lb, qb) = RDNA3_TRAINING_SECONDS[a], RDNA3_TRAINING_SECONDS[b]
    return ((lb / la) * (qb / qa)) ** 0.5  # speed of a over speed of b, geometric mean of the two runs


def test_gfx1100s_training_figure_is_its_measured_share_of_sm_86s(catalog):
    """The same script on an RX 7900 XTX and an RTX 3090: 0.80 of the 3090's speed, where the peaks and the XTX's
    measured matmul shares give 1.24 — gfx1100 reaches 0.65 of sm_86's figure (``flops.TRAIN_MFU_RELATIVE``)."""
    measured = _measured_ratio("rx-7900-xtx", "rtx-3090")
    modelled = _modelled(catalog, "rx-7900-xtx") / _modelled(catalog, "rtx-3090")
    assert measured == pytest.approx(0.8026, abs=1e-4) and modelled == pytest.approx(1.2372, abs=1e-3)
    reference, share = flops.TRAIN_MFU_RELATIVE["AMD gfx1100"]
    assert reference == catalog.gpus["rtx-3090"].speed_family == "NVIDIA sm_86"
    assert share == round(measured / modelled, 2) == 0.65
    assert flops._family_mfu("AMD gfx1100") == pytest.approx(0.65 * flops.TRAIN_MFU)
    # the same runs check the model where both families keep the default figure: 4090 over 3090
    assert _modelled(catalog, "rtx-4090") / _modelled(catalog, "rtx-3090") == pytest.approx(
        _measured_ratio("rtx-4090", "rtx-3090"), rel=0.02)
    assert "RX 7900 XTX and an RTX 3090" in flops.train_mfu_source(catalog.gpus["rx-7900-xt"], "hf")


def test_gfx1100s_matmuls_reach_the_share_measured_in_pytorch(catalog):
    """The datasheet's 122.8 TFLOP/s counts dual-issue WMMA; PyTorch's BF16 GEMMs reach 88.09 of it (71.7 %) on the
    XTX and 83.18 of 103.0 (80.8 %) on the XT — near a typical NVIDIA card's 80.3 %."""
    xtx, xt = catalog.gpus["rx-7900-xtx"], catalog.gpus["rx-7900-xt"]
    assert flops.train_matmul_factor(xtx) == pytest.approx(88.09 / 122.8 / 0.803, rel=1e-6)
    assert flops.train_matmul_factor(xt) == pytest.approx(83.18 / 103.0 / 0.803, rel=1e-6)


def test_an_lora_job_trains_on_a_7900_xtx_at_the_measured_share_of_a_3090(catalog):
    """End to end: the estimate of an 8B LoRA job on one RX 7900 XTX against one RTX 3090 (same plan, same 24 GB)
    comes out at the speed ratio the two cards were timed at (0.80), within the two runs' spread."""
    from advisor.core.estimation.estimator import estimate
    from advisor.core.job.choices import Method, Mode

    arch = catalog.models["llama-3.1-8b"]
    job = PlannedJob(mode=Mode.TRAIN, method=Method.LORA)
    speeds = {}
    for gid in ("rx-7900-xtx", "rtx-3090"):
        build = ResolvedBuild(name=gid, gpus=(catalog.gpus[gid],), topology=Topology())
        speeds[gid] = estimate(arch, job, build).speed.train_tokens_per_s
    assert speeds["rx-7900-xtx"] / speeds["rtx-3090"] == pytest.approx(0.80, abs=0.03)


@pytest.mark.parametrize(("gpu_id", "words"), [
    ("rtx-4090", "taken as on the H100 for NVIDIA sm_89, where no run calibrates it"),
    ("a100-80gb-sxm", "scaled to NVIDIA sm_80 by what torchtitan reaches there"),
    ("h100-sxm", "the HF Trainer measured on one H100"),
])
def test_the_note_says_where_the_fine_tuning_figure_comes_from(catalog, gpu_id, words):
    assert words in flops.train_mfu_source(catalog.gpus[gpu_id], "hf")


def test_a_family_figure_needs_two_sources(catalog):
    # One harness's run does not set a family's figure (and with it every framework's share there): PR #355's two
    # A100 rows alone give none, with torchtitan's performance table they give sm_80's.
    rows = speed_calibration.speed_fidelity.load_rows()
    pr355 = [r for r in rows if r["id"].startswith("h43e-titan355-")]
    assert len(pr355) == 2 and "NVIDIA sm_80" not in speed_calibration.train_mfu_fit(pr355, catalog)
    both = pr355 + [r for r in rows if r["id"].startswith("titan-a100-")]
    assert "NVIDIA sm_80" in speed_calibration.train_mfu_fit(both, catalog)
    assert "AMD gfx950" not in speed_calibration.train_mfu_fit(catalog=catalog)  # OTel's MI355X readme, one source


def test_a_frameworks_share_needs_rows_of_two_models(catalog, monkeypatch):
    # Round 19's torchtune LoRA of Llama 3.2 1B on an A100 (a CSC log, calibration, trusted) is torchtune's only trusted
    # calibration row on a family with a pre-training figure: one model cannot tell the framework's share from that
    # model's own costs, so it gives no ("torchtune", "NVIDIA sm_80") figure; the HF Trainer's H100 rows have two models.
    rows = {r["id"]: r for r in speed_fidelity_rows() if r["group"] == "train"}
    assert rows["h55b-ttcsc-l32-1b-lora-r64-1xa100-40gb-b6"]["trusted"] == "yes"
    assert speed_calibration.MIN_FRAMEWORK_MODELS == 2
    fit = speed_calibration.train_mfu_fit(catalog=catalog)
    assert ("torchtune", "NVIDIA sm_80") not in fit and ("hf", "NVIDIA sm_90") in fit
    one_model = [r for r in rows.values() if r["id"] == "h55b-ttcsc-l32-1b-lora-r64-1xa100-40gb-b6"]
    two = [r for r in rows.values() if r["id"] in ("h100dev-lora-8b", "h100dev-full-1b")]
    assert ("torchtune", "NVIDIA sm_80") not in speed_calibration.train_mfu_fit(one_model, catalog)
    assert set(speed_calibration.train_mfu_fit(two, catalog)) == {("hf", "NVIDIA sm_90")}
    monkeypatch.setattr(speed_calibration, "MIN_FRAMEWORK_MODELS", 1)  # the row is in the fit but for the rule
    assert ("torchtune", "NVIDIA sm_80") in speed_calibration.train_mfu_fit(one_model, catalog)
