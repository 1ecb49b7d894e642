// Serving plans as types: a model on a system's mesh, serving strategies onto its axes, weight,
// cache and compute formats, batch, prompt and generated tokens, price. `serving_plan<...>` turns
// them into values once (inference.hpp) and answers fits, max_batch(), decode(), prefill(), cost().
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <shardplan/core/detail/fixed_string.hpp>
#include <shardplan/core/rule.hpp>
#include <shardplan/hardware/system.hpp>
#include <shardplan/hardware/system_rules.hpp>
#include <shardplan/serving/inference.hpp>
#include <shardplan/serving/kv_cache.hpp>
#include <shardplan/serving/workload.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/training/training_plan.hpp>

namespace shardplan {

// --- serving strategies --------------------------------------------------------------------------
// The training strategies keep their meaning in a serving plan and are reused: tensor<"tp">
// (Megatron tensor parallelism, the book's model sharding for generation), expert<"ep">, data<"dp">
// (whole replicas) and context<"sp"> (sequence sharding: a long prompt's tokens in prefill, each
// sequence's cache in decode), as are reserve<...> and in_network_reduction.
// zero<...>/fsdp<...> and pipeline<...> are refused.

namespace detail {

constexpr bool add_role(serving_plan_values& p, std::string_view name, std::uint8_t role) {
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    if (p.axes[i].name == name) {
      p.axes[i].roles = static_cast<std::uint8_t>(p.axes[i].roles | role);
      return true;
    }
  }
  return false;
}

}  // namespace detail

/// Data-parallel attention on one axis (for mixture-of-experts models, usually the expert axis):
/// attention weights replicated, each rank attends for its own share of the batch and holds only
/// its sequences' caches (SGLang's "DP attention", DeepSeek-V3's decode deployment).
template <detail::fixed_string Axis>
struct attention_data {
  static constexpr std::array<std::string_view, 1> axis_names{Axis.view()};
  static constexpr void apply(serving_plan_values& p) {
    detail::add_role(p, Axis.view(), role_attention_data);
  }
};

/// 2D weight-stationary sharding (Pope et al. 2022, "Efficiently Scaling Transformer Inference";
/// How to Scale Your Model inference.md Q7 and Appendix B): weights split over d_model on axis `X`
/// and over d_ff and the heads on axis `YZ`.
template <detail::fixed_string X, detail::fixed_string YZ>
struct weight_stationary_2d {
  static constexpr std::array<std::string_view, 2> axis_names{X.view(), YZ.view()};
  static constexpr void apply(serving_plan_values& p) {
    detail::add_role(p, X.view(),
                     static_cast<std::uint8_t>(role_tensor | role_weight_stationary_x));
    detail::add_role(p, YZ.view(), role_tensor);
  }
};

// --- formats, batch, tokens, price ---------------------------------------------------------------

/// The format the weights are stored in (default bf16): bf16, fp8, int8, int4, fp4.
template <number_format Format>
struct weights {
  static constexpr void apply(serving_plan_values& p) { p.setup.weights = Format; }
};

/// The format of the KV cache (default bf16).
template <number_format Format>
struct kv_cache {
  static constexpr void apply(serving_plan_values& p) { p.setup.kv = Format; }
};

/// The format the matmuls multiply in, and of the activations (default bf16). int8 weights with
/// bf16 compute is the book's default quantised serving.
template <number_format Format>
struct compute_in {
  static constexpr void apply(serving_plan_values& p) { p.setup.compute = Format; }
};

// The options below are checked with the plan's rules (`require_serving_feasible`), not in
// themselves, so that a wrong number gives one error and not the follow-on errors of every use.

/// Sequences decoded together on the whole mesh: at least one.
template <std::int64_t N>
struct serve_batch {
  static constexpr void apply(serving_plan_values& p) { p.setup.batch = N; }
};

/// Prompt tokens per sequence (prefilled, then cached): 0 or more.
template <std::int64_t N>
struct prompt_tokens {
  static constexpr void apply(serving_plan_values& p) { p.setup.prompt_tokens = N; }
};

/// Tokens generated per sequence: at least one.
template <std::int64_t N>
struct generated_tokens {
  static constexpr void apply(serving_plan_values& p) { p.setup.generated_tokens = N; }
};

/// A benchmark of N requests sent at once (vLLM's and SGLang's benchmark scripts with
/// `--num-prompts N --request-rate inf`): the throughput is their output tokens over the time to
/// serve them all, the drain included (`simulate_benchmark`). 0: a steady state (the default).
template <std::size_t N>
struct benchmark_requests {
  static constexpr void apply(serving_plan_values& p) {
    p.setup.requests = static_cast<std::int64_t>(N);
  }
};

