// A layer as the operations a device runs for it, after tensor, sequence, context and expert
// sharding: its GEMMs with (m, n, k) and format, its attention call, and the memory-bound
// operations (norms, rotary, activation, residual adds, dropout, casts of an fp8 recipe) with the
// bytes they move; the embedding, the logits and the fp32 loss; forward, backward (data and
// weight gradients) and what recomputation repeats. Each operation's time comes from
// `hardware/kernels.hpp`. The FLOPs summed over a step's operations equal `flops.hpp`'s formulas.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/kernels.hpp>
#include <shardplan/models/flops.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/training/memory.hpp>

namespace shardplan {

/// What kind of work an operation is: a GEMM, a fused attention call, or memory-bound.
enum class operation_kind : std::uint8_t { gemm, attention, memory };

/// Which pass an operation belongs to.
enum class operation_pass : std::uint8_t { forward, backward, recompute };

constexpr std::string_view pass_name(operation_pass p) {
  switch (p) {
    case operation_pass::forward: return "forward";
    case operation_pass::backward: return "backward";
    case operation_pass::recompute: return "recompute";
  }
  return "?";
}

/// Which tensor-parallel collective a linear GEMM sits next to: `column` (its input all-gathered
/// in the forward, its input gradient reduce-scattered in the backward: QKV, MLP up) or `row`
/// (its output reduce-scattered forward, its output gradient all-gathered backward: the
/// attention output projection, MLP down).
enum class tp_side : std::uint8_t { none, column, row };

/// One operation of one layer (or of the embedding or output) for one micro-batch on one device.
struct operation {
  std::string_view name;
  operation_kind kind = operation_kind::memory;
  operation_pass pass = operation_pass::forward;
  number_format format = number_format::bf16;
  gemm_shape gemm{};                 ///< kind gemm
  attention_shape attention{};       ///< kind attention
  bool attention_backward = false;   ///< kind attention: the backward kernel
  bool linear = false;               ///< a weight GEMM (what an fp8 recipe converts)
  bool attention_core = false;       ///< QK^T, softmax and PV (what selective recomputation repeats)
  bool dense_mlp = false;            ///< a dense layer's MLP (what `recompute_kind::mlp` repeats)
  bool cast = false;                 ///< an fp8/fp4 recipe's cast (its backward is its own operation)
  double scaling_share = 1.0;        ///< kind gemm: `block_scaled_gemm_share` for fine-grained scales
  double model_flops = 0.0;          ///< FLOPs as MFU counts them (the plan's attention convention)
  double traffic = 0.0;              ///< bytes to and from HBM
  /// kind memory: the bytes of its backward when they are not twice the forward's (< 0: twice).
  double backward_traffic = -1.0;
  /// kind memory: the compute-stream work of a tensor-parallel collective (`add_collective_copy`).
  bool collective_copy = false;
  /// kind memory: the bytes it moves when torchtitan's op-level selective recomputation reruns it
  /// (`op_sac_share`), when not its forward's (< 0: the forward's).
  double rerun_traffic = -1.0;
  /// kind gemm: run as this many GEMMs one after another, each over 1/chunks of the tokens (a
  /// tensor-parallel overlap's split); 1: one GEMM. Kind attention: this many calls of the
  /// shape one after another (a context-parallel ring's steps).
  double chunks = 1.0;
  /// kind gemm: the chunks of its data gradient (the backward's split).
  double backward_chunks = 1.0;
  /// kind gemm: a tensor-parallel collective overlaps it (the window `tp_window` adds up).
  bool tp_window = false;
  /// kind gemm: one overlaps its data gradient (and, with `bulk`, its weight gradient).
  bool backward_tp_window = false;
  /// kind gemm, a column-parallel linear: the backward's tensor-parallel reduction of its input
  /// gradient runs beside its weight gradient (`tp_backward_beside_weight_gradient`), which is
  /// then that reduction's window (`weight_gradient_window` adds it up).
  bool weight_gradient_window = false;
};

inline constexpr std::size_t max_operations = 96;

/// The operations of one layer (or output) in order.
struct operation_list {
  std::array<operation, max_operations> items{};
  std::size_t count = 0;

  constexpr void add(const operation& o) {
    if (count < max_operations) items[count++] = o;
  }
  constexpr double model_flops() const {
    double f = 0.0;
    for (std::size_t i = 0; i < count; ++i) f += items[i].model_flops;
    return f;
  }
};

/// What a device's share of one layer looks like: one micro-batch of `micro_batch` sequences of
/// `seq_len` tokens, split over tensor, context and expert parallelism.
struct layer_shard {
  double micro_batch = 1.0;
  double seq_len = 0.0;
  double tensor = 1.0;
  double context = 1.0;
  double expert = 1.0;
  bool sequence_parallel = false;
  bool eager_attention = false;
  bool dropout = false;
  attention_kernel kernel = attention_kernel::automatic;
  attention_flops convention = attention_flops::causal;
  precision_policy precision{};
  /// The norms, rotary embedding and gated activation run as eager PyTorch modules, one kernel
  /// per tensor operation (`eager_modules_of`), instead of fused kernels.
  bool eager_modules = false;
  /// `selective` recomputation is torchtitan's op-level policy (`op_sac_share`): its backward
  /// reruns what the policy does not save.
  bool op_sac = false;
  /// How the tensor-parallel collectives overlap their GEMMs (`none`: they do not).
  tp_overlap_method tp_overlap = tp_overlap_method::none;
  /// The backward's reduction of each column-parallel GEMM's input gradient runs beside its
  /// weight gradient (`tp_backward_beside_weight_gradient`).
  bool reduce_beside_weight_gradient = false;
  /// The sequence-parallel collectives copy their activations on the compute stream
  /// (`dtensor_collective_copies`).
  bool dtensor_copies = false;
  /// Bytes per element of a sequence-parallel all-gather (`sequence_gather_bytes`).
  double gather_bytes = 2.0;
  /// K and V reach attention repeated to every query head (`repeats_kv`).
  bool repeated_kv = false;
  /// The context-parallel ring is PyTorch's (`pytorch_ring_bytes`).
  bool pytorch_ring = false;

