// GPT-3 175B and the GPT family of the Megatron-LM scaling paper, as model shapes.
#pragma once

#include <cstdint>
#include <string_view>

#include <shardplan/models/model.hpp>

namespace shardplan::models {

/// GPT-3 175B. Brown et al. 2020, "Language Models are Few-Shot Learners" (arXiv:2005.14165),
/// Table 2.1: 96 layers, d_model 12288, 96 heads of 128, context 2048; Sec. 2.1: GPT-2's
/// architecture (pre-LayerNorm, learned positions, biases, d_ff = 4·d_model, output tied to the
/// input embedding) and GPT-2's BPE vocabulary of 50,257 tokens.
struct gpt3_175b {
  static constexpr model_shape shape = {
      .name = "gpt3-175b",
      .layers = 96,
      .d_model = 12288,
      .d_ff = 4 * 12288,
      .heads = 96,
      .kv_heads = 96,
      .head_dim = 128,
      .vocab = 50257,
      .gated_mlp = false,
      .tied_embeddings = true,
      .biases = true,
      .norm = norm_kind::layer_norm,
      .position_embeddings = 2048,
  };
};

/// A GPT of the Megatron-LM papers with `layers`, hidden size `hidden` and `heads` heads: GPT-2
/// architecture (LayerNorm, biases on QKV, output projection and both MLP matrices, learned
/// positions, d_ff = 4·hidden, tied embeddings), vocabulary 51,200 and sequence length 2048 as in
/// Narayanan et al. 2021 (SC'21, arXiv:2104.04473), Table 1 and Sec. 5.1.
constexpr model_shape megatron_gpt_shape(std::string_view name, std::int64_t layers,
                                         std::int64_t hidden, std::int64_t heads) {
  return {
      .name = name,
      .layers = layers,
      .d_model = hidden,
      .d_ff = 4 * hidden,
      .heads = heads,
      .kv_heads = heads,
      .head_dim = hidden / heads,
      .vocab = 51200,
      .gated_mlp = false,
      .tied_embeddings = true,
      .biases = true,
      .norm = norm_kind::layer_norm,
      .position_embeddings = 2048,
  };
}

/// A Megatron-LM GPT of any size (see `megatron_gpt_shape`).
template <std::int64_t Layers, std::int64_t Hidden, std::int64_t Heads>
struct megatron_gpt {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt", Layers, Hidden, Heads);
};

// The ten rows of Narayanan et al. 2021, Table 1 (heads, hidden size, layers); the paper prints
// their sizes as 1.7, 3.6, 7.5, 18.4, 39.1, 76.1, 145.6, 310.1, 529.6 and 1008.0 billion.

/// Megatron GPT 1.7B: 24 layers, hidden 2304, 24 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_1_7b {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-1.7b", 24, 2304, 24);
};
/// Megatron GPT 3.6B: 30 layers, hidden 3072, 32 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_3_6b {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-3.6b", 30, 3072, 32);
};
/// Megatron GPT 7.5B: 36 layers, hidden 4096, 32 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_7_5b {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-7.5b", 36, 4096, 32);
};
/// Megatron GPT 18B: 40 layers, hidden 6144, 48 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_18b {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-18b", 40, 6144, 48);
};
/// Megatron GPT 39B: 48 layers, hidden 8192, 64 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_39b {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-39b", 48, 8192, 64);
};
/// Megatron GPT 76B: 60 layers, hidden 10240, 80 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_76b {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-76b", 60, 10240, 80);
};
/// Megatron GPT 145B: 80 layers, hidden 12288, 96 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_145b {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-145b", 80, 12288, 96);
};
/// Megatron GPT 310B: 96 layers, hidden 16384, 128 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_310b {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-310b", 96, 16384, 128);
};
/// Megatron GPT 530B: 105 layers, hidden 20480, 128 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_530b {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-530b", 105, 20480, 128);
};
/// Megatron GPT 1T: 128 layers, hidden 25600, 160 heads (Narayanan et al. 2021, Table 1).
struct megatron_gpt_1t {
  static constexpr model_shape shape = megatron_gpt_shape("megatron-gpt-1t", 128, 25600, 160);
};

}  // namespace shardplan::models
