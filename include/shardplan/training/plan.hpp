// A training plan as plain values (model, system, mesh, strategies, batch, precision), the rules
// it must obey and the check that lists what it breaks.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
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
  /// Fraction of peak every GEMM and attention call reaches; 0: the kernel model's
  /// shape-dependent fractions (`hardware/kernels.hpp`).
  double efficiency = 0.0;
  /// The peak MFU is reported against (bf16 unless the plan asks otherwise).
  number_format mfu_format = number_format::bf16;
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
  /// The global batch in sequences when it was given so (0: given in tokens); `global_tokens` is
  /// then sequences x seq_len, which `check` keeps within 64 bits.
  std::int64_t global_sequences = 0;
  /// An `efficiency<>` option was given: its 0 is then a mistake, not "the chip's default".
  bool efficiency_given = false;
};

/// The largest count a plan's 64-bit integers hold, 2^63 - 1.
inline constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

/// a x b for counts, never overflowing: `int64_max` where the product would not fit (tested
/// before multiplying), and the smaller factor where one is below 1 (a zero axis makes no
/// devices). `check` reports both as broken rules; the degrees built from them are not used.
constexpr std::int64_t saturating_product(std::int64_t a, std::int64_t b) {
  if (a < 1 || b < 1) return a < b ? a : b;
  return a > int64_max / b ? int64_max : a * b;
}

/// Product of the sizes of the axes carrying `role` (1 when none does; saturated at
/// `int64_max`).
constexpr std::int64_t degree_of(const training_plan_values& p, std::uint8_t role) {
  std::int64_t n = 1;
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].roles & role) n = saturating_product(n, p.axes[i].size);
  return n;
}

/// Devices in the mesh (saturated at `int64_max`).
constexpr std::int64_t mesh_devices(const training_plan_values& p) {
  std::int64_t n = 1;
  for (std::size_t i = 0; i < p.axis_count; ++i) n = saturating_product(n, p.axes[i].size);
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
      zero_expert = saturating_product(zero_expert, p.axes[i].size);
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
  for (std::size_t i = axis + 1; i < p.axis_count; ++i)
    inner = saturating_product(inner, p.axes[i].size);
  return place_axis(levels_of(p.system), inner, p.axes[axis].size);
}

/// The products of a plan's sizes that `check` keeps within 64-bit integers.
enum class product_of : std::uint8_t {
  mesh_devices,                ///< the axis sizes multiplied (every degree divides it)
  pipeline_chunks,             ///< pipeline stages x virtual stages
  context_chunks,              ///< 2 x context parallelism (the load-balanced ring)
  replicas_times_micro_batch,  ///< data parallelism x micro-batch
  global_tokens,               ///< global sequences x sequence length
};

/// What the product counts, as a sentence says it.
constexpr std::string_view product_name(product_of w) {
  switch (w) {
    case product_of::mesh_devices: return "the mesh's device count";
    case product_of::pipeline_chunks: return "pipeline stages times virtual stages";
    case product_of::context_chunks:
      return "the context chunk count (twice the context parallelism)";
    case product_of::replicas_times_micro_batch: return "data parallelism times the micro-batch";
    case product_of::global_tokens: return "the global batch in tokens (sequences times length)";
  }
  return "?";
}

/// A product of a plan's sizes that does not fit in 64 bits, and its value in doubles.
struct size_product {
  product_of what{};
  double value = 0.0;  ///< 0: every product fits
};

