"""The loss's logits in training: what the lm_head's output and the cross-entropy around it keep, by how the
framework computes the loss (whole and upcast, in chunks eager or compiled, LitGPT's chunks through Fabric)."""

from __future__ import annotations

from advisor.core.memory.activations import ACT_BYTES
from advisor.core.model.arch import ModelArch

#: Bytes per logit element an eager chunked cross-entropy keeps at the end of the loss's forward: the bf16
#: output of every chunk (2; the recipe drops it only after the loss, ``del logits``) and every chunk's fp32
#: log-softmax (4), saved for the backward.
EAGER_CHUNKED_LOSS_BYTES_PER_ELEMENT = ACT_BYTES + 4
#: Bytes per logit element around a whole (one-chunk) eager loss: those two and the fp32 upcast in transformers'
#: ForCausalLMLoss (4): 10.
LOGITS_TRAIN_BYTES_PER_ELEMENT = EAGER_CHUNKED_LOSS_BYTES_PER_ELEMENT + 4


def logit_elements(arch: ModelArch, seq: int, micro_batch: int, tp: int = 1) -> float:
    """Elements of one micro-batch's logits on a GPU: tokens × vocabulary, split over ``tp`` ranks."""
    return seq * micro_batch * arch.vocab_size / tp


def train_logits_bytes(arch: ModelArch, seq: int, micro_batch: int, tp: int = 1) -> float:
    """Logits and cross-entropy around the loss: tokens × vocab × 10 B (see constant)."""
    return logit_elements(arch, seq, micro_batch, tp) * LOGITS_TRAIN_BYTES_PER_ELEMENT


def upcast_loss_logits_bytes(arch: ModelArch, seq: int, micro_batch: int, chunks: int, tp: int = 1, *,
                             compiled: bool) -> float:
    """Logits around a cross-entropy that upcasts them to fp32, whole (``chunks`` = 1: transformers, torchtitan) or one
    chunk at a time (torchtune ``CEWithChunkedOutputLoss``, torchtune PR #1390; torchtitan's
    ``chunked_cross_entropy_loss``, PR #996).

    Eager, ``F.cross_entropy(chunk.float())`` keeps every chunk's fp32 log-softmax for the backward (``_log_softmax``'s
    derivative reads its ``result``, and ``nll_loss`` saves the same tensor: tools/autograd/derivatives.yaml) beside the
    bf16 logits, so chunks save only the upcast copy, one chunk's (``EAGER_CHUNKED_LOSS_BYTES_PER_ELEMENT`` + 4 B over
    ``chunks``; one chunk is ``LOGITS_TRAIN_BYTES_PER_ELEMENT``) — the class docstring's "the CE and upcasting have to
    be compiled together" (torchtune/modules/loss/ce_chunked_output_loss.py at 10ff7cd2). Compiled (``compiled``: the
    framework compiles the upcast and cross-entropy, ``Profile.compile_covers_loss``), Inductor reads the bf16 logits
    straight into its softmax reductions and keeps only a per-row log-sum-exp for the backward, which writes each
    chunk's bf16 gradient in one pass: the bf16 logits and one chunk's gradient (2 + 2 B over ``chunks``)."""
    elements = logit_elements(arch, seq, micro_batch, tp)
    if compiled:
        return elements * ACT_BYTES * (1 + 1 / max(1, chunks))
    return elements * (EAGER_CHUNKED_LOSS_BYTES_PER_ELEMENT + 4 / max(1, chunks))


#: Bytes per logit element under LitGPT's chunked loss, run through Lightning Fabric:
#: ``model(input_ids, lm_head_chunk_size=128)`` returns a list of bf16 chunks, but Fabric's
#: ``_FabricModule.forward`` passes the model's output through ``precision.convert_output``, which casts
#: every floating tensor to ``torch.get_default_dtype()`` (fp32): lightning src/lightning/fabric/wrappers.py
#: line 123 at 2.1.0 (6f6c07dd) and line 143 at 2.4.0 (2129fdf3), ``HalfPrecision.convert_output`` (plugins/
#: precision/half.py line 55 / 62) and ``BitsandbytesPrecision.convert_output`` alike. The training loop keeps
#: that fp32 list referenced through backward (4 B), and ``chunked_cross_entropy`` runs ``F.cross_entropy``
#: on each fp32 chunk with ``reduction="none"``, whose fp32 log-softmax output every chunk keeps for
#: backward (4 B); the number of chunks does not change the sum (litgpt/finetune/lora.py and
#: litgpt/utils.py at ``advisor.core.job.frameworks.LITGPT_COMMIT``; finetune/lora.py at 8641822). The bf16
#: chunks (2 B) are dropped once converted: at the end of the forward they and the fp32 copies (6 B)
#: are fewer than the 8 B at the start of backward.
FABRIC_CHUNKED_LOSS_BYTES_PER_ELEMENT = 4 + 4


def fabric_chunked_loss_logits_bytes(arch: ModelArch, seq: int, micro_batch: int, tp: int = 1) -> float:
    """Logits and log-probabilities of LitGPT's chunked cross-entropy, all chunks kept in fp32."""
    return logit_elements(arch, seq, micro_batch, tp) * FABRIC_CHUNKED_LOSS_BYTES_PER_ELEMENT