/// The engine batches at most N requests at once per scheduler (vLLM's `--max-num-seqs`,
/// TensorRT-LLM's `max_batch_size`, SGLang's `--max-running-requests`) instead of its default;
/// 0 keeps the default.
template <std::size_t N>
struct max_sequences {
  static constexpr void apply(serving_plan_values& p) {
    p.setup.max_sequences = static_cast<std::int64_t>(N);
  }
};

/// 8-bit compute's activation scales: `activation_scales::dynamic_tensor` or `dynamic_row`
/// (torchao's float8 dynamic quantisation, PerTensor or PerRow) instead of static, calibrated
/// scales; each linear layer then runs the scaling kernels (workload.hpp's `serving_step`).
template <activation_scales Scales>
struct activation_scaling {
  static constexpr void apply(serving_plan_values& p) { p.setup.scales = Scales; }
};

/// The benchmark's output lengths spread exponentially about `generated_tokens` (long-tailed,
/// as chat datasets such as ShareGPT are), conditioned on at most `Longest` tokens (0: uncapped;
/// otherwise more than twice the mean, or no capped exponential has that mean).
template <std::size_t Longest = 0>
struct exponential_outputs {
  static constexpr void apply(serving_plan_values& p) {
    p.setup.outputs = output_lengths::exponential;
    p.setup.longest_output = static_cast<std::int64_t>(Longest);
  }
};

/// A price in US dollars per chip-hour, as a template argument.
struct dollars_per_hour {
  double value;
};

/// The price per chip-hour (default: `example_price_per_chip_hour(chip)`): positive.
template <dollars_per_hour Price>
struct price {
  static constexpr dollars_per_hour given_price = Price;  ///< a given 0 is not the default
  static constexpr void apply(serving_plan_values& p) {
    p.setup.dollars_per_chip_hour = Price.value;
  }
};

/// The fraction of peak prefill sustains (default: `default_prefill_efficiency`, one half), in
/// percent: more than 0 and at most 100.
template <percent Efficiency>
struct prefill_efficiency {
  static constexpr percent given_efficiency = Efficiency;  ///< a given 0 is not the default
  static constexpr void apply(serving_plan_values& p) {
    p.setup.prefill_efficiency = Efficiency.value / 100.0;
  }
};

/// The engine whose kernels, overheads and batching the estimate follows (serving/engine.hpp):
/// `engine::vllm`, `engine::tensorrt_llm`, `engine::sglang`, `engine::pytorch` (a plain loop,
/// gpt-fast's), `engine::generic` (the default) or `engine::roofline` (the book's bound).
namespace engine {
template <serving_engine E>
struct named {
  static constexpr void apply(serving_plan_values& p) { p.setup.engine = E; }
};
using generic = named<serving_engine::generic>;
using roofline = named<serving_engine::roofline>;
using pytorch = named<serving_engine::pytorch>;
using vllm = named<serving_engine::vllm>;
using tensorrt_llm = named<serving_engine::tensorrt_llm>;
using sglang = named<serving_engine::sglang>;
}  // namespace engine

/// Serve as many requests at once as the cache holds and the engine batches: the plan's batch
/// becomes that concurrency (`with_max_load`), and `serve_batch` is not needed.
struct max_load {
  static constexpr void apply(serving_plan_values& p) { p.setup.max_load = true; }
};

/// Decode steps launched kernel by kernel instead of replayed as CUDA graphs (vLLM's
/// `--enforce-eager`): `engine_figures::eager_layer_overhead` a layer more each step.
struct no_cuda_graphs {
  static constexpr void apply(serving_plan_values& p) { p.setup.cuda_graphs = false; }
};

/// The plan is the decode pool of disaggregated serving (prefill runs on other servers).
struct disaggregated_decode {
  static constexpr void apply(serving_plan_values& p) { p.setup.disaggregated = true; }
};

/// Tensor ranks beyond the kv heads keep copies of the cache instead of splitting the batch.
struct replicate_kv {
  static constexpr void apply(serving_plan_values& p) { p.setup.replicate_kv = true; }
};

// --- a server on its own ------------------------------------------------------------------------

namespace systems {

/// One chip as a system without a network: a CPU server of hardware/cpu.hpp (its sockets share
/// one DRAM and count as one chip), or a single accelerator. Serve on it with
/// `mesh<axis<"server", 1>>, data<"server">`.
template <ChipSpec Chip>
struct single_server {
  static constexpr system_figures figures = [] {
    system_figures s{};
    s.name = "single server";
    s.chip = Chip::figures;
    s.chips = 1;
    return s;
  }();
};

}  // namespace systems

