"""The job's choices and what each says about itself."""

from advisor.core.job.choices import Engine, Method, Objective


def test_pooled_engines_are_the_ones_with_a_kv_pool_and_gguf_engines_run_llama_cpp():
    assert {e for e in Engine if e.pooled} == {Engine.VLLM, Engine.SGLANG, Engine.TENSORRT_LLM, Engine.DEEPSPEED}
    assert {e for e in Engine if e.gguf} == {Engine.LLAMA_CPP, Engine.OLLAMA}
    assert not {e for e in Engine if e.pooled} & {e for e in Engine if e.gguf}


def test_engines_are_labelled_as_their_users_write_them():
    assert Engine.VLLM.label == "vLLM" and Engine.TENSORRT_LLM.label == "TensorRT-LLM"
    assert Engine.LLAMA_CPP.label == "llama.cpp"  # its own name


def test_only_litgpts_methods_are_adapters_and_every_objective_but_sft_is_paired():
    assert {m for m in Method if m.litgpt_adapter} == {Method.ADAPTER, Method.ADAPTER_V2}
    assert [o for o in Objective if not o.paired] == [Objective.SFT]
