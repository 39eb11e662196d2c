"""Training buffers: the loss's logits by implementation, DDP's gradient buckets (``memory.train_buffers``)."""

import pytest

from advisor.core.job.planned import PlannedJob

from tests.core.memory.memory_fixtures import LLAMA2_7B, LLAMA3_8B, TRAIN, full_sizes


def test_ddp_buckets_double_gradients():
    b = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, n_gpus=2, parallel="ddp"))
    single = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN))
    assert b.buffers - single.buffers == pytest.approx(b.gradients)


def test_ddp_buckets_stay_from_step_to_step_so_the_optimizer_step_holds_them(catalog):
    # DDP's Reducer allocates its buckets once (reducer.cpp initialize_buckets): they are alive in every phase, so the
    # foreach AdamW step holds weights, gradients, both moments, the sqrt(v) temporary and the buckets at once.
    from advisor.core.memory.peak import estimate_memory

    def phases(**kw):
        job = PlannedJob(mode="train", method="full", precision="bf16", seq_len=1024, attention="sdpa",
                         optimizer_kernel="foreach", **kw)
        return dict(estimate_memory(catalog.models["qwen3-1.7b"], job).breakdown.phases)

    one, ddp = phases(), phases(n_gpus=2, parallel="ddp")
    grads = ddp["optimizer step"] / 6  # pure bf16: weights, gradients, two moments, the temporary, the buckets
    for phase in one:
        assert ddp[phase] - one[phase] == pytest.approx(grads, rel=0.01), phase
    # Helian2s/multi-gpu-training EXP-08 (calibration): Qwen3 1.7B, pure bf16, DDP over two RTX PRO 6000 Blackwell
    # Server, micro-batch 1 x 1,024, torch.cuda.max_memory_allocated 19.29 GiB
    assert max(ddp.values()) / 2**30 == pytest.approx(19.29, rel=0.02)


@pytest.mark.parametrize(("loss", "cheaper_than_upcast"), [("fp32-logits", False), ("chunked", True), ("fused", True)])
def test_loss_implementations(loss, cheaper_than_upcast):
    from advisor.core.memory.train_buffers import loss_buffer_bytes

    w = PlannedJob(**TRAIN, seq_len=4096)
    upcast = loss_buffer_bytes(LLAMA3_8B, w.model_copy(update={"loss": "upcast"}), 1)
    other = loss_buffer_bytes(LLAMA3_8B, PlannedJob(**TRAIN, seq_len=4096, loss=loss), 1)
    assert (other < upcast) is cheaper_than_upcast
    assert upcast == pytest.approx(4096 * LLAMA3_8B.vocab_size * 10)


def test_a_compiled_chunked_loss_keeps_the_bf16_logits_and_one_chunks_gradient():
    from advisor.core.memory.loss_logits import (
        train_logits_bytes,
        upcast_loss_logits_bytes,
    )

    elements = 2048 * 2 * 128_256
    assert upcast_loss_logits_bytes(LLAMA3_8B, 2048, 2, 8, compiled=True) == pytest.approx(elements * (2 + 2 / 8))
    # one chunk is the whole loss: eager, transformers' upcast (2 + 4 + 4 B); compiled, the logits and their gradient
    assert upcast_loss_logits_bytes(LLAMA3_8B, 2048, 2, 1, compiled=False) == train_logits_bytes(LLAMA3_8B, 2048, 2)
    assert upcast_loss_logits_bytes(LLAMA3_8B, 2048, 2, 1, compiled=True) == pytest.approx(elements * (2 + 2))


def test_an_eager_chunked_loss_keeps_every_chunks_fp32_log_softmax():
    # F.cross_entropy(chunk.float()) saves its fp32 log-softmax for the backward (derivatives.yaml: _log_softmax's
    # backward reads its result); only the upcast copy is one chunk's: 2 + 4 + 4 / 8 bytes a logit, where a compiled
    # upcast + CE (torchtune's compile_loss) keeps 2 + 2 / 8.
    from advisor.core.memory.loss_logits import upcast_loss_logits_bytes

    elements = 2048 * 2 * 128_256
    eager = upcast_loss_logits_bytes(LLAMA3_8B, 2048, 2, 8, compiled=False)
    assert eager == pytest.approx(elements * (2 + 4 + 4 / 8))
    assert eager > upcast_loss_logits_bytes(LLAMA3_8B, 2048, 2, 8, compiled=True)