// --- the plan ------------------------------------------------------------------------------------

namespace detail {

template <class T>
struct is_reserve : std::false_type {};
template <gigabytes Fixed, percent Fraction>
struct is_reserve<shardplan::reserve<Fixed, Fraction>> : std::true_type {};

/// The training strategies a serving plan reuses, and the axes each names.
template <class T>
struct reused_strategy : std::false_type {};
template <fixed_string Axis, class... Options>
struct reused_strategy<shardplan::tensor<Axis, Options...>> : std::true_type {
  static constexpr std::array<std::string_view, 1> axis_names{Axis.view()};
};
template <fixed_string Axis>
struct reused_strategy<shardplan::context<Axis>> : std::true_type {
  static constexpr std::array<std::string_view, 1> axis_names{Axis.view()};
};
template <fixed_string Axis>
struct reused_strategy<shardplan::expert<Axis>> : std::true_type {
  static constexpr std::array<std::string_view, 1> axis_names{Axis.view()};
};
template <fixed_string... Axes>
struct reused_strategy<shardplan::data<Axes...>> : std::true_type {
  static constexpr std::array<std::string_view, sizeof...(Axes)> axis_names{Axes.view()...};
};

/// Training strategies a serving plan refuses.
template <class T>
struct refused_in_serving : std::false_type {};
template <int Stage, fixed_string... Axes>
struct refused_in_serving<shardplan::zero<Stage, Axes...>> : std::true_type {};
template <fixed_string Axis, class Schedule, class... Options>
struct refused_in_serving<shardplan::pipeline<Axis, Schedule, Options...>> : std::true_type {};

template <class T>
concept ServingSettingSpec = requires(serving_plan_values& p) { T::apply(p); };

template <class Option>
constexpr void apply_training_part(training_plan_values& t) {
  if constexpr (reused_strategy<Option>::value || is_reserve<Option>::value) Option::apply(t);
}

template <class Option>
constexpr void apply_serving_part(serving_plan_values& p) {
  if constexpr (std::is_same_v<Option, shardplan::in_network_reduction>)
    p.setup.collectives.in_network_reduction = true;
  else if constexpr (ServingSettingSpec<Option>)
    Option::apply(p);
}

/// Every axis the option names is one of the mesh's.
template <class Mesh, class Option>
constexpr bool names_mesh_axes() {
  auto in_mesh = [](std::string_view name) {
    for (const mesh_axis& a : Mesh::axes)
      if (a.name == name) return true;
    return false;
  };
  if constexpr (reused_strategy<Option>::value) {
    for (std::string_view name : reused_strategy<Option>::axis_names)
      if (!in_mesh(name)) return false;
  } else if constexpr (requires { Option::axis_names; }) {
    for (std::string_view name : Option::axis_names)
      if (!in_mesh(name)) return false;
  }
  return true;
}

/// The settings a serving plan checks itself, because serving_violations has no rule for them
/// (the plan-file reader range-checks its own): the smallest mesh axis, and the price and
/// prefill efficiency as the options gave them (the values cannot tell a given 0 from the
/// default). Settings not given stand at valid values.
struct serving_settings {
  std::int64_t smallest_axis = 1;
  std::string_view smallest_axis_name;
  dollars_per_hour price{1.0};
  percent prefill_efficiency{50.0};
};

template <class Mesh, class... Options>
constexpr serving_settings settings_of() {
  serving_settings g;
  for (const mesh_axis& a : Mesh::axes) {
    if (a.size < g.smallest_axis) {
      g.smallest_axis = a.size;
      g.smallest_axis_name = a.name;
    }
  }
  auto note = [&g]<class Option>(Option*) {
    if constexpr (requires { Option::given_price; }) g.price = Option::given_price;
    if constexpr (requires { Option::given_efficiency; })
      g.prefill_efficiency = Option::given_efficiency;
  };
  (note(static_cast<Options*>(nullptr)), ...);
  return g;
}

/// Whether the settings hold: every axis has a device, the batch a sequence, the prompt no
/// fewer than 0 tokens, generation at least 1, the price is positive and prefill's efficiency a
/// percentage.
constexpr bool settings_hold(const serving_settings& g, const serving_setup& s) {
  return g.smallest_axis >= 1 && s.batch >= 1 && s.prompt_tokens >= 0 &&
         s.generated_tokens >= 1 && g.price.value > 0.0 && g.prefill_efficiency.value > 0.0 &&
         g.prefill_efficiency.value <= 100.0;
}

}  // namespace detail

