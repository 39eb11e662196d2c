"""Fit the per-engine speed constants (``advisor.core.speed.engine_speed``) on the calibration rows.

The trusted, scored rows of ``tests/data/speeds.csv`` are split by source
(``speed_fidelity.split_of``: sha256 of the URL mod 3 == 0 is held out). For each inference
engine with calibration rows, four constants are fitted by coordinate descent over fixed grids
(three passes, in the order floor, bandwidth, KV bandwidth, compute; for an engine that replays CUDA graphs the
bandwidth share and its small kernels' time per layer are one coordinate, ``JOINT``; no KV bandwidth for the engines whose
kernels split one sequence's KV cache, ``engine_speed.SPLIT_KV_ENGINES``), minimising the mean
absolute log error (|ln(estimate / measured)|) of that engine's calibration rows. Where several
grid values give nearly the same error (within ``TIE``, 1 %) the one nearest the current value
(the prior, on the first pass) is kept, so a constant the rows do not constrain stays at its prior.
An engine is fitted in full only with at least ``MIN_ROWS`` (10) calibration *decode* rows at a small
batch (``SMALL_BATCH``), the rows that see its host floor and bandwidth shares (a llama-bench pp row sees
only the compute share); one with ``MIN_ROWS`` rows but none such fits only ``LARGE_BATCH_ONLY`` (its
compute share) on its sibling's other constants; one that runs its sibling's kernels
(``engine_speed.SIBLING_KERNELS``) fits only its host floor (``SIBLING_KERNELS_FIT``) on the sibling's other
constants; any other keeps its sibling's constants or the priors. No constant is fitted per row or per GPU.
Held-out rows are never evaluated here.

Run: ``.venv/bin/python benchmarks/speed_calibration.py`` — prints the fitted table to paste
into ``FITTED`` in ``advisor/core/speed/engine_speed.py``, the sources the fit used, and the
calibration error before and after.
"""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import speed_fidelity  # noqa: E402  (benchmarks/speed_fidelity.py)

from advisor.core.job.choices import Engine  # noqa: E402
from advisor.core.job.engine_versions import as_run  # noqa: E402
from advisor.core.speed import engine_speed as es  # noqa: E402
from advisor.core.speed import host_cpu  # noqa: E402
from advisor.core.speed.gguf_decode import prompt_as_decode_steps  # noqa: E402
from advisor.storage.catalog_store import load_catalog  # noqa: E402

GRIDS = {
    "floor_s_per_layer": [round(i * 0.01e-3, 8) for i in range(0, 151)],  # 0 to 1.5 ms per layer
    "bandwidth": [round(0.20 + 0.01 * i, 2) for i in range(0, 76)],  # 0.20 to 0.95
    "kv_bandwidth": [None] + [round(0.005 * 1.25 ** i, 4) for i in range(0, 23)],  # 0.005 to 0.68, or as weights
    "compute": [round(0.10 + 0.01 * i, 2) for i in range(0, 81)],  # 0.10 to 0.90
}
#: Seconds of a decode step's small kernels per layer in an engine that replays CUDA graphs
#: (``engine_speed.EngineSpeed.kernels_s_per_layer``), fitted jointly with its bandwidth share: the two trade off
#: (a higher share and a longer fixed time give a fast card's short step the same length), so coordinate descent
#: one constant at a time stays where it starts. The pair is one coordinate, ``JOINT``, over both grids.
KERNELS_GRID = [round(i * 0.01e-3, 8) for i in range(0, 9)]  # 0 to 0.08 ms per layer
JOINT = ("bandwidth", "kernels_s_per_layer")
JOINT_GRID = [(bw, k) for bw in GRIDS["bandwidth"] if bw >= 0.50 for k in KERNELS_GRID]
#: One grid step of each constant, to measure how far a tied value of the joint coordinate lies from the current one.
GRID_STEP = {"bandwidth": 0.01, "kernels_s_per_layer": 0.01e-3}
#: The share of the FP32 peak a per-head decode attention kernel reaches (``es.PER_HEAD_ATTENTION_SHARE``,
#: one constant for every engine): fitted with the constants of the engine whose calibration rows ran
#: that kernel (the rows' TensorRT-LLM version: ``engine_versions.as_run``), as a fifth coordinate.
PER_HEAD_GRID = [round(0.01 * i, 2) for i in range(2, 61)]  # 0.02 to 0.60
PASSES = 3
#: Grid values whose error is within this share of the best count as equally good; of those, the one
#: nearest the current value (the prior on the first pass) is kept: an unconstrained constant stays.
TIE = 0.01
#: An engine is fitted only with at least this many calibration rows (about three per constant);
#: with fewer it keeps its sibling's constants or the priors.
MIN_ROWS = 10
#: ... and only with rows at a batch this small or smaller: the host's floor per layer shows only where
#: a step can be host-bound. Without such rows the floor absorbs whatever the large-batch rows miss
#: (TensorRT-LLM's ten calibration rows, batch 32-1024, fit 0.61 ms per layer: a 7B model at batch 1
#: would decode at most ~50 tokens/s), so the engine keeps its sibling's constants.
SMALL_BATCH = 4


def calibration_rows(catalog) -> dict[Engine, list[dict[str, str]]]:
    """Trusted calibration rows that score, per inference engine."""
    out: dict[Engine, list[dict[str, str]]] = defaultdict(list)
    for row in speed_fidelity.load_rows():
        if row.get("trusted") != "yes" or speed_fidelity.split_of(row) != "calibration":
            continue
        try:
            engine = Engine(row["engine"])
        except ValueError:
            continue  # training frameworks: no calibration row here (see benchmarks/README.md)
        if speed_fidelity.evaluate(row, catalog).estimate is not None:
            out[engine].append(row)
    return out


