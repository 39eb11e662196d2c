"""Model architecture: what the estimator needs to know about a decoder-only LLM.

Field names follow Hugging Face ``config.json`` meanings (``num_hidden_layers`` →
``n_layers`` …) so an import is a rename. Parameter counts are derived from the shapes by
``advisor.core.model.params`` unless the published total is given.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, HttpUrl, model_validator

from advisor.core.schema import SCHEMA_VERSION, Frozen, RecordId, SchemaVersion

# Physical ranges, far beyond any published model (Llama 3.1 405B: hidden 16,384, 126 layers;
# Gemma 3: vocabulary 262,208) and far from overflowing the memory and FLOP sums
# (a vocab_size of 10^400 would otherwise be accepted). Each bound is named in pydantic's error.
MAX_LAYERS = 1_000
MAX_HIDDEN = 1_048_576
MAX_WIDTH = 65_536  # heads, head widths, MLA ranks, experts
MAX_FFN = 16_777_216
MAX_VOCAB = 16_777_216
MAX_TOKENS = 1_073_741_824


class AttentionKind(StrEnum):
    FULL = "full"
    SLIDING = "sliding"  # some or all layers see only the last ``window`` tokens
    MLA = "mla"  # DeepSeek multi-head latent attention (caches a compressed latent)


class AttentionLayout(Frozen):
    kind: AttentionKind = AttentionKind.FULL
    sliding_window: int | None = Field(None, ge=1, le=MAX_TOKENS, description="Window size in tokens")
    sliding_layers: int | None = Field(
        None, ge=0, le=MAX_LAYERS, description="How many layers use the window (None = all, for kind=sliding)"
    )
    kv_lora_rank: int | None = Field(None, ge=1, le=MAX_WIDTH, description="MLA compressed KV latent width")
    q_lora_rank: int | None = Field(None, ge=1, le=MAX_WIDTH, description="MLA compressed query width")
    qk_rope_head_dim: int | None = Field(None, ge=1, le=MAX_WIDTH, description="MLA decoupled RoPE key width")
    qk_nope_head_dim: int | None = Field(None, ge=1, le=MAX_WIDTH)
    v_head_dim: int | None = Field(None, ge=1, le=MAX_WIDTH)

    @model_validator(mode="after")
    def _complete(self) -> AttentionLayout:
        if self.kind is AttentionKind.SLIDING and self.sliding_window is None:
            raise ValueError("sliding attention needs sliding_window")
        if self.kind is AttentionKind.MLA and (self.kv_lora_rank is None or self.qk_rope_head_dim is None):
            raise ValueError("MLA needs kv_lora_rank and qk_rope_head_dim")
        return self

    @property
    def latent_kv_rank(self) -> int:
        """MLA's compressed KV width, which the validator holds present for MLA."""
        if self.kv_lora_rank is None:
            raise ValueError("not an MLA layout: it has no kv_lora_rank")
        return self.kv_lora_rank


class Moe(Frozen):
    n_experts: int = Field(ge=2, le=MAX_WIDTH, description="Routed experts per MoE layer")
    n_active: int = Field(ge=1, le=MAX_WIDTH, description="Routed experts each token uses")
    n_shared: int = Field(0, ge=0, le=MAX_WIDTH, description="Always-on shared experts")
    expert_ffn_size: int = Field(ge=1, le=MAX_FFN, description="Intermediate size of one expert")
    n_dense_layers: int = Field(0, ge=0, le=MAX_LAYERS, description="Leading layers with a dense MLP instead")

    @model_validator(mode="after")
    def _active_le_total(self) -> Moe:
        if self.n_active > self.n_experts:
            raise ValueError("n_active exceeds n_experts")
        return self


class ModelArch(Frozen):
    """A decoder-only transformer, as its published config describes it."""

    schema_version: SchemaVersion = SCHEMA_VERSION
    id: RecordId
    name: str = Field(min_length=1)
    family: str = ""
    n_layers: int = Field(ge=1, le=MAX_LAYERS)
    hidden_size: int = Field(ge=1, le=MAX_HIDDEN)
    n_heads: int = Field(ge=1, le=MAX_WIDTH)
    n_kv_heads: int = Field(ge=1, le=MAX_WIDTH)
    head_dim: int = Field(ge=1, le=MAX_WIDTH)
    ffn_size: int = Field(ge=1, le=MAX_FFN, description="Dense MLP intermediate size")
    vocab_size: int = Field(ge=1, le=MAX_VOCAB)
    tied_embeddings: bool = False
    gated_mlp: bool = Field(True, description="SwiGLU/GeGLU (3 matrices) vs plain MLP (2)")
    layer_norm: bool = Field(False, description="LayerNorm (saves its 16-bit input for backward) instead of "
                                                "RMSNorm (upcast to fp32)")
    parallel_block: bool = Field(False, description="Attention and MLP side by side from one shared norm "
                                                    "(GPT-J, Phi-1.5/2) instead of one after the other")
    parallel_residual: bool = Field(False, description="Attention and MLP side by side, each from its own norm "
                                                       "(Falcon's new decoder architecture, GPT-NeoX's "
                                                       "use_parallel_residual) instead of one after the other")
    post_norms: bool = Field(False, description="A norm after the attention and after the MLP as well as before "
                                                "them (Gemma 2/3): four norms per layer")
    attention: AttentionLayout = AttentionLayout()
    moe: Moe | None = None
    max_context: int = Field(4096, ge=1, le=MAX_TOKENS)
    params_published: float | None = Field(
        None, gt=0, le=1e15, description="Total parameters as the authors state (None: derive from shapes)"
    )
    source: HttpUrl | None = Field(None, description="Where the config comes from")
    notes: str = ""

    @model_validator(mode="after")
    def _heads_consistent(self) -> ModelArch:
        if self.n_kv_heads > self.n_heads:
            raise ValueError(f"n_kv_heads ({self.n_kv_heads}) exceeds n_heads ({self.n_heads})")
        if self.n_heads % self.n_kv_heads:
            raise ValueError(f"n_heads ({self.n_heads}) is not a multiple of n_kv_heads ({self.n_kv_heads})")
        if self.parallel_block and self.parallel_residual:
            raise ValueError("parallel_block (one shared norm) and parallel_residual (a norm each) exclude each other")
        return self

    @property
    def side_by_side(self) -> bool:
        """Attention and MLP read the same layer input and their outputs are added, with one shared
        norm or a norm each."""
        return self.parallel_block or self.parallel_residual