@pytest.mark.parametrize(("framework", "loss", "compile", "bytes_per_logit"),
                         [("torchtune", "chunked", False, 2 + 4 + 4 / 8), ("torchtune", "chunked", True, 2 + 2 / 8),
                          ("torchtitan", "chunked", True, 2 + 2 / 8), ("torchtitan", "upcast", True, 2 + 2),
                          ("torchtitan", "upcast", False, 10),
                          ("hf", "chunked", True, 2 + 4 + 4 / 8), ("hf", "upcast", True, 10)])  # HF: not shown to
def test_torch_compile_covers_the_loss_only_where_the_framework_compiles_it(framework, loss, compile, bytes_per_logit):
    from advisor.core.memory.train_buffers import loss_buffer_bytes

    job = PlannedJob(**TRAIN, seq_len=4096, framework=framework, loss=loss, loss_chunks=8, compile=compile)
    assert loss_buffer_bytes(LLAMA3_8B, job, 1) == pytest.approx(4096 * LLAMA3_8B.vocab_size * bytes_per_logit)


def test_fsdp_keeps_the_root_unit_whole_from_the_forward_into_the_backward():
    # PyTorch does not reshard the root unit after its forward (_post_forward_reshard; FSDP2 alike), and under the HF
    # Trainer's FSDP the root holds what no decoder layer does: the embedding and the lm_head, 2 x 128,256 x 4,096 for
    # Llama 3 8B. Beyond its shard each GPU holds 7/8 of them on 8 GPUs, and a full fine-tune's lm_head gradient, the
    # backward's first, whole.
    from advisor.core.memory.train_buffers import whole_after_forward

    vocab_matrix = 128_256 * 4096
    full = PlannedJob(**TRAIN, method="full", n_gpus=8, parallel="fsdp")
    params, grad = whole_after_forward(LLAMA3_8B, full, 1, 8, notes := [])
    assert params == pytest.approx(2 * vocab_matrix * 2 * 7 / 8) and grad == pytest.approx(vocab_matrix * 2)
    assert any("keeps the embedding and lm_head whole" in n for n in notes)
    # A head tied to the embedding is one matrix, counted once, and its gradient is the head's.
    tied = LLAMA3_8B.model_copy(update={"tied_embeddings": True})
    assert whole_after_forward(tied, full, 1, 8, None) == pytest.approx((vocab_matrix * 2 * 7 / 8, vocab_matrix * 2))
    # LoRA: the frozen root stays whole in 16 bits, without a gradient.
    lora = PlannedJob(**TRAIN, method="lora", n_gpus=8, parallel="fsdp")
    assert whole_after_forward(LLAMA3_8B, lora, 1, 8, None) == pytest.approx((2 * vocab_matrix * 2 * 7 / 8, 0.0))
    # torchtitan shards the embedding apart and keeps only its norm + output group whole after forward; torchtune's
    # configs shard both apart; DDP and one GPU shard nothing.
    titan = full.model_copy(update={"framework": "torchtitan"})
    assert whole_after_forward(LLAMA3_8B, titan, 1, 8, None) == pytest.approx((vocab_matrix * 2 * 7 / 8, vocab_matrix * 2))
    assert whole_after_forward(LLAMA3_8B, full.model_copy(update={"framework": "torchtune"}), 1, 8, None) == (0.0, 0.0)
    assert whole_after_forward(LLAMA3_8B, full.model_copy(update={"parallel": "ddp"}), 1, 8, None) == (0.0, 0.0)
    assert whole_after_forward(LLAMA3_8B, full, 1, 1, None) == (0.0, 0.0)
    # In the estimate: the backward phase starts with the forward end's memory and the lm_head's whole gradient.
    from advisor.core.memory.peak import estimate_memory

    phases = dict(estimate_memory(LLAMA3_8B, full).breakdown.phases)
    assert phases["backward"] - phases["forward end"] == pytest.approx(vocab_matrix * 2)
    assert any("lm_head whole" in n for n in estimate_memory(LLAMA3_8B, full).assumptions)


