"""A dense Llama-style decoder of any size: the shape a model of N parameters would have.

Used where only a parameter count is known (``--params 13B``, plot sweeps over size). The
hidden size follows the published models: it is interpolated (log-log, piecewise linear)
between the dense presets below and extrapolated along the end segments' power laws. The
rest is Llama's recipe (``meta-llama/llama`` ``model.py``: SwiGLU MLP of 2/3·4·hidden
rounded up to a multiple of 256, RMSNorm, head size 128 (64 below 1024 wide), KV heads the
divisor of the head count nearest to the 8 of Llama 2 70B / Llama 3). The layer count is then solved so the total comes to N, and the MLP width takes
up what rounding the layers leaves (as Llama's ``ffn_dim_multiplier`` does), so
``count_params(generic_decoder(N)).total`` equals N to well within 0.1 %.

Anchors (hidden size at the total ``count_params`` gives for the preset):
Qwen2.5-0.5B 896, Qwen2.5-1.5B 1536, Llama 3.2 3B 3072, Llama 3.1 8B 4096, Qwen2.5-14B 5120,
Llama 3.1 70B 8192, GPT-3 175B 12288, Llama 3.1 405B 16384 (``catalog/models``). Qwen2.5-32B
(5120 wide, 5.4x MLP) is left out: it widens the MLP instead of the model.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from functools import lru_cache

from advisor.core.llm import ModelArch

MIN_PARAMS = 1e7
MAX_PARAMS = 1e13

# (total parameters, hidden size) of dense presets, ascending.
_ANCHORS: tuple[tuple[float, int], ...] = (
    (0.494e9, 896),  # qwen2.5-0.5b
    (1.544e9, 1536),  # qwen2.5-1.5b
    (3.213e9, 3072),  # llama-3.2-3b
    (8.030e9, 4096),  # llama-3.1-8b
    (14.77e9, 5120),  # qwen2.5-14b
    (70.55e9, 8192),  # llama-3.1-70b
    (174.6e9, 12288),  # gpt-3-175b
    (405.9e9, 16384),  # llama-3.1-405b
)
_LOG_N = tuple(math.log(n) for n, _ in _ANCHORS)
_LOG_H = tuple(math.log(h) for _, h in _ANCHORS)

LLAMA_FFN_MULTIPLE = 256  # meta-llama/llama model.py: multiple_of=256
KV_HEADS = 8  # Llama 2 70B, Llama 3.x, Mistral, Qwen2.5-14B+: 8 KV heads
VOCAB_SMALL = 32000  # Llama 2 / Mistral tokenizer, for models under 1B
VOCAB_LARGE = 128256  # Llama 3 tokenizer
SMALL_MODEL_PARAMS = 1e9
TIED_BELOW_PARAMS = 4e9  # Llama 3.2 1B/3B and Qwen2.5 ≤ 3B tie embeddings; 8B models do not


def hidden_size_for(n_params: float) -> int:
    """Hidden size a dense model of ``n_params`` has, rounded to whole heads."""
    x = math.log(n_params)
    i = min(max(bisect_right(_LOG_N, x) - 1, 0), len(_LOG_N) - 2)  # segment (extrapolates at the ends)
    slope = (_LOG_H[i + 1] - _LOG_H[i]) / (_LOG_N[i + 1] - _LOG_N[i])
    hidden = math.exp(_LOG_H[i] + slope * (x - _LOG_N[i]))
    step = 128 if hidden >= 1024 else 64
    return max(step, round(hidden / step) * step)


def _kv_heads_for(n_heads: int) -> int:
    """The divisor of ``n_heads`` nearest to 8 KV heads (the larger one on a tie: more KV cache, not less)."""
    divisors = [d for d in range(1, n_heads + 1) if n_heads % d == 0]
    return min(divisors, key=lambda d: (abs(d - KV_HEADS), -d))


def _ffn_for(hidden: int) -> int:
    """Llama's SwiGLU width: int(2·4h/3) rounded up to a multiple of 256."""
    ffn = int(2 * 4 * hidden / 3)
    return LLAMA_FFN_MULTIPLE * math.ceil(ffn / LLAMA_FFN_MULTIPLE)


@lru_cache(maxsize=8192)
def generic_decoder(n_params: float) -> ModelArch:
    """A dense decoder whose ``count_params(...).total`` is ``n_params`` (1e7 to 1e13)."""
    if not MIN_PARAMS <= n_params <= MAX_PARAMS:
        raise ValueError(f"parameter count {n_params:.3g} is outside {MIN_PARAMS:.0e} to {MAX_PARAMS:.0e}")
    h = hidden_size_for(n_params)
    head_dim = 128 if h >= 1024 else 64
    n_heads = h // head_dim
    n_kv = _kv_heads_for(n_heads)
    vocab = VOCAB_SMALL if n_params < SMALL_MODEL_PARAMS else VOCAB_LARGE
    tied = n_params < TIED_BELOW_PARAMS
    embeddings = vocab * h * (1 if tied else 2)
    attention = 2 * h * h + 2 * h * n_kv * head_dim  # q, o + k, v
    per_layer = attention + 3 * h * _ffn_for(h) + 2 * h  # + two RMSNorms
    body = n_params - embeddings - h  # final norm
    n_layers = max(1, round(body / per_layer))
    # The MLP absorbs what whole layers cannot: solve 3·h·ffn per layer for the remainder.
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
        notes="Shape interpolated from published Llama/Qwen configs (advisor.core.generic); not a real model.",
    )
