// What a model is to shardplan: a transformer's shape (dense, mixture-of-experts, MLA) as plain values,
// and its exact parameter counts.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>

namespace shardplan {

/// Normalisation layers: LayerNorm has a weight and a bias per feature, RMSNorm a weight only.
enum class norm_kind : std::uint8_t { layer_norm, rms_norm };

/// Multi-head latent attention (DeepSeek-V2/V3): queries and keys/values pass through low-rank
/// projections; the KV cache holds the KV latent plus one shared rope key per token and layer.
/// All zero means standard (MHA/GQA/MQA) attention.
struct mla_shape {
  std::int64_t q_lora_rank = 0;   ///< 0: queries projected directly from d_model
  std::int64_t kv_lora_rank = 0;  ///< the cached latent's width
  std::int64_t qk_nope_head_dim = 0;
  std::int64_t qk_rope_head_dim = 0;
  std::int64_t v_head_dim = 0;
};

/// Mixture-of-experts feed-forward layers. `experts == 0` means a dense model.
struct moe_shape {
  std::int64_t experts = 0;         ///< routed experts per MoE layer
  std::int64_t top_k = 0;           ///< routed experts active per token
  std::int64_t shared_experts = 0;  ///< always-active experts per MoE layer
  std::int64_t expert_d_ff = 0;     ///< hidden width of one expert (routed or shared)
  std::int64_t dense_layers = 0;    ///< leading layers that keep a dense MLP of width d_ff
  bool router_bias = false;         ///< a per-expert bias on the router (DeepSeek-V3's balance bias)
};

/// A decoder-only transformer's shape. Counts are 64-bit integers.
struct model_shape {
  std::string_view name;
  std::int64_t layers = 0;
  std::int64_t d_model = 0;
  std::int64_t d_ff = 0;          ///< hidden width of a dense MLP
  std::int64_t heads = 0;         ///< query heads
  std::int64_t kv_heads = 0;      ///< = heads: MHA; 1: MQA; between: GQA
  std::int64_t head_dim = 0;      ///< per-head width of queries, keys and values
  std::int64_t vocab = 0;
  bool gated_mlp = true;          ///< SwiGLU/GeGLU: three matrices (gate, up, down); else two
  bool tied_embeddings = false;   ///< the output projection reuses the input embedding
  bool biases = false;            ///< linear layers carry biases (GPT-2/3, Megatron GPT)
  norm_kind norm = norm_kind::rms_norm;
  std::int64_t position_embeddings = 0;  ///< learned absolute positions (GPT); 0 for RoPE
  moe_shape moe{};
  mla_shape mla{};
};

/// A type that describes a model: it carries `static constexpr model_shape shape`.
template <class T>
concept ModelSpec = requires {
  { T::shape } -> std::convertible_to<const model_shape&>;
};

}  // namespace shardplan
