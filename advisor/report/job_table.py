"""The job in the report's words: page 1's line and the Job table (Qt-free)."""

from __future__ import annotations

from advisor.core import Job, Mode, ModelArch, as_run, base_format_name, job_rows, say, unfused_reason
from advisor.core import format_params as fmt_params


def workload_rows(arch: ModelArch, w: Job, params_total: float | None) -> tuple[tuple[str, str], ...]:
    """The model, then every setting that matters for this job in its declared words (``job_words.job_rows``,
    as the command line prints it), then what the estimate made of them where a setting alone does not say it
    (a TensorRT-LLM version's kernels, a request, a prompt attention that is not fused)."""
    kv = f"{arch.n_heads} / {arch.n_kv_heads}"
    rows = [("Model", f"{arch.name} ({fmt_params(params_total)} parameters)"),
            ("Architecture", f"{arch.n_layers} layers, hidden {arch.hidden_size}, heads / KV heads {kv}, "
                             f"head dim {arch.head_dim}, FFN {arch.ffn_size}, vocab {arch.vocab_size:,}"
                             + (f", MoE {arch.moe.n_active} of {arch.moe.n_experts} experts" if arch.moe else "")
                             + (f", attention {arch.attention.kind.value}" if arch.attention.kind.value != "full" else ""))]
    settings = dict(job_rows(w))
    if w.mode is Mode.INFERENCE:
        run = as_run(arch, w)  # as the named TensorRT-LLM version runs it (16-bit experts, per-head decoding)
        if run.weights != w.weights:
            experts = say("weights", run.weights)
            settings["Weights"] += f" (experts in {experts}: no FP8 path for MoE experts before 0.10)"
        if run.decode_attention is not w.decode_attention or "Decode attention" in settings:
            kernel = say("decode_attention", run.decode_attention)
            per_head = run.decode_attention.value != "grouped"
            settings["Decode attention"] = f"{kernel}: one query head at a time on the CUDA cores" if per_head else kernel
    rows += settings.items()
    if w.is_request:
        rows.append(("Request", f"{w.prompt_tokens:,} prompt tokens, {w.context_len - w.prompt_tokens:,} "
                                "generated: speed is that request's (decode at the middle of the generation)"))
    if w.mode is Mode.INFERENCE and w.scores_in_memory:
        rows.append(("Prompt attention", f"not fused ({unfused_reason(w)}): the prompt's attention scores go "
                                         "through the card's memory"))
    rows.append(("GPUs and parallelism", "chosen for each build (see the plan in Verdict per build)"))
    return tuple(rows)


def job_line(arch: ModelArch | None, w: Job) -> str:
    """Page 1's line about the job, whole: the model and what is done with it (weights, engine, sequences and
    context; or method, objective, base, micro-batch and sequence length), not the model alone."""
    model = arch.name if arch is not None else "no model"
    if w.mode is Mode.INFERENCE:
        return (f"Job: {model}, inference with {say('engine', w.engine)} — {say('weights', w.weights)} weights, "
                f"{w.batch:,} sequence{'s' if w.batch > 1 else ''} of {w.context_len:,} tokens")
    method = say("method", w.method)
    method += "" if "fine-tun" in method else " fine-tuning"
    objective = "" if w.objective.value == "sft" else f" ({say('objective', w.objective)})"
    return (f"Job: {model}, {method}{objective} — {say('weights', base_format_name(w))} base, micro-batch "
            f"{w.batch:,} of {w.seq_len:,}-token sequences")