@pytest.mark.parametrize(("framework", "compile", "words"), [
    ("torchtune", False, "every chunk's 32-bit log-probabilities stay until the backward"),
    ("torchtune", True, "compiled with the model: no 32-bit copy of the logits is stored"),
    ("torchtitan", True, "compiled with the model: no 32-bit copy of the logits is stored"),
])
def test_the_assumptions_say_what_the_loss_keeps(framework, compile, words):
    from advisor.core.memory.peak import estimate_memory

    job = PlannedJob(**TRAIN, seq_len=2048, framework=framework, compile=compile)
    assert any(words in a for a in estimate_memory(LLAMA3_8B, job).assumptions)


def _qlora(**kw):
    return PlannedJob(**{**TRAIN, "method": "qlora", "weights": "nf4", "seq_len": 2048, "batch": 1,
                         "checkpointing": "full", **kw})


def test_peft_kbit_upcast_puts_the_16_bit_weights_and_the_residual_stream_in_fp32():
    # prepare_model_for_kbit_training (peft utils/other.py at 5d602fdb) casts every weight bitsandbytes left in 16
    # bits to fp32: the embedding, the lm_head and the norms, 2 bytes more each.
    from advisor.core.model.params import count_params

    c = count_params(LLAMA3_8B)
    base, up = full_sizes(LLAMA3_8B, _qlora()), full_sizes(LLAMA3_8B, _qlora(kbit_upcast=True))
    assert up.weights - base.weights == pytest.approx((c.total - c.linear) * 2)
    assert (c.total - c.linear) * 2 / 2**30 == pytest.approx(1.96, abs=0.01)  # Llama 3 8B: ~2 GB more
    # the fp32 embedding's output keeps the residual stream fp32: each checkpointed layer input 2 bytes more
    assert up.activations - base.activations == pytest.approx(2048 * 2 * LLAMA3_8B.hidden_size * LLAMA3_8B.n_layers)
    # autocast runs the lm_head on an fp16 copy of its fp32 weight, kept for its backward
    assert up.buffers - base.buffers == pytest.approx(c.lm_head * 2)


def test_kbit_upcast_in_fp32_training_has_no_16_bit_copy_and_only_qlora_in_peft_takes_it():
    base, up = (full_sizes(LLAMA3_8B, _qlora(precision="fp32", kbit_upcast=k)) for k in (False, True))
    assert up.buffers == base.buffers and up.activations == base.activations  # the stream is fp32 already
    assert up.weights > base.weights
    for other in (dict(framework="torchtune"), dict(method="lora", weights="bf16")):
        assert full_sizes(LLAMA3_8B, _qlora(kbit_upcast=True, **other)) == full_sizes(LLAMA3_8B, _qlora(**other))


def test_a_loop_that_keeps_the_output_holds_its_logits_until_the_step_ends():
    # out = model(...); out.loss.backward(); optimizer.step(): out.logits (the lm_head's output over the vocabulary,
    # 16 bits under autocast, 4 bytes in fp32 training) stays from the forward's end until the step ends.
    from advisor.core.memory.peak import estimate_memory

    def phases(**kw):
        return dict(estimate_memory(LLAMA3_8B, _qlora(**kw)).breakdown.phases)

    base, kept = phases(), phases(keeps_output=True)
    elements = 2048 * 1 * LLAMA3_8B.vocab_size
    for phase in ("forward end", "backward", "backward end", "optimizer step"):
        assert kept[phase] - base[phase] == pytest.approx(elements * 2), phase
    assert elements * 2 / 1e9 == pytest.approx(0.53, abs=0.01)  # the setting's tip: about 0.5 GB a sequence
    fp32 = phases(precision="fp32", keeps_output=True)["backward"] - phases(precision="fp32")["backward"]
    assert fp32 == pytest.approx(elements * 4)
    # the HF Trainer's loop returns the loss alone; the option is the Hugging Face framework's only
    assert phases(framework="torchtune", keeps_output=True) == phases(framework="torchtune")
