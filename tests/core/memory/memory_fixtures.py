"""Models and a helper shared by the memory tests.

The models are the published configs (config.json of meta-llama/Llama-2-7b-hf and meta-llama/Meta-Llama-3-8B).
"""

from __future__ import annotations

from typing import Any

from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.results import MemoryBreakdown
from advisor.core.model.arch import ModelArch

LLAMA2_7B = ModelArch(id="llama-2-7b", name="Llama 2 7B", n_layers=32, hidden_size=4096, n_heads=32,
                      n_kv_heads=32, head_dim=128, ffn_size=11008, vocab_size=32000)

LLAMA3_8B = ModelArch(id="llama-3-8b", name="Llama 3 8B", n_layers=32, hidden_size=4096, n_heads=32,
                      n_kv_heads=8, head_dim=128, ffn_size=14336, vocab_size=128256)

TRAIN: dict[str, Any] = dict(mode="train")


def full_sizes(*args: Any, **kwargs: Any) -> MemoryBreakdown:
    """Each term at its full size (training peaks leave some out of the breakdown at the peak phase)."""
    r = estimate_memory(*args, **kwargs)
    return r.sizes or r.breakdown
