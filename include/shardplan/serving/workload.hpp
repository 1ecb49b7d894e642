// Serving as engines run it: a server's step as operations (the compute issue's model of a layer,
// training/operations.hpp, forward only), timed by the chip's kernels and the engine's
// (serving/engine.hpp); decode, prefill and time to first token; continuous batching under a
// workload of input and output lengths, the largest concurrency the cache holds, throughput per
// device and per user, and the latency-throughput curve. Estimates: each says what it assumes;
// tests/validation/SERVING.md has how far they are from measurements.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <shardplan/core/math.hpp>
#include <shardplan/serving/engine.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/training/operations.hpp>

namespace shardplan {

/// What one step of a server does on one replica: `decoding` sequences generate one token each
/// against caches of `context` tokens on average, and `prefill_tokens` tokens of prompts of
/// `prompt` tokens each are prefilled in the same step (chunked prefill; a prefill-only step
/// has no decoding sequences).
struct step_shape {
  double decoding = 0.0;
  double context = 0.0;
  double prefill_tokens = 0.0;
  double prompt = 0.0;
};

/// The time of one step on the replica's slowest device, by part.
struct step_time {
  seconds gemm{};           ///< weight GEMMs and logits: weight read or FLOPs, the larger
  seconds weight_read{};    ///< of `gemm`, what reading the weights alone takes
  seconds attention{};      ///< decode attention (cache read) and prefill attention (FLOPs)
  seconds memory{};         ///< norms, rotary, activations, residual adds, permutations
  seconds communication{};  ///< tensor all-reduces and expert all-to-alls, not overlapped
  seconds overhead{};       ///< the engine's fixed costs per layer and per sequence
  seconds total{};
  double tokens = 0.0;  ///< tokens through the GEMMs
};

namespace detail {

/// The share of `e` at which weights in `f` are read, or the plan's own.
constexpr double read_share(const serving_setup& s, const engine_figures& e, number_format f) {
  return s.weight_read_share > 0.0 ? s.weight_read_share : weight_read_share(e, f);
}

/// The fraction of peak a serving GEMM reaches when compute-bound. At least a tile of rows
/// (128) it is `gemm_efficiency`'s; a skinny GEMM of fewer tokens runs a kernel with tiles of
/// as few rows as the matrix instruction allows (16: the m of Ampere's and Hopper's mma) and
/// splits k over the compute units (split-k), so only the rows of its last 16-row tile idle:
/// the deep fraction x m/(16·ceil(m/16)) x the reduction depth.
constexpr double serving_gemm_efficiency(const chip_figures& chip, number_format f,
                                         const gemm_shape& g) {
  const kernel_fractions k = family_kernel_fractions(chip);
  if (k.tile_rows <= 0 || g.m >= static_cast<double>(k.tile_rows))
    return gemm_efficiency(chip, f, g);
  const double rows = 16.0 * ceil_div(g.m, 16.0);
  const double depth = k.reduction_overhead > 0.0 ? g.k / (g.k + k.reduction_overhead) : 1.0;
  const bool low = bytes_per_element(f) < 2.0;
  return (low ? k.gemm_low_precision : k.gemm) * g.m / rows * depth;
}

/// A serving GEMM: its FLOPs at the shape's achievable rate, or its weights read at the engine's
/// share of bandwidth and its activations at the chip's memory-bound share, whichever is longer.
/// It multiplies in the plan's compute format: weight-only formats (int8, int4, fp4 weights with
/// a 16-bit compute format) are dequantised into it.
/// `weight_fraction` is the part of the weights read (the routed experts a step touches).
constexpr seconds serving_gemm_time(const serving_plan_values& p, const engine_figures& e,
                                    const gemm_shape& g, double weight_fraction,
                                    seconds& weight_read) {
  const chip_figures& chip = p.system.chip;
  const serving_setup& s = p.setup;
  const number_format f = s.compute;
  const bool roofline = e.engine == serving_engine::roofline;
  const double efficiency =
      roofline ? 1.0 : (s.prefill_efficiency > 0.0 ? s.prefill_efficiency
                                                   : serving_gemm_efficiency(chip, f, g));
  const seconds compute = gemm_flops(g) * flop / (peak(chip, f) * efficiency);
  const double weights = g.k * g.n * g.groups * weight_fraction * bytes_per_element(s.weights);
  const double activations = g.groups * weight_fraction * g.m * (g.k + g.n) *
                             bytes_per_element(s.compute);
  const double memory_share = roofline ? 1.0 : family_kernel_fractions(chip).memory;
  const seconds read = weights * byte / (chip.memory_bandwidth * read_share(s, e, s.weights));
  weight_read += read;
  const seconds memory = read + activations * byte / (chip.memory_bandwidth * memory_share);
  return compute > memory ? compute : memory;
}

}  // namespace detail

/// The replica's devices: the mesh over its data replicas.
constexpr double replica_devices(const serving_plan_values& p) {
  const serving_degrees d = degrees_of(p);
  return static_cast<double>(d.devices) / static_cast<double>(d.data);
}

/// One step of the plan's replica under engine `e`, on its fullest device. The layer's forward
/// operations (training/operations.hpp) at the step's tokens, after tensor and expert sharding:
/// - weight GEMMs by `serving_gemm_time` (routed experts: the share `experts_touched` of them);
/// - the attention call as the decoding sequences' cache read at the engine's `kv_read` share
///   (plus their queries' FLOPs at peak, which never dominate) and the prefilled prompts' causal
///   self-attention at the chip's fused-kernel fraction (hardware/kernels.hpp);
/// - memory-bound operations at the chip's achievable bandwidth;
/// - the logits of the tokens that produce one (each decoding sequence, each prompt's last);
/// - per layer two all-reduces of the step's activations over the tensor axes (the engine's
///   small-message latency plus the bandwidth time) and per MoE layer a dispatch and a combine
///   all-to-all over the expert axes, none overlapped;
/// - the engine's fixed costs: `layer_overhead` per layer and `sequence_overhead` per decoding
///   sequence of each scheduler (and `eager_layer_overhead` a layer without CUDA graphs).
/// The roofline engine reads at the datasheet bandwidth, multiplies at peak and has no overhead.
constexpr step_time serving_step(const serving_plan_values& p, const engine_figures& e,
                                 const step_shape& shape) {
  const model_shape& m = p.model;
  const serving_setup& s = p.setup;
  const serving_degrees d = degrees_of(p);
  const chip_figures& chip = p.system.chip;
  const bool roofline = e.engine == serving_engine::roofline;
  step_time r;
  const double tokens = shape.decoding + shape.prefill_tokens;
  r.tokens = tokens;
  if (tokens <= 0.0) return r;
  // Tokens one tensor group sees: data-parallel attention and sequence sharding split them.
  const double group_share = 1.0 / static_cast<double>(d.attention_data);
  layer_shard sh;
  // Each device of a data-parallel-attention group runs its own share of the tokens through
  // attention and the dense layers; the experts receive every device's (per expert:
  // tokens·k/E, as layer_forward_operations counts them).
  sh.micro_batch = tokens * group_share;
  sh.seq_len = 1.0;
  // Every tensor axis splits the weights: 1D over the heads and d_ff, 2D weight-stationary
  // over d_model (X) and the heads and d_ff (YZ) — a device reads 1/tensor of each matrix.
  sh.tensor = static_cast<double>(d.tensor);
  sh.expert = static_cast<double>(d.expert);
  sh.precision.compute = s.compute;
  sh.precision.activation_bytes = 2.0;  // activations stay 16-bit between kernels
  const double experts_read =
      is_moe(m) ? experts_touched(static_cast<double>(m.moe.experts),
                                  static_cast<double>(m.moe.top_k), tokens)
                : 1.0;
  const double memory_share = roofline ? 1.0 : family_kernel_fractions(chip).memory;
  const double kv_share = roofline ? 1.0 : e.kv_read;
  const kv_split split = kv_split_of(p);

  // Dynamic activation scales: kernels a linear layer adds (`activation_scales`), each at the
  // engine's per-layer fixed cost spread evenly over the layer's operations, and the bytes they
  // move: per tensor the activation read twice (reduce, then cast) and written once in 8 bits,
  // per row read once and written once.
  const bool dynamic = !roofline && bytes_per_element(s.compute) < 2.0 &&
                       s.scales != activation_scales::static_scales;
  const double scale_kernels = s.scales == activation_scales::dynamic_tensor ? 2.0 : 1.0;
  const double scale_bytes = s.scales == activation_scales::dynamic_tensor ? 5.0 : 3.0;
  double quantisation_overhead = 0.0;  // seconds a step
  auto layer = [&](bool moe_layer, double times) {
    step_time t;
    const operation_list ops = layer_forward_operations(m, sh, moe_layer);
    const double kernel_cost =
        ops.count > 0 ? e.layer_overhead.value() / static_cast<double>(ops.count) : 0.0;
    for (std::size_t i = 0; i < ops.count; ++i) {
      const operation& o = ops.items[i];
      if (dynamic && o.kind == operation_kind::gemm) {
        quantisation_overhead += times * scale_kernels * kernel_cost;
        t.memory += o.gemm.groups * o.gemm.m * o.gemm.k * scale_bytes * byte /
                    (chip.memory_bandwidth * memory_share);
      }
      switch (o.kind) {
        case operation_kind::gemm: {
          const bool routed = o.gemm.groups > 1.0;
          gemm_shape g = o.gemm;
          if (routed) {
            // The tokens reaching the touched experts, spread over them.
            g.m = o.gemm.m / experts_read;
            if (g.m < 1.0) g.m = 1.0;
          }
          const double touched = routed ? experts_read : 1.0;
          t.gemm += detail::serving_gemm_time(p, e, g, touched, t.weight_read);
          break;
        }
        case operation_kind::attention: {
          // Decoding: read the cache of every decoding sequence of this device.
          if (shape.decoding > 0.0) {
            // The replica's sequences spread over its batch groups (data-parallel attention,
            // kv-batch shards); each device holds its heads' and tokens' share of theirs.
            const double sequences = shape.decoding * static_cast<double>(d.data) /
                                     static_cast<double>(split.batch);
            const double per_layer =
                has_local_attention(m)
                    ? kv_bytes_at_context(m, s.kv, shape.context).value() /
                          static_cast<double>(split.heads * split.sequence) /
                          static_cast<double>(m.layers) * sequences
                    : kv_bytes_per_sequence_on_device(m, s.kv, 1, split).value() /
                          static_cast<double>(m.layers) * shape.context * sequences;
            t.attention += per_layer * byte / (chip.memory_bandwidth * kv_share);
          }
          if (shape.prefill_tokens > 0.0 && shape.prompt > 0.0) {
            attention_shape a = o.attention;
            a.batch = shape.prefill_tokens / shape.prompt * group_share;
            a.query = shape.prompt;
            a.keys = shape.prompt *
                     attention_key_share(m, shape.prompt, attention_flops::causal);
            a.causal = true;
            const double fraction =
                roofline ? 1.0
                         : attention_efficiency(chip, default_attention_kernel(chip), a, false);
            t.attention +=
                attention_kernel_flops(a) * flop / (peak(chip, number_format::bf16) * fraction);
          }
          break;
        }
        case operation_kind::memory:
          t.memory += o.traffic * byte / (chip.memory_bandwidth * memory_share);
          break;
      }
    }
    return t;
  };
  auto add = [&r](const step_time& t, double times) {
    r.gemm += t.gemm * times;
    r.weight_read += t.weight_read * times;
    r.attention += t.attention * times;
    r.memory += t.memory * times;
  };
  const auto dense_layers = static_cast<double>(dense_layer_count(m));
  const auto moe_layers = static_cast<double>(moe_layer_count(m));
  if (dense_layers > 0.0) add(layer(false, dense_layers), dense_layers);
  if (moe_layers > 0.0) add(layer(true, moe_layers), moe_layers);

  // Logits of the tokens that produce one, onto the tensor-split vocabulary.
  const double outputs =
      shape.decoding + (shape.prompt > 0.0 ? shape.prefill_tokens / shape.prompt : 0.0);
  if (outputs > 0.0)
    r.gemm += detail::serving_gemm_time(p, e,
                                        {outputs * group_share,
                                         static_cast<double>(m.vocab) / sh.tensor,
                                         static_cast<double>(m.d_model)},
                                        1.0, r.weight_read);

  // Communication.
  const double layers = static_cast<double>(m.layers);
  const double b_a = bytes_per_element(s.compute) < 2.0 ? 2.0 : bytes_per_element(s.compute);
  collective_options bandwidth_only = s.collectives;
  bandwidth_only.latency = roofline;
  // Tensor collectives at the engine's measured share of the link and latency per call.
  const double share = roofline || e.all_reduce_share <= 0.0 ? 1.0 : e.all_reduce_share;
  const auto collective = [&](collective_kind kind, const axis_network& net, bytes array) {
    return collective_time(kind, array, net, bandwidth_only) / share +
           (roofline ? 0.0 * second : e.all_reduce_latency);
  };
  if (d.tensor > 1 && d.tensor_x == 1) {
    const axis_network net = network_of(p, role_tensor);
    const bytes array = tokens * group_share * static_cast<double>(m.d_model) * b_a * byte;
    r.communication += 2.0 * layers * collective(collective_kind::all_reduce, net, array);
  } else if (d.tensor_x > 1) {
    for (const weight_stationary_collective& w :
         weight_stationary_collectives(p, tokens * group_share, b_a))
      if (w.net.size > 1)
        r.communication += w.count * collective(w.kind, w.net, w.array_bytes * byte);
  }
  if (d.expert > 1 && is_moe(m)) {
    const axis_network net = network_of(p, role_expert);
    const bytes array = tokens * expected_destinations(m.moe.top_k, d.expert) *
                        static_cast<double>(m.d_model) * b_a * byte;
    r.communication += 2.0 * moe_layers *
                       collective_time(collective_kind::all_to_all, array, net, s.collectives);
  }
  if (!roofline) {
    // Each data-parallel-attention rank schedules and samples its own sequences.
    r.overhead = layers * e.layer_overhead +
                 shape.decoding * group_share * e.sequence_overhead +
                 quantisation_overhead * second;
    // Without graphs the decode step's launches show; a prefill's kernels run long enough to
    // hide theirs.
    if (!(e.cuda_graphs && s.cuda_graphs) && shape.decoding > 0.0)
      r.overhead += layers * e.eager_layer_overhead;
  }
  r.total = r.gemm + r.attention + r.memory + r.communication + r.overhead;
  return r;
}

/// A finite benchmark served to its end: `requests` requests sent at once (QPS = inf, as vLLM's
/// and SGLang's benchmark scripts do), at most `concurrency` in flight on the whole mesh. Its
/// throughput is their output tokens over the time until the last finishes, so it counts the
/// drain, where the last long requests run in small batches that read the weights for few
/// tokens.
struct benchmark_run {
  seconds duration{};        ///< from the first prefill to the last request's last token
  seconds drain{};           ///< of it, after every request had been admitted
  double output_tokens = 0.0;  ///< the whole mesh's
  double steps = 0.0;          ///< engine steps of one replica
  double mean_decoding = 0.0;  ///< sequences decoding in a step, averaged over the steps
  std::int64_t longest = 0;    ///< the longest request's output tokens
};

/// A plan's serving under its engine and workload.
struct serving_estimate {
  engine_figures engine{};
  double average_context = 0.0;  ///< prompt + half the generated tokens: decode's mean context
  step_time prefill{};               ///< one request's prompt alone
  seconds time_to_first_token{};     ///< unloaded: the prefill step
  /// The largest concurrency (whole mesh) the cache holds at the workload's lengths, and the
  /// engine's own limit.
  std::int64_t max_concurrency = 0;
  std::int64_t concurrency = 0;  ///< served: the plan's batch, or max_concurrency at max load
  step_time decode_step{};       ///< one decode step at `concurrency`, no prefill in it
  step_time step{};              ///< one step at `concurrency`, prefill mixed in
  double prefill_share = 0.0;    ///< of the step's tokens, prompt tokens
  seconds time_per_output_token{};
  seconds loaded_time_to_first_token{};  ///< the prefill plus one loaded step before it joins
  double output_tokens_per_second = 0.0;  ///< whole mesh
  double output_tokens_per_second_per_device = 0.0;
  double output_tokens_per_second_per_user = 0.0;
  double requests_per_second = 0.0;
  /// Disaggregated serving: prefill servers (replicas like this one) per decode server at this
  /// concurrency, from the engine's prefill and time per output token (the book's ratio,
  /// `prefill_servers_per_decode_server`).
  double prefill_servers_per_decode_server = 0.0;
  bool fits = true;  ///< the served concurrency's caches fit
  /// With `requests`, the benchmark served to its end; the throughput above is its output
  /// tokens over its duration, the steady-state figures (step, time per output token) stay.
  benchmark_run benchmark{};
};

/// The most requests the whole mesh serves at once: as many caches as memory holds beside the
/// weights (`max_batch`, under the plan's engine's memory model), at most `e`'s request limit
/// for each scheduler: each replica's, and with data-parallel attention each rank's.
constexpr std::int64_t max_concurrency(const serving_plan_values& p, const engine_figures& e) {
  const serving_degrees d = degrees_of(p);
  const std::int64_t cache = max_batch(p);
  const std::int64_t limit = p.setup.max_sequences > 0 ? p.setup.max_sequences : e.max_batch;
  return limit > 0 ? std::min(cache, limit * d.data * d.attention_data) : cache;
}

constexpr std::int64_t max_concurrency(const serving_plan_values& p) {
  return max_concurrency(p, engine_figures_of(p.setup.engine));
}

/// The requests the plan serves at once: its batch, or with `max_load` the largest concurrency
/// (at least one).
constexpr std::int64_t served_concurrency(const serving_plan_values& p) {
  if (!p.setup.max_load) return p.setup.batch;
  std::int64_t largest = max_concurrency(p);
  // A benchmark never has more requests in flight than it sends.
  if (p.setup.requests > 0 && p.setup.requests < largest) largest = p.setup.requests;
  return largest > 0 ? largest : 1;
}

namespace detail {

/// The scale s of an exponential spread whose mean, once capped at `cap` (the distribution
/// conditioned on lengths <= cap, as a benchmark that drops longer samples draws it), is
/// `mean`: s − cap·e^(−cap/s)/(1 − e^(−cap/s)) = mean, by fixed-point iteration (it converges
/// for mean < cap/2, the capped mean's limit as s grows; callers check that). Uncapped: mean.
constexpr double exponential_scale(double mean, double cap) {
  if (cap <= 0.0) return mean;
  double s = mean;
  for (int i = 0; i < 200; ++i) {
    const double tail = exponential(-cap / s);
    const double capped = s - cap * tail / (1.0 - tail);
    if (capped <= 0.0) break;
    s *= mean / capped;
  }
  return s;
}

}  // namespace detail

/// The output tokens of a benchmark's request `i` (0-based, in the order sent): the
/// setup's `generated_tokens`, or with an exponential spread the quantile u_i = frac((i+1)·φ)
/// of the (capped) exponential of scale `scale` (`detail::exponential_scale`), rounded, at least
/// one. The golden-ratio sequence spreads any n requests evenly over the quantiles and mixes long
/// and short ones in the order sent, as a random sample does on average, without a seed.
constexpr std::int64_t benchmark_output_tokens(const serving_setup& s, std::int64_t i,
                                               double scale) {
  if (s.outputs == output_lengths::fixed) return s.generated_tokens;
  constexpr double phi = 0.6180339887498948482;
  const double x = static_cast<double>(i + 1) * phi;
  const double u = x - static_cast<double>(static_cast<std::int64_t>(x));
  const double cap = static_cast<double>(s.longest_output);
  const double below = cap > 0.0 ? 1.0 - detail::exponential(-cap / scale) : 1.0;
  const double q = -scale * detail::natural_log(1.0 - u * below);
  const auto l = static_cast<std::int64_t>(q + 0.5);
  return l < 1 ? 1 : (cap > 0.0 && static_cast<double>(l) > cap ? s.longest_output : l);
}

/// Serves `p.setup.requests` requests (their output tokens from `benchmark_output_tokens`, their
/// prompts `prompt_tokens` each) under engine `e`, at most `concurrency` at once on the whole
/// mesh, each data-parallel replica its share; one replica is simulated step by step.
/// - Continuous batching: a request is admitted when a slot frees; its prompt is prefilled in
///   the next steps, first come first served, within the engine's token budget a step
///   (`max_step_tokens`, beside the decoding sequences), and yields its first token; it then
///   decodes one token a step until its last. A step is `serving_step` at its decoding
///   sequences, their mean context and its prefill tokens; steps without prefill between two
///   requests finishing are one `serving_step` at their mean context, times their count.
/// - Static batching (`continuous_batching` false): batches of `concurrency` prefill together,
///   then decode until their longest request ends, finished ones still occupying the batch.
/// A disaggregated decode pool prefills nothing: a request decodes from its admission.
constexpr benchmark_run simulate_benchmark(const serving_plan_values& p, const engine_figures& e,
                                        std::int64_t concurrency) {
  const serving_setup& s = p.setup;
  benchmark_run r;
  const serving_degrees d = degrees_of(p);
  const std::int64_t replicas = d.data > 0 ? d.data : 1;
  const std::int64_t n = (s.requests + replicas - 1) / replicas;  // the busiest replica's
  std::int64_t slots = concurrency / replicas;
  if (slots < 1) slots = 1;
  if (n <= 0) return r;
  const double input = static_cast<double>(s.prompt_tokens);
  const double scale = detail::exponential_scale(static_cast<double>(s.generated_tokens),
                                                 static_cast<double>(s.longest_output));
  const bool prefills = input > 0.0 && !s.disaggregated;
  double total_tokens = 0.0;  // one replica's
  double time = 0.0;
  double drain_start = -1.0;
  double steps = 0.0;
  double decoding_steps = 0.0;  // sum over steps of the sequences decoding
  auto charge = [&](double decoding, double context, double prefill, double count) {
    if (count <= 0.0) return;
    time += serving_step(p, e, {decoding, context, prefill, prefill > 0.0 ? input : 0.0})
                .total.value() *
            count;
    steps += count;
    decoding_steps += decoding * count;
  };

  if (!e.continuous_batching) {
    for (std::int64_t first = 0; first < n; first += slots) {
      const std::int64_t size = std::min(slots, n - first);
      std::int64_t longest = 0;
      for (std::int64_t i = first; i < first + size; ++i) {
        const std::int64_t l = benchmark_output_tokens(s, i, scale);
        total_tokens += static_cast<double>(l);
        longest = std::max(longest, l);
      }
      r.longest = std::max(r.longest, longest);
      const auto b = static_cast<double>(size);
      if (first + size >= n && drain_start < 0.0) drain_start = time;
      if (prefills) charge(0.0, 0.0, b * input, 1.0);
      // The prefill yields the first token; the rest are decode steps over contexts from
      // input + 1 to input + longest − 1.
      const auto rest = static_cast<double>(longest - (prefills ? 1 : 0));
      charge(b, input + 1.0 + (rest - 1.0) / 2.0, 0.0, rest);
    }
  } else {
    // Requests decoding, as (last decode step, context after it), the soonest first.
    struct decoding_request {
      double last = 0.0;
      double context = 0.0;
    };
    std::vector<decoding_request> heap;
    heap.reserve(static_cast<std::size_t>(std::min(slots, n)));
    const auto later = [](const decoding_request& a, const decoding_request& b) {
      return a.last > b.last;
    };
    std::int64_t sent = 0;     // requests admitted
    std::int64_t started = 0;  // of them, whose prompts are prefilled
    double prompt_done = 0.0;  // tokens of the oldest waiting prompt already prefilled
    double context_sum = 0.0;  // of the decoding requests
    double t = 0.0;            // the step about to run
    const double budget = static_cast<double>(e.max_step_tokens) *
                          static_cast<double>(d.attention_data);
    auto start = [&](std::int64_t i, double step) {
      // Request i's first token came from its prefill (or, disaggregated, it decodes from here).
      const std::int64_t l = benchmark_output_tokens(s, i, scale);
      total_tokens += static_cast<double>(l);
      r.longest = std::max(r.longest, l);
      const double decode_steps = static_cast<double>(prefills ? l - 1 : l);
      if (decode_steps <= 0.0) return;
      heap.push_back({step + decode_steps - (prefills ? 0.0 : 1.0), input + static_cast<double>(l)});
      std::push_heap(heap.begin(), heap.end(), later);
      context_sum += input + (prefills ? 1.0 : 0.0);
    };
    auto finish_through = [&](double step) {
      while (!heap.empty() && heap.front().last <= step) {
        context_sum -= heap.front().context;
        std::pop_heap(heap.begin(), heap.end(), later);
        heap.pop_back();
      }
    };
    while (sent < n || started < sent || !heap.empty()) {
      const auto busy = static_cast<std::int64_t>(heap.size()) + (sent - started);
      const std::int64_t admit = std::min(n - sent, slots - busy);
      if (admit > 0) sent += admit;
      if (sent == n && drain_start < 0.0) drain_start = time;
      if (!prefills) {
        for (; started < sent; ++started) start(started, t);
        if (heap.empty()) continue;
      }
      const auto b = static_cast<double>(heap.size());
      if (prefills && started < sent) {
        // One step with prefill: the waiting prompts' tokens, within the budget.
        const double waiting = static_cast<double>(sent - started) * input - prompt_done;
        const double room = budget > 0.0 ? std::max(budget - b, 1.0) : waiting;
        // Steps that fill the budget and complete no prompt, before a request finishes: one
        // charge for them all (a prompt far longer than the budget takes many).
        const double head = input - prompt_done;
        double full = static_cast<double>(static_cast<std::int64_t>((head - 1e-9) / room));
        if (!heap.empty()) full = std::min(full, heap.front().last - t + 1.0);
        if (full >= 2.0) {
          charge(b, b > 0.0 ? context_sum / b + (full - 1.0) / 2.0 : 0.0, room, full);
          context_sum += b * full;
          prompt_done += room * full;
          t += full;
          finish_through(t - 1.0);
          continue;
        }
        const double prefill = std::min(waiting, room);
        charge(b, b > 0.0 ? context_sum / b : 0.0, prefill, 1.0);
        context_sum += b;
        finish_through(t);
        prompt_done += prefill;
        while (started < sent && prompt_done >= input - 1e-9) {
          prompt_done -= input;
          start(started++, t);
        }
        t += 1.0;
        continue;
      }
      // Decode only until the next request finishes (nothing can join before then).
      const double k = heap.front().last - t + 1.0;
      charge(b, context_sum / b + (k - 1.0) / 2.0, 0.0, k);
      context_sum += b * k;
      t += k;
      finish_through(t - 1.0);
    }
  }
  r.duration = time * second;
  r.drain = (drain_start >= 0.0 ? time - drain_start : 0.0) * second;
  r.steps = steps;
  r.mean_decoding = steps > 0.0 ? decoding_steps / steps : 0.0;
  // The mesh's requests at the simulated replica's mean (its n is the busiest replica's share).
  r.output_tokens = total_tokens / static_cast<double>(n) * static_cast<double>(s.requests);
  return r;
}

/// Serving at `concurrency` requests in flight on the whole mesh.
/// - Continuous batching: every step decodes each request's next token and prefills, in the
///   same step, the prompts of the requests that replace those that finish: concurrency/output
///   of them a step, so each step carries concurrency·input/output prompt tokens. Contexts are
///   spread evenly between input and input + output, so decode reads caches at the mean
///   context input + output/2. The time per output token is one step.
///   With `disaggregated`, the plan is the decode pool: its steps carry no prompt tokens (the
///   prefill pool's servers per decode server: `prefill_servers_per_decode_server`).
/// - Static batching (`continuous_batching` false, a plain PyTorch loop): a batch prefills its
///   prompts, then decodes output steps; throughput is batch·output over both.
/// Time to first token: unloaded, the prompt's prefill alone; loaded, that plus one step.
/// `engine` replaces the plan's engine figures (to calibrate them; the default is the plan's);
/// memory stays the plan's engine's.
constexpr serving_estimate estimate_serving_at(const serving_plan_values& p,
                                               std::int64_t concurrency,
                                               const engine_figures& engine) {
  const serving_setup& s = p.setup;
  const serving_degrees d = degrees_of(p);
  serving_estimate r;
  r.engine = engine;
  const double input = static_cast<double>(s.prompt_tokens);
  const double output = static_cast<double>(s.generated_tokens);
  r.average_context = input + output / 2.0;
  if (input > 0.0) r.prefill = serving_step(p, r.engine, {0.0, 0.0, input, input});
  r.time_to_first_token = r.prefill.total;
  r.max_concurrency = max_concurrency(p, r.engine);
  r.concurrency = concurrency;
  r.fits = concurrency <= r.max_concurrency;
  const double per_replica = static_cast<double>(concurrency) / static_cast<double>(d.data);
  if (per_replica <= 0.0) return r;
  r.decode_step = serving_step(p, r.engine, {per_replica, r.average_context, 0.0, 0.0});
  double cycle = 0.0;  // seconds per output token of every request in flight
  if (r.engine.continuous_batching) {
    // Each decoding request brings input/output prompt tokens a step with it (none to a
    // disaggregated decode pool, whose prompts are prefilled elsewhere). A step's token budget,
    // each data-parallel-attention rank's own, caps the requests that decode at once.
    const double prompt_per_output = s.disaggregated ? 0.0 : input / output;
    double decoding = per_replica;
    const double budget = static_cast<double>(r.engine.max_step_tokens) *
                          static_cast<double>(d.attention_data);
    if (budget > 0.0 && decoding * (1.0 + prompt_per_output) > budget)
      decoding = std::max(1.0, budget / (1.0 + prompt_per_output));
    const double prompts = decoding * prompt_per_output;
    r.step = serving_step(p, r.engine, {decoding, r.average_context, prompts, input});
    r.prefill_share = prompts / (prompts + decoding);
    r.time_per_output_token = r.step.total * (per_replica / decoding);
    cycle = r.step.total.value() / decoding * per_replica;
  } else {
    r.step = r.decode_step;
    const step_time batch_prefill =
        input > 0.0 ? serving_step(p, r.engine, {0.0, 0.0, per_replica * input, input})
                    : step_time{};
    r.time_per_output_token = r.step.total;
    cycle = r.step.total.value() + batch_prefill.total.value() / output;
  }
  r.loaded_time_to_first_token = r.time_to_first_token + r.step.total;
  if (cycle > 0.0) {
    r.output_tokens_per_second = static_cast<double>(concurrency) / cycle;
    r.requests_per_second = r.output_tokens_per_second / output;
    if (s.requests > 0) {
      r.benchmark = simulate_benchmark(p, r.engine, concurrency);
      if (r.benchmark.duration.value() > 0.0) {
        r.output_tokens_per_second = r.benchmark.output_tokens / r.benchmark.duration.value();
        r.requests_per_second = static_cast<double>(s.requests) / r.benchmark.duration.value();
      }
    }
    r.output_tokens_per_second_per_device =
        r.output_tokens_per_second / static_cast<double>(d.devices);
    r.output_tokens_per_second_per_user = 1.0 / r.time_per_output_token.value();
    r.prefill_servers_per_decode_server = shardplan::prefill_servers_per_decode_server(
        per_replica, output, r.decode_step.total, r.time_to_first_token);
  }
  return r;
}

constexpr serving_estimate estimate_serving_at(const serving_plan_values& p,
                                               std::int64_t concurrency) {
  return estimate_serving_at(p, concurrency, engine_figures_of(p.setup.engine));
}

/// Serving the plan: at its batch, or at the largest concurrency that fits with `max_load`.
constexpr serving_estimate estimate_serving(const serving_plan_values& p) {
  return estimate_serving_at(p, served_concurrency(p));
}

/// The plan with its batch set to the largest concurrency that fits when it serves at
/// `max_load` (at least one); unchanged otherwise. Every other answer (memory, rules, the book's
/// decode step) then reads that batch.
constexpr serving_plan_values with_max_load(serving_plan_values p) {
  p.setup.batch = served_concurrency(p);
  return p;
}

/// What serving costs at the plan's price per chip-hour under the estimate `e` (its throughput
/// and time to first token; inference.hpp's `estimate_cost(p)` is the roofline's).
constexpr serving_cost estimate_cost(const serving_plan_values& p, const serving_estimate& e) {
  return cost_at(p, e.output_tokens_per_second, e.output_tokens_per_second_per_device,
                 e.time_to_first_token, replica_devices(p));
}

/// How far the serving estimate has measured from published runs, per metric
/// (`fitted::serving_error`, hardware/fitted.hpp).
using fitted::serving_error_figures;
inline constexpr serving_error_figures serving_measured_error = fitted::serving_error;

/// The latency-throughput curve of the plan under its workload: one estimate per concurrency
/// 1, 2, 4, ... up to twice the largest that fits (those beyond it do not fit), and the largest
/// itself.
struct latency_curve_point {
  std::int64_t concurrency = 0;
  serving_estimate estimate{};
};
inline constexpr std::size_t max_curve_points = 48;
struct latency_curve {
  std::array<latency_curve_point, max_curve_points> points{};
  std::size_t count = 0;
};

constexpr latency_curve latency_curve_of(const serving_plan_values& p) {
  latency_curve c;
  const serving_degrees d = degrees_of(p);
  const std::int64_t largest = max_concurrency(p);
  const std::int64_t step = d.data > 0 ? d.data : 1;
  const std::int64_t last = largest > 0 ? 2 * largest : 2 * step;
  bool placed_largest = largest <= 0;
  auto add = [&c, &p](std::int64_t n) { c.points[c.count++] = {n, estimate_serving_at(p, n)}; };
  for (std::int64_t n = step; n <= last && c.count + 2 < max_curve_points; n *= 2) {
    if (!placed_largest && largest < n) {
      add(largest);
      placed_largest = true;
    }
    if (n == largest) placed_largest = true;
    add(n);
  }
  if (!placed_largest && c.count < max_curve_points) add(largest);
  return c;
}

}  // namespace shardplan
