"""The litgpt profile's memory mechanisms: each pinned to LitGPT's code at
``LITGPT_COMMIT``, Lightning Fabric's bitsandbytes plugin and bitsandbytes 0.42.0, as cited in
``advisor/core/job/frameworks.py``; the other frameworks keep the defaults they had."""

from advisor.core.job.choices import Framework, Mode, OptimizerKernel
from advisor.core.job.frameworks import (
    BNB_DEQUANT_BYTES,
    FABRIC_BNB_DEQUANT_BYTES,
    LITGPT_COMMIT,
    LITGPT_LORA_DROPOUT,
    OPTIMIZER_KERNEL_SOURCES,
    PROFILES,
    Profile,
    apply_framework,
)
from advisor.core.job.planned import PlannedJob


def test_litgpt_constants_are_the_cited_ones():
    assert LITGPT_COMMIT == "00af8b0d9b43eaa3f8c812e3e8bd53ef38cbb49d"
    assert LITGPT_LORA_DROPOUT == 0.05  # finetune/lora.py setup(lora_dropout=0.05), config_hub lora_dropout: 0.05
    assert FABRIC_BNB_DEQUANT_BYTES == 2 + 2  # fp16 dequantized matrix + its .to(bf16) copy
    assert BNB_DEQUANT_BYTES == 2


def test_litgpt_profile_follows_its_code():
    p = PROFILES[Framework.LITGPT]
    assert p.untied_lm_head and p.kv_full_heads and p.quantize_lm_head
    assert p.fused_qkv_view and p.lora_pad_saved  # LITGPT_QKV_VIEW, LITGPT_LORA_PAD
    assert p.fsdp_mixed_units and p.accumulate_unsharded  # FSDP_MIXED_UNITS, FSDP_NO_SYNC
    assert p.lora_dropout == LITGPT_LORA_DROPOUT
    assert not p.chunked_loss_upcast
    assert p.dequant_bytes == FABRIC_BNB_DEQUANT_BYTES


def test_other_frameworks_keep_the_plain_defaults():
    plain = Profile()
    for fw, p in PROFILES.items():
        if fw is Framework.LITGPT:
            continue
        assert (p.untied_lm_head, p.kv_full_heads, p.quantize_lm_head, p.lora_dropout, p.chunked_loss_upcast,
                p.dequant_bytes, p.fused_qkv_view, p.lora_pad_saved, p.fsdp_mixed_units, p.accumulate_unsharded) == (
                    plain.untied_lm_head, plain.kv_full_heads, plain.quantize_lm_head, plain.lora_dropout,
                    plain.chunked_loss_upcast, plain.dequant_bytes, plain.fused_qkv_view, plain.lora_pad_saved,
                    plain.fsdp_mixed_units, plain.accumulate_unsharded), fw
    assert (plain.lora_dropout, plain.dequant_bytes, plain.chunked_loss_upcast) == (0.0, 2, True)


def test_each_framework_runs_the_adamw_kernel_its_code_builds():
    # transformers >= 5 with torch >= 2.8: adamw_torch_fused (Axolotl and Unsloth train with its Trainer);
    # torchtune's configs fused: True; torchtitan's implementation = "fused"; LitGPT builds torch.optim.AdamW
    # without choosing, which is PyTorch's foreach; no pinned source for DeepSpeed or Horovod: PyTorch's.
    fused = {Framework.HF, Framework.TORCHTUNE, Framework.TORCHTITAN, Framework.AXOLOTL, Framework.UNSLOTH}
    assert {fw for fw, p in PROFILES.items() if p.optimizer_kernel is OptimizerKernel.FUSED} == fused
    assert Profile().optimizer_kernel is OptimizerKernel.FOREACH  # PyTorch's own default
    assert set(OPTIMIZER_KERNEL_SOURCES) == set(Framework)
    assert "00349ae8" in OPTIMIZER_KERNEL_SOURCES[Framework.HF] and "6404b932" in OPTIMIZER_KERNEL_SOURCES[
        Framework.TORCHTITAN] and "2943c61e" in OPTIMIZER_KERNEL_SOURCES[Framework.TORCHTUNE]
    job = PlannedJob(mode="train", framework="litgpt")
    assert apply_framework(job).optimizer_kernel is OptimizerKernel.FOREACH
    chosen = job.model_copy(update={"optimizer_kernel": OptimizerKernel.FUSED})
    assert apply_framework(chosen).optimizer_kernel is OptimizerKernel.FUSED  # the user's choice stands
    assert apply_framework(PlannedJob()).optimizer_kernel is None  # inference: no optimizer


