// What a system is to shardplan: chips placed in a topology of network levels, as plain values.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <string_view>

#include <shardplan/core/units.hpp>
#include <shardplan/hardware/chip.hpp>

namespace shardplan {

/// The physical link a network level runs on.
enum class link_kind : std::uint8_t { ici, nvlink, infinity_fabric, infiniband, roce, dcn, pcie };

/// The lower-case name of a link kind ("nvlink").
constexpr std::string_view name_of(link_kind k) {
  switch (k) {
    case link_kind::ici: return "ici";
    case link_kind::nvlink: return "nvlink";
    case link_kind::infinity_fabric: return "infinity-fabric";
    case link_kind::infiniband: return "infiniband";
    case link_kind::roce: return "roce";
    case link_kind::dcn: return "dcn";
    case link_kind::pcie: return "pcie";
  }
  return "?";
}

/// One level of a hierarchical network: `degree` units of the level below (chips at level 0)
/// joined by `link`. `unit_egress` is the one-way bandwidth one such unit can push into this
/// level (a GPU's NVLink egress at the node level; a node's NIC egress at the leaf level; a
/// scalable unit's uplinks at the spine level). This is the W_i of the book's fat-tree cost
/// `bytes * max_i (D_i - 1) / (D_i * W_i)`.
struct network_level {
  std::string_view name;
  link_kind link = link_kind::nvlink;
  std::int64_t degree = 1;
  byte_rate unit_egress{};
  /// Latency of one hop at this level (the latency floor of small collectives).
  seconds hop_latency{};
  /// Switches at this level reduce in the network (NVIDIA SHARP).
  bool in_network_reduction = false;
};

/// An ICI torus slice (TPU): up to three physical axes, each with or without wraparound links.
struct torus_shape {
  std::array<std::int64_t, 3> extent = {1, 1, 1};
  std::array<bool, 3> wraps = {false, false, false};
  /// Number of physical axes (2 for v5e/v6e, 3 for v4/v5p/TPU7x).
  std::int64_t rank = 0;
};

inline constexpr std::int64_t max_network_levels = 5;

/// A system: `chips` chips of one kind in a hierarchy of network levels, innermost first.
/// On a TPU system level 0 is the ICI torus (its shape in `torus`) and level 1 joins slices
/// over DCN; on a GPU system level 0 is the NVLink (or Infinity Fabric) domain.
struct system_figures {
  std::string_view name;
  chip_figures chip;
  std::int64_t chips = 0;
  std::array<network_level, max_network_levels> levels{};
  std::int64_t level_count = 0;
  torus_shape torus{};
};

/// Chips inside one unit of level `i` (the product of degrees up to and including it).
/// Saturates at 2^62 (no real system comes near; a plan-file topology holds at most 1e8 chips).
constexpr std::int64_t chips_per_unit(const system_figures& s, std::int64_t level) {
  constexpr std::int64_t cap = std::int64_t{1} << 62;
  std::int64_t n = 1;
  for (std::int64_t i = 0; i <= level && i < s.level_count; ++i) {
    const std::int64_t d = s.levels[static_cast<std::size_t>(i)].degree;
    n = d > 0 && n > cap / d ? cap : n * d;
  }
  return n;
}

/// A type that describes a system: it carries `static constexpr system_figures figures`.
template <class T>
concept SystemSpec = requires {
  { T::figures } -> std::convertible_to<const system_figures&>;
};

}  // namespace shardplan
