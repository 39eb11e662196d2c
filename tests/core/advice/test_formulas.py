"""Help ▸ Formulas and the PDF show the constants the estimator really uses."""

import pytest

from advisor.core.advice.formulas import formulas
from advisor.core.hardware import allreduce, interconnect
from advisor.core.job.choices import Engine
from advisor.core.speed import engine_speed, flops


def test_every_formula_names_a_source():
    entries = formulas()
    assert len(entries) >= 10
    assert all(f.sources and f.formula for f in entries)


def test_constants_shown_are_the_ones_used():
    text = " ".join(f.formula for f in formulas())
    assert f"{flops.TRAIN_MFU:.0%}" in text
    assert f"NVIDIA sm_80 GPUs {flops.TRAIN_MFU_BY_FAMILY['NVIDIA sm_80']:.0%}" in text
    assert f"Hugging Face on NVIDIA sm_90 {flops.TRAIN_MFU_BY_FRAMEWORK[('hf', 'NVIDIA sm_90')]:.0%}" in text
    assert "fused AdamW at decode's bandwidth share (0.70, llama.cpp's RTX 3090 tg128; AMP: 30 bytes per trained " \
        "parameter)" in text
    assert "foreach AdamW passes over each state several times (72 bytes)" in text  # optimizer_step_bytes_per_param
    assert f"× {flops.TRAIN_COMPILE_SPEEDUP:g} with torch.compile" in text
    assert f"{interconnect.PCIE_HOST_EFFICIENCY:.0%}" in text
    assert f"{flops.DECODE_BANDWIDTH_EFFICIENCY:.2f}" in text
    vllm = engine_speed.FITTED[Engine.VLLM]
    assert f"vllm b {vllm.bandwidth:.2f} c {vllm.compute:.2f} floor {vllm.floor_s_per_layer * 1e3:.2f} ms/layer" in text
    # QUANT_KERNEL_S_PER_LAYER: the 4-bit time fitted at 0 since V0 vLLM rows left the fit, the 8-bit one 0.01 ms
    assert "weights in vLLM, SGLang, TensorRT-LLM or DeepSpeed plus 0.01 ms (8-bit) a layer for the dequantizing kernels" in text
    assert "(4-bit)" not in text
    # GPU-to-GPU traffic: NCCL's model and the engines' one-shot all-reduce (allreduce)
    assert f"{allreduce.NCCL_LAUNCH_S * 1e6:.1f} µs to launch" in text and "3.8 µs to launch" in text
    assert f"own one-shot kernel ({allreduce.CUSTOM_ALL_REDUCE_S * 1e6:.1f} µs + the bytes each GPU reads)" in text
    assert f"plus {engine_speed.BNB_INT8_S_PER_LINEAR * 1e3:.2f} ms a Linear" in text  # LLM.int8 in transformers
    assert "0.040 ms with GPTQ-Int8 and 0.035 ms with AWQ and 0.030 ms with bitsandbytes 4-bit (NF4 or FP4) weights" in text
    assert ("× (PassMark single-thread 2,161 of an EPYC 7742 / the build's CPU's) ^ 2.1 where the build names its CPU, "
            "its mark held within the hosts measured (1,637-2,451)") in text
    assert "root unit whole from the forward into the backward" in text  # train_buffers.whole_after_forward


def test_the_moe_dispatch_time_is_shown_to_its_last_digit():
    from advisor.core.speed import gguf_decode

    text = " ".join(f.formula for f in formulas())
    assert f"in llama.cpp and Ollama {gguf_decode.MOE_DISPATCH_S_PER_LAYER * 1e3:g} ms a MoE layer" in text  # not 0.07


@pytest.mark.parametrize("engine", [Engine.VLLM, Engine.LLAMA_CPP, Engine.OLLAMA])
def test_an_engines_small_kernels_are_shown_with_its_constants(engine):
    # one declaration per engine (EngineSpeed.kernels_s_per_layer), shown where its other constants are
    fitted = engine_speed.FITTED[engine]
    text = " ".join(f.formula for f in formulas())
    assert fitted.kernels_s_per_layer > 0
    assert (f"{engine.value} b {fitted.bandwidth:.2f} c {fitted.compute:.2f} floor {fitted.floor_s_per_layer * 1e3:.2f} "
            f"ms/layer small kernels {fitted.kernels_s_per_layer * 1e3:.2f} ms/layer") in text
    assert "the engine's own time a layer (below)" in text