/// The first of a plan's products beyond `int64_max` (tested exactly, in integers), or one of
/// value 0 when all fit. Factors below 1 are left to the rules that name them (a zero axis, a zero
/// micro-batch).
constexpr size_product oversized_product(const training_plan_values& p) {
  const auto overflows = [](std::int64_t x, std::int64_t y) {
    return x > 0 && y > 0 && x > int64_max / y;
  };
  const auto as_double = [](std::int64_t x) { return static_cast<double>(x); };
  const parallel_degrees& d = p.setup.degrees;
  const batch_settings& b = p.setup.batch;
  std::int64_t devices = 1;
  double devices_exact = 1.0;
  bool devices_overflow = false;
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    devices_overflow = devices_overflow || overflows(devices, p.axes[i].size);
    devices = saturating_product(devices, p.axes[i].size);
    devices_exact *= as_double(p.axes[i].size);
  }
  if (devices_overflow) return {product_of::mesh_devices, devices_exact};
  if (overflows(d.pipeline, d.virtual_stages))
    return {product_of::pipeline_chunks, as_double(d.pipeline) * as_double(d.virtual_stages)};
  if (overflows(2, d.context)) return {product_of::context_chunks, 2.0 * as_double(d.context)};
  if (overflows(d.data, b.micro_batch))
    return {product_of::replicas_times_micro_batch, as_double(d.data) * as_double(b.micro_batch)};
  if (overflows(p.global_sequences, b.seq_len))
    return {product_of::global_tokens, as_double(p.global_sequences) * as_double(b.seq_len)};
  return {};
}

/// The rules a training plan obeys.
enum class plan_rule : std::uint8_t {
  strategy_axes_in_mesh,         ///< a: unknown names; axis: the first
  axis_names_unique,             ///< axis: the repeated name
  axis_has_a_device,             ///< axis; a: its size
  sizes_fit_in_64_bits,          ///< a: the product, b: 2^63 (a first count too many), c: which
  mesh_within_system,            ///< a: mesh devices, b: system chips
  axis_has_a_role,               ///< axis: the idle axis
  axis_roles_compatible,         ///< axis: the axis used twice
  required_level_exists,         ///< axis: the axis whose level the system lacks
  axis_on_required_level,        ///< axis; a: chips the axis spans, b: chips the level holds
  axis_tiles_torus,              ///< axis; a: chips the axis spans, b: chips of the torus level
  tensor_divides_heads,          ///< a: tensor, b: heads
  tensor_divides_kv_heads,       ///< a: tensor, b: kv heads
  tensor_divides_d_ff,           ///< a: tensor, b: d_ff (or expert d_ff)
  virtual_stages_suit_schedule,  ///< a: virtual stages, b: the schedule (`pipeline_schedule`)
  stages_divide_layers,  ///< a: pipeline x virtual stages, b: layers, c: layers the ends count as
  stages_within_layers,  ///< a: pipeline x virtual stages, b: layers, c: layers the ends count as
  stage_ends_leave_layers,  ///< a: layers of the first and last stage, b: layers, c: chunks between
  end_weights_within_share,  ///< a: the larger end weight, b: a chunk's share of the split
  expert_needs_moe,              ///< a: expert degree
  expert_divides_experts,        ///< a: expert degree, b: experts
  expert_divides_data,           ///< a: expert degree, b: data degree
  batch_given,                   ///< a: global tokens, b: sequence length, c: micro-batch
  tokens_divide_into_sequences,  ///< a: global tokens, b: sequence length
  batch_divides,                 ///< a: data x micro-batch, b: sequences per step
  context_divides_sequence,      ///< a: context (twice it when load-balanced), b: sequence length
  interleaving_needs_micro_batches,  ///< a: pipeline, b: micro-batches per replica
  zero_stage_valid,                  ///< a: the stage
  checkpoints_at_least_one,          ///< a: checkpoints per layer
  framework_runs_plan,  ///< a: the limit broken (`framework_limit`), b and c: its numbers
  efficiency_is_a_percentage,        ///< a: the efficiency in percent
  compute_format_supported,          ///< a: the compute format (`number_format`), b: its peak (0)
  fits_in_memory,                    ///< a: bytes needed per device, b: bytes of memory per device
  fits_in_host_memory,  ///< a: host bytes held per device, b: host memory per device
};

/// The last rule, for loops over every rule.
inline constexpr plan_rule last_plan_rule = plan_rule::fits_in_host_memory;

