// Training plans as types: a mesh of named axes, strategies onto those axes, batch, recomputation
// and precision; `training_plan<...>` turns them into values once and checks them.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <shardplan/training/bounds.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/core/detail/fixed_string.hpp>
#include <shardplan/hardware/system.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/training/plan.hpp>
#include <shardplan/training/precision.hpp>

namespace shardplan {

// --- the mesh ----------------------------------------------------------------------------------

/// Requires an axis to sit within the named level of the system ("node", "ici-x", ...).
template <detail::fixed_string Level>
struct on {
  static constexpr std::string_view level = Level.view();
};

/// A named mesh axis of `Size` devices, optionally `on<"level">`.
template <detail::fixed_string Name, std::int64_t Size, class... Where>
struct axis {
  static_assert(Size > 0, "shardplan: a mesh axis needs at least one device");
  static_assert(sizeof...(Where) <= 1, "shardplan: an axis is placed on at most one level");
  static constexpr mesh_axis value{Name.view(), Size, 0, [] {
                                     if constexpr (sizeof...(Where) == 1)
                                       return (Where::level, ...);
                                     else
                                       return std::string_view{};
                                   }()};
};

/// A device mesh: axes outermost first (the last axis is innermost, on the fastest links).
template <class... Axes>
struct mesh {
  static_assert(sizeof...(Axes) >= 1 && sizeof...(Axes) <= max_mesh_axes,
                "shardplan: a mesh has between 1 and 8 axes");
  static constexpr std::array<mesh_axis, sizeof...(Axes)> axes{Axes::value...};
};

namespace detail {

/// Adds `role` to every axis named `name`; records a name the mesh lacks.
constexpr void add_role(training_plan_values& p, std::string_view name, std::uint8_t role) {
  bool found = false;
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    if (p.axes[i].name == name) {
      p.axes[i].roles = static_cast<std::uint8_t>(p.axes[i].roles | role);
      found = true;
    }
  }
  if (!found && p.unknown_axes++ == 0) p.unknown_axis = name;
}

}  // namespace detail

// --- strategies --------------------------------------------------------------------------------

/// Plain data parallelism over the named axes (replicated model states).
template <detail::fixed_string... Axes>
struct data {
  static constexpr void apply(training_plan_values& p) {
    (detail::add_role(p, Axes.view(), role_data), ...);
  }
};

/// ZeRO stage 1, 2 or 3 (FSDP) over the named data-parallel axes (Rajbhandari et al. 2020).
template <int Stage, detail::fixed_string... Axes>
struct zero {
  static constexpr void apply(training_plan_values& p) {
    p.setup.degrees.zero_stage = Stage;
    (detail::add_role(p, Axes.view(), static_cast<std::uint8_t>(role_data | role_zero)), ...);
  }
};

/// Fully sharded data parallelism: ZeRO-3.
template <detail::fixed_string... Axes>
using fsdp = zero<3, Axes...>;

/// Megatron-LM sequence parallelism on the tensor-parallel axis (Korthikanti et al. 2022).
struct sequence_parallel {};

/// Megatron tensor parallelism on one axis, optionally with `sequence_parallel`.
template <detail::fixed_string Axis, class... Options>
struct tensor {
  static constexpr void apply(training_plan_values& p) {
    detail::add_role(p, Axis.view(), role_tensor);
    p.setup.degrees.sequence_parallel = (std::is_same_v<Options, sequence_parallel> || ...);
  }
};

/// Context parallelism (ring attention, load-balanced: 2·cp chunks per sequence) on one axis.
template <detail::fixed_string Axis>
struct context {
  static constexpr void apply(training_plan_values& p) {
    detail::add_role(p, Axis.view(), role_context);
  }
};

/// Pipeline schedules as types.
namespace schedule {
struct gpipe {
  static constexpr pipeline_schedule kind = pipeline_schedule::gpipe;
  static constexpr std::int64_t virtual_stages = 1;
};
struct one_f_one_b {
  static constexpr pipeline_schedule kind = pipeline_schedule::one_f_one_b;
  static constexpr std::int64_t virtual_stages = 1;
};
template <std::int64_t V>
struct interleaved {
  static_assert(V >= 2, "shardplan: the interleaved schedule needs at least 2 virtual stages");
  static constexpr pipeline_schedule kind = pipeline_schedule::interleaved;
  static constexpr std::int64_t virtual_stages = V;
};
struct zero_bubble {
  static constexpr pipeline_schedule kind = pipeline_schedule::zero_bubble;
  static constexpr std::int64_t virtual_stages = 1;
};
}  // namespace schedule

