"""What ``llm-advisor estimate`` prints: the JSON object and its text rendering."""

from __future__ import annotations

from typing import Any

MEMORY_ROWS = ("weights", "reference_weights", "kv_cache", "activations", "gradients", "optimizer", "adapters",
               "buffers", "allocator", "runtime")


def _gib(n: float | None) -> float | None:
    return None if n is None else round(n / 2**30, 3)


def plan_json(chosen, build) -> dict[str, Any] | None:
    if chosen is None:
        return None
    from advisor.core import plan_words

    p = chosen.plan
    return {"n_gpus": p.n_gpus, "parallel": p.parallel.value, "offload": [o.value for o in p.offload],
            "checkpointing": p.checkpointing.value, "pinned": chosen.pinned, "considered": chosen.considered,
            "text": plan_words(p, build, chosen.planned.mode, chosen.pinned), "notes": list(chosen.notes)}


def suggestion_json(s) -> dict[str, Any]:
    speed = s.chosen.estimate.speed
    training = s.chosen.planned.mode.value == "train"
    out: dict[str, Any] = {"change": s.change, "kind": s.kind, "per_gpu_gib": _gib(s.per_gpu_bytes)}
    if training:
        out["train_tokens_per_s"] = speed.train_tokens_per_s
    else:
        out["decode_tokens_per_s"] = speed.decode_tokens_per_s
    if s.host_ram_bytes:
        out["host_ram_gib"] = _gib(s.host_ram_bytes)
    if s.extra_cost_usd is not None:
        out["extra_cost_usd"] = s.extra_cost_usd
    return out


def result_json(request, est, chosen=None, suggestions=()) -> dict[str, Any]:
    from advisor.core import apply_framework, past_trained_context

    mem = est.memory
    workload = chosen.planned if chosen is not None else request.workload
    per_gpu = {term: _gib(getattr(mem, term)) for term in MEMORY_ROWS}
    per_gpu["total"] = _gib(mem.total)
    rot = est.rule_of_thumb
    past = past_trained_context(request.arch, workload)
    return {
        "model": _model_json(request, est),
        "workload": apply_framework(workload).model_dump(mode="json"),  # the framework's defaults filled in
        "plan": plan_json(chosen, request.build),
        "hardware": _hardware_json(request.build),
        "memory": {"per_gpu_gib": per_gpu, "host_gib": _gib(mem.host), "disk_gib": _gib(mem.disk),
                   "peak_allocated_gib": _gib(mem.peak_allocated), "peak_reserved_gib": _gib(mem.peak_reserved),
                   "phases": {name: _gib(v) for name, v in mem.phases}},
        "speed": _speed_json(est.speed, workload, request.build),
        "fit": _fit_json(est.fit, chosen, suggestions) if est.fit is not None else None,
        "checks": [] if request.build is None else build_checks_json(request.build),
        "rule_of_thumb": None if rot is None else {"total_gib": _gib(rot.total_bytes), "rule": rot.rule,
                                                   "why_different": rot.why_different},
        "assumptions": list(request.notes) + list(est.assumptions),
        "warnings": [past] if past else [],
    }


def _model_json(request, est) -> dict[str, Any]:
    from advisor.core import count_params

    arch, imported = request.arch, request.imported
    counts = count_params(arch)
    return {
        "id": arch.id, "name": arch.name, "family": arch.family,
        "origin": imported.origin if imported else "generic", "path": imported.path if imported else None,
        "n_layers": arch.n_layers, "hidden_size": arch.hidden_size, "n_heads": arch.n_heads,
        "n_kv_heads": arch.n_kv_heads, "head_dim": arch.head_dim, "ffn_size": arch.ffn_size,
        "vocab_size": arch.vocab_size, "attention": arch.attention.kind.value,
        "moe": arch.moe.model_dump() if arch.moe else None,
        "params_total": counts.total, "params_active": counts.active,
        "params_exact": imported.params_exact if imported else None,
        "params_trainable": est.params_trainable, "weights_bytes_exact": request.weights_bytes_override,
    }


