"""The training estimate's caches: workloads equal but differing in what the user set are told apart, and
the parts kept without the micro-batch give the full estimate's figures."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.core.job.choices import (
    LORA_TARGETS,
    ActivationQuant,
    AttentionImpl,
    Checkpointing,
    Framework,
    Loss,
    Method,
    Mode,
    Objective,
    Offload,
    Optimizer,
    Parallel,
    Precision,
)
from advisor.core.job.frameworks import apply_framework
from advisor.core.job.planned import PlannedJob
from advisor.core.memory import peak, training
from advisor.core.memory.peak import estimate_memory
from advisor.core.memory.training import estimate_training
from advisor.core.model.generic import generic_decoder


def test_a_precision_set_to_its_default_is_not_served_the_frameworks_default():
    """LitGPT trains in pure bf16 unless the precision is set: amp (fp32 master and states) set explicitly equals the default
    value, so the two workloads are equal, yet their estimates differ; each gets its own, in
    either order (the cache served the first one's to both)."""
    arch = generic_decoder(7e9)
    unset = PlannedJob(mode="train", method="full", framework="litgpt", batch=3)
    explicit = PlannedJob(mode="train", method="full", framework="litgpt", batch=3, precision="amp")
    assert unset == explicit
    want = [estimate_training(arch, w).breakdown for w in (unset, explicit)]  # (equal keys: not a dict)
    assert want[0] != want[1]
    for order in ((0, 1), (1, 0)):
        peak.clear_cache()
        for i in order:
            for detail in (True, False):
                assert estimate_memory(arch, (unset, explicit)[i], detail=detail).breakdown == want[i]


def test_only_the_cache_keys_fields_being_set_changes_the_frameworks_defaults():
    """Every other field, set to its default value, leaves ``apply_framework``'s answer as when unset
    (so the cache may key on ``_SET_BY_USER`` alone)."""
    bases = [{"mode": "train", "method": m, "framework": f} for m in ("full", "lora", "qlora", "adapter")
             for f in ("hf", "torchtune", "torchtitan", "litgpt", "axolotl", "unsloth", "deepspeed", "horovod")]
    for base in bases:
        unset = PlannedJob(**base)
        for name in PlannedJob.model_fields:
            if name in peak._SET_BY_USER or name in base:
                continue
            explicit = PlannedJob(**base, **{name: getattr(unset, name)})
            a, b = apply_framework(unset), apply_framework(explicit)
            assert a == b, name


@st.composite
def _jobs(draw):
    """Training jobs of every method, objective, framework, scheme and offload, with the options whose
    memory is computed outside the activations (sharding, offload, paged states, accumulation)."""
    method = draw(st.sampled_from(list(Method)))
    n_gpus = draw(st.sampled_from([1, 2, 4, 8]))
    parallel = (draw(st.sampled_from([p for p in Parallel if p is not Parallel.LAYER_SPLIT])) if n_gpus > 1
                else Parallel.NONE)
    fields = {
        "mode": Mode.TRAIN, "method": method, "n_gpus": n_gpus, "parallel": parallel,
        "batch": draw(st.integers(1, 64)), "seq_len": draw(st.sampled_from([128, 1000, 2048, 8192])),
        "framework": draw(st.sampled_from(list(Framework))), "objective": draw(st.sampled_from(list(Objective))),
        "optimizer": draw(st.sampled_from(list(Optimizer))),
        "checkpointing": draw(st.sampled_from(list(Checkpointing))),
        "offload": draw(st.sampled_from([(), (Offload.OPTIMIZER,), (Offload.OPTIMIZER, Offload.PARAMS),
                                         (Offload.OPTIMIZER, Offload.NVME),
                                         (Offload.OPTIMIZER, Offload.PARAMS, Offload.NVME)])),
        "grad_accum_steps": draw(st.sampled_from([1, 4])),
        "activation_offload": draw(st.sampled_from([None, True, False])),
    }
    if method is Method.QLORA:
        fields["weights"] = "nf4"
    if draw(st.booleans()):
        fields["precision"] = draw(st.sampled_from(list(Precision)))
    return PlannedJob(**fields)


#: Other values of the fields a training estimate reads besides the micro-batch: a job is met first with one
#: of them changed, so a cache key that left that field out would serve the other job's parts.
_OTHER_VALUES = {
    "method": list(Method), "objective": list(Objective), "optimizer": list(Optimizer), "precision": list(Precision),
    "checkpointing": list(Checkpointing), "framework": list(Framework), "n_gpus": [1, 2, 4, 8], "parallel": list(Parallel),
    "offload": [(), (Offload.OPTIMIZER,), (Offload.OPTIMIZER, Offload.PARAMS), (Offload.OPTIMIZER, Offload.NVME)],
    "grad_accum_steps": [1, 4], "activation_offload": [None, True, False], "optimizer_in_backward": [None, True, False],
    "lora_rank": [None, 8, 64], "lora_targets": [("q", "v"), LORA_TARGETS, ("all-linear",)],
    "weights": ["bf16", "nf4", "fp4"], "double_quant": [False, True], "loss": [None, *Loss], "loss_chunks": [8, 16],
    "compile": [None, True, False], "bnb_legacy": [False, True], "activation_quant": list(ActivationQuant),
    "attention": list(AttentionImpl), "checkpoint_every": [1, 2], "precompute_ref": [False, True], "tp": [1, 2],
    "cp": [1, 2], "expandable_segments": [False, True], "kbit_upcast": [False, True], "keeps_output": [False, True],
}


@settings(max_examples=150, deadline=None)
@given(job=_jobs(), model=st.sampled_from(["llama-3.1-8b", "qwen2.5-0.5b", "mixtral-8x7b", "gemma-2-9b", "phi-3-mini"]),
       others=st.fixed_dictionaries({f: st.sampled_from(v) for f, v in _OTHER_VALUES.items()}),
       other_batch=st.integers(1, 64), other_seq=st.sampled_from([64, 2048, 4096]))
def test_the_parts_kept_without_the_micro_batch_give_the_full_estimates_figures(catalog, job, model, others,
                                                                                 other_batch, other_seq):
    # For speed, without the words, what does not read the batch or the sequence length is kept per
    # model and job. The job is met first with another micro-batch, or with another micro-batch and
    # one other field changed (each in turn): it still gets the figures of a full estimate.
    arch = catalog.models[model]
    training._BATCH_FREE_CACHE.clear()
    try:
        full = estimate_training(arch, job)  # computed cold
    except ValueError:  # a job the estimator refuses (an unknown format): refused alike below
        with pytest.raises(ValueError):
            estimate_training(arch, job, detail=False)
        return
    for first in ({"seq_len": other_seq}, *({name: value} for name, value in others.items())):
        training._BATCH_FREE_CACHE.clear()
        for detail in (False, True):
            try:
                estimate_training(arch, job.model_copy(update={"batch": other_batch, **first}), detail=detail)
            except ValueError:
                pass
        quick, words = estimate_training(arch, job, detail=False), estimate_training(arch, job)
        assert quick.breakdown == full.breakdown, first
        assert (quick.params_total, quick.params_trainable) == (full.params_total, full.params_trainable)
        assert words == full, first  # the words too, in the same order, and the terms' full sizes
