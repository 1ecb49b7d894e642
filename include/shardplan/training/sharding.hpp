// How a training plan partitions each weight and activation, in How to Scale Your Model's
// notation (`W_in[D_X, F_Y]`, `In[B_X, T, D]`), and the rule that an axis shards a tensor once.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <shardplan/training/plan.hpp>

namespace shardplan {

inline constexpr std::size_t max_tensor_rank = 5;

/// One dimension of a tensor and the mesh axes (indices into the plan's axes) it is split over.
struct dimension_sharding {
  std::string_view name;  ///< the book's letter: B, T, D, F, N, K, H, V, E, L
  std::array<std::uint8_t, max_mesh_axes> axes{};
  std::size_t axis_count = 0;
};

/// A tensor's partition: `W_in[L_pp, D_dp, F_tp]`.
struct tensor_sharding {
  std::string_view tensor;
  std::array<dimension_sharding, max_tensor_rank> dims{};
  std::size_t rank = 0;
};

inline constexpr std::size_t max_tensors = 12;

/// The plan's tensors, each with its partition.
struct plan_shardings {
  std::array<tensor_sharding, max_tensors> tensors{};
  std::size_t count = 0;
};

namespace detail {

/// A dimension split over every axis carrying any of `roles` (in mesh order, outermost first)
/// and not carrying any of `except`.
constexpr dimension_sharding dim(const training_plan_values& p, std::string_view name,
                                 std::uint8_t roles, std::uint8_t except = 0) {
  dimension_sharding d{name};
  for (std::size_t i = 0; i < p.axis_count; ++i)
    if ((p.axes[i].roles & roles) && !(p.axes[i].roles & except))
      d.axes[d.axis_count++] = static_cast<std::uint8_t>(i);
  return d;
}

constexpr tensor_sharding tensor(std::string_view name,
                                 std::initializer_list<dimension_sharding> dims) {
  tensor_sharding t{name};
  for (const dimension_sharding& d : dims) t.dims[t.rank++] = d;
  return t;
}

}  // namespace detail

/// The partitions a plan gives its main tensors. Conventions (the book's, `training.md`, with
/// Megatron-LM's layout for tensor and sequence parallelism):
/// - data-parallel axes split the batch B; ZeRO-3 (FSDP) axes split the weights' D as well;
/// - the tensor axis splits F, query heads N, KV heads K and the vocabulary V (vocab-parallel
///   embedding); with sequence parallelism it also splits T of the activations between blocks;
/// - the context axis splits T; the pipeline axis splits the layer dimension L of every weight;
/// - the expert axis splits the expert dimension E of expert weights; FSDP over an axis that is
///   also the expert axis does not split those weights' D again.
constexpr plan_shardings shardings_of(const training_plan_values& p) {
  using detail::dim;
  using detail::tensor;
  const bool fsdp = p.setup.degrees.zero_stage >= 3;
  const std::uint8_t zero = fsdp ? std::uint8_t{role_zero} : std::uint8_t{0};
  const std::uint8_t batch = role_data | role_zero;
  const auto sp = static_cast<std::uint8_t>(p.setup.degrees.sequence_parallel ? role_tensor : 0);
  const auto tokens = static_cast<std::uint8_t>(role_context | sp);
  plan_shardings s;
  auto add = [&s](const tensor_sharding& t) { s.tensors[s.count++] = t; };
  add(tensor("In", {dim(p, "B", batch), dim(p, "T", tokens), dim(p, "D", 0)}));
  add(tensor("W_q", {dim(p, "L", role_pipeline), dim(p, "D", zero), dim(p, "N", role_tensor),
                     dim(p, "H", 0)}));
  add(tensor("W_kv", {dim(p, "L", role_pipeline), dim(p, "D", zero), dim(p, "K", role_tensor),
                      dim(p, "H", 0)}));
  add(tensor("W_o", {dim(p, "L", role_pipeline), dim(p, "N", role_tensor), dim(p, "H", 0),
                     dim(p, "D", zero)}));
  add(tensor("Attn", {dim(p, "B", batch), dim(p, "T", role_context), dim(p, "N", role_tensor),
                      dim(p, "H", 0)}));
  if (is_moe(p.model)) {
    add(tensor("W_in", {dim(p, "L", role_pipeline), dim(p, "E", role_expert),
                        dim(p, "D", zero, role_expert), dim(p, "F", role_tensor)}));
    add(tensor("W_out", {dim(p, "L", role_pipeline), dim(p, "E", role_expert),
                         dim(p, "F", role_tensor), dim(p, "D", zero, role_expert)}));
  } else {
    add(tensor("W_in", {dim(p, "L", role_pipeline), dim(p, "D", zero), dim(p, "F", role_tensor)}));
    add(tensor("W_out", {dim(p, "L", role_pipeline), dim(p, "F", role_tensor), dim(p, "D", zero)}));
  }
  add(tensor("Hidden", {dim(p, "B", batch), dim(p, "T", role_context), dim(p, "F", role_tensor)}));
  add(tensor("W_emb", {dim(p, "V", role_tensor), dim(p, "D", zero)}));
  add(tensor("Logits", {dim(p, "B", batch), dim(p, "T", role_context), dim(p, "V", role_tensor)}));
  return s;
}

/// The first mesh axis that splits two dimensions of `t` (or one dimension twice), or -1. The
/// book: "a mesh axis may appear at most once per array" (`A[I_X, J_X]` is invalid).
constexpr std::int64_t axis_used_twice(const tensor_sharding& t) {
  std::array<int, max_mesh_axes> uses{};
  for (std::size_t d = 0; d < t.rank; ++d)
    for (std::size_t i = 0; i < t.dims[d].axis_count; ++i)
      if (++uses[t.dims[d].axes[i]] > 1) return t.dims[d].axes[i];
  return -1;
}

/// `W_in[L_pp, D_dp, F_tp]`: each dimension with its axes as a subscript, several joined
/// (`D_{dp,fsdp}`, outermost first, the book's `D_XY`).
inline std::string notation(const tensor_sharding& t, const training_plan_values& p) {
  std::string out = std::string(t.tensor) + "[";
  for (std::size_t d = 0; d < t.rank; ++d) {
    const dimension_sharding& x = t.dims[d];
    if (d > 0) out += ", ";
    out += x.name;
    if (x.axis_count == 0) continue;
    out += "_";
    if (x.axis_count > 1) out += "{";
    for (std::size_t i = 0; i < x.axis_count; ++i) {
      if (i > 0) out += ",";
      out += p.axes[x.axes[i]].name;
    }
    if (x.axis_count > 1) out += "}";
  }
  return out + "]";
}

}  // namespace shardplan
