// A training plan as plain values (model, system, mesh, strategies, batch, precision), the rules
// it must obey and the check that lists what it breaks.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <shardplan/models/flops.hpp>
#include <shardplan/core/format.hpp>
#include <shardplan/hardware/system.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/hardware/placement.hpp>

namespace shardplan {

/// What a mesh axis is used for. An axis may carry data parallelism and ZeRO (ZeRO shards over
/// data-parallel axes) and expert parallelism over a data axis (experts spread over replicas,
/// as in DeepSpeed-MoE and Megatron-LM); tensor, context and pipeline parallelism own their axes.
enum axis_role : std::uint8_t {
  role_data = 1,
  role_zero = 2,
  role_tensor = 4,
  role_context = 8,
  role_pipeline = 16,
  role_expert = 32,
};

inline constexpr std::size_t max_mesh_axes = 8;

/// One named mesh axis, its size, what it carries and, optionally, the level it must sit on.
struct mesh_axis {
  std::string_view name;
  std::int64_t size = 1;
  std::uint8_t roles = 0;
  std::string_view required_level;  ///< empty: wherever the mesh order puts it
};

/// Choices of the step-time model.
struct step_assumptions {
  attention_flops attention = attention_flops::causal;  ///< how attention FLOPs are counted
  double efficiency = 0.0;  ///< fraction of peak; 0 means `default_efficiency(chip)`
  bool overlap_data_parallel = true;  ///< gradient reduce / parameter gather hide under compute
  bool overlap_context = true;        ///< ring-attention KV passes hide under attention compute
  bool in_network_reduction = false;  ///< use SHARP where the switches have it
};

/// A training plan's values. The mesh lists axes outermost first; the last axis is innermost and
/// lands on the fastest links.
struct training_plan_values {
  model_shape model{};
  system_figures system{};
  std::array<mesh_axis, max_mesh_axes> axes{};
  std::size_t axis_count = 0;
  training_setup setup{};
  step_assumptions assumptions{};  ///< how the step-time estimate counts and overlaps
  std::int64_t unknown_axes = 0;   ///< axis names strategies gave that the mesh does not have
  std::string_view unknown_axis;   ///< the first of them
};

/// Product of the sizes of the axes carrying `role` (1 when none does).
constexpr std::int64_t degree_of(const training_plan_values& p, std::uint8_t role) {
  std::int64_t n = 1;
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].roles & role) n *= p.axes[i].size;
  return n;
}

/// Devices in the mesh.
constexpr std::int64_t mesh_devices(const training_plan_values& p) {
  std::int64_t n = 1;
  for (std::size_t i = 0; i < p.axis_count; ++i) n *= p.axes[i].size;
  return n;
}

/// Fills the degrees of `p.setup` from the roles of its axes.
constexpr training_plan_values with_degrees(training_plan_values p) {
  parallel_degrees& d = p.setup.degrees;
  d.data = degree_of(p, role_data | role_zero);
  d.zero = d.zero_stage > 0 ? degree_of(p, role_zero) : 1;
  std::int64_t zero_expert = 1;
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if ((p.axes[i].roles & role_zero) && !(p.axes[i].roles & role_expert))
      zero_expert *= p.axes[i].size;
  d.zero_expert = d.zero_stage > 0 ? zero_expert : 1;
  d.tensor = degree_of(p, role_tensor);
  d.context = degree_of(p, role_context);
  d.pipeline = degree_of(p, role_pipeline);
  d.expert = degree_of(p, role_expert);
  return p;
}

/// Where each axis lands on the system.
constexpr axis_placement placement_of(const training_plan_values& p, std::size_t axis) {
  std::int64_t inner = 1;
  for (std::size_t i = axis + 1; i < p.axis_count; ++i) inner *= p.axes[i].size;
  return place_axis(levels_of(p.system), inner, p.axes[axis].size);
}