/// A type that can be a serving-plan option: a serving setting or strategy, or a training option
/// with the same meaning: tensor, expert, data and context strategies, `reserve<...>` and
/// `in_network_reduction` (NVLink SHARP where the system's switches have it).
template <class T>
concept ServingOptionSpec = detail::ServingSettingSpec<T> || detail::reused_strategy<T>::value ||
                            detail::refused_in_serving<T>::value || detail::is_reserve<T>::value ||
                            std::is_same_v<T, in_network_reduction>;

/// A serving plan. Converts its types to values once (`values`), checks every rule (`violations`)
/// and answers questions with inference.hpp's functions. `SHARDPLAN_REQUIRE_SERVABLE(plan)` fails
/// the build with the broken rules and their numbers.
///
///   using plan = serving_plan<models::llama3_70b, systems::tpu_v5e_slice<4, 4>,
///                             mesh<axis<"tp", 16>>, tensor<"tp">,
///                             weights<number_format::int8>, kv_cache<number_format::int8>,
///                             serve_batch<64>, prompt_tokens<6144>, generated_tokens<2048>>;
///   static_assert(plan::fits && plan::memory_bound);
template <ModelSpec Model, SystemSpec System, class Mesh, ServingOptionSpec... Options>
struct serving_plan {
  static constexpr serving_plan_values values = [] {
    training_plan_values t;
    for (const mesh_axis& a : Mesh::axes) t.axes[t.axis_count++] = a;
    t.setup.reserve = default_reserve;
    (detail::apply_training_part<Options>(t), ...);
    serving_plan_values p;
    p.model = checked_shape<Model>();
    p.system = checked_system<System>();
    p.axes = t.axes;
    p.axis_count = t.axis_count;
    p.setup.reserve = t.setup.reserve;
    (detail::apply_serving_part<Options>(p), ...);
    p = with_max_load(p);
    p.unknown_axes = (std::int64_t{0} + ... + (detail::names_mesh_axes<Mesh, Options>() ? 0 : 1));
    // Generation reads every weight every step: gathering them over the network (ZeRO, FSDP)
    // costs orders of magnitude more than reading them from memory (the book: "FSDP is
    // impossible").
    p.refused_strategies =
        (std::int64_t{0} + ... + (detail::refused_in_serving<Options>::value ? 1 : 0));
    return p;
  }();

  /// The settings checked here rather than in `violations` (see `detail::serving_settings`).
  static constexpr detail::serving_settings settings = detail::settings_of<Mesh, Options...>();
  static constexpr bool settings_hold = detail::settings_hold(settings, values.setup);
  /// The rules of `check`; none are checked on a mesh with an axis of no devices (each would
  /// divide by it).
  static constexpr serving_violations violations =
      settings.smallest_axis >= 1 ? check(values) : serving_violations{};
  /// Every rule holds.
  static constexpr bool servable = settings_hold && violations.empty();
  /// The weights and the batch's caches at the full context fit beside the reserve.
  static constexpr bool fits = settings_hold && !violations.has(serving_rule::fits_in_memory);

  static constexpr serving_degrees degrees() { return degrees_of(values); }
  static constexpr bytes kv_bytes_per_token() {
    return shardplan::kv_bytes_per_token(values.model, values.setup.kv);
  }
  /// One sequence's cache at prompt + generated tokens.
  static constexpr bytes kv_bytes_per_sequence() {
    return shardplan::kv_bytes_per_sequence(values.model, values.setup.kv,
                                            context_tokens(values.setup));
  }
  static constexpr kv_split kv_sharding() { return kv_split_of(values); }
  /// Memory of the fullest device.
  static constexpr serving_memory memory() { return memory_of(values); }
  /// The largest batch that fits at the plan's context.
  static constexpr std::int64_t max_batch() { return shardplan::max_batch(values); }
  /// The smallest power-of-two slice of this chip that holds the model and `batch` caches.
  static constexpr std::int64_t smallest_slice() { return shardplan::smallest_slice(values); }
  static constexpr std::int64_t smallest_slice(std::int64_t batch) {
    return shardplan::smallest_slice(values, batch);
  }
  /// The book's decode step (the roofline at the last step, inference.hpp).
  static constexpr decode_cost decode() { return estimate_decode(values); }
  /// Serving as the plan's engine runs it under its workload (workload.hpp): time to first
  /// token, time per output token, throughput per device and per user at its concurrency.
  static constexpr serving_estimate serving() { return estimate_serving(values); }
  static constexpr prefill_cost prefill() { return estimate_prefill(values); }
  static constexpr serving_cost cost() { return estimate_cost(values); }

