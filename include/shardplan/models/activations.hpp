// Activation memory of one transformer layer for one micro-batch (Korthikanti et al. 2022,
// generalised to GQA, gated MLPs, mixture-of-experts and MLA), and recomputation policies.
#pragma once

#include <cstdint>

#include <shardplan/models/model.hpp>
#include <shardplan/core/units.hpp>

namespace shardplan {

/// What a layer keeps for its backward pass.
enum class recompute_kind : std::uint8_t {
  none,         ///< keep everything, including eager attention's s x s score matrices
  selective,    ///< recompute attention's softmax and dropout (Korthikanti et al. Sec. 5;
                ///< memory-equivalent to a fused flash-attention kernel)
  full,         ///< keep only each layer's input; recompute the layer in the backward pass
  checkpoints,  ///< keep `checkpoints_per_layer` d_model-wide tensors per layer (the book's
                ///< "4 checkpoints per layer" scheme)
  mlp,          ///< recompute each dense layer's MLP from its input, keep the rest (Megatron-Core
                ///< `--recompute-granularity selective --recompute-modules mlp`; MoE layers keep
                ///< theirs: "mlp" is the dense MLP submodule, transformer_layer.py@d98e8a64)
};

/// Whether `r` runs each layer's whole forward pass again in the backward (`full`, and
/// `checkpoints`, which keeps only tensors between layers' pieces).
constexpr bool recomputes_layer_forward(recompute_kind r) {
  return r == recompute_kind::full || r == recompute_kind::checkpoints;
}

/// The passes a micro-batch runs through each layer: the forward and the backward, and the
/// recomputed forward where `r` reruns it. What is fetched anew for every pass (a ZeRO-3
/// gather, context parallelism's K/V) is fetched this many times.
constexpr double layer_passes_per_micro_batch(recompute_kind r) {
  return recomputes_layer_forward(r) ? 3.0 : 2.0;
}

/// A recomputation policy.
struct recompute_policy {
  recompute_kind kind = recompute_kind::selective;
  std::int64_t checkpoints_per_layer = 0;  ///< only for `recompute_kind::checkpoints`
};

/// The inputs of the per-layer activation formula. `seq_len` is the tokens of one sequence that
/// one device holds (the sequence divided by context parallelism).
struct activation_inputs {
  std::int64_t micro_batch = 1;  ///< b, sequences
  std::int64_t seq_len = 1;      ///< s, tokens per sequence on this device
  std::int64_t tensor_parallel = 1;
  bool sequence_parallel = false;
  recompute_policy recompute{};
  double activation_bytes = 2.0;  ///< bytes of one stored activation element (bf16: 2)
  bool dropout = false;           ///< dropout after attention and MLP (1-byte masks)
  /// Attention without a fused kernel materialises the s x s scores (Megatron-LM 2021-22);
  /// a flash-attention kernel never stores them.
  bool eager_attention = false;
};

/// Which feed-forward block a layer has.
enum class layer_kind : std::uint8_t { dense, moe };

/// Bytes of activations one layer stores for one micro-batch on one device.
///
/// Korthikanti et al. (arXiv:2205.05198, Sec. 4) count, for MHA and a 4h GeLU MLP with dropout,
/// 34·sbh + 5·a·s²·b bytes per layer; tensor parallelism t divides all but 10·sbh of it (the two
/// norm inputs, the inputs of the first attention and MLP matmuls, the two dropout masks), and
/// sequence parallelism divides those too. The generalisation below counts the same tensors from
/// the shape, element by element, with e bytes per activation element:
/// - attention: Q (a·d_h), K and V (kv·d_h each), the attention output (a·d_h); with eager
///   attention and no recomputation the softmax output (e·a·s), plus with dropout its 1-byte
///   mask and the dropout output (e·a·s), per token (selective recomputation and flash-attention
///   kernels keep none of these); MLA stores its query and KV latents
///   (replicated under tensor parallelism, as they are computed before the head split) and per-head
///   K/V after the up-projection;
/// - MLP: the activation function's input(s) and output: plain 2·e·f, gated (gate, up, product)
///   3·e·f per token; a mixture-of-experts layer does this for top_k routed experts and every
///   shared expert of width expert_d_ff, stores the dispatched token copy (e·h per routed
///   expert) and fp32 router probabilities (4·E per token); experts are split by tensor
///   parallelism like a dense MLP;
/// - replicated without sequence parallelism: the two norm inputs, the attention and MLP inputs
///   (e·h each) and, with dropout, two 1-byte masks.
/// Full recomputation keeps the layer input (e·h per token, divided by t under sequence
/// parallelism); `checkpoints` keeps n such tensors; `mlp` drops a dense layer's MLP terms (its
/// input, the norm's output, is among the replicated ones and stays).
constexpr bytes layer_activation_bytes(const model_shape& m, layer_kind kind,
                                       const activation_inputs& in) {
  const double s = static_cast<double>(in.seq_len);
  const double b = static_cast<double>(in.micro_batch);
  const double h = static_cast<double>(m.d_model);
  const double t = static_cast<double>(in.tensor_parallel);
  const double e = in.activation_bytes;
  const double sb = s * b;
  const double sp = in.sequence_parallel ? t : 1.0;

  if (in.recompute.kind == recompute_kind::full) return e * sb * h / sp * byte;
  if (in.recompute.kind == recompute_kind::checkpoints)
    return static_cast<double>(in.recompute.checkpoints_per_layer) * e * sb * h / sp * byte;

  const double a = static_cast<double>(m.heads);
  const double mask = in.dropout ? 1.0 : 0.0;

  // Per token, replicated across tensor-parallel ranks unless sequence parallel.
  double replicated = 4.0 * e * h + 2.0 * mask * h;
  // Per token, divided by tensor parallelism.
  double split = 0.0;
  if (m.mla.kv_lora_rank > 0) {
    const double q_lora = static_cast<double>(m.mla.q_lora_rank);
    const double kv_lora = static_cast<double>(m.mla.kv_lora_rank);
    const double rope = static_cast<double>(m.mla.qk_rope_head_dim);
    const double qk = static_cast<double>(m.mla.qk_nope_head_dim) + rope;
    const double v = static_cast<double>(m.mla.v_head_dim);
    // The latents are computed before the head split: each is stored at the norm's input and
    // at the up-projection's input.
    replicated += 2.0 * e * q_lora + 2.0 * e * (kv_lora + rope);
    split += e * a * qk * 2.0 + e * a * v * 2.0;  // Q, K; V and the attention output
  } else {
    const double dh = static_cast<double>(m.head_dim);
    const double kv = static_cast<double>(m.kv_heads);
    split += e * a * dh * 2.0 + 2.0 * e * kv * dh;  // Q and output; K and V
  }
  const bool scores_kept =
      in.recompute.kind == recompute_kind::none || in.recompute.kind == recompute_kind::mlp;
  if (in.eager_attention && scores_kept)
    split += (e + mask + mask * e) * a * s;  // softmax output, dropout mask and output

  const double per_expert_token = (m.gated_mlp ? 3.0 : 2.0) * e;
  if (kind == layer_kind::moe) {
    const double fe = static_cast<double>(m.moe.expert_d_ff);
    const double k = static_cast<double>(m.moe.top_k);
    const double shared = static_cast<double>(m.moe.shared_experts);
    split += (k + shared) * per_expert_token * fe + k * e * h;
    replicated += 4.0 * static_cast<double>(m.moe.experts);
  } else if (in.recompute.kind != recompute_kind::mlp) {
    split += per_expert_token * static_cast<double>(m.d_ff);
  }
  return (sb * replicated / sp + sb * split / t) * byte;
}

}  // namespace shardplan
