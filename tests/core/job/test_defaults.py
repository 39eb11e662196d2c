"""The default job: a pooled engine serves many sequences, the others run one conversation, training the Job's
defaults; one sentence says it all."""

from advisor.core.job.choices import Engine, Method, Mode
from advisor.core.job.defaults import DEFAULT_ENGINE, ONE_CHAT, SERVING, default_job, default_job_words, shape_words


def test_a_pooled_engine_serves_many_sequences_and_the_others_one():
    served = default_job(Mode.INFERENCE, Engine.VLLM)
    assert (served.context_len, served.batch) == (SERVING["context_len"], SERVING["batch"]) == (8192, 16)
    chat = default_job(Mode.INFERENCE, Engine.LLAMA_CPP)
    assert (chat.context_len, chat.batch) == (ONE_CHAT["context_len"], ONE_CHAT["batch"]) == (4096, 1)
    assert default_job().engine is DEFAULT_ENGINE and default_job().weights == "bf16"


def test_the_default_training_job_is_a_full_fine_tune():
    job = default_job(Mode.TRAIN)
    assert job.mode is Mode.TRAIN and job.method is Method.FULL


def test_the_sentence_names_each_engines_shape():
    assert shape_words(Engine.VLLM) == "16 sequences of 8,192 tokens at once"
    assert shape_words(Engine.LLAMA_CPP) == "one sequence of 4,096 tokens"
    words = default_job_words()
    assert shape_words(Engine.VLLM) in words and shape_words(Engine.LLAMA_CPP) in words
    assert f"a micro-batch of {default_job(Mode.TRAIN).batch} sequence" in words
