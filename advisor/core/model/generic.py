"""A dense Llama-style decoder of any size: the shape a model of N parameters would have.

Used where only a parameter count is known (``--params 13B``, plot sweeps over size). The
hidden size and the layer count follow the published models: each is interpolated
(log-log, piecewise linear) between the dense presets below and extrapolated along the end
segments' power laws, so both grow steadily with N and the KV cache per token never drops
as N grows (plots sweep sizes). The rest is Llama's recipe (``meta-llama/llama``
``model.py``: SwiGLU MLP, RMSNorm, 8 KV heads as in Llama 2 70B / Llama 3, head size 128,
64 below 2.5k wide as Llama 3.2 1B); query heads are rounded to whole GQA groups.
The MLP width then takes up whatever the rounding leaves (as Llama's
``ffn_dim_multiplier`` does), so ``count_params(generic_decoder(N)).total`` equals N to
well within 0.1 %.

Anchors (total parameters from ``count_params``, hidden size, layers) in ``catalog/models``:
Qwen2.5-0.5B 896/24, Qwen2.5-1.5B 1536/28, Llama 3.2 3B 3072/28, Llama 3.1 8B 4096/32,
Qwen2.5-14B 5120/48, Llama 3.1 70B 8192/80, GPT-3 175B 12288/96, Llama 3.1 405B 16384/126.
Qwen2.5-32B (5120 wide, 5.4x MLP) is left out: it widens the MLP instead of the model.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from functools import lru_cache

from advisor.core.model.arch import ModelArch

MIN_PARAMS = 1e7
MAX_PARAMS = 1e13

# (total parameters, hidden size, layers) of dense presets, ascending.
_ANCHORS: tuple[tuple[float, int, int], ...] = (
    (0.494e9, 896, 24),  # qwen2.5-0.5b
    (1.544e9, 1536, 28),  # qwen2.5-1.5b
    (3.213e9, 3072, 28),  # llama-3.2-3b
    (8.030e9, 4096, 32),  # llama-3.1-8b
    (14.77e9, 5120, 48),  # qwen2.5-14b
    (70.55e9, 8192, 80),  # llama-3.1-70b
    (174.6e9, 12288, 96),  # gpt-3-175b
    (405.9e9, 16384, 126),  # llama-3.1-405b
)
_LOG_N = tuple(math.log(n) for n, _, _ in _ANCHORS)
_LOG_H = tuple(math.log(h) for _, h, _ in _ANCHORS)
_LOG_L = tuple(math.log(layers) for _, _, layers in _ANCHORS)

WIDE_HEADS_FROM = 2560  # Llama 3.2 1B (2048 wide) has 64-wide heads, 3B (3072) 128
KV_HEADS = 8  # Llama 2 70B, Llama 3.x, Mistral, Qwen2.5-14B+: 8 KV heads
KV_HEADS_NARROW = 4  # between Qwen2.5-0.5B/1.5B (2) and Llama 3.2 1B (8)
VOCAB_SMALL = 32000  # Llama 2 / Mistral tokenizer, for models under 1B
VOCAB_LARGE = 128256  # Llama 3 tokenizer
SMALL_MODEL_PARAMS = 1e9
TIED_BELOW_PARAMS = 4e9  # Llama 3.2 1B/3B and Qwen2.5 ≤ 3B tie embeddings; 8B models do not


def _interpolate(n_params: float, log_y: tuple[float, ...]) -> float:
    """Piecewise log-log interpolation over the anchors (extrapolates along the end segments)."""
    x = math.log(n_params)
    i = min(max(bisect_right(_LOG_N, x) - 1, 0), len(_LOG_N) - 2)
    slope = (log_y[i + 1] - log_y[i]) / (_LOG_N[i + 1] - _LOG_N[i])
    return math.exp(log_y[i] + slope * (x - _LOG_N[i]))


def _heads_layout(n_params: float) -> tuple[int, int]:
    """(head size, KV heads): 128 and 8 from 2.5k wide up; 64 and 4 below, where Llama 3.2 1B
    (8 KV heads) and Qwen2.5-0.5B/1.5B (2) lie either side. KV per token never shrinks with N."""
    return (128, KV_HEADS) if _interpolate(n_params, _LOG_H) >= WIDE_HEADS_FROM else (64, KV_HEADS_NARROW)


def hidden_size_for(n_params: float) -> int:
    """Hidden size a dense model of ``n_params`` has, rounded to 128 (64 when narrow)."""
    step = _heads_layout(n_params)[0]
    return max(step, round(_interpolate(n_params, _LOG_H) / step) * step)


def query_heads_for(n_params: float) -> int:
    """Query heads: the hidden width in heads, rounded to whole groups per KV head (GQA needs
    a multiple); the attention width may then differ a little from the hidden size, as in Gemma."""
    head_dim, n_kv = _heads_layout(n_params)
    return n_kv * max(1, round(_interpolate(n_params, _LOG_H) / (n_kv * head_dim)))


def layers_for(n_params: float) -> int:
    return max(1, round(_interpolate(n_params, _LOG_L)))


@lru_cache(maxsize=8192)
def generic_decoder(n_params: float) -> ModelArch:
    """A dense decoder whose ``count_params(...).total`` is ``n_params`` (1e7 to 1e13)."""
    if not MIN_PARAMS <= n_params <= MAX_PARAMS:
        raise ValueError(f"parameter count {n_params:.3g} is outside {MIN_PARAMS:.0e} to {MAX_PARAMS:.0e}")
    h = hidden_size_for(n_params)
    head_dim, n_kv = _heads_layout(n_params)
    n_heads = query_heads_for(n_params)
    vocab = VOCAB_SMALL if n_params < SMALL_MODEL_PARAMS else VOCAB_LARGE
    tied = n_params < TIED_BELOW_PARAMS
    embeddings = vocab * h * (1 if tied else 2)
    attention = 2 * h * n_heads * head_dim + 2 * h * n_kv * head_dim  # q, o + k, v
    body = n_params - embeddings - h  # final norm
    n_layers = layers_for(n_params)
    # The MLP takes up the rest: solve 3·h·ffn per layer (+ two RMSNorms) for the remainder.
    ffn = max(1, round((body / n_layers - attention - 2 * h) / (3 * h)))
    label = f"{n_params / 1e9:.4g}".replace("+", "")
    return ModelArch(
        id=f"generic-{label}b",
        name=f"Generic {label}B dense decoder",
        family="generic",
        n_layers=n_layers,
        hidden_size=h,
        n_heads=n_heads,
        n_kv_heads=n_kv,
        head_dim=head_dim,
        ffn_size=ffn,
        vocab_size=vocab,
        tied_embeddings=tied,
        max_context=131072,
        notes="Shape interpolated from published Llama/Qwen configs (advisor.core.model.generic); not a real model.",
    )