  /// Decode at this batch reads weights longer than it computes (batch below the critical batch).
  /// (Both false when the settings do not hold.)
  static constexpr bool memory_bound = settings_hold && estimate_decode(values).memory_bound;
  static constexpr bool compute_bound = settings_hold && !estimate_decode(values).memory_bound;
};

// --- diagnostics ---------------------------------------------------------------------------------

/// Value traits whose template arguments carry a serving rule's numbers into the diagnostic, e.g.
/// `fits_in_device_memory<gigabytes_needed{20}, gigabytes_of_memory{16}>`. A rule the plan keeps
/// passes zeros (or -1 for an axis index), for which each trait is true.
namespace serving_checks {
// clang-format off
struct unknown_axes { std::int64_t value; };
struct refused_strategies { std::int64_t value; };
struct devices { std::int64_t value; };
struct chips { std::int64_t value; };
struct axis_index { std::int64_t value; };
struct tensor_parallel { std::int64_t value; };
struct heads { std::int64_t value; };
struct kv_heads { std::int64_t value; };
struct mlp_width { std::int64_t value; };
struct expert_parallel { std::int64_t value; };
struct experts { std::int64_t value; };
struct batch { std::int64_t value; };
struct batch_groups { std::int64_t value; };
struct sequence_shards { std::int64_t value; };
struct context_tokens { std::int64_t value; };
struct compute_format { number_format value; };
struct peak_teraflops { std::int64_t value; };
struct gigabytes_needed { std::int64_t value; };
struct gigabytes_of_memory { std::int64_t value; };
struct batch_per_replica { std::int64_t value; };
struct critical_batch { std::int64_t value; };
struct prompt_length { std::int64_t value; };
struct tokens_generated { std::int64_t value; };
struct longest_output { std::int64_t value; };
// clang-format on

constexpr bool divides(std::int64_t a, std::int64_t b) { return a == 0 || b % a == 0; }

/// A violation's number as an integer template argument.
constexpr std::int64_t whole(double x) { return static_cast<std::int64_t>(x); }

/// Whole units rounded up (a need) or down (a capacity), so that the rounded pair still shows the
/// violation and prints without a fraction.
constexpr std::int64_t whole_up(double x) {
  const auto i = static_cast<std::int64_t>(x);
  return static_cast<double>(i) < x ? i + 1 : i;
}
constexpr std::int64_t whole_down(double x) { return static_cast<std::int64_t>(x); }

template <unknown_axes N>
struct strategies_name_mesh_axes {
  static constexpr bool value = N.value == 0;
};
template <refused_strategies N>
struct strategies_serve {
  static constexpr bool value = N.value == 0;
};
template <devices D, chips C>
struct mesh_fits_system {
  static constexpr bool value = D.value <= C.value;
};
template <axis_index I>
struct axis_carries_a_parallelism {
  static constexpr bool value = I.value < 0;
};
template <tensor_parallel T, heads H>
struct tensor_parallel_divides_heads {
  static constexpr bool value = divides(T.value, H.value);
};
template <tensor_parallel T, kv_heads K>
struct tensor_parallel_fits_kv_heads {
  static constexpr bool value = tensor_fits_kv_heads(T.value, K.value);
};
template <tensor_parallel T, mlp_width F>
struct tensor_parallel_divides_mlp_width {
  static constexpr bool value = divides(T.value, F.value);
};
template <expert_parallel E, experts N>
struct expert_parallel_divides_experts {
  static constexpr bool value = E.value == 0 || (N.value > 0 && N.value % E.value == 0);
};
template <batch_groups G, batch B>
struct batch_splits_into_whole_sequences {
  static constexpr bool value = divides(G.value, B.value);
};
template <sequence_shards S, context_tokens C>
struct sequence_shards_divide_context {
  static constexpr bool value = divides(S.value, C.value);
};
template <compute_format F, peak_teraflops P>
struct chip_computes_in_format {
  static constexpr bool value = P.value > 0;
};
template <gigabytes_needed Needed, gigabytes_of_memory Memory>
struct fits_in_device_memory {
  static constexpr bool value = Needed.value <= Memory.value;
};
template <class Axis, devices D>
struct axis_has_devices {
  static constexpr bool value = D.value >= 1;
};
template <batch B>
struct batch_has_a_sequence {
  static constexpr bool value = B.value >= 1;
};
template <prompt_length P>
struct prompt_not_negative {
  static constexpr bool value = P.value >= 0;
};
template <tokens_generated G>
struct generates_a_token {
  static constexpr bool value = G.value >= 1;
};
template <longest_output L, tokens_generated G>
struct output_cap_above_twice_the_mean {
  static constexpr bool value = L.value == 0 || L.value > 2 * G.value;
};
template <dollars_per_hour P>
struct price_is_positive {
  static constexpr bool value = P.value > 0.0;
};
template <percent E>
struct prefill_efficiency_is_a_percentage {
  static constexpr bool value = E.value > 0.0 && E.value <= 100.0;
};
template <batch_per_replica B, critical_batch C>
struct decode_is_memory_bound {
  static constexpr bool value = B.value < C.value;
};
template <batch_per_replica B, critical_batch C>
struct decode_is_compute_bound {
  static constexpr bool value = B.value >= C.value;
};

/// Index of the axis named in the first violation of `rule`, or -1.
constexpr std::int64_t axis_of(const serving_plan_values& p, const serving_violations& v,
                               serving_rule rule) {
  const serving_violation x = v.first(rule);
  if (x.axis.empty()) return -1;
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].name == x.axis) return static_cast<std::int64_t>(i);
  return -1;
}

}  // namespace serving_checks