/// The rule's name, as the tool's JSON reports it ("tensor_divides_kv_heads").
constexpr std::string_view rule_name(plan_rule r) {
  switch (r) {
    case plan_rule::strategy_axes_in_mesh: return "strategy_axes_in_mesh";
    case plan_rule::axis_names_unique: return "axis_names_unique";
    case plan_rule::axis_has_a_device: return "axis_has_a_device";
    case plan_rule::sizes_fit_in_64_bits: return "sizes_fit_in_64_bits";
    case plan_rule::mesh_within_system: return "mesh_within_system";
    case plan_rule::axis_has_a_role: return "axis_has_a_role";
    case plan_rule::axis_roles_compatible: return "axis_roles_compatible";
    case plan_rule::required_level_exists: return "required_level_exists";
    case plan_rule::axis_on_required_level: return "axis_on_required_level";
    case plan_rule::axis_tiles_torus: return "axis_tiles_torus";
    case plan_rule::tensor_divides_heads: return "tensor_divides_heads";
    case plan_rule::tensor_divides_kv_heads: return "tensor_divides_kv_heads";
    case plan_rule::tensor_divides_d_ff: return "tensor_divides_d_ff";
    case plan_rule::virtual_stages_suit_schedule: return "virtual_stages_suit_schedule";
    case plan_rule::stages_divide_layers: return "stages_divide_layers";
    case plan_rule::stages_within_layers: return "stages_within_layers";
    case plan_rule::stage_ends_leave_layers: return "stage_ends_leave_layers";
    case plan_rule::end_weights_within_share: return "end_weights_within_share";
    case plan_rule::expert_needs_moe: return "expert_needs_moe";
    case plan_rule::expert_divides_experts: return "expert_divides_experts";
    case plan_rule::expert_divides_data: return "expert_divides_data";
    case plan_rule::batch_given: return "batch_given";
    case plan_rule::tokens_divide_into_sequences: return "tokens_divide_into_sequences";
    case plan_rule::batch_divides: return "batch_divides";
    case plan_rule::context_divides_sequence: return "context_divides_sequence";
    case plan_rule::interleaving_needs_micro_batches: return "interleaving_needs_micro_batches";
    case plan_rule::zero_stage_valid: return "zero_stage_valid";
    case plan_rule::framework_runs_plan: return "framework_runs_plan";
    case plan_rule::checkpoints_at_least_one: return "checkpoints_at_least_one";
    case plan_rule::efficiency_is_a_percentage: return "efficiency_is_a_percentage";
    case plan_rule::compute_format_supported: return "compute_format_supported";
    case plan_rule::fits_in_memory: return "fits_in_memory";
    case plan_rule::fits_in_host_memory: return "fits_in_host_memory";
  }
  return "?";
}

/// What a named framework cannot run (`plan_rule::framework_runs_plan`), each read off its code:
/// - `deepspeed_zero_with_pipeline`: DeepSpeed's pipeline engine refuses ZeRO-2 and ZeRO-3
///   ("ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism", an assertion in
///   `PipelineEngine.__init__`, deepspeed/runtime/pipe/engine.py at microsoft/DeepSpeed
///   38327e07f6cd39b63418f60cedd1651b0be3e7c3);
/// - `deepspeed_schedule`: its one training schedule is `TrainSchedule`, 1F1B
///   (deepspeed/runtime/pipe/schedule.py, same commit): no GPipe, interleaving or zero bubble;
/// - `torchtune_optimizer_in_backward`: torchtune refuses `optimizer_in_bwd` with gradient
///   accumulation ("Requires gradient_accumulation_steps=1", recipes/full_finetune_single_device.py
///   at 1814feb17a9038e1a8053ce93111bd26774a8db6), and a pipeline accumulates over micro-batches;
/// - `tp_comm_overlap_needs_sequence_parallel`: Megatron-LM refuses `--tp-comm-overlap` without
///   `--sequence-parallel` ("Tensor parallel communication/GEMM overlap can happen only when
///   sequence parallelism is enabled", megatron/training/arguments.py at core_r0.8.0), and
///   PyTorch's async TP rewrites only sequence parallelism's all-gathers and reduce-scatters;
/// - `torchtitan_async_tp_needs_compile`: torchtitan refuses async TP unless the model is
///   compiled ("Async TP requires 'model' in --compile.components and --compile.enable",
///   CompileConfig.__post_init__, torchtitan/config/configs.py at b5bcd76c66; "Async TP
///   requires --training.compile" at 820504e).
enum class framework_limit : std::uint8_t {
  none,
  deepspeed_zero_with_pipeline,     ///< b: the ZeRO stage, c: the pipeline stages
  deepspeed_schedule,               ///< b: the schedule (`pipeline_schedule`)
  torchtune_optimizer_in_backward,  ///< b: micro-batches per replica, c: the pipeline stages
  tp_comm_overlap_needs_sequence_parallel,  ///< b: the tensor-parallel degree
  torchtitan_async_tp_needs_compile,        ///< b: the tensor-parallel degree
};