def loss(rows, catalog) -> float:
    errs = []
    for row in rows:
        o = speed_fidelity.evaluate(row, catalog)
        if o.estimate is None or o.estimate <= 0:
            return math.inf
        errs.append(abs(math.log(o.estimate / o.measured)))
    return sum(errs) / len(errs)


def _distance(value, prior) -> float:
    if isinstance(value, tuple):  # the joint coordinate: grid steps of each constant
        return sum(abs(v - p) / GRID_STEP[n] for n, v, p in zip(JOINT, value, prior, strict=True))
    if value is None or prior is None:
        return 0.0 if value is prior else math.inf
    return abs(value - prior)


def runs_per_head(rows, catalog) -> bool:
    """Whether any of ``rows`` decoded with a per-head attention kernel."""
    def per_head(r) -> bool:
        job = speed_fidelity.job_of(r)
        return not isinstance(job, str) and as_run(catalog.models[r["model_id"]], job).decode_attention.value == "per-head"

    return any(per_head(r) for r in rows if r.get("model_id") in catalog.models and r["group"] == "decode")


def _grids(engine: Engine, rows, catalog, only: tuple[str, ...] | None, current: dict) -> dict:
    """The coordinates to fit for ``engine`` and their grids (``current`` set where a coordinate is not fitted)."""
    grids: dict = {k: v for k, v in GRIDS.items() if only is None or k in only}
    if engine in es.CUDA_GRAPH_ENGINES:  # its small kernels' time, with its bandwidth share (in the bandwidth's place)
        grids = {(JOINT if k == "bandwidth" else k): (JOINT_GRID if k == "bandwidth" else v) for k, v in grids.items()}
    if engine in es.SPLIT_KV_ENGINES:  # its kernels read one sequence's KV cache at the weights' share
        current["kv_bandwidth"] = None
        grids.pop("kv_bandwidth", None)
    if runs_per_head(rows, catalog):
        current["per_head"] = es.PER_HEAD_ATTENTION_SHARE
        grids["per_head"] = PER_HEAD_GRID
    return grids


def _coordinate(current: dict, name) -> tuple | float | None:
    """The current value of one coordinate (a tuple for ``JOINT``)."""
    return tuple(current[n] for n in name) if isinstance(name, tuple) else current[name]


def _assign(name, value) -> dict:
    """The constants one coordinate's value sets."""
    return dict(zip(name, value, strict=True)) if isinstance(name, tuple) else {name: value}


def fit(engine: Engine, rows, catalog, only: tuple[str, ...] | None = None,
        start: es.EngineSpeed | None = None) -> es.EngineSpeed:
    """The engine's constants that minimise its rows' loss; with ``only``, just those constants, the
    others kept at ``start`` (the sibling's fitted constants)."""
    prior = start or es.PRIOR
    current = dict(bandwidth=prior.bandwidth, compute=prior.compute,
                   floor_s_per_layer=prior.floor_s_per_layer if start else 0.0,
                   kv_bandwidth=prior.kv_bandwidth if start else None,
                   kernels_s_per_layer=prior.kernels_s_per_layer if start else 0.0)
    grids = _grids(engine, rows, catalog, only, current)

    def apply(values):
        es.FITTED[engine] = es.EngineSpeed(**{k: v for k, v in values.items() if k != "per_head"})
        if "per_head" in values:
            es.PER_HEAD_ATTENTION_SHARE = values["per_head"]

    for _ in range(PASSES):
        for name, grid in grids.items():
            scored = []
            for value in dict.fromkeys([*grid, _coordinate(current, name)]):  # the current value (the prior at first)
                apply({**current, **_assign(name, value)})
                scored.append((loss(rows, catalog), value))
            best = min(s for s, _ in scored)
            near = [v for s, v in scored if s <= best * (1 + TIE) + 1e-9]
            current.update(_assign(name, min(near, key=lambda v: _distance(v, _coordinate(current, name)))))
    apply(current)
    if "per_head" in current:
        print(f"# PER_HEAD_ATTENTION_SHARE = {current['per_head']:g}  (fitted with {engine.value}'s rows)")
    return es.FITTED[engine]


def best_on_grid(grid, current: float, score) -> float:
    """The value of ``grid`` (or ``current``) with the least ``score(value)``; values within ``TIE`` of the least
    count as ties, and the one nearest ``current`` is kept."""
    scored = [(score(value), value) for value in dict.fromkeys([*grid, current])]
    best = min(sc for sc, _ in scored)
    near = [v for sc, v in scored if sc <= best * (1 + TIE) + 1e-9]
    return min(near, key=lambda v: abs(v - current))


def fit_per_head(rows, catalog) -> float:
    """``es.PER_HEAD_ATTENTION_SHARE`` alone, on ``rows`` (their engine's constants as they are)."""
    def score(value: float) -> float:
        es.PER_HEAD_ATTENTION_SHARE = value
        return loss(rows, catalog)

    current = es.PER_HEAD_ATTENTION_SHARE
    for _ in range(PASSES):
        current = best_on_grid(PER_HEAD_GRID, current, score)
    es.PER_HEAD_ATTENTION_SHARE = current
    print(f"# PER_HEAD_ATTENTION_SHARE = {current:g}  (fitted alone on {len(rows)} rows)")
    return current


def fits_engine(rows) -> bool:
    """Enough decode rows at a small batch (``MIN_ROWS``, ``SMALL_BATCH``) to fit the host floor and the
    bandwidth shares. Prefill rows (llama-bench ppN) do not count: a prefill has no per-layer floor and
    reads its weights once, so they constrain only the compute share. With 8
    new pp rows llama.cpp reached 11 calibration rows, only 3 of them decode; fitted in full, its floor
    (0.24 ms per layer) was set by one January 2024 tg128 row (PR #4812) and, leaving one calibration
    source out, scored the left-out sources worse than the priors (mean |ln err| 0.206 vs 0.176)."""
    return sum(1 for r in rows if r["group"] == "decode" and int(r.get("batch") or 1) <= SMALL_BATCH) >= MIN_ROWS