namespace serving_rules {
// One class template per rule of a serving plan.
// clang-format off
template <class T> struct axis_has_a_device { SHARDPLAN_RULE(T::value,
    "shardplan: a mesh axis needs at least one device", T); };
template <class T> struct batch_has_a_sequence { SHARDPLAN_RULE(T::value,
    "shardplan: a serving batch has at least one sequence", T); };
template <class T> struct prompt_not_negative { SHARDPLAN_RULE(T::value,
    "shardplan: a prompt has no fewer than zero tokens", T); };
template <class T> struct generates_a_token { SHARDPLAN_RULE(T::value,
    "shardplan: a serving plan generates at least one token", T); };
template <class T> struct output_cap_above_twice_the_mean { SHARDPLAN_RULE(T::value,
    "shardplan: the longest output of an exponential spread exceeds twice its mean", T); };
template <class T> struct price_is_positive { SHARDPLAN_RULE(T::value,
    "shardplan: a price per chip-hour is positive", T); };
template <class T> struct prefill_efficiency_is_a_percentage { SHARDPLAN_RULE(T::value,
    "shardplan: efficiency is a percentage between 0 and 100", T); };
template <class T> struct strategy_axes_in_mesh { SHARDPLAN_RULE(T::value,
    "shardplan: a strategy names an axis the mesh does not have", T); };
template <class T> struct strategies_serve { SHARDPLAN_RULE(T::value,
    "shardplan: a serving plan takes no zero, fsdp or pipeline strategy (generation would "
    "gather the weights every step; pipelines are not modelled)", T); };
template <class T> struct mesh_within_system { SHARDPLAN_RULE(T::value,
    "shardplan: the mesh has more devices than the system", T); };
template <class T> struct axis_has_a_role { SHARDPLAN_RULE(T::value,
    "shardplan: every mesh axis must carry a parallelism", T); };
// Megatron splits whole query heads and the mlp width.
template <class T> struct tensor_divides_heads { SHARDPLAN_RULE(T::value,
    "shardplan: tensor parallelism must divide the attention heads", T); };
// Each rank holds whole kv heads, or a group of ranks shares one (and splits the batch or
// copies the cache).
template <class T> struct tensor_fits_kv_heads { SHARDPLAN_RULE(T::value,
    "shardplan: tensor parallelism must divide the kv heads or be a multiple of them", T); };
template <class T> struct tensor_divides_d_ff { SHARDPLAN_RULE(T::value,
    "shardplan: tensor parallelism must divide the mlp width", T); };
template <class T> struct expert_divides_experts { SHARDPLAN_RULE(T::value,
    "shardplan: expert parallelism must divide the experts of a mixture-of-experts model", T); };
template <class T> struct batch_divides { SHARDPLAN_RULE(T::value,
    "shardplan: the batch must split into whole sequences over replicas, data-parallel "
    "attention and kv batch shards", T); };
template <class T> struct sequence_divides_context { SHARDPLAN_RULE(T::value,
    "shardplan: sequence sharding must divide the context", T); };
template <class T> struct compute_format_supported { SHARDPLAN_RULE(T::value,
    "shardplan: the chip has no matrix units for the compute format", T); };
// The weights and the caches of the whole batch at prompt + generated tokens, plus the reserve.
template <class T> struct fits_in_memory { SHARDPLAN_RULE(T::value,
    "shardplan: the weights and the kv cache of the batch do not fit in device memory", T); };
template <class T> struct decode_memory_bound { SHARDPLAN_RULE(T::value,
    "shardplan: decode at this batch is not memory-bound: the batch reaches the "
    "critical batch", T); };
template <class T> struct decode_compute_bound { SHARDPLAN_RULE(T::value,
    "shardplan: decode at this batch is not compute-bound: the batch is below the "
    "critical batch", T); };
// clang-format on
}  // namespace serving_rules

