// Activation memory of one transformer layer for one micro-batch (Korthikanti et al. 2022,
// generalised to GQA, gated MLPs, mixture-of-experts and MLA), and recomputation policies.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>

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
  named,        ///< keep the named tensors `saved` on the device and `offloaded` in host memory,
                ///< recompute the rest from the layer's input (JAX's `save_only_these_names` and
                ///< `save_and_offload_only_these_names`, as MaxText's remat policies use them)
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

/// The submodules Megatron-Core's selective recomputation reruns, as `--recompute-modules` names
/// them (`recompute_modules`, megatron/core/transformer/transformer_config.py at NVIDIA/Megatron-LM
/// d98e8a64ddf34856e74b24714e3bedb2f5a39553). What each frees, read off the code there:
/// - `core_attn`: the attention core under a checkpoint (attention.py); with a fused kernel only
///   its softmax statistics, with eager attention the s x s scores, dropout mask and output;
/// - `mlp`: a dense layer's MLP under a checkpoint that keeps its input (transformer_layer.py);
/// - `moe`: the whole MoE block (router, permutation, experts, shared experts) under a checkpoint
///   that keeps its input (moe/moe_layer.py);
/// - `moe_act`: each routed expert's activation output, discarded after the down projection
///   reads it and recomputed from the kept up projection (`CheckpointWithoutOutput`,
///   moe/experts.py, tensor_parallel/random.py);
/// - `shared_experts`: the shared experts' MLP under a checkpoint (moe/moe_layer.py);
/// - `layernorm`: the output of a norm that is its own module, discarded once consumed: the MoE
///   layer's pre-MLP norm and MLA's input norm (a dense layer's norms are fused into Transformer
///   Engine's `LayerNormColumnParallelLinear`, where the flag changes nothing);
/// - `mla_up_proj`: MLA's per-head Q, K and V after the up projections and rotary, discarded
///   after the attention core reads them (multi_latent_attention.py).
enum class recompute_module : std::uint8_t {
  core_attn,
  mlp,
  moe,
  moe_act,
  shared_experts,
  layernorm,
  mla_up_proj,
};

/// Megatron-Core's names of the modules, in `recompute_module` order.
inline constexpr std::string_view recompute_module_names[] = {
    "core_attn", "mlp", "moe", "moe_act", "shared_experts", "layernorm", "mla_up_proj"};

/// The tensors of a layer a JAX checkpoint policy names (`checkpoint_name` tags in MaxText's
/// decoder, AI-Hypercomputer/maxtext e591f30cbbf217ed67ef71263ec0538239f9c3b8: the projections'
/// outputs query_proj, key_proj, value_proj (after rotary) and out_proj, src/maxtext/layers/
/// attentions.py; the attention kernel's output and logsumexp, context, attention_op.py; its
/// output before the projection, attention_out; the MLP's input projections mlpwi_0 and mlpwi_1
/// and its output mlpwo, linears.py; an MoE layer's experts tag theirs with the same names,
/// moe.py). The layer's input, the scan's carry `decoder_layer_input`, is a residual of every
/// policy (nnx_decoders.py): it stays on the device unless a `custom` policy offloads it
/// ("this tensor cannot be rematerialized", base.yml).
enum class layer_tensor : std::uint8_t {
  query_proj,
  key_proj,
  value_proj,
  context,
  attention_out,
  out_proj,
  mlpwi_0,
  mlpwi_1,
  mlpwo,
  decoder_layer_input,
};

/// Whether a policy can leave tensor `x` to be recomputed: every named tensor but the scan's
/// carry, which stays on the device unless offloaded ("this tensor cannot be rematerialized",
/// base.yml at e591f30).
constexpr bool rematerialisable(layer_tensor x) { return x != layer_tensor::decoder_layer_input; }

/// MaxText's names of the tensors, in `layer_tensor` order.
inline constexpr std::string_view layer_tensor_names[] = {
    "query_proj", "key_proj", "value_proj", "context",
    "attention_out", "out_proj", "mlpwi_0", "mlpwi_1",
    "mlpwo", "decoder_layer_input"};

/// A set of `recompute_module`s (or of `layer_tensor`s), one bit each.
using recompute_module_set = std::uint16_t;

constexpr recompute_module_set module_bit(recompute_module r) {
  return static_cast<recompute_module_set>(1U << static_cast<unsigned>(r));
}
constexpr recompute_module_set tensor_bit(layer_tensor x) {
  return static_cast<recompute_module_set>(1U << static_cast<unsigned>(x));
}

/// A recomputation policy. Under `selective`, `modules` names what is recomputed (Megatron-Core's
/// `--recompute-modules`); empty, the attention core alone (`--recompute-activations`).
struct recompute_policy {
  recompute_kind kind = recompute_kind::selective;
  std::int64_t checkpoints_per_layer = 0;  ///< only for `recompute_kind::checkpoints`
  recompute_module_set modules = 0;        ///< only for `recompute_kind::selective`
  recompute_module_set saved = 0;      ///< `layer_tensor`s kept on the device (`named`)
  recompute_module_set offloaded = 0;  ///< `layer_tensor`s kept in host memory (`named`)

