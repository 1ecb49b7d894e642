// Training plans as types: a mesh of named axes, strategies onto those axes, batch, recomputation
// and precision; `training_plan<...>` turns them into values once and checks them.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "bounds.hpp"
#include "cost.hpp"
#include "detail/fixed_string.hpp"
#include "hardware/system.hpp"
#include "models/parameters.hpp"
#include "plan.hpp"
#include "precision.hpp"

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

constexpr bool add_role(training_plan_values& p, std::string_view name, std::uint8_t role) {
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    if (p.axes[i].name == name) {
      p.axes[i].roles = static_cast<std::uint8_t>(p.axes[i].roles | role);
      return true;
    }
  }
  return false;
}

template <class Mesh>
constexpr bool mesh_has_axis(std::string_view name) {
  for (const mesh_axis& a : Mesh::axes)
    if (a.name == name) return true;
  return false;
}

}  // namespace detail

// --- strategies --------------------------------------------------------------------------------

/// Plain data parallelism over the named axes (replicated model states).
template <detail::fixed_string... Axes>
struct data {
  static constexpr std::array<std::string_view, sizeof...(Axes)> axis_names{Axes.view()...};
  static constexpr void apply(training_plan_values& p) {
    (detail::add_role(p, Axes.view(), role_data), ...);
  }
};

/// ZeRO stage 1, 2 or 3 (FSDP) over the named data-parallel axes (Rajbhandari et al. 2020).
template <int Stage, detail::fixed_string... Axes>
struct zero {
  static constexpr std::array<std::string_view, sizeof...(Axes)> axis_names{Axes.view()...};
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
  static constexpr std::array<std::string_view, 1> axis_names{Axis.view()};
  static constexpr void apply(training_plan_values& p) {
    detail::add_role(p, Axis.view(), role_tensor);
    p.setup.degrees.sequence_parallel = (std::is_same_v<Options, sequence_parallel> || ...);
  }
};

/// Context parallelism (ring attention, load-balanced: 2·cp chunks per sequence) on one axis.
template <detail::fixed_string Axis>
struct context {
  static constexpr std::array<std::string_view, 1> axis_names{Axis.view()};
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

/// Pipeline parallelism on one axis with a schedule (1F1B by default).
template <detail::fixed_string Axis, class Schedule = schedule::one_f_one_b>
struct pipeline {
  static constexpr std::array<std::string_view, 1> axis_names{Axis.view()};
  static constexpr void apply(training_plan_values& p) {
    detail::add_role(p, Axis.view(), role_pipeline);
    p.setup.degrees.schedule = Schedule::kind;
    p.setup.degrees.virtual_stages = Schedule::virtual_stages;
  }
};

/// Expert parallelism for mixture-of-experts layers on one axis (may be a data axis too).
template <detail::fixed_string Axis>
struct expert {
  static constexpr std::array<std::string_view, 1> axis_names{Axis.view()};
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

template <class Mesh, class Option>
constexpr bool option_axes_in_mesh() {
  if constexpr (requires { Option::axis_names; }) {
    for (std::string_view name : Option::axis_names)
      if (!mesh_has_axis<Mesh>(name)) return false;
  }
  return true;
}

}  // namespace detail

/// A training plan. Converts its types to values once (`values`), checks every rule
/// (`violations`), and answers `fits`. Use `SHARDPLAN_REQUIRE_FEASIBLE(plan)` to fail the build
/// with the broken rules and their numbers.
template <ModelSpec Model, SystemSpec System, class Mesh, PlanOptionSpec... Options>
struct training_plan {
  static_assert((detail::option_axes_in_mesh<Mesh, Options>() && ...),
                "shardplan: a strategy names an axis the mesh does not have");

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

/// Value traits whose template arguments carry a broken rule's numbers into the diagnostic; each
/// is true when the rule holds (or is not the one broken).
namespace plan_checks {
// clang-format off
struct devices { std::int64_t value; };
struct chips { std::int64_t value; };
struct axis_index { std::int64_t value; };
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
struct replicas_times_micro_batch { std::int64_t value; };
struct sequences { std::int64_t value; };
struct context_chunks { std::int64_t value; };
struct pipeline_stages { std::int64_t value; };
struct micro_batches { std::int64_t value; };
struct zero_stage { std::int64_t value; };
// clang-format on

struct gigabytes_needed {
  std::int64_t value;
};
struct gigabytes_of_memory {
  std::int64_t value;
};

constexpr bool divides(std::int64_t a, std::int64_t b) { return a == 0 || b % a == 0; }

/// A violation's number as an integer template argument.
constexpr std::int64_t whole(double x) { return static_cast<std::int64_t>(x); }

template <devices D, chips C>
struct mesh_fits_system {
  static constexpr bool value = D.value <= C.value;
};
template <axis_index I>
struct axis_carries_a_parallelism {
  static constexpr bool value = I.value < 0;
};
template <axis_index I>
struct axis_roles_are_compatible {
  static constexpr bool value = I.value < 0;
};
template <axis_index I, chips Spanned, chips LevelHolds>
struct axis_fits_its_level {
  static constexpr bool value = Spanned.value <= LevelHolds.value;
};
template <tensor_parallel T, heads H>
struct tensor_parallel_divides_heads {
  static constexpr bool value = divides(T.value, H.value);
};
template <tensor_parallel T, kv_heads K>
struct tensor_parallel_divides_kv_heads {
  static constexpr bool value = divides(T.value, K.value);
};
template <tensor_parallel T, mlp_width F>
struct tensor_parallel_divides_mlp_width {
  static constexpr bool value = divides(T.value, F.value);
};
template <pipeline_chunks P, layers L>
struct pipeline_chunks_divide_layers {
  static constexpr bool value = divides(P.value, L.value);
};
template <expert_parallel E>
struct expert_parallel_needs_experts {
  static constexpr bool value = E.value == 0;
};
template <expert_parallel E, experts N>
struct expert_parallel_divides_experts {
  static constexpr bool value = divides(E.value, N.value);
};
template <tokens T, sequence_length S>
struct batch_is_whole_sequences {
  static constexpr bool value = S.value > 0 ? divides(S.value, T.value) : T.value == 0;
};
template <replicas_times_micro_batch R, sequences S>
struct replicas_divide_batch {
  static constexpr bool value = divides(R.value, S.value);
};
template <context_chunks C, sequence_length S>
struct context_divides_sequence {
  static constexpr bool value = divides(C.value, S.value);
};
template <pipeline_stages P, micro_batches M>
struct micro_batches_fill_interleaving {
  static constexpr bool value = divides(P.value, M.value);
};
template <zero_stage Z>
struct zero_stage_exists {
  static constexpr bool value = Z.value >= 0 && Z.value <= 3;
};
template <gigabytes_needed Needed, gigabytes_of_memory Memory>
struct fits_in_device_memory {
  static constexpr bool value = Needed.value <= Memory.value;
};

/// The first violation of `rule`, or all zeros.
constexpr violation first(const plan_violations& v, plan_rule rule) {
  for (std::size_t i = 0; i < v.count; ++i)
    if (v.items[i].rule == rule) return v.items[i];
  return {};
}

/// Index of the first axis breaking `rule`, or -1.
constexpr std::int64_t axis_of(const training_plan_values& p, const plan_violations& v,
                               plan_rule rule) {
  const violation x = first(v, rule);
  if (x.axis.empty()) return -1;
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].name == x.axis) return static_cast<std::int64_t>(i);
  return -1;
}

/// Whole gigabytes rounded up (needed) or down (available), so that the rounded pair still
/// shows the violation and prints without a fraction.
constexpr std::int64_t gigabytes_up(double b) {
  const double x = b / 1e9;
  const auto i = static_cast<std::int64_t>(x);
  return static_cast<double>(i) < x ? i + 1 : i;
}
constexpr std::int64_t gigabytes_down(double b) { return static_cast<std::int64_t>(b / 1e9); }

}  // namespace plan_checks