/// The rules a training plan obeys.
enum class plan_rule : std::uint8_t {
  strategy_axes_in_mesh,         ///< a: unknown names; axis: the first
  axis_names_unique,             ///< axis: the repeated name
  mesh_within_system,            ///< a: mesh devices, b: system chips
  axis_has_a_role,               ///< axis: the idle axis
  axis_roles_compatible,         ///< axis: the axis used twice
  required_level_exists,         ///< axis: the axis whose level the system lacks
  axis_on_required_level,        ///< axis; a: chips the axis spans, b: chips the level holds
  tensor_divides_heads,          ///< a: tensor, b: heads
  tensor_divides_kv_heads,       ///< a: tensor, b: kv heads
  tensor_divides_d_ff,           ///< a: tensor, b: d_ff (or expert d_ff)
  stages_divide_layers,          ///< a: pipeline × virtual stages, b: layers
  expert_needs_moe,              ///< a: expert degree
  expert_divides_experts,        ///< a: expert degree, b: experts
  batch_given,                   ///< a: global tokens, b: sequence length, c: micro-batch
  tokens_divide_into_sequences,  ///< a: global tokens, b: sequence length
  batch_divides,                 ///< a: data × micro-batch, b: sequences per step
  context_divides_sequence,      ///< a: context (twice it when load-balanced), b: sequence length
  interleaving_needs_micro_batches,  ///< a: pipeline, b: micro-batches per replica
  zero_stage_valid,                  ///< a: the stage
  fits_in_memory,                    ///< a: bytes needed per device, b: bytes of memory per device
};

/// The rule's name, as the tool's JSON reports it ("tensor_divides_kv_heads").
constexpr std::string_view rule_name(plan_rule r) {
  switch (r) {
    case plan_rule::strategy_axes_in_mesh: return "strategy_axes_in_mesh";
    case plan_rule::axis_names_unique: return "axis_names_unique";
    case plan_rule::mesh_within_system: return "mesh_within_system";
    case plan_rule::axis_has_a_role: return "axis_has_a_role";
    case plan_rule::axis_roles_compatible: return "axis_roles_compatible";
    case plan_rule::required_level_exists: return "required_level_exists";
    case plan_rule::axis_on_required_level: return "axis_on_required_level";
    case plan_rule::tensor_divides_heads: return "tensor_divides_heads";
    case plan_rule::tensor_divides_kv_heads: return "tensor_divides_kv_heads";
    case plan_rule::tensor_divides_d_ff: return "tensor_divides_d_ff";
    case plan_rule::stages_divide_layers: return "stages_divide_layers";
    case plan_rule::expert_needs_moe: return "expert_needs_moe";
    case plan_rule::expert_divides_experts: return "expert_divides_experts";
    case plan_rule::batch_given: return "batch_given";
    case plan_rule::tokens_divide_into_sequences: return "tokens_divide_into_sequences";
    case plan_rule::batch_divides: return "batch_divides";
    case plan_rule::context_divides_sequence: return "context_divides_sequence";
    case plan_rule::interleaving_needs_micro_batches: return "interleaving_needs_micro_batches";
    case plan_rule::zero_stage_valid: return "zero_stage_valid";
    case plan_rule::fits_in_memory: return "fits_in_memory";
  }
  return "?";
}