  friend constexpr bool operator==(const recompute_policy&, const recompute_policy&) = default;
};

/// A remat policy of MaxText by its `remat_policy` name (`get_remat_policy`,
/// src/maxtext/layers/nnx_decoders.py at e591f30cbbf217ed67ef71263ec0538239f9c3b8, lines 1140-1268;
/// the offloaded names, maxtext_utils.py 208-246). `full` (nothing named) is `recompute_kind::full`;
/// `custom` names its tensors one by one (`tensors_on_device`, `tensors_to_offload`).
struct named_remat_policy {
  std::string_view name;
  recompute_kind kind = recompute_kind::named;
  recompute_module_set saved = 0;
  recompute_module_set offloaded = 0;
};

namespace detail {
constexpr recompute_module_set tensors(std::initializer_list<layer_tensor> list) {
  recompute_module_set set = 0;
  for (layer_tensor x : list) set = static_cast<recompute_module_set>(set | tensor_bit(x));
  return set;
}
using lt = layer_tensor;
inline constexpr recompute_module_set qkv = tensors({lt::query_proj, lt::key_proj, lt::value_proj});
inline constexpr recompute_module_set minimal =
    tensors({lt::query_proj, lt::key_proj, lt::value_proj, lt::out_proj, lt::mlpwi_0,
             lt::mlpwi_1, lt::mlpwo});
}  // namespace detail

/// MaxText's named remat policies (`remat_policy`), as its decoder builds them.
inline constexpr named_remat_policy maxtext_remat_policies[] = {
    {"full", recompute_kind::full, 0, 0},
    {"minimal", recompute_kind::named, detail::minimal, 0},
    {"minimal_with_context", recompute_kind::named,
     detail::minimal | tensor_bit(layer_tensor::context), 0},
    {"save_dot_with_context_except_mlp", recompute_kind::named,
     detail::qkv | detail::tensors({layer_tensor::context, layer_tensor::out_proj}), 0},
    {"save_dot_except_mlpwi", recompute_kind::named,
     detail::qkv | detail::tensors({layer_tensor::out_proj, layer_tensor::mlpwo}), 0},
    {"save_dot_except_mlp", recompute_kind::named, detail::qkv | tensor_bit(layer_tensor::out_proj),
     0},
    {"save_qkv_proj", recompute_kind::named, detail::qkv, 0},
    {"save_out_proj", recompute_kind::named, tensor_bit(layer_tensor::out_proj), 0},
    {"qkv_proj_offloaded", recompute_kind::named, 0, detail::qkv},
    {"minimal_offloaded", recompute_kind::named, 0, detail::minimal},
};

/// MaxText's policy of that name (exactly as `maxtext_remat_policies` spells it), or null.
constexpr const named_remat_policy* maxtext_remat_policy(std::string_view name) {
  for (const named_remat_policy& x : maxtext_remat_policies)
    if (x.name == name) return &x;
  return nullptr;
}

/// The recompute policy a MaxText remat policy is.
constexpr recompute_policy policy_of(const named_remat_policy& x) {
  return {x.kind, 0, 0, x.saved, x.offloaded};
}

/// The name of MaxText's policy that keeps and offloads what `r` does (`recompute_kind::named`),
/// or "" where none does (a `custom` policy).
constexpr std::string_view maxtext_remat_name(const recompute_policy& r) {
  for (const named_remat_policy& x : maxtext_remat_policies)
    if (x.kind == recompute_kind::named && policy_of(x) == r) return x.name;
  return {};
}

/// The modules `r` recomputes: `selective` with no modules named is `core_attn`, `mlp` is the
/// dense MLP alone; the other kinds name none.
constexpr recompute_module_set recomputed_modules(const recompute_policy& r) {
  if (r.kind == recompute_kind::mlp) return module_bit(recompute_module::mlp);
  if (r.kind != recompute_kind::selective) return 0;
  return r.modules != 0 ? r.modules : module_bit(recompute_module::core_attn);
}

/// Whether `r` recomputes module `x`.
constexpr bool recomputes(const recompute_policy& r, recompute_module x) {
  return (recomputed_modules(r) & module_bit(x)) != 0;
}

