// Where communication stops hiding under compute: the critical batch of data parallelism and
// FSDP per axis, the tensor-parallel limit, the optimal FSDP x TP split, expert-parallel and DCN
// thresholds (How to Scale Your Model, training.md and gpus.md). Each is constexpr, for
// static_assert.
//
// Convention: a plan's bounds (`bounds_of`) use the bandwidth an axis sustains in an all-gather
// of its own size, W = V/T_AG(V), so they keep the ring's (n−1)/n: the book's small-X form
// "B/N > α(X−1)/X" (gpus.md: 1237 for 2 nodes). The book's headline figures (2200 in an H100
// node, 2475 across nodes, 2550 on a v5p axis) drop it, as if the ring were infinite; those are
// C/W_link, what `scale_up_intensity` gives. An 8-GPU H100 data axis is therefore compute-bound
// above 2199·7/8 = 1924 tokens a GPU, not 2199.
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include <shardplan/hardware/collectives.hpp>
#include <shardplan/training/cost.hpp>
#include <shardplan/core/units.hpp>

namespace shardplan {

/// Bandwidth a mesh axis sustains in a large all-gather (V / T_AG(V), no latency): W_ici on a
/// wrapping TPU axis, M·W_ici over M physical axes, W_ici/2·X/(X−1) without wraparound, a GPU's
/// NVLink egress·N/(N−1) in a node, the slowest level of a fat tree.
constexpr byte_rate axis_bandwidth(const axis_network& net) {
  const bytes v = 1e12 * byte;
  const seconds t = collective_time(collective_kind::all_gather, v, net, {.latency = false});
  return t.value() > 0.0 ? v / t : 0.0 * byte / second;
}

/// Tokens per device above which data parallelism or FSDP over an axis of bandwidth `w` is
/// compute-bound: B/X > C/W (the backward pass's 8BDF/(XC) against the gradients' 8DF/W).
constexpr double data_parallel_critical_tokens(flop_rate c, byte_rate w) { return (c / w).value(); }

/// The largest tensor-parallel degree that stays compute-bound: Y < F·W/C (T_math = 4BDF/(YC)
/// against T_comms = 4BD/W; W counts every physical axis the tensor axis spans).
constexpr double tensor_parallel_limit(double d_ff, flop_rate c, byte_rate w) {
  return d_ff * (w / c).value();
}

/// Tokens per device above which FSDP over X combined with tensor parallelism over Y is
/// compute-bound: B/N > C²/(W_X·W_Y·F) (the book's α²/(M_X·M_Y·F)).
constexpr double fsdp_tensor_critical_tokens(double d_ff, flop_rate c, byte_rate w_fsdp,
                                             byte_rate w_tensor) {
  return c.value() * c.value() / (w_fsdp.value() * w_tensor.value() * d_ff);
}

namespace detail {
constexpr double sqrt_newton(double x) {
  if (x <= 0.0) return 0.0;
  double r = x > 1.0 ? x : 1.0;
  for (int i = 0; i < 100; ++i) r = 0.5 * (r + x / r);
  return r;
}
}  // namespace detail

/// The FSDP degree that minimises communication for N chips, a batch of B tokens and width F:
/// X_opt = sqrt(B·N·W_X/(F·W_Y)) (the book's sqrt((B/F)·(M_X/M_Y)·N)).
constexpr double optimal_fsdp_degree(double batch_tokens, double chips, double d_ff,
                                     byte_rate w_fsdp, byte_rate w_tensor) {
  return detail::sqrt_newton(batch_tokens * chips * w_fsdp.value() / (d_ff * w_tensor.value()));
}

/// Tokens per slice above which pure data parallelism across slices over DCN is compute-bound:
/// C / W_dcn per chip (73,440 for v5p).
constexpr double dcn_critical_tokens_per_slice(flop_rate c, byte_rate dcn_per_chip) {
  return (c / dcn_per_chip).value();
}

/// Whether expert parallelism over Z GPUs (8 per NVLink node) is compute-bound (gpus.md): with
/// α = C/W_node, F > α·(Z−8)/k when k > Z/8, else F > 8α.
constexpr bool expert_parallel_compute_bound(double expert_d_ff, double top_k, double z,
                                             double alpha) {
  if (z <= 8.0) return true;
  return top_k > z / 8.0 ? expert_d_ff > alpha * (z - 8.0) / top_k : expert_d_ff > 8.0 * alpha;
}

/// A plan's bound on one mesh axis: the critical value and the plan's own.
struct axis_bound {
  std::size_t axis = 0;
  std::uint8_t role = 0;
  double critical = 0.0;  ///< data: tokens per device; tensor: the largest degree
  double actual = 0.0;    ///< data: the plan's tokens per device; tensor: its degree
  constexpr bool compute_bound() const {
    return role == role_tensor ? actual <= critical : actual >= critical;
  }
};

inline constexpr std::size_t max_bounds = max_mesh_axes;

/// The bounds of every data and tensor axis of a plan.
struct plan_bounds {
  std::array<axis_bound, max_bounds> items{};
  std::size_t count = 0;
  constexpr bool compute_bound() const {
    for (std::size_t i = 0; i < count; ++i)
      if (!items[i].compute_bound()) return false;
    return true;
  }
};

/// Tokens per device above which a data axis is compute-bound, for a model whose tokens each use
/// `active` parameters while the axis reduces `reduced` parameters a device, with `value_bytes`
/// bytes per reduced value (b): the backward pass's 4·(B/N)·P_active/C against the all-reduce's
/// 2·b·P_reduced/W gives B/N > (C/W)·(b/2)·P_reduced/P_active. Dense, bf16 and M devices
/// sharing a replica, that is the book's C/(W·M); a mixture of experts whose data axis reduces
/// every expert multiplies it by P_total/P_active, the book's E/k (gpus.md, "MoE DP": T_math =
/// 8kBDF/(XC) against T_comms = 8EDF/W) when the experts are all its parameters. A data axis
/// that is also the expert axis reduces only the dense parameters.
constexpr double data_axis_critical_tokens(flop_rate c, byte_rate w, double reduced,
                                           double active, double value_bytes) {
  return data_parallel_critical_tokens(c, w) * (value_bytes / 2.0) * reduced / active;
}

/// Bytes per value of a data axis's collectives, as `data_parallel_traffic` sizes them: the
/// gradients' format; a ZeRO-3 axis the mean of its two parameter gathers and one gradient
/// scatter in the reduce format (`gradient_reduce_bytes`); a plain axis beside ZeRO axes
/// (hybrid sharding) the reduce format.
constexpr double data_axis_bytes(const training_plan_values& p, std::size_t i) {
  const precision_policy& q = p.setup.precision;
  const bool zero_axis = (p.axes[i].roles & role_zero) != 0;
  const std::int64_t stage = p.setup.degrees.zero_stage;
  if (stage >= 3 && zero_axis)
    return (2.0 * q.parameter_bytes + gradient_reduce_bytes(p.setup)) / 3.0;
  if (stage >= 1 && !zero_axis) return gradient_reduce_bytes(p.setup);
  return held_gradient_bytes(q);
}

/// What a bound compares, for a report (the convention at the top of this header).
constexpr std::string_view bound_formula(const axis_bound& b) {
  return b.role == role_tensor
             ? "largest degree F·W/C, W with (n-1)/n"
             : "tokens per device (C/W)·(b/2)·P_reduced/P_active, W with (n-1)/n";
}

/// Bounds of a plan: data axes compare tokens per device per step (B/N) with
/// `data_axis_critical_tokens`, where W is the axis's all-gather bandwidth for its groups and
/// P_reduced the parameters it reduces on one device (`data_axis_parameters`, as the cost model
/// sizes its collectives); for FSDP the forward pass's 4BDF/(XC) against 4DF/W gives the same
/// ratio. The tensor axis compares its degree with F·W/C.
constexpr plan_bounds bounds_of(const training_plan_values& p) {
  plan_bounds out;
  const flop_rate c = compute_peak(p);
  const double devices = static_cast<double>(mesh_devices(p));
  const double tokens_per_device = static_cast<double>(p.setup.batch.global_tokens) / devices;
  const double active = static_cast<double>(parameters(p.model).active);
  const double width = is_moe(p.model) ? static_cast<double>(p.model.moe.expert_d_ff)
                                       : static_cast<double>(p.model.d_ff);
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    const mesh_axis& a = p.axes[i];
    if (a.size <= 1) continue;
    const byte_rate w = axis_bandwidth(network_of(p, i));
    if (a.roles & (role_data | role_zero)) {
      out.items[out.count++] = {
          i, role_data,
          data_axis_critical_tokens(c, w, data_axis_parameters(p, i), active, data_axis_bytes(p, i)),
          tokens_per_device};
    } else if (a.roles & role_tensor) {
      out.items[out.count++] = {i, role_tensor, tensor_parallel_limit(width, c, w),
                                static_cast<double>(a.size)};
    }
  }
  return out;
}

/// Seconds to process `work` on `chips` chips of peak `c` at a given MFU.
constexpr seconds time_at_mfu(flops work, double chips, flop_rate c, double mfu_fraction) {
  return work / (c * chips * mfu_fraction);
}

}  // namespace shardplan
