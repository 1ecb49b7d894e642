// Serving as plain values: the book's generation rules as formulas, a serving plan (model, system,
// mesh, formats, batch, prompt and generated tokens), its decode step (weights and KV cache read
// from memory against the FLOPs, plus collectives), prefill, cost and the rules it must obey.
// Formulas follow How to Scale Your Model, inference.md and applied-inference.md; every result is
// a roofline estimate (peak bandwidth, perfect overlap of reads and FLOPs) unless it says
// otherwise. A CPU server from hardware/cpu.hpp is a chip like any other: its DRAM is the "memory".
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <shardplan/training/bounds.hpp>
#include <shardplan/hardware/collectives.hpp>
#include <shardplan/models/flops.hpp>
#include <shardplan/core/format.hpp>
#include <shardplan/serving/engine.hpp>
#include <shardplan/serving/kv_cache.hpp>
#include <shardplan/hardware/placement.hpp>
#include <shardplan/training/plan.hpp>

namespace shardplan {

// --- the book's rules, one formula each ----------------------------------------------------------

/// Tokens per decode step at which the weight matmuls turn compute-bound. Each weight is read once
/// a step (b bytes) and does 2 FLOP per token, so the matmul is compute-bound when B·2/b ≥ C/W:
/// B_crit = (b/2)·C/W, times (weights read)/(weights used) when a token uses only some of them
/// (an MoE reads all E experts at large batch but each token uses k: ×E/k). With bf16 weights on a
/// TPU v5e: 240; int8 weights with bf16 FLOPs: 120; int8 weights with int8 FLOPs: 240 (the
/// book's β·C/W with β = bits per weight / bits per activation).
constexpr double critical_batch(flop_rate c, byte_rate w, double bytes_per_weight,
                                double read_per_used = 1.0) {
  return bytes_per_weight / 2.0 * (c / w).value() * read_per_used;
}

/// The critical batch of a chip for weights stored in `weights` and multiplied in `compute`.
constexpr double critical_batch(const chip_figures& chip, number_format weights,
                                number_format compute) {
  return critical_batch(peak(chip, compute), chip.memory_bandwidth, bytes_per_element(weights));
}

/// One device's work in one decode step.
struct decode_work {
  bytes weights{};    ///< weights read from memory
  bytes kv{};         ///< KV cache read from memory
  flops matmul{};     ///< weight matmuls and logits: 2 FLOP per weight a token uses
  flops attention{};  ///< q·k and attention·v against the cache
};

/// The parts of a decode step's time and their total.
struct decode_time {
  seconds weights{};
  seconds kv{};
  seconds matmul{};
  seconds attention{};
  seconds step{};
};

/// The book's general step time (inference.md, "Theoretical Step Time (General)"): attention is
/// bound by reading the cache (its intensity is about one FLOP per byte per kv-head group), the
/// matmuls by the larger of the weight read and their FLOPs:
/// T = max(KV/W, F_att/C) + max(weights/W, F_mm/C). With few tokens it is the book's minimum
/// (batch·KV + parameter bytes)/W. Assumes reads and FLOPs overlap perfectly, at peak.
constexpr decode_time decode_step_time(const decode_work& w, byte_rate bandwidth, flop_rate c) {
  decode_time t;
  const bool has_compute = c.value() > 0.0;
  t.weights = w.weights / bandwidth;
  t.kv = w.kv / bandwidth;
  t.matmul = has_compute ? w.matmul / c : 0.0 * second;
  t.attention = has_compute ? w.attention / c : 0.0 * second;
  t.step = std::max(t.kv, t.attention) + std::max(t.weights, t.matmul);
  return t;
}

/// The largest tensor-parallel degree at which a decode step's activation collectives stay below
/// its weight read. Per matmul of width F a device reads D·F·b_w/Y bytes in D·F·b_w/(Y·W_mem)
/// while the [B, D] activations (b_a bytes each) cross the tensor axis in B·D·b_a/W_axis, so
/// Y < F·b_w·W_axis/(B·b_a·W_mem); with bf16 on both sides the book's Y < F/(B·β) for
/// β = W_hbm/W_ici (about 8 on v5e and v6e). Bandwidth only: latency floors come on top.
constexpr double decode_tensor_parallel_limit(double width, double batch_tokens,
                                              double bytes_per_weight, double bytes_per_activation,
                                              byte_rate memory_bandwidth,
                                              byte_rate axis_bandwidth) {
  if (batch_tokens <= 0.0 || bytes_per_activation <= 0.0) return 0.0;
  return width * bytes_per_weight * (axis_bandwidth / memory_bandwidth).value() /
         (batch_tokens * bytes_per_activation);
}

/// FLOP per byte of dot-product attention of T queries against S cached tokens with G query heads
/// per kv head (transformers.md Q4): 4·T·S·N·H FLOPs against Q and the output (a bytes each,
/// 2·a·T·N·H) and K and V (k bytes each, 2·k·S·K·H): I = 2·T·S·G/(a·T·G + k·S). In bf16
/// S·T·G/(T·G + S): prefill (S = T) T·G/(G + 1), T/2 for MHA; generation (T = 1) → G.
constexpr double attention_intensity(double kv_tokens, double query_tokens, double group,
                                     double activation_bytes = 2.0, double kv_bytes = 2.0) {
  const double denominator = activation_bytes * query_tokens * group + kv_bytes * kv_tokens;
  return denominator > 0.0 ? 2.0 * query_tokens * kv_tokens * group / denominator : 0.0;
}

/// Prefill servers needed per decode server in disaggregated serving: a decode server finishes
/// `decode_batch` requests every `generated_tokens` steps, and each needs one prefill of `prefill`
/// seconds: ratio = decode_batch/(generated_tokens·step)·prefill (servers of the same size).
constexpr double prefill_servers_per_decode_server(double decode_batch, double generated_tokens,
                                                   seconds step, seconds prefill) {
  const double per_step = generated_tokens * step.value();
  return per_step > 0.0 ? decode_batch / per_step * prefill.value() : 0.0;
}

/// Requests finished per second per chip (applied-inference.md's "QPS / chip"):
/// batch/(step·generated_tokens·chips).
constexpr double queries_per_second_per_chip(double batch, seconds step, double generated_tokens,
                                             double chips) {
  const double d = step.value() * generated_tokens * chips;
  return d > 0.0 ? batch / d : 0.0;
}

/// Dollars per million tokens produced at `tokens_per_second` by `chips` chips rented at
/// `dollars_per_chip_hour`.
constexpr double dollars_per_million_tokens(double dollars_per_chip_hour, double chips,
                                            double tokens_per_second) {
  return tokens_per_second > 0.0 ? dollars_per_chip_hour * chips / 3600.0 / tokens_per_second * 1e6
                                 : 0.0;
}

/// Tokens per dollar of a chip producing `tokens_per_second_per_chip` at `dollars_per_chip_hour`.
constexpr double tokens_per_dollar(double tokens_per_second_per_chip,
                                   double dollars_per_chip_hour) {
  return dollars_per_chip_hour > 0.0 ? tokens_per_second_per_chip * 3600.0 / dollars_per_chip_hour
                                     : 0.0;
}

/// A chip's peak per dollar-hour, FLOP/s per $/h: applied-inference.md's "FLOPs / $" column
/// (v5e 1.97e14/1.2 = 1.64e14; v5p 4.59e14/4.2 = 1.09e14).
constexpr double peak_per_dollar(flop_rate c, double dollars_per_chip_hour) {
  return dollars_per_chip_hour > 0.0 ? c.value() / dollars_per_chip_hour : 0.0;
}

/// Example on-demand prices in US dollars per chip-hour. Prices change often and differ by region,
/// commitment and provider: pass your own with `price<dollars_per_hour{...}>`.
namespace example_prices {
/// TPU v5e and v5p on Google Cloud: $1.2 and $4.2 per chip-hour (How to Scale Your Model,
/// applied-inference.md, table "Google Cloud USD / hour", from cloud.google.com/tpu/pricing).
inline constexpr double tpu_v5e = 1.2;
inline constexpr double tpu_v5p = 4.2;
/// H100 SXM: AWS p5.48xlarge (8 x H100) on demand in us-east-1 at launch, $98.32 per hour
/// (The Next Platform, "H100 GPU Instance Pricing On AWS: Grin And Bear It", 2023-07-27), i.e.
/// $12.29 per GPU-hour. Specialist GPU clouds list H100s at $2-4 per GPU-hour.
inline constexpr double h100_sxm = 98.32 / 8.0;
/// H200: "about $10/h" on Google Cloud (How to Scale Your Model, gpus.md).
inline constexpr double h200 = 10.0;
}  // namespace example_prices

/// The example price of a catalogue chip, by name; 0 when there is none (CPU servers among them).
constexpr double example_price_per_chip_hour(const chip_figures& chip) {
  if (chip.name == "tpu v5e") return example_prices::tpu_v5e;
  if (chip.name == "tpu v5p") return example_prices::tpu_v5p;
  if (chip.name == "h100 sxm") return example_prices::h100_sxm;
  if (chip.name == "h200 sxm") return example_prices::h200;
  return 0.0;
}

/// Expected fraction of a layer's routed experts that `tokens` tokens touch when each picks
/// `top_k` of `experts` uniformly at random: 1 − (1 − k/E)^tokens. An assumption (real routers are
/// skewed, which touches fewer); it makes small MoE batches read less than every expert.
constexpr double experts_touched(double experts, double top_k, double tokens) {
  if (experts <= 0.0) return 1.0;
  double miss = 1.0 - top_k / experts;
  double result = 1.0;
  for (auto n = static_cast<std::int64_t>(tokens); n > 0; n /= 2) {  // miss^tokens by squaring
    if (n % 2 == 1) result *= miss;
    miss *= miss;
  }
  return 1.0 - result;
}

// --- a serving plan as values --------------------------------------------------------------------

/// Roles a serving plan adds to `axis_role` (plan.hpp), which it shares for tensor, expert, data
/// and context (here: sequence sharding) parallelism.
/// Data-parallel attention: attention weights replicated, the batch and its cache split.
inline constexpr std::uint8_t role_attention_data = 64;
/// The d_model axis (the book's X) of 2D weight-stationary sharding; the axis also carries
/// role_tensor, and the other tensor axis (YZ) splits d_ff and the heads.
inline constexpr std::uint8_t role_weight_stationary_x = 128;

/// The degrees of a serving plan, each the product of the axes carrying the role.
struct serving_degrees {
  std::int64_t tensor = 1;          ///< all tensor axes (both axes of 2D weight-stationary)
  std::int64_t tensor_x = 1;        ///< of those, the d_model axis of 2D weight-stationary (1: 1D)
  std::int64_t expert = 1;          ///< routed experts split
  std::int64_t attention_data = 1;  ///< data-parallel attention
  std::int64_t sequence = 1;        ///< each sequence's tokens (and cache) split
  std::int64_t data = 1;            ///< whole replicas
  std::int64_t devices = 1;         ///< the mesh
};

/// What a serving plan decodes and how it stores it.
/// How a workload's output lengths spread: all alike, or exponentially about their mean (the
/// largest-entropy spread a mean alone allows; chat datasets such as ShareGPT are long-tailed).
enum class output_lengths : std::uint8_t { fixed, exponential };

/// How 8-bit matmul inputs get their scales: calibrated ahead and applied by the kernel before
/// (TensorRT-LLM's static fp8 and SmoothQuant scales: no kernel of their own), or computed from
/// each activation at run time (torchao's `float8_dynamic_activation_float8_weight`): per tensor,
/// a reduction over the whole activation and then the scaled cast (two kernels a linear layer);
/// per row, both in one kernel (a row fits one thread block).
enum class activation_scales : std::uint8_t { static_scales, dynamic_tensor, dynamic_row };

struct serving_setup {
  number_format weights = number_format::bf16;  ///< stored weights (quantisation scales ignored)
  number_format kv = number_format::bf16;       ///< the KV cache
  number_format compute = number_format::bf16;  ///< matmul inputs, and the activations' format
  std::int64_t batch = 1;                       ///< sequences decoded together on the whole mesh
  std::int64_t prompt_tokens = 0;               ///< per sequence
  std::int64_t generated_tokens = 1;            ///< per sequence
  memory_reserve reserve = default_reserve;     ///< memory.hpp's assumption: 2 GB + 5%
  bool replicate_kv = false;                    ///< tensor ranks beyond the kv heads copy the cache
  /// Fraction of peak in prefill. 0: the book's default below for the roofline, the operation
  /// model's per-GEMM fractions (hardware/kernels.hpp) for every other engine.
  double prefill_efficiency = 0.0;
  serving_engine engine = serving_engine::generic;  ///< whose kernels and overheads (engine.hpp)
  /// Serve as many requests at once as fit (and as the engine batches): `batch` is ignored by
  /// the workload estimate.
  bool max_load = false;
  /// The share of HBM bandwidth decode reads weights at; 0: the engine's, per format.
  double weight_read_share = 0.0;
  /// Decode steps replayed as CUDA graphs (every named engine's default); false: launched kernel
  /// by kernel (vLLM's `enforce_eager`, a plain eager loop), `eager_layer_overhead` a layer more.
  bool cuda_graphs = true;
  /// The plan is the decode pool of disaggregated serving: prompts are prefilled on other
  /// servers and their caches sent over, so decode steps carry no prefill.
  bool disaggregated = false;
  double dollars_per_chip_hour = 0.0;  ///< 0: example_price_per_chip_hour(chip)
  collective_options collectives{};    ///< latency floors on, in-network reduction off
  /// A benchmark of this many requests sent at once (0: a steady state that never ends): its
  /// throughput is their output tokens over the time to serve them all, the drain included
  /// (workload.hpp's `simulate_benchmark`).
  std::int64_t requests = 0;
  /// The engine's limit on requests batched at once per scheduler, when the plan sets its own
  /// (vLLM's `--max-num-seqs`, TensorRT-LLM's `max_batch_size`, SGLang's
  /// `--max-running-requests`); 0: the engine's default (engine.hpp).
  std::int64_t max_sequences = 0;
  /// With an 8-bit compute format, how its activations are scaled (16-bit compute: unused).
  activation_scales scales = activation_scales::static_scales;
  /// How a benchmark's generated tokens spread over its requests: `generated_tokens` each, or
  /// exponentially with that mean, capped at `longest_output` (0: uncapped).
  output_lengths outputs = output_lengths::fixed;
  std::int64_t longest_output = 0;
};

/// A serving plan's values. The mesh lists axes outermost first; the last is innermost.
struct serving_plan_values {
  model_shape model{};
  system_figures system{};
  std::array<mesh_axis, max_mesh_axes> axes{};
  std::size_t axis_count = 0;
  serving_setup setup{};
  std::int64_t unknown_axes = 0;        ///< strategies naming an axis the mesh lacks
  std::int64_t refused_strategies = 0;  ///< zero, fsdp or pipeline strategies given
};

/// Product of the sizes of the axes carrying `role` (1 when none does).
constexpr std::int64_t degree_of(const serving_plan_values& p, std::uint8_t role) {
  std::int64_t n = 1;
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].roles & role) n = saturating_product(n, p.axes[i].size);
  return n;
}