/// Each rule of a serving plan as its `serving_rules` class with its numbers (instantiating one
/// checks it); `SHARDPLAN_REQUIRE_SERVABLE` instantiates them all where it is used, so a broken
/// rule is reported once with its trait and numbers and never with the plan's type.
template <class Plan>
struct require_serving_feasible {
  static constexpr const serving_plan_values& p = Plan::values;
  static constexpr const serving_violations& v = Plan::violations;
  static constexpr const detail::serving_settings& g = Plan::settings;
  template <serving_rule R>
  static constexpr serving_violation x = v.first(R);
  using r = serving_rule;
  struct smallest_axis_name {
    static constexpr std::string_view value = g.smallest_axis_name;
  };
  // The settings, then the rules of `check`.
  using axis_has_a_device = serving_rules::axis_has_a_device<serving_checks::axis_has_devices<
      typename detail::spelled<smallest_axis_name, plan_checks::axis_name>::type,
      serving_checks::devices{g.smallest_axis}>>;
  using batch_has_a_sequence = serving_rules::batch_has_a_sequence<
      serving_checks::batch_has_a_sequence<serving_checks::batch{p.setup.batch}>>;
  using prompt_not_negative = serving_rules::prompt_not_negative<
      serving_checks::prompt_not_negative<serving_checks::prompt_length{p.setup.prompt_tokens}>>;
  using generates_a_token = serving_rules::generates_a_token<serving_checks::generates_a_token<
      serving_checks::tokens_generated{p.setup.generated_tokens}>>;
  // A cap at or below twice the mean leaves no capped exponential with that mean.
  using output_cap_above_twice_the_mean = serving_rules::output_cap_above_twice_the_mean<
      serving_checks::output_cap_above_twice_the_mean<
          serving_checks::longest_output{p.setup.outputs == output_lengths::exponential
                                             ? p.setup.longest_output
                                             : 0},
          serving_checks::tokens_generated{p.setup.generated_tokens}>>;
  using price_is_positive =
      serving_rules::price_is_positive<serving_checks::price_is_positive<g.price>>;
  using prefill_efficiency_is_a_percentage = serving_rules::prefill_efficiency_is_a_percentage<
      serving_checks::prefill_efficiency_is_a_percentage<g.prefill_efficiency>>;
  using strategy_axes_in_mesh =
      serving_rules::strategy_axes_in_mesh<serving_checks::strategies_name_mesh_axes<
          serving_checks::unknown_axes{serving_checks::whole(x<r::strategy_axes_in_mesh>.a)}>>;
  using strategies_serve = serving_rules::strategies_serve<serving_checks::strategies_serve<
      serving_checks::refused_strategies{serving_checks::whole(x<r::strategies_serve>.a)}>>;
  using mesh_within_system = serving_rules::mesh_within_system<serving_checks::mesh_fits_system<
      serving_checks::devices{serving_checks::whole(x<r::mesh_within_system>.a)},
      serving_checks::chips{serving_checks::whole(x<r::mesh_within_system>.b)}>>;
  using axis_has_a_role = serving_rules::axis_has_a_role<serving_checks::axis_carries_a_parallelism<
      serving_checks::axis_index{serving_checks::axis_of(p, v, r::axis_has_a_role)}>>;
  using tensor_divides_heads =
      serving_rules::tensor_divides_heads<serving_checks::tensor_parallel_divides_heads<
          serving_checks::tensor_parallel{serving_checks::whole(x<r::tensor_divides_heads>.a)},
          serving_checks::heads{serving_checks::whole(x<r::tensor_divides_heads>.b)}>>;
  using tensor_fits_kv_heads =
      serving_rules::tensor_fits_kv_heads<serving_checks::tensor_parallel_fits_kv_heads<
          serving_checks::tensor_parallel{serving_checks::whole(x<r::tensor_fits_kv_heads>.a)},
          serving_checks::kv_heads{serving_checks::whole(x<r::tensor_fits_kv_heads>.b)}>>;
  using tensor_divides_d_ff =
      serving_rules::tensor_divides_d_ff<serving_checks::tensor_parallel_divides_mlp_width<
          serving_checks::tensor_parallel{serving_checks::whole(x<r::tensor_divides_d_ff>.a)},
          serving_checks::mlp_width{serving_checks::whole(x<r::tensor_divides_d_ff>.b)}>>;
  using expert_divides_experts =
      serving_rules::expert_divides_experts<serving_checks::expert_parallel_divides_experts<
          serving_checks::expert_parallel{serving_checks::whole(x<r::expert_divides_experts>.a)},
          serving_checks::experts{serving_checks::whole(x<r::expert_divides_experts>.b)}>>;
  using batch_divides =
      serving_rules::batch_divides<serving_checks::batch_splits_into_whole_sequences<
          serving_checks::batch_groups{serving_checks::whole(x<r::batch_divides>.a)},
          serving_checks::batch{serving_checks::whole(x<r::batch_divides>.b)}>>;
  using sequence_divides_context =
      serving_rules::sequence_divides_context<serving_checks::sequence_shards_divide_context<
          serving_checks::sequence_shards{serving_checks::whole(x<r::sequence_divides_context>.a)},
          serving_checks::context_tokens{serving_checks::whole(x<r::sequence_divides_context>.b)}>>;
  using compute_format_supported =
      serving_rules::compute_format_supported<serving_checks::chip_computes_in_format<
          serving_checks::compute_format{p.setup.compute},
          serving_checks::peak_teraflops{
              serving_checks::whole_up(peak(p.system.chip, p.setup.compute).value() / 1e12)}>>;
  using fits_in_memory = serving_rules::fits_in_memory<serving_checks::fits_in_device_memory<
      serving_checks::gigabytes_needed{serving_checks::whole_up(x<r::fits_in_memory>.a / 1e9)},
      serving_checks::gigabytes_of_memory{
          serving_checks::whole_down(x<r::fits_in_memory>.b / 1e9)}>>;
  static constexpr bool value = true;
};

