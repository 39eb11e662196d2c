"""Switching mode, method or engine keeps each one's valid settings and never blames the user."""

import pytest

from advisor.core.job.choices import Engine, Method, Mode
from tests.qt_widgets import pick as _pick
from tests.qt_widgets import pick_value, shown

OFFSCREEN_NOISE = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
pytestmark = [pytest.mark.gui, OFFSCREEN_NOISE]


def _all_problems(session):
    return [p for r in session.results.builds for p in r.problems]


def _llama_cpp_q4(panel):
    _pick(panel.combo_engine, "llama.cpp")
    pick_value(panel.combo_weights, "weights", "q4_k_m")


def test_training_starts_from_a_trainable_base_and_inference_keeps_its_weights(app_window):
    session, window = app_window
    panel = window.workload_panel
    _llama_cpp_q4(panel)
    assert session.workload.weights == "q4_k_m"
    pick_value(panel.combo_mode, "mode", "train")
    w = session.workload
    assert w.mode is Mode.TRAIN and w.method is Method.FULL
    assert "weights" not in w.model_fields_set and w.weights == "bf16"  # full: the precision's format
    assert "lora_rank" not in w.model_fields_set and w.lora_rank is None  # the greyed rank is not sent
    assert _all_problems(session) == []
    assert panel.combo_weights.currentText() == shown("weights", "bf16") and not panel.combo_weights.isEnabled()
    assert panel.label_weights.text() == "Base weights"
    assert not panel.spin_lora_rank.isEnabled()
    assert "--" not in panel.label_problems.text() and panel.label_problems.text() == ""
    pick_value(panel.combo_mode, "mode", "inference")
    assert session.workload.weights == "q4_k_m"  # inference's own choice came back
    assert panel.combo_weights.currentText() == shown("weights", "q4_k_m") and panel.label_weights.text() == "Weights"


def test_each_method_keeps_its_own_base(app_window):
    session, window = app_window
    panel = window.workload_panel
    pick_value(panel.combo_mode, "mode", "train")
    pick_value(panel.combo_method, "method", "qlora")
    assert session.workload.weights == "nf4"
    assert panel.check_double_quant.isEnabled() and panel.spin_lora_rank.isEnabled()
    pick_value(panel.combo_weights, "weights", "fp4")
    pick_value(panel.combo_method, "method", "lora")
    assert session.workload.weights == "bf16"
    assert not panel.check_double_quant.isEnabled()
    assert [panel.combo_weights.itemText(i) for i in range(panel.combo_weights.count())] == \
        [shown("weights", w) for w in ("bf16", "fp16", "fp32", "int8")]
    pick_value(panel.combo_weights, "weights", "int8")
    pick_value(panel.combo_method, "method", "qlora")
    assert session.workload.weights == "fp4"
    pick_value(panel.combo_method, "method", "lora")
    assert session.workload.weights == "int8"
    assert session.workload.lora_rank == 16
    pick_value(panel.combo_method, "method", "full")
    assert session.workload.lora_rank is None
    assert _all_problems(session) == []


def test_vllm_memory_share_only_with_vllm(app_window):
    _session, window = app_window
    panel = window.workload_panel
    form = panel.form_inference
    _pick(panel.combo_engine, "vLLM")
    assert form.isRowVisible(panel.spin_gpu_memory_utilization)
    _pick(panel.combo_engine, "transformers")
    assert not form.isRowVisible(panel.spin_gpu_memory_utilization)
    _pick(panel.combo_engine, "llama.cpp")
    assert not form.isRowVisible(panel.spin_gpu_memory_utilization)


def test_an_engine_switch_never_leaves_a_choice_it_cannot_run(app_window):
    session, window = app_window
    panel = window.workload_panel
    _llama_cpp_q4(panel)
    pick_value(panel.combo_kv_dtype, "kv_dtype", "q8_0")
    _pick(panel.combo_engine, "vLLM")
    w = session.workload
    assert w.engine is Engine.VLLM and w.weights == "awq" and w.kv_dtype == "fp8"
    assert _all_problems(session) == []
    assert "Weights set to AWQ (4.2 bits): vLLM does not load Q4_K_M (GGUF, 4.9 bits)." in panel.label_note.text()
    # what the engine cannot run is greyed out in the list
    item = panel.combo_weights.model().item(panel.combo_weights.findText(shown("weights", "q4_k_m")))
    assert not item.isEnabled()
    item = panel.combo_kv_dtype.model().item(panel.combo_kv_dtype.findText(shown("kv_dtype", "q4_0")))
    assert not item.isEnabled()