/// The degrees of a serving plan; products beyond 64 bits saturate (`saturating_product`), so a
/// mesh too large for any system is reported by `mesh_within_system` instead of overflowing.
constexpr serving_degrees degrees_of(const serving_plan_values& p) {
  serving_degrees d;
  d.tensor = degree_of(p, role_tensor);
  d.tensor_x = degree_of(p, role_weight_stationary_x);
  d.expert = degree_of(p, role_expert);
  d.attention_data = degree_of(p, role_attention_data);
  d.sequence = degree_of(p, role_context);
  d.data = degree_of(p, role_data);
  for (std::size_t i = 0; i < p.axis_count; ++i)
    d.devices = saturating_product(d.devices, p.axes[i].size);
  return d;
}

/// Tokens in each sequence's cache at the last decode step: prompt plus generated. Decode steps
/// are costed there, the slowest step, and memory is sized for it.
constexpr std::int64_t context_tokens(const serving_setup& s) {
  return s.prompt_tokens + s.generated_tokens;
}

/// How the plan splits the cache: tensor parallelism over the kv heads (beyond them over the batch,
/// or copies with `replicate_kv`), sequence sharding over tokens, replicas and data-parallel
/// attention over the batch.
constexpr kv_split kv_split_of(const serving_plan_values& p) {
  const serving_degrees d = degrees_of(p);
  return split_kv(p.model, d.tensor, d.sequence, d.data * d.attention_data, p.setup.replicate_kv);
}

