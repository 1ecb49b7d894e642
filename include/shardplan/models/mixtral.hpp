// Mixtral 8x7B as a model shape.
#pragma once

#include <shardplan/models/model.hpp>

namespace shardplan::models {

/// Mixtral 8x7B. Jiang et al. 2024, "Mixtral of Experts" (arXiv:2401.04088) Table 1 and Hugging
/// Face `mistralai/Mixtral-8x7B-v0.1` config.json: 32 layers, dim 4096, 32 heads of 128, 8 KV
/// heads, every layer an MoE of 8 SwiGLU experts of hidden 14336 with top-2 routing (router without
/// bias), vocab 32000, RMSNorm, RoPE, no biases, tie_word_embeddings false. No layer has a dense
/// MLP, so d_ff is 0.
struct mixtral_8x7b {
  static constexpr model_shape shape = {
      .name = "mixtral-8x7b",
      .layers = 32,
      .d_model = 4096,
      .d_ff = 0,
      .heads = 32,
      .kv_heads = 8,
      .head_dim = 128,
      .vocab = 32000,
      .moe = {.experts = 8, .top_k = 2, .expert_d_ff = 14336},
  };
};

}  // namespace shardplan::models
