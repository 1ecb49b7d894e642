// Systems chosen at run time by preset name and size (for plan files), with the same rules and
// limits as the system templates of systems.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <shardplan/hardware/catalog.hpp>
#include <shardplan/hardware/systems.hpp>

namespace shardplan {

/// A system preset and its size. Which sizes apply depends on the preset: `nodes` for GPU
/// clusters (and `gpus_per_node` and `chip` for the generic `nvlink_fat_tree`), `racks` for
/// GB200 NVL72, `shape` and `slices` for TPU slices.
struct system_request {
  std::string_view preset{};
  std::int64_t nodes = 0;
  std::int64_t gpus_per_node = 8;
  std::string_view chip{};  ///< a catalogue chip name, for nvlink_fat_tree
  /// The chip itself, for nvlink_fat_tree, instead of `chip` (a chip of the user's own).
  const chip_figures* own_chip = nullptr;
  std::int64_t racks = 0;
  std::array<std::int64_t, 3> shape = {0, 0, 0};
  std::int64_t slices = 1;
};

/// A system, or the rule the request breaks (the templates' static_assert text) and the request's
/// field that breaks it ("nodes", "gpus_per_node", "chip", "racks", "shape", "slices", "preset").
struct system_result {
  system_figures figures{};
  std::string_view error;
  std::string_view field;
};

/// True when two names are the same once case is ignored and a space, an underscore and a hyphen
/// count as one separator: "h100_sxm", "H100-SXM" and "h100 sxm" name one chip, "dgx h100
/// superpod" the preset "dgx_h100_superpod". Every name a plan file gives is matched this way.
constexpr bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  const auto fold = [](char c) {
    if (c == ' ' || c == '-') return '_';
    if (c >= 'A' && c <= 'Z') return static_cast<char>(c - 'A' + 'a');
    return c;
  };
  for (std::size_t i = 0; i < a.size(); ++i)
    if (fold(a[i]) != fold(b[i])) return false;
  return true;
}

/// The names `make_system` knows.
inline constexpr std::array<std::string_view, 11> system_preset_names = {
    "dgx_h100_superpod", "dgx_b200_superpod", "dgx_a100_superpod", "h800_cluster",
    "nvlink_fat_tree",   "gb200_nvl72",       "tpu_v5p_slice",     "tpu_v4p_slice",
    "tpu7x_slice",       "tpu_v5e_slice",     "tpu_v6e_slice"};

/// The catalogue chip named `name` (matched by `same_name`), or nullptr.
constexpr const chip_figures* find_chip(std::string_view name) {
  for (const chip_figures& c : catalog_chips)
    if (same_name(c.name, name)) return &c;
  return nullptr;
}