/// Stages may hold different numbers of layers (the first ceil(L/(p·v)), the rest as even as
/// possible), as Megatron-DeepSpeed's partitioner and LLaMA 3's 126 layers on 16 stages do.
struct uneven_stages {};

/// Pipeline parallelism on one axis with a schedule (1F1B by default), optionally
/// `uneven_stages`.
template <detail::fixed_string Axis, class Schedule = schedule::one_f_one_b, class... Options>
struct pipeline {
  static constexpr void apply(training_plan_values& p) {
    detail::add_role(p, Axis.view(), role_pipeline);
    p.setup.degrees.schedule = Schedule::kind;
    p.setup.degrees.virtual_stages = Schedule::virtual_stages;
    p.setup.degrees.uneven_stages = (std::is_same_v<Options, uneven_stages> || ...);
  }
};

/// Expert parallelism for mixture-of-experts layers on one axis (may be a data axis too).
template <detail::fixed_string Axis>
struct expert {
  static constexpr void apply(training_plan_values& p) {
    detail::add_role(p, Axis.view(), role_expert);
  }
};

// --- batch, recomputation, reserve ---------------------------------------------------------------

template <std::int64_t N>
struct global_tokens {
  static constexpr void apply(batch_settings& b) { b.global_tokens = N; }
};
/// Global batch in sequences; needs `seq_len` too (applied after it).
template <std::int64_t N>
struct global_sequences {
  static constexpr std::int64_t sequences = N;
};
template <std::int64_t N>
struct seq_len {
  static constexpr void apply(batch_settings& b) { b.seq_len = N; }
};
template <std::int64_t N>
struct micro_batch {
  static constexpr void apply(batch_settings& b) { b.micro_batch = N; }
};

/// The step's batch: `global_tokens<N>` or `global_sequences<N>`, `seq_len<S>`, `micro_batch<B>`.
template <class... Parts>
struct batch {
  static constexpr void apply(training_plan_values& p) {
    batch_settings& b = p.setup.batch;
    auto one = [&b]<class Part>(Part*) {
      if constexpr (requires { Part::sequences; }) {
        b.global_tokens = -Part::sequences;  // resolved below once seq_len is known
      } else {
        Part::apply(b);
      }
    };
    (one(static_cast<Parts*>(nullptr)), ...);
    if (b.global_tokens < 0) b.global_tokens = -b.global_tokens * b.seq_len;
  }
};

namespace recompute {
/// Keep every activation, eager attention's score matrices included.
struct none {
  static constexpr void apply(training_plan_values& p) {
    p.setup.recompute = {recompute_kind::none};
  }
};
/// Recompute attention's softmax (Korthikanti et al.; what flash attention keeps).
struct selective {
  static constexpr void apply(training_plan_values& p) {
    p.setup.recompute = {recompute_kind::selective};
  }
};
/// Keep only each layer's input.
struct full {
  static constexpr void apply(training_plan_values& p) {
    p.setup.recompute = {recompute_kind::full};
  }
};
/// Keep N d_model-wide tensors per layer (How to Scale Your Model's "N checkpoints per layer").
template <std::int64_t N>
struct checkpoints {
  static constexpr void apply(training_plan_values& p) {
    p.setup.recompute = {recompute_kind::checkpoints, N};
  }
};
}  // namespace recompute

/// A size in gigabytes (1e9 bytes), as a template argument.
struct gigabytes {
  double value;
};
/// A percentage, as a template argument.
struct percent {
  double value;
};

/// The memory held back per device: `Fixed` plus `Fraction` of everything planned.
template <gigabytes Fixed, percent Fraction = percent{0.0}>
struct reserve {
  static constexpr void apply(training_plan_values& p) {
    p.setup.reserve = {Fixed.value * giga * byte, Fraction.value / 100.0};
  }
};