/// The first of the plan's framework's limits the plan breaks (`framework_limit::none` if none).
constexpr framework_limit broken_framework_limit(const training_setup& t) {
  const parallel_degrees& d = t.degrees;
  if (d.pipeline > 1) {
    if (t.framework.pipeline_zero_0_or_1_only && d.zero_stage >= 2)
      return framework_limit::deepspeed_zero_with_pipeline;
    if (t.framework.pipeline_one_f_one_b_only && d.schedule != pipeline_schedule::one_f_one_b)
      return framework_limit::deepspeed_schedule;
  }
  if (t.framework.optimizer_in_backward_single_micro_batch && t.optimizer_in_backward &&
      (d.pipeline > 1 || micro_batches(t) != 1))
    return framework_limit::torchtune_optimizer_in_backward;
  if (t.tp_comm_overlap && d.tensor > 1 && !d.sequence_parallel)
    return framework_limit::tp_comm_overlap_needs_sequence_parallel;
  if (t.framework.async_tp_needs_compile && t.tp_comm_overlap && d.tensor > 1 &&
      !t.compiled_layers)
    return framework_limit::torchtitan_async_tp_needs_compile;
  return framework_limit::none;
}

/// The rule as a diagnostic states it.
constexpr std::string_view rule_text(plan_rule r) {
  switch (r) {
    case plan_rule::strategy_axes_in_mesh:
      return "shardplan: a strategy names an axis the mesh does not have";
    case plan_rule::axis_names_unique: return "shardplan: mesh axis names must be unique";
    case plan_rule::axis_has_a_device: return "shardplan: a mesh axis needs at least one device";
    case plan_rule::sizes_fit_in_64_bits:
      return "shardplan: the sizes of the plan multiply beyond a 64-bit integer";
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
    case plan_rule::axis_tiles_torus:
      return "shardplan: on a tpu torus every mesh axis must tile the torus axes it lands on";
    case plan_rule::tensor_divides_heads:
      return "shardplan: tensor parallelism must divide the attention heads";
    case plan_rule::tensor_divides_kv_heads:
      return "shardplan: tensor parallelism must divide the kv heads";
    case plan_rule::tensor_divides_d_ff:
      return "shardplan: tensor parallelism must divide the mlp width";
    case plan_rule::virtual_stages_suit_schedule:
      return "shardplan: the interleaved schedule needs at least 2 virtual stages, any other "
             "schedule 1";
    case plan_rule::stages_divide_layers:
      return "shardplan: pipeline stages times virtual stages must divide the layers";
    case plan_rule::stages_within_layers:
      return "shardplan: uneven stages still need a layer in every chunk: pipeline stages times "
             "virtual stages must not exceed the layers";
    case plan_rule::stage_ends_leave_layers:
      return "shardplan: the first and last stages must leave every chunk between them an equal "
             "share of the rest, one layer or more";
    case plan_rule::end_weights_within_share:
      return "shardplan: the layers the embedding or the output count as must not exceed the "
             "share of a chunk in the split";
    case plan_rule::expert_needs_moe:
      return "shardplan: expert parallelism needs a mixture-of-experts model";
    case plan_rule::expert_divides_experts:
      return "shardplan: expert parallelism must divide the experts";
    case plan_rule::expert_divides_data:
      return "shardplan: expert parallelism must divide data parallelism (experts are spread "
             "over data-parallel replicas)";
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
    case plan_rule::checkpoints_at_least_one:
      return "shardplan: recompute::checkpoints keeps at least 1 tensor per layer";
    case plan_rule::framework_runs_plan:
      return "shardplan: the framework of the plan cannot run it";
    case plan_rule::efficiency_is_a_percentage:
      return "shardplan: efficiency is a percentage between 0 and 100";
    case plan_rule::compute_format_supported:
      return "shardplan: the chip has no matrix units for the compute format of the plan";
    case plan_rule::fits_in_memory:
      return "shardplan: the plan needs more memory per device than the chip has";
    case plan_rule::fits_in_host_memory:
      return "shardplan: the plan offloads more to host memory than the host has per device";
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

inline constexpr std::size_t max_violations = 32;

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

/// Whether the plan's schedule has the virtual stages it needs: 2 or more for interleaved 1F1B
/// (Narayanan et al. 2021 give each device v >= 2 chunks), exactly 1 for every other schedule.
constexpr bool virtual_stages_suit(const parallel_degrees& d) {
  return d.schedule == pipeline_schedule::interleaved ? d.virtual_stages >= 2
                                                      : d.virtual_stages == 1;
}

/// What `check` finds, with the memory per device it computed on the way: computed when the
/// rules the memory needs hold (always for a plan with no violation), else zero.
struct plan_check {
  plan_violations violations{};
  memory_breakdown memory{};
};

/// Checks every rule. A zero axis or a product beyond 64 bits stops the check there (every other
/// rule would compute with it). Memory, which needs a batch that divides into micro-batches, is
/// checked whenever the batch rules hold, so that one build reports a divisibility and a memory
/// problem together. With `stop_over_capacity` (a search that asks only whether a plan fits), a
/// plan that offloads nothing has its memory computed up to the first pipeline stage over the
/// chip's memory: the violation then gives that stage's need, a lower bound of the device's.
constexpr plan_check check_plan(const training_plan_values& p, const parameter_counts& counts,
                                bool stop_over_capacity = false) {
  plan_check out;
  plan_violations& v = out.violations;
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
  bool sized = true;
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    if (p.axes[i].size < 1) {
      v.add(plan_rule::axis_has_a_device, as_double(p.axes[i].size), 0.0, p.axes[i].name);
      sized = false;
    }
  }
  if (!sized) return out;
  if (const size_product big = oversized_product(p); big.value > 0.0) {
    v.add(plan_rule::sizes_fit_in_64_bits, big.value, as_double(int64_max) /* 2^63 */, {},
          static_cast<double>(big.what));
    return out;
  }

  if (mesh_devices(p) > p.system.chips)
    v.add(plan_rule::mesh_within_system, as_double(mesh_devices(p)), as_double(p.system.chips));
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    const mesh_axis& a = p.axes[i];
    if (a.roles == 0 && axes_known)
      v.add(plan_rule::axis_has_a_role, as_double(a.size), 0.0, a.name);
    const int owners = ((a.roles & role_tensor) ? 1 : 0) + ((a.roles & role_context) ? 1 : 0) +
                       ((a.roles & role_pipeline) ? 1 : 0) +
                       ((a.roles & (role_data | role_zero | role_expert)) ? 1 : 0);
    if (owners > 1) v.add(plan_rule::axis_roles_compatible, as_double(a.size), 0.0, a.name);
    // A TPU mesh axis is a whole number of rings of the torus axes it lands on (JAX's
    // create_device_mesh maps logical axes onto physical ones): tensor 3 on a 4x4x4 v5p has
    // groups that wind through several rings without wraparound, which no launcher builds.
    if (p.system.torus.rank > 0 && a.size > 1) {
      const axis_placement where = placement_of(p, i);
      if (!where.aligned)
        v.add(plan_rule::axis_tiles_torus, as_double(where.inner * a.size),
              as_double(capacity(levels_of(p.system), where.last_level)), a.name);
    }
    if (!a.required_level.empty()) {
      const placement_levels levels = levels_of(p.system);
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
  const bool stages_sound = virtual_stages_suit(d);
  if (!stages_sound)
    v.add(plan_rule::virtual_stages_suit_schedule, as_double(d.virtual_stages),
          static_cast<double>(d.schedule));
  const std::int64_t chunks = d.pipeline * d.virtual_stages;
  const bool ends_given = stage_ends_given(d);
  const framework_profile& f = p.setup.framework;
  const double end_weights = as_double(f.pipeline_embedding_weight + f.pipeline_loss_weight);
  const bool split_whole = split_divides_layers(m, p.setup);
  const bool split_filled = split_within_layers(m, p.setup);
  const bool ragged = ragged_split_allowed(p.setup);
  if (stages_sound && !ends_given && !ragged && !split_whole)
    v.add(plan_rule::stages_divide_layers, as_double(chunks), as_double(m.layers) + end_weights,
          {}, end_weights);
  if (stages_sound && !ends_given && ragged && !split_filled)
    v.add(plan_rule::stages_within_layers, as_double(chunks), as_double(m.layers) + end_weights,
          {}, end_weights);
  // A weight above a chunk's share would leave that end's chunk fewer than no layers
  // (torchtitan's _generate_llm_fqn_per_model_part refuses it).
  const std::int64_t heavier = std::max(f.pipeline_embedding_weight, f.pipeline_loss_weight);
  const std::int64_t share =
      d.pipeline > 1 ? (m.layers + f.pipeline_embedding_weight + f.pipeline_loss_weight) / chunks
                     : heavier;
  if (stages_sound && !ends_given && split_filled && heavier > share)
    v.add(plan_rule::end_weights_within_share, as_double(heavier), as_double(share));
  if (stages_sound && ends_given && (!split_filled || (!ragged && !split_whole))) {
    v.add(plan_rule::stage_ends_leave_layers,
          as_double(d.first_stage_layers + d.last_stage_layers), as_double(m.layers), {},
          as_double(between_ends_of(m, d).stages * d.virtual_stages));
  }
  if (d.expert > 1 && !is_moe(m)) v.add(plan_rule::expert_needs_moe, as_double(d.expert));
  if (is_moe(m) && m.moe.experts % d.expert != 0)
    v.add(plan_rule::expert_divides_experts, as_double(d.expert), as_double(m.moe.experts));
  // Megatron-LM and DeepSpeed-MoE form the expert groups out of the data-parallel replicas.
  if (d.data % d.expert != 0)
    v.add(plan_rule::expert_divides_data, as_double(d.expert), as_double(d.data));
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
  const bool zero_sound = d.zero_stage >= 0 && d.zero_stage <= 3;
  if (!zero_sound) v.add(plan_rule::zero_stage_valid, as_double(d.zero_stage));
  if (batch_sound && zero_sound) {
    const framework_limit limit = broken_framework_limit(p.setup);
    const double code = static_cast<double>(static_cast<int>(limit));
    switch (limit) {
      case framework_limit::none: break;
      case framework_limit::deepspeed_zero_with_pipeline:
        v.add(plan_rule::framework_runs_plan, code, as_double(d.zero_stage), {},
              as_double(d.pipeline));
        break;
      case framework_limit::deepspeed_schedule:
        v.add(plan_rule::framework_runs_plan, code,
              static_cast<double>(static_cast<int>(d.schedule)));
        break;
      case framework_limit::torchtune_optimizer_in_backward:
        v.add(plan_rule::framework_runs_plan, code, as_double(micro_batches(p.setup)), {},
              as_double(d.pipeline));
        break;
      case framework_limit::tp_comm_overlap_needs_sequence_parallel:
      case framework_limit::torchtitan_async_tp_needs_compile:
        v.add(plan_rule::framework_runs_plan, code, as_double(d.tensor));
        break;
    }
  }
  const recompute_policy& r = p.setup.recompute;
  const bool recompute_sound =
      r.kind != recompute_kind::checkpoints || r.checkpoints_per_layer >= 1;
  if (!recompute_sound)
    v.add(plan_rule::checkpoints_at_least_one, as_double(r.checkpoints_per_layer));
  const double e = p.assumptions.efficiency;  // 0: the chip's default, unless given
  if (!(e >= 0.0 && e <= 1.0) || (p.efficiency_given && e == 0.0))
    v.add(plan_rule::efficiency_is_a_percentage, 100.0 * e);
  // A TPU v5e has no fp8 rate: every matmul of an fp8 recipe would take forever.
  if (!(peak(p.system.chip, p.setup.precision.compute).value() > 0.0))
    v.add(plan_rule::compute_format_supported,
          static_cast<double>(static_cast<int>(p.setup.precision.compute)), 0.0);
  if (batch_sound && axes_known && zero_sound && stages_sound && recompute_sound) {
    const bool host_free = !p.setup.offload.any() && p.setup.recompute.offloaded == 0;
    out.memory = stop_over_capacity && host_free
                     ? memory_per_device(m, counts, p.setup, p.system.chip.memory)
                     : memory_per_device(m, counts, p.setup);
    const memory_breakdown& mem = out.memory;
    if (mem.total > p.system.chip.memory)
      v.add(plan_rule::fits_in_memory, mem.total.value(), p.system.chip.memory.value());
    // What is offloaded lives in the host's memory, shared by its chips (`host_memory` is the
    // host's DRAM divided by them); a chip that states none has no host to offload to.
    if (mem.host > p.system.chip.host_memory)
      v.add(plan_rule::fits_in_host_memory, mem.host.value(), p.system.chip.host_memory.value());
  }
  return out;
}

/// `check_plan` with the model's parameter counts (`parameters`), which a search reuses.
constexpr plan_check check_plan(const training_plan_values& p) {
  return check_plan(p, parameters(p.model));
}

/// The violations `check_plan` finds.
constexpr plan_violations check(const training_plan_values& p) { return check_plan(p).violations; }

/// The memory verdict of a plan (`assess_memory`): its fullest stage's need against the chip's
/// memory, with the plan's margin (`training_setup::memory_margin`). Meaningful for a plan whose
/// batch rules hold (as `memory_per_device` is); the report, the JSON and the plan type's
/// `memory_verdict()` all call this one function.
constexpr memory_assessment memory_assessment_of(const training_plan_values& p) {
  memory_assessment a = assess_memory(memory_per_device(p.model, p.setup).total,
                                      p.system.chip.memory, p.setup.memory_margin);
  a.validated = memory_validated(p.system.chip, p.setup.framework);
  return a;
}

/// Whether a plan with these violations can be costed: its sizes, batch, schedule, expert groups,
/// recomputation and efficiency are sound (the other rules leave numbers that are wrong, not
/// meaningless).
constexpr bool costable(const plan_violations& v) {
  for (plan_rule r :
       {plan_rule::axis_has_a_device, plan_rule::sizes_fit_in_64_bits, plan_rule::batch_given,
        plan_rule::tokens_divide_into_sequences, plan_rule::batch_divides,
        plan_rule::context_divides_sequence, plan_rule::virtual_stages_suit_schedule,
        plan_rule::expert_divides_data, plan_rule::checkpoints_at_least_one,
        plan_rule::efficiency_is_a_percentage, plan_rule::compute_format_supported})
    if (v.has(r)) return false;
  return true;
}

/// The violation as one line with its numbers, e.g. "tensor parallelism 16 does not divide 8 kv
/// heads".
inline std::string describe(const violation& x) {
  auto n = [](double d) { return detail::significant(d, 6); };
  auto big = [](double d) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", d);
    return std::string(buf);
  };
  const std::string axis = std::string("'").append(x.axis).append("'");
  // The pipeline rules' layers with the ends a framework counts as layers (c of them).
  const std::string counted_ends =
      x.c > 0 ? " (" + n(x.b - x.c) + " and the " + n(x.c) + " the embedding and output count as)"
              : "";
  switch (x.rule) {
    case plan_rule::axis_has_a_device:
      return "mesh axis " + axis + " has " + n(x.a) + " devices; it needs at least 1";
    case plan_rule::sizes_fit_in_64_bits:
      return std::string(product_name(static_cast<product_of>(x.c))) + " is " + big(x.a) +
             ", more than a 64-bit integer holds (" + big(x.b) + ")";
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
    case plan_rule::axis_tiles_torus:
      return "mesh axis " + axis + " spans " + n(x.a) + " chips, which do not tile the " +
             n(x.b) + " chips of the torus axes it lands on";
    case plan_rule::tensor_divides_heads:
      return "tensor parallelism " + n(x.a) + " does not divide " + n(x.b) + " attention heads";
    case plan_rule::tensor_divides_kv_heads:
      return "tensor parallelism " + n(x.a) + " does not divide " + n(x.b) + " kv heads";
    case plan_rule::tensor_divides_d_ff:
      return "tensor parallelism " + n(x.a) + " does not divide the mlp width " + n(x.b);
    case plan_rule::virtual_stages_suit_schedule:
      return static_cast<pipeline_schedule>(x.b) == pipeline_schedule::interleaved
                 ? "the interleaved schedule needs 2 or more virtual stages, not " + n(x.a)
                 : "a schedule other than interleaved needs exactly 1 virtual stage, not " +
                       n(x.a);
    case plan_rule::stages_divide_layers:
      return n(x.a) + " pipeline chunks do not divide " + n(x.b) + " layers" + counted_ends +
             " (uneven_stages allows a ragged split)";
    case plan_rule::stages_within_layers:
      return n(x.a) + " pipeline chunks are more than the " + n(x.b) + " layers" + counted_ends +
             ", even with uneven stages";
    case plan_rule::end_weights_within_share:
      return "the embedding or the output counts as " + n(x.a) +
             " layers, more than the chunks' share of " + n(x.b);
    case plan_rule::stage_ends_leave_layers:
      return "the first and last stages hold " + n(x.a) + " of " + n(x.b) + " layers, leaving " +
             n(x.b - x.a) + " for the " + n(x.c) + " chunks between them" +
             (x.c == 0   ? ", which are none"
              : x.b - x.a < x.c ? ": fewer than one each"
                              : ": not an equal share each (uneven_stages allows a ragged split)");
    case plan_rule::expert_needs_moe:
      return "expert parallelism " + n(x.a) + " on a dense model";
    case plan_rule::expert_divides_experts:
      return "expert parallelism " + n(x.a) + " does not divide " + n(x.b) + " experts";
    case plan_rule::expert_divides_data:
      return "expert parallelism (" + n(x.a) + ") must divide data parallelism (" + n(x.b) + ")";
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
    case plan_rule::checkpoints_at_least_one:
      return "recompute::checkpoints needs at least 1 tensor per layer, not " + n(x.a);
    case plan_rule::framework_runs_plan:
      switch (static_cast<framework_limit>(static_cast<int>(x.a))) {
        case framework_limit::deepspeed_zero_with_pipeline:
          return "the framework's pipeline engine takes ZeRO-0 or ZeRO-1 (as DeepSpeed's), not "
                 "ZeRO-" + n(x.b) + " with a pipeline (" + n(x.c) + " stages)";
        case framework_limit::deepspeed_schedule:
          return "the framework's pipeline runs only 1F1B (as DeepSpeed's), not " +
                 std::string(schedule_name(static_cast<pipeline_schedule>(static_cast<int>(x.b))));
        case framework_limit::torchtune_optimizer_in_backward:
          return "the framework steps the optimizer in the backward only with one micro-batch "
                 "and no pipeline (as torchtune), not " + n(x.b) + " micro-batches on " + n(x.c) +
                 " stages";
        case framework_limit::tp_comm_overlap_needs_sequence_parallel:
          return "tensor-parallel communication overlap needs sequence parallelism (tensor "
                 "degree " + n(x.b) + ")";
        case framework_limit::torchtitan_async_tp_needs_compile:
          return "the framework runs async TP (tensor degree " + n(x.b) +
                 ") only with the model compiled (compiled_layers, as torchtitan)";
        case framework_limit::none: break;
      }
      return "the framework of the plan cannot run it";
    case plan_rule::efficiency_is_a_percentage:
      return "efficiency must be more than 0% and at most 100%, not " + n(x.a) + "%";
    case plan_rule::compute_format_supported:
      return "the chip has no " +
             std::string(name_of(static_cast<number_format>(static_cast<int>(x.a)))) +
             " matrix rate for the precision's compute format";
    case plan_rule::fits_in_memory:
      return "needs " + format(x.a * byte) + " per device against " + format(x.b * byte) +
             " of memory";
    case plan_rule::fits_in_host_memory:
      return "offloads " + format(x.a * byte) + " per device to host memory against " +
             format(x.b * byte) + " of host memory per device";
  }
  return "?";
}

}  // namespace shardplan
