"""Training buffers: the loss's logits by implementation, DDP's gradient buckets (``memory.train_buffers``)."""

import pytest

from advisor.core.job.planned import PlannedJob

from tests.core.memory.memory_fixtures import LLAMA2_7B, LLAMA3_8B, TRAIN, full_sizes


def test_ddp_buckets_double_gradients():
    b = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN, n_gpus=2, parallel="ddp"))
    single = full_sizes(LLAMA2_7B, PlannedJob(**TRAIN))
    assert b.buffers - single.buffers == pytest.approx(b.gradients)


@pytest.mark.parametrize(("loss", "cheaper_than_upcast"), [("fp32-logits", False), ("chunked", True), ("fused", True)])
def test_loss_implementations(loss, cheaper_than_upcast):
    from advisor.core.memory.train_buffers import loss_buffer_bytes

    w = PlannedJob(**TRAIN, seq_len=4096)
    upcast = loss_buffer_bytes(LLAMA3_8B, w.model_copy(update={"loss": "upcast"}), 1)
    other = loss_buffer_bytes(LLAMA3_8B, PlannedJob(**TRAIN, seq_len=4096, loss=loss), 1)
    assert (other < upcast) is cheaper_than_upcast
    assert upcast == pytest.approx(4096 * LLAMA3_8B.vocab_size * 10)


def test_chunked_loss_keeps_bf16_logits_and_one_fp32_chunk():
    from advisor.core.memory.activations import (
        chunked_loss_logits_bytes,
        train_logits_bytes,
    )

    elements = 2048 * 2 * 128_256
    assert chunked_loss_logits_bytes(LLAMA3_8B, 2048, 2, 8) == pytest.approx(elements * (2 + 8 / 8))
    assert chunked_loss_logits_bytes(LLAMA3_8B, 2048, 2, 1) == train_logits_bytes(LLAMA3_8B, 2048, 2)
