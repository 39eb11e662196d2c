"""What the plan search's property tests draw (training jobs, models) and the search they compare it with."""

from hypothesis import strategies as st

from advisor.core.job.choices import Checkpointing, Framework, Method, Mode, Optimizer, Parallel, Precision
from advisor.core.job.planned import Plan, PlannedJob, PlanPins
from advisor.core.plan import escalation, probes
from advisor.core.plan.planner import FitStatus, schemes_for

TRAIN_MODELS = ("llama-3.1-8b", "llama-3.1-70b", "qwen2.5-0.5b", "mixtral-8x7b", "gemma-2-9b", "phi-3-mini")


def training_jobs():
    return st.builds(
        lambda method, batch, seq, precision, optimizer, framework, ckpt: PlannedJob(
            mode=Mode.TRAIN, method=method, batch=batch, seq_len=seq, precision=precision, optimizer=optimizer,
            framework=framework, checkpointing=ckpt),
        st.sampled_from([Method.FULL, Method.LORA, Method.QLORA]), st.integers(1, 64),
        st.sampled_from([128, 512, 2048, 8192, 32768]), st.sampled_from([Precision.BF16, Precision.AMP]),
        st.sampled_from([Optimizer.ADAMW, Optimizer.ADAMW_8BIT, Optimizer.SGD]),
        st.sampled_from([Framework.HF, Framework.LITGPT, Framework.TORCHTUNE]), st.sampled_from(list(Checkpointing)))


def exhaustive(arch, job, build):
    """The search before it dropped schemes: every level, every scheme, in order."""
    n = build.gpu_count
    schemes = schemes_for(job, n) if n > 1 else (Parallel.NONE,)
    tried = []
    for offload, ckpt in probes.levels(job, PlanPins()):
        running = []
        for scheme in schemes:
            probe = probes.probe(arch, job, build, Plan(n_gpus=n, parallel=scheme, offload=offload,
                                                        checkpointing=ckpt), 0.0, None)
            tried.append(probe)
            if probe.status.runs:
                running.append(probe)
                if probe.status is FitStatus.FITS:
                    break
        if running:
            comfortable = [p for p in running if p.status is FitStatus.FITS] or running
            return comfortable[0] if len(comfortable) == 1 else escalation.fastest_probe(
                arch, build, comfortable, schemes, None)
    unblocked = [p for p in tried if p.status is not FitStatus.BLOCKED] or tried
    return max(unblocked, key=lambda p: p.fit.headroom_bytes)