#: What an engine with enough calibration rows but none at a small batch fits: only its share of the
#: tensor peak, which its prompts and large-batch GEMMs see; the host floor, the bandwidth shares come
#: from its sibling (``es.SIBLING``). Chosen by leaving one calibration source out (TensorRT-LLM's two
#: NVIDIA H200 blogs, fitted on one and scored on the other, mean |ln err| over their 10 rows): compute
#: alone 0.155, bandwidth and compute 0.168, the sibling's constants 0.182.
LARGE_BATCH_ONLY = ("compute",)
#: What an engine that runs its sibling's kernels (``es.SIBLING_KERNELS``) fits: its host's time per layer.
SIBLING_KERNELS_FIT = ("floor_s_per_layer",)


def compile_speedup(rows=None) -> tuple[float, list[tuple[str, str]]]:
    """``flops.TRAIN_COMPILE_SPEEDUP``: the geometric mean of tokens/s with / without torch.compile over
    the calibration sources' training pairs (a row and the same row with '-compile' appended to its id,
    same source). Untrusted rows count here: what made them untrusted (an inferred sequence length) is
    shared by both rows of a pair and cancels in the ratio. Returns (speed-up, the pairs' ids)."""
    rows = speed_fidelity.load_rows() if rows is None else rows
    cal = {r["id"]: r for r in rows if r["group"] == "train" and speed_fidelity.split_of(r) == "calibration"}
    pairs = [(i, i + "-compile") for i in cal if i + "-compile" in cal and cal[i]["url"] == cal[i + "-compile"]["url"]]
    if not pairs:
        return 1.0, []
    logs = [math.log(float(cal[b]["tokens_per_s"]) / float(cal[a]["tokens_per_s"])) for a, b in pairs]
    return math.exp(sum(logs) / len(logs)), pairs


#: Sources (``sources.source_key``) a family's pre-training figure needs before the fit takes it (``train_mfu_fit``).
MIN_FAMILY_SOURCES = 2
#: A framework's figure on a family needs rows of this many models: its share of a pre-training stack's figure is a fact
#: of the framework at every size, which one model's rows cannot tell apart from that model's own costs (a 1B model's
#: step pays per-kernel overheads an 8B one hides). The HF Trainer's on the H100 has two (Llama 3.1 8B LoRA, Llama 3.2 1B
#: full); round 19's one torchtune row (a 1B LoRA on an A100) would alone have scaled torchtune on every family.
MIN_FRAMEWORK_MODELS = 2


def train_mfu_fit(rows=None, catalog=None) -> dict[str | tuple[str, str], tuple[float, list[str]]]:
    """``flops.TRAIN_MFU_BY_FAMILY`` and ``flops.TRAIN_MFU_BY_FRAMEWORK``: per GPU family (``Gpu.speed_family``:
    compute capability or gfx target), the geometric mean over the calibration sources' training rows run in
    bf16 without torch.compile of ``flops.train_flops_per_token`` of the row's job x its tokens per GPU and
    step / (the GPU's bf16 peak x its ``flops.train_matmul_factor`` x (the measured step less its optimizer
    step, ``training.optimizer_step_seconds``)), i.e. the share of the peak the step's matmuls reached on a
    card of typical matmul efficiency: rows of a pre-training framework (``flops.PRETRAINING_FRAMEWORKS``)
    give the family's figure, keyed by the family; rows of another framework that framework's own, keyed
    (framework, family), on a family whose pre-training figure was measured (``flops.has_pretraining_figure``; else the
    framework's share and the family's figure cannot be told apart, and its rows are left out). A family's figure needs
    rows of ``MIN_FAMILY_SOURCES`` sources: one harness's run (OTel's torchtitan readme, the only MI355X pre-training
    source) would otherwise set it alone, and with it every framework's share measured there — torchtune's from a 0.5B
    LoRA on that family would then scale torchtune everywhere; a framework's figure needs rows of ``MIN_FRAMEWORK_MODELS``
    models. Untrusted rows (as every other fit here) and rows whose
    GPU, model or layout the app lacks are left out; a row across machines whose network is not stated is in (the fit
    needs only its per-GPU step). Returns {key: (MFU, the rows' ids)}."""
    from advisor.core.job.frameworks import training_loop, with_framework_defaults
    from advisor.core.speed.flops import (
        PRETRAINING_FRAMEWORKS,
        bandwidth_bytes_per_s,
        has_pretraining_figure,
        peak_flops,
        train_flops_per_token,
        train_matmul_factor,
    )
    from advisor.core.speed.layout import split_of
    from advisor.core.speed.optimizer_step import optimizer_step_seconds

    catalog = catalog or load_catalog().catalog
    rows = speed_fidelity.load_rows() if rows is None else rows
    logs: dict[str | tuple[str, str], list[tuple[float, str]]] = defaultdict(list)
    sources_of: dict[str | tuple[str, str], set[str]] = defaultdict(set)
    models_of: dict[str | tuple[str, str], set[str]] = defaultdict(set)
    for row in rows:
        if (row["group"] != "train" or speed_fidelity.split_of(row) != "calibration" or row["weights"] != "bf16"
                or row.get("trusted") != "yes" or speed_fidelity.compiled(row) or row["tokens_per_s_kind"] != "per-gpu"):
            continue
        gpu = catalog.gpus.get(speed_fidelity.gpu_id_of(row["gpu"], catalog) or "")
        arch = catalog.models.get(row.get("model_id") or "")
        job = speed_fidelity.job_of(row)
        if gpu is None or arch is None or isinstance(job, str) or not gpu.bf16_tflops_dense:
            continue
        job = with_framework_defaults(job)  # as the estimate takes it (precision, checkpointing)
        # The step's matmul time: the measured step less its optimizer step (a memory-bound pass the
        # estimate times apart, ``training.optimizer_step_seconds``), per GPU.
        tokens = job.batch * job.seq_len * job.grad_accum_steps
        step_s = tokens / float(row["tokens_per_s"])
        optimizer_s = optimizer_step_seconds(arch, job, split_of(job), bandwidth_bytes_per_s(gpu))
        peak = peak_flops(gpu, job) * train_matmul_factor(gpu)
        mfu = tokens * train_flops_per_token(arch, job) / (peak * (step_s - optimizer_s))
        family = gpu.speed_family
        framework = training_loop(job.framework).value  # Axolotl's rows are the HF Trainer's loop
        if framework not in PRETRAINING_FRAMEWORKS and not has_pretraining_figure(family):
            continue  # a framework's share of a pre-training figure nobody measured on that family: not separable
        key = family if framework in PRETRAINING_FRAMEWORKS else (framework, family)
        logs[key].append((math.log(mfu), row["id"]))
        sources_of[key].add(speed_fidelity.sources.source_key(row["url"]))
        models_of[key].add(arch.id)
    return {key: (math.exp(sum(v for v, _ in xs) / len(xs)), [i for _, i in xs]) for key, xs in logs.items()
            if (len(sources_of[key]) >= MIN_FAMILY_SOURCES if isinstance(key, str)
                else len(models_of[key]) >= MIN_FRAMEWORK_MODELS)}