def _hardware_json(b) -> dict[str, Any] | None:
    from advisor.core import host_ram_gib

    if b is None:
        return None
    return {"name": b.name, "gpus": [g.id for g in b.gpus], "gpu_count": b.gpu_count,
            "host_ram_gib": host_ram_gib(b), "nodes": b.nodes, "gpus_per_node": b.gpus_per_node,
            "network": network_json(b)}


def _fit_json(f, chosen, suggestions) -> dict[str, Any]:
    return {"fits": f.fits, "need_per_gpu_gib": _gib(f.need_per_gpu_bytes),
            "usable_per_gpu_gib": _gib(f.usable_per_gpu_bytes), "headroom_gib": _gib(f.headroom_bytes),
            "host_need_gib": _gib(f.host_need_bytes), "host_available_gib": _gib(f.host_available_bytes),
            "reason": f.reason, "status": chosen.status.value if chosen is not None else None,
            "sequences_at_once": f.sequences_at_once,
            "problems": [{"field": p.field, "message": p.message, "software": p.support}
                         for p in (chosen.problems if chosen is not None else ())],
            "suggestions": [suggestion_json(x) for x in suggestions]}


def _speed_json(speed, workload, build) -> dict[str, Any]:
    return {"decode_tokens_per_s": speed.decode_tokens_per_s, "prefill_tokens_per_s": speed.prefill_tokens_per_s,
            "time_to_first_token_s": speed.time_to_first_token_s,
            "request_s": speed.request_s, "request_tokens_per_s": speed.request_tokens_per_s,
            "train_tokens_per_s": speed.train_tokens_per_s, "step_time_s": speed.step_time_s,
            "interconnect_share": speed.interconnect_share, "comm_link": speed.comm_link or None,
            "bottleneck": speed.bottleneck.value if speed.bottleneck else None, "notes": list(speed.notes),
            "basis": basis_json(workload, build)}


def basis_json(workload, build) -> dict[str, Any] | None:
    """``speed.basis``: whether the speed was measured on these GPUs' family with this engine or framework
    (``advisor.core.speed.basis``), the runs and the error there; null without a build."""
    if build is None:
        return None
    from advisor.storage.error_bands import speed_basis

    b = speed_basis(workload, build.gpus[:max(1, min(workload.n_gpus, build.gpu_count))])
    return {"calibrated": b.calibrated, "family": b.family, "software": b.software, "runs": b.rows,
            "median_pct": b.median_pct, "p90_pct": b.p90_pct, "held_out_runs": b.held_out_rows,
            "held_out_median_pct": b.held_out_median_pct, "text": b.sentence}


def build_checks_json(build) -> list[dict[str, str]]:
    """The build's physical checks (PSU, slots, lanes, the network between machines), errors first."""
    from advisor.core import check_build

    return [{"kind": w.kind.value, "severity": w.severity.value, "message": w.message} for w in check_build(build)]


def network_json(build) -> dict[str, Any] | None:
    """Each machine's network card(s) and the link they make; None where none is named."""
    from advisor.core import node_link

    net, lk = build.network, node_link(build)
    if net is None or lk is None:
        return None
    return {"nic_id": net.nic.id, "nic_name": net.nic.name, "count": net.count, "kind": lk.kind.value,
            "gbit_per_s_per_node": net.gbit_per_s, "achieved_gb_per_s_per_node": lk.duplex_gb_per_s,
            "latency_us": lk.latency_s * 1e6}


