"""Every shipped model preset validates, is named after its id and matches its published size.

The presets are the models' published ``config.json`` values (source URL in each file);
``count_params`` derives the total from those shapes, so a typo in a shape shows up here
as a mismatch against the total the authors state.
"""

import json
from pathlib import Path

import pytest

from advisor.core.model.arch import AttentionKind, ModelArch
from advisor.core.model.params import count_params

MODELS_DIR = Path(__file__).resolve().parents[3] / "catalog" / "models"
FILES = sorted(MODELS_DIR.glob("*.json"))

REQUIRED_IDS = {
    "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.2-1b", "llama-3.2-3b", "llama-3-8b",
    "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "mistral-7b-v0.1", "ministral-8b",
    "mixtral-8x7b", "mixtral-8x22b", "qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-7b", "qwen2.5-14b",
    "qwen2.5-32b", "qwen2.5-72b", "qwen3-8b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b",
    "gemma-2-9b", "gemma-2-27b", "gemma-3-27b", "phi-3-mini", "phi-3-medium", "phi-4",
    "deepseek-v3", "yi-34b", "codellama-34b", "falcon-40b", "falcon-180b", "gpt-3-175b",
}

TOLERANCE = 0.02
# Published totals that are rounded nominal sizes further than 2 % from the shapes (documented
# in each file's notes): Phi-4 "14B" vs 14.66B (1.03B untied embeddings), Falcon-40B "40B" vs 41.3B.
EXCEPTIONS = {"phi-4": 0.05, "falcon-40b": 0.04}
# Gemma 2 report (Table 1) states non-embedding counts, not totals.
NON_EMBEDDING_PUBLISHED = {"gemma-2-9b": 8_324_201_984, "gemma-2-27b": 26_047_480_320}


def _load(path: Path) -> ModelArch:
    return ModelArch.model_validate_json(path.read_text(encoding="utf-8"))


def test_at_least_30_presets_and_every_required_id():
    ids = {p.stem for p in FILES}
    assert len(FILES) >= 30
    assert REQUIRED_IDS <= ids, sorted(REQUIRED_IDS - ids)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_preset_validates_and_id_is_file_name(path):
    arch = _load(path)
    assert arch.id == path.stem
    assert arch.source is not None
    assert arch.n_heads * arch.head_dim > 0 and arch.n_heads % arch.n_kv_heads == 0


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_derived_total_matches_published(path):
    arch = _load(path)
    counts = count_params(arch)
    if arch.id in NON_EMBEDDING_PUBLISHED:
        non_embedding = counts.total - counts.embedding - counts.lm_head
        assert non_embedding == pytest.approx(NON_EMBEDDING_PUBLISHED[arch.id], rel=TOLERANCE)
        return
    assert arch.params_published is not None, "set params_published or document the exception"
    tolerance = EXCEPTIONS.get(arch.id, TOLERANCE)
    assert counts.total == pytest.approx(arch.params_published, rel=tolerance)


def test_exceptions_really_are_outside_two_percent():
    # An exception that no longer needs its wider tolerance should be removed.
    for model_id in EXCEPTIONS:
        arch = _load(MODELS_DIR / f"{model_id}.json")
        deviation = abs(count_params(arch).total - arch.params_published) / arch.params_published
        assert deviation > TOLERANCE


def test_files_are_in_the_catalog_stores_canonical_form():
    # Exactly what the catalog store writes (defaults left out, id first): edits give clean diffs.
    from advisor.storage.catalog_store import record_json

    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert json.loads(text)["schema_version"] == 1
        assert text == record_json(_load(path)), path.name


@pytest.mark.parametrize(
    ("model_id", "kind", "window", "sliding_layers"),
    [
        ("mistral-7b-v0.1", AttentionKind.SLIDING, 4096, None),  # every layer
        ("gemma-2-9b", AttentionKind.SLIDING, 4096, 21),  # alternating local/global
        ("gemma-2-27b", AttentionKind.SLIDING, 4096, 23),
        ("gemma-3-27b", AttentionKind.SLIDING, 1024, 52),  # 5 local : 1 global
        ("gpt-oss-20b", AttentionKind.SLIDING, 128, 12),  # layer_types: sliding, full, sliding …
        ("gpt-oss-120b", AttentionKind.SLIDING, 128, 18),
        ("deepseek-v3", AttentionKind.MLA, None, None),
        ("llama-3.1-8b", AttentionKind.FULL, None, None),
    ],
)
def test_attention_layouts(model_id, kind, window, sliding_layers):
    att = _load(MODELS_DIR / f"{model_id}.json").attention
    assert att.kind is kind
    assert att.sliding_window == window
    assert att.sliding_layers == sliding_layers


