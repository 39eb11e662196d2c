"""The host CPU's part in a decode step: one core's speed paces an inference engine's per-token overhead."""

from __future__ import annotations

from advisor.core.hardware.records import ResolvedBuild

#: The host CPU's part in a decode step's host time. An engine's floor (``engine_speed.EngineSpeed.floor_s_per_layer``)
#: and a quantized Linear's host time (``engine_speed.LINEAR_HOST_S``) are one core's work — Python, the scheduler,
#: kernel launches — so a slower core stretches them. Their fitted values stand for the host of the calibration rows
#: whose host is not stated: ``REFERENCE_HOST_MARK``, the PassMark single-thread rating of the AMD EPYC 7742 (2,161 in
#: PassMark's chart, pinned copy lainbo/cpu-mark@10c6b6b0 src/assets/staticData/cpuSData.json), the CPU of NVIDIA's DGX
#: A100 ("Dual AMD Rome 7742", DGX A100 datasheet) under most of those rows' A100s, and the host of optimum-benchmark's
#: A100 runs, which the fitted floor reproduces within 3 % (tests/data/SPEEDS.md). A build whose CPU is known
#: (``ResolvedBuild.host_single_thread_mark``: its CPU part's, a cloud instance's) scales that host time by
#: (``REFERENCE_HOST_MARK`` / its mark) ** ``HOST_TIME_EXPONENT``; an unknown CPU keeps it. The exponent is fitted by
#: ``benchmarks/speed_calibration.py`` (``fit_host_exponent``) on the calibration rows whose source states the host
#: (``host`` in tests/data/speeds.csv: Colab and Kaggle T4s on Google Cloud N1 VMs, Colab L4s and A100s on G2 and A2 VMs,
#: a Xeon Silver 4210R server, the EPYC 7742, an EPYC 7F52 host of RTX 3090s, the EPYC 7J13 of Lambda's A100 instances,
#: EPYC 7413 and 7543 cluster nodes, a Xeon Platinum 8358P, two Xeon Platinum 8470s under eight MI300Xs, a Ryzen 5 9600X),
#: the engines' constants as they are; host time does not fall in proportion to a single-thread score (clock,
#: cache and memory latency move it differently: TransformerEngine issue #2053's launch overhead on a Grace CPU), hence
#: a fitted power rather than 1. Not scaled: a GGUF engine's host floor (fitted on Macs, whose CPU is the GPU's own
#: chip), LLM.int8's waits for the GPU (``engine_speed.BNB_INT8_S_PER_LINEAR``).
REFERENCE_HOST_MARK = 2161
REFERENCE_HOST_CPU = "EPYC 7742"
HOST_TIME_EXPONENT = 2.1
#: The marks of the hosts the exponent was fitted on: the stated hosts of the calibration rows whose estimate the host
#: time moves (by 5 % or more: ``benchmarks/speed_calibration.py`` ``fitted_host_marks``), from Google Cloud's N1 VM
#: (1,637) to the EPYC 7J13 (2,451). Rows on faster hosts were measured (the Ryzen 5 9600X's, 4,567) but on steps the GPU
#: bounds, which say nothing of the host, so outside this range the factor is held at the nearer end rather than
#: extrapolated: a desktop CPU is timed as the EPYC 7J13 (a faster core's further gain is not counted), a CPU slower than
#: the N1 VM's as that VM.
FITTED_MARKS = (1637, 2451)


def host_time_factor(single_thread_mark: int | None) -> float:
    """How much longer a host with this PassMark single-thread rating takes over a step's host work than the
    calibration host (``REFERENCE_HOST_MARK``): (reference / mark) ** ``HOST_TIME_EXPONENT``, the mark held within
    ``FITTED_MARKS``; 1 for an unknown CPU."""
    if not single_thread_mark:
        return 1.0
    low, high = FITTED_MARKS
    return float((REFERENCE_HOST_MARK / min(max(single_thread_mark, low), high)) ** HOST_TIME_EXPONENT)


def host_words(build: ResolvedBuild, gguf: bool) -> str:
    """What the per-token overhead depends on, for a note: the build's CPU's single-core speed
    (``host_time_factor``), or what the estimate assumed where the catalog has none for it."""
    if gguf:
        return "its CPU work and kernel launches, one by one"
    mark, ref = build.host_single_thread_mark, REFERENCE_HOST_CPU
    if mark is not None:
        low, high = FITTED_MARKS
        factor = host_time_factor(mark)
        if mark > high:
            return (f"one CPU core's work, timed as on the fastest host measured (PassMark single-thread {high:,}, "
                    f"{factor:.2f}× the time of an {ref}'s): no published run on a host CPU as fast as this one "
                    f"({mark:,}) was measured, so a faster core's further gain is not counted")
        held = " (held at the slowest host measured)" if mark < low else ""
        return (f"one CPU core's work, on this host's CPU (PassMark single-thread {mark:,}, "
                f"{factor:.2f}× the time of an {ref}'s{held})")
    cpu = build.platform.cpu if build.platform is not None else None
    named = build.build.cpu if build.build is not None else ""  # what the build says in words (this machine's)
    if cpu is not None:
        why = f"the catalog has no single-thread score for its {cpu.name}: add it to the CPU's record"
    elif named:
        why = f"the catalog has no single-thread score for its CPU, {named}: a CPU part with one counts its speed"
    else:
        why = "which CPU it has is not known"
    return f"one CPU core's work, timed for a server CPU like the {ref} ({why}); a faster core shortens it"