def cost_text(c: dict[str, Any] | None, training: bool = False) -> list[str]:
    """The running cost in words; 'no price' / 'not known' where a figure is missing."""
    if not c:
        return []
    st = c["settings"]
    per = "/h" if c["price_kind"] == "per_hour" else ""
    if c["price_usd"] is None:
        price = "no price"
    else:
        when = f"seen {c['price_date']}" + (", stale: older than a year" if c["price_stale"] else "")
        price = f"${c['price_usd']:,.2f}{per} ({when})" if per else f"${c['price_usd']:,.0f} {c['price_kind']} ({when})"
    out = ["", f"Running cost (${st['electricity_usd_per_kwh']:.4g}/kWh, {st['hours_per_day']:g} h a day, "
               f"{st['years']:g} years)", f"  {'price':<22}{price}"]
    if c.get("price_note") and c["price_kind"] != "per_hour":
        out.append(f"  {'':<22}{c['price_note']}")

    def row(label: str, value: float | None, fmt: str) -> None:
        out.append(f"  {label:<22}{'not known' if value is None else fmt.format(value)}")

    if c["price_kind"] != "per_hour":
        row("power at load", c["power_load_w"], "{:,.0f} W")
        row("power at idle", c["power_idle_w"], "{:,.0f} W (GPUs)")
        row("energy per year", c["energy_usd_per_year"], "${:,.0f}")
        row("cost of ownership", c["tco_usd"], "${:,.0f} over the years (price + energy)")
    row("cost per hour of use", c["usd_per_hour"], "${:,.3f}")
    row("per million tokens", c["usd_per_million_tokens"], "${:,.3f} " + ("trained" if training else "generated"))
    if training and c["train_hours"] is None:
        out.append(f"  {'training run':<22}give --dataset-tokens N (or 'chinchilla') for its time and cost")
    elif training:
        row("training run", c["train_hours"], "{:,.1f} h")
        row("GPU-days", c["gpu_days"], "{:,.1f}")
        row("training run cost", c["train_usd"], "${:,.0f}")
    ch = c.get("chinchilla")
    if ch:
        days = "not known" if ch["gpu_days"] is None else f"{ch['gpu_days']:,.1f} GPU-days"
        usd = "" if ch["train_usd"] is None else f", ${ch['train_usd']:,.0f}"
        out.append(f"  {'pre-training':<22}compute-optimal {ch['dataset_tokens'] / 1e9:,.1f}B tokens, "
                   f"{ch['flops']:.2e} FLOPs: {days}{usd} ({ch['source']})")
    return out


def _fmt(value: float | None, unit: str, digits: int = 1) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f} {unit}"


def job_text(w: dict[str, Any]) -> list[str]:
    """The job as the PDF's job table says it (``job_words.job_rows``), from the JSON's ``workload``."""
    from advisor.core import PlannedJob, job_rows

    rows = job_rows(PlannedJob.model_validate(w))  # without hardware the JSON's job carries its plan
    return ["Job"] + [f"  {label:<26}{words}" for label, words in rows]


def result_text(data: dict[str, Any]) -> str:
    w = data["workload"]
    lines = _head_text(data)
    lines += _memory_text(data["memory"])
    if data["fit"] is not None:
        lines += _fit_text(data["fit"])
    lines += _speed_text(data["speed"], w, data["hardware"])
    serious = [c for c in data.get("checks") or () if c["severity"] in ("error", "warning")]
    if serious:
        lines += ["", "Build checks"] + [f"  - {c['severity']}: {c['message']}" for c in serious]
    lines += cost_text(data.get("cost"), w["mode"] == "train")
    rot = data["rule_of_thumb"]
    if rot:
        lines += ["", f"Rule of thumb: {rot['total_gib']:.1f} GiB ({rot['rule']})"]
        if rot["why_different"]:
            lines.append(f"  {rot['why_different']}")
    if data["assumptions"]:
        lines += ["", "Assumptions"] + [f"  - {a}" for a in data["assumptions"]]
    return "\n".join(lines)


def _head_text(data: dict[str, Any]) -> list[str]:
    """The model, the job, warnings, the build, its machines and the plan."""
    m, w = data["model"], data["workload"]
    lines = [f"{m['name']} ({m['id']}): {m['params_total'] / 1e9:.2f}B parameters"
             + (f", {m['params_active'] / 1e9:.2f}B active" if m["moe"] else "")
             + f"; {m['n_layers']} layers, hidden {m['hidden_size']}, {m['n_heads']} heads / {m['n_kv_heads']} KV",
             *job_text(w), *(f"Warning: {x}" for x in data.get("warnings", ()))]
    hw = data["hardware"]
    if hw:
        lines.append(f"Build: {hw['name']}, {hw['gpu_count']} GPU{'s' if hw['gpu_count'] > 1 else ''}")
    if hw and hw.get("nodes", 1) > 1:
        net = hw.get("network")
        lines.append(f"Machines: {hw['nodes']} × {hw['gpus_per_node']} GPUs, joined by "
                     + (f"{net['count']}× {net['nic_name']} each ({net['kind']}, {net['gbit_per_s_per_node']:,.0f} Gb/s "
                        "per machine)" if net else "no network card named"))
    if data.get("plan"):
        lines.append(f"Plan: {data['plan']['text']}")
    return lines


