"""The training estimate's cache tells apart workloads that are equal but differ in what the user set."""

from __future__ import annotations

from advisor.core.job.frameworks import apply_framework
from advisor.core.job.workload import Workload
from advisor.core.memory import peak
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.training import estimate_training
from advisor.core.model.generic import generic_decoder


def test_a_precision_set_to_its_default_is_not_served_the_frameworks_default():
    """LitGPT trains in pure bf16 unless the precision is set: amp (fp32 master and states) set explicitly equals the default
    value, so the two workloads are equal, yet their estimates differ; each gets its own, in
    either order (the cache served the first one's to both)."""
    arch = generic_decoder(7e9)
    unset = Workload(mode="train", method="full", framework="litgpt", batch=3)
    explicit = Workload(mode="train", method="full", framework="litgpt", batch=3, precision="amp")
    assert unset == explicit
    want = [estimate_training(arch, w).breakdown for w in (unset, explicit)]  # (equal keys: not a dict)
    assert want[0] != want[1]
    for order in ((0, 1), (1, 0)):
        peak._training.cache_clear()
        for i in order:
            for detail in (True, False):
                assert estimate_memory(arch, (unset, explicit)[i], detail=detail).breakdown == want[i]


def test_only_the_cache_keys_fields_being_set_changes_the_frameworks_defaults():
    """Every other field, set to its default value, leaves ``apply_framework``'s answer as when unset
    (so the cache may key on ``_SET_BY_USER`` alone)."""
    bases = [dict(mode="train", method=m, framework=f) for m in ("full", "lora", "qlora", "adapter")
             for f in ("hf", "torchtune", "torchtitan", "litgpt", "axolotl", "unsloth", "deepspeed", "horovod")]
    for base in bases:
        unset = Workload(**base)
        for name, field in Workload.model_fields.items():
            if name in peak._SET_BY_USER or name in base:
                continue
            explicit = Workload(**base, **{name: getattr(unset, name)})
            a, b = apply_framework(unset), apply_framework(explicit)
            assert a == b, name
