// What a training step costs: FLOPs per device, the bytes each strategy's collectives move on
// each mesh axis and their time on the real links, the pipeline bubble, the optimizer update,
// step time, tokens per second and MFU. All of it is an estimate; `step_assumptions` says how.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include <shardplan/hardware/collectives.hpp>
#include <shardplan/models/flops.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/training/plan.hpp>

namespace shardplan {

/// The fraction of peak matrix throughput a chip family sustains on a transformer's matmuls,
/// measured end to end (kernel efficiency, not communication or bubbles, which are modelled).
/// Calibrated on the published runs of `tests/validation` (see its RUNS.md) and overridable per
/// plan with `efficiency<percent{...}>`.
constexpr double default_efficiency(const chip_figures& chip) {
  switch (chip.kind) {
    // TPUs: PaLM 540B on v4 and MaxText on v5p need 0.86 with tensor-parallel all-reduces charged
    // in full (XLA overlaps part of them; the book: TPUs reach "closer to 95%" of peak).
    case chip_kind::tpu:
      return 0.86;
    case chip_kind::gpu:
      return chip.peak_bf16.value() > 500e12 ? 0.62 : 0.62;  // H100-class / A100-class
    case chip_kind::cpu:
      return 0.50;  // an assumption: AMX kernels rarely exceed half of peak
  }
  return 0.6;
}

/// Bytes that the memory-bound elementwise operations (norms, residual adds, activation
/// functions, dropout, and with eager attention the softmax over the s x s scores) read and write
/// per token in one training step, over all layers: per layer and forward pass e·(12·h + 4·f)
/// plus e·4·a·s for eager attention (read and write of the scores in the fused
/// scale-mask-softmax and in dropout), a backward pass of twice that, and one more forward of
/// what recomputation repeats (everything under full recomputation, the softmax under
/// selective). An estimate of the traffic, not a count of kernels: it is what makes small
/// models (h of a few thousand) slower than their matmuls alone.
constexpr bytes elementwise_bytes_per_token(const model_shape& m, const training_setup& t) {
  const double e = t.precision.activation_bytes;
  const double h = static_cast<double>(m.d_model);
  const double f =
      is_moe(m) ? static_cast<double>((m.moe.top_k + m.moe.shared_experts) * m.moe.expert_d_ff)
                : static_cast<double>(m.d_ff);
  const double scores =
      t.eager_attention ? 4.0 * static_cast<double>(m.heads) * static_cast<double>(t.batch.seq_len)
                        : 0.0;
  const double layers = static_cast<double>(m.layers);
  const bool full =
      t.recompute.kind == recompute_kind::full || t.recompute.kind == recompute_kind::checkpoints;
  const bool selective = t.recompute.kind == recompute_kind::selective;
  const double dense = e * (12.0 * h + 4.0 * f) * layers * (full ? 4.0 : 3.0);
  const double softmax = e * scores * layers * (full || selective ? 4.0 : 3.0);
  return (dense + softmax) * byte;
}

/// The traffic of one strategy on one mesh axis in one step: which collective, how often, the
/// array each one moves (as `collective_time` sizes it), the bytes one device sends in the
/// whole step, the time on the axis's links and the part that is not hidden under compute.
struct axis_traffic {
  std::string_view strategy;
  collective_kind collective = collective_kind::all_gather;
  std::size_t axis = 0;
  double count = 0.0;  ///< collectives per step
  bytes array{};       ///< the array of one collective
  bytes bytes_per_device{};
  double forward_share = 0.0;  ///< the part of the collectives in the forward pass (the rest:
                               ///< backward pass, or between steps for ZeRO's gathers)
  seconds time{};
  seconds exposed{};

