"""Builds of an era the app does not model: a row that timed one is a known gap, not scored (the app models current
builds and has no build option). Each era starts on a dated change in the engine's code or release."""

from __future__ import annotations

import re

from advisor.core.speed.gguf_paths import FLOAT_FORMATS


def build_date(row: dict[str, str]) -> str:
    """The date of the build a row timed: the one its ``engine_version`` states ('acbed3ef (2023-10-06)'), else its
    ``source_date`` ('' when neither says)."""
    m = re.search(r"\((\d{4}-\d{2}-\d{2})\)", row.get("engine_version") or "")
    return m.group(1) if m else (row.get("source_date") or "").strip()


#: llama.cpp's CUDA decode replays a CUDA graph per token on compute capability 8.0 and later since PR #6766
#: (merged 2024-05-08 as bc4bba36; described 2024-04-19, so rows of April 2024 ran builds without it) and on 7.x since PR #25749 (merged before 2026-08-25: PR #27721 of that date describes the gate
#: at GGML_CUDA_CC_VOLTA; its own date is not in this workplace's stores), the builds the app models
#: (``gguf_decode.host_launched``).
CUDA_GRAPHS_SINCE = (((8, 0), "2024-05-08"), ((7, 0), "2026-08"))
#: vLLM replays a CUDA graph per decode step since v0.2.6 (released 2023-12-17; its PR #2154 of that day already
#: exempts GPTQ models from the graphs), the behaviour the app models for it (``engine_speed.CUDA_GRAPH_ENGINES``).
VLLM_CUDA_GRAPHS_SINCE = "2023-12-17"


def pre_graph_build(row: dict[str, str], gpu) -> str | None:
    """Why a decode row of a build before CUDA graphs is not scored (llama.cpp on its card's compute capability,
    ``CUDA_GRAPHS_SINCE``; vLLM, ``VLLM_CUDA_GRAPHS_SINCE``); None otherwise. Such a build launched every kernel of a
    token from the host: a known gap (the app models current builds and has no build option), not scored."""
    date = build_date(row)
    if row["group"] != "decode" or not date:
        return None
    if row["engine"] == "vllm":
        since, what = VLLM_CUDA_GRAPHS_SINCE, f"a vLLM build before CUDA graphs (v0.2.6 of {VLLM_CUDA_GRAPHS_SINCE})"
    elif row["engine"] in ("llama.cpp", "ollama") and gpu.cc is not None:
        since = next((d for cc, d in CUDA_GRAPHS_SINCE if gpu.cc >= cc), "")
        what = f"a llama.cpp build before CUDA graphs on compute capability {gpu.compute_capability}"
    else:
        return None
    if date < since:
        return (f"known gap: {what} (dated {date}): every kernel of a token launched from the host; the app models "
                "current builds")
    return None


#: When llama.cpp's quantized prompts reached each AMD family's matrix units (MMQ on MFMA or WMMA); before it, MMQ ran
#: there on the vector units, several times slower: (gfx prefix, family, first date, PR). PR #17576 ("HIP: enable
#: WMMA-MMQ INT kernels for RDNA 3", described 2025-11-28, merged after it; no row is dated between the two); PR #17156
#: ("HIP: WMMA-MMQ kernels for RDNA 4", described 2025-11-10); PR #14624 ("HIP: Enable Matrix cores for MMQ Kernels,
#: Enable stream-K for CDNA 3", described 2025-07-10, reviewed until 2025-07-22); PR #14949 ("HIP: enable mfma mmq on
#: gfx908 and gfx90a for select datatypes and shapes", described 2025-07-29). The app models current builds: a
#: quantized prompt on such a GPU dated before its PR is a known gap.
AMD_MATRIX_MMQ_SINCE = (("gfx11", "RDNA 3", "2025-11-28", "#17576"), ("gfx12", "RDNA 4", "2025-11-10", "#17156"),
                        ("gfx942", "CDNA 3", "2025-07-10", "#14624"), ("gfx90a", "CDNA 2", "2025-07-29", "#14949"),
                        ("gfx908", "CDNA 1", "2025-07-29", "#14949"))


def pre_matrix_mmq_build(row: dict[str, str], gpu) -> str | None:
    """Why a llama.cpp quantized prompt on an AMD GPU of a build before MMQ used its matrix units is not scored
    (``AMD_MATRIX_MMQ_SINCE``); None otherwise."""
    if row["engine"] not in ("llama.cpp", "ollama") or row["group"] != "prefill" or row["weights"].lower() in FLOAT_FORMATS:
        return None
    date, target = build_date(row), gpu.gfx_target or ""
    for prefix, family, since, pr in AMD_MATRIX_MMQ_SINCE:
        if target.startswith(prefix) and date and date < since:
            return (f"known gap: a llama.cpp build before matrix-unit MMQ on {family} ({target}, dated {date}; PR {pr}): "
                    "quantized prompts ran MMQ on the vector units; the app models current builds")
    return None


#: vLLM's V1 engine (the scheduler, the model runner with piecewise CUDA graphs under torch.compile, the persistent
#: batch; "near-zero CPU overhead": blog.vllm.ai/2025/01/27/v1-alpha-release.html) is the default since v0.8.0
#: (PR #13726; released 2025-03-18: PR #15064 of that day updates the V1 guide to "V1 is now enabled by default"),
#: and the only engine since V0's removal. The app models it. Rows of an earlier release, or of an unstated release
#: dated before v0.8.0, ran V0: on the calibration rows V0 read +8.9 % fast at the median (33 rows of 4 sources, one
#: GPU, 7B and larger) and V1 -8.0 % slow (65 rows of 27 sources) under one fitted bandwidth share (twenty-fourth
#: session), so V0 rows are a known gap, not a second constant.
VLLM_V1_SINCE = ((0, 8), "2025-03-18")


def pre_v1_vllm(row: dict[str, str]) -> str | None:
    """Why a vLLM inference row of a release before its V1 engine (``VLLM_V1_SINCE``) is not scored; None otherwise:
    the row's stated release, else its build date."""
    if row["engine"] != "vllm" or row["group"] == "train":
        return None
    version, since = VLLM_V1_SINCE
    m = re.match(r"v?(\d+)\.(\d+)", (row.get("engine_version") or "").strip())
    stated = m is not None and (int(m[1]), int(m[2])) < version
    date = build_date(row)
    if stated or (m is None and date and date < since):
        return (f"known gap: a vLLM release before its V1 engine (v0.8.0 of {since}; "
                f"{'release ' + m[0] if stated else 'dated ' + date}): the app models V1")
    return None
