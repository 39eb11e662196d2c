"""Every numeric field of the catalog records and the model architecture has a physical range.

A bandwidth of 1e-308, a TDP or price of 1e308 or a vocabulary of 10^400 passed the schema and
crashed estimate, report and show; now each is refused where it is read, naming the range.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any

import pytest
from pydantic import TypeAdapter, ValidationError

from advisor.core.hardware import records
from advisor.core.model import arch

MODELS = [records.PricePoint, records.NvLink, records.Gpu, records.Topology, records.BuildGpu, records.Build,
          records.PrebuiltSystem, records.CloudPrice, records.CloudInstance, records.ResolvedBuild,
          arch.AttentionLayout, arch.Moe, arch.ModelArch]


def _numeric(annotation: Any) -> type | None:
    """int or float when the annotation is a number (possibly optional, annotated, or a tuple of them)."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _numeric(typing.get_args(annotation)[0])
    if origin in (typing.Union, __import__("types").UnionType, tuple):
        found = {_numeric(a) for a in typing.get_args(annotation) if a is not type(None) and a is not Ellipsis}
        found.discard(None)
        return found.pop() if len(found) == 1 else None
    return annotation if annotation in (int, float) else None


def _fields() -> list[tuple[str, Any, type]]:
    out = []
    for model in MODELS:
        for name, info in model.model_fields.items():
            kind = _numeric(info.annotation)
            if kind is not None and name != "schema_version":
                ann = Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
                out.append((f"{model.__name__}.{name}", ann, kind))
    return out


FIELDS = _fields()


def _absurd(annotation: Any) -> Any:
    """A value of the annotation's shape whose first number is absurdly large (10^400 or 1e308)."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Annotated:
        return _absurd(args[0])
    if origin in (typing.Union, __import__("types").UnionType):
        return _absurd(next(a for a in args if a is not type(None)))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (_absurd(args[0]),)
        return (_absurd(args[0]), *(0 for _ in args[1:]))
    return 10**400 if annotation is int else 1e308


def test_the_walk_finds_the_fields_of_the_issue():
    names = {n for n, _, _ in FIELDS}
    assert {"Gpu.tdp_w", "Gpu.mem_bandwidth_gb_per_s", "Gpu.bf16_tflops_dense", "PricePoint.usd",
            "ModelArch.vocab_size", "Build.platform_cost_usd", "CloudPrice.usd_per_hour"} <= names


@pytest.mark.parametrize(("name", "annotation", "kind"), FIELDS, ids=[f[0] for f in FIELDS])
def test_every_numeric_field_refuses_an_absurd_size(name, annotation, kind):
    adapter = TypeAdapter(annotation)
    value = _absurd(annotation)
    with pytest.raises(ValidationError) as info:
        adapter.validate_python(value)
    message = info.value.errors()[0]["msg"]
    assert "between" in message or "less than" in message or "finite" in message


@pytest.mark.parametrize(("field", "value", "expect"), [
    ("tdp_w", 1e308, "must be between 1 and 10,000 W"),
    ("mem_bandwidth_gb_per_s", 1e-308, "must be between 1 and 100,000 GB/s"),
    ("fp32_tflops", 1e-308, "must be between 0.01 and 1,000,000 TFLOP/s"),
    ("memory_gib", 1e308, "must be between 0.25 and 16,384 GiB"),
])
def test_the_error_names_the_range(field, value, expect):
    from tests.catalog_fixtures import gpu_data

    with pytest.raises(ValidationError, match=expect):
        records.Gpu.model_validate(gpu_data(**{field: value}))


def test_a_vocabulary_of_10_to_the_400_is_refused():
    with pytest.raises(ValidationError, match="vocab_size"):
        arch.ModelArch.model_validate({"id": "m", "name": "m", "n_layers": 2, "hidden_size": 64, "n_heads": 4,
                                       "n_kv_heads": 4, "head_dim": 16, "ffn_size": 128, "vocab_size": 10**400})


def test_ranges_do_not_refuse_anything_shipped():
    from advisor.storage.catalog_store import load_catalog

    assert [str(p) for p in load_catalog().problems] == []