#: MMQ on the int8 tensor cores came to llama.cpp's CUDA backend in June 2024 (PRs #7676, #7860): CUDA rows of
#: sources dated before July 2024 timed other kernels (MMQ with dp4a, or dequantization to FP16), and are left
#: out of the MMQ path's fit (they stay scored: they are what those builds did); the two PRs' own tables (June 2024) are in.
MMQ_MMA_SINCE = "2024-06"


def fit_gguf_paths(catalog, rounds: int = 3) -> dict:
    """``es.GGUF_PATH_COMPUTE``: for each GGUF kernel path but cuBLAS (``gguf_paths.gguf_path``), the share of
    its peak that reproduces the calibration prefill rows of that path (llama.cpp, trusted), as the geometric
    mean over them of share × measured / estimated (a prefill is compute-bound: its time goes as 1 / share),
    iterated ``rounds`` times; ``MMQ_MMA_SINCE`` for the CUDA MMQ path. Returns {path: (share, row ids)}."""
    rows: dict = defaultdict(list)
    for row in speed_fidelity.load_rows():
        path = _gguf_fit_path(row, catalog)
        if path is not None and speed_fidelity.evaluate(row, catalog).estimate is not None:  # rows the benchmark scores
            rows[path].append(row)
    shipped = dict(es.GGUF_PATH_COMPUTE)
    out = {}
    try:
        for path, path_rows in rows.items():
            for _ in range(rounds):
                if not _refit_gguf_share(path, path_rows, catalog):
                    break
            if path in es.GGUF_PATH_COMPUTE:
                out[path] = (es.GGUF_PATH_COMPUTE[path], [r["id"] for r in path_rows])
    finally:
        es.GGUF_PATH_COMPUTE.clear()
        es.GGUF_PATH_COMPUTE.update(shipped)
    return out


def _gguf_fit_path(row: dict[str, str], catalog):
    """The GGUF kernel path whose share ``row`` calibrates (a trusted llama.cpp calibration prefill row on a
    known GPU and dense model, not cuBLAS, not a CUDA MMQ row from before ``MMQ_MMA_SINCE``, not a prompt in
    micro-batches of decode steps (``matvec_prompt``), not a tensor split: its prompt time carries the GPUs'
    reductions of every layer, which the share of the matmuls must not absorb);
    None for other rows."""
    from advisor.core.speed.gguf_paths import GgufPath, gguf_path

    if (row.get("trusted") != "yes" or row["group"] != "prefill" or row["engine"] != "llama.cpp"
            or speed_fidelity.split_of(row) != "calibration" or row["parallel"] == "tp" or matvec_prompt(row)):
        return None
    gpu = catalog.gpus.get(speed_fidelity.gpu_id_of(row["gpu"], catalog) or "")
    job = speed_fidelity.job_of(row)
    if gpu is None or isinstance(job, str) or (row.get("model_id") or "") not in catalog.models:
        return None
    if catalog.models[row["model_id"]].moe is not None:  # a MoE prompt's experts fill part-empty tiles (prefill.py)
        return None
    path = gguf_path(gpu, job.weights)
    if path in (None, GgufPath.CUBLAS):
        return None
    if path is GgufPath.MMQ_MMA and row.get("source_date") and row["source_date"] < MMQ_MMA_SINCE:
        return None
    return path


def _refit_gguf_share(path, path_rows: list[dict[str, str]], catalog) -> bool:
    """One round: ``path``'s share × the geometric mean of measured / estimated over its rows; False (nothing
    set) when none of them is estimated."""
    share = es.gguf_compute_share(path)
    ratios = []
    for row in path_rows:
        o = speed_fidelity.evaluate(row, catalog)
        if o.estimate is not None:
            ratios.append(math.log(o.measured / o.estimate))
    if not ratios:
        return False
    es.GGUF_PATH_COMPUTE[path] = round(share * math.exp(sum(ratios) / len(ratios)), 3)
    return True


