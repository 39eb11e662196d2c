"""The job's derived answers: a request, scores through memory, the foreach AdamW, the LoRA rank in use."""

import pytest
from pydantic import ValidationError

from advisor.core.job.choices import AttentionImpl, Engine, Optimizer, OptimizerKernel
from advisor.core.job.job import Job


def test_a_request_is_a_prompt_shorter_than_the_context():
    assert Job(context_len=4096, prompt_tokens=512).is_request
    assert not Job(context_len=4096, prompt_tokens=4096).is_request and not Job(context_len=4096).is_request
    assert not Job(mode="train", context_len=4096, prompt_tokens=512).is_request


@pytest.mark.parametrize(("engine", "attention", "in_memory"), [
    (Engine.TRANSFORMERS, AttentionImpl.EAGER, True), (Engine.TRANSFORMERS, AttentionImpl.SDPA, False),
    (Engine.TRANSFORMERS, AttentionImpl.FLASH, False), (Engine.LLAMA_CPP, AttentionImpl.FLASH, False),
    (Engine.LLAMA_CPP, AttentionImpl.SDPA, True), (Engine.OLLAMA, AttentionImpl.FLASH, False),
    (Engine.OLLAMA, AttentionImpl.SDPA, True),  # current Ollama: llama-server --flash-attn auto, unless turned off
    (Engine.VLLM, AttentionImpl.EAGER, False),  # vLLM fuses its attention whatever the option says
])
def test_which_prompts_write_their_scores_to_memory(engine, attention, in_memory):
    assert Job(engine=engine, attention=attention).scores_in_memory is in_memory


def test_adamw_is_foreach_unless_the_fused_kernel_is_chosen():
    assert Job(mode="train").foreach_adamw  # no kernel chosen: PyTorch's own default
    assert not Job(mode="train", optimizer_kernel=OptimizerKernel.FUSED).foreach_adamw
    assert not Job(mode="train", optimizer=Optimizer.SGD).foreach_adamw


def test_the_lora_rank_defaults_to_16():
    assert Job(method="lora").lora_rank_effective == 16
    assert Job(method="lora", lora_rank=64).lora_rank_effective == 64


def test_a_job_refuses_a_subnormal_epoch_count():
    with pytest.raises(ValidationError):
        Job(mode="train", epochs=1e-320)


def test_a_gguf_engines_micro_batch_is_llama_cpps_option_or_its_default():
    # llama.cpp runs --ubatch-size; Ollama runs llama.cpp's default n_ubatch, 512 (common/common.h)
    assert Job(engine="llama.cpp", ubatch_tokens=128).gguf_ubatch_tokens == 128
    assert Job(engine="ollama", ubatch_tokens=128).gguf_ubatch_tokens == 512
    assert Job().ubatch_tokens == 512