/// Parameters one device stores: routed experts split over tensor and expert axes, everything else
/// ("dense": attention, dense MLPs, shared experts, routers, embeddings, norms) over the tensor
/// axes only (norms are tiny and counted as split too). `input_embedding` is the part of `dense`
/// that a decode step does not read in full (a lookup of B rows).
struct device_weights {
  double dense = 0.0;
  double routed = 0.0;
  double input_embedding = 0.0;
};

constexpr device_weights weights_on_device(const model_shape& m, const serving_degrees& d) {
  const parameter_counts c = parameters(m);
  const double routed = static_cast<double>(c.moe_layers * m.moe.experts * c.expert);
  const double lookup = static_cast<double>(c.position_embedding) +
                        (m.tied_embeddings ? 0.0 : static_cast<double>(m.vocab * m.d_model));
  const double t = static_cast<double>(d.tensor);
  return {.dense = (static_cast<double>(c.total) - routed) / t,
          .routed = routed / (t * static_cast<double>(d.expert)),
          .input_embedding = lookup / t};
}

/// Memory of the fullest device at the plan's batch and context.
struct serving_memory {
  bytes weights{};
  bytes kv{};
  bytes reserve{};  ///< fixed + fraction of weights and cache
  bytes total{};
};

/// Tokens of each sequence's cache that memory is sized for: the whole context (prompt +
/// generated) for the roofline (the book's) and for static batching; for an engine that pages
/// the cache and batches continuously, the mean over a request's life, prompt + generated/2
/// (requests in flight are spread evenly over their generation; vLLM, SGLang and TensorRT-LLM
/// allocate cache blocks as tokens arrive).
constexpr std::int64_t cache_context(const serving_setup& s) {
  const engine_figures e = engine_figures_of(s.engine);
  if (s.engine == serving_engine::roofline || !e.continuous_batching) return context_tokens(s);
  const std::int64_t mean = s.prompt_tokens + (s.generated_tokens + 1) / 2;
  return mean > 0 ? mean : 1;
}

