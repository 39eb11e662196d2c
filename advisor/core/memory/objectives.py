"""Preference objectives (DPO, ORPO, reward models): pairs of sequences and DPO's reference model."""

from __future__ import annotations

from advisor.core.job.choices import Method, Objective
from advisor.core.job.job import Job, JobT
from advisor.core.job.settings import choice_label as said
from advisor.core.memory.states import param_bytes
from advisor.core.model.arch import ModelArch
from advisor.core.model.params import count_params

#: TRL at this commit is what the DPO and reward-model rules below follow.
TRL_COMMIT = "f2cd57710ae345ea6428ae95363267fcf38a3dc8"
#: Sequences through the model per example: chosen and rejected of each preference pair.
#: TRL's DPO collator concatenates them into one batch of 2× the pairs
#: (``torch.cat(tuple(pad([chosen_ids, rejected_ids])))`` in
#: https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/trl/trainer/dpo_trainer.py);
#: ORPO (Hong et al. 2024, arXiv:2403.07691 §4: NLL of the chosen plus the odds ratio of chosen
#: over rejected, no reference model) and the reward model's pairwise loss
#: (trl/trainer/reward_trainer.py at the same commit: rewards of chosen and rejected, ``num_labels = 1``)
#: need both sequences likewise.
PAIR_SEQUENCES = 2


#: The objective in the estimate's assumptions, with its source.
OBJECTIVE_WORDS = {
    Objective.SFT: "supervised fine-tuning (next-token cross-entropy on one sequence per example)",
    Objective.DPO: "DPO (Rafailov et al. 2023, arXiv:2305.18290; TRL DPOTrainer): chosen and rejected sequences, "
                   "policy against a frozen reference",
    Objective.ORPO: "ORPO (Hong et al. 2024, arXiv:2403.07691): chosen and rejected sequences, no reference model",
    Objective.REWARD: "reward model (TRL RewardTrainer): chosen and rejected sequences through a scalar head",
}


def objective_note(job: Job) -> str:
    """'objective: DPO (…); method lora' — what the step optimizes and which weights train."""
    return f"objective: {OBJECTIVE_WORDS[job.objective]}; method: {said('method', job.method)}"


def sequences_per_step(job: JobT, notes: list[str] | None) -> JobT:
    """The job as the model sees it: the micro-batch doubled when each example is a pair."""
    if not job.objective.paired:
        return job
    if notes is not None:
        notes.append(f"{said('objective', job.objective)}: a micro-batch of {job.batch} pair(s) is {PAIR_SEQUENCES * job.batch} sequences "
                     "(chosen and rejected): activations and logits of all of them")
    return job.model_copy(update={"batch": job.batch * PAIR_SEQUENCES})


def reference_weights_bytes(arch: ModelArch, job: Job, notes: list[str] | None = None) -> float:
    """Whole-model bytes of DPO's frozen reference model (before sharding), by TRL's rules.

    TRL ``DPOTrainer.__init__`` (trl/trainer/dpo_trainer.py at ``TRL_COMMIT``, "Reference model"):
    "If PEFT is used, the reference model is not needed since the adapter can be disabled to
    revert to the initial model. If precompute_ref_log_probs is True, the reference model does not
    need to be kept in memory during training" (``ref_model = None``; ``compute_ref_log_probs``
    runs the policy under ``use_adapter``/no_grad instead); otherwise ``create_model_from_path``
    loads a second copy of the policy's checkpoint with the same init kwargs (dtype), prepared
    like the policy (``prepare_deepspeed`` / ``prepare_fsdp``: sharded under ZeRO-3 / FSDP).
    Counted in the 16-bit compute dtype (4 B under fp32 training). DPO paper: Rafailov et al.
    2023, arXiv:2305.18290 (the loss needs π_ref's log-probabilities of both sequences).
    """
    if job.objective is not Objective.DPO:
        return 0.0
    if job.precompute_ref:
        if notes is not None:
            notes.append("DPO: reference log-probabilities precomputed before training (TRL "
                         "precompute_ref_log_probs): no reference model in memory")
        return 0.0
    if job.method is not Method.FULL:
        if notes is not None:
            notes.append(f"DPO: the reference is the base with its {said('method', job.method)} adapters disabled "
                         "(TRL DPOTrainer with a PEFT model): no second copy of the weights")
        return 0.0
    if notes is not None:
        notes.append("DPO: a frozen reference copy of the weights (TRL DPOTrainer loads the checkpoint "
                     "twice), sharded like the policy")
    return count_params(arch).total * param_bytes(job.precision)

