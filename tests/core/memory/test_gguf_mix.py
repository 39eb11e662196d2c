"""llama.cpp K-quant files sized tensor by tensor (``memory.gguf_mix``) against published file sizes."""

import pytest

from advisor.core.job.planned import PlannedJob
from advisor.core.memory.gguf_mix import MIXES, mix_layout, use_more_bits
from advisor.core.memory.experts import routed_expert_bytes_per_layer
from advisor.core.memory.inference import weights_bytes
from advisor.core.model.params import count_params
from advisor.storage.catalog_store import load_catalog

MODELS = load_catalog().catalog.models

#: bartowski's imatrix quantizations of Llama 3.1 70B (Nemotron-70B-Instruct: the same shapes), file sizes in GB
#: as his model card lists them (copied at ozeki.chat/p_8590-understanding-ai-model-files.html); GGUF metadata
#: (tokenizer, ~0.01 GB) is in the file, not in the weights.
LLAMA_31_70B_GB = {"q8_0": 74.98, "q6_k": 57.89, "q5_k_m": 49.95, "q5_k_s": 48.66, "q4_k_m": 42.52, "q4_k_s": 40.35,
                   "q3_k_l": 37.14, "q3_k_m": 34.27, "q3_k_s": 30.91}
#: bartowski/deepseek-ai_DeepSeek-V3-0324-GGUF (llama.cpp b4944), file sizes in GB from its model card.
DEEPSEEK_V3_GB = {"q8_0": 713.29, "q6_k": 550.80, "q5_k_m": 475.40, "q5_k_s": 461.81, "q4_k_m": 404.43}


@pytest.mark.parametrize(("model", "mix", "gb"), [("llama-3.1-70b", k, v) for k, v in LLAMA_31_70B_GB.items()]
                         + [("deepseek-v3", k, v) for k, v in DEEPSEEK_V3_GB.items()])
def test_k_quant_files_weigh_what_their_publishers_list(model, mix, gb):
    size = weights_bytes(MODELS[model], PlannedJob(weights=mix, engine="llama.cpp"))
    assert size / 1e9 == pytest.approx(gb, rel=1e-3)


def test_deepseek_v3_q4_k_m_is_not_llama_s_average():
    # DeepSeek-V3 Q4_K_M was 349 GiB at Llama-3.1-8B's average width; the file is ~377 GiB (404.43 GB above):
    # a third of its routed experts (ffn_down_exps) are Q6_K on half the layers.
    arch = MODELS["deepseek-v3"]
    whole, experts, _ = mix_layout(arch, "q4_k_m")
    assert whole / 2**30 == pytest.approx(376.8, abs=0.5)
    assert experts / whole > 0.95
    assert routed_expert_bytes_per_layer(arch, PlannedJob(weights="q4_k_m", engine="llama.cpp")) == pytest.approx(
        experts / (arch.n_layers - arch.moe.n_dense_layers))


def test_use_more_bits_picks_half_the_layers():
    # llama-quant.cpp: i < n/8, i >= 7n/8, every third between.
    assert [i for i in range(16) if use_more_bits(i, 16)] == [0, 1, 4, 7, 10, 13, 14, 15]
    assert sum(use_more_bits(i, 32) for i in range(32)) == 16


@pytest.mark.parametrize("model", ["llama-3.1-8b", "qwen2.5-72b", "mixtral-8x7b", "qwen3-235b-a22b", "deepseek-v3",
                                   "gemma-2-9b"])
def test_every_parameter_is_counted_once(model):
    # Q8_0 everywhere (output too): the bytes are 8.5 bits per quantized weight plus 32 for what stays f32.
    arch = MODELS[model]
    c = count_params(arch)
    whole = mix_layout(arch, "q8_0")[0]
    router = (0 if arch.moe is None else
              (arch.n_layers - arch.moe.n_dense_layers) * arch.hidden_size * arch.moe.n_experts)
    assert whole * 8 == pytest.approx((c.total - c.norms - router) * 8.5 + (c.norms + router) * 32, rel=2e-3)
    assert set(MIXES) >= {"q4_k_m", "q5_k_m", "q3_k_m", "q8_0"}