/// What memory holds besides the weights and the cache: the plan's reserve (2 GB + 5% unless
/// it says otherwise) for the roofline; for an engine, its runtime (context, activations,
/// workspace) and the share of memory it leaves unused (`kv_memory_share`, of the whole memory
/// or of what the weights and runtime leave free).
constexpr bytes serving_reserve(const serving_plan_values& p, bytes weights, bytes kv) {
  const serving_setup& s = p.setup;
  const bytes memory = p.system.chip.memory;
  if (s.engine == serving_engine::roofline)
    return s.reserve.fixed + (weights + kv) * s.reserve.fraction;
  const engine_figures e = engine_figures_of(s.engine);
  const bytes unused = e.kv_share_of_free
                           ? (memory - weights - e.runtime) * (1.0 - e.kv_memory_share)
                           : memory * (1.0 - e.kv_memory_share);
  return e.runtime + (unused.value() > 0.0 ? unused : 0.0 * byte);
}

constexpr serving_memory memory_of(const serving_plan_values& p) {
  const serving_setup& s = p.setup;
  const device_weights w = weights_on_device(p.model, degrees_of(p));
  serving_memory m;
  m.weights = (w.dense + w.routed) * bytes_per_element(s.weights) * byte;
  m.kv = kv_bytes_per_device(p.model, s.kv, cache_context(s), s.batch, kv_split_of(p));
  m.reserve = serving_reserve(p, m.weights, m.kv);
  m.total = m.weights + m.kv + m.reserve;
  return m;
}

/// The largest batch whose caches (at `cache_context`) fit beside the weights and the reserve.
constexpr std::int64_t max_batch(const serving_plan_values& p) {
  const serving_setup& s = p.setup;
  const bytes weights = memory_of(p).weights;
  const bytes free = s.engine == serving_engine::roofline
                         ? usable_memory(p.system.chip.memory, s.reserve) - weights
                         : p.system.chip.memory - weights - serving_reserve(p, weights, 0.0 * byte);
  return sequences_that_fit(free, p.model, s.kv, cache_context(s), kv_split_of(p));
}

/// The fewest chips of the plan's kind, rounded up to a power of two, that hold the model's
/// weights and `batch` caches at the plan's context after the reserve (the book's "smallest
/// slice", which it gives for one sequence: `smallest_slice(p, 1)`). Weights and caches are
/// assumed to split evenly, so this is a lower bound on the slice a sharding can use.
constexpr std::int64_t smallest_slice(const serving_plan_values& p, std::int64_t batch) {
  const serving_setup& s = p.setup;
  const bytes weights =
      static_cast<double>(parameters(p.model).total) * bytes_per_element(s.weights) * byte;
  const bytes kv =
      kv_bytes_per_sequence(p.model, s.kv, context_tokens(s)) * static_cast<double>(batch);
  return round_up_to_power_of_two(fewest_devices(weights, kv, p.system.chip.memory, s.reserve));
}

/// The smallest slice for the plan's own batch, every cache at the plan's context: what `check`
/// reports. A slice of this size holds what the plan serves; one half its size does not.
constexpr std::int64_t smallest_slice(const serving_plan_values& p) {
  return smallest_slice(p, p.setup.batch);
}

/// The network of the axes carrying `role` but not `except`, taken as one group: their sizes
/// multiply, and the axes inside the innermost of them give the groups running side by side.
/// Assumes those axes are adjacent in the mesh.
constexpr axis_network network_of(const serving_plan_values& p, std::uint8_t role,
                                  std::uint8_t except = 0) {
  std::int64_t size = 1;
  std::size_t innermost = p.axis_count;
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    if ((p.axes[i].roles & role) && !(p.axes[i].roles & except)) {
      size *= p.axes[i].size;
      innermost = i;
    }
  }
  std::int64_t inner = 1;
  for (std::size_t i = innermost + 1; i < p.axis_count; ++i) inner *= p.axes[i].size;
  return network_of(levels_of(p.system), inner, size);
}

/// One kind of collective in a decode step.
struct serving_traffic {
  std::string_view what;
  collective_kind collective = collective_kind::all_reduce;
  double count = 0.0;  ///< per step
  bytes array{};       ///< of one collective, as collective_time sizes it
  seconds time{};      ///< all of them in a step
};

inline constexpr std::size_t max_serving_traffic = 8;

/// The width of attention's output per token before its projection: heads x value width.
constexpr double attention_output_width(const model_shape& m) {
  return static_cast<double>(m.heads * (has_mla(m) ? m.mla.v_head_dim : m.head_dim));
}

/// The MLP width a token passes through: d_ff, or its active experts' (routed and shared).
constexpr double active_mlp_width(const model_shape& m) {
  return is_moe(m) ? static_cast<double>(m.moe.top_k + m.moe.shared_experts) *
                         static_cast<double>(m.moe.expert_d_ff)
                   : static_cast<double>(m.d_ff);
}