def test_foreach_adamw_is_decided_in_one_place():
    """Memory (the sqrt(v) temporary), speed (the extra passes) and the estimate's notes all ask
    ``PlannedJob.foreach_adamw``: AdamW with the foreach kernel or none chosen; never another optimizer."""
    from advisor.core.job.choices import Optimizer

    base = PlannedJob(mode=Mode.TRAIN)
    assert base.foreach_adamw  # PyTorch's own default when nothing chose
    assert base.model_copy(update={"optimizer_kernel": OptimizerKernel.FOREACH}).foreach_adamw
    assert not base.model_copy(update={"optimizer_kernel": OptimizerKernel.FUSED}).foreach_adamw
    assert not base.model_copy(update={"optimizer": Optimizer.ADAMW_8BIT}).foreach_adamw
    assert not apply_framework(base.model_copy(update={"framework": Framework.HF})).foreach_adamw  # fused there


def test_engines_are_named_as_their_users_write_them():
    from advisor.core.job.choices import Engine

    assert [e.label for e in (Engine.VLLM, Engine.TENSORRT_LLM, Engine.LLAMA_CPP)] == ["vLLM", "TensorRT-LLM", "llama.cpp"]


def test_unsloth_offloads_activations_only_where_it_checkpoints():
    # Unsloth_Offloaded_Gradient_Checkpointer copies each checkpointed layer's input to host RAM; without
    # checkpointing (use_gradient_checkpointing=False) nothing goes there. torchtune's offload needs no checkpointing.
    from advisor.core.job.choices import Checkpointing
    from advisor.core.job.frameworks import UNSLOTH_OFFLOAD_SOURCE

    assert "Unsloth_Offloaded_Gradient_Checkpointer" in UNSLOTH_OFFLOAD_SOURCE
    job = {"mode": Mode.TRAIN, "method": "qlora", "batch": 2, "seq_len": 4096}
    unsloth = PlannedJob(**job, framework=Framework.UNSLOTH)
    assert apply_framework(unsloth).activation_offload  # its default: full checkpointing, offloaded
    assert apply_framework(unsloth.model_copy(update={"checkpointing": Checkpointing.SELECTIVE})).activation_offload
    bare = PlannedJob(**job, framework=Framework.UNSLOTH, checkpointing=Checkpointing.NONE)
    assert not apply_framework(bare).activation_offload
    assert apply_framework(bare.model_copy(update={"activation_offload": True})).activation_offload  # the user's say
    assert PROFILES[Framework.TORCHTUNE].offload_with_checkpointing is False


def test_a_framework_runs_its_own_training_loop_unless_it_is_the_hf_trainers():
    # Axolotl's trainer subclasses transformers' Trainer (AXOLOTL_TRAINER): its speed share is the HF Trainer's; every
    # other framework runs its own loop (Unsloth's kernels are its own, so it keeps its own share).
    from advisor.core.job.choices import Framework
    from advisor.core.job.frameworks import PROFILES, training_loop

    assert {f for f in Framework if training_loop(f) is not f} == {Framework.AXOLOTL}
    assert training_loop(Framework.AXOLOTL) is Framework.HF and PROFILES[Framework.HF].training_loop is None