def test_a_rejected_value_is_a_sentence(app_window):
    _session, window = app_window
    panel = window.workload_panel
    from pydantic import ValidationError

    from advisor.core.job.planned import PlannedJob
    from advisor.ui.words import validation_sentence

    with pytest.raises(ValidationError) as info:
        PlannedJob(gpu_memory_utilization=0)
    text = validation_sentence(info.value.errors()[0])
    assert text == "Memory share must be more than 0; the previous value is kept."
    assert "gpu_memory_utilization" not in text
    assert panel.label_problems.text() == ""


def test_the_decode_attention_kernel_is_a_window_option(app_window):
    # The speed benchmark maps TensorRT-LLM rows to the per-head kernel: a user of the
    # window can set the same thing, and it slows decoding of a model that shares KV heads.
    from advisor.core.advice.comparison import BuildEntry
    from advisor.core.job.choices import DecodeAttention

    session, window = app_window
    panel = window.workload_panel
    session.add_build(BuildEntry(name="one H100", gpu_id="h100-sxm", gpu_count=1))  # a fast memory: the kernel shows
    _pick(panel.combo_engine, "TensorRT-LLM")
    panel.spin_batch.setValue(64)
    grouped = [r.estimate.speed.decode_tokens_per_s for r in session.results.builds if r.estimate is not None]
    pick_value(panel.combo_decode_attention, "decode_attention", "per-head")
    assert session.workload.decode_attention is DecodeAttention.PER_HEAD
    per_head = [r.estimate.speed.decode_tokens_per_s for r in session.results.builds if r.estimate is not None]
    assert any(p is not None and g is not None and p < g for p, g in zip(per_head, grouped, strict=True))
    session.undo_stack.undo()
    assert session.workload.decode_attention is DecodeAttention.GROUPED
    assert panel.combo_decode_attention.currentText() == shown("decode_attention", "grouped")


def test_prompt_tokens_in_the_window(app_window):
    """The window sets the same request as ``--prompt-tokens``: not set by default, a number from the field,
    and back to not set; the table's speed is then that request's."""
    session, window = app_window
    spin = window.workload_panel.spin_prompt_tokens
    assert session.workload.prompt_tokens is None and spin.text() == "not set"
    spin.setValue(1024)
    assert session.workload.prompt_tokens == 1024
    assert all(r.estimate.speed.request_s for r in session.results.builds if r.estimate and r.estimate.speed.decode_tokens_per_s)
    spin.setValue(spin.minimum())
    assert session.workload.prompt_tokens is None
    session.undo_stack.undo()
    assert spin.value() == 1024  # the field follows the workload (undo)


def test_engines_are_listed_as_their_users_write_them(app_window):
    """'vLLM', 'TensorRT-LLM' on screen (``Engine.label``), the job's value behind each; undo puts the
    label of the engine back."""
    from advisor.core.job.choices import Engine

    session, window = app_window
    combo = window.workload_panel.combo_engine
    shown = [combo.itemText(i) for i in range(combo.count())]
    assert shown == [e.label for e in Engine] and "vLLM" in shown and "tensorrt-llm" not in shown
    _pick(combo, "TensorRT-LLM")
    assert session.workload.engine is Engine.TENSORRT_LLM
    _pick(combo, "SGLang")
    assert session.workload.engine is Engine.SGLANG
    session.undo_stack.undo()
    assert session.workload.engine is Engine.TENSORRT_LLM and combo.currentText() == "TensorRT-LLM"