/// Fails compilation with every broken rule of `Plan`, each with its numbers. Each rule's
/// static_assert sits in a class of its own so that clang, which stops at the first failed
/// assertion of a class, reports every broken rule.
template <class Plan>
struct require_feasible {
  static constexpr const training_plan_values& p = Plan::values;
  static constexpr const plan_violations& v = Plan::violations;
  template <plan_rule R>
  static constexpr violation x = plan_checks::first(v, R);
  template <plan_rule R>
  static constexpr std::int64_t ax = plan_checks::axis_of(p, v, R);
  using r = plan_rule;

  // The mesh must fit on the system's chips.
  struct rule_1 {
    static_assert(plan_checks::mesh_fits_system<
                      plan_checks::devices{plan_checks::whole(x<r::mesh_within_system>.a)},
                      plan_checks::chips{plan_checks::whole(x<r::mesh_within_system>.b)}>::value,
                  "shardplan: the mesh has more devices than the system");
  } rule_1_;
  struct rule_2 {
    static_assert(plan_checks::axis_carries_a_parallelism<plan_checks::axis_index{
                      ax<r::axis_has_a_role>}>::value,
                  "shardplan: every mesh axis must carry a parallelism");
  } rule_2_;
  struct rule_3 {
    static_assert(
        plan_checks::axis_roles_are_compatible<plan_checks::axis_index{
            ax<r::axis_roles_compatible>}>::value,
        "shardplan: tensor, context and pipeline parallelism each need an axis of their own");
  } rule_3_;
  struct rule_4 {
    static_assert(
        plan_checks::axis_fits_its_level<
            plan_checks::axis_index{ax<r::axis_on_required_level>},
            plan_checks::chips{plan_checks::whole(x<r::axis_on_required_level>.a)},
            plan_checks::chips{plan_checks::whole(x<r::axis_on_required_level>.b)}>::value,
        "shardplan: an axis claims more chips than the level it is placed on holds");
  } rule_4_;
  // Megatron tensor parallelism splits whole heads, whole kv heads and the mlp width.
  struct rule_5 {
    static_assert(
        plan_checks::tensor_parallel_divides_heads<
            plan_checks::tensor_parallel{plan_checks::whole(x<r::tensor_divides_heads>.a)},
            plan_checks::heads{plan_checks::whole(x<r::tensor_divides_heads>.b)}>::value,
        "shardplan: tensor parallelism must divide the attention heads");
  } rule_5_;
  struct rule_6 {
    static_assert(
        plan_checks::tensor_parallel_divides_kv_heads<
            plan_checks::tensor_parallel{plan_checks::whole(x<r::tensor_divides_kv_heads>.a)},
            plan_checks::kv_heads{plan_checks::whole(x<r::tensor_divides_kv_heads>.b)}>::value,
        "shardplan: tensor parallelism must divide the kv heads");
  } rule_6_;
  struct rule_7 {
    static_assert(
        plan_checks::tensor_parallel_divides_mlp_width<
            plan_checks::tensor_parallel{plan_checks::whole(x<r::tensor_divides_d_ff>.a)},
            plan_checks::mlp_width{plan_checks::whole(x<r::tensor_divides_d_ff>.b)}>::value,
        "shardplan: tensor parallelism must divide the mlp width");
  } rule_7_;
  struct rule_8 {
    static_assert(
        plan_checks::pipeline_chunks_divide_layers<
            plan_checks::pipeline_chunks{plan_checks::whole(x<r::stages_divide_layers>.a)},
            plan_checks::layers{plan_checks::whole(x<r::stages_divide_layers>.b)}>::value,
        "shardplan: pipeline stages times virtual stages must divide the layers");
  } rule_8_;
  struct rule_9 {
    static_assert(plan_checks::expert_parallel_needs_experts<plan_checks::expert_parallel{
                      plan_checks::whole(x<r::expert_needs_moe>.a)}>::value,
                  "shardplan: expert parallelism needs a mixture-of-experts model");
  } rule_9_;
  struct rule_10 {
    static_assert(
        plan_checks::expert_parallel_divides_experts<
            plan_checks::expert_parallel{plan_checks::whole(x<r::expert_divides_experts>.a)},
            plan_checks::experts{plan_checks::whole(x<r::expert_divides_experts>.b)}>::value,
        "shardplan: expert parallelism must divide the experts");
  } rule_10_;
  struct rule_11 {
    static_assert(plan_checks::batch_is_whole_sequences<
                      plan_checks::tokens{plan_checks::whole(x<r::tokens_divide_into_sequences>.a)},
                      plan_checks::sequence_length{
                          plan_checks::whole(x<r::tokens_divide_into_sequences>.b)}>::value,
                  "shardplan: the global batch must be whole sequences");
  } rule_11_;
  struct rule_12 {
    static_assert(
        plan_checks::replicas_divide_batch<
            plan_checks::replicas_times_micro_batch{plan_checks::whole(x<r::batch_divides>.a)},
            plan_checks::sequences{plan_checks::whole(x<r::batch_divides>.b)}>::value,
        "shardplan: data parallelism times the micro-batch must divide the global batch");
  } rule_12_;
  struct rule_13 {
    static_assert(
        plan_checks::context_divides_sequence<
            plan_checks::context_chunks{plan_checks::whole(x<r::context_divides_sequence>.a)},
            plan_checks::sequence_length{
                plan_checks::whole(x<r::context_divides_sequence>.b)}>::value,
        "shardplan: context parallelism must divide the sequence (twice over for a "
        "load-balanced ring)");
  } rule_13_;
  struct rule_14 {
    static_assert(plan_checks::micro_batches_fill_interleaving<
                      plan_checks::pipeline_stages{
                          plan_checks::whole(x<r::interleaving_needs_micro_batches>.a)},
                      plan_checks::micro_batches{
                          plan_checks::whole(x<r::interleaving_needs_micro_batches>.b)}>::value,
                  "shardplan: the interleaved schedule needs micro-batches in multiples of the "
                  "pipeline stages");
  } rule_14_;
  struct rule_15 {
    static_assert(plan_checks::zero_stage_exists<plan_checks::zero_stage{
                      plan_checks::whole(x<r::zero_stage_valid>.a)}>::value,
                  "shardplan: the zero stage must be 0, 1, 2 or 3");
  } rule_15_;
  // Everything a device holds must fit in its memory.
  struct rule_16 {
    static_assert(
        plan_checks::fits_in_device_memory<
            plan_checks::gigabytes_needed{plan_checks::gigabytes_up(x<r::fits_in_memory>.a)},
            plan_checks::gigabytes_of_memory{
                plan_checks::gigabytes_down(x<r::fits_in_memory>.b)}>::value,
        "shardplan: the plan needs more memory per device than the chip has");
  } rule_16_;
  static constexpr bool value = true;
};

}  // namespace shardplan

/// Fails the build, naming each broken rule with its numbers, unless `Plan` is feasible.
#define SHARDPLAN_REQUIRE_FEASIBLE(...) \
  static_assert(sizeof(::shardplan::require_feasible<__VA_ARGS__>) > 0)