@pytest.mark.parametrize(
    ("model_id", "tied"),
    [("llama-3.2-1b", True), ("llama-3.2-3b", True), ("gemma-2-9b", True), ("qwen2.5-0.5b", True),
     ("qwen2.5-1.5b", True), ("qwen2.5-7b", False), ("llama-3.1-8b", False)],
)
def test_tied_embeddings(model_id, tied):
    assert _load(MODELS_DIR / f"{model_id}.json").tied_embeddings is tied


@pytest.mark.parametrize("model_id", ["falcon-40b", "falcon-180b", "gpt-3-175b"])
def test_plain_mlp_models(model_id):
    assert _load(MODELS_DIR / f"{model_id}.json").gated_mlp is False


@pytest.mark.parametrize(("model_id", "block", "residual"),
                         [("falcon-40b", False, True), ("falcon-180b", False, True), ("phi-1.5", True, False),
                          ("llama-2-70b", False, False)])
def test_side_by_side_layers(model_id, block, residual):
    # Falcon's new decoder architecture: ln_attn and ln_mlp, attention and MLP added (config.json
    # new_decoder_architecture); phi-1.5: one shared input_layernorm.
    arch = _load(MODELS_DIR / f"{model_id}.json")
    assert (arch.parallel_block, arch.parallel_residual, arch.side_by_side) == (block, residual, block or residual)


def test_one_shared_norm_and_a_norm_each_exclude_each_other():
    data = json.loads((MODELS_DIR / "falcon-40b.json").read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="exclude each other"):
        ModelArch.model_validate({**data, "parallel_block": True})


@pytest.mark.parametrize(
    ("model_id", "active_published"),
    [("mixtral-8x7b", 12.9e9), ("mixtral-8x22b", 39e9), ("qwen3-30b-a3b", 3.3e9),
     ("qwen3-235b-a22b", 22e9), ("deepseek-v3", 37e9)],
)
def test_moe_active_parameters(model_id, active_published):
    # Active counts as the authors state them (see each file's notes).
    assert count_params(_load(MODELS_DIR / f"{model_id}.json")).active == pytest.approx(active_published, rel=0.03)


# gpt-oss: the numbers of each config.json (https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json and
# …/gpt-oss-120b/…): num_hidden_layers, num_local_experts; the rest are the same in both.
@pytest.mark.parametrize(("model_id", "layers", "experts"), [("gpt-oss-20b", 24, 32), ("gpt-oss-120b", 36, 128)])
def test_gpt_oss_presets_are_their_configs(model_id, layers, experts):
    arch = _load(MODELS_DIR / f"{model_id}.json")
    assert (arch.n_layers, arch.hidden_size, arch.n_heads, arch.head_dim, arch.n_kv_heads) == (layers, 2880, 64, 64, 8)
    assert arch.moe is not None
    assert (arch.moe.n_experts, arch.moe.n_active, arch.moe.expert_ffn_size, arch.moe.n_shared) == (experts, 4, 2880, 0)
    assert (arch.vocab_size, arch.tied_embeddings, arch.max_context, arch.gated_mlp) == (201088, False, 131072, True)


# The model card's Table 1 (arXiv:2508.10925) counts the unembedding as active but not the embedding: 3.61B and 5.13B.
@pytest.mark.parametrize(("model_id", "active"), [("gpt-oss-20b", 3.61e9), ("gpt-oss-120b", 5.13e9)])
def test_gpt_oss_active_parameters_as_the_card_counts_them(model_id, active):
    counts = count_params(_load(MODELS_DIR / f"{model_id}.json"))
    assert counts.active - counts.embedding == pytest.approx(active, rel=0.005)