/// One collective of a 2D weight-stationary layout that a step repeats `count` times.
struct weight_stationary_collective {
  std::string_view what;
  collective_kind kind = collective_kind::all_gather;
  axis_network net{};
  double count = 0.0;        ///< per step (all layers)
  double array_bytes = 0.0;  ///< of one collective
};

/// The collectives of 2D weight-stationary sharding (the book's inference chapter, Q7: weights
/// [D_X, F_YZ]) for `tokens` tokens per tensor group in activations of `b_a` bytes: per layer the
/// d_model-sharded activations are all-gathered over YZ before each of the two blocks and
/// reduce-scattered after it, and the partial sums over X all-reduced (the MLP's F/YZ-wide and
/// attention's query-wide outputs).
constexpr std::array<weight_stationary_collective, 4> weight_stationary_collectives(
    const serving_plan_values& p, double tokens, double b_a) {
  const model_shape& m = p.model;
  const serving_degrees d = degrees_of(p);
  const double layers = static_cast<double>(m.layers);
  const double width_d = static_cast<double>(m.d_model);
  const double query_width = attention_output_width(m);
  const double mlp_width = active_mlp_width(m);
  const axis_network x = network_of(p, role_weight_stationary_x);
  const axis_network yz = network_of(p, role_tensor, role_weight_stationary_x);
  const double x_ways = static_cast<double>(d.tensor_x);
  const double yz_ways = static_cast<double>(d.tensor / d.tensor_x);
  const double sharded_d = tokens * width_d / x_ways * b_a;
  return {{{"2d all-gather", collective_kind::all_gather, yz, 2.0 * layers, sharded_d},
           {"2d mlp all-reduce", collective_kind::all_reduce, x, layers,
            tokens * mlp_width / yz_ways * b_a},
           {"2d attention all-reduce", collective_kind::all_reduce, x, layers,
            tokens * query_width / yz_ways * b_a},
           {"2d reduce-scatter", collective_kind::reduce_scatter, yz, 2.0 * layers, sharded_d}}};
}

/// A decode step of the plan and what follows from it.
struct decode_cost {
  decode_work work{};       ///< per device
  decode_time time{};       ///< the roofline of `work`
  seconds communication{};  ///< collectives, on the critical path
  seconds step{};           ///< roofline plus communication
  double batch_per_replica = 0.0;
  double experts_read = 1.0;       ///< fraction of routed experts read (1 for a dense model)
  double critical_batch = 0.0;     ///< tokens per replica where matmul FLOPs = reading all weights
  bool memory_bound = true;        ///< batch_per_replica < critical_batch
  double tokens_per_second = 0.0;  ///< the whole plan
  double tokens_per_second_per_device = 0.0;
  double tokens_per_second_per_user = 0.0;  ///< one sequence: 1/step
  /// The largest 1D tensor degree whose activation collectives stay under the weight read
  /// (decode_tensor_parallel_limit on the plan's tensor axes; 0 without tensor parallelism).
  double tensor_parallel_limit = 0.0;
  std::array<serving_traffic, max_serving_traffic> traffic{};
  std::size_t traffic_count = 0;
};