/// Fails compilation unless decode at the plan's batch is memory-bound (below the critical batch).
template <class Plan>
struct require_decode_memory_bound {
  static constexpr decode_cost c = Plan::decode();
  using decode_memory_bound =
      serving_rules::decode_memory_bound<serving_checks::decode_is_memory_bound<
          serving_checks::batch_per_replica{serving_checks::whole(c.batch_per_replica)},
          serving_checks::critical_batch{serving_checks::whole(c.critical_batch)}>>;
  static constexpr bool value = true;
};

/// Fails compilation unless decode at the plan's batch is compute-bound (at the critical batch or
/// above).
template <class Plan>
struct require_decode_compute_bound {
  static constexpr decode_cost c = Plan::decode();
  using decode_compute_bound =
      serving_rules::decode_compute_bound<serving_checks::decode_is_compute_bound<
          serving_checks::batch_per_replica{serving_checks::whole(c.batch_per_replica)},
          serving_checks::critical_batch{serving_checks::whole(c.critical_batch)}>>;
  static constexpr bool value = true;
};

}  // namespace shardplan

/// Fails the build, naming each broken rule with its numbers, unless the serving plan is servable.
#define SHARDPLAN_REQUIRE_SERVABLE(...) \
  static_assert( \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::axis_has_a_device) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::batch_has_a_sequence) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::prompt_not_negative) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::generates_a_token) + \
  sizeof(typename ::shardplan::require_serving_feasible<                 \
         __VA_ARGS__>::output_cap_above_twice_the_mean) +                 \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::price_is_positive) + \
  sizeof(typename ::shardplan::require_serving_feasible<                 \
         __VA_ARGS__>::prefill_efficiency_is_a_percentage) +              \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::strategy_axes_in_mesh) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::strategies_serve) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::mesh_within_system) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::axis_has_a_role) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::tensor_divides_heads) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::tensor_fits_kv_heads) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::tensor_divides_d_ff) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::expert_divides_experts) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::batch_divides) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::sequence_divides_context) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::compute_format_supported) + \
  sizeof(typename ::shardplan::require_serving_feasible<__VA_ARGS__>::fits_in_memory) > 0)

/// Fails the build unless decode at the plan's batch is memory-bound.
#define SHARDPLAN_REQUIRE_MEMORY_BOUND(...) \
  static_assert( \
  sizeof(typename ::shardplan::require_decode_memory_bound<__VA_ARGS__>::decode_memory_bound) > 0)

/// Fails the build unless decode at the plan's batch is compute-bound.
#define SHARDPLAN_REQUIRE_COMPUTE_BOUND(...) \
  static_assert( \
  sizeof(typename ::shardplan::require_decode_compute_bound<__VA_ARGS__>::decode_compute_bound) > 0)
