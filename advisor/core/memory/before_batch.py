"""A training estimate's part before the micro-batch enters: the model as trained, the degrees of
parallelism, the model states per GPU and what each layer saves for backward.

None of it reads the micro-batch (``MICRO_BATCH_FIELDS`` in ``training``), so it is kept per model and job.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.job.choices import Method, Objective, Parallel, Precision
from advisor.core.job.frameworks import FRAMEWORK_NAMES, PROFILES
from advisor.core.job.planned import PlannedJob
from advisor.core.job.settings import choice_label as said
from advisor.core.memory.activations import (
    FULL_TRAINING,
    SavedInputs,
    adapter_saved_inputs,
    layers_per_stage,
    lora_saved_inputs,
)
from advisor.core.memory.format_words import format_words
from advisor.core.memory.held import base_format_name
from advisor.core.memory.inference import TP_SPLITS, per_gpu_weights, weights_bytes
from advisor.core.memory.objectives import reference_weights_bytes
from advisor.core.memory.sharding import SHARDED, degrees, layer_params, optimizer_in_backward_grad_bytes
from advisor.core.memory.states import adapter_states_bytes, full_states_bytes, param_bytes, trainable_params_of
from advisor.core.memory.train_buffers import (
    as_trained,
    four_bit_base,
    four_bit_bytes,
    four_bit_lm_head,
    kbit_upcast,
    lora_padded,
)
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import ADAPTER_PROMPT_LENGTH, ADAPTER_START_LAYER, ParamCounts, count_params


@dataclass(frozen=True, slots=True)
class BeforeBatch:
    """What a training estimate works out before the micro-batch enters: the model as trained, the
    degrees of parallelism, the model states per GPU, what each layer saves for backward."""

    arch: ModelArch
    counts: ParamCounts
    tp: int
    stages: int
    cp: int
    model_share: float
    gdiv: int
    odiv: int
    lora: bool
    reward: bool
    trainable: float
    weights: float
    adapters: float
    reference: float
    grads: float
    optim: float
    fsdp1: bool
    mixed_units: bool
    in_flight: int
    layers: int
    saved: SavedInputs


def before_batch(arch: ModelArch, planned: PlannedJob, notes: list[str] | None) -> BeforeBatch:
    """``estimate_training``'s first part (``planned`` with its framework's defaults); its words go to ``notes``."""
    arch = as_trained(arch, planned, notes)
    counts = count_params(arch)
    tp, stages, cp, dp = degrees(planned)
    model_share = per_gpu_weights(arch, counts.total, tp, stages) / counts.total
    w_s, g_s, o_s = SHARDED.get(planned.parallel, (False, False, False))
    wdiv, gdiv, odiv = (dp if w_s else 1), (dp if g_s else 1), (dp if o_s else 1)
    lora = planned.method is not Method.FULL  # a frozen base with small trained parts (LoRA, QLoRA, adapters)
    reward = planned.objective is Objective.REWARD
    trainable = trainable_params_of(arch, planned)
    weights, adapters, grads, optim = _whole_states(arch, planned, counts, trainable, notes)
    reference = reference_weights_bytes(arch, planned, notes)
    weights, adapters = weights * model_share / wdiv, adapters * model_share / wdiv
    reference *= model_share / wdiv  # sharded like the policy under ZeRO-3 / FSDP, replicated otherwise
    grads, optim = grads * model_share / gdiv, optim * model_share / odiv
    fsdp1 = planned.parallel in (Parallel.FSDP, Parallel.FSDP_GRAD_OP) and dp > 1
    mixed_units = lora and fsdp1 and PROFILES[planned.framework].fsdp_mixed_units and not four_bit_base(planned)
    if mixed_units:
        # One FlatParameter per wrapped block holds its frozen weights and its adapters; with
        # use_orig_params=True the whole flat parameter gets a gradient (FSDP_MIXED_UNITS).
        grads = layer_params(arch) * arch.n_layers * param_bytes(planned.precision) * model_share / gdiv
        if notes is not None:
            notes.append(f"{FRAMEWORK_NAMES[planned.framework]} FSDP: each block is one FSDP unit with frozen weights "
                         "and adapters, so its gradient is as large as the block (PyTorch FSDP docs on frozen parameters)")
    if planned.optimizer_in_backward and not lora:
        grads = min(grads, optimizer_in_backward_grad_bytes(arch, planned.precision))
        if notes is not None:
            notes.append("optimizer in backward: each gradient is stepped and freed as soon as it is accumulated "
                         "(torchtune optimizer_in_bwd; ~ one tensor's gradient alive)")
    if notes is not None:
        _sharding_note(planned, tp, dp, notes)
    in_flight = min(stages, planned.grad_accum_steps) if planned.parallel is Parallel.PP else 1
    saved, layers = _saved_inputs(arch, planned, stages, mixed_units, notes)
    return BeforeBatch(arch, counts, tp, stages, cp, model_share, gdiv, odiv, lora, reward, trainable, weights, adapters,
                       reference, grads, optim, fsdp1, mixed_units, in_flight, layers, saved)


def _whole_states(arch: ModelArch, planned: PlannedJob, counts: ParamCounts, trainable: float,
                  notes: list[str] | None) -> tuple[float, float, float, float]:
    """(weights, adapters, gradients, optimizer) of the whole model, before any sharding."""
    if planned.method is Method.FULL:
        weights, grads, optim = full_states_bytes(arch, trainable, planned.optimizer, planned.precision)
        if notes is not None:
            notes.append(f"full fine-tuning, {said('precision', planned.precision)}: ZeRO's 2+2+K bytes/param split "
                         "(fp32 master counted with the optimizer)" if planned.precision is Precision.AMP
                         else f"full fine-tuning, {said('precision', planned.precision)} weights, grads and states")
        return weights, 0.0, grads, optim
    reward = planned.objective is Objective.REWARD
    adapters, grads, optim = adapter_states_bytes(trainable, planned.optimizer, planned.precision)
    weights = weights_bytes(arch, planned) - (counts.lm_head * 2 if reward else 0.0)  # lm_head is 16-bit
    if four_bit_lm_head(planned) and not reward:
        weights -= counts.lm_head * (2 - four_bit_bytes(planned))
        if notes is not None:
            notes.append("lm_head stored in 4 bits too (Lightning Fabric BitsandbytesPrecision replaces every "
                         "nn.Linear)")
    if kbit_upcast(planned):  # every weight left in 16 bits now 4 bytes (train_buffers.kbit_upcast)
        weights += (counts.total - counts.linear) * 2
        if notes is not None:
            notes.append("embeddings, output layer and norms cast to fp32 (PEFT prepare_model_for_kbit_training): "
                         f"{(counts.total - counts.linear) * 2 / 2**30:.2f} GiB more in the whole model")
    if notes is not None:
        _adapter_notes(planned, trainable, notes)
    return weights, adapters, grads, optim


def _adapter_notes(planned: PlannedJob, trainable: float, notes: list[str]) -> None:
    """What is trained on the frozen base, and how the base is stored."""
    if planned.method.litgpt_adapter:
        notes.append(f"{said('method', planned.method)} (LitGPT finetune_{planned.method.value.replace('-', '_')}): "
                     f"prompt of {ADAPTER_PROMPT_LENGTH} tokens in layers {ADAPTER_START_LAYER}+"
                     + (", biases and scales of every Linear, norms" if planned.method is Method.ADAPTER_V2 else "")
                     + f": {trainable:,.0f} trainable params (litgpt/adapter.py at 26857050)")
    else:
        notes.append(f"{said('method', planned.method)}: rank {planned.lora_rank_effective} on "
                     f"{', '.join(planned.lora_targets)}: {trainable:,.0f} trainable params, "
                     + ("fp32 adapters (PEFT autocast_adapter_dtype)" if planned.precision is not Precision.BF16
                        else "bf16 adapters"))
    notes.append("frozen base weights "
                 + format_words(base_format_name(planned), planned.quant_group_size, planned.double_quant))


def _sharding_note(planned: PlannedJob, tp: int, dp: int, notes: list[str]) -> None:
    if planned.parallel in SHARDED:
        notes.append(f"{said('parallel', planned.parallel)} over {dp} data-parallel GPUs (ZeRO arXiv:1910.02054 §5)"
                     + (f", tensor parallel {tp}" if tp > 1 and planned.parallel not in TP_SPLITS else ""))
    elif planned.n_gpus > 1 and planned.parallel is Parallel.NONE:
        notes.append(f"no sharding: each of the {planned.n_gpus} GPUs trains a full copy (states not sharded)")


def _saved_inputs(arch: ModelArch, planned: PlannedJob, stages: int, mixed_units: bool,
                  notes: list[str] | None) -> tuple[SavedInputs, int]:
    """What each layer saves for backward, and how many layers of the first stage save it."""
    lora = planned.method is not Method.FULL
    layers = layers_per_stage(arch.n_layers, stages)
    if planned.method.litgpt_adapter:
        saved = adapter_saved_inputs(planned.method is Method.ADAPTER_V2, four_bit_base(planned),
                                     legacy_bnb=planned.bnb_legacy)
        if planned.method is Method.ADAPTER and stages == 1:
            # Nothing before adapter_start_layer needs a gradient: those layers save nothing.
            layers = max(1, layers - ADAPTER_START_LAYER)
    else:
        dropout = lora and PROFILES[planned.framework].lora_dropout > 0
        saved = lora_saved_inputs(planned.lora_targets, planned.method is Method.QLORA, legacy_bnb=planned.bnb_legacy,
                                  dropout=dropout) if lora else FULL_TRAINING
        if notes is not None and dropout:
            notes.append(f"LoRA dropout {PROFILES[planned.framework].lora_dropout:g} "
                         f"({FRAMEWORK_NAMES[planned.framework]}'s default): "
                         "each LoRA module keeps a dropped copy of its input and its mask")
    if mixed_units:  # every weight of the unit is a view of a flat parameter that requires grad
        saved = saved._replace(qkv_input=True, o_input=True, gate_up_input=True, down_input=True)
    return _framework_saved(arch, planned, saved, notes), layers


def _framework_saved(arch: ModelArch, planned: PlannedJob, saved: SavedInputs,
                     notes: list[str] | None) -> SavedInputs:
    """What the framework's own layers keep besides: repeated k/v heads, the fused q|k|v view, LoRA padding."""
    name = FRAMEWORK_NAMES[planned.framework]
    profile = PROFILES[planned.framework]
    if profile.kv_full_heads and arch.n_kv_heads < arch.n_heads:
        saved = saved._replace(kv_full_heads=True)
        if notes is not None:
            notes.append(f"{name}: k and v repeated to all {arch.n_heads} heads before the attention kernel")
    elif profile.fused_qkv_view and arch.n_kv_heads == arch.n_heads:
        saved = saved._replace(qkv_view=True)
        if notes is not None:
            notes.append(f"{name}: v is a view of the fused q|k|v output, so the attention kernel's "
                         "saved v keeps all of it")
    lora = planned.method is not Method.FULL
    if lora and not planned.method.litgpt_adapter and profile.lora_pad_saved:
        pad = lora_padded(planned.lora_targets)
        if pad:
            saved = saved._replace(pad_source=pad)
            if notes is not None:
                notes.append(f"{name}: LoRA on {'+'.join(pad)} only: its output is padded to the fused "
                             "q|k|v width by index_copy, which keeps it for backward")
    return saved
