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
  /// After the dense ones, every `every`-th layer is an MoE layer (the `every`-th, 2·`every`-th,
  /// ...) and the others keep a dense MLP of width d_ff: Llama 4 Maverick's
  /// `interleave_moe_layer_step` 2. 0 or 1: every layer after the dense ones.
  std::int64_t every = 1;
};

/// How a layer that does not attend to the whole sequence bounds its keys: a sliding window of
/// the latest `window` tokens (Mistral, Gemma 2/3, gpt-oss), or chunks of `window` tokens that
/// attend only within themselves (Llama 4's chunked attention).
enum class local_attention_kind : std::uint8_t { sliding, chunked };

/// Layers whose attention is local. `window == 0`: every layer attends to the whole sequence.
/// Otherwise every `global_every`-th layer (the `global_every`-th, 2·`global_every`-th, ...)
/// attends globally and the others locally; `global_every == 0`: every layer is local.
struct local_attention_shape {
  std::int64_t window = 0;        ///< tokens a local layer keeps (sliding) or its chunk's length
  std::int64_t global_every = 0;  ///< the period of the global layers; 0: none
  local_attention_kind kind = local_attention_kind::sliding;
};

/// Normalisation of queries and keys before attention: none, one norm of head_dim shared by
/// every head (Qwen3, Gemma 3), or one over all query heads and one over all kv heads (OLMo 2).
enum class qk_norm_kind : std::uint8_t { none, per_head, whole };

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
  local_attention_shape local{};
  qk_norm_kind qk_norm = qk_norm_kind::none;
  bool qkv_bias = false;           ///< biases on the query, key and value projections only (Qwen2)
  std::int64_t layer_norms = 2;    ///< norms of d_model per layer: 2 (pre or post), 4 (Gemma 2/3)
  bool attention_sinks = false;    ///< a learned sink logit per query head and layer (gpt-oss)
};

/// Every field of a shape, in declaration order, as `visit(key, get, description)`: `key` is the
/// plan-file key ("moe.experts" for a nested one), `get(shape)` the field, for a const or a
/// mutable shape. The writer, the differ, the C++ header writer and the key reference go through
/// it; the name is not among them.
template <class Visit>
constexpr void for_each_shape_field(Visit&& visit) {
  // clang-format off
  visit("layers", [](auto& m) -> auto& { return m.layers; }, "decoder layers (required)");
  visit("d_model", [](auto& m) -> auto& { return m.d_model; }, "hidden width (required)");
  visit("d_ff", [](auto& m) -> auto& { return m.d_ff; }, "hidden width of a dense MLP (required when a layer has one)");
  visit("heads", [](auto& m) -> auto& { return m.heads; }, "query heads (required)");
  visit("kv_heads", [](auto& m) -> auto& { return m.kv_heads; }, "key-value heads (default: heads)");
  visit("head_dim", [](auto& m) -> auto& { return m.head_dim; }, "per-head width (default: d_model / heads)");
  visit("vocab", [](auto& m) -> auto& { return m.vocab; }, "vocabulary (required)");
  visit("gated_mlp", [](auto& m) -> auto& { return m.gated_mlp; }, "SwiGLU/GeGLU MLP (three matrices)");
  visit("tied_embeddings", [](auto& m) -> auto& { return m.tied_embeddings; }, "output projection reuses the input embedding");
  visit("biases", [](auto& m) -> auto& { return m.biases; }, "every linear layer has biases");
  visit("norm", [](auto& m) -> auto& { return m.norm; }, "rms_norm or layer_norm");
  visit("position_embeddings", [](auto& m) -> auto& { return m.position_embeddings; }, "learned absolute positions (0 with RoPE)");
  visit("moe.experts", [](auto& m) -> auto& { return m.moe.experts; }, "routed experts per MoE layer (required in `moe`)");
  visit("moe.top_k", [](auto& m) -> auto& { return m.moe.top_k; }, "routed experts per token (required in `moe`)");
  visit("moe.shared_experts", [](auto& m) -> auto& { return m.moe.shared_experts; }, "always-active experts per MoE layer");
  visit("moe.expert_d_ff", [](auto& m) -> auto& { return m.moe.expert_d_ff; }, "hidden width of one expert (required in `moe`)");
  visit("moe.dense_layers", [](auto& m) -> auto& { return m.moe.dense_layers; }, "leading layers with a dense MLP");
  visit("moe.router_bias", [](auto& m) -> auto& { return m.moe.router_bias; }, "a per-expert router bias");
  visit("moe.every", [](auto& m) -> auto& { return m.moe.every; }, "every N-th layer after the dense ones is MoE");
  visit("mla.q_lora_rank", [](auto& m) -> auto& { return m.mla.q_lora_rank; }, "query down-projection rank (0: none)");
  visit("mla.kv_lora_rank", [](auto& m) -> auto& { return m.mla.kv_lora_rank; }, "the cached latent's width (required in `mla`, as the head widths)");
  visit("mla.qk_nope_head_dim", [](auto& m) -> auto& { return m.mla.qk_nope_head_dim; }, "query/key width without rotary");
  visit("mla.qk_rope_head_dim", [](auto& m) -> auto& { return m.mla.qk_rope_head_dim; }, "query/key rotary width");
  visit("mla.v_head_dim", [](auto& m) -> auto& { return m.mla.v_head_dim; }, "value width");
  visit("local.window", [](auto& m) -> auto& { return m.local.window; }, "tokens a local layer attends to (required in `local`)");
  visit("local.global_every", [](auto& m) -> auto& { return m.local.global_every; }, "every N-th layer attends globally (0: none)");
  visit("local.kind", [](auto& m) -> auto& { return m.local.kind; }, "sliding or chunked");
  visit("qk_norm", [](auto& m) -> auto& { return m.qk_norm; }, "none, per_head or whole");
  visit("qkv_bias", [](auto& m) -> auto& { return m.qkv_bias; }, "biases on q, k and v only");
  visit("layer_norms", [](auto& m) -> auto& { return m.layer_norms; }, "norms of d_model per layer");
  visit("attention_sinks", [](auto& m) -> auto& { return m.attention_sinks; }, "a sink logit per head and layer");
  // clang-format on
}

/// A type that describes a model: it carries `static constexpr model_shape shape`.
template <class T>
concept ModelSpec = requires {
  { T::shape } -> std::convertible_to<const model_shape&>;
};

}  // namespace shardplan