/// The inputs of the per-layer activation formula. `seq_len` is the tokens of one sequence that
/// one device holds (the sequence divided by context parallelism).
struct activation_inputs {
  std::int64_t micro_batch = 1;  ///< b, sequences
  std::int64_t seq_len = 1;      ///< s, tokens per sequence on this device
  std::int64_t tensor_parallel = 1;
  bool sequence_parallel = false;
  std::int64_t expert_parallel = 1;  ///< devices the routed experts are spread over
  recompute_policy recompute{};
  double activation_bytes = 2.0;  ///< bytes of one stored activation element (bf16: 2)
  /// Bytes of a linear layer's input kept for its weight gradient where the layer keeps its own
  /// quantized copy (Transformer Engine under an fp8 recipe: 1); 0: the input itself, at
  /// `activation_bytes`, shared with whatever else keeps it.
  double linear_input_bytes = 0.0;
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
///   expert), each routed expert's output (e·h), which the router's probability weighs and whose
///   gradient needs it (torchtitan's combine, `routed_output.to(float32) * scores`,
///   models/moe/moe.py at bb308da6 and common/token_dispatcher.py at b5bcd76; Megatron-Core's
///   `unpermute`, `permuted_tokens * permuted_probs`, moe_utils.py), and fp32 router
///   probabilities (4·E per token); experts are split by tensor parallelism like a dense MLP;
/// - replicated without sequence parallelism: the two norm inputs, the attention and MLP inputs
///   (e·h each) and, with dropout, two 1-byte masks.
/// Where linear layers keep their own quantized input (`linear_input_bytes` q, Transformer Engine
/// under fp8: linear.py and layernorm_linear.py at d0067d0d, one fp8 copy each), the inputs of the
/// QKV, MLP and expert up-projections (the norm outputs and the dispatched tokens) and of the MLP
/// and expert down-projections (the activation output) are q bytes an element, and the output
/// projection keeps a q-byte copy of the attention output beside the bf16 one the attention kernel
/// keeps; recomputing a norm then frees nothing (the projection's copy stays).
/// Full recomputation keeps the layer input (e·h per token, divided by t under sequence
/// parallelism); `checkpoints` keeps n such tensors. Selective recomputation drops what its
/// modules free (`recompute_module`): `mlp` a dense layer's MLP terms (its input, the norm's
/// output, is among the replicated ones and stays); `moe` every MoE term but the block's input;
/// `moe_act` q·f_e per routed expert token; `shared_experts` the shared experts' terms;
/// `layernorm` the norm output (e·h) of an MoE layer's MLP norm and of MLA's input norm;
/// `mla_up_proj` MLA's per-head Q, K and V; eager attention's scores stay unless `core_attn`.
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
  // A linear layer's saved input, and the attention output's extra copy where it is its own.
  const bool own_copies = in.linear_input_bytes > 0.0;
  const double q = own_copies ? in.linear_input_bytes : e;
  // What recomputing a norm frees: its output, unless the next projection kept its own copy.
  const double norm_freed = own_copies ? 0.0 : e * h;

  // Per token, replicated across tensor-parallel ranks unless sequence parallel: the two norm
  // inputs and their outputs (the attention and MLP inputs).
  double replicated = 2.0 * e * h + 2.0 * q * h + 2.0 * mask * h;
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
    if (own_copies) split += q * a * v;            // the output projection's copy
  } else {
    const double dh = static_cast<double>(m.head_dim);
    const double kv = static_cast<double>(m.kv_heads);
    split += e * a * dh * 2.0 + 2.0 * e * kv * dh;  // Q and output; K and V
    if (own_copies) split += q * a * dh;            // the output projection's copy
  }
  const recompute_policy& r = in.recompute;
  if (m.mla.kv_lora_rank > 0 && recomputes(r, recompute_module::mla_up_proj)) {
    const double qk = static_cast<double>(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
    split -= e * a * qk * 2.0 + e * a * static_cast<double>(m.mla.v_head_dim);  // Q, K, V
  }
  if (m.mla.kv_lora_rank > 0 && recomputes(r, recompute_module::layernorm))
    replicated -= norm_freed;  // the input norm's output
  const bool scores_kept =
      r.kind == recompute_kind::none ||
      (r.kind != recompute_kind::full && r.kind != recompute_kind::checkpoints &&
       !recomputes(r, recompute_module::core_attn));
  if (in.eager_attention && scores_kept)
    split += (e + mask + mask * e) * a * s;  // softmax output, dropout mask and output

  // The activation's input(s) at e, its output (the down-projection's input) at q.
  const double per_expert_token = (m.gated_mlp ? 2.0 : 1.0) * e + q;
  if (kind == layer_kind::moe && !recomputes(r, recompute_module::moe)) {
    const double fe = static_cast<double>(m.moe.expert_d_ff);
    const double k = static_cast<double>(m.moe.top_k);
    const double shared = static_cast<double>(m.moe.shared_experts);
    // moe_act frees each routed expert's activation output, shared_experts the shared MLPs.
    const double act = recomputes(r, recompute_module::moe_act) ? k * q * fe : 0.0;
    const double shared_mlp =
        recomputes(r, recompute_module::shared_experts) ? shared * per_expert_token * fe : 0.0;
    split += (k + shared) * per_expert_token * fe - act - shared_mlp + k * q * h + k * e * h;
    replicated += 4.0 * static_cast<double>(m.moe.experts);
    if (recomputes(r, recompute_module::layernorm)) replicated -= norm_freed;  // pre-MLP norm
  } else if (kind == layer_kind::dense && !recomputes(r, recompute_module::mlp)) {
    split += per_expert_token * static_cast<double>(m.d_ff);
  }
  return (sb * replicated / sp + sb * split / t) * byte;
}

}  // namespace shardplan