#: Grids of llama.cpp's decode constants (``fit_gguf_decode``): its bandwidth share, the issue slots per weight
#: of each weight class (``gguf_decode.ISSUE_PER_WEIGHT``), the host's time per layer where it launches the
#: kernels one by one (``gguf_decode.HOST_LAUNCHED_S_PER_LAYER``, and a MoE layer's more there:
#: ``gguf_decode.HOST_LAUNCHED_S_PER_MOE_LAYER``), a MoE layer's dispatch kernels
#: (``gguf_decode.MOE_DISPATCH_S_PER_LAYER``) and every layer's small kernels (its ``EngineSpeed.kernels_s_per_layer``).
GGUF_DECODE_GRIDS = {
    "bandwidth": GRIDS["bandwidth"],
    "issue_4bit_up": [round(0.5 * i, 1) for i in range(0, 121)],  # 0 to 60 issue slots per weight
    "issue_low_bit": [round(0.5 * i, 1) for i in range(0, 121)],
    "host_launched": [round(i * 0.005e-3, 8) for i in range(0, 101)],  # 0 to 0.5 ms per layer
    "host_moe": [round(i * 0.005e-3, 8) for i in range(0, 101)],  # 0 to 0.5 ms per MoE layer
    "moe_dispatch": [round(i * 0.005e-3, 8) for i in range(0, 61)],  # 0 to 0.3 ms per MoE layer
    "layer_kernels": [round(i * 0.005e-3, 8) for i in range(0, 31)],  # 0 to 0.15 ms per layer
}


def gguf_decode_rows(by_engine: dict[Engine, list[dict[str, str]]]) -> list[dict[str, str]]:
    """llama.cpp's calibration decode rows (tg), and its prompts computed in micro-batches small enough to be decode
    steps (``matvec_prompt``): what its decode constants (``fit_gguf_decode``) are fitted on."""
    return [r for r in by_engine.get(Engine.LLAMA_CPP, []) if r["group"] == "decode" or matvec_prompt(r)]


def matvec_prompt(row: dict[str, str]) -> bool:
    """A prompt row whose micro-batches run llama.cpp's decode kernels (the app's ``gguf_decode.prompt_as_decode_steps``):
    its time is decode steps', not the prompt kernels' of a path."""
    job = speed_fidelity.job_of(row)
    return row["group"] == "prefill" and not isinstance(job, str) and prompt_as_decode_steps(job)


def _set_gguf_decode(values: dict) -> None:
    from advisor.core.speed import gguf_decode as gd

    es.FITTED[Engine.LLAMA_CPP] = es.EngineSpeed(bandwidth=values["bandwidth"], compute=es.PRIOR_COMPUTE,
                                                 floor_s_per_layer=0.0, kernels_s_per_layer=values["layer_kernels"])
    gd.ISSUE_PER_WEIGHT[gd.FOUR_BIT_UP] = values["issue_4bit_up"]
    gd.ISSUE_PER_WEIGHT[gd.LOW_BIT] = values["issue_low_bit"]
    gd.HOST_LAUNCHED_S_PER_LAYER = values["host_launched"]
    gd.HOST_LAUNCHED_S_PER_MOE_LAYER = values["host_moe"]
    gd.MOE_DISPATCH_S_PER_LAYER = values["moe_dispatch"]


def gguf_decode_values() -> dict:
    """The shipped values of ``GGUF_DECODE_GRIDS``' constants."""
    from advisor.core.speed import gguf_decode as gd

    return {"bandwidth": es.engine_speed(Engine.LLAMA_CPP).bandwidth,
            "issue_4bit_up": gd.ISSUE_PER_WEIGHT[gd.FOUR_BIT_UP], "issue_low_bit": gd.ISSUE_PER_WEIGHT[gd.LOW_BIT],
            "host_launched": gd.HOST_LAUNCHED_S_PER_LAYER, "host_moe": gd.HOST_LAUNCHED_S_PER_MOE_LAYER,
            "moe_dispatch": gd.MOE_DISPATCH_S_PER_LAYER,
            "layer_kernels": es.engine_speed(Engine.LLAMA_CPP).kernels_s_per_layer}


def fit_gguf_decode(rows, catalog, start: dict | None = None) -> dict:
    """llama.cpp's decode constants on ``rows`` (``gguf_decode_rows``): coordinate descent over
    ``GGUF_DECODE_GRIDS`` (``PASSES``), ties kept nearest the current value; its compute share stays the prior
    (its prompts' kernels have their own shares, ``fit_gguf_paths``) and its engine floor 0 (a step with CUDA
    graphs has no host floor; the host-launched one is ``host_launched``). Starts from ``start`` (default: the
    shipped values). Leaves the fitted values in place."""
    current = dict(start or gguf_decode_values())
    for _ in range(PASSES):
        for name, grid in GGUF_DECODE_GRIDS.items():
            scored = []
            for value in dict.fromkeys([*grid, current[name]]):
                _set_gguf_decode({**current, name: value})
                scored.append((loss(rows, catalog), value))
            best = min(sc for sc, _ in scored)
            near = [v for sc, v in scored if sc <= best * (1 + TIE) + 1e-9]
            current[name] = min(near, key=lambda v: abs(v - current[name]))
    _set_gguf_decode(current)
    return current


QUANT_GRID = [round(i * 0.01e-3, 8) for i in range(0, 31)]  # 0 to 0.3 ms per layer


def quant_rows(by_engine: dict[Engine, list[dict[str, str]]]) -> list[dict[str, str]]:
    """The calibration rows whose estimate ``es.QUANT_KERNEL_S_PER_LAYER`` moves: integer-quantized weights
    (``es.QUANT_FAMILY``) in an engine that replays CUDA graphs (``es.CUDA_GRAPH_ENGINES``)."""
    return [r for e, rows in sorted(by_engine.items(), key=lambda kv: kv[0].value) if e in es.CUDA_GRAPH_ENGINES
            for r in rows
            if es.QUANT_FAMILY.get(speed_fidelity.WEIGHTS.get(r["weights"].strip().lower(), "")) is not None]


def descend(table: dict[str, float], grid: list[float], rows, catalog) -> dict[str, float]:
    """Coordinate descent over ``grid`` for each entry of ``table`` (a dict of constants the estimate reads, set in
    place as it goes; ``PASSES`` passes), the least mean |ln err| of ``rows``, ties kept nearest the current value."""
    current = dict(table)
    for _ in range(PASSES):
        for key in sorted(current):
            def score(value: float, key: str = key) -> float:
                table[key] = value
                return loss(rows, catalog)

            current[key] = best_on_grid(grid, current[key], score)
            table[key] = current[key]
    return current


