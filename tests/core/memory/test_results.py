"""The memory breakdown: what the device needs, what PyTorch would report allocated and reserved."""

import pytest

from advisor.core.memory.results import MemoryBreakdown
from advisor.core.terms import MEMORY_TERMS


def test_the_total_is_every_term_and_the_allocator_figures_leave_out_what_it_never_sees():
    b = MemoryBreakdown(weights=10, kv_cache=2, activations=3, gradients=4, optimizer=8, allocator=1.5, runtime=0.5,
                        paged=6, host=100, disk=1000)  # paged: a part of the optimizer term
    assert b.total == pytest.approx(sum(getattr(b, t) for t in MEMORY_TERMS)) == 29.0  # host and disk are not on it
    assert b.peak_reserved == pytest.approx(29.0 - 0.5 - 6)  # paged states live in CUDA unified memory
    assert b.peak_allocated == pytest.approx(b.peak_reserved - 1.5)
    assert b.model_dump()["total"] == b.total  # the computed field travels with the breakdown


def test_a_breakdown_has_a_field_for_every_term():
    assert set(MEMORY_TERMS) <= set(MemoryBreakdown.model_fields)