/// The rule as a diagnostic states it.
constexpr std::string_view rule_text(plan_rule r) {
  switch (r) {
    case plan_rule::strategy_axes_in_mesh:
      return "shardplan: a strategy names an axis the mesh does not have";
    case plan_rule::axis_names_unique: return "shardplan: mesh axis names must be unique";
    case plan_rule::required_level_exists:
      return "shardplan: an axis is placed on a level the system does not have";
    case plan_rule::batch_given:
      return "shardplan: the batch needs positive global tokens, sequence length and micro-batch";
    case plan_rule::mesh_within_system:
      return "shardplan: the mesh has more devices than the system";
    case plan_rule::axis_has_a_role:
      return "shardplan: every mesh axis must carry a parallelism";
    case plan_rule::axis_roles_compatible:
      return "shardplan: tensor, context and pipeline parallelism each need an axis of their own";
    case plan_rule::axis_on_required_level:
      return "shardplan: an axis claims more chips than the level it is placed on holds";
    case plan_rule::tensor_divides_heads:
      return "shardplan: tensor parallelism must divide the attention heads";
    case plan_rule::tensor_divides_kv_heads:
      return "shardplan: tensor parallelism must divide the kv heads";
    case plan_rule::tensor_divides_d_ff:
      return "shardplan: tensor parallelism must divide the mlp width";
    case plan_rule::stages_divide_layers:
      return "shardplan: pipeline stages times virtual stages must divide the layers";
    case plan_rule::expert_needs_moe:
      return "shardplan: expert parallelism needs a mixture-of-experts model";
    case plan_rule::expert_divides_experts:
      return "shardplan: expert parallelism must divide the experts";
    case plan_rule::tokens_divide_into_sequences:
      return "shardplan: the global batch must be whole sequences";
    case plan_rule::batch_divides:
      return "shardplan: data parallelism times the micro-batch must divide the global batch";
    case plan_rule::context_divides_sequence:
      return "shardplan: context parallelism must divide the sequence (twice over for a "
             "load-balanced ring)";
    case plan_rule::interleaving_needs_micro_batches:
      return "shardplan: the interleaved schedule needs micro-batches in multiples of the "
             "pipeline stages";
    case plan_rule::zero_stage_valid:
      return "shardplan: the zero stage must be 0, 1, 2 or 3";
    case plan_rule::fits_in_memory:
      return "shardplan: the plan needs more memory per device than the chip has";
  }
  return "?";
}

/// One broken rule and its numbers.
struct violation {
  plan_rule rule{};
  double a = 0.0;
  double b = 0.0;
  std::string_view axis;
  double c = 0.0;
};

inline constexpr std::size_t max_violations = 24;

/// Every rule a plan breaks, in the order of `plan_rule`.
struct plan_violations {
  std::array<violation, max_violations> items{};
  std::size_t count = 0;
  constexpr void add(plan_rule r, double a = 0.0, double b = 0.0, std::string_view axis = {},
                     double c = 0.0) {
    if (count < max_violations) items[count++] = {r, a, b, axis, c};
  }
  constexpr bool empty() const { return count == 0; }
  constexpr bool has(plan_rule r) const {
    for (std::size_t i = 0; i < count; ++i)
      if (items[i].rule == r) return true;
    return false;
  }
};

/// Whether context parallelism uses the load-balanced ring (2·cp chunks per sequence).
inline constexpr bool context_load_balanced = true;

