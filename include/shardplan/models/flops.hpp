// FLOPs of a transformer: per token and per step, forward and backward, model FLOPs (for MFU)
// and hardware FLOPs (with recomputation), with the attention convention stated.
#pragma once

#include <cstdint>

#include <shardplan/models/activations.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/core/units.hpp>

namespace shardplan {

/// How the s x s attention products (QK^T and attention·V) are counted. Conventions differ and
/// decide whether two tools agree on MFU: Megatron-LM (Narayanan et al. 2021, Eq. 3) and PaLM
/// (Chowdhery et al. 2022, App. B) count them in full; a causal kernel that skips the masked half
/// does half; "6·N·D" estimates (How to Scale Your Model, Kaplan et al.) leave them out.
enum class attention_flops : std::uint8_t { full, causal, ignored };

/// The factor the attention products are counted with.
constexpr double attention_factor(attention_flops a) {
  switch (a) {
    case attention_flops::full:
      return 1.0;
    case attention_flops::causal:
      return 0.5;
    case attention_flops::ignored:
      return 0.0;
  }
  return 1.0;
}

/// Forward FLOPs of one token, by kind. A multiply-add counts as 2 FLOP.
struct token_flops {
  double layers_matmul = 0.0;  ///< weight matmuls of every layer (active experts only)
  double attention = 0.0;      ///< QK^T and attention·V of every layer at the given context
  double logits = 0.0;         ///< the output projection onto the vocabulary
  double dense_mlp = 0.0;      ///< of `layers_matmul`: the dense layers' MLP matmuls
  double moe_mlp = 0.0;        ///< of `layers_matmul`: the MoE layers' router and experts
  double shared_experts = 0.0; ///< of `moe_mlp`: the shared experts
  double mla_up = 0.0;         ///< of `layers_matmul`: MLA's query and key-value up projections

