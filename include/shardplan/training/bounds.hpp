// Where communication stops hiding under compute: the critical batch of data parallelism and
// FSDP per axis, the tensor-parallel limit, the optimal FSDP x TP split, expert-parallel and DCN
// thresholds (How to Scale Your Model, training.md and gpus.md). Each is constexpr, for
// static_assert.
#pragma once

#include <cmath>
#include <cstdint>

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

/// Bounds of a plan: data axes compare tokens per device per step (B/N) with C/(W·M), where W is
/// the axis's all-gather bandwidth for its groups and M = N/data the devices that share one
/// replica of the model (their arrays are M times smaller: the book's inner-axis saving); for
/// FSDP the forward pass's 4BDF/(XC) against 4DF/W gives the same ratio. The tensor axis
/// compares its degree with F·W/C.
constexpr plan_bounds bounds_of(const training_plan_values& p) {
  plan_bounds out;
  const flop_rate c = compute_peak(p);
  const double devices = static_cast<double>(mesh_devices(p));
  const double tokens_per_device = static_cast<double>(p.setup.batch.global_tokens) / devices;
  const double model_parallel = devices / static_cast<double>(p.setup.degrees.data);
  const double width = is_moe(p.model) ? static_cast<double>(p.model.moe.expert_d_ff)
                                       : static_cast<double>(p.model.d_ff);
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    const mesh_axis& a = p.axes[i];
    if (a.size <= 1) continue;
    const byte_rate w = axis_bandwidth(network_of(p, i));
    if (a.roles & (role_data | role_zero)) {
      out.items[out.count++] = {i, role_data, data_parallel_critical_tokens(c, w) / model_parallel,
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