/// The fraction of peak the chip sustains on matmuls (default: `default_efficiency(chip)`).
template <percent Efficiency>
struct efficiency {
  static_assert(Efficiency.value > 0.0 && Efficiency.value <= 100.0,
                "shardplan: efficiency is a percentage between 0 and 100");
  static constexpr void apply(training_plan_values& p) {
    p.assumptions.efficiency = Efficiency.value / 100.0;
  }
};

/// How the attention products count in FLOPs and MFU (default: causal, half of s x s).
template <attention_flops Convention>
struct attention_counted_as {
  static constexpr void apply(training_plan_values& p) { p.assumptions.attention = Convention; }
};

/// Reduce in the network (SHARP) where the system's switches can.
struct in_network_reduction {
  static constexpr void apply(training_plan_values& p) {
    p.assumptions.in_network_reduction = true;
  }
};

/// Do not overlap data-parallel and context-parallel communication with compute.
struct no_overlap {
  static constexpr void apply(training_plan_values& p) {
    p.assumptions.overlap_data_parallel = false;
    p.assumptions.overlap_context = false;
  }
};

/// Attention without a fused kernel: the s x s scores are materialised, stored without
/// recomputation and read and written by the softmax (Megatron-LM 2021-22, Korthikanti et al.).
/// The default is a flash-attention kernel.
struct eager_attention {
  static constexpr void apply(training_plan_values& p) { p.setup.eager_attention = true; }
};

/// Store dropout masks (as the Megatron-LM GPT recipe and Korthikanti et al. do).
struct with_dropout {
  static constexpr void apply(training_plan_values& p) { p.setup.dropout = true; }
};

// --- the plan ----------------------------------------------------------------------------------

/// A type that can be a plan option: it applies itself to the plan's values, or names a precision.
template <class T>
concept PlanOptionSpec = PrecisionSpec<T> || requires(training_plan_values& p) {
  T::apply(p);
};

namespace detail {

template <class Option>
constexpr void apply_option(training_plan_values& p) {
  if constexpr (PrecisionSpec<Option>) {
    p.setup.precision = Option::policy;
  } else {
    Option::apply(p);
  }
}


}  // namespace detail

/// A training plan. Converts its types to values once (`values`), checks every rule
/// (`violations`), and answers `fits`. Use `SHARDPLAN_REQUIRE_FEASIBLE(plan)` to fail the build
/// with the broken rules and their numbers.
template <ModelSpec Model, SystemSpec System, class Mesh, PlanOptionSpec... Options>
struct training_plan {
  static constexpr training_plan_values values = [] {
    training_plan_values p;
    p.model = checked_shape<Model>();
    p.system = System::figures;
    for (const mesh_axis& a : Mesh::axes) p.axes[p.axis_count++] = a;
    p.setup.precision = precision::bf16_mixed_adam::policy;
    (detail::apply_option<Options>(p), ...);
    return with_degrees(p);
  }();

  static constexpr plan_violations violations = check(values);
  static constexpr bool fits = violations.empty();

  /// Memory per device of the fullest pipeline stage.
  static constexpr memory_breakdown memory_per_device() {
    return shardplan::memory_per_device(values.model, values.setup);
  }

  /// The estimated cost of one step (an estimate: see `estimate_step`).
  static constexpr step_cost step() { return estimate_step(values); }

  /// Each data and tensor axis against its compute-bound threshold.
  static constexpr plan_bounds bounds() { return bounds_of(values); }

  /// Every data and tensor axis is compute-bound.
  static constexpr bool compute_bound = bounds_of(values).compute_bound();
};

// --- diagnostics -------------------------------------------------------------------------------