/// Checks every rule. Memory, which needs a batch that divides into micro-batches, is checked
/// whenever the batch rules hold, so that one build reports a divisibility and a memory problem
/// together.
constexpr plan_violations check(const training_plan_values& p) {
  plan_violations v;
  const model_shape& m = p.model;
  const parallel_degrees& d = p.setup.degrees;
  const batch_settings& b = p.setup.batch;
  const auto as_double = [](std::int64_t x) { return static_cast<double>(x); };

  // A misspelt axis leaves the intended axis idle: report the name, not the idle axis.
  const bool axes_known = p.unknown_axes == 0;
  if (!axes_known)
    v.add(plan_rule::strategy_axes_in_mesh, as_double(p.unknown_axes), 0.0, p.unknown_axis);
  for (std::size_t i = 0; i < p.axis_count; ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (p.axes[i].name == p.axes[k].name)
        v.add(plan_rule::axis_names_unique, 0.0, 0.0, p.axes[i].name);
  if (mesh_devices(p) > p.system.chips)
    v.add(plan_rule::mesh_within_system, as_double(mesh_devices(p)), as_double(p.system.chips));
  const placement_levels levels = levels_of(p.system);
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    const mesh_axis& a = p.axes[i];
    if (a.roles == 0 && axes_known)
      v.add(plan_rule::axis_has_a_role, as_double(a.size), 0.0, a.name);
    const int owners = ((a.roles & role_tensor) ? 1 : 0) + ((a.roles & role_context) ? 1 : 0) +
                       ((a.roles & role_pipeline) ? 1 : 0) +
                       ((a.roles & (role_data | role_zero | role_expert)) ? 1 : 0);
    if (owners > 1) v.add(plan_rule::axis_roles_compatible, as_double(a.size), 0.0, a.name);
    if (!a.required_level.empty()) {
      const std::int64_t level = find_level(levels, a.required_level);
      const axis_placement where = placement_of(p, i);
      if (level < 0) {
        v.add(plan_rule::required_level_exists, 0.0, 0.0, a.name);
      } else if (where.last_level > level) {
        v.add(plan_rule::axis_on_required_level, as_double(where.inner * a.size),
              as_double(capacity(levels, level)), a.name);
      }
    }
  }
  if (m.heads % d.tensor != 0)
    v.add(plan_rule::tensor_divides_heads, as_double(d.tensor), as_double(m.heads));
  // Multi-query attention replicates its one KV head on every tensor-parallel rank (PaLM).
  if (m.mla.kv_lora_rank == 0 && m.kv_heads % d.tensor != 0 && m.kv_heads != 1)
    v.add(plan_rule::tensor_divides_kv_heads, as_double(d.tensor), as_double(m.kv_heads));
  if (dense_layer_count(m) > 0 && m.d_ff % d.tensor != 0)
    v.add(plan_rule::tensor_divides_d_ff, as_double(d.tensor), as_double(m.d_ff));
  if (is_moe(m) && m.moe.expert_d_ff % d.tensor != 0)
    v.add(plan_rule::tensor_divides_d_ff, as_double(d.tensor), as_double(m.moe.expert_d_ff));
  const std::int64_t chunks = d.pipeline * d.virtual_stages;
  if (d.uneven_stages ? m.layers < chunks : m.layers % chunks != 0)
    v.add(plan_rule::stages_divide_layers, as_double(chunks), as_double(m.layers));
  if (d.expert > 1 && !is_moe(m)) v.add(plan_rule::expert_needs_moe, as_double(d.expert));
  if (is_moe(m) && m.moe.experts % d.expert != 0)
    v.add(plan_rule::expert_divides_experts, as_double(d.expert), as_double(m.moe.experts));
  bool batch_sound = b.seq_len > 0 && b.micro_batch > 0 && b.global_tokens > 0;
  if (!batch_sound) {
    v.add(plan_rule::batch_given, as_double(b.global_tokens), as_double(b.seq_len), {},
          as_double(b.micro_batch));
  } else if (b.global_tokens % b.seq_len != 0) {
    v.add(plan_rule::tokens_divide_into_sequences, as_double(b.global_tokens),
          as_double(b.seq_len));
    batch_sound = false;
  } else if ((b.global_tokens / b.seq_len) % (d.data * b.micro_batch) != 0) {
    v.add(plan_rule::batch_divides, as_double(d.data * b.micro_batch),
          as_double(b.global_tokens / b.seq_len));
    batch_sound = false;
  }
  const std::int64_t chunks_per_sequence =
      context_load_balanced && d.context > 1 ? 2 * d.context : d.context;
  if (b.seq_len % chunks_per_sequence != 0) {
    v.add(plan_rule::context_divides_sequence, as_double(chunks_per_sequence),
          as_double(b.seq_len));
    batch_sound = false;
  }
  if (batch_sound && d.pipeline > 1 && d.schedule == pipeline_schedule::interleaved &&
      micro_batches(p.setup) % d.pipeline != 0)
    v.add(plan_rule::interleaving_needs_micro_batches, as_double(d.pipeline),
          as_double(micro_batches(p.setup)));
  if (d.zero_stage < 0 || d.zero_stage > 3)
    v.add(plan_rule::zero_stage_valid, as_double(d.zero_stage));
  if (batch_sound && axes_known && d.zero_stage >= 0 && d.zero_stage <= 3) {
    const memory_breakdown mem = memory_per_device(m, p.setup);
    if (mem.total > p.system.chip.memory)
      v.add(plan_rule::fits_in_memory, mem.total.value(), p.system.chip.memory.value());
  }
  return v;
}