def fit_quant(rows, catalog) -> dict[str, float]:
    """``es.QUANT_KERNEL_S_PER_LAYER`` on ``rows`` (``quant_rows``), the engines' constants as they are (``descend``
    over ``QUANT_GRID`` for each family)."""
    return descend(es.QUANT_KERNEL_S_PER_LAYER, QUANT_GRID, rows, catalog)


BNB_INT8_GRID = [round(i * 0.01e-3, 8) for i in range(0, 101)]  # 0 to 1 ms per Linear


def bnb_int8_rows(by_engine: dict[Engine, list[dict[str, str]]]) -> list[dict[str, str]]:
    """The calibration rows whose estimate ``es.BNB_INT8_S_PER_LINEAR`` moves: LLM.int8 weights in transformers."""
    return [r for r in by_engine.get(Engine.TRANSFORMERS, [])
            if speed_fidelity.WEIGHTS.get(r["weights"].strip().lower(), "") == "int8"]


def fit_scalar(module, name: str, grid: list[float], rows, catalog) -> float:
    """The value of ``module.<name>`` on ``grid`` with the least mean |ln err| on ``rows`` (ties kept nearest the
    current value), every other constant as it is; the shipped value is put back."""
    current = getattr(module, name)

    def score(value: float) -> float:
        setattr(module, name, value)
        return loss(rows, catalog)

    try:
        return best_on_grid(grid, current, score)
    finally:
        setattr(module, name, current)


def fit_bnb_int8(rows, catalog) -> float:
    """``es.BNB_INT8_S_PER_LINEAR`` on ``rows`` (``bnb_int8_rows``), transformers' constants as they are
    (``fit_scalar`` over ``BNB_INT8_GRID``)."""
    return fit_scalar(es, "BNB_INT8_S_PER_LINEAR", BNB_INT8_GRID, rows, catalog)


LINEAR_HOST_GRID = [round(i * 0.005e-3, 8) for i in range(0, 41)]  # 0 to 0.2 ms per Linear


def linear_host_rows(by_engine: dict[Engine, list[dict[str, str]]]) -> list[dict[str, str]]:
    """The calibration rows whose estimate ``es.LINEAR_HOST_S`` moves: transformers with GPTQ, AWQ or bitsandbytes 4-bit
    weights (FP4 rows fit NF4's figure: ``es.LINEAR_HOST_ALIAS``)."""
    def key(row: dict[str, str]) -> str:
        name = row["weights"].strip().lower()
        return es.linear_host_key(speed_fidelity.WEIGHTS.get(name, name))
    return [r for r in by_engine.get(Engine.TRANSFORMERS, []) if key(r) in es.LINEAR_HOST_S]


def fit_linear_host(rows, catalog) -> dict[str, float]:
    """``es.LINEAR_HOST_S`` on ``rows`` (``linear_host_rows``), transformers' constants as they are (``descend`` over
    ``LINEAR_HOST_GRID`` for each format); the shipped values are put back."""
    shipped = dict(es.LINEAR_HOST_S)
    try:
        return descend(es.LINEAR_HOST_S, LINEAR_HOST_GRID, rows, catalog)
    finally:
        es.LINEAR_HOST_S.update(shipped)


HOST_EXPONENT_GRID = [round(0.1 * i, 1) for i in range(0, 31)]  # 0 (no host effect) to 3


def stated_host_rows(by_engine: dict[Engine, list[dict[str, str]]]) -> list[dict[str, str]]:
    """The calibration rows whose estimate ``host_cpu.HOST_TIME_EXPONENT`` moves: a stated host (``host``) of an engine whose
    per-token overhead it scales (not a GGUF engine: ``decode._engine_floor``)."""
    return [r for e, rows in by_engine.items() if not e.gguf for r in rows if (r.get("host") or "").strip()]


def fit_host_exponent(rows, catalog) -> float:
    """``host_cpu.HOST_TIME_EXPONENT`` on ``rows`` (``stated_host_rows``), each row's host at its own mark (no range held),
    the engines' constants as they are (``fit_scalar`` over ``HOST_EXPONENT_GRID``)."""
    with _unheld_marks():
        return fit_scalar(host_cpu, "HOST_TIME_EXPONENT", HOST_EXPONENT_GRID, rows, catalog)


#: A stated host counts toward the fitted range (``host_cpu.FITTED_MARKS``) when the host time moves its row's estimate by
#: at least this share: the exponent fitted against none (factor 1). A row whose step the GPU bounds says nothing of its host.
HOST_MOVES_ESTIMATE = 0.05


def fitted_host_marks(rows, catalog, exponent: float) -> tuple[int, int]:
    """``host_cpu.FITTED_MARKS``: the least and greatest single-thread marks among ``rows`` (``stated_host_rows``) whose
    estimate the host factor at ``exponent`` moves by ``HOST_MOVES_ESTIMATE`` or more, each host at its own mark."""
    shipped = host_cpu.HOST_TIME_EXPONENT
    marks = []
    try:
        with _unheld_marks():
            for row in rows:
                host_cpu.HOST_TIME_EXPONENT = exponent
                with_host = speed_fidelity.evaluate(row, catalog).estimate
                host_cpu.HOST_TIME_EXPONENT = 0.0
                without = speed_fidelity.evaluate(row, catalog).estimate
                mark = row_host_mark(row, catalog)
                if mark and with_host and without and abs(with_host / without - 1) >= HOST_MOVES_ESTIMATE:
                    marks.append(mark)
    finally:
        host_cpu.HOST_TIME_EXPONENT = shipped
    return (min(marks), max(marks)) if marks else host_cpu.FITTED_MARKS