  constexpr double total() const { return layers_matmul + attention + logits; }
};

/// Weight parameters of one layer's matmuls that one token uses (biases and norms excluded;
/// an MoE layer counts its router, shared experts and top_k routed experts).
constexpr double matmul_parameters_per_token(const model_shape& m) {
  const parameter_counts c = parameters(m);
  const double attention =
      static_cast<double>(c.attention_per_layer - attention_non_matmul_parameters(m));
  const double dense_mlp = static_cast<double>(c.dense_mlp_per_layer - mlp_biases(m, m.d_ff));
  const double expert = static_cast<double>(c.expert - mlp_biases(m, m.moe.expert_d_ff));
  const double moe_mlp = static_cast<double>(m.moe.experts * m.d_model) +
                         static_cast<double>(m.moe.top_k + m.moe.shared_experts) * expert;
  return static_cast<double>(c.dense_layers) * (attention + dense_mlp) +
         static_cast<double>(c.moe_layers) * (attention + moe_mlp);
}

/// Keys one query of a sequence of `seq` tokens is counted against in a local layer, under the
/// convention (`full`: the unmasked products, as a global layer's `seq`; `causal`: the mean over
/// the sequence's positions, as a global layer's seq/2). A sliding window w: min(seq, w) in full;
/// causally seq/2 up to w, then w − w²/(2·seq). Chunks of w: full, each query against its whole
/// chunk, (n·w² + r²)/seq for n whole chunks and r tokens left; causally half of that.
constexpr double local_attention_keys(const model_shape& m, double seq, attention_flops convention) {
  const double w = static_cast<double>(m.local.window);
  if (seq <= 0.0) return 0.0;
  const double factor = attention_factor(convention);
  if (m.local.kind == local_attention_kind::chunked) {
    const double whole = w > 0.0 ? static_cast<double>(static_cast<std::int64_t>(seq / w)) : 0.0;
    const double rest = seq - whole * w;
    return factor * (whole * w * w + rest * rest) / seq;
  }
  if (seq <= w) return factor * seq;
  if (convention == attention_flops::causal) return w - w * w / (2.0 * seq);
  return factor * w;
}

/// The attention products of every layer at `seq` tokens as a share of what they would be if
/// every layer attended globally: 1 without local attention.
constexpr double attention_key_share(const model_shape& m, double seq, attention_flops convention) {
  if (!has_local_attention(m)) return 1.0;
  const double global = attention_factor(convention) * seq;
  if (global <= 0.0) return 1.0;
  const double layers = static_cast<double>(m.layers);
  return (static_cast<double>(global_attention_layers(m)) * global +
          static_cast<double>(local_attention_layers(m)) *
              local_attention_keys(m, seq, convention)) /
         (layers * global);
}

/// Forward FLOPs of one token in a sequence of `seq_len` tokens: 2 FLOP per weight of every
/// matmul the token passes through; 2·s·(a·d_qk + a·d_v) per layer for attention, times the
/// convention's factor (a local layer's keys: `local_attention_keys`); 2·V·d for the logits.
constexpr token_flops forward_flops_per_token(const model_shape& m, std::int64_t seq_len,
                                              attention_flops convention) {
  token_flops f;
  f.layers_matmul = 2.0 * matmul_parameters_per_token(m);
  const parameter_counts c = parameters(m);
  f.dense_mlp = 2.0 * static_cast<double>(c.dense_layers) *
                static_cast<double>(c.dense_mlp_per_layer - mlp_biases(m, m.d_ff));
  const double qk = m.mla.kv_lora_rank > 0
                        ? static_cast<double>(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim)
                        : static_cast<double>(m.head_dim);
  const double v = m.mla.kv_lora_rank > 0 ? static_cast<double>(m.mla.v_head_dim)
                                          : static_cast<double>(m.head_dim);
  const double expert = static_cast<double>(c.expert - mlp_biases(m, m.moe.expert_d_ff));
  const double moe_layers = static_cast<double>(c.moe_layers);
  f.shared_experts = 2.0 * moe_layers * static_cast<double>(m.moe.shared_experts) * expert;
  f.moe_mlp = 2.0 * moe_layers *
                  (static_cast<double>(m.moe.experts * m.d_model) +
                   static_cast<double>(m.moe.top_k) * expert) +
              f.shared_experts;
  if (m.mla.kv_lora_rank > 0) {
    const double a = static_cast<double>(m.heads);
    const double q_up = static_cast<double>(m.mla.q_lora_rank) * a * qk;
    const double kv_up = static_cast<double>(m.mla.kv_lora_rank) * a *
                         static_cast<double>(m.mla.qk_nope_head_dim + m.mla.v_head_dim);
    f.mla_up = 2.0 * static_cast<double>(m.layers) * (q_up + kv_up);
  }
  f.attention = attention_factor(convention) * 2.0 * static_cast<double>(seq_len) *
                static_cast<double>(m.heads) * (qk + v) * static_cast<double>(m.layers) *
                attention_key_share(m, static_cast<double>(seq_len), convention);
  f.logits = 2.0 * static_cast<double>(m.vocab) * static_cast<double>(m.d_model);
  return f;
}

/// Model FLOPs of training on one token: forward plus a backward of twice the forward
/// (3x), no recomputation. The numerator of MFU.
constexpr flops model_flops_per_token(const model_shape& m, std::int64_t seq_len,
                                      attention_flops convention) {
  return 3.0 * forward_flops_per_token(m, seq_len, convention).total() * flop;
}

/// Hardware FLOPs of training on one token: model FLOPs plus what recomputation repeats.
/// Full recomputation (and the checkpoints scheme) runs every layer's forward again (not the
/// logits); selective recomputation repeats its modules' matmuls (`recompute_module`): the
/// attention products for `core_attn` (Korthikanti et al. Sec. 5), the dense layers' MLP for
/// `mlp`, the MoE layers' router and experts for `moe`, the shared experts for
/// `shared_experts`, MLA's up projections for `mla_up_proj` (`moe_act` and `layernorm` rerun
/// no matmul).
constexpr flops hardware_flops_per_token(const token_flops& f, recompute_policy r) {
  double extra = 0.0;
  if (recomputes_layer_forward(r.kind)) extra = f.layers_matmul + f.attention;
  if (recomputes(r, recompute_module::core_attn)) extra += f.attention;
  if (recomputes(r, recompute_module::mlp)) extra += f.dense_mlp;
  if (recomputes(r, recompute_module::moe)) extra += f.moe_mlp;
  else if (recomputes(r, recompute_module::shared_experts)) extra += f.shared_experts;
  if (recomputes(r, recompute_module::mla_up_proj)) extra += f.mla_up;
  return (3.0 * f.total() + extra) * flop;
}
constexpr flops hardware_flops_per_token(const model_shape& m, std::int64_t seq_len,
                                         attention_flops convention, recompute_policy r) {
  return hardware_flops_per_token(forward_flops_per_token(m, seq_len, convention), r);
}

/// Megatron-LM's FLOPs per iteration (Narayanan et al. 2021, Eq. 3): with full recomputation,
/// F = 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)), for a GPT of l layers, hidden h, vocabulary V.
constexpr flops megatron_flops_per_iteration(double batch, double seq, double layers, double hidden,
                                             double vocab) {
  return 96.0 * batch * seq * layers * hidden * hidden *
         (1.0 + seq / (6.0 * hidden) + vocab / (16.0 * layers * hidden)) * flop;
}

/// PaLM's model FLOPs per token (Chowdhery et al. 2022, App. B): 6·N + 12·L·H·Q·T for N
/// parameters, L layers, H heads of width Q and sequence length T.
constexpr flops palm_flops_per_token(double params, double layers, double heads, double head_dim,
                                     double seq) {
  return (6.0 * params + 12.0 * layers * heads * head_dim * seq) * flop;
}

/// Model FLOPs utilisation (PaLM's definition): model FLOPs achieved per second over the peak of
/// all chips.
constexpr double mfu(flops model_flops_per_step, seconds step, double chips, flop_rate peak) {
  return (model_flops_per_step / (step * chips * peak)).value();
}

}  // namespace shardplan