/// Estimates the plan's last decode step (every cache at prompt + generated tokens). The model:
/// - each device reads its weights once (the input embedding only as a lookup; of the routed
///   experts the fraction `experts_touched` that the replica's batch routes to) and its cache;
/// - the FLOPs of the whole batch (flops.hpp, attention counted in full against the context)
///   divide evenly over the devices; FLOPs at the peak of the compute format;
/// - collectives run after the roofline, not overlapped (in decode they are small and mostly
///   latency-bound, the book's Appendix C), each with collective_time's latency floor:
///   1D tensor parallelism two all-reduces of [B, D] per layer (Megatron), and two all-to-alls of
///   the queries and outputs [B, N·H] when the cache is batch-split beyond the kv heads;
///   2D weight-stationary per layer and block (MLP of width F, attention of width N·H) an
///   all-gather and a reduce-scatter of [B, D/X] over YZ and an all-reduce of [B, F/YZ] over X
///   (inference.md Q7); expert parallelism a dispatch and a combine all-to-all per MoE layer of
///   the replica's tokens, each sent once to every distinct device its top-k experts live on
///   (`expected_destinations`, as in training); sequence sharding an all-gather of the queries
///   and a reduce-scatter of partial outputs per layer. B counts the tokens of one group.
constexpr decode_cost estimate_decode(const serving_plan_values& p) {
  const model_shape& m = p.model;
  const serving_setup& s = p.setup;
  const serving_degrees d = degrees_of(p);
  const chip_figures& chip = p.system.chip;
  const double devices = static_cast<double>(d.devices);
  const double batch = static_cast<double>(s.batch);
  const double b_w = bytes_per_element(s.weights);
  const double b_a = bytes_per_element(s.compute);
  decode_cost c;
  c.batch_per_replica = batch / static_cast<double>(d.data);

  const device_weights held = weights_on_device(m, d);
  c.experts_read = is_moe(m)
                       ? experts_touched(static_cast<double>(m.moe.experts),
                                         static_cast<double>(m.moe.top_k), c.batch_per_replica)
                       : 1.0;
  const double dense_read = held.dense - held.input_embedding;
  c.work.weights = (dense_read + held.routed * c.experts_read) * b_w * byte;
  c.work.kv = kv_bytes_per_device(m, s.kv, context_tokens(s), s.batch, kv_split_of(p));
  const token_flops per_token =
      forward_flops_per_token(m, context_tokens(s), attention_flops::full);
  c.work.matmul = batch * (per_token.layers_matmul + per_token.logits) / devices * flop;
  c.work.attention = batch * per_token.attention / devices * flop;
  c.time = decode_step_time(c.work, chip.memory_bandwidth, peak(chip, s.compute));

  const seconds read_all = (dense_read + held.routed) * b_w * byte / chip.memory_bandwidth;
  c.critical_batch =
      c.time.matmul.value() > 0.0 ? c.batch_per_replica * (read_all / c.time.matmul).value() : 0.0;
  c.memory_bound = c.batch_per_replica < c.critical_batch;

  // Collectives.
  const double layers = static_cast<double>(m.layers);
  const double width_d = static_cast<double>(m.d_model);
  const double query_width = attention_output_width(m);
  const double mlp_width = active_mlp_width(m);
  const double tensor_tokens = batch / static_cast<double>(d.data * d.attention_data * d.sequence);
  auto add = [&c, &s](std::string_view what, collective_kind kind, const axis_network& net,
                      double count, double array_bytes) {
    if (net.size <= 1 || count <= 0.0 || c.traffic_count >= max_serving_traffic) return;
    const seconds one = collective_time(kind, array_bytes * byte, net, s.collectives);
    c.traffic[c.traffic_count++] = {what, kind, count, array_bytes * byte, one * count};
  };
  if (d.tensor > 1 && d.tensor_x == 1) {
    const axis_network net = network_of(p, role_tensor);
    add("tensor all-reduce", collective_kind::all_reduce, net, 2.0 * layers,
        tensor_tokens * width_d * b_a);
    if (kv_split_of(p).batch > d.data * d.attention_data)
      add("kv batch all-to-all", collective_kind::all_to_all, net, 2.0 * layers,
          tensor_tokens * query_width * b_a);
    c.tensor_parallel_limit = decode_tensor_parallel_limit(
        mlp_width, tensor_tokens, b_w, b_a, chip.memory_bandwidth, axis_bandwidth(net));
  } else if (d.tensor_x > 1) {
    for (const weight_stationary_collective& w :
         weight_stationary_collectives(p, tensor_tokens, b_a))
      add(w.what, w.kind, w.net, w.count, w.array_bytes);
  }
  if (d.expert > 1 && is_moe(m))
    add("expert all-to-all", collective_kind::all_to_all, network_of(p, role_expert),
        2.0 * static_cast<double>(moe_layer_count(m)),
        c.batch_per_replica * expected_destinations(m.moe.top_k, d.expert) * width_d * b_a);
  if (d.sequence > 1) {
    const double sequence_tokens = batch / static_cast<double>(d.data * d.attention_data);
    const axis_network net = network_of(p, role_context);
    add("sequence query gather", collective_kind::all_gather, net, layers,
        sequence_tokens * query_width * b_a);
    add("sequence output reduce-scatter", collective_kind::reduce_scatter, net, layers,
        sequence_tokens * query_width * b_a);
  }
  for (std::size_t i = 0; i < c.traffic_count; ++i) c.communication += c.traffic[i].time;

  c.step = c.time.step + c.communication;
  if (c.step.value() > 0.0) {
    c.tokens_per_second = batch / c.step.value();
    c.tokens_per_second_per_device = c.tokens_per_second / devices;
    c.tokens_per_second_per_user = 1.0 / c.step.value();
  }
  return c;
}

/// The fraction of peak a prefill sustains unless the plan says otherwise: one half, the book's
/// estimate for LLaMA-3 70B on a v5e 4x2 (applied-inference.md: "8ms minimum at 100% MFU. At best,
/// we are probably getting half that"). An assumption; set `prefill_efficiency<percent{...}>`.
inline constexpr double default_prefill_efficiency = 0.5;

/// The prefill of one prompt and what it implies for disaggregated serving.
struct prefill_cost {
  flops work{};             ///< one prompt, causal attention
  double devices = 1.0;     ///< one replica's
  double efficiency = 0.0;  ///< fraction of peak sustained
  seconds compute{};        ///< work at peak × efficiency over the replica
  seconds weights{};        ///< reading the device's weights once
  seconds time_to_first_token{};
  double attention_intensity = 0.0;      ///< FLOP per byte of the prompt's self-attention
  bool attention_compute_bound = false;  ///< intensity at least the chip's C/W
  /// Prefill servers per decode server (each one replica of this plan): prefill at batch 1,
  /// decode at the plan's batch (prefill_servers_per_decode_server).
  double prefill_servers_per_decode_server = 0.0;
};

/// Estimates the time to first token of one prompt of the plan's prompt_tokens on one replica:
/// the prompt's forward FLOPs (flops.hpp, causal attention) split evenly over the replica's
/// devices at peak × efficiency (default_prefill_efficiency unless set), or the weight read if that
/// is longer. Compute-bound at any realistic prompt length (the book: "during prefill, all matrix
/// multiplications are basically always compute-bound"); its communication, which tensor and
/// sequence sharding overlap with the FLOPs, is not modelled.
constexpr prefill_cost estimate_prefill(const serving_plan_values& p) {
  const model_shape& m = p.model;
  const serving_setup& s = p.setup;
  const serving_degrees d = degrees_of(p);
  const chip_figures& chip = p.system.chip;
  const double prompt = static_cast<double>(s.prompt_tokens);
  const flop_rate c = peak(chip, s.compute);
  prefill_cost r;
  r.work =
      prompt * forward_flops_per_token(m, s.prompt_tokens, attention_flops::causal).total() * flop;
  r.devices = static_cast<double>(d.devices / d.data);
  r.efficiency = s.prefill_efficiency > 0.0 ? s.prefill_efficiency : default_prefill_efficiency;
  r.compute = c.value() > 0.0 ? time_at_mfu(r.work, r.devices, c, r.efficiency) : 0.0 * second;
  const device_weights held = weights_on_device(m, d);
  const double routed_read = is_moe(m) ? experts_touched(static_cast<double>(m.moe.experts),
                                                         static_cast<double>(m.moe.top_k), prompt)
                                       : 1.0;
  r.weights = (held.dense - held.input_embedding + held.routed * routed_read) *
              bytes_per_element(s.weights) * byte / chip.memory_bandwidth;
  r.time_to_first_token = std::max(r.compute, r.weights);
  const double group = static_cast<double>(m.heads) / static_cast<double>(kv_cache_heads(m));
  r.attention_intensity = attention_intensity(prompt, prompt, group, bytes_per_element(s.compute),
                                              bytes_per_element(s.kv));
  r.attention_compute_bound = r.attention_intensity >= (c / chip.memory_bandwidth).value();
  const decode_cost decode = estimate_decode(p);
  r.prefill_servers_per_decode_server = shardplan::prefill_servers_per_decode_server(
      decode.batch_per_replica, static_cast<double>(s.generated_tokens), decode.step,
      r.time_to_first_token);
  return r;
}

