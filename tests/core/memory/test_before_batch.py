"""A training estimate's part before the micro-batch: the degrees of parallelism, the model states each GPU
holds, what each layer saves (``memory.before_batch``)."""

import pytest

from advisor.core.job.frameworks import with_framework_defaults
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.activations import FULL_TRAINING
from advisor.core.memory.before_batch import before_batch
from advisor.core.model.params import ADAPTER_START_LAYER

from tests.core.memory.memory_fixtures import LLAMA2_7B


def _before(notes=None, **job):
    return before_batch(LLAMA2_7B, with_framework_defaults(PlannedJob(mode="train", **job)), notes)


@pytest.mark.parametrize(("parallel", "wdiv", "gdiv", "odiv"), [("ddp", 1, 1, 1), ("zero1", 1, 1, 8),
                                                                 ("zero2", 1, 8, 8), ("fsdp", 8, 8, 8)])
def test_each_scheme_shards_what_zero_says(parallel, wdiv, gdiv, odiv):
    one, eight = _before(), _before(n_gpus=8, parallel=parallel)
    assert (eight.gdiv, eight.odiv) == (gdiv, odiv)
    assert eight.weights == pytest.approx(one.weights / wdiv)
    assert eight.grads == pytest.approx(one.grads / gdiv) and eight.optim == pytest.approx(one.optim / odiv)


def test_a_full_fine_tune_saves_every_input_and_lora_only_what_its_adapters_need():
    full, lora = _before(), _before(method="lora")
    assert full.saved == FULL_TRAINING and not full.lora and full.adapters == 0.0
    assert lora.lora and lora.saved != FULL_TRAINING and lora.adapters > 0
    assert lora.trainable < full.trainable / 100


def test_an_adapter_saves_nothing_below_its_first_adapted_layer():
    assert _before(method="adapter").layers == LLAMA2_7B.n_layers - ADAPTER_START_LAYER
    assert _before(method="lora").layers == LLAMA2_7B.n_layers


def test_the_pipeline_first_stage_holds_a_micro_batch_per_stage_in_flight():
    b = _before(n_gpus=4, parallel="pp", grad_accum_steps=8)
    assert (b.stages, b.in_flight, b.layers) == (4, 4, 8)


def test_its_words_say_the_sharding_and_the_trained_part():
    notes: list[str] = []
    _before(notes, n_gpus=8, parallel="zero2", method="lora")
    assert any("over 8 data-parallel GPUs" in n for n in notes)
    assert any("trainable params" in n for n in notes) and any(n.startswith("frozen base weights") for n in notes)
