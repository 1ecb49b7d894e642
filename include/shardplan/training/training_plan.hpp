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
#include <shardplan/core/rule.hpp>
#include <shardplan/hardware/system.hpp>
#include <shardplan/hardware/system_rules.hpp>
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

/// A named mesh axis of `Size` devices (at least 1, checked with the plan's rules), optionally
/// `on<"level">`.
template <detail::fixed_string Name, std::int64_t Size, class... Where>
struct axis {
  SHARDPLAN_RULE(sizeof...(Where) <= 1, "shardplan: an axis is placed on at most one level",
                 given<sizeof...(Where)>);
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
  SHARDPLAN_RULE(sizeof...(Axes) >= 1 && sizeof...(Axes) <= max_mesh_axes,
                 "shardplan: a mesh has between 1 and 8 axes", given<sizeof...(Axes)>);
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
/// Interleaved 1F1B with V >= 2 virtual stages per device (checked with the plan's rules, so that
/// a wrong V gives one error, `virtual_stages_suit_schedule`).
template <std::int64_t V>
struct interleaved {
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

/// The first pipeline stage holds `First` layers and the last `Last` (0: its share of the
/// split), the stages between them the rest (Megatron-Core's `--decoder-first-pipeline-num-layers`
/// and `--decoder-last-pipeline-num-layers`; `layers_on_stage`).
template <std::int64_t First, std::int64_t Last = 0>
struct stage_ends {
  SHARDPLAN_RULE(First >= 0 && Last >= 0, "shardplan: stage_ends counts layers, 0 or more",
                 given<First, Last>);
  static constexpr std::int64_t first = First;
  static constexpr std::int64_t last = Last;
};

namespace detail {
template <class T>
struct is_stage_ends : std::false_type {};
template <std::int64_t F, std::int64_t L>
struct is_stage_ends<stage_ends<F, L>> : std::true_type {};
}  // namespace detail

/// Pipeline parallelism on one axis with a schedule (1F1B by default), optionally
/// `uneven_stages` and `stage_ends<First, Last>`.
template <detail::fixed_string Axis, class Schedule = schedule::one_f_one_b, class... Options>
struct pipeline {
  static constexpr void apply(training_plan_values& p) {
    detail::add_role(p, Axis.view(), role_pipeline);
    p.setup.degrees.schedule = Schedule::kind;
    p.setup.degrees.virtual_stages = Schedule::virtual_stages;
    p.setup.degrees.uneven_stages = (std::is_same_v<Options, uneven_stages> || ...);
    (
        [&] {
          if constexpr (detail::is_stage_ends<Options>::value) {
            p.setup.degrees.first_stage_layers = Options::first;
            p.setup.degrees.last_stage_layers = Options::last;
          }
        }(),
        ...);
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
    auto one = [&p, &b]<class Part>(Part*) {
      if constexpr (requires { Part::sequences; }) {
        p.global_sequences = Part::sequences;  // resolved below once seq_len is known
      } else {
        Part::apply(b);
      }
    };
    (one(static_cast<Parts*>(nullptr)), ...);
    // Saturates where it would overflow; `check` then reports `sizes_fit_in_64_bits`.
    if (p.global_sequences != 0)
      b.global_tokens = saturating_product(p.global_sequences, b.seq_len);
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
/// Recompute each dense layer's MLP from its input (Megatron-Core's `--recompute-modules mlp`).
struct mlp {
  static constexpr void apply(training_plan_values& p) {
    p.setup.recompute = {recompute_kind::mlp};
  }
};
/// Recompute the named submodules (Megatron-Core's `--recompute-granularity selective
/// --recompute-modules ...`): `recompute::modules<recompute_module::mlp,
/// recompute_module::moe_act>`.
template <recompute_module... M>
struct modules {
  SHARDPLAN_RULE(sizeof...(M) > 0, "shardplan: recompute::modules names at least one module",
                 given<sizeof...(M)>);
  static constexpr void apply(training_plan_values& p) {
    p.setup.recompute = {recompute_kind::selective, 0,
                         static_cast<recompute_module_set>((module_bit(M) | ...))};
  }
};
/// Keep the named tensors `Saved` on the device and `Offloaded` in host memory (sets of
/// `tensor_bit(layer_tensor::...)`), recompute the rest: JAX's checkpoint policies by name.
template <recompute_module_set Saved, recompute_module_set Offloaded = 0>
struct named {
  static constexpr void apply(training_plan_values& p) {
    p.setup.recompute = {recompute_kind::named, 0, 0, Saved, Offloaded};
  }
};
/// MaxText's `remat_policy` by name (`maxtext_remat_policies`): `recompute::maxtext<
/// "qkv_proj_offloaded">`.
template <detail::fixed_string Name>
struct maxtext {
  SHARDPLAN_RULE(maxtext_remat_policy(Name.view()) != nullptr,
                 "shardplan: recompute::maxtext names one of the remat policies of MaxText "
                 "(maxtext_remat_policies)",
                 given<Name>);
  static constexpr void apply(training_plan_values& p) {
    p.setup.recompute = policy_of(*maxtext_remat_policy(Name.view()));
  }
};
/// Keep N >= 1 d_model-wide tensors per layer (How to Scale Your Model's "N checkpoints per
/// layer"); `check` reports `checkpoints_at_least_one` for fewer.
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

/// The memory held back per device: `Fixed` plus `Fraction` of everything planned. It sets the
/// plan's memory policy to `training_memory_policy::reserve`, so that it is charged under every
/// framework (instead of a named framework's transients); a `memory_policy::...` option after it
/// overrides that.
template <gigabytes Fixed, percent Fraction = percent{0.0}>
struct reserve {
  static constexpr void apply(training_plan_values& p) {
    p.setup.reserve = {Fixed.value * giga * byte, Fraction.value / 100.0};
    p.setup.memory_policy = training_memory_policy::reserve;
  }
};

/// What the plan keeps in host memory instead of the device's (`offload_policy`; the
/// frameworks' options as `offloads::...` describe them): `offload<offloads::zero_offload>`.
template <offload_policy P>
struct offload {
  SHARDPLAN_RULE(P.optimizer >= 0.0 && P.optimizer <= 1.0,
                 "shardplan: the offloaded share of the optimizer is between 0 and 1",
                 given<P.optimizer>);
  static constexpr void apply(training_plan_values& p) { p.setup.offload = P; }
};

/// Which transients the plan's memory charges (`training_memory_policy`): `memory_policy::
/// framework` (the default: the flat reserve under `framework::generic`, the named terms under a
/// named framework), `memory_policy::book` (none: How to Scale Your Model's convention) or
/// `memory_policy::reserve` (the flat reserve under every framework).
namespace memory_policy {
template <training_memory_policy P>
struct named {
  static constexpr void apply(training_plan_values& p) { p.setup.memory_policy = P; }
};
using framework = named<training_memory_policy::framework>;
using book = named<training_memory_policy::book>;
using reserve = named<training_memory_policy::reserve>;
}  // namespace memory_policy

/// The margin the memory verdict asks of the headroom, in percent of the need, from 0 up to (not
/// including) 100; the default is the measured error band, `memory_error_band` (7%). `fits` and
/// `SHARDPLAN_REQUIRE_FEASIBLE` stay strict (need <= capacity) whatever the margin.
template <percent Margin>
struct memory_margin {
  // A margin is a share of the need: negative makes no sense, 100% or more no plan could meet.
  SHARDPLAN_RULE(Margin.value >= 0.0 && Margin.value < 100.0,
                 "shardplan: the memory margin is a percentage from 0 up to 100", given<Margin>);
  static constexpr void apply(training_plan_values& p) {
    p.setup.memory_margin = Margin.value / 100.0;
  }
};

/// The fraction of peak the chip sustains on matmuls (default: `default_efficiency(chip)`), in
/// percent: more than 0 and at most 100 (`check` reports `efficiency_is_a_percentage`).
template <percent Efficiency>
struct efficiency {
  static constexpr void apply(training_plan_values& p) {
    p.assumptions.efficiency = Efficiency.value / 100.0;
    p.efficiency_given = true;
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

/// The fused attention kernel the framework calls (`attention_kernel::flash2`, `flash3`,
/// `cudnn`, `splash`); the default is the chip's usual kernel (`default_attention_kernel`).
template <attention_kernel Kernel>
struct attention_with {
  SHARDPLAN_RULE(Kernel != attention_kernel::eager,
                 "shardplan: attention_with<> names a fused kernel; use eager_attention for none",
                 given<Kernel>);
  static constexpr void apply(training_plan_values& p) { p.setup.attention = Kernel; }
};

/// Store dropout masks (as the Megatron-LM GPT recipe and Korthikanti et al. do).
struct with_dropout {
  static constexpr void apply(training_plan_values& p) { p.setup.dropout = true; }
};

/// The framework that runs the plan, whose allocations and behaviours the model charges (default
/// `framework::generic`, the papers' accounting): `framework::megatron_core`,
/// `framework::torchtitan`, `framework::deepspeed`, `framework::maxtext`, `framework::torchtune`,
/// or a fork, `framework::described<P>` (`framework_profile`, training/framework.hpp).
namespace framework {
/// A framework described by the user: a `framework_profile` with static storage, usually a copy
/// of one of `profiles::` with what their fork does differently.
template <const framework_profile& Profile>
struct described {
  static constexpr void apply(training_plan_values& p) { p.setup.framework = Profile; }
};
using generic = described<profiles::generic>;
using megatron_core = described<profiles::megatron_core>;
using torchtitan = described<profiles::torchtitan>;
using deepspeed = described<profiles::deepspeed>;
using maxtext = described<profiles::maxtext>;
using torchtune = described<profiles::torchtune>;
}  // namespace framework

/// Megatron-Core's `--grad-reduce-in-bf16`: main gradients in bf16 instead of fp32 (read only
/// with `framework::megatron_core`).
struct grad_reduce_in_bf16 {
  static constexpr void apply(training_plan_values& p) { p.setup.grad_reduce_in_bf16 = true; }
};

/// The loss under `torch.compile`: torchtitan's `--training.compile` (which compiles the loss
/// from bbb1b616e, 2025-04-02) or torchtune's `compile: True`; the compiled cross-entropy keeps
/// fewer copies of the logits (read only with `framework::torchtitan` or `framework::torchtune`;
/// `logit_bytes` in memory.hpp).
struct compiled_loss {
  static constexpr void apply(training_plan_values& p) { p.setup.compiled_loss = true; }
};

/// The transformer layers under `torch.compile`, torchtitan's `--training.compile` or torchtune's
/// `compile: True` (read only with `framework::torchtitan` or `framework::torchtune`: fused norms,
/// rotary and activation, `eager_modules_of` in operations.hpp; under torchtune its memory too,
/// `torchtune_layer_bytes`). Both flags compile the loss too where the framework does: give
/// `compiled_loss` as well.
struct compiled_layers {
  static constexpr void apply(training_plan_values& p) { p.setup.compiled_layers = true; }
};

/// torchtune's chunked cross-entropy, `CEWithChunkedOutputLoss` with its 8 chunks (read only with
/// `framework::torchtune`; `logit_bytes` in memory.hpp).
struct chunked_loss {
  static constexpr void apply(training_plan_values& p) { p.setup.chunked_loss = true; }
};

/// torchtune's `optimizer_in_bwd: True`: the optimizer steps each parameter in the backward pass
/// and frees its gradient (read only with `framework::torchtune` and one micro-batch per step
/// without a pipeline, which torchtune requires; `peak_phases` in memory.hpp).
struct optimizer_in_backward {
  static constexpr void apply(training_plan_values& p) { p.setup.optimizer_in_backward = true; }
};

/// DeepSpeed's ZeRO-3 of v0.3.13 to v0.4.2 (2021): one synchronous gather per parameter tensor
/// through PyTorch's list API, fp16 gradients all-reduced in buckets, nothing overlapped (read
/// only with `framework::deepspeed` and ZeRO-3; `zero3_per_tensor_traffic` in cost.hpp).
struct zero3_per_tensor {
  static constexpr void apply(training_plan_values& p) { p.setup.zero3_per_tensor = true; }
};

/// DeepSpeed's `zero_optimization.overlap_comm: true` at ZeRO-1 or -2: the gradient reduction
/// overlaps the backward pass (read only with `framework::deepspeed` at ZeRO-1 or -2, where
/// DeepSpeed's default is false; `deepspeed_reduction_overlaps` in cost.hpp).
struct overlap_comm {
  static constexpr void apply(training_plan_values& p) { p.setup.overlap_comm = true; }
};

/// Tensor-parallel collectives overlapped with their GEMMs: Megatron-Core's `--tp-comm-overlap`
/// or torchtitan's async TP (read only with `framework::megatron_core` or
/// `framework::torchtitan` and `tensor<..., sequence_parallel>`; `tp_overlap_method` in
/// operations.hpp, `tensor_parallel_traffic` in cost.hpp).
struct tp_comm_overlap {
  static constexpr void apply(training_plan_values& p) { p.setup.tp_comm_overlap = true; }
};

/// Megatron-LM's `--no-async-tensor-model-parallel-allreduce`, what Megatron-LM did before
/// 2022-02: the backward's tensor-parallel all-reduce of each input gradient waits before the
/// weight gradient (read only with `framework::megatron_core` without sequence parallelism;
/// `tp_backward_beside_weight_gradient` in operations.hpp).
struct sync_tp_backward {
  static constexpr void apply(training_plan_values& p) { p.setup.sync_tp_backward = true; }
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
    p.system = checked_system<System>();
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

  /// The memory verdict: fits, tight (inside the margin, by default the model's measured error
  /// band) or does not fit (`memory_assessment_of`). `fits` stays the strict test.
  static constexpr shardplan::memory_verdict memory_verdict() {
    return memory_assessment_of(values).verdict;
  }

  /// Whether measured peaks back the verdict's band for this chip family and framework
  /// (`memory_validated`).
  static constexpr bool memory_validated() { return memory_assessment_of(values).validated; }

  /// Capacity minus need per device, in GB (1e9 bytes); negative when it does not fit.
  static constexpr double headroom_gb() { return memory_assessment_of(values).headroom_gb; }

  /// The estimated cost of one step (an estimate: see `estimate_step`).
  static constexpr step_cost step() { return estimate_step(values); }

  /// Each data and tensor axis against its compute-bound threshold.
  static constexpr plan_bounds bounds() { return bounds_of(values); }

  /// Every data and tensor axis is compute-bound (false for a plan that cannot be costed).
  static constexpr bool compute_bound = costable(violations) && bounds_of(values).compute_bound();
};

// --- diagnostics -------------------------------------------------------------------------------

/// Value traits whose template arguments carry a broken rule's numbers into the diagnostic. A
/// rule the plan keeps passes `plan_checks::kept` as its first number (or `no_axis` for its axis);
/// a broken one passes its numbers, and the trait is false for them.
namespace plan_checks {
// clang-format off
struct unknown_axes { std::int64_t value; };
struct devices { std::int64_t value; };
struct chips { std::int64_t value; };
struct product { double value; };
struct limit { double value; };
struct tensor_parallel { std::int64_t value; };
struct heads { std::int64_t value; };
struct kv_heads { std::int64_t value; };
struct mlp_width { std::int64_t value; };
struct virtual_stages { std::int64_t value; };
struct pipeline_chunks { std::int64_t value; };
struct layers { std::int64_t value; };
struct end_layers { std::int64_t value; };
struct end_weight { std::int64_t value; };
struct chunk_share { std::int64_t value; };
struct expert_parallel { std::int64_t value; };
struct experts { std::int64_t value; };
struct data_parallel { std::int64_t value; };
struct tokens { std::int64_t value; };
struct sequence_length { std::int64_t value; };
struct micro_batch_size { std::int64_t value; };
struct replicas_times_micro_batch { std::int64_t value; };
struct sequences { std::int64_t value; };
struct context_chunks { std::int64_t value; };
struct pipeline_stages { std::int64_t value; };
struct micro_batches { std::int64_t value; };
struct zero_stage { std::int64_t value; };
struct checkpoints_per_layer { std::int64_t value; };
struct framework_limit_broken { std::int64_t value; };
struct limit_number { std::int64_t value; };
struct limit_other_number { std::int64_t value; };
struct efficiency_percent { double value; };
struct compute_format { number_format value; };
struct peak_teraflops { std::int64_t value; };
struct gigabytes_needed { std::int64_t value; };
struct gigabytes_of_memory { std::int64_t value; };
struct gigabytes_offloaded { std::int64_t value; };
struct gigabytes_of_host_memory { std::int64_t value; };
// clang-format on

/// A mesh axis's name (or a level's) spelled as characters: `axis_name<'t', 'p'>`.
template <char... Name>
struct axis_name {};
template <char... Name>
struct level_name {};
/// The axis of a rule the plan keeps.
struct no_axis {};

/// The first number of a rule the plan keeps.
inline constexpr std::int64_t kept = -9'000'000'000'000'000'000;

constexpr bool divides(std::int64_t a, std::int64_t b) { return a != 0 && b % a == 0; }

// clang-format off
template <unknown_axes N, class FirstUnknown>
struct strategies_name_mesh_axes { static constexpr bool value = N.value == kept; };
template <class Axis>
struct axis_names_are_unique { static constexpr bool value = std::is_same_v<Axis, no_axis>; };
template <class Axis, devices D>
struct axis_has_devices { static constexpr bool value = D.value == kept || D.value >= 1; };
/// `Limit` is 2^63, the first count a 64-bit integer does not hold; 0 is a product that fits.
template <product_of What, product P, limit Limit>
struct products_fit_in_64_bits {
  static constexpr bool value = P.value == 0.0 || P.value < Limit.value;
};
template <devices D, chips C>
struct mesh_fits_system { static constexpr bool value = D.value == kept || D.value <= C.value; };
template <class Axis>
struct axis_carries_a_parallelism { static constexpr bool value = std::is_same_v<Axis, no_axis>; };
template <class Axis>
struct axis_roles_are_compatible { static constexpr bool value = std::is_same_v<Axis, no_axis>; };
template <class Axis, class Level>
struct axis_level_exists { static constexpr bool value = std::is_same_v<Axis, no_axis>; };
template <class Axis, chips Spanned, chips LevelHolds>
struct axis_fits_its_level {
  static constexpr bool value = Spanned.value == kept || Spanned.value <= LevelHolds.value;
};
template <compute_format F, peak_teraflops P>
struct chip_computes_in_format {
  static constexpr bool value = P.value == kept || P.value > 0;
};
template <class Axis, chips Spanned, chips TorusHolds>
struct axis_tiles_its_torus_axes {
  static constexpr bool value = Spanned.value == kept || TorusHolds.value % Spanned.value == 0 ||
                                Spanned.value % TorusHolds.value == 0;
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
template <pipeline_schedule S, virtual_stages V>
struct schedule_has_its_virtual_stages {
  static constexpr bool value =
      V.value == kept || (S == pipeline_schedule::interleaved ? V.value >= 2 : V.value == 1);
};
template <pipeline_chunks P, layers L>
struct pipeline_chunks_divide_layers {
  static constexpr bool value = P.value == kept || divides(P.value, L.value);
};
template <pipeline_chunks P, layers L>
struct pipeline_chunks_within_layers {
  static constexpr bool value = P.value == kept || P.value <= L.value;
};
template <end_weight W, chunk_share S>
struct end_weights_are_within_share {
  static constexpr bool value = W.value == kept || W.value <= S.value;
};
template <bool Uneven, end_layers E, layers L, pipeline_chunks Between>
struct stage_ends_leave_a_share {
  static constexpr std::int64_t rest = L.value - E.value;
  static constexpr bool value =
      E.value == kept || (Between.value == 0 ? rest == 0
                                             : rest >= Between.value &&
                                                   (Uneven || rest % Between.value == 0));
};
template <expert_parallel E>
struct expert_parallel_needs_experts { static constexpr bool value = E.value == kept; };
template <expert_parallel E, experts N>
struct expert_parallel_divides_experts {
  static constexpr bool value = E.value == kept || divides(E.value, N.value);
};
template <expert_parallel E, data_parallel D>
struct expert_parallel_divides_data_parallel {
  static constexpr bool value = E.value == kept || divides(E.value, D.value);
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
template <checkpoints_per_layer N>
struct checkpoints_keep_a_tensor { static constexpr bool value = N.value == kept || N.value >= 1; };
// The limit broken (`framework_limit`: 1 DeepSpeed's ZeRO-2/3 with a pipeline, its stage and
// stages; 2 a DeepSpeed schedule other than 1F1B, the schedule; 3 torchtune's optimizer in the
// backward, its micro-batches and stages) and its numbers.
template <framework_limit_broken L, limit_number B, limit_other_number C>
struct framework_supports_plan { static constexpr bool value = L.value == kept; };
template <efficiency_percent E>
struct efficiency_is_a_percentage {
  static constexpr bool value = E.value > 0.0 && E.value <= 100.0;
};
template <gigabytes_needed Needed, gigabytes_of_memory Memory>
struct fits_in_device_memory {
  static constexpr bool value = Needed.value == kept || Needed.value <= Memory.value;
};
template <gigabytes_offloaded Offloaded, gigabytes_of_host_memory Memory>
struct fits_in_host_memory_of_device {
  static constexpr bool value = Offloaded.value == kept || Offloaded.value <= Memory.value;
};
// clang-format on

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

/// The level the axis named `name` is required on.
constexpr std::string_view level_of(const training_plan_values& p, std::string_view name) {
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].name == name) return p.axes[i].required_level;
  return {};
}

/// Whole gigabytes rounded up (needed) or down (available), so the pair still shows the
/// violation and prints without a fraction.
constexpr std::int64_t gigabytes_up(const plan_violations& v,
                                    plan_rule rule = plan_rule::fits_in_memory) {
  if (!v.has(rule)) return kept;
  const double x = first(v, rule).a / 1e9;
  const auto i = static_cast<std::int64_t>(x);
  return static_cast<double>(i) < x ? i + 1 : i;
}
constexpr std::int64_t gigabytes_down(const plan_violations& v,
                                      plan_rule rule = plan_rule::fits_in_memory) {
  return static_cast<std::int64_t>(first(v, rule).b / 1e9);
}

}  // namespace plan_checks

/// One class template per rule, holding its static_assert: `plan_rules::tensor_divides_heads<
/// tensor_parallel_divides_heads<tensor_parallel{16}, heads{12}>>` fails to instantiate when its
/// trait is false. `SHARDPLAN_REQUIRE_FEASIBLE` instantiates each of them directly, outside any
/// template of the plan, so that the diagnostics name the rule and its numbers and never repeat
/// the plan's type (which runs to 600-900 characters).
namespace plan_rules {
// clang-format off
template <class T> struct strategy_axes_in_mesh { SHARDPLAN_RULE(T::value,
    "shardplan: a strategy names an axis the mesh does not have", T); };
template <class T> struct axis_names_unique { SHARDPLAN_RULE(T::value,
    "shardplan: mesh axis names must be unique", T); };
template <class T> struct axis_has_a_device { SHARDPLAN_RULE(T::value,
    "shardplan: a mesh axis needs at least one device", T); };
template <class T> struct sizes_fit_in_64_bits { SHARDPLAN_RULE(T::value,
    "shardplan: the sizes of the plan multiply beyond a 64-bit integer", T); };
template <class T> struct mesh_within_system { SHARDPLAN_RULE(T::value,
    "shardplan: the mesh has more devices than the system", T); };
template <class T> struct axis_has_a_role { SHARDPLAN_RULE(T::value,
    "shardplan: every mesh axis must carry a parallelism", T); };
template <class T> struct axis_roles_compatible { SHARDPLAN_RULE(T::value,
    "shardplan: tensor, context and pipeline parallelism each need an axis of their own", T); };
template <class T> struct required_level_exists { SHARDPLAN_RULE(T::value,
    "shardplan: an axis is placed on a level the system does not have", T); };
template <class T> struct axis_on_required_level { SHARDPLAN_RULE(T::value,
    "shardplan: an axis claims more chips than the level it is placed on holds", T); };
// Megatron tensor parallelism splits whole heads, whole kv heads and the mlp width.
// JAX lays a TPU mesh axis onto whole rings of the torus axes.
template <class T> struct axis_tiles_torus { SHARDPLAN_RULE(T::value,
    "shardplan: on a tpu torus every mesh axis must tile the torus axes it lands on", T); };
template <class T> struct tensor_divides_heads { SHARDPLAN_RULE(T::value,
    "shardplan: tensor parallelism must divide the attention heads", T); };
template <class T> struct tensor_divides_kv_heads { SHARDPLAN_RULE(T::value,
    "shardplan: tensor parallelism must divide the kv heads", T); };
template <class T> struct tensor_divides_d_ff { SHARDPLAN_RULE(T::value,
    "shardplan: tensor parallelism must divide the mlp width", T); };
template <class T> struct virtual_stages_suit_schedule { SHARDPLAN_RULE(T::value,
    "shardplan: the interleaved schedule needs at least 2 virtual stages, any other schedule 1",
    T); };
template <class T> struct stages_divide_layers { SHARDPLAN_RULE(T::value,
    "shardplan: pipeline stages times virtual stages must divide the layers", T); };
template <class T> struct stages_within_layers { SHARDPLAN_RULE(T::value,
    "shardplan: uneven stages still need a layer in every chunk: pipeline stages times virtual "
    "stages must not exceed the layers", T); };
template <class T> struct end_weights_within_share { SHARDPLAN_RULE(T::value,
    "shardplan: the layers the embedding or the output count as must not exceed the share "
    "of a chunk in the split", T); };
template <class T> struct stage_ends_leave_layers { SHARDPLAN_RULE(T::value,
    "shardplan: the first and last stages must leave every chunk between them an equal share "
    "of the rest, one layer or more", T); };
template <class T> struct expert_needs_moe { SHARDPLAN_RULE(T::value,
    "shardplan: expert parallelism needs a mixture-of-experts model", T); };
template <class T> struct expert_divides_experts { SHARDPLAN_RULE(T::value,
    "shardplan: expert parallelism must divide the experts", T); };
template <class T> struct expert_divides_data { SHARDPLAN_RULE(T::value,
    "shardplan: expert parallelism must divide data parallelism (experts are spread over "
    "data-parallel replicas)", T); };
template <class T> struct batch_given { SHARDPLAN_RULE(T::value,
    "shardplan: the batch needs positive global tokens, sequence length and micro-batch", T); };
template <class T> struct tokens_divide_into_sequences { SHARDPLAN_RULE(T::value,
    "shardplan: the global batch must be whole sequences", T); };
template <class T> struct batch_divides { SHARDPLAN_RULE(T::value,
    "shardplan: data parallelism times the micro-batch must divide the global batch", T); };
template <class T> struct context_divides_sequence { SHARDPLAN_RULE(T::value,
    "shardplan: context parallelism must divide the sequence (twice over for a load-balanced "
    "ring)", T); };
template <class T> struct interleaving_needs_micro_batches { SHARDPLAN_RULE(T::value,
    "shardplan: the interleaved schedule needs micro-batches in multiples of the pipeline "
    "stages", T); };
template <class T> struct zero_stage_valid { SHARDPLAN_RULE(T::value,
    "shardplan: the zero stage must be 0, 1, 2 or 3", T); };
template <class T> struct checkpoints_at_least_one { SHARDPLAN_RULE(T::value,
    "shardplan: recompute::checkpoints keeps at least 1 tensor per layer", T); };
// DeepSpeed's pipeline takes ZeRO-0/1 and runs 1F1B; torchtune's optimizer in the backward needs
// one micro-batch and no pipeline (`framework_limit`, plan.hpp).
template <class T> struct framework_runs_plan { SHARDPLAN_RULE(T::value,
    "shardplan: the framework of the plan cannot run it", T); };
template <class T> struct efficiency_is_a_percentage { SHARDPLAN_RULE(T::value,
    "shardplan: efficiency is a percentage between 0 and 100", T); };
// An fp8 recipe on a chip without fp8 matrix units (TPU v5e, A100) cannot be costed.
template <class T> struct compute_format_supported { SHARDPLAN_RULE(T::value,
    "shardplan: the chip has no matrix units for the compute format of the plan", T); };
// Everything a device holds must fit in its memory.
template <class T> struct fits_in_memory { SHARDPLAN_RULE(T::value,
    "shardplan: the plan needs more memory per device than the chip has", T); };
// What the plan offloads must fit in the host's memory per device.
template <class T> struct fits_in_host_memory { SHARDPLAN_RULE(T::value,
    "shardplan: the plan offloads more to host memory than the host has per device", T); };
// clang-format on
}  // namespace plan_rules

namespace plan_checks {

/// Each rule of `Plan` as its `plan_rules` class with its numbers (instantiating one checks it).
template <class Plan>
struct rules_of {
  static constexpr const training_plan_values& p = Plan::values;
  static constexpr const plan_violations& v = Plan::violations;
  using r = plan_rule;
  template <plan_rule R>
  static constexpr std::int64_t a = number(v, R, &violation::a);
  template <plan_rule R>
  static constexpr std::int64_t b = number(v, R, &violation::b);
  template <plan_rule R>
  static constexpr std::int64_t c = number(v, R, &violation::c);
  template <plan_rule R>
  struct axis_text {
    static constexpr std::string_view value = first(v, R).axis;
  };
  template <plan_rule R>
  struct level_text {
    static constexpr std::string_view value = level_of(p, axis_text<R>::value);
  };
  /// The axis the first violation of `R` names, spelled out, or `no_axis`.
  template <plan_rule R>
  using axis_named = std::conditional_t<
      v.has(R), typename detail::spelled<axis_text<R>, axis_name>::type, no_axis>;
  template <plan_rule R>
  using level_named = typename detail::spelled<level_text<R>, level_name>::type;
  static constexpr violation oversized = first(v, r::sizes_fit_in_64_bits);
  static constexpr double percent_given = v.has(r::efficiency_is_a_percentage)
                                              ? first(v, r::efficiency_is_a_percentage).a
                                              : 100.0;

  // clang-format off
  using strategy_axes_in_mesh = plan_rules::strategy_axes_in_mesh<strategies_name_mesh_axes<
      unknown_axes{a<r::strategy_axes_in_mesh>}, axis_named<r::strategy_axes_in_mesh>>>;
  using axis_names_unique = plan_rules::axis_names_unique<
      axis_names_are_unique<axis_named<r::axis_names_unique>>>;
  using axis_has_a_device = plan_rules::axis_has_a_device<axis_has_devices<
      axis_named<r::axis_has_a_device>, devices{a<r::axis_has_a_device>}>>;
  using sizes_fit_in_64_bits = plan_rules::sizes_fit_in_64_bits<products_fit_in_64_bits<
      static_cast<product_of>(oversized.c), product{oversized.a}, limit{oversized.b}>>;
  using mesh_within_system = plan_rules::mesh_within_system<mesh_fits_system<
      devices{a<r::mesh_within_system>}, chips{b<r::mesh_within_system>}>>;
  using axis_has_a_role = plan_rules::axis_has_a_role<
      axis_carries_a_parallelism<axis_named<r::axis_has_a_role>>>;
  using axis_roles_compatible = plan_rules::axis_roles_compatible<
      axis_roles_are_compatible<axis_named<r::axis_roles_compatible>>>;
  using required_level_exists = plan_rules::required_level_exists<axis_level_exists<
      axis_named<r::required_level_exists>, level_named<r::required_level_exists>>>;
  using axis_on_required_level = plan_rules::axis_on_required_level<axis_fits_its_level<
      axis_named<r::axis_on_required_level>, chips{a<r::axis_on_required_level>},
      chips{b<r::axis_on_required_level>}>>;
  using axis_tiles_torus = plan_rules::axis_tiles_torus<axis_tiles_its_torus_axes<
      axis_named<r::axis_tiles_torus>, chips{a<r::axis_tiles_torus>},
      chips{b<r::axis_tiles_torus>}>>;
  using tensor_divides_heads = plan_rules::tensor_divides_heads<tensor_parallel_divides_heads<
      tensor_parallel{a<r::tensor_divides_heads>}, heads{b<r::tensor_divides_heads>}>>;
  using tensor_divides_kv_heads = plan_rules::tensor_divides_kv_heads<
      tensor_parallel_divides_kv_heads<tensor_parallel{a<r::tensor_divides_kv_heads>},
                                       kv_heads{b<r::tensor_divides_kv_heads>}>>;
  using tensor_divides_d_ff = plan_rules::tensor_divides_d_ff<tensor_parallel_divides_mlp_width<
      tensor_parallel{a<r::tensor_divides_d_ff>}, mlp_width{b<r::tensor_divides_d_ff>}>>;
  using virtual_stages_suit_schedule = plan_rules::virtual_stages_suit_schedule<
      schedule_has_its_virtual_stages<p.setup.degrees.schedule,
                                      virtual_stages{a<r::virtual_stages_suit_schedule>}>>;
  using stages_divide_layers = plan_rules::stages_divide_layers<pipeline_chunks_divide_layers<
      pipeline_chunks{a<r::stages_divide_layers>}, layers{b<r::stages_divide_layers>}>>;
  using stages_within_layers = plan_rules::stages_within_layers<pipeline_chunks_within_layers<
      pipeline_chunks{a<r::stages_within_layers>}, layers{b<r::stages_within_layers>}>>;
  using end_weights_within_share = plan_rules::end_weights_within_share<
      end_weights_are_within_share<end_weight{a<r::end_weights_within_share>},
                                   chunk_share{b<r::end_weights_within_share>}>>;
  using stage_ends_leave_layers = plan_rules::stage_ends_leave_layers<
      stage_ends_leave_a_share<ragged_split_allowed(p.setup),
                                          end_layers{a<r::stage_ends_leave_layers>},
                                          layers{b<r::stage_ends_leave_layers>},
                                          pipeline_chunks{c<r::stage_ends_leave_layers>}>>;
  using expert_needs_moe = plan_rules::expert_needs_moe<
      expert_parallel_needs_experts<expert_parallel{a<r::expert_needs_moe>}>>;
  using expert_divides_experts = plan_rules::expert_divides_experts<
      expert_parallel_divides_experts<expert_parallel{a<r::expert_divides_experts>},
                                      experts{b<r::expert_divides_experts>}>>;
  using expert_divides_data = plan_rules::expert_divides_data<
      expert_parallel_divides_data_parallel<expert_parallel{a<r::expert_divides_data>},
                                            data_parallel{b<r::expert_divides_data>}>>;
  using batch_given = plan_rules::batch_given<batch_is_given<
      tokens{a<r::batch_given>}, sequence_length{b<r::batch_given>},
      micro_batch_size{c<r::batch_given>}>>;
  using tokens_divide_into_sequences = plan_rules::tokens_divide_into_sequences<
      batch_is_whole_sequences<tokens{a<r::tokens_divide_into_sequences>},
                               sequence_length{b<r::tokens_divide_into_sequences>}>>;
  using batch_divides = plan_rules::batch_divides<replicas_divide_batch<
      replicas_times_micro_batch{a<r::batch_divides>}, sequences{b<r::batch_divides>}>>;
  using context_divides_sequence = plan_rules::context_divides_sequence<
      plan_checks::context_divides_sequence<context_chunks{a<r::context_divides_sequence>},
                                            sequence_length{b<r::context_divides_sequence>}>>;
  using interleaving_needs_micro_batches = plan_rules::interleaving_needs_micro_batches<
      micro_batches_fill_interleaving<pipeline_stages{a<r::interleaving_needs_micro_batches>},
                                      micro_batches{b<r::interleaving_needs_micro_batches>}>>;
  using zero_stage_valid = plan_rules::zero_stage_valid<
      zero_stage_exists<zero_stage{a<r::zero_stage_valid>}>>;
  using checkpoints_at_least_one = plan_rules::checkpoints_at_least_one<
      checkpoints_keep_a_tensor<checkpoints_per_layer{a<r::checkpoints_at_least_one>}>>;
  using framework_runs_plan = plan_rules::framework_runs_plan<framework_supports_plan<
      framework_limit_broken{a<r::framework_runs_plan>}, limit_number{b<r::framework_runs_plan>},
      limit_other_number{c<r::framework_runs_plan>}>>;
  using efficiency_is_a_percentage = plan_rules::efficiency_is_a_percentage<
      plan_checks::efficiency_is_a_percentage<efficiency_percent{percent_given}>>;
  using compute_format_supported = plan_rules::compute_format_supported<chip_computes_in_format<
      compute_format{p.setup.precision.compute}, peak_teraflops{b<r::compute_format_supported>}>>;
  using fits_in_memory = plan_rules::fits_in_memory<fits_in_device_memory<
      gigabytes_needed{gigabytes_up(v)}, gigabytes_of_memory{gigabytes_down(v)}>>;
  using fits_in_host_memory = plan_rules::fits_in_host_memory<fits_in_host_memory_of_device<
      gigabytes_offloaded{gigabytes_up(v, r::fits_in_host_memory)},
      gigabytes_of_host_memory{gigabytes_down(v, r::fits_in_host_memory)}>>;
  // clang-format on
};

}  // namespace plan_checks

/// Each rule of `Plan` as a class to instantiate (what `SHARDPLAN_REQUIRE_FEASIBLE` does).
template <class Plan>
using require_feasible = plan_checks::rules_of<Plan>;

}  // namespace shardplan

/// Fails the build, naming each broken rule with its numbers, unless the plan is feasible. Each
/// rule's class is instantiated here, where the macro is used, outside any template of the plan:
/// gcc and clang then report each broken rule once, with its trait and numbers, and never the
/// plan's type.
#define SHARDPLAN_REQUIRE_FEASIBLE(...) \
  static_assert(                                                                                \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::strategy_axes_in_mesh) +            \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::axis_names_unique) +                \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::axis_has_a_device) +                \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::sizes_fit_in_64_bits) +             \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::mesh_within_system) +               \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::axis_has_a_role) +                  \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::axis_roles_compatible) +            \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::required_level_exists) +            \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::axis_on_required_level) +           \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::axis_tiles_torus) +                 \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::tensor_divides_heads) +             \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::tensor_divides_kv_heads) +          \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::tensor_divides_d_ff) +              \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::virtual_stages_suit_schedule) +     \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::stages_divide_layers) +             \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::stages_within_layers) +             \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::stage_ends_leave_layers) +          \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::end_weights_within_share) +         \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::expert_needs_moe) +                 \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::expert_divides_experts) +           \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::expert_divides_data) +              \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::batch_given) +                      \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::tokens_divide_into_sequences) +     \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::batch_divides) +                    \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::context_divides_sequence) +         \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::interleaving_needs_micro_batches) + \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::zero_stage_valid) +                 \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::checkpoints_at_least_one) +         \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::framework_runs_plan) +              \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::efficiency_is_a_percentage) +       \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::compute_format_supported) +         \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::fits_in_memory) +                   \
  sizeof(typename ::shardplan::require_feasible<__VA_ARGS__>::fits_in_host_memory) > 0)