/// What serving costs at the plan's price per chip-hour.
struct serving_cost {
  double dollars_per_chip_hour = 0.0;      ///< the plan's, else the example price (0: none known)
  double dollars_per_hour = 0.0;           ///< every device of the plan
  double per_million_output_tokens = 0.0;  ///< decode only
  /// One request: its share of decode (generated tokens) plus its prefill on one replica.
  double per_query = 0.0;
  double output_tokens_per_dollar = 0.0;
};

/// What serving costs at the plan's price when its devices produce `tokens_per_second` output
/// tokens (`tokens_per_second_per_device` each) and a prompt's prefill takes `prefill` on
/// `prefill_devices` of them.
constexpr serving_cost cost_at(const serving_plan_values& p, double tokens_per_second,
                               double tokens_per_second_per_device, seconds prefill,
                               double prefill_devices) {
  serving_cost c;
  c.dollars_per_chip_hour = p.setup.dollars_per_chip_hour > 0.0
                                ? p.setup.dollars_per_chip_hour
                                : example_price_per_chip_hour(p.system.chip);
  const double devices = static_cast<double>(degrees_of(p).devices);
  c.dollars_per_hour = c.dollars_per_chip_hour * devices;
  c.per_million_output_tokens =
      dollars_per_million_tokens(c.dollars_per_chip_hour, devices, tokens_per_second);
  c.per_query = c.per_million_output_tokens / 1e6 * static_cast<double>(p.setup.generated_tokens) +
                c.dollars_per_chip_hour / 3600.0 * prefill_devices * prefill.value();
  c.output_tokens_per_dollar =
      tokens_per_dollar(tokens_per_second_per_device, c.dollars_per_chip_hour);
  return c;
}

/// The book's cost: the roofline's decode and prefill.
constexpr serving_cost estimate_cost(const serving_plan_values& p) {
  const decode_cost decode = estimate_decode(p);
  const prefill_cost prefill = estimate_prefill(p);
  return cost_at(p, decode.tokens_per_second, decode.tokens_per_second_per_device,
                 prefill.time_to_first_token, prefill.devices);
}

// --- rules ---------------------------------------------------------------------------------------

/// The rules a serving plan obeys.
enum class serving_rule : std::uint8_t {
  strategy_axes_in_mesh,     ///< a: strategies naming an axis the mesh lacks
  strategies_serve,          ///< a: zero, fsdp or pipeline strategies given
  mesh_within_system,        ///< a: mesh devices, b: system chips
  axis_has_a_role,           ///< axis: the idle axis
  tensor_divides_heads,      ///< a: tensor ways over the heads, b: heads
  tensor_fits_kv_heads,      ///< a: tensor, b: kv heads
  tensor_divides_d_ff,       ///< a: tensor ways over d_ff, b: d_ff (or expert d_ff)
  expert_divides_experts,    ///< a: expert degree, b: routed experts (0: a dense model)
  batch_divides,             ///< a: batch groups, b: batch
  sequence_divides_context,  ///< a: sequence shards, b: context tokens
  compute_format_supported,  ///< a: the compute format's peak in FLOP/s (0)
  fits_in_memory,            ///< a: bytes needed per device, b: bytes of memory per device
};

/// The rule as a diagnostic states it.
constexpr std::string_view rule_text(serving_rule r) {
  switch (r) {
    case serving_rule::strategy_axes_in_mesh:
      return "shardplan: a strategy names an axis the mesh does not have";
    case serving_rule::strategies_serve:
      return "shardplan: a serving plan takes no zero, fsdp or pipeline strategy (generation would "
             "gather the weights every step; pipelines are not modelled)";
    case serving_rule::mesh_within_system:
      return "shardplan: the mesh has more devices than the system";
    case serving_rule::axis_has_a_role:
      return "shardplan: every mesh axis must carry a parallelism";
    case serving_rule::tensor_divides_heads:
      return "shardplan: tensor parallelism must divide the attention heads";
    case serving_rule::tensor_fits_kv_heads:
      return "shardplan: tensor parallelism must divide the kv heads or be a multiple of them";
    case serving_rule::tensor_divides_d_ff:
      return "shardplan: tensor parallelism must divide the mlp width";
    case serving_rule::expert_divides_experts:
      return "shardplan: expert parallelism must divide the experts of a mixture-of-experts "
             "model";
    case serving_rule::batch_divides:
      return "shardplan: the batch must split into whole sequences over replicas, data-parallel "
             "attention and kv batch shards";
    case serving_rule::sequence_divides_context:
      return "shardplan: sequence sharding must divide the context";
    case serving_rule::compute_format_supported:
      return "shardplan: the chip has no matrix units for the compute format";
    case serving_rule::fits_in_memory:
      return "shardplan: the weights and the kv cache of the batch do not fit in device memory";
  }
  return "?";
}

/// One broken rule and its numbers.
struct serving_violation {
  serving_rule rule{};
  double a = 0.0;
  double b = 0.0;
  std::string_view axis;
};

inline constexpr std::size_t max_serving_violations = 16;