/// Value traits whose template arguments carry a broken rule's numbers into the diagnostic. A
/// rule the plan keeps passes `plan_checks::kept` as its first number; a broken one passes its
/// numbers, and the trait is false for them.
namespace plan_checks {
// clang-format off
struct unknown_axes { std::int64_t value; };
struct axis_index { std::int64_t value; };
struct devices { std::int64_t value; };
struct chips { std::int64_t value; };
struct tensor_parallel { std::int64_t value; };
struct heads { std::int64_t value; };
struct kv_heads { std::int64_t value; };
struct mlp_width { std::int64_t value; };
struct pipeline_chunks { std::int64_t value; };
struct layers { std::int64_t value; };
struct expert_parallel { std::int64_t value; };
struct experts { std::int64_t value; };
struct tokens { std::int64_t value; };
struct sequence_length { std::int64_t value; };
struct micro_batch_size { std::int64_t value; };
struct replicas_times_micro_batch { std::int64_t value; };
struct sequences { std::int64_t value; };
struct context_chunks { std::int64_t value; };
struct pipeline_stages { std::int64_t value; };
struct micro_batches { std::int64_t value; };
struct zero_stage { std::int64_t value; };
struct gigabytes_needed { std::int64_t value; };
struct gigabytes_of_memory { std::int64_t value; };
// clang-format on

/// The first number of a rule the plan keeps.
inline constexpr std::int64_t kept = -9'000'000'000'000'000'000;

constexpr bool divides(std::int64_t a, std::int64_t b) { return a != 0 && b % a == 0; }

template <unknown_axes N>
struct strategies_name_mesh_axes { static constexpr bool value = N.value == kept; };
template <axis_index I>
struct axis_names_are_unique { static constexpr bool value = I.value == kept; };
template <devices D, chips C>
struct mesh_fits_system { static constexpr bool value = D.value == kept || D.value <= C.value; };
template <axis_index I>
struct axis_carries_a_parallelism { static constexpr bool value = I.value == kept; };
template <axis_index I>
struct axis_roles_are_compatible { static constexpr bool value = I.value == kept; };
template <axis_index I>
struct axis_level_exists { static constexpr bool value = I.value == kept; };
template <axis_index I, chips Spanned, chips LevelHolds>
struct axis_fits_its_level {
  static constexpr bool value = I.value == kept || Spanned.value <= LevelHolds.value;
};
template <tensor_parallel T, heads H>
struct tensor_parallel_divides_heads {
  static constexpr bool value = T.value == kept || divides(T.value, H.value);
};
template <tensor_parallel T, kv_heads K>
struct tensor_parallel_divides_kv_heads {
  static constexpr bool value = T.value == kept || divides(T.value, K.value);
};
template <tensor_parallel T, mlp_width F>
struct tensor_parallel_divides_mlp_width {
  static constexpr bool value = T.value == kept || divides(T.value, F.value);
};
template <pipeline_chunks P, layers L>
struct pipeline_chunks_divide_layers {
  static constexpr bool value = P.value == kept || divides(P.value, L.value);
};
template <expert_parallel E>
struct expert_parallel_needs_experts { static constexpr bool value = E.value == kept; };
template <expert_parallel E, experts N>
struct expert_parallel_divides_experts {
  static constexpr bool value = E.value == kept || divides(E.value, N.value);
};
template <tokens T, sequence_length S, micro_batch_size B>
struct batch_is_given {
  static constexpr bool value = T.value == kept || (T.value > 0 && S.value > 0 && B.value > 0);
};
template <tokens T, sequence_length S>
struct batch_is_whole_sequences {
  static constexpr bool value = T.value == kept || divides(S.value, T.value);
};
template <replicas_times_micro_batch R, sequences S>
struct replicas_divide_batch {
  static constexpr bool value = R.value == kept || divides(R.value, S.value);
};
template <context_chunks C, sequence_length S>
struct context_divides_sequence {
  static constexpr bool value = C.value == kept || divides(C.value, S.value);
};
template <pipeline_stages P, micro_batches M>
struct micro_batches_fill_interleaving {
  static constexpr bool value = P.value == kept || divides(P.value, M.value);
};
template <zero_stage Z>
struct zero_stage_exists {
  static constexpr bool value = Z.value == kept || (Z.value >= 0 && Z.value <= 3);
};
template <gigabytes_needed Needed, gigabytes_of_memory Memory>
struct fits_in_device_memory {
  static constexpr bool value = Needed.value == kept || Needed.value <= Memory.value;
};

/// The first violation of `rule` (all zeros when there is none).
constexpr violation first(const plan_violations& v, plan_rule rule) {
  for (std::size_t i = 0; i < v.count; ++i)
    if (v.items[i].rule == rule) return v.items[i];
  return {};
}

/// A number of the first violation of `rule` as an integer argument, or `kept`.
constexpr std::int64_t number(const plan_violations& v, plan_rule rule, double violation::*field) {
  return v.has(rule) ? static_cast<std::int64_t>(first(v, rule).*field) : kept;
}

/// The index of the axis the first violation of `rule` names, or `kept`.
constexpr std::int64_t axis_of(const training_plan_values& p, const plan_violations& v,
                               plan_rule rule) {
  if (!v.has(rule)) return kept;
  const violation x = first(v, rule);
  for (std::size_t i = p.axis_count; i-- > 0;)  // the last of repeated names is the repeat
    if (p.axes[i].name == x.axis) return static_cast<std::int64_t>(i);
  return -1;
}

/// Whole gigabytes rounded up (needed) or down (available), so the pair still shows the
/// violation and prints without a fraction.
constexpr std::int64_t gigabytes_up(const plan_violations& v) {
  if (!v.has(plan_rule::fits_in_memory)) return kept;
  const double x = first(v, plan_rule::fits_in_memory).a / 1e9;
  const auto i = static_cast<std::int64_t>(x);
  return static_cast<double>(i) < x ? i + 1 : i;
}
constexpr std::int64_t gigabytes_down(const plan_violations& v) {
  return static_cast<std::int64_t>(first(v, plan_rule::fits_in_memory).b / 1e9);
}

}  // namespace plan_checks