def row_host_mark(row, catalog) -> int | None:
    """The single-thread mark of the host a row runs on (``speed_fidelity.hardware_of``: its stated host); None where
    not known."""
    gpu = speed_fidelity.gpu_id_of(row["gpu"], catalog)
    return speed_fidelity.hardware_of(row, catalog, gpu, int(row["n_gpus"])).host_single_thread_mark


@contextmanager
def _unheld_marks():
    """Every host at its own mark: ``host_cpu.FITTED_MARKS`` opened wide for the block."""
    shipped = host_cpu.FITTED_MARKS
    host_cpu.FITTED_MARKS = (1, 10**9)
    try:
        yield
    finally:
        host_cpu.FITTED_MARKS = shipped


def _fit_engines(by_engine: dict, catalog, fitted: dict) -> set:
    """Fit each engine with enough rows; then those with only large-batch rows from their fitted sibling;
    then the per-head attention share on engines left at their priors that run per head. Returns the engines
    fitted from their sibling with ``LARGE_BATCH_ONLY``."""
    large_only = set()
    for engine in sorted(by_engine, key=lambda e: e.value):
        if engine not in fitted and engine not in es.SIBLING_KERNELS and fits_engine(by_engine[engine]):
            fitted[engine] = fit(engine, by_engine[engine], catalog)
    for engine in sorted(by_engine, key=lambda e: e.value):
        rows, sibling = by_engine[engine], es.SIBLING.get(engine)
        if engine in fitted:
            continue
        if engine in es.SIBLING_KERNELS and fits_engine(rows) and sibling in fitted:
            fitted[engine] = fit(engine, rows, catalog, only=SIBLING_KERNELS_FIT, start=fitted[sibling])
            print(f"# {engine.value}: {len(rows)} calibration rows, {sibling.value}'s kernels "
                  f"(engine_speed.SIBLING_KERNELS): only {', '.join(SIBLING_KERNELS_FIT)} fitted")
        elif len(rows) >= MIN_ROWS and sibling in fitted:
            fitted[engine] = fit(engine, rows, catalog, only=LARGE_BATCH_ONLY, start=fitted[sibling])
            large_only.add(engine)
            print(f"# {engine.value}: {len(rows)} calibration rows, none at batch <= {SMALL_BATCH}: only "
                  f"{', '.join(LARGE_BATCH_ONLY)} fitted, the rest {sibling.value}'s")
        else:
            print(f"# {engine.value}: {len(rows)} calibration rows (< {MIN_ROWS} decode rows at batch "
                  f"<= {SMALL_BATCH}, and no fitted sibling): its constants not fitted")
    for engine in sorted(by_engine, key=lambda e: e.value):
        if engine not in fitted and runs_per_head(by_engine[engine], catalog):
            fit_per_head(by_engine[engine], catalog)
    return large_only


def _print_fitted(fitted: dict, large_only: set) -> None:
    """``es.FITTED`` as Python to paste into engine_speed.py (a prior by its name); an engine that runs its sibling's
    kernels only as its ``SIBLING_KERNELS_FLOOR_S_PER_LAYER`` entry, one fitted on large batches only
    (``large_only``) as its ``LARGE_BATCH_ONLY_COMPUTE`` entry (FITTED derives the rest of both)."""
    def num(value: float, prior: float) -> str:
        return ("PRIOR_BANDWIDTH" if prior == es.PRIOR_BANDWIDTH else "PRIOR_COMPUTE") if value == prior else f"{value:g}"

    floors = {e: f.floor_s_per_layer for e, f in fitted.items() if e in es.SIBLING_KERNELS}
    print("SIBLING_KERNELS_FLOOR_S_PER_LAYER: dict[Engine, float] = {"
          + ", ".join(f"Engine.{e.name}: {v * 1e3:.2f}e-3" for e, v in floors.items()) + "}")
    print("LARGE_BATCH_ONLY_COMPUTE: dict[Engine, float] = {"
          + ", ".join(f"Engine.{e.name}: {fitted[e].compute:g}" for e in sorted(large_only, key=lambda e: e.value)) + "}")
    print("FITTED: dict[Engine, EngineSpeed] = {")
    for engine, f in fitted.items():
        if engine in floors or engine in large_only:
            continue
        kv = "None" if f.kv_bandwidth is None else f"{f.kv_bandwidth:g}"
        kernels = f", kernels_s_per_layer={f.kernels_s_per_layer * 1e3:.3g}e-3" if f.kernels_s_per_layer else ""
        print(f"    Engine.{engine.name}: EngineSpeed(bandwidth={num(f.bandwidth, es.PRIOR_BANDWIDTH)}, "
              f"compute={num(f.compute, es.PRIOR_COMPUTE)}, floor_s_per_layer={f.floor_s_per_layer * 1e3:.2f}e-3, "
              f"kv_bandwidth={kv}{kernels}),")
    print("}")