/// Builds the requested system at run time (or in a constant expression). The preset is matched
/// by `same_name`.
constexpr system_result make_system(const system_request& r) {
  namespace d = systems::detail;
  namespace lim = systems::limits;
  const auto is = [&r](std::string_view preset) { return same_name(r.preset, preset); };
  const auto superpod = [&r](std::string_view name, const chip_figures& chip, std::int64_t max,
                             d::fat_tree_shape shape, bool node_sharp,
                             std::string_view too_many) -> system_result {
    if (r.nodes < 1) return {{}, "shardplan: a dgx superpod has at least one node", "nodes"};
    if (r.nodes > max) return {{}, too_many, "nodes"};
    return {d::make_dgx_superpod(name, chip, r.nodes, shape, node_sharp), {}, {}};
  };
  if (is("dgx_h100_superpod"))
    return superpod("dgx h100 superpod", hardware::h100_sxm::figures, lim::dgx_h100_superpod_nodes,
                    d::radix64_shape(8), true,
                    "shardplan: a dgx h100 superpod has at most 2048 nodes (64 scalable units)");
  if (is("dgx_b200_superpod"))
    return superpod("dgx b200 superpod", hardware::b200::figures, lim::dgx_b200_superpod_nodes,
                    d::radix64_shape(8), true,
                    "shardplan: a dgx b200 superpod has at most 2048 nodes (64 scalable units)");
  if (is("dgx_a100_superpod"))
    return superpod("dgx a100 superpod", hardware::a100_80gb::figures, lim::dgx_a100_superpod_nodes,
                    {.nodes_per_su = 20, .max_sus_two_tier = 7, .sus_per_pod = 7}, false,
                    "shardplan: a dgx a100 superpod has at most 140 nodes (7 scalable units of 20)");
  if (is("h800_cluster")) {
    if (r.nodes < 1) return {{}, "shardplan: an h800 cluster has at least one node", "nodes"};
    if (r.nodes > lim::h800_cluster_nodes)
      return {{}, "shardplan: an h800 multi-plane fat tree has at most 2048 nodes (16384 gpus)",
              "nodes"};
    return {d::make_fat_tree({.name = "h800 cluster", .chip = hardware::h800::figures,
                              .nodes = r.nodes, .gpus_per_node = 8,
                              .shape = {.nodes_per_su = 32, .max_sus_two_tier = 64,
                                        .sus_per_pod = 64},
                              .scale_out_link = link_kind::infiniband, .node_reduction = true,
                              .scale_out_reduction = true}),
            {},
            {}};
  }
  if (is("nvlink_fat_tree")) {
    const chip_figures* chip = r.own_chip ? r.own_chip : find_chip(r.chip);
    if (chip == nullptr) return {{}, "shardplan: unknown chip for nvlink_fat_tree", "chip"};
    if (r.nodes < 1) return {{}, "shardplan: an nvlink fat tree has at least one node", "nodes"};
    const std::int64_t g = r.gpus_per_node;
    if (g != 1 && g != 2 && g != 4 && g != 8)
      return {{}, "shardplan: an nvlink fat tree node has 1, 2, 4 or 8 gpus", "gpus_per_node"};
    if (r.nodes > lim::fat_tree_gpus / g)
      return {{}, "shardplan: an nvlink fat tree of 64-port switches has at most 65536 gpus",
              "nodes"};
    return {d::make_fat_tree({.name = "nvlink fat tree", .chip = *chip, .nodes = r.nodes,
                              .gpus_per_node = g, .shape = d::radix64_shape(g)}),
            {},
            {}};
  }
  if (is("gb200_nvl72")) {
    if (r.racks < 1) return {{}, "shardplan: a gb200 nvl72 system has at least one rack", "racks"};
    if (r.racks > lim::gb200_nvl72_racks)
      return {{}, "shardplan: gb200 nvl72 racks in a fat tree of 64-port switches are at most 910",
              "racks"};
    return {d::make_gb200_nvl72(hardware::gb200::figures, r.racks), {}, {}};
  }
  const std::int64_t x = r.shape[0];
  const std::int64_t y = r.shape[1];
  const std::int64_t z = r.shape[2];
  if (r.slices < 1) return {{}, "shardplan: a tpu system has at least one slice", "slices"};
  const auto cube_slice = [&](std::string_view name, const chip_figures& chip, bool fits,
                              std::string_view too_large, std::string_view not_cubes) -> system_result {
    if (x < 1 || y < 1 || z < 1)
      return {{}, "shardplan: a tpu slice has at least one chip along every axis", "shape"};
    if (!fits) return {{}, too_large, "shape"};
    if (!(d::within_one_cube(x, y, z) || d::whole_cubes(x, y, z))) return {{}, not_cubes, "shape"};
    return {d::make_tpu_system(name, chip, {x, y, z}, d::cube_wraps(x, y, z), 3, r.slices), {},
            {}};
  };
  if (is("tpu_v5p_slice"))
    return cube_slice("tpu v5p slice", hardware::tpu_v5p::figures, d::fits_pod(x, y, z, 16, 20, 28),
                      "shardplan: a tpu v5p slice is at most 16x20x28 chips",
                      "shardplan: a tpu v5p slice larger than one 4x4x4 cube is made of whole cubes");
  if (is("tpu_v4p_slice"))
    return cube_slice("tpu v4p slice", hardware::tpu_v4p::figures, d::fits_pod(x, y, z, 16, 16, 16),
                      "shardplan: a tpu v4p slice is at most 16x16x16 chips",
                      "shardplan: a tpu v4p slice larger than one 4x4x4 cube is made of whole cubes");
  if (is("tpu7x_slice"))
    return cube_slice("tpu7x slice", hardware::tpu7x::figures,
                      x * y * z <= lim::tpu7x_slice_chips,
                      "shardplan: a tpu7x slice is at most 9216 chips",
                      "shardplan: a tpu7x slice larger than one 4x4x4 cube is made of whole cubes");
  const auto torus_2d = [&](std::string_view name, const chip_figures& chip,
                            std::string_view too_large) -> system_result {
    if (x < 1 || y < 1)
      return {{}, "shardplan: a tpu slice has at least one chip along every axis", "shape"};
    if (z != 1 && z != 0) return {{}, "shardplan: a 2d tpu slice has two extents", "shape"};
    if (x > 16 || y > 16) return {{}, too_large, "shape"};
    return {d::make_tpu_system(name, chip, {x, y, 1}, {x == 16, y == 16, false}, 2, r.slices), {},
            {}};
  };
  if (is("tpu_v5e_slice"))
    return torus_2d("tpu v5e slice", hardware::tpu_v5e::figures,
                    "shardplan: a tpu v5e slice is at most 16x16 chips");
  if (is("tpu_v6e_slice"))
    return torus_2d("tpu v6e slice", hardware::tpu_v6e::figures,
                    "shardplan: a tpu v6e slice is at most 16x16 chips");
  return {{}, "shardplan: unknown system preset", "preset"};
}

}  // namespace shardplan