  /// Bytes one device sends in the forward and in the backward pass.
  constexpr bytes forward_bytes() const { return bytes_per_device * forward_share; }
  constexpr bytes backward_bytes() const { return bytes_per_device * (1.0 - forward_share); }
};

inline constexpr std::size_t max_traffic = 24;

/// A step's cost.
struct step_cost {
  flops model_flops{};              ///< per step, all devices (no recomputation)
  flops hardware_flops{};           ///< per step, all devices (with recomputation)
  seconds compute{};                ///< matmuls at peak × efficiency plus elementwise memory time
  seconds elementwise{};            ///< the part of `compute` that is memory-bound elementwise ops
  seconds bubble{};                 ///< pipeline bubble
  seconds communication_exposed{};  ///< communication not hidden under compute
  seconds optimizer{};              ///< reading and writing the optimizer state from memory
  seconds step{};
  seconds roofline{};  ///< lower bound: the slowest of compute and each axis at peak
  double efficiency = 0.0;
  double mfu = 0.0;
  double tokens_per_second_per_device = 0.0;
  std::array<axis_traffic, max_traffic> traffic{};
  std::size_t traffic_count = 0;
};

/// The network the collectives of axis `a` use.
constexpr axis_network network_of(const placement_levels& levels, const training_plan_values& p,
                                  std::size_t a) {
  std::int64_t inner = 1;
  for (std::size_t i = a + 1; i < p.axis_count; ++i) inner *= p.axes[i].size;
  return network_of(levels, inner, p.axes[a].size);
}
constexpr axis_network network_of(const training_plan_values& p, std::size_t a) {
  return network_of(levels_of(p.system), p, a);
}

/// The first axis carrying `role`, or the axis count when none does.
constexpr std::size_t first_axis(const training_plan_values& p, std::uint8_t role) {
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if (p.axes[i].roles & role) return i;
  return p.axis_count;
}

/// The peak rate of the plan's compute format on its chip.
constexpr flop_rate compute_peak(const training_plan_values& p) {
  return peak(p.system.chip, p.setup.precision.compute);
}

/// Estimates one training step. The model:
/// - compute: hardware FLOPs (with recomputation) divided evenly over the mesh, at the peak of
///   the precision's compute format times the efficiency, plus the elementwise operations'
///   memory traffic at HBM bandwidth (`elementwise_bytes_per_token`);
/// - data parallelism: one all-reduce of the gradients a step (ZeRO-1/2: a reduce-scatter of
///   gradients and an all-gather of parameters; ZeRO-3: per micro-batch two all-gathers of the
///   parameters and a reduce-scatter of the gradients), over the data axes; expert gradients
///   only over data axes that are not expert axes. Hidden under compute when overlapped (ZeRO-3
///   behind each micro-batch, the others behind the last micro-batch's backward pass);
/// - tensor parallelism: per layer and micro-batch two all-reduces forward and two backward of
///   the [b, s, h] activations (sequence parallelism swaps each for an all-gather and a
///   reduce-scatter, the same bytes), two more with full recomputation; on the critical path;
/// - context parallelism: per layer and micro-batch the ring passes K and V forward and K, V and
///   their gradients backward, sized as three all-gathers of the keys and values; hidden under
///   attention compute when overlapped;
/// - pipeline parallelism: per micro-batch and virtual stage a send forward and one backward of
///   the boundary activations (split over tensor-parallel ranks); 2·(m + p − 2) of them on the
///   critical path (the book's T_PP);
/// - expert parallelism: per MoE layer and micro-batch a dispatch and a combine all-to-all
///   forward and backward of the routed tokens, each token sent once to each distinct device
///   its top-k experts live on (`expected_destinations`); on the critical path;
/// - bubble: (p−1)/(v·m) of the compute for 1F1B and interleaved 1F1B, (p−1)/m for GPipe,
///   (p−1)/(3m) for ZB-H1;
/// - optimizer: the update reads and writes master weights and optimizer states and reads
///   gradients and parameters once, from HBM.
constexpr step_cost estimate_step(const training_plan_values& p, step_assumptions a) {
  const model_shape& m = p.model;
  const training_setup& t = p.setup;
  const parallel_degrees& d = t.degrees;
  const chip_figures& chip = p.system.chip;
  const double devices = static_cast<double>(mesh_devices(p));
  const double tokens = static_cast<double>(t.batch.global_tokens);
  step_cost c;
  c.efficiency = a.efficiency > 0.0 ? a.efficiency : default_efficiency(chip);
  const flop_rate peak_rate = compute_peak(p);

  const token_flops forward = forward_flops_per_token(m, t.batch.seq_len, a.attention);
  c.model_flops = 3.0 * forward.total() * flop * tokens;
  c.hardware_flops = hardware_flops_per_token(forward, t.recompute) * tokens;
  const seconds compute_at_peak = c.hardware_flops / devices / peak_rate;
  c.elementwise = elementwise_bytes_per_token(m, t) * tokens / devices / chip.memory_bandwidth;
  c.compute = compute_at_peak / c.efficiency + c.elementwise;

  const double mb = static_cast<double>(micro_batches(t));
  const double p_stages = static_cast<double>(d.pipeline);
  const double v_stages = static_cast<double>(d.virtual_stages);
  const double stage_layers = static_cast<double>(layers_per_stage(m, d));
  const double moe_share = static_cast<double>(moe_layer_count(m)) / static_cast<double>(m.layers);
  const double s_local = static_cast<double>(t.batch.seq_len / d.context);
  const double b = static_cast<double>(t.batch.micro_batch);
  const double e_act = t.precision.activation_bytes;
  const collective_options opts{a.in_network_reduction, true};
  const seconds compute_per_micro_batch = c.compute / mb;
  const seconds attention_per_micro_batch = c.compute * (forward.attention / forward.total()) / mb;

  const placement_levels levels = levels_of(p.system);
  auto add = [&c, &p, &opts, &levels](std::string_view strategy, collective_kind kind,
                                      std::size_t axis, double count, bytes array,
                                      seconds hidden_under, double forward_share) {
    if (axis >= p.axis_count || p.axes[axis].size <= 1 || count <= 0.0) return;
    const axis_network net = network_of(levels, p, axis);
    const seconds one = collective_time(kind, array, net, opts);
    axis_traffic x{strategy, kind, axis, count, array};
    x.forward_share = forward_share;
    const double n = static_cast<double>(p.axes[axis].size);
    double sent = array.value() * (n - 1.0) / n;  // a ring's share of the array per device
    if (kind == collective_kind::all_reduce) sent *= 2.0;
    if (kind == collective_kind::all_to_all) sent = array.value() / n * (n - 1.0) / n;
    if (kind == collective_kind::send_recv) sent = array.value();
    x.bytes_per_device = sent * count * byte;
    x.time = one * count;
    x.exposed = x.time > hidden_under ? x.time - hidden_under : 0.0 * second;
    if (c.traffic_count < max_traffic) c.traffic[c.traffic_count++] = x;
  };

  // Data parallelism and ZeRO, per data axis group: the gradients and parameters one device
  // holds (after tensor, pipeline and expert sharding).
  const device_parameters held = parameters_on_device(m, d, stage_position::first);
  const double grad_b =
      t.precision.gradient_bytes > 0.0 ? t.precision.gradient_bytes : t.precision.parameter_bytes;
  const double param_b = t.precision.parameter_bytes;
  const seconds backward_last =
      a.overlap_data_parallel ? compute_per_micro_batch * (2.0 / 3.0) : 0.0 * second;
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    if (!(p.axes[i].roles & (role_data | role_zero))) continue;
    // One collective over this axis carries the parameters of every data axis outside it
    // (hierarchically); sizing each axis's collective by the device's full array is the
    // book's per-axis model.
    const double params = held.dense + ((p.axes[i].roles & role_expert) ? 0.0 : held.expert);
    const bool zero_axis = (p.axes[i].roles & role_zero) != 0;
    if (d.zero_stage >= 3 && zero_axis) {
      // Per micro-batch: the forward gather hides under the forward pass (a third of the
      // compute), the backward gather and the gradient scatter under the backward pass.
      const seconds window = a.overlap_data_parallel ? compute_per_micro_batch * mb : 0.0 * second;
      add("fsdp parameter gather", collective_kind::all_gather, i, 2.0 * mb,
          params * param_b * byte, window * (2.0 / 3.0), 0.5);
      add("fsdp gradient scatter", collective_kind::reduce_scatter, i, mb, params * grad_b * byte,
          window / 3.0, 0.0);
    } else if (d.zero_stage >= 1 && !zero_axis) {
      // A plain data axis beside ZeRO axes (hybrid sharding) all-reduces the gradients the
      // ZeRO axes have already reduce-scattered.
      add("gradient all-reduce", collective_kind::all_reduce, i, 1.0,
          params / static_cast<double>(d.zero) * grad_b * byte, backward_last, 0.0);
    } else if (d.zero_stage >= 1) {
      add("zero gradient scatter", collective_kind::reduce_scatter, i, 1.0, params * grad_b * byte,
          backward_last, 0.0);
      add("zero parameter gather", collective_kind::all_gather, i, 1.0, params * param_b * byte,
          a.overlap_data_parallel ? compute_per_micro_batch / 3.0 : 0.0 * second, 1.0);
    } else {
      add("gradient all-reduce", collective_kind::all_reduce, i, 1.0, params * grad_b * byte,
          backward_last, 0.0);
    }
  }