/// Whether a plan with these violations has a batch to cost (the batch rules hold).
constexpr bool costable(const plan_violations& v) {
  return !v.has(plan_rule::batch_given) && !v.has(plan_rule::tokens_divide_into_sequences) &&
         !v.has(plan_rule::batch_divides) && !v.has(plan_rule::context_divides_sequence);
}

/// The violation as one line with its numbers, e.g. "tensor parallelism 16 does not divide 8 kv
/// heads".
inline std::string describe(const violation& x) {
  auto n = [](double d) { return detail::significant(d, 6); };
  const std::string axis = "'" + std::string(x.axis) + "'";
  switch (x.rule) {
    case plan_rule::strategy_axes_in_mesh:
      return "a strategy names mesh axis " + axis + ", which the mesh does not have";
    case plan_rule::axis_names_unique: return "the mesh names axis " + axis + " twice";
    case plan_rule::required_level_exists:
      return "mesh axis " + axis + " is placed on a level the system does not have";
    case plan_rule::batch_given:
      return "the batch has " + n(x.a) + " tokens in sequences of " + n(x.b) +
             " and micro-batches of " + n(x.c) + "; all must be positive";
    case plan_rule::mesh_within_system:
      return "the mesh has " + n(x.a) + " devices but the system has " + n(x.b) + " chips";
    case plan_rule::axis_has_a_role:
      return "mesh axis " + axis + " carries no parallelism";
    case plan_rule::axis_roles_compatible:
      return "mesh axis " + axis +
             " carries tensor, context or pipeline parallelism together "
             "with another parallelism";
    case plan_rule::axis_on_required_level:
      return "mesh axis " + axis + " spans " + n(x.a) + " chips but its level holds " + n(x.b);
    case plan_rule::tensor_divides_heads:
      return "tensor parallelism " + n(x.a) + " does not divide " + n(x.b) + " attention heads";
    case plan_rule::tensor_divides_kv_heads:
      return "tensor parallelism " + n(x.a) + " does not divide " + n(x.b) + " kv heads";
    case plan_rule::tensor_divides_d_ff:
      return "tensor parallelism " + n(x.a) + " does not divide the mlp width " + n(x.b);
    case plan_rule::stages_divide_layers:
      return n(x.a) + " pipeline chunks do not divide " + n(x.b) +
             " layers (uneven_stages allows a ragged split)";
    case plan_rule::expert_needs_moe:
      return "expert parallelism " + n(x.a) + " on a dense model";
    case plan_rule::expert_divides_experts:
      return "expert parallelism " + n(x.a) + " does not divide " + n(x.b) + " experts";
    case plan_rule::tokens_divide_into_sequences:
      return n(x.a) + " tokens are not whole sequences of " + n(x.b);
    case plan_rule::batch_divides:
      return "data parallelism times micro-batch (" + n(x.a) + ") does not divide " + n(x.b) +
             " sequences";
    case plan_rule::context_divides_sequence:
      return n(x.a) + " context chunks do not divide a sequence of " + n(x.b);
    case plan_rule::interleaving_needs_micro_batches:
      return n(x.b) + " micro-batches are not a multiple of " + n(x.a) + " pipeline stages";
    case plan_rule::zero_stage_valid:
      return "zero stage " + n(x.a) + " does not exist";
    case plan_rule::fits_in_memory:
      return "needs " + format(x.a * byte) + " per device against " + format(x.b * byte) +
             " of memory";
  }
  return "?";
}

}  // namespace shardplan
