// Exact parameter counts of a model shape, the rules a shape obeys, and the checked entry points.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>

#include <shardplan/core/rule.hpp>
#include <shardplan/models/model.hpp>

namespace shardplan {

// --- parts of a shape ----------------------------------------------------------------------------

/// True when the shape uses multi-head latent attention (`mla.kv_lora_rank > 0`).
constexpr bool has_mla(const model_shape& s) { return s.mla.kv_lora_rank > 0; }

/// True when the shape has mixture-of-experts layers (`moe.experts > 0`).
constexpr bool is_moe(const model_shape& s) { return s.moe.experts > 0; }

/// Layers whose MLP is a mixture of experts: after the `moe.dense_layers` leading dense ones, every
/// `moe.every`-th layer (all of them when `every` is 0 or 1).
constexpr std::int64_t moe_layer_count(const model_shape& s) {
  if (!is_moe(s)) return 0;
  const std::int64_t after = s.layers - s.moe.dense_layers;
  return s.moe.every > 1 ? after / s.moe.every : after;
}

/// MoE layers among the first `n` layers of the stack.
constexpr std::int64_t moe_layers_before(const model_shape& s, std::int64_t n) {
  if (!is_moe(s)) return 0;
  const std::int64_t after = (n < s.layers ? n : s.layers) - s.moe.dense_layers;
  if (after <= 0) return 0;
  return s.moe.every > 1 ? after / s.moe.every : after;
}

/// MoE layers among the `count` layers from `first` (a pipeline stage's): the leading dense
/// layers and the interleaved ones are where the stack puts them.
constexpr std::int64_t moe_layers_in(const model_shape& s, std::int64_t first, std::int64_t count) {
  return moe_layers_before(s, first + count) - moe_layers_before(s, first);
}

/// Layers whose MLP is dense (width `d_ff`): every layer of a dense model; the leading
/// `moe.dense_layers` and the interleaved dense layers of an MoE model.
constexpr std::int64_t dense_layer_count(const model_shape& s) {
  return s.layers - moe_layer_count(s);
}

/// True when some layers attend only to a window or a chunk of the sequence.
constexpr bool has_local_attention(const model_shape& s) { return s.local.window > 0; }

/// Layers that attend to the whole sequence: all without local attention, else every
/// `local.global_every`-th (none when it is 0).
constexpr std::int64_t global_attention_layers(const model_shape& s) {
  if (!has_local_attention(s)) return s.layers;
  return s.local.global_every > 0 ? s.layers / s.local.global_every : 0;
}

/// Layers that attend to a window or a chunk.
constexpr std::int64_t local_attention_layers(const model_shape& s) {
  return s.layers - global_attention_layers(s);
}

/// Tokens of a sequence of `context` tokens whose keys and values the model keeps, summed over
/// its layers: `context` on a global layer; on a sliding layer the latest `window`; on a chunked
/// one the current chunk, up to `window` (its size at the chunk's end, the peak).
constexpr double cached_token_layers(const model_shape& s, double context) {
  const double local_keep =
      has_local_attention(s) && static_cast<double>(s.local.window) < context
          ? static_cast<double>(s.local.window)
          : context;
  return static_cast<double>(global_attention_layers(s)) * context +
         static_cast<double>(local_attention_layers(s)) * local_keep;
}

/// Parameters of one norm over `width` features: LayerNorm has a weight and a bias, RMSNorm a
/// weight.
constexpr std::int64_t norm_parameters(const model_shape& s, std::int64_t width) {
  return s.norm == norm_kind::layer_norm ? 2 * width : width;
}

/// Bias parameters of one attention block: one bias per output feature of every projection when
/// `biases` is set (Megatron GPT: QKV and output projection), else 0.
/// Qwen2's biases on the query, key and value projections only are (heads + 2·kv_heads)·head_dim.
constexpr std::int64_t attention_biases(const model_shape& s) {
  if (!s.biases) return s.qkv_bias ? (s.heads + 2 * s.kv_heads) * s.head_dim : 0;
  if (has_mla(s)) {
    const mla_shape& m = s.mla;
    const std::int64_t q = m.q_lora_rank > 0 ? m.q_lora_rank : 0;
    return q + s.heads * (m.qk_nope_head_dim + m.qk_rope_head_dim) +
           (m.kv_lora_rank + m.qk_rope_head_dim) + s.heads * (m.qk_nope_head_dim + m.v_head_dim) +
           s.d_model;
  }
  return (s.heads + 2 * s.kv_heads) * s.head_dim + s.d_model;
}

/// Parameters of one attention block's query and key norms (`qk_norm`): two norms of head_dim
/// shared by the heads (Qwen3, Gemma 3), or one over heads·head_dim and one over
/// kv_heads·head_dim (OLMo 2).
constexpr std::int64_t qk_norm_parameters(const model_shape& s) {
  switch (s.qk_norm) {
    case qk_norm_kind::none: return 0;
    case qk_norm_kind::per_head: return 2 * norm_parameters(s, s.head_dim);
    case qk_norm_kind::whole:
      return norm_parameters(s, s.heads * s.head_dim) + norm_parameters(s, s.kv_heads * s.head_dim);
  }
  return 0;
}

/// Parameters of one attention block that are not matmul weights: its biases, MLA's two norms,
/// the query and key norms and the sinks (one per query head).
constexpr std::int64_t attention_non_matmul_parameters(const model_shape& s) {
  const std::int64_t mla_norms =
      s.mla.kv_lora_rank > 0
          ? norm_parameters(s, s.mla.kv_lora_rank) +
                (s.mla.q_lora_rank > 0 ? norm_parameters(s, s.mla.q_lora_rank) : 0)
          : 0;
  return attention_biases(s) + mla_norms + qk_norm_parameters(s) +
         (s.attention_sinks ? s.heads : 0);
}

/// Parameters of one attention block, biases, query and key norms and sinks included, layer
/// norms excluded.
/// Standard attention: Wq [d, heads·head_dim], Wk and Wv [d, kv_heads·head_dim], Wo
/// [heads·head_dim, d]. MLA (DeepSeek-V3 `inference/model.py`): wq_a [d, q_lora], q_a norm
/// [q_lora], wq_b [q_lora, heads·(nope+rope)] (or wq [d, heads·(nope+rope)] when q_lora_rank is 0),
/// wkv_a [d, kv_lora+rope], kv_a norm [kv_lora], wkv_b [kv_lora, heads·(nope+v)], wo [heads·v, d].
constexpr std::int64_t attention_parameters(const model_shape& s) {
  const std::int64_t d = s.d_model;
  if (has_mla(s)) {
    const mla_shape& m = s.mla;
    const std::int64_t q_width = s.heads * (m.qk_nope_head_dim + m.qk_rope_head_dim);
    const std::int64_t q =
        m.q_lora_rank > 0
            ? d * m.q_lora_rank + norm_parameters(s, m.q_lora_rank) + m.q_lora_rank * q_width
            : d * q_width;
    const std::int64_t kv = d * (m.kv_lora_rank + m.qk_rope_head_dim) +
                            norm_parameters(s, m.kv_lora_rank) +
                            m.kv_lora_rank * s.heads * (m.qk_nope_head_dim + m.v_head_dim);
    const std::int64_t out = s.heads * m.v_head_dim * d;
    return q + kv + out + attention_biases(s) + qk_norm_parameters(s) +
           (s.attention_sinks ? s.heads : 0);
  }
  const std::int64_t q_and_out = 2 * d * s.heads * s.head_dim;
  const std::int64_t k_and_v = 2 * d * s.kv_heads * s.head_dim;
  return q_and_out + k_and_v + attention_non_matmul_parameters(s);
}

/// Bias parameters of one MLP of hidden width `width` when `biases` is set: one per hidden feature
/// of each input matrix (gate and up, or the single up matrix) and `d_model` for the down matrix.
constexpr std::int64_t mlp_biases(const model_shape& s, std::int64_t width) {
  if (!s.biases) return 0;
  return (s.gated_mlp ? 2 : 1) * width + s.d_model;
}

/// Parameters of one MLP (a dense MLP or one expert) of hidden width `width`, biases included:
/// gated (SwiGLU) MLPs have three matrices of d_model·width, plain ones two.
constexpr std::int64_t mlp_parameters(const model_shape& s, std::int64_t width) {
  return (s.gated_mlp ? 3 : 2) * s.d_model * width + mlp_biases(s, width);
}

/// Parameters of one MoE router: a weight [experts, d_model] and, with `router_bias`, one bias per
/// expert. The router never takes the shape's `biases` flag.
constexpr std::int64_t router_parameters(const model_shape& s) {
  return s.moe.experts * s.d_model + (s.moe.router_bias ? s.moe.experts : 0);
}

// --- counts --------------------------------------------------------------------------------------

/// Exact parameter counts of a model: element counts as 64-bit integers, not bytes.
///
/// `active` is what one token's forward pass uses: an MoE layer contributes its router, its shared
/// experts and `top_k` of its routed experts; embeddings count as in `total` (input table plus
/// output projection unless tied, plus learned positions). That is the convention of Mistral's
/// "12.9B active" for Mixtral 8x7B. `active_without_embeddings` drops all embedding tables.
struct parameter_counts {
  std::int64_t total = 0;   ///< every parameter of the model
  std::int64_t active = 0;  ///< used by one token (see above)
  /// `active` less `embedding` and `position_embedding`.
  std::int64_t active_without_embeddings = 0;
  std::int64_t embedding = 0;  ///< input token table, plus the output projection unless tied
  std::int64_t position_embedding = 0;   ///< learned absolute positions (0 with RoPE)
  /// Projections and their biases, query and key norms, sinks (MLA: and its two norms).
  std::int64_t attention_per_layer = 0;
  /// One dense MLP of width d_ff with its biases (0 if the model has none).
  std::int64_t dense_mlp_per_layer = 0;
  std::int64_t expert = 0;                ///< one expert (routed or shared) with its biases
  std::int64_t router_per_layer = 0;      ///< one router's weight and optional bias
  std::int64_t moe_per_layer = 0;         ///< router + every routed expert + shared experts
  std::int64_t moe_active_per_layer = 0;  ///< router + `top_k` routed experts + shared experts
  std::int64_t norms_per_layer = 0;       ///< the `layer_norms` norms of d_model of one layer
  std::int64_t final_norm = 0;            ///< the norm before the output projection
  std::int64_t dense_layers = 0;          ///< how many layers have a dense MLP
  std::int64_t moe_layers = 0;            ///< how many layers have an MoE MLP
  std::int64_t attention = 0;             ///< attention of all layers
  std::int64_t mlp = 0;                   ///< dense MLPs and MoE blocks of all layers
  std::int64_t norms = 0;                 ///< per-layer norms of all layers plus the final norm
  std::int64_t biases = 0;  ///< linear-layer and router biases (norm biases excluded), in `total`
};

/// The exact parameter counts of a shape. Assumes a valid shape (see `first_broken_rule`); the
/// checked entry point for a model type is `model_parameters<Model>()`.
constexpr parameter_counts parameters(const model_shape& s) {
  parameter_counts c;
  c.embedding = s.vocab * s.d_model * (s.tied_embeddings ? 1 : 2);
  c.position_embedding = s.position_embeddings * s.d_model;
  c.attention_per_layer = attention_parameters(s);
  c.dense_layers = dense_layer_count(s);
  c.moe_layers = moe_layer_count(s);
  c.dense_mlp_per_layer = c.dense_layers > 0 ? mlp_parameters(s, s.d_ff) : 0;
  if (is_moe(s)) {
    c.expert = mlp_parameters(s, s.moe.expert_d_ff);
    c.router_per_layer = router_parameters(s);
    const std::int64_t shared = s.moe.shared_experts * c.expert;
    c.moe_per_layer = c.router_per_layer + s.moe.experts * c.expert + shared;
    c.moe_active_per_layer = c.router_per_layer + s.moe.top_k * c.expert + shared;
  }
  c.norms_per_layer = s.layer_norms * norm_parameters(s, s.d_model);
  c.final_norm = norm_parameters(s, s.d_model);

  c.attention = s.layers * c.attention_per_layer;
  c.mlp = c.dense_layers * c.dense_mlp_per_layer + c.moe_layers * c.moe_per_layer;
  c.norms = s.layers * c.norms_per_layer + c.final_norm;
  const std::int64_t embeddings = c.embedding + c.position_embedding;
  c.total = embeddings + c.attention + c.mlp + c.norms;
  c.active = c.total - c.moe_layers * (c.moe_per_layer - c.moe_active_per_layer);
  c.active_without_embeddings = c.active - embeddings;

  const std::int64_t experts_per_layer = is_moe(s) ? s.moe.experts + s.moe.shared_experts : 0;
  c.biases = s.layers * attention_biases(s) + c.dense_layers * mlp_biases(s, s.d_ff) +
             c.moe_layers * (experts_per_layer * mlp_biases(s, s.moe.expert_d_ff) +
                             (s.moe.router_bias ? s.moe.experts : 0));
  return c;
}

/// An upper bound on the parameter count, in doubles (every term of every branch, each product
/// formed in floating point): what a reader checks before `parameters` multiplies 64-bit
/// integers, which a shape of extreme sizes would overflow.
constexpr double parameter_bound(const model_shape& s) {
  const auto f = [](std::int64_t x) { return static_cast<double>(x < 0 ? 0 : x); };
  const double d = f(s.d_model), heads = f(s.heads), qk = f(s.mla.qk_nope_head_dim) +
                                                          f(s.mla.qk_rope_head_dim);
  const double standard = 2.0 * d * (heads + f(s.kv_heads)) * f(s.head_dim) +
                          2.0 * (heads + f(s.kv_heads)) * f(s.head_dim) + heads;
  const double mla = d * f(s.mla.q_lora_rank) + f(s.mla.q_lora_rank) * heads * qk + d * heads * qk +
                     d * (f(s.mla.kv_lora_rank) + f(s.mla.qk_rope_head_dim)) +
                     f(s.mla.kv_lora_rank) * heads * (f(s.mla.qk_nope_head_dim) + f(s.mla.v_head_dim)) +
                     heads * f(s.mla.v_head_dim) * d + f(s.mla.q_lora_rank) + f(s.mla.kv_lora_rank);
  const double mlp = 3.0 * d * (f(s.d_ff) + (f(s.moe.experts) + f(s.moe.shared_experts)) *
                                                f(s.moe.expert_d_ff)) +
                     3.0 * (f(s.d_ff) + (f(s.moe.experts) + f(s.moe.shared_experts)) *
                                            (f(s.moe.expert_d_ff) + d)) +
                     f(s.moe.experts) * (d + 1.0);
  return f(s.layers) * (standard + mla + mlp + 2.0 * f(s.layer_norms) * d) +
         (2.0 * f(s.vocab) + f(s.position_embeddings) + 2.0) * d;
}

/// The most parameters a shape read at run time may have: 10^15, far inside 64-bit products.
inline constexpr double max_parameters = 1e15;

/// How many parameter tensors the model has, laid out as Megatron-LM's GPT lays them out: per
/// layer its two norms (a LayerNorm's weight and bias, an RMSNorm's weight), the fused query,
/// key and value projection and the output projection (MLA: the query projection or its
/// down-projection, norm and up-projection, the key-value down-projection, norm and
/// up-projection, and the output), the MLP's first matrix (gate and up fused) and second, or an
/// MoE layer's router and each routed expert's two matrices and the shared experts' two; each
/// linear layer's bias where the model has biases; then the token embedding, learned positions,
/// the final norm and an untied output projection. What a framework that collects one tensor at
/// a time pays per collective for (`zero3_per_tensor`).
constexpr std::int64_t parameter_tensors(const model_shape& s) {
  const std::int64_t norm = s.norm == norm_kind::layer_norm ? 2 : 1;
  const std::int64_t linear = s.biases ? 2 : 1;
  // MLA: queries (down, norm, up; or one projection), keys and values (down, norm, up), output.
  const std::int64_t mla_queries = s.mla.q_lora_rank > 0 ? 2 * linear + 1 : linear;
  const std::int64_t extras = (s.qkv_bias && !s.biases ? 1 : 0) +
                              (s.qk_norm != qk_norm_kind::none ? 2 * norm : 0) +
                              (s.attention_sinks ? 1 : 0);
  const std::int64_t attention =
      (s.mla.kv_lora_rank > 0 ? mla_queries + (2 * linear + 1) + linear : 2 * linear) + extras;
  const std::int64_t mlp = 2 * linear;
  const std::int64_t moe_layers = moe_layer_count(s);
  const std::int64_t moe = (s.moe.router_bias ? 2 : 1) + s.moe.experts * 2 * linear +
                           (s.moe.shared_experts > 0 ? 2 * linear : 0);
  return s.layers * (s.layer_norms * norm + attention) + (s.layers - moe_layers) * mlp +
         moe_layers * moe +
         1 + (s.position_embeddings > 0 ? 1 : 0) + norm + (s.tied_embeddings ? 0 : 1);
}

/// Elements of the model's largest weight tensor, with the tensors `parameter_tensors` counts:
/// the fused QKV projection (h·(a + 2·kv)·d_h) and the output projection (a·d_h·h), or MLA's
/// down- and up-projections; the fused up-projection of a dense MLP, an expert or the shared
/// experts ((2 if gated else 1)·h·f) and its down-projection (f·h); the token table (V·h).
constexpr double largest_parameter_tensor(const model_shape& s) {
  const double h = static_cast<double>(s.d_model);
  const double up = s.gated_mlp ? 2.0 : 1.0;
  double most = static_cast<double>(s.vocab) * h;
  auto at_least = [&most](double x) { most = x > most ? x : most; };
  if (s.mla.kv_lora_rank > 0) {
    const double a = static_cast<double>(s.heads);
    const double qk = static_cast<double>(s.mla.qk_nope_head_dim + s.mla.qk_rope_head_dim);
    const double v = static_cast<double>(s.mla.v_head_dim);
    const double q_lora = static_cast<double>(s.mla.q_lora_rank);
    const double kv_lora = static_cast<double>(s.mla.kv_lora_rank);
    at_least(q_lora > 0 ? std::max(h * q_lora, q_lora * a * qk) : h * a * qk);
    at_least(h * (kv_lora + static_cast<double>(s.mla.qk_rope_head_dim)));
    at_least(kv_lora * a * (static_cast<double>(s.mla.qk_nope_head_dim) + v));
    at_least(a * v * h);
  } else {
    const double dh = static_cast<double>(s.head_dim);
    at_least(h * static_cast<double>(s.heads + 2 * s.kv_heads) * dh);
    at_least(static_cast<double>(s.heads) * dh * h);
  }
  if (s.layers > moe_layer_count(s)) at_least(up * h * static_cast<double>(s.d_ff));
  if (moe_layer_count(s) > 0) {
    const double fe = static_cast<double>(s.moe.expert_d_ff);
    at_least(up * h * fe);
    at_least(up * h * fe * static_cast<double>(s.moe.shared_experts));
  }
  return most;
}

// --- rules ---------------------------------------------------------------------------------------

/// The rules a model shape obeys, in the order they are checked; `none` means the shape is valid.
enum class shape_rule : std::uint8_t {
  none,
  sizes_positive,
  optional_sizes_not_negative,
  kv_heads_divide_heads,
  dense_mlp_has_width,
  mla_complete,
  moe_fields_need_experts,
  top_k_within_experts,
  experts_have_width,
  dense_layers_within_layers,
};

/// Predicates of the rules, each safe for any input (a rule does not fail on what another reports).
namespace shape_rules {
constexpr bool sizes_positive(std::int64_t layers, std::int64_t d_model, std::int64_t heads,
                              std::int64_t kv_heads, std::int64_t head_dim, std::int64_t vocab) {
  return layers > 0 && d_model > 0 && heads > 0 && kv_heads > 0 && head_dim > 0 && vocab > 0;
}
constexpr bool optional_sizes_not_negative(std::int64_t position_embeddings, std::int64_t d_ff,
                                           std::int64_t experts, std::int64_t top_k,
                                           std::int64_t shared_experts, std::int64_t expert_d_ff,
                                           std::int64_t dense_layers, std::int64_t every = 0,
                                           std::int64_t window = 0, std::int64_t global_every = 0,
                                           std::int64_t layer_norms = 0) {
  return position_embeddings >= 0 && d_ff >= 0 && experts >= 0 && top_k >= 0 &&
         shared_experts >= 0 && expert_d_ff >= 0 && dense_layers >= 0 && every >= 0 &&
         window >= 0 && global_every >= 0 && layer_norms >= 0;
}
constexpr bool kv_heads_divide_heads(std::int64_t heads, std::int64_t kv_heads) {
  return kv_heads <= 0 || heads % kv_heads == 0;
}
constexpr bool dense_mlp_has_width(std::int64_t dense_layers, std::int64_t d_ff) {
  return dense_layers <= 0 || d_ff != 0;  // a negative d_ff is the rule above's
}
constexpr bool mla_complete(std::int64_t kv_lora_rank, std::int64_t q_lora_rank,
                            std::int64_t qk_nope_head_dim, std::int64_t qk_rope_head_dim,
                            std::int64_t v_head_dim) {
  const bool none = kv_lora_rank == 0 && q_lora_rank == 0 && qk_nope_head_dim == 0 &&
                    qk_rope_head_dim == 0 && v_head_dim == 0;
  const bool all = kv_lora_rank > 0 && q_lora_rank >= 0 && qk_nope_head_dim > 0 &&
                   qk_rope_head_dim > 0 && v_head_dim > 0;
  return none || all;
}
constexpr bool moe_fields_need_experts(std::int64_t experts, std::int64_t top_k,
                                       std::int64_t shared_experts, std::int64_t expert_d_ff,
                                       std::int64_t dense_layers, bool router_bias) {
  return experts != 0 || (top_k <= 0 && shared_experts <= 0 && expert_d_ff <= 0 &&
                          dense_layers <= 0 && !router_bias);
}
constexpr bool top_k_within_experts(std::int64_t top_k, std::int64_t experts) {
  return experts <= 0 || top_k < 0 || (top_k >= 1 && top_k <= experts);
}
constexpr bool experts_have_width(std::int64_t experts, std::int64_t expert_d_ff) {
  return experts <= 0 || expert_d_ff != 0;
}
constexpr bool dense_layers_within_layers(std::int64_t dense_layers, std::int64_t layers) {
  return dense_layers <= layers;
}
}  // namespace shape_rules

/// The first rule `s` breaks, or `shape_rule::none`.
constexpr shape_rule first_broken_rule(const model_shape& s) {
  namespace r = shape_rules;
  const moe_shape& e = s.moe;
  const mla_shape& m = s.mla;
  if (!r::sizes_positive(s.layers, s.d_model, s.heads, s.kv_heads, s.head_dim, s.vocab))
    return shape_rule::sizes_positive;
  if (!r::optional_sizes_not_negative(s.position_embeddings, s.d_ff, e.experts, e.top_k,
                                      e.shared_experts, e.expert_d_ff, e.dense_layers, e.every,
                                      s.local.window, s.local.global_every, s.layer_norms))
    return shape_rule::optional_sizes_not_negative;
  if (!r::kv_heads_divide_heads(s.heads, s.kv_heads)) return shape_rule::kv_heads_divide_heads;
  if (!r::dense_mlp_has_width(dense_layer_count(s), s.d_ff)) return shape_rule::dense_mlp_has_width;
  if (!r::mla_complete(m.kv_lora_rank, m.q_lora_rank, m.qk_nope_head_dim, m.qk_rope_head_dim,
                       m.v_head_dim))
    return shape_rule::mla_complete;
  if (!r::moe_fields_need_experts(e.experts, e.top_k, e.shared_experts, e.expert_d_ff,
                                  e.dense_layers, e.router_bias))
    return shape_rule::moe_fields_need_experts;
  if (!r::top_k_within_experts(e.top_k, e.experts)) return shape_rule::top_k_within_experts;
  if (!r::experts_have_width(e.experts, e.expert_d_ff)) return shape_rule::experts_have_width;
  if (!r::dense_layers_within_layers(e.dense_layers, s.layers))
    return shape_rule::dense_layers_within_layers;
  return shape_rule::none;
}

/// True when `s` breaks no rule.
constexpr bool is_valid(const model_shape& s) { return first_broken_rule(s) == shape_rule::none; }

/// The rule as a diagnostic states it (the same text as the entry point's `static_assert`).
constexpr std::string_view rule_text(shape_rule rule) {
  switch (rule) {
    case shape_rule::none:
      return "shardplan: the shape is valid";
    case shape_rule::sizes_positive:
      return "shardplan: layers, d_model, heads, kv heads, head_dim and vocab must be positive";
    case shape_rule::optional_sizes_not_negative:
      return "shardplan: optional sizes must not be negative";
    case shape_rule::kv_heads_divide_heads:
      return "shardplan: kv heads must divide query heads";
    case shape_rule::dense_mlp_has_width:
      return "shardplan: a dense mlp needs a positive d_ff";
    case shape_rule::mla_complete:
      return "shardplan: mla needs kv_lora_rank and all head widths positive, or all zero";
    case shape_rule::moe_fields_need_experts:
      return "shardplan: moe fields need experts > 0";
    case shape_rule::top_k_within_experts:
      return "shardplan: top-k must be between 1 and the number of experts";
    case shape_rule::experts_have_width:
      return "shardplan: experts need a positive expert_d_ff";
    case shape_rule::dense_layers_within_layers:
      return "shardplan: dense layers must not exceed layers";
  }
  return "?";
}

/// Value traits that carry a shape's numbers into a diagnostic: on a broken rule both g++ and clang
/// print the trait with its arguments, e.g. `kv_heads_divide_heads<heads{64}, kv_heads{7}>`.
namespace model_checks {
// clang-format off
struct layers { std::int64_t value; };
struct d_model { std::int64_t value; };
struct d_ff { std::int64_t value; };
struct heads { std::int64_t value; };
struct kv_heads { std::int64_t value; };
struct head_dim { std::int64_t value; };
struct vocab { std::int64_t value; };
struct position_embeddings { std::int64_t value; };
struct experts { std::int64_t value; };
struct top_k { std::int64_t value; };
struct shared_experts { std::int64_t value; };
struct expert_d_ff { std::int64_t value; };
struct dense_layers { std::int64_t value; };
struct router_bias { bool value; };
struct every { std::int64_t value; };
struct window { std::int64_t value; };
struct global_every { std::int64_t value; };
struct layer_norms { std::int64_t value; };
struct kv_lora_rank { std::int64_t value; };
struct q_lora_rank { std::int64_t value; };
struct qk_nope_head_dim { std::int64_t value; };
struct qk_rope_head_dim { std::int64_t value; };
struct v_head_dim { std::int64_t value; };
// clang-format on

template <layers L, d_model D, heads H, kv_heads K, head_dim Hd, vocab V>
struct sizes_are_positive {
  static constexpr bool value =
      shape_rules::sizes_positive(L.value, D.value, H.value, K.value, Hd.value, V.value);
};
template <position_embeddings P, d_ff F, experts E, top_k K, shared_experts S, expert_d_ff Fe,
          dense_layers N, every Ev, window W, global_every G, layer_norms Ln>
struct optional_sizes_are_not_negative {
  static constexpr bool value = shape_rules::optional_sizes_not_negative(
      P.value, F.value, E.value, K.value, S.value, Fe.value, N.value, Ev.value, W.value, G.value,
      Ln.value);
};
template <heads H, kv_heads K>
struct kv_heads_divide_heads {
  static constexpr bool value = shape_rules::kv_heads_divide_heads(H.value, K.value);
};
template <dense_layers N, d_ff F>
struct dense_mlp_has_width {
  static constexpr bool value = shape_rules::dense_mlp_has_width(N.value, F.value);
};
template <kv_lora_rank Kv, q_lora_rank Q, qk_nope_head_dim Nope, qk_rope_head_dim Rope,
          v_head_dim Vh>
struct mla_is_complete {
  static constexpr bool value =
      shape_rules::mla_complete(Kv.value, Q.value, Nope.value, Rope.value, Vh.value);
};
template <experts E, top_k K, shared_experts S, expert_d_ff Fe, dense_layers N, router_bias B>
struct moe_fields_need_experts {
  static constexpr bool value =
      shape_rules::moe_fields_need_experts(E.value, K.value, S.value, Fe.value, N.value, B.value);
};
template <top_k K, experts E>
struct top_k_within_experts {
  static constexpr bool value = shape_rules::top_k_within_experts(K.value, E.value);
};
template <experts E, expert_d_ff Fe>
struct experts_have_width {
  static constexpr bool value = shape_rules::experts_have_width(E.value, Fe.value);
};
template <dense_layers N, layers L>
struct dense_layers_within_layers {
  static constexpr bool value = shape_rules::dense_layers_within_layers(N.value, L.value);
};
}  // namespace model_checks

// --- checked entry points ------------------------------------------------------------------------

/// `Model::shape` after checking every shape rule at compile time. A broken rule stops compilation
/// with `"shardplan: <rule>"` and a trait that shows the numbers.
template <ModelSpec Model>
constexpr const model_shape& checked_shape() {
  namespace check = model_checks;
  constexpr const model_shape& s = Model::shape;
  constexpr const moe_shape& e = s.moe;
  constexpr const mla_shape& m = s.mla;
  // Each predicate passes what another rule reports, so one mistake gives one error.
  {
    using rule = check::sizes_are_positive<check::layers{s.layers}, check::d_model{s.d_model},
                                           check::heads{s.heads}, check::kv_heads{s.kv_heads},
                                           check::head_dim{s.head_dim}, check::vocab{s.vocab}>;
    SHARDPLAN_RULE(
        rule::value,
        "shardplan: layers, d_model, heads, kv heads, head_dim and vocab must be positive", rule);
  }
  {
    using rule = check::optional_sizes_are_not_negative<
        check::position_embeddings{s.position_embeddings}, check::d_ff{s.d_ff},
        check::experts{e.experts}, check::top_k{e.top_k}, check::shared_experts{e.shared_experts},
        check::expert_d_ff{e.expert_d_ff}, check::dense_layers{e.dense_layers},
        check::every{e.every}, check::window{s.local.window},
        check::global_every{s.local.global_every}, check::layer_norms{s.layer_norms}>;
    SHARDPLAN_RULE(rule::value, "shardplan: optional sizes must not be negative", rule);
  }
  // Grouped-query attention shares each KV head among heads / kv_heads query heads.
  {
    using rule = check::kv_heads_divide_heads<check::heads{s.heads}, check::kv_heads{s.kv_heads}>;
    SHARDPLAN_RULE(rule::value, "shardplan: kv heads must divide query heads", rule);
  }
  {
    using rule =
        check::dense_mlp_has_width<check::dense_layers{dense_layer_count(s)}, check::d_ff{s.d_ff}>;
    SHARDPLAN_RULE(rule::value, "shardplan: a dense mlp needs a positive d_ff", rule);
  }
  {
    using rule = check::mla_is_complete<
        check::kv_lora_rank{m.kv_lora_rank}, check::q_lora_rank{m.q_lora_rank},
        check::qk_nope_head_dim{m.qk_nope_head_dim}, check::qk_rope_head_dim{m.qk_rope_head_dim},
        check::v_head_dim{m.v_head_dim}>;
    SHARDPLAN_RULE(rule::value,
                   "shardplan: mla needs kv_lora_rank and all head widths positive, or all zero",
                   rule);
  }
  {
    using rule = check::moe_fields_need_experts<
        check::experts{e.experts}, check::top_k{e.top_k}, check::shared_experts{e.shared_experts},
        check::expert_d_ff{e.expert_d_ff}, check::dense_layers{e.dense_layers},
        check::router_bias{e.router_bias}>;
    SHARDPLAN_RULE(rule::value, "shardplan: moe fields need experts > 0", rule);
  }
  {
    using rule = check::top_k_within_experts<check::top_k{e.top_k}, check::experts{e.experts}>;
    SHARDPLAN_RULE(rule::value, "shardplan: top-k must be between 1 and the number of experts",
                   rule);
  }
  {
    using rule =
        check::experts_have_width<check::experts{e.experts}, check::expert_d_ff{e.expert_d_ff}>;
    SHARDPLAN_RULE(rule::value, "shardplan: experts need a positive expert_d_ff", rule);
  }
  // The leading dense layers are a prefix of the stack.
  {
    using rule = check::dense_layers_within_layers<check::dense_layers{e.dense_layers},
                                                   check::layers{s.layers}>;
    SHARDPLAN_RULE(rule::value, "shardplan: dense layers must not exceed layers", rule);
  }
  return Model::shape;
}

/// The exact parameter counts of a model type, after checking its shape at compile time.
template <ModelSpec Model>
constexpr parameter_counts model_parameters() {
  return parameters(checked_shape<Model>());
}

}  // namespace shardplan