  // Tensor parallelism: the [b, s, h] activations of every layer of the stage.
  const double tp_per_layer =
      t.recompute.kind == recompute_kind::full || t.recompute.kind == recompute_kind::checkpoints
          ? 6.0
          : 4.0;
  add("tensor all-reduce", collective_kind::all_reduce, first_axis(p, role_tensor),
      tp_per_layer * stage_layers * mb, b * s_local * static_cast<double>(m.d_model) * e_act * byte,
      0.0 * second, 2.0 / tp_per_layer);

  // Context parallelism: keys and values of every layer.
  const double kv_width = m.mla.kv_lora_rank > 0
                              ? static_cast<double>(m.heads) *
                                    static_cast<double>(m.mla.qk_nope_head_dim +
                                                        m.mla.qk_rope_head_dim + m.mla.v_head_dim)
                              : 2.0 * static_cast<double>(m.kv_heads * m.head_dim);
  add("context kv ring", collective_kind::all_gather, first_axis(p, role_context),
      3.0 * stage_layers * mb, b * static_cast<double>(t.batch.seq_len) * kv_width * e_act * byte,
      a.overlap_context ? attention_per_micro_batch : 0.0 * second, 1.0 / 3.0);

  // Pipeline parallelism: boundary activations forward and gradients backward, split over the
  // tensor-parallel ranks (sequence parallelism, or Megatron's scatter/gather optimisation).
  // The book's T = message·(N_MB + N_stages − 2) per direction is on the critical path; the
  // other sends of an interleaved schedule overlap.
  {
    const std::size_t pp_axis = first_axis(p, role_pipeline);
    const double sends = 2.0 * mb * v_stages;
    const double critical = 2.0 * (mb + p_stages - 2.0);
    const bytes message =
        b * s_local * static_cast<double>(m.d_model) * e_act / static_cast<double>(d.tensor) * byte;
    if (pp_axis < p.axis_count) {
      const seconds one = collective_time(collective_kind::send_recv, message,
                                          network_of(levels, p, pp_axis), opts);
      add("pipeline send", collective_kind::send_recv, pp_axis, sends, message,
          one * std::max(0.0, sends - critical), 0.5);
    }
  }