/// Fails compilation with every broken rule of `Plan`, each with its numbers. Each rule's
/// static_assert sits in a class of its own so that clang, which stops at the first failed
/// assertion of a class, reports every broken rule.
template <class Plan>
struct require_feasible {
  static constexpr const training_plan_values& p = Plan::values;
  static constexpr const plan_violations& v = Plan::violations;
  using r = plan_rule;
  template <plan_rule R>
  static constexpr std::int64_t a = plan_checks::number(v, R, &violation::a);
  template <plan_rule R>
  static constexpr std::int64_t b = plan_checks::number(v, R, &violation::b);
  template <plan_rule R>
  static constexpr std::int64_t c = plan_checks::number(v, R, &violation::c);
  template <plan_rule R>
  static constexpr std::int64_t ax = plan_checks::axis_of(p, v, R);
  // clang-format off

  // Every axis a strategy names is an axis of the mesh (a typo must not drop a strategy).
  struct rule_1 { static_assert(plan_checks::strategies_name_mesh_axes<
      plan_checks::unknown_axes{a<r::strategy_axes_in_mesh>}>::value,
      "shardplan: a strategy names an axis the mesh does not have"); } rule_1_;
  struct rule_2 { static_assert(plan_checks::axis_names_are_unique<
      plan_checks::axis_index{ax<r::axis_names_unique>}>::value,
      "shardplan: mesh axis names must be unique"); } rule_2_;
  // The mesh must fit on the system's chips.
  struct rule_3 { static_assert(plan_checks::mesh_fits_system<
      plan_checks::devices{a<r::mesh_within_system>},
      plan_checks::chips{b<r::mesh_within_system>}>::value,
      "shardplan: the mesh has more devices than the system"); } rule_3_;
  struct rule_4 { static_assert(plan_checks::axis_carries_a_parallelism<
      plan_checks::axis_index{ax<r::axis_has_a_role>}>::value,
      "shardplan: every mesh axis must carry a parallelism"); } rule_4_;
  struct rule_5 { static_assert(plan_checks::axis_roles_are_compatible<
      plan_checks::axis_index{ax<r::axis_roles_compatible>}>::value,
      "shardplan: tensor, context and pipeline parallelism each need an axis of their own"); } rule_5_;
  struct rule_6 { static_assert(plan_checks::axis_level_exists<
      plan_checks::axis_index{ax<r::required_level_exists>}>::value,
      "shardplan: an axis is placed on a level the system does not have"); } rule_6_;
  struct rule_7 { static_assert(plan_checks::axis_fits_its_level<
      plan_checks::axis_index{ax<r::axis_on_required_level>},
      plan_checks::chips{a<r::axis_on_required_level>},
      plan_checks::chips{b<r::axis_on_required_level>}>::value,
      "shardplan: an axis claims more chips than the level it is placed on holds"); } rule_7_;
  // Megatron tensor parallelism splits whole heads, whole kv heads and the mlp width.
  struct rule_8 { static_assert(plan_checks::tensor_parallel_divides_heads<
      plan_checks::tensor_parallel{a<r::tensor_divides_heads>},
      plan_checks::heads{b<r::tensor_divides_heads>}>::value,
      "shardplan: tensor parallelism must divide the attention heads"); } rule_8_;
  struct rule_9 { static_assert(plan_checks::tensor_parallel_divides_kv_heads<
      plan_checks::tensor_parallel{a<r::tensor_divides_kv_heads>},
      plan_checks::kv_heads{b<r::tensor_divides_kv_heads>}>::value,
      "shardplan: tensor parallelism must divide the kv heads"); } rule_9_;
  struct rule_10 { static_assert(plan_checks::tensor_parallel_divides_mlp_width<
      plan_checks::tensor_parallel{a<r::tensor_divides_d_ff>},
      plan_checks::mlp_width{b<r::tensor_divides_d_ff>}>::value,
      "shardplan: tensor parallelism must divide the mlp width"); } rule_10_;
  struct rule_11 { static_assert(plan_checks::pipeline_chunks_divide_layers<
      plan_checks::pipeline_chunks{a<r::stages_divide_layers>},
      plan_checks::layers{b<r::stages_divide_layers>}>::value,
      "shardplan: pipeline stages times virtual stages must divide the layers"); } rule_11_;
  struct rule_12 { static_assert(plan_checks::expert_parallel_needs_experts<
      plan_checks::expert_parallel{a<r::expert_needs_moe>}>::value,
      "shardplan: expert parallelism needs a mixture-of-experts model"); } rule_12_;
  struct rule_13 { static_assert(plan_checks::expert_parallel_divides_experts<
      plan_checks::expert_parallel{a<r::expert_divides_experts>},
      plan_checks::experts{b<r::expert_divides_experts>}>::value,
      "shardplan: expert parallelism must divide the experts"); } rule_13_;
  struct rule_14 { static_assert(plan_checks::batch_is_given<
      plan_checks::tokens{a<r::batch_given>}, plan_checks::sequence_length{b<r::batch_given>},
      plan_checks::micro_batch_size{c<r::batch_given>}>::value,
      "shardplan: the batch needs positive global tokens, sequence length and micro-batch"); } rule_14_;
  struct rule_15 { static_assert(plan_checks::batch_is_whole_sequences<
      plan_checks::tokens{a<r::tokens_divide_into_sequences>},
      plan_checks::sequence_length{b<r::tokens_divide_into_sequences>}>::value,
      "shardplan: the global batch must be whole sequences"); } rule_15_;
  struct rule_16 { static_assert(plan_checks::replicas_divide_batch<
      plan_checks::replicas_times_micro_batch{a<r::batch_divides>},
      plan_checks::sequences{b<r::batch_divides>}>::value,
      "shardplan: data parallelism times the micro-batch must divide the global batch"); } rule_16_;
  struct rule_17 { static_assert(plan_checks::context_divides_sequence<
      plan_checks::context_chunks{a<r::context_divides_sequence>},
      plan_checks::sequence_length{b<r::context_divides_sequence>}>::value,
      "shardplan: context parallelism must divide the sequence (twice over for a "
      "load-balanced ring)"); } rule_17_;
  struct rule_18 { static_assert(plan_checks::micro_batches_fill_interleaving<
      plan_checks::pipeline_stages{a<r::interleaving_needs_micro_batches>},
      plan_checks::micro_batches{b<r::interleaving_needs_micro_batches>}>::value,
      "shardplan: the interleaved schedule needs micro-batches in multiples of the "
      "pipeline stages"); } rule_18_;
  struct rule_19 { static_assert(plan_checks::zero_stage_exists<
      plan_checks::zero_stage{a<r::zero_stage_valid>}>::value,
      "shardplan: the zero stage must be 0, 1, 2 or 3"); } rule_19_;
  // Everything a device holds must fit in its memory.
  struct rule_20 { static_assert(plan_checks::fits_in_device_memory<
      plan_checks::gigabytes_needed{plan_checks::gigabytes_up(v)},
      plan_checks::gigabytes_of_memory{plan_checks::gigabytes_down(v)}>::value,
      "shardplan: the plan needs more memory per device than the chip has"); } rule_20_;
  // clang-format on
  static constexpr bool value = true;
};

}  // namespace shardplan

/// Fails the build, naming each broken rule with its numbers, unless `Plan` is feasible.
#define SHARDPLAN_REQUIRE_FEASIBLE(...) \
  static_assert(sizeof(::shardplan::require_feasible<__VA_ARGS__>) > 0)
