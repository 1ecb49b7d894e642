// DeepSeek-V3 (671B, MLA and DeepSeekMoE) as a model shape.
#pragma once

#include <shardplan/models/model.hpp>

namespace shardplan::models {

/// DeepSeek-V3, the main model without its multi-token-prediction module (671B total; the 685B
/// checkpoint adds the 14B MTP module). deepseek-ai/DeepSeek-V3
/// `inference/configs/config_671B.json`: vocab_size 129280, dim 7168, inter_dim 18432,
/// moe_inter_dim 2048, n_layers 61, n_dense_layers 3, n_heads 128, n_routed_experts 256,
/// n_shared_experts 1, n_activated_experts 8, q_lora_rank 1536, kv_lora_rank 512, qk_nope_head_dim
/// 128, qk_rope_head_dim 64, v_head_dim 128; `inference/model.py`: RMSNorm, SwiGLU experts, no
/// linear biases, a per-expert gate bias when dim is 7168 (the auxiliary-loss-free balance bias),
/// separate embedding and output head (DeepSeek-V3 report, arXiv:2412.19437, Sec. 2). head_dim is
/// the query/key head width 128 + 64; values are 128 wide, and the MLA sizes, not kv_heads and
/// head_dim, determine the attention parameters.
struct deepseek_v3 {
  static constexpr model_shape shape = {
      .name = "deepseek-v3",
      .layers = 61,
      .d_model = 7168,
      .d_ff = 18432,
      .heads = 128,
      .kv_heads = 128,
      .head_dim = 192,
      .vocab = 129280,
      .moe = {.experts = 256,
              .top_k = 8,
              .shared_experts = 1,
              .expert_d_ff = 2048,
              .dense_layers = 3,
              .router_bias = true},
      .mla = {.q_lora_rank = 1536,
              .kv_lora_rank = 512,
              .qk_nope_head_dim = 128,
              .qk_rope_head_dim = 64,
              .v_head_dim = 128},
  };
};

}  // namespace shardplan::models