def test_the_tensorrt_llm_version_is_a_window_option(app_window):
    # The speed benchmark runs each TensorRT-LLM row as the version it names (--engine-version):
    # a user of the window sets the same, shown only with TensorRT-LLM, and a version from a file stays.
    from advisor.core.advice.comparison import BuildEntry

    session, window = app_window
    panel = window.workload_panel
    form = panel.form_inference
    session.add_build(BuildEntry(name="one H100", gpu_id="h100-sxm", gpu_count=1))
    _pick(panel.combo_engine, "vLLM")
    assert not form.isRowVisible(panel.combo_engine_version)
    _pick(panel.combo_engine, "TensorRT-LLM")
    assert form.isRowVisible(panel.combo_engine_version)
    assert panel.combo_engine_version.currentText() == "current (0.13 or later)" and session.workload.engine_version is None
    panel.spin_batch.setValue(64)  # Llama 3.1 8B: 4 query heads per KV head, not an XQA layout of 0.9
    current = [r.estimate.speed.decode_tokens_per_s for r in session.results.builds if r.estimate is not None]
    _pick(panel.combo_engine_version, "0.9")
    assert session.workload.engine_version == "0.9"
    older = [r.estimate.speed.decode_tokens_per_s for r in session.results.builds if r.estimate is not None]
    assert all(o <= c for o, c in zip(older, current, strict=True)) and any(o < c for o, c in zip(older, current))
    assert any(n.startswith("TensorRT-LLM 0.9 decodes this model one query head at a time")
               for r in session.results.builds if r.estimate is not None for n in r.estimate.speed.notes)
    session.set_workload(session.workload.model_copy(update={"engine_version": "0.7a"}))  # as a file gives it
    assert panel.combo_engine_version.currentText() == "0.7a"
    _pick(panel.combo_engine, "vLLM")
    assert session.workload.engine_version is None and not form.isRowVisible(panel.combo_engine_version)
    session.undo_stack.undo()
    assert session.workload.engine_version == "0.7a" and panel.combo_engine_version.currentText() == "0.7a"


def test_prompt_attention_is_a_window_option_where_the_engine_takes_it(app_window):
    """A prompt without a fused attention kernel is slower; the Attention box sits
    with the task, enabled in inference for transformers and llama.cpp, greyed for engines that always fuse."""
    from advisor.core.job.choices import AttentionImpl

    session, window = app_window
    panel = window.workload_panel
    assert panel.combo_attention.isVisible()  # in inference too (it was in the training box alone)
    assert session.workload.engine.value == "vllm" and not panel.combo_attention.isEnabled()
    _pick(panel.combo_engine, "transformers")
    assert panel.combo_attention.isEnabled()
    panel.spin_context_len.setValue(8192)
    # One sequence, so both prompts fit the same plan: at the first launch's 16 sequences of 8,192 tokens the eager
    # scores (68 GB a layer) fit nowhere, and the two unfit plans' figures are not a like-for-like comparison.
    panel.spin_batch.setValue(1)
    fused = [r.estimate.speed.prefill_tokens_per_s for r in session.results.builds if r.estimate is not None]
    pick_value(panel.combo_attention, "attention", "eager")
    assert session.workload.attention is AttentionImpl.EAGER
    eager = [r.estimate.speed for r in session.results.builds if r.estimate is not None]
    assert all(e.prefill_tokens_per_s < f for e, f in zip(eager, fused, strict=True))
    assert all(any("writes its scores to memory (eager attention)" in n for n in e.notes) for e in eager)
    pick_value(panel.combo_mode, "mode", "train")
    assert panel.combo_attention.isEnabled() and panel.combo_attention.currentText() == shown("attention", "eager")


def test_a_switch_to_exllamav2_puts_an_exl2_format_the_box_reads_back(app_window):
    # ExLlamaV2 loads no LLM.int8 weights: the switch puts EXL2 at 8 bits, a value the box does not list; the
    # words it shows must read back as that value, or the job would carry the words as a weight format.
    session, window = app_window
    panel = window.workload_panel
    pick_value(panel.combo_weights, "weights", "int8")
    _pick(panel.combo_engine, "ExLlamaV2")
    w = session.workload
    assert w.engine is Engine.EXLLAMAV2 and w.weights == "8.0bpw"
    assert _all_problems(session) == []
    assert "Weights set to EXL2 (8 bits): ExLlamaV2 does not load INT8 (8 bits)." in panel.label_note.text()
    assert panel.combo_weights.currentText() == "EXL2 (8 bits)"