  // Expert parallelism: every MoE layer dispatches each token to the devices of its top-k
  // experts and combines the results back, forward and backward: a ragged all-to-all that sends
  // a token once per distinct destination device.
  if (is_moe(m))
    add("expert all-to-all", collective_kind::all_to_all, first_axis(p, role_expert),
        4.0 * stage_layers * moe_share * mb,
        b * s_local * expected_destinations(m.moe.top_k, d.expert) *
            static_cast<double>(m.d_model) * e_act * static_cast<double>(d.expert) * byte,
        0.0 * second, 0.5);

  seconds exposed = 0.0 * second;
  seconds slowest_axis = 0.0 * second;
  for (std::size_t i = 0; i < c.traffic_count; ++i) {
    exposed += c.traffic[i].exposed;
    slowest_axis = std::max(slowest_axis, c.traffic[i].time);
  }
  c.communication_exposed = exposed;

  double bubble_fraction = 0.0;
  if (d.pipeline > 1) {
    switch (d.schedule) {
      case pipeline_schedule::gpipe:
      case pipeline_schedule::one_f_one_b:
        bubble_fraction = (p_stages - 1.0) / mb;
        break;
      case pipeline_schedule::interleaved:
        bubble_fraction = (p_stages - 1.0) / (v_stages * mb);
        break;
      case pipeline_schedule::zero_bubble:
        bubble_fraction = (p_stages - 1.0) / (3.0 * mb);
        break;
    }
  }
  c.bubble = c.compute * bubble_fraction;

  const memory_breakdown mem = memory_per_device(m, t);
  const bytes optimizer_traffic =
      2.0 * (mem.master_weights + mem.optimizer) + mem.gradients + mem.parameters;
  c.optimizer = optimizer_traffic / chip.memory_bandwidth;

  c.step = c.compute + c.bubble + c.communication_exposed + c.optimizer;
  c.roofline = std::max(compute_at_peak, slowest_axis);
  c.mfu = mfu(c.model_flops, c.step, devices, peak_rate);
  c.tokens_per_second_per_device = tokens / c.step.value() / devices;
  return c;
}

/// Estimates one training step with the plan's own assumptions.
constexpr step_cost estimate_step(const training_plan_values& p) {
  return estimate_step(p, p.assumptions);
}

}  // namespace shardplan