def main() -> int:
    catalog = load_catalog().catalog
    by_engine = calibration_rows(catalog)
    shipped, shipped_per_head = dict(es.FITTED), es.PER_HEAD_ATTENTION_SHARE
    shipped_quant = dict(es.QUANT_KERNEL_S_PER_LAYER)
    before = {e: loss(rows, catalog) for e, rows in by_engine.items()}
    # The dequantizing kernels' per-layer time is fitted on the engines' shipped constants, then the
    # engines on it (one round: ``test_engine_speed`` checks that each is a fit given the other).
    quant = fit_quant(quant_rows(by_engine), catalog)
    shipped_bnb = es.BNB_INT8_S_PER_LINEAR
    bnb = fit_bnb_int8(bnb_int8_rows(by_engine), catalog) if bnb_int8_rows(by_engine) else shipped_bnb
    es.BNB_INT8_S_PER_LINEAR = bnb
    print(f"# BNB_INT8_S_PER_LINEAR = {bnb * 1e3:.2f}e-3  (engine_speed.py; {len(bnb_int8_rows(by_engine))} calibration "
          "rows with LLM.int8 weights in transformers)")
    print(f"# QUANT_KERNEL_S_PER_LAYER = {{{', '.join(f'{k!r}: {v * 1e3:.2f}e-3' for k, v in sorted(quant.items()))}}}"
          f"  (engine_speed.py; {len(quant_rows(by_engine))} calibration rows with integer weights in "
          "CUDA-graph engines)")
    shipped_host = dict(es.LINEAR_HOST_S)
    host_rows = linear_host_rows(by_engine)
    host = fit_linear_host(host_rows, catalog) if host_rows else shipped_host
    es.LINEAR_HOST_S.update(host)
    print(f"# LINEAR_HOST_S = {{{', '.join(f'{k!r}: {v * 1e3:.3f}e-3' for k, v in sorted(host.items()))}}}  "
          f"(engine_speed.py; {len(host_rows)} calibration rows with GPTQ or AWQ weights in transformers)")
    shipped_exponent = host_cpu.HOST_TIME_EXPONENT
    stated = stated_host_rows(by_engine)
    exponent = fit_host_exponent(stated, catalog) if stated else shipped_exponent
    host_cpu.HOST_TIME_EXPONENT = exponent
    print(f"# HOST_TIME_EXPONENT = {exponent:g}  (host_cpu.py; {len(stated)} calibration rows with a "
          f"stated host: {', '.join(sorted({r['host'] for r in stated}))})")
    shipped_marks = host_cpu.FITTED_MARKS
    marks = fitted_host_marks(stated, catalog, exponent) if stated else shipped_marks
    host_cpu.FITTED_MARKS = marks
    print(f"# FITTED_MARKS = {marks}  (host_cpu.py; the hosts of those rows whose estimate the host time moves by "
          f"{HOST_MOVES_ESTIMATE:.0%} or more)")
    shipped_gguf = gguf_decode_values()
    es.FITTED.clear()
    fitted = {}
    # llama.cpp's decode is its kernels' (``gguf_decode``): its bandwidth share, issue slots per weight and host
    # floor are fitted together, its compute share left at the prior (its prompts' paths have their own shares).
    gguf = (fit_gguf_decode(gguf_decode_rows(by_engine), catalog, start=shipped_gguf) if gguf_decode_rows(by_engine)
            else shipped_gguf)
    fitted[Engine.LLAMA_CPP] = es.FITTED[Engine.LLAMA_CPP]
    print(f"# gguf_decode: ISSUE_PER_WEIGHT = {{FOUR_BIT_UP: {gguf['issue_4bit_up']:g}, LOW_BIT: "
          f"{gguf['issue_low_bit']:g}}}, HOST_LAUNCHED_S_PER_LAYER = {gguf['host_launched'] * 1e3:.3f}e-3, "
          f"HOST_LAUNCHED_S_PER_MOE_LAYER = {gguf['host_moe'] * 1e3:.3f}e-3, "
          f"MOE_DISPATCH_S_PER_LAYER = {gguf['moe_dispatch'] * 1e3:.3f}e-3, llama.cpp kernels_s_per_layer = "
          f"{gguf['layer_kernels'] * 1e3:.3f}e-3  ({len(gguf_decode_rows(by_engine))} llama.cpp calibration decode rows)")
    large_only = _fit_engines(by_engine, catalog, fitted)
    print("# calibration rows per engine and their sources:")
    for engine, rows in sorted(by_engine.items(), key=lambda kv: kv[0].value):
        urls = sorted({r["url"] for r in rows})
        print(f"#   {engine.value}: {len(rows)} rows; mean |ln err| shipped {before[engine]:.3f} -> fitted "
              f"{loss(rows, catalog):.3f}")
        for u in urls:
            print(f"#     {u}")
    speedup, pairs = compile_speedup()
    print(f"# TRAIN_COMPILE_SPEEDUP = {speedup:.2f}  (flops.py; calibration pairs: "
          f"{', '.join(f'{a} / {b}' for a, b in pairs)})")
    for key, (mfu, ids) in sorted(train_mfu_fit(catalog=catalog).items(), key=lambda kv: str(kv[0])):
        table = "TRAIN_MFU_BY_FRAMEWORK" if isinstance(key, tuple) else "TRAIN_MFU_BY_FAMILY"
        print(f"# {table}[{key!r}] = {mfu:.2f}  (flops.py; calibration rows: {', '.join(ids)})")
    for path, (share, ids) in sorted(fit_gguf_paths(catalog).items(), key=lambda kv: kv[0].name):
        print(f"# GGUF_PATH_COMPUTE[GgufPath.{path.name}] = {share:.3f}  (engine_speed.py; calibration rows: "
              f"{', '.join(ids)})")
    _print_fitted(fitted, large_only)
    fitted_per_head = es.PER_HEAD_ATTENTION_SHARE
    es.FITTED.clear()
    es.FITTED.update(shipped)
    es.PER_HEAD_ATTENTION_SHARE = shipped_per_head
    _set_gguf_decode(shipped_gguf)
    es.BNB_INT8_S_PER_LINEAR = shipped_bnb
    es.LINEAR_HOST_S.update(shipped_host)
    host_cpu.HOST_TIME_EXPONENT = shipped_exponent
    host_cpu.FITTED_MARKS = shipped_marks
    es.FITTED.clear()
    es.FITTED.update(shipped)
    same = (all(shipped.get(e) == f for e, f in fitted.items()) and set(shipped) == set(fitted)
            and fitted_per_head == shipped_per_head and quant == shipped_quant and gguf == shipped_gguf
            and bnb == shipped_bnb and host == shipped_host and exponent == shipped_exponent
            and marks == shipped_marks)
    print("shipped constants match this fit" if same else "shipped constants differ from this fit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