/// Every rule a serving plan breaks, in the order of `serving_rule`.
struct serving_violations {
  std::array<serving_violation, max_serving_violations> items{};
  std::size_t count = 0;
  constexpr void add(serving_rule r, double a = 0.0, double b = 0.0, std::string_view axis = {}) {
    if (count < max_serving_violations) items[count++] = {r, a, b, axis};
  }
  constexpr bool empty() const { return count == 0; }
  constexpr bool has(serving_rule r) const {
    for (std::size_t i = 0; i < count; ++i)
      if (items[i].rule == r) return true;
    return false;
  }
  /// The first violation of `r`, or all zeros.
  constexpr serving_violation first(serving_rule r) const {
    for (std::size_t i = 0; i < count; ++i)
      if (items[i].rule == r) return items[i];
    return {};
  }
};

/// Whether a serving plan with these violations can be costed (its batch, context and compute
/// format are sound).
constexpr bool costable(const serving_violations& v) {
  return !v.has(serving_rule::batch_divides) && !v.has(serving_rule::compute_format_supported) &&
         !v.has(serving_rule::sequence_divides_context);
}

/// The rule's name, as the tool's JSON reports it.
constexpr std::string_view rule_name(serving_rule r) {
  switch (r) {
    case serving_rule::strategy_axes_in_mesh: return "strategy_axes_in_mesh";
    case serving_rule::strategies_serve: return "strategies_serve";
    case serving_rule::mesh_within_system: return "mesh_within_system";
    case serving_rule::axis_has_a_role: return "axis_has_a_role";
    case serving_rule::tensor_divides_heads: return "tensor_divides_heads";
    case serving_rule::tensor_fits_kv_heads: return "tensor_fits_kv_heads";
    case serving_rule::tensor_divides_d_ff: return "tensor_divides_d_ff";
    case serving_rule::expert_divides_experts: return "expert_divides_experts";
    case serving_rule::batch_divides: return "batch_divides";
    case serving_rule::sequence_divides_context: return "sequence_divides_context";
    case serving_rule::compute_format_supported: return "compute_format_supported";
    case serving_rule::fits_in_memory: return "fits_in_memory";
  }
  return "?";
}

/// The violation as one line with its numbers.
inline std::string describe(const serving_violation& x) {
  auto n = [](double d) { return detail::significant(d, 6); };
  switch (x.rule) {
    case serving_rule::fits_in_memory:
      return "needs " + format(x.a * byte) + " per device against " + format(x.b * byte) +
             " of memory";
    case serving_rule::mesh_within_system:
      return "the mesh has " + n(x.a) + " devices but the system has " + n(x.b) + " chips";
    case serving_rule::axis_has_a_role:
      return "mesh axis '" + std::string(x.axis) + "' carries no parallelism";
    case serving_rule::strategy_axes_in_mesh:
    case serving_rule::strategies_serve:
    case serving_rule::compute_format_supported:
      return std::string(rule_text(x.rule)).substr(11);
    default:
      return std::string(rule_text(x.rule)).substr(11) + " (" + n(x.a) + " and " + n(x.b) + ")";
  }
}

/// Tensor parallelism of `t` ways and `k` kv heads: each rank holds whole kv heads (t divides k),
/// or whole groups of ranks share one (k divides t).
constexpr bool tensor_fits_kv_heads(std::int64_t t, std::int64_t k) {
  return t <= 0 || k <= 0 || k % t == 0 || t % k == 0;
}

/// Checks every rule of a serving plan.
constexpr serving_violations check(const serving_plan_values& p) {
  serving_violations v;
  const model_shape& m = p.model;
  const serving_setup& s = p.setup;
  const serving_degrees d = degrees_of(p);
  const auto as_double = [](std::int64_t x) { return static_cast<double>(x); };
  const std::int64_t split = d.tensor / d.tensor_x;  // ways heads and d_ff are split

  // A misspelt or refused strategy leaves its axis idle and the weights unsplit: report the
  // strategy, not what follows from it.
  const bool strategies_sound = p.unknown_axes == 0 && p.refused_strategies == 0;
  if (p.unknown_axes > 0) v.add(serving_rule::strategy_axes_in_mesh, as_double(p.unknown_axes));
  if (p.refused_strategies > 0)
    v.add(serving_rule::strategies_serve, as_double(p.refused_strategies));
  if (d.devices > p.system.chips)
    v.add(serving_rule::mesh_within_system, as_double(d.devices), as_double(p.system.chips));
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].roles == 0 && strategies_sound)
      v.add(serving_rule::axis_has_a_role, as_double(p.axes[i].size), 0.0, p.axes[i].name);
  if (m.heads % split != 0)
    v.add(serving_rule::tensor_divides_heads, as_double(split), as_double(m.heads));
  if (!has_mla(m) && !tensor_fits_kv_heads(d.tensor, m.kv_heads))
    v.add(serving_rule::tensor_fits_kv_heads, as_double(d.tensor), as_double(m.kv_heads));
  if (dense_layer_count(m) > 0 && m.d_ff % split != 0)
    v.add(serving_rule::tensor_divides_d_ff, as_double(split), as_double(m.d_ff));
  if (is_moe(m) && m.moe.expert_d_ff % split != 0)
    v.add(serving_rule::tensor_divides_d_ff, as_double(split), as_double(m.moe.expert_d_ff));
  if (d.expert > 1 && (!is_moe(m) || m.moe.experts % d.expert != 0))
    v.add(serving_rule::expert_divides_experts, as_double(d.expert), as_double(m.moe.experts));
  const kv_split kv = kv_split_of(p);
  if (s.batch % kv.batch != 0)
    v.add(serving_rule::batch_divides, as_double(kv.batch), as_double(s.batch));
  if (context_tokens(s) % d.sequence != 0)
    v.add(serving_rule::sequence_divides_context, as_double(d.sequence),
          as_double(context_tokens(s)));
  if (peak(p.system.chip, s.compute).value() <= 0.0)
    v.add(serving_rule::compute_format_supported, 0.0);
  const serving_memory mem = memory_of(p);
  if (strategies_sound && mem.total > p.system.chip.memory)
    v.add(serving_rule::fits_in_memory, mem.total.value(), p.system.chip.memory.value());
  return v;
}

}  // namespace shardplan
