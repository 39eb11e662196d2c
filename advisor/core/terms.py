"""The terms a memory estimate is made of, in the order every view stacks them, and their names in a buyer's words.

Beside the units and the schema at the bottom of the core: the results name them (``memory.results``), and the
plots, which import nothing that computes, draw and label them."""

from __future__ import annotations

MEMORY_TERMS = ("weights", "reference_weights", "kv_cache", "activations", "gradients", "optimizer", "adapters",
                "buffers", "allocator", "runtime")
#: A term in a buyer's words where its field name is not (CLI text, window, PDF).
TERM_LABELS = {"reference_weights": "reference model"}


def term_label(term: str) -> str:
    """'reference model' for reference_weights, 'kv cache' for kv_cache…"""
    return TERM_LABELS.get(term, term.replace("_", " "))