  /// Tokens through the GEMMs of one device: b·s/cp (tensor parallelism splits the weights).
  constexpr double tokens() const { return micro_batch * seq_len / context; }
  /// Tokens through the norms, residual adds and dropout: split over TP ranks with sequence
  /// parallelism, else every rank repeats them.
  constexpr double norm_tokens() const {
    return sequence_parallel ? tokens() / tensor : tokens();
  }
};

/// Whether the plan's layers run their norms, rotary embedding and activation as eager PyTorch
/// modules: torchtitan and torchtune without `compiled_layers` (torch.compile fuses each into a
/// kernel or two). Megatron-Core, DeepSpeed (Megatron-DeepSpeed's fused kernels), MaxText (XLA)
/// and the papers' accounting fuse them.
constexpr bool eager_modules_of(const training_setup& t) {
  return t.framework.eager_modules && !t.compiled_layers;
}

/// The plan's tensor-parallel overlap on a chip of `kind`: `userbuffers` under Megatron-Core,
/// `symmetric_memory` under torchtitan, when `tp_comm_overlap` is set with tensor and sequence
/// parallelism (both implementations overlap the all-gathers and reduce-scatters of sequence
/// parallelism only); `windowed_einsum` under MaxText on a TPU with tensor and sequence
/// parallelism (MaxText shards the activations between its layers over the tensor axis,
/// base.yml's `activation_embed`, which a plan states as sequence parallelism), XLA's default
/// there; `none` otherwise.
constexpr tp_overlap_method tp_overlap_of(const training_setup& t, chip_kind kind) {
  if (t.degrees.tensor <= 1 || !t.degrees.sequence_parallel) return tp_overlap_method::none;
  if (kind == chip_kind::tpu && t.framework.tpu_tp_overlap != tp_overlap_method::none)
    return t.framework.tpu_tp_overlap;
  if (!t.tp_comm_overlap) return tp_overlap_method::none;
  return t.framework.tp_comm_overlap_method;
}

/// Whether the backward's tensor-parallel reduction of each column-parallel GEMM's input
/// gradient (QKV, MLP up) runs beside that GEMM's weight gradient, which does not need it, when
/// no `tp_overlap_method` chunks the GEMMs:
/// - Megatron-Core: `LinearWithGradAccumulationAndAsyncCommunication.backward`
///   (megatron/core/tensor_parallel/layers.py at core_r0.8.0, baf94af3) launches
///   `all_reduce(grad_input, async_op=True)`, with sequence parallelism
///   `_reduce_scatter_base(..., async_op=True)`, before the weight-gradient GEMM and waits after
///   it; `CUDA_DEVICE_MAX_CONNECTIONS=1`, which validate_args requires with tensor parallelism,
///   keeps that launch order on the GPU. Megatron-LM does so from 83b1e42f (2022-02-13);
///   `sync_tp_backward` is what it did before (`--no-async-tensor-model-parallel-allreduce`).
/// - MaxText where XLA does not window its einsums (a GPU, or no sequence parallelism): XLA's
///   latency-hiding scheduler runs an asynchronous collective beside compute that does not
///   depend on it (MaxText's TPU scripts of 76bd53b, configs/v5p/*.sh, turn asynchronous
///   collectives on: `--xla_tpu_enable_async_collective_fusion=true`; XLA's GPU backend has its
///   latency-hiding scheduler on by default).
/// Not torchtitan (DTensor redistributes the input gradient after the autograd node has
/// computed both gradients), DeepSpeed (its Megatron-DeepSpeed forks are of many Megatron-LM
/// dates; not read) or `generic` (the papers' accounting, every collective exposed).
/// Without sequence parallelism both backward all-reduces of a layer hide so; with it only the
/// reduce-scatters, the all-gathers of the row-parallel GEMMs' output gradients still preceding
/// their data gradients.
constexpr bool tp_backward_beside_weight_gradient(const training_setup& t, chip_kind kind) {
  if (t.degrees.tensor <= 1 || tp_overlap_of(t, kind) != tp_overlap_method::none) return false;
  switch (t.framework.tp_backward) {
    case tp_backward_overlap::unless_synchronous:
      return t.degrees.sequence_parallel || !t.sync_tp_backward;
    case tp_backward_overlap::always: return true;
    case tp_backward_overlap::never: return false;
  }
  return false;
}

/// Whether the plan's sequence-parallel all-gathers and reduce-scatters each copy the whole
/// activation on the compute stream: torchtitan's tensor parallelism, whose `SequenceParallel`
/// and the `Colwise`/`RowwiseParallel` layouts around it shard the sequence, dim 1 of [b, s, h],
/// and whose DTensor redistributions call PyTorch's functional collectives
/// (torch/distributed/_functional_collectives.py): NCCL gathers and scatters along dim 0, so
/// `all_gather_tensor` with `gather_dim` 1 concatenates the tp chunks of its output along dim 1
/// (`torch.cat(torch.chunk(res, group_size, dim=0), dim=gather_dim)`: the gathered [b, s, h] read
/// and written) and `reduce_scatter_tensor` with `scatter_dim` 1 does the same to its input
/// before reducing. Every micro-batch size pays it: the b = 1 shortcut (a view) is PyTorch PR
/// 169404 (2025-12), after the measured runs. Megatron-Core's sequence parallelism shards dim 0
/// of [s, b, h] and gathers into place; other frameworks do not shard this way.
constexpr bool dtensor_collective_copies(const training_setup& t) {
  return t.framework.sequence_collectives_copy && t.degrees.tensor > 1 &&
         t.degrees.sequence_parallel;
}

/// Whether the backward reruns each dense layer's two sequence-parallel all-gathers (before the
/// QKV and the MLP-up GEMMs): torchtitan's op-level selective checkpointing, whose policy saves
/// the reduce-scatters' outputs but not the all-gathers' (`op_sac_share`).
constexpr bool sac_reruns_gathers(const training_setup& t) {
  return t.framework.selective == selective_recompute::op_level &&
         t.recompute.kind == recompute_kind::selective && t.degrees.tensor > 1 &&
         t.degrees.sequence_parallel;
}

/// Bytes per element of a sequence-parallel all-gather, forward (a column-parallel linear's
/// input) and backward (a row-parallel linear's output gradient): 1 under torchtitan's Float8
/// with tensorwise scales, which casts both to float8 before they are gathered (torchao's
/// `Float8ColwiseParallel` and `Float8RowwiseParallel`, which torchtitan's `apply_tp` uses when
/// `enable_float8_tensorwise_tp`: "float8 all-gather with TP is only supported for tensorwise
/// float8 scaling recipes. For rowwise recipes, we use regular TP and all-gather happens in
/// high precision", torchtitan parallelize.py); the activation bytes otherwise. The
/// reduce-scatters stay in the activation bytes.
constexpr double sequence_gather_bytes(const training_setup& t) {
  const bool float8_gathers = t.framework.float8_sequence_gathers &&
                              t.degrees.sequence_parallel &&
                              t.precision.compute == number_format::fp8 &&
                              t.precision.scaling == low_precision_scaling::tensorwise;
  return float8_gathers ? 1.0 : t.precision.activation_bytes;
}

/// Bytes per element an RMSNorm moves forward: a fused kernel reads its input and writes its
/// output, 2e. Eager, as torchtitan's `RMSNorm` (torchtitan/models/norms.py at
/// 9dec370ad26b5f8e9a7333a0e36165018262644b) and torchtune's (torchtune/modules/rms_norm.py at
/// 1814feb17a) run it, one kernel per operation: `x.float()` (reads e, writes 4), `pow(2)` (4, 4),
/// `mean(-1)` (4), the product with the `rsqrt` (4, 4), `type_as(x)` (4, e) and the product with
/// the weight (e, e): 28 + 4e.
constexpr double norm_bytes_per_element(double e, bool eager) {
  return eager ? 28.0 + 4.0 * e : 2.0 * e;
}

/// Bytes per element of q and k that the rotary embedding moves forward: fused, 2e. Eager
/// (torchtitan's `apply_rotary_emb`, models/llama/model.py@9dec370: `view_as_complex` of
/// `x.float()`, the complex product, `view_as_real` and `type_as`; torchtune's
/// `RotaryPositionalEmbeddings` the same casts around its real products): the cast (e, 4), the
/// product (4, 4) and the cast back (4, e), 16 + 2e.
constexpr double rotary_bytes_per_element(double e, bool eager) {
  return eager ? 16.0 + 2.0 * e : 2.0 * e;
}

/// Bytes per element of the MLP's width that its activation moves forward: fused, the gated
/// activation reads two halves and writes one (3e), an ungated one reads and writes (2e). Eager
/// gated (`F.silu(self.w1(x)) * self.w3(x)`): SiLU (e, e), then the product (2e, e), 5e.
constexpr double activation_bytes_per_element(double e, bool gated, bool eager) {
  if (!gated) return 2.0 * e;
  return eager ? 5.0 * e : 3.0 * e;
}

/// Whether the plan's attention gets K and V repeated to every query head: torchtitan's Llama
/// calls `repeat_kv` on both before SDPA (`keys = repeat_kv(xk, self.n_rep)`,
/// torchtitan/models/llama/model.py at 9dec370, llama3/model.py at 820504e and e7c0cae), which
/// writes them at the query heads' width; the fused kernels of the other frameworks read the
/// grouped heads in place.
constexpr bool repeats_kv(const training_setup& t) {
  return t.framework.repeats_kv;
}

/// Whether the plan's context parallelism is PyTorch's ring attention
/// (`torch.distributed.tensor.experimental.context_parallel`), as torchtitan runs it: its
/// merges and copies (`pytorch_ring_bytes`) and its all-gathered K and V
/// (`context_exchange::all_gather`, training/cost.hpp).
constexpr bool runs_pytorch_ring(const training_setup& t) {
  return t.framework.pytorch_ring_attention;
}

/// The shard of a plan's setup.
constexpr layer_shard shard_of(const training_setup& t, chip_kind kind,
                               attention_flops convention) {
  layer_shard s;
  s.micro_batch = static_cast<double>(t.batch.micro_batch);
  s.seq_len = static_cast<double>(t.batch.seq_len);
  s.tensor = static_cast<double>(t.degrees.tensor);
  s.context = static_cast<double>(t.degrees.context);
  s.expert = static_cast<double>(t.degrees.expert);
  s.sequence_parallel = t.degrees.sequence_parallel;
  s.eager_attention = t.eager_attention;
  s.dropout = t.dropout;
  s.kernel = t.attention;
  s.convention = convention;
  s.precision = t.precision;
  s.eager_modules = eager_modules_of(t);
  s.op_sac = t.framework.selective == selective_recompute::op_level;
  s.tp_overlap = tp_overlap_of(t, kind);
  s.reduce_beside_weight_gradient = tp_backward_beside_weight_gradient(t, kind);
  s.dtensor_copies = dtensor_collective_copies(t);
  s.gather_bytes = sequence_gather_bytes(t);
  s.repeated_kv = repeats_kv(t);
  s.pytorch_ring = runs_pytorch_ring(t);
  return s;
}

/// Whether `method` overlaps the backward's tensor-parallel collectives too.
constexpr bool tp_overlaps_backward(tp_overlap_method method) {
  return method == tp_overlap_method::userbuffers || method == tp_overlap_method::windowed_einsum;
}

/// The chunks a linear GEMM next to a tensor-parallel collective runs in under `method` at
/// tensor degree `tp`: forward (`backward` false) or its data gradient. `userbuffers`: the
/// ring-exchange all-gathers split into `tp`, the forward pipelined reduce-scatters into 4, the
/// backward bulk reduce-scatter does not split its GEMM; `symmetric_memory`: the forward's
/// into `tp`, the backward's not at all (see `tp_overlap_method`).
constexpr double tp_overlap_chunks(tp_overlap_method method, double tp, tp_side side,
                                   bool backward) {
  if (side == tp_side::none || tp <= 1.0) return 1.0;
  switch (method) {
    case tp_overlap_method::none: return 1.0;
    case tp_overlap_method::userbuffers:
      if (side == tp_side::column) return backward ? 1.0 : tp;
      return backward ? tp : 4.0;
    case tp_overlap_method::symmetric_memory: return backward ? 1.0 : tp;
    case tp_overlap_method::windowed_einsum: return tp;
  }
  return 1.0;
}

/// Key-value heads one tensor-parallel rank holds: kv_heads / t, at least one (with fewer heads
/// than ranks each head is replicated, as Megatron-Core and torchtitan do).
constexpr double kv_heads_per_rank(const model_shape& m, double tensor) {
  const double kv = static_cast<double>(m.kv_heads) / tensor;
  return kv > 1.0 ? kv : 1.0;
}

namespace detail {

/// Adds a weight GEMM (in the recipe's linear format) of output m x n over k, `groups` side by
/// side.
/// `counted_n` (when > 0) is the width MFU counts where the device computes more than its share
/// (key and value heads replicated over more tensor-parallel ranks than there are heads).
constexpr void add_linear(operation_list& out, std::string_view name, const layer_shard& s,
                          double m, double n, double k, double groups = 1.0,
                          double counted_n = 0.0) {
  operation o{name, operation_kind::gemm};
  o.format = s.precision.compute;
  o.gemm = {m, n, k, groups};
  o.linear = true;
  if (s.precision.scaling == low_precision_scaling::rowwise ||
      s.precision.scaling == low_precision_scaling::blockwise)
    o.scaling_share = block_scaled_gemm_share;
  o.model_flops = gemm_flops({m, counted_n > 0.0 ? counted_n : n, k, groups});
  o.traffic = gemm_bytes(o.gemm, o.format);
  out.add(o);
}

/// Marks the last operation of `out`, a linear GEMM next to a tensor-parallel collective on
/// `side`, with the chunks the plan's overlap splits it and its data gradient into, or, without
/// one, as the window of its input gradient's reduction (`weight_gradient_window`).
constexpr void mark_tp_overlap(operation_list& out, const layer_shard& s, tp_side side) {
  if (out.count == 0) return;
  operation& o = out.items[out.count - 1];
  o.weight_gradient_window = side == tp_side::column && s.reduce_beside_weight_gradient;
  if (s.tp_overlap == tp_overlap_method::none) return;
  o.chunks = tp_overlap_chunks(s.tp_overlap, s.tensor, side, false);
  o.backward_chunks = tp_overlap_chunks(s.tp_overlap, s.tensor, side, true);
  o.tp_window = true;
  o.backward_tp_window = tp_overlaps_backward(s.tp_overlap);
}

/// A memory-bound operation moving `traffic` bytes to and from HBM.
constexpr operation memory_operation(std::string_view name, double traffic) {
  operation o{name, operation_kind::memory};
  o.traffic = traffic;
  return o;
}

/// Adds a memory-bound operation moving `traffic` bytes.
constexpr void add_memory(operation_list& out, std::string_view name, double traffic) {
  out.add(memory_operation(name, traffic));
}

/// Adds what a sequence-parallel collective of the t x h activations costs on the compute
/// stream besides its transfer. With `dtensor_collective_copies`, the copy of the whole array,
/// read and written, `forward_e` bytes an element in the forward and `backward_e` in the
/// backward, whose collective is the other of the pair over the same array (an all-gather's
/// gradient is a reduce-scatter). Under `symmetric_memory` the forward's collective is fused
/// into its GEMM, which takes dim 0 first (Inductor's `micro_pipeline_tp` restrides its
/// operands), and costs `fused_forward` bytes instead (`add_gather_copy`, `add_scatter_copy`);
/// the backward's is not fused. Zero-byte entries are still listed, so the pass shows them.
constexpr void add_collective_copy(operation_list& out, std::string_view name,
                                   const layer_shard& s, double t, double h, double forward_e,
                                   double backward_e, double fused_forward) {
  const bool fused = s.tp_overlap == tp_overlap_method::symmetric_memory;
  if (!s.dtensor_copies && !fused) return;
  const double copy_forward = s.dtensor_copies ? 2.0 * forward_e * t * h : 0.0;
  operation o = memory_operation(name, fused ? fused_forward : copy_forward);
  o.backward_traffic = s.dtensor_copies ? 2.0 * backward_e * t * h : 0.0;
  o.rerun_traffic = copy_forward;
  o.collective_copy = true;
  out.add(o);
}

/// The compute-stream work of a sequence-parallel all-gather before a column-parallel linear
/// (its backward a reduce-scatter). Fused (`_pipelined_multi_all_gather_and_consume`,
/// torch/distributed/_symmetric_memory/__init__.py): the local shard is copied into the
/// peer-visible buffer before the first GEMM ("we are giving up the chance to overlap
/// 'mv' and 'b' with the first shard_consumer") and into the gathered output after the last,
/// two copies of t·h/tp, read and written.
constexpr void add_gather_copy(operation_list& out, const layer_shard& s, double t, double h) {
  add_collective_copy(out, "all-gather copy (dim 1)", s, t, h, s.gather_bytes,
                      s.precision.activation_bytes, 4.0 * s.gather_bytes * t * h / s.tensor);
}

/// The compute-stream work of a sequence-parallel reduce-scatter after a row-parallel linear
/// (its backward an all-gather). Fused (`_fused_matmul_reduce_scatter_impl`, as above): the
/// GEMM's tp partial outputs, stacked as the peers' copies arrive, are summed by one reduction
/// kernel on the compute stream, which reads all t·h of them and writes t·h/tp.
constexpr void add_scatter_copy(operation_list& out, const layer_shard& s, double t, double h) {
  const double e = s.precision.activation_bytes;
  add_collective_copy(out, "reduce-scatter copy (dim 1)", s, t, h, e, s.gather_bytes,
                      e * t * h * (1.0 + 1.0 / s.tensor));
}

/// Bytes PyTorch's ring attention moves besides its SDPA calls, forward and backward, as eager
/// tensor operations (torchtitan's context parallelism): `q` query (and output) elements and
/// `kv` key and value elements on the rank, `cp` ranks, `e` bytes an activation. Read off
/// `_templated_ring_attention`, its backward and `_SDPAMerger` (torch/distributed/tensor/
/// experimental/_attention.py, the copies read at 0123248a and in `context_exchange`, with
/// `convert_to_f32` and `enable_load_balance` on, their defaults):
/// - forward: K and V made contiguous once (2e a kv element); K and V concatenated into the
///   send buffer before every step but the last (2e, cp - 1 times); the first step's output cast
///   to fp32 and the result cast back (e + 4 each, q); each later step's output cast to fp32 and
///   merged in three fp32 operations, `out - sigmoid(lse_b - lse) * (out - out_b)` (12 + 8 + 12),
///   over all queries (e + 36 a q element) or, on the steps with half of them, over that half
///   with the running output rebuilt by `torch.cat` (e/2 + 26): 0.75e + 31 on average;
/// - backward: fp32 zeros for the three gradients (4, q + kv); K and V made contiguous (2e) and
///   concatenated before every step but the last (2e, cp - 1 times); the first step's gradients
///   added into them (8 + e, q + kv); each later step's added in place or, on the steps with
///   half of them, into half with the whole rebuilt by `torch.cat` (8 + e and (8 + e)/2 + 8:
///   10 + 0.75e on average, q + kv); dK and dV concatenated in fp32 for the next rank every
///   step (8, kv, cp times); the results cast back (4 + e, q + kv).
/// The SDPA calls' own reads and writes are their kernels'.
struct forward_backward_bytes {
  double forward = 0.0;
  double backward = 0.0;
};
constexpr forward_backward_bytes pytorch_ring_bytes(double q, double kv, double cp, double e) {
  const double later = cp - 1.0;
  forward_backward_bytes b;
  b.forward = 2.0 * e * kv + later * 2.0 * e * kv + 2.0 * (e + 4.0) * q +
              later * (0.75 * e + 31.0) * q;
  b.backward = (q + kv) * (4.0 + (8.0 + e) + later * (10.0 + 0.75 * e) + (4.0 + e)) +
               kv * (2.0 * e + later * 2.0 * e + cp * 8.0);
  return b;
}

/// The attention core: a fused kernel, or with eager attention the two batched GEMMs and the
/// softmax (and dropout) over the materialised s x s scores.
constexpr void add_attention(operation_list& out, const model_shape& m, const layer_shard& s) {
  const double heads = static_cast<double>(m.heads) / s.tensor;
  const bool mla = m.mla.kv_lora_rank > 0;
  const double kv = s.repeated_kv && !mla ? heads : kv_heads_per_rank(m, s.tensor);
  const double qk = mla ? static_cast<double>(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim)
                        : static_cast<double>(m.head_dim);
  const double v = mla ? static_cast<double>(m.mla.v_head_dim) : static_cast<double>(m.head_dim);
  const double q_len = s.seq_len / s.context;
  // Counted FLOPs: 2·s·a·(d_qk + d_v) per token and layer at the plan's convention (the
  // context-parallel ring holds s/cp queries against all s keys).
  // Local layers (sliding windows, chunks) count their share (`attention_key_share`).
  const double counted = attention_factor(s.convention) * 2.0 * s.micro_batch * q_len *
                         s.seq_len * heads * (qk + v) *
                         attention_key_share(m, s.seq_len, s.convention);
  const number_format f = attention_format(s.precision);
  if (s.eager_attention) {
    const double e = 2.0;
    operation scores{"attention scores QK^T", operation_kind::gemm};
    scores.format = f;
    scores.attention_core = true;
    scores.gemm = {q_len, s.seq_len, qk, s.micro_batch * heads};
    scores.model_flops = counted * qk / (qk + v);
    scores.traffic = gemm_bytes(scores.gemm, f);
    out.add(scores);
    // Fused scale-mask-softmax reads and writes the scores; dropout again (Korthikanti et al.).
    operation softmax = memory_operation(
        "softmax", e * 2.0 * s.micro_batch * heads * q_len * s.seq_len * (s.dropout ? 2.0 : 1.0));
    softmax.attention_core = true;
    out.add(softmax);
    operation pv{"attention values PV", operation_kind::gemm};
    pv.format = f;
    pv.attention_core = true;
    pv.gemm = {q_len, v, s.seq_len, s.micro_batch * heads};
    pv.model_flops = counted * v / (qk + v);
    pv.traffic = gemm_bytes(pv.gemm, f);
    out.add(pv);
    return;
  }
  const double e = bytes_per_element(f);
  operation a{"attention", operation_kind::attention};
  a.format = f;
  a.attention_core = true;
  if (s.context <= 1.0) {
    // A local layer's kernel skips the keys outside its window or chunk: the layers' mean.
    const double keys = s.seq_len * attention_key_share(m, s.seq_len, attention_flops::causal);
    a.attention = {s.micro_batch, heads, kv, q_len, keys, qk, v, true};
    a.model_flops = counted;
    // Q read and O written for the device's queries; K and V read for all keys.
    a.traffic = e * s.micro_batch * (q_len * heads * (qk + v) + s.seq_len * kv * (qk + v));
    out.add(a);
    return;
  }
  // Ring attention over cp ranks, load-balanced: a rank holds chunks i and 2cp-1-i of the
  // sequence's 2cp (c = s/(2cp) tokens each, its q_len = 2c queries). Step 0 is its own keys,
  // causal (2c x 2c, half masked: 1/cp of its work); each of the cp - 1 others is one kernel
  // without the mask over half of a square (all its queries against the first chunk of the
  // keys that arrived, or its second chunk against all of them: 2c x c products either way).
  const double steps = s.context - 1.0;
  a.name = "ring attention, own keys";
  a.attention = {s.micro_batch, heads, kv, q_len, q_len, qk, v, true};
  a.model_flops = counted / s.context;
  a.traffic = e * s.micro_batch * (q_len * heads * (qk + v) + q_len * kv * (qk + v));
  out.add(a);
  a.name = "ring attention, received keys";
  a.attention = {s.micro_batch, heads, kv, q_len, 0.5 * q_len, qk, v, false};
  a.chunks = steps;
  a.model_flops = counted * steps / s.context;
  a.traffic = steps * e * s.micro_batch * (q_len * heads * (qk + v) + 0.5 * q_len * kv * (qk + v));
  out.add(a);
  if (s.pytorch_ring) {
    const forward_backward_bytes b =
        pytorch_ring_bytes(s.micro_batch * q_len * heads * v,
                           s.micro_batch * q_len * kv * (qk + v), s.context, e);
    operation merge = memory_operation("ring attention merges and copies (PyTorch)", b.forward);
    merge.backward_traffic = b.backward;
    merge.attention_core = true;
    out.add(merge);
    return;
  }
  // After each of those steps the partial output is merged into the running one by the two
  // softmax denominators (the online-softmax rescale): the step's output read (bf16) and the
  // running output read and written in fp32 (an assumption: 10 bytes an element), over all of
  // the rank's queries in half of the steps and half of them in the other half. Its backward
  // (twice the bytes) stands for the per-step accumulation of the query and key-value gradients.
  operation merge = memory_operation("ring attention output merge",
                                     steps * 10.0 * s.micro_batch * 0.75 * q_len * heads * v);
  merge.attention_core = true;
  out.add(merge);
}

/// Casts an fp8/fp4 recipe adds before a linear GEMM's forward pass, as bytes moved: the input
/// and the weight read in bf16 and written in the low format; `tensorwise` reads both once more
/// for this step's amax; `mx_block32`/`nv_block16` also write the transposed copies the backward
/// needs (Transformer Engine quantises both directions at once).
constexpr double forward_cast_bytes(const precision_policy& p, const gemm_shape& g) {
  const double low = bytes_per_element(p.compute);
  const double in = g.m * g.k * g.groups;
  const double w = g.k * g.n * g.groups;
  double per = 2.0 + low;
  switch (p.scaling) {
    case low_precision_scaling::none: return 0.0;
    case low_precision_scaling::tensorwise: per += 2.0; break;
    case low_precision_scaling::mx_block32:
    case low_precision_scaling::nv_block16: per += low; break;
    default: break;
  }
  return per * (in + w);
}

/// Casts before a linear GEMM's two backward GEMMs: the output gradient to the low format; the
/// transposed operands of the weight-gradient and data-gradient GEMMs (`delayed_tensorwise`,
/// `tensorwise`: a transpose of the fp8 copies; `rowwise`, `blockwise`: the bf16 tensors cast
/// again along the other axis; MX/NVFP4: already written by the forward cast).
constexpr double backward_cast_bytes(const precision_policy& p, const gemm_shape& g) {
  const double low = bytes_per_element(p.compute);
  const double in = g.m * g.k * g.groups;
  const double w = g.k * g.n * g.groups;
  const double grad = g.m * g.n * g.groups;
  switch (p.scaling) {
    case low_precision_scaling::none: return 0.0;
    case low_precision_scaling::delayed_tensorwise:
      return (2.0 + low) * grad + 2.0 * low * (in + w + grad);
    case low_precision_scaling::tensorwise:
      return (4.0 + low) * grad + 2.0 * low * (in + w + grad);
    case low_precision_scaling::rowwise:
    case low_precision_scaling::blockwise:
      return (2.0 + low) * grad + (2.0 + low) * (in + w + grad);
    case low_precision_scaling::mx_block32:
    case low_precision_scaling::nv_block16:
      return (2.0 + 2.0 * low) * grad;
  }
  return 0.0;
}

}  // namespace detail

/// The forward operations of one transformer layer (an MoE layer when `moe_layer`) for one
/// micro-batch on one device. Weight GEMMs are in the recipe's linear format, attention in
/// `attention_format`; memory-bound operations move `activation_bytes` per element (norms read
/// and write the hidden state, residual adds read two and write one, the gated activation reads
/// two halves and writes one, rotary reads and writes q and k), or as eager modules move them
/// (`norm_bytes_per_element`, `rotary_bytes_per_element`, `activation_bytes_per_element`).
constexpr operation_list layer_forward_operations(const model_shape& m, const layer_shard& s,
                                                  bool moe_layer) {
  operation_list out;
  const double e = s.precision.activation_bytes;
  const double t = s.tokens();
  const double tn = s.norm_tokens();
  const double h = static_cast<double>(m.d_model);
  const double tp = s.tensor;
  const double heads = static_cast<double>(m.heads);
  const double kv_heads = static_cast<double>(m.kv_heads);
  const bool mla = m.mla.kv_lora_rank > 0;
  const double hd = static_cast<double>(m.head_dim);
  const double norm = norm_bytes_per_element(e, s.eager_modules);
  const double rotary = rotary_bytes_per_element(e, s.eager_modules);

  detail::add_memory(out, "attention norm", norm * tn * h);
  detail::add_gather_copy(out, s, t, h);
  if (mla) {
    const double qk = static_cast<double>(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
    const double q_rank = static_cast<double>(m.mla.q_lora_rank);
    const double kv_rank = static_cast<double>(m.mla.kv_lora_rank);
    const double rope = static_cast<double>(m.mla.qk_rope_head_dim);
    if (q_rank > 0.0) {
      detail::add_linear(out, "q down projection", s, t, q_rank, h, 1.0, q_rank / tp);
      detail::add_linear(out, "q up projection", s, t, heads * qk / tp, q_rank);
    } else {
      detail::add_linear(out, "q projection", s, t, heads * qk / tp, h);
    }
    detail::add_linear(out, "kv down projection", s, t, kv_rank + rope, h, 1.0,
                       (kv_rank + rope) / tp);
    detail::add_linear(out, "kv up projection", s, t,
                       heads *
                           static_cast<double>(m.mla.qk_nope_head_dim + m.mla.v_head_dim) / tp,
                       kv_rank);
    detail::add_memory(out, "rotary", rotary * t * (heads / tp + 1.0) * rope);
  } else {
    const double kv_per_rank = kv_heads_per_rank(m, tp);
    detail::add_linear(out, "qkv projection", s, t, (heads / tp + 2.0 * kv_per_rank) * hd, h, 1.0,
                       (heads + 2.0 * kv_heads) / tp * hd);
    detail::mark_tp_overlap(out, s, tp_side::column);
    detail::add_memory(out, "rotary", m.position_embeddings > 0
                                          ? 0.0
                                          : rotary * t * (heads / tp + kv_per_rank) * hd);
    if (s.repeated_kv && kv_per_rank < heads / tp) {
      // `repeat_kv` reads K and V and writes them at the query heads' width; its backward sums
      // the repeated gradients back (the same bytes). A compiled block may fuse K's copy into
      // its rotary kernel, which saves one read of K: not modelled.
      operation repeat =
          detail::memory_operation("repeat kv", e * t * hd * 2.0 * (kv_per_rank + heads / tp));
      repeat.backward_traffic = repeat.traffic;
      out.add(repeat);
    }
  }
  detail::add_attention(out, m, s);
  const double v_dim = mla ? static_cast<double>(m.mla.v_head_dim) : hd;
  detail::add_linear(out, "attention output projection", s, t, h, heads * v_dim / tp);
  if (!mla) detail::mark_tp_overlap(out, s, tp_side::row);
  detail::add_scatter_copy(out, s, t, h);
  detail::add_memory(out, s.dropout ? "residual add and dropout" : "residual add",
                     e * (s.dropout ? 4.0 : 3.0) * tn * h);
  detail::add_memory(out, "mlp norm", norm * tn * h);
  detail::add_gather_copy(out, s, t, h);
  const double gate = m.gated_mlp ? 2.0 : 1.0;
  const double act = activation_bytes_per_element(e, m.gated_mlp, s.eager_modules) / e;
  if (moe_layer) {
    const double experts = static_cast<double>(m.moe.experts);
    const double top_k = static_cast<double>(m.moe.top_k);
    const double f = static_cast<double>(m.moe.expert_d_ff);
    const double local = experts / s.expert;
    // Each of the ep devices sends its t·k assignments over all experts: t·k·ep/E tokens reach
    // each expert, balanced.
    const double per_expert = t * top_k * s.expert / experts;
    detail::add_linear(out, "router", s, t, experts, h, 1.0, experts / tp);
    detail::add_memory(out, "token permutation", e * 2.0 * t * top_k * h);
    detail::add_linear(out, "expert up projection", s, per_expert, gate * f / tp, h, local);
    detail::add_memory(out, "expert activation", e * act * per_expert * local * f / tp);
    detail::add_linear(out, "expert down projection", s, per_expert, h, f / tp, local);
    detail::add_memory(out, "token unpermutation", e * 2.0 * t * top_k * h);
    if (m.moe.shared_experts > 0) {
      const double fs = f * static_cast<double>(m.moe.shared_experts);
      detail::add_linear(out, "shared expert up projection", s, t, gate * fs / tp, h);
      detail::add_memory(out, "shared expert activation", e * act * t * fs / tp);
      detail::add_linear(out, "shared expert down projection", s, t, h, fs / tp);
    }
  } else {
    const double f = static_cast<double>(m.d_ff);
    const std::size_t first_mlp = out.count;
    detail::add_linear(out, "mlp up projection", s, t, gate * f / tp, h);
    detail::mark_tp_overlap(out, s, tp_side::column);
    detail::add_memory(out, "mlp activation", e * act * t * f / tp);
    detail::add_linear(out, "mlp down projection", s, t, h, f / tp);
    detail::mark_tp_overlap(out, s, tp_side::row);
    for (std::size_t i = first_mlp; i < out.count; ++i) out.items[i].dense_mlp = true;
  }
  detail::add_scatter_copy(out, s, t, h);
  detail::add_memory(out, s.dropout ? "residual add and dropout" : "residual add",
                     e * (s.dropout ? 4.0 : 3.0) * tn * h);
  return out;
}

/// The forward operations after the last layer, for one micro-batch: the final norm, the logits
/// GEMM onto the vocabulary (16-bit: no recipe converts it) split over tensor parallelism, and the
/// cross-entropy in fp32 (the logits cast to fp32 and the softmax written).
constexpr operation_list output_forward_operations(const model_shape& m, const layer_shard& s) {
  operation_list out;
  const double e = s.precision.activation_bytes;
  const double t = s.tokens();
  const double h = static_cast<double>(m.d_model);
  const double v = static_cast<double>(m.vocab) / s.tensor;
  detail::add_memory(out, "final norm",
                     norm_bytes_per_element(e, s.eager_modules) * s.norm_tokens() * h);
  operation logits{"logits", operation_kind::gemm};
  logits.gemm = {t, v, h};
  logits.format = unconverted_format(s.precision);
  logits.linear = true;
  logits.model_flops = gemm_flops(logits.gemm);
  logits.traffic = gemm_bytes(logits.gemm, logits.format);
  out.add(logits);
  detail::add_memory(out, "cross-entropy (fp32)", (e + 4.0 + 4.0) * t * v);
  return out;
}

/// The forward operations before the first layer: the embedding lookup (and learned positions).
constexpr operation_list embedding_forward_operations(const model_shape& m,
                                                      const layer_shard& s) {
  operation_list out;
  const double e = s.precision.activation_bytes;
  const double rows = m.position_embeddings > 0 ? 3.0 : 2.0;
  detail::add_memory(out, "embedding lookup",
                     e * rows * s.norm_tokens() * static_cast<double>(m.d_model));
  return out;
}

/// Adds to forward operations the casts of the recipe, one before each low-precision linear GEMM
/// (none for bf16).
constexpr void add_casts(operation_list& ops, const precision_policy& p) {
  if (p.scaling == low_precision_scaling::none) return;
  const operation_list forward = ops;
  ops.count = 0;
  for (std::size_t i = 0; i < forward.count; ++i) {
    const operation& o = forward.items[i];
    if (o.linear && o.format == p.compute) {
      operation cast =
          detail::memory_operation("cast to low precision", detail::forward_cast_bytes(p, o.gemm));
      cast.cast = true;
      ops.add(cast);
    }
    ops.add(o);
  }
}

/// `forward` with the recipe's casts (`add_casts`).
constexpr operation_list with_casts(operation_list forward, const precision_policy& p) {
  add_casts(forward, p);
  return forward;
}

/// The backward operations of a list of forward operations (the recipe's casts included): each
/// GEMM's data-gradient GEMM (m x k over n) and weight-gradient GEMM (k x n over m; none for
/// the attention-score GEMMs of eager attention, which have no weights but two data
/// gradients); the attention kernel's backward; memory-bound operations at twice their forward
/// bytes (the gradient read and written, the saved input read) or at their own
/// `backward_traffic`. Counted FLOPs: twice the forward's.
constexpr operation_list backward_operations(const operation_list& forward,
                                             const precision_policy& p) {
  operation_list out;
  for (std::size_t i = forward.count; i-- > 0;) {
    const operation& o = forward.items[i];
    operation b = o;
    b.pass = operation_pass::backward;
    switch (o.kind) {
      case operation_kind::gemm: {
        if (o.linear && o.format == p.compute && p.scaling != low_precision_scaling::none) {
          operation cast = detail::memory_operation("cast gradients to low precision",
                                                    detail::backward_cast_bytes(p, o.gemm));
          cast.pass = operation_pass::backward;
          cast.cast = true;
          out.add(cast);
        }
        b.name = o.linear ? "data gradient" : "score gradient";
        b.gemm = {o.gemm.m, o.gemm.k, o.gemm.n, o.gemm.groups};
        b.model_flops = o.model_flops;
        b.traffic = gemm_bytes(b.gemm, b.format);
        b.chunks = o.backward_chunks;
        b.tp_window = o.backward_tp_window;
        b.weight_gradient_window = false;
        out.add(b);
        // The weight gradient is never split (its reduction runs over the tokens); it is the
        // window of a bulk overlap, counted with the data gradient's.
        b.chunks = 1.0;
        b.tp_window = false;
        b.weight_gradient_window = o.weight_gradient_window;
        b.name = o.linear ? "weight gradient" : "score gradient";
        b.gemm = o.linear ? gemm_shape{o.gemm.k, o.gemm.n, o.gemm.m, o.gemm.groups}
                          : gemm_shape{o.gemm.n, o.gemm.k, o.gemm.m, o.gemm.groups};
        b.traffic = gemm_bytes(b.gemm, b.format);
        out.add(b);
        break;
      }
      case operation_kind::attention:
        b.attention_backward = true;
        b.model_flops = 2.0 * o.model_flops;
        b.traffic = 2.0 * o.traffic;
        out.add(b);
        break;
      case operation_kind::memory:
        if (o.cast) break;  // the backward casts come with their GEMMs
        b.traffic = o.backward_traffic >= 0.0 ? o.backward_traffic : 2.0 * o.traffic;
        out.add(b);
        break;
    }
  }
  return out;
}

/// The attention calls an attention operation makes one after another: a context-parallel
/// ring's steps (`operation::chunks`), else one.
constexpr double attention_calls(const operation& o) { return o.chunks > 1.0 ? o.chunks : 1.0; }

/// FLOPs the device's kernels execute for `o` (not the MFU count, `model_flops`): 2mnk a GEMM,
/// however it is chunked; every attention call at `attention_call_flops`; none for a
/// memory-bound operation.
constexpr double executed_flops(const operation& o) {
  switch (o.kind) {
    case operation_kind::gemm: return gemm_flops(o.gemm);
    case operation_kind::attention:
      return attention_call_flops(o.attention, o.attention_backward) * attention_calls(o);
    case operation_kind::memory: return 0.0;
  }
  return 0.0;
}

/// The time of one operation on `chip`: GEMMs and attention by `hardware/kernels.hpp`'s models
/// (`override_fraction` > 0: a plan's `efficiency<>` for both), memory-bound operations at the
/// achievable HBM bandwidth.
constexpr seconds operation_time(const chip_figures& chip, const operation& o,
                                 attention_kernel kernel, double override_fraction = 0.0) {
  switch (o.kind) {
    case operation_kind::gemm: {
      if (o.chunks <= 1.0)
        return gemm_time(chip, o.format, o.gemm, override_fraction, o.scaling_share);
      const gemm_shape chunk{o.gemm.m / o.chunks, o.gemm.n, o.gemm.k, o.gemm.groups};
      return gemm_time(chip, o.format, chunk, override_fraction, o.scaling_share) * o.chunks;
    }
    case operation_kind::attention: {
      const attention_kernel k =
          kernel == attention_kernel::automatic ? default_attention_kernel(chip) : kernel;
      return attention_time(chip, k, o.format, o.attention, o.attention_backward,
                            override_fraction) *
             attention_calls(o);
    }
    case operation_kind::memory: return memory_time(chip, o.traffic * byte);
  }
  return {};
}

/// The time of a list of operations, and the parts of it that are memory-bound operations and
/// fused attention kernels.
struct operations_time {
  seconds total{};
  seconds memory{};
  seconds attention{};
  seconds tp_window{};  ///< the part of it that tensor-parallel collectives overlap
  /// The weight gradients beside which the input gradients' reductions run
  /// (`operation::weight_gradient_window`).
  seconds weight_gradient_window{};
};

constexpr operations_time time_of(const chip_figures& chip, const operation_list& ops,
                                  attention_kernel kernel, double override_fraction = 0.0) {
  operations_time r;
  for (std::size_t i = 0; i < ops.count; ++i) {
    const operation& o = ops.items[i];
    const seconds x = operation_time(chip, o, kernel, override_fraction);
    r.total += x;
    if (o.kind == operation_kind::memory) r.memory += x;
    if (o.kind == operation_kind::attention) r.attention += x;
    if (o.tp_window) r.tp_window += x;
    if (o.weight_gradient_window) r.weight_gradient_window += x;
  }
  return r;
}

/// One micro-batch of one layer on one device, forward, backward and what recomputation
/// repeats: full recomputation (and checkpoints) runs the forward again; selective recomputation
/// runs the attention core again with eager attention (a fused kernel's backward recomputes the
/// scores itself, so selective adds nothing to it), and under torchtitan what its op-level
/// policy does not save (`op_sac_share`).
struct layer_time {
  seconds forward{};
  seconds backward{};
  seconds recompute{};
  seconds memory{};  ///< the memory-bound part of the three
  /// The fused attention kernels' part of the three, which the step's sustained share leaves at
  /// their published fractions (`sustained_time`, training/cost.hpp).
  seconds attention{};
  /// The GEMMs of the three that tensor-parallel collectives overlap (`tp_overlap_method`).
  seconds tp_window{};
  /// The backward's weight gradients that the input gradients' tensor-parallel reductions run
  /// beside (`tp_backward_beside_weight_gradient`).
  seconds weight_gradient_window{};
  constexpr seconds total() const { return forward + backward + recompute; }
};

/// The forward and backward time of a list of forward operations (and its memory-bound part).
constexpr layer_time time_passes(const chip_figures& chip, const operation_list& fwd,
                                 const layer_shard& s, double override_fraction) {
  const operations_time f = time_of(chip, fwd, s.kernel, override_fraction);
  const operations_time b =
      time_of(chip, backward_operations(fwd, s.precision), s.kernel, override_fraction);
  layer_time t;
  t.forward = f.total;
  t.backward = b.total;
  t.memory = f.memory + b.memory;
  t.attention = f.attention + b.attention;
  t.tp_window = f.tp_window + b.tp_window;
  t.weight_gradient_window = b.weight_gradient_window;
  return t;
}

/// The share of forward operation `o` that torchtitan's op-level selective checkpointing reruns
/// in the backward (`layer_shard::op_sac`; the policy as `torchtitan_selective_layer_bytes`,
/// memory.hpp, reads it: torchtitan/parallelisms/parallelize_llama.py at 9dec370 and 820504e,
/// torchtitan/models/llama3/infra/parallelize.py at e7c0cae). The policy saves the outputs of
/// `aten.mm` "except every second mm", of the SDPA kernels and of the tensor-parallel
/// reduce-scatter and `max`, and marks every other operation PREFER_RECOMPUTE, so the recompute
/// reruns:
/// - every memory-bound operation (norms, rotary, residual adds, the activation, an fp8 recipe's
///   casts);
/// - the second and fourth mm of a block, wk and wo (`xq, xk, xv = self.wq(x), self.wk(x),
///   self.wv(x)`): of the fused query-key-value GEMM the keys' share, and the output projection;
/// - the sixth, w3 (`self.w2(F.silu(self.w1(x)) * self.w3(x))`): half of the fused gate-and-up
///   GEMM; an ungated MLP's sixth mm is its second matrix;
/// - fp8 linears as bf16 ones: Float8 linears call `aten._scaled_mm`, which the save list lacks
///   (so eager PyTorch would rerun them all), but every such run measured compiles, and its
///   memory says the compiled graph keeps what the bf16 policy keeps (torchtitan's 2024-12
///   benchmark, Llama 3.1 8B on 8 GPUs: 76.8 GiB with Float8 and compile, 77.0 GiB with compile
///   alone). How the compiled graph keeps them is not read off the code (compile's partitioner
///   does recompute what the policy marks PREFER_RECOMPUTE, below).
/// The attention kernel is saved, and so are the sequence-parallel reduce-scatters' outputs; the
/// all-gathers are not in the save list, so the backward reruns them and their copies
/// (`add_gather_copy`, unfused, at `operation::rerun_traffic`) to have the gathered inputs of
/// wq, wk, wv, w1 and w3 for their weight gradients: compile's partitioner takes
/// PREFER_RECOMPUTE as MUST_RECOMPUTE (`must_recompute`, torch/_functorch/partitioners.py, lists
/// both policies), and the memory model keeps no gathered activation (`sac_reruns_gathers`
/// charges the collectives). MLA's matmuls count in the order wq (or wq_a, wq_b), wkv_a, wkv_b,
/// wo, and the even ones rerun; an MoE layer reruns its router (the policy forces the gate's mm
/// to recompute) and its experts' grouped GEMMs (in no save list), and its shared experts' w1,
/// w3 and w2 continue the count (at b5bcd76; `torchtitan_selective_layer_bytes` keeps the rest).
constexpr double op_sac_share(const model_shape& m, const layer_shard& s, const operation& o) {
  if (o.collective_copy) return o.name == "all-gather copy (dim 1)" ? 1.0 : 0.0;
  if (o.attention_core) return 0.0;
  if (o.kind == operation_kind::memory) return 1.0;
  if (o.kind != operation_kind::gemm || !o.linear) return 0.0;
  const std::string_view n = o.name;
  // The position of a matmul in the block's count; the even ones rerun.
  auto rerun = [](int position) { return position % 2 == 0 ? 1.0 : 0.0; };
  const bool q_lora = m.mla.kv_lora_rank > 0 && m.mla.q_lora_rank > 0;
  const int output_projection = q_lora ? 5 : 4;
  if (n == "qkv projection") {
    const double q = static_cast<double>(m.heads) / s.tensor;
    const double kv = kv_heads_per_rank(m, s.tensor);
    return kv / (q + 2.0 * kv);  // wk, the second of wq, wk, wv
  }
  if (n == "q projection" || n == "q down projection") return rerun(1);
  if (n == "q up projection") return rerun(2);
  if (n == "kv down projection") return rerun(q_lora ? 3 : 2);
  if (n == "kv up projection") return rerun(q_lora ? 4 : 3);
  if (n == "attention output projection") return rerun(output_projection);
  if (n == "router" || n.starts_with("expert ")) return 1.0;
  // w1 and, gated, w3 (one fused GEMM, of which one half reruns), then w2.
  if (n == "mlp up projection" || n == "shared expert up projection")
    return m.gated_mlp ? 0.5 : rerun(output_projection + 1);
  if (n == "mlp down projection" || n == "shared expert down projection")
    return rerun(output_projection + (m.gated_mlp ? 3 : 2));
  return 0.0;
}

/// Whether selective recomputation of `modules` reruns forward operation `o` of a layer
/// (`recompute_module`): the attention core only with eager attention (a fused kernel's backward
/// recomputes its scores itself); the dense MLP; the MoE block's router, permutations, experts
/// and shared experts; the routed experts' activation; the shared experts; the MoE layer's MLP
/// norm and MLA's input norm; MLA's up projections and rotary. A rerun MoE block's all-to-alls
/// are charged with the collectives (`expert_parallel_traffic`, cost.hpp).
constexpr bool module_reruns(const model_shape& m, const layer_shard& s, const operation& o,
                             recompute_module_set modules, bool moe_layer) {
  auto has = [&](recompute_module x) { return (modules & module_bit(x)) != 0; };
  const std::string_view n = o.name;
  const bool mla = m.mla.kv_lora_rank > 0;
  if (has(recompute_module::core_attn) && s.eager_attention && o.attention_core) return true;
  if (has(recompute_module::mlp) && o.dense_mlp) return true;
  if (moe_layer && has(recompute_module::moe) &&
      (n == "router" || n.starts_with("token ") || n.starts_with("expert ") ||
       n.starts_with("shared expert ")))
    return true;
  if (moe_layer && has(recompute_module::moe_act) && n == "expert activation") return true;
  if (moe_layer && has(recompute_module::shared_experts) && n.starts_with("shared expert "))
    return true;
  if (has(recompute_module::layernorm) &&
      ((moe_layer && n == "mlp norm") || (mla && n == "attention norm")))
    return true;
  return mla && has(recompute_module::mla_up_proj) &&
         (n == "q up projection" || n == "kv up projection" || n == "rotary");
}

/// The share of forward operation `o` a named policy (`recompute_kind::named`, MaxText's remat
/// policies) reruns in the backward: what the backward reads and the policy neither keeps nor
/// offloads (`named_layer_bytes`, memory.hpp). The q, k and v projections' unkept share (the
/// attention's backward reads them); the attention kernel unless `context` is kept (the output
/// projection's weight gradient and the kernel's backward read its output); the output
/// projection unless `out_proj` is kept (the MLP norm's backward reads the residual it makes);
/// the MLP's input projections' unkept share (the activation's backward reads them); every
/// memory-bound operation (norms, rotary, the activation, residual adds). The down projection is
/// never rerun: only the residual add reads its output. In an MoE layer the experts carry the
/// MLP's names (`named_tensor_bytes`, memory.hpp): the routed and shared experts' up projections
/// as the MLP's, the routed experts' down projection unless `mlpwo` is kept (the combine's
/// backward reads its output), and the router, whose weights no name keeps. MLA is not modelled
/// by name: nothing is rerun there.
constexpr double named_rerun_share(const model_shape& m, const layer_shard& s, const operation& o,
                                   const recompute_policy& r) {
  const recompute_module_set kept = static_cast<recompute_module_set>(r.saved | r.offloaded);
  auto unkept = [&](layer_tensor x) { return (kept & tensor_bit(x)) == 0 ? 1.0 : 0.0; };
  if (o.collective_copy) return 0.0;
  if (o.attention_core) return unkept(layer_tensor::context);
  if (o.kind == operation_kind::memory) return 1.0;
  if (o.kind != operation_kind::gemm || !o.linear) return 0.0;
  if (o.name == "qkv projection") {
    const double q = static_cast<double>(m.heads) / s.tensor;
    const double kv = kv_heads_per_rank(m, s.tensor);
    return (q * unkept(layer_tensor::query_proj) + kv * unkept(layer_tensor::key_proj) +
            kv * unkept(layer_tensor::value_proj)) /
           (q + 2.0 * kv);
  }
  if (o.name == "attention output projection") return unkept(layer_tensor::out_proj);
  if (o.name == "mlp up projection" || o.name == "expert up projection" ||
      o.name == "shared expert up projection") {
    if (!m.gated_mlp) return unkept(layer_tensor::mlpwi_0);
    return 0.5 * (unkept(layer_tensor::mlpwi_0) + unkept(layer_tensor::mlpwi_1));
  }
  if (o.name == "expert down projection") return unkept(layer_tensor::mlpwo);
  if (o.name == "router") return 1.0;
  return 0.0;
}

constexpr layer_time time_layer(const chip_figures& chip, const model_shape& m,
                                const layer_shard& s, const recompute_policy& policy,
                                bool moe_layer, double override_fraction = 0.0) {
  const recompute_kind r = policy.kind;
  operation_list fwd = layer_forward_operations(m, s, moe_layer);
  add_casts(fwd, s.precision);
  layer_time t = time_passes(chip, fwd, s, override_fraction);
  const bool full = recomputes_layer_forward(r);
  const recompute_module_set modules = recomputed_modules(policy);
  const bool by_ops = (r == recompute_kind::selective && policy.modules == 0 && s.op_sac) ||
                      r == recompute_kind::named;
  if (by_ops && (!moe_layer || r == recompute_kind::named) && m.mla.kv_lora_rank == 0) {
    for (std::size_t i = 0; i < fwd.count; ++i) {
      const operation& o = fwd.items[i];
      const double share = r == recompute_kind::named ? named_rerun_share(m, s, o, policy)
                                                      : op_sac_share(m, s, o);
      if (share <= 0.0) continue;
      // No window: the rerun runs in the backward, which no overlap covers under torchtitan.
      operation rerun = o;
      if (o.rerun_traffic >= 0.0) rerun.traffic = o.rerun_traffic;
      const seconds x = operation_time(chip, rerun, s.kernel, override_fraction) * share;
      t.recompute += x;
      if (o.kind == operation_kind::memory) t.memory += x;
      if (o.kind == operation_kind::attention) t.attention += x;
    }
    return t;
  }
  for (std::size_t i = 0; (full || modules != 0) && i < fwd.count; ++i) {
    const operation& o = fwd.items[i];
    if (!full && !module_reruns(m, s, o, modules, moe_layer)) continue;
    const seconds x = operation_time(chip, o, s.kernel, override_fraction);
    t.recompute += x;
    if (o.kind == operation_kind::memory) t.memory += x;
    if (o.kind == operation_kind::attention) t.attention += x;
    if (o.tp_window) t.tp_window += x;
  }
  return t;
}

constexpr layer_time time_layer(const chip_figures& chip, const model_shape& m,
                                const layer_shard& s, recompute_kind r, bool moe_layer,
                                double override_fraction = 0.0) {
  return time_layer(chip, m, s, recompute_policy{r}, moe_layer, override_fraction);
}

/// The embedding and output of one micro-batch, forward and backward.
constexpr layer_time time_ends(const chip_figures& chip, const model_shape& m,
                               const layer_shard& s, double override_fraction = 0.0) {
  operation_list fwd = output_forward_operations(m, s);
  const operation_list emb = embedding_forward_operations(m, s);
  for (std::size_t i = 0; i < emb.count; ++i) fwd.add(emb.items[i]);
  return time_passes(chip, fwd, s, override_fraction);
}

}  // namespace shardplan
