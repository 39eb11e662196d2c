"""The peak memory of a job by mode, with training estimates kept per model and job until the cache is cleared."""

from advisor.core.job.choices import Engine
from advisor.core.job.planned import PlannedJob
from advisor.core.memory.inference import estimate_inference
from advisor.core.memory.peak import clear_cache, estimate_memory
from advisor.core.memory.training import estimate_training
from advisor.core.model.arch import Moe

from tests.core.memory.memory_fixtures import LLAMA2_7B


def test_a_training_estimate_is_kept_until_the_cache_is_cleared():
    job = PlannedJob(mode="train", method="lora")
    first = estimate_memory(LLAMA2_7B, job)
    assert estimate_memory(LLAMA2_7B, PlannedJob(mode="train", method="lora")) is first  # equal jobs, one estimate
    clear_cache()
    again = estimate_memory(LLAMA2_7B, job)
    assert again is not first and again == first == estimate_training(LLAMA2_7B, job)


def test_which_defaults_the_user_set_is_part_of_the_key():
    # Setting the framework's default explicitly is a different job to apply_framework: it keeps a set field.
    unset = estimate_memory(LLAMA2_7B, PlannedJob(mode="train"))
    set_ = estimate_memory(LLAMA2_7B, PlannedJob(mode="train", precision=PlannedJob().precision))
    assert unset is not set_


def test_inference_is_estimated_as_the_engine_version_runs_it():
    moe = LLAMA2_7B.model_copy(update={"id": "moe", "moe": Moe(n_experts=8, n_active=2, expert_ffn_size=11008)})
    old = PlannedJob(engine=Engine.TENSORRT_LLM, engine_version="0.9.0", weights="fp8")
    as_16_bit = old.model_copy(update={"weights": "fp16"})
    assert estimate_memory(moe, old).breakdown.weights == estimate_inference(moe, as_16_bit, None, None).breakdown.weights
    assert estimate_memory(moe, old.model_copy(update={"engine_version": "0.10.0"})).breakdown.weights \
        < estimate_memory(moe, old).breakdown.weights