def _memory_text(memory: dict[str, Any]) -> list[str]:
    from advisor.core import term_label

    lines = ["", "Memory per GPU"]
    per_gpu = memory["per_gpu_gib"]
    for term in (*MEMORY_ROWS, "total"):
        if term == "total" or per_gpu.get(term):
            lines.append(f"  {term_label(term).capitalize() if term == 'reference_weights' else term_label(term):<16}"
                         f"{per_gpu[term]:>10.2f} GiB")
    lines.append(f"  {'host RAM':<16}{memory['host_gib']:>10.2f} GiB")
    if memory.get("disk_gib"):
        lines.append(f"  {'NVMe':<16}{memory['disk_gib']:>10.2f} GiB")
    if memory.get("phases"):
        lines.append(f"  PyTorch allocates {memory['peak_allocated_gib']:.2f} GiB, reserves "
                     f"{memory['peak_reserved_gib']:.2f} GiB; peak by phase: "
                     + ", ".join(f"{k} {v:.1f}" for k, v in memory["phases"].items()))
    return lines


def _fit_text(f: dict[str, Any]) -> list[str]:
    verdict = {"fits": "yes", "tight": "yes, but tight (within the estimate's error)", "does not fit": "NO",
               "cannot run as set": "NO"}.get(f.get("status") or "", "yes" if f["fits"] else "NO")
    if f.get("problems"):  # what the software does not run here: the verdict, before any memory figure
        lines = ["", f"Fit: cannot run ({f['problems'][0]['message']})"]
    else:
        lines = ["", f"Fit: {verdict} ({f['reason']})"]
    if f.get("suggestions"):
        lines.append("What would make it fit:")
        for x in f["suggestions"]:
            rate = x.get("decode_tokens_per_s") or x.get("train_tokens_per_s")
            extra = [f"{x['per_gpu_gib']:.1f} GiB per GPU"]
            if rate:
                extra.append(f"{rate:,.1f} tokens/s")
            if x.get("extra_cost_usd") is not None:
                extra.append(f"+${x['extra_cost_usd']:,.0f}")
            lines.append(f"  - {x['change']} ({', '.join(extra)})")
    return lines


def _speed_text(s: dict[str, Any], w: dict[str, Any], hardware: dict[str, Any] | None) -> list[str]:
    speed_rows = [("decode", s["decode_tokens_per_s"], "tokens/s"), ("prefill", s["prefill_tokens_per_s"], "tokens/s"),
                  ("first token", s["time_to_first_token_s"], "s"), ("whole request", s.get("request_s"), "s"),
                  ("incl. prefill", s.get("request_tokens_per_s"), "tokens/s"),
                  ("training", s["train_tokens_per_s"], "tokens/s"),
                  ("step time", s["step_time_s"], "s")]
    shown = [(k, v, u) for k, v, u in speed_rows if v is not None]
    if not shown:
        if not hardware:
            return ["", "Speed: give --gpu or --build"]
        return ["", f"Speed: {s['notes'][0]}"] if s["notes"] else []
    basis = s.get("basis") or {}
    lines = ["", "Speed" + (f" (bottleneck: {s['bottleneck']})" if s["bottleneck"] else "")
             + ("" if basis.get("calibrated", True) else ", extrapolated")]
    lines += [f"  {k:<14}{_fmt(v, u, 2 if u == 's' else 1):>16}" for k, v, u in shown]
    if basis.get("text"):
        lines.append(f"  {basis['text']}")
    if s.get("train_tokens_per_s") and w["n_gpus"] > 1:
        lines.append(f"  {'per GPU':<14}{_fmt(s['train_tokens_per_s'] / w['n_gpus'], 'tokens/s'):>16}")
    if s.get("comm_link"):
        lines.append(f"  GPU-to-GPU traffic {s['interconnect_share']:.0%} of the step, mostly over {s['comm_link']}")
    return lines + [f"  - {note}" for note in s["notes"]]  # what the figures are timed at, and what limits them


