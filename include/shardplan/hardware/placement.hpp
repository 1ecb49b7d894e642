// Where each mesh axis lands on a system's network: the levels (NVLink domain, leaf, spine; TPU
// torus axes; DCN) whose links its collectives cross.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <shardplan/hardware/system.hpp>

namespace shardplan {

/// One level a mesh axis can be placed on. A TPU torus contributes one level per physical axis
/// ("ici-x", "ici-y", "ici-z"), each with its own wraparound; other levels are the system's own.
struct placement_level {
  std::string_view name;
  link_kind link = link_kind::nvlink;
  std::int64_t degree = 1;  ///< units of the level below joined here
  byte_rate unit_egress{};  ///< one-way bandwidth one unit of the level below pushes into it
  seconds hop_latency{};
  bool wraps = false;  ///< a torus axis with wraparound links
  bool torus = false;  ///< a physical torus axis (links to two fixed neighbours)
  bool in_network_reduction = false;
};

inline constexpr std::size_t max_placement_levels = max_network_levels + 3;

/// The levels of a system, innermost first.
struct placement_levels {
  std::array<placement_level, max_placement_levels> level{};
  std::size_t count = 0;
};

/// A system's levels, with a TPU torus expanded into its physical axes.
constexpr placement_levels levels_of(const system_figures& s) {
  placement_levels out;
  std::int64_t first = 0;
  if (s.torus.rank > 0) {
    constexpr std::array<std::string_view, 3> names = {"ici-x", "ici-y", "ici-z"};
    const network_level& ici = s.levels[0];
    for (std::int64_t i = 0; i < s.torus.rank; ++i) {
      const auto k = static_cast<std::size_t>(i);
      out.level[out.count++] = {names[k],
                                ici.link,
                                s.torus.extent[k],
                                scale_up_axis_bandwidth(s.chip),
                                ici.hop_latency,
                                s.torus.wraps[k],
                                true,
                                false};
    }
    first = 1;
  }
  for (std::int64_t i = first; i < s.level_count; ++i) {
    const network_level& l = s.levels[static_cast<std::size_t>(i)];
    out.level[out.count++] = {l.name,        l.link, l.degree, l.unit_egress,
                              l.hop_latency, false,  false,    l.in_network_reduction};
  }
  return out;
}

/// Chips inside one unit of `levels.level[i]` (1 for i < 0).
constexpr std::int64_t capacity(const placement_levels& levels, std::int64_t i) {
  std::int64_t n = 1;
  for (std::int64_t k = 0; k <= i && k < static_cast<std::int64_t>(levels.count); ++k)
    n *= levels.level[static_cast<std::size_t>(k)].degree;
  return n;
}

/// Whether every group of a mesh axis lies inside one block of `block` consecutive devices.
/// Devices are numbered with the innermost (last) mesh axis varying fastest, so a group of an
/// axis of `size` inside axes of `inner` devices is {o·inner·size + r + j·inner : j < size}.
/// Every group is inside one block when inner·size divides the block, or when all `devices`
/// fit in one block; otherwise some block boundary b·block falls strictly inside a stretch
/// [o·inner·size, (o+1)·inner·size) of devices that exist, and the group starting at offset
/// r = (b·block − o·inner·size) mod inner has members on both sides of it. For example tensor
/// 3 on nodes of 8 GPUs: the group {6, 7, 8} crosses from the first node into the second.
constexpr bool groups_within(std::int64_t block, std::int64_t inner, std::int64_t size,
                             std::int64_t devices) {
  if (size <= 1 || devices <= block) return true;
  return block % (inner * size) == 0;
}

/// Where one mesh axis lands: the levels its worst group crosses. An axis whose inner axes
/// hold `inner` chips and which has `size` chips uses level i when its groups do not all fit
/// inside units of level i−1 and inner < capacity(i) (members differing only in this axis share
/// a unit of level i), up to the first level whose units hold every group whole. Sizes that do
/// not divide a level's units therefore reach the level above: tensor 3 on 8-GPU nodes crosses
/// the leaf switches, because the group {6, 7, 8} does.
struct axis_placement {
  std::int64_t inner = 1;        ///< chips of the axes inside this one
  std::int64_t first_level = 0;  ///< innermost level the axis crosses
  std::int64_t last_level = 0;   ///< outermost level the axis crosses
  bool within_system = true;     ///< inner·size does not exceed the system
  /// Every group lies inside one unit of `last_level` and starts on a unit boundary of the
  /// level below `first_level` at most: sizes that tile the levels they cross.
  bool aligned = true;
  /// Every level crossed is a torus axis used whole and with wraparound: its rings are
  /// bidirectional.
  bool wraps = false;
};

/// `devices` is the number of devices the mesh uses (0: the whole system), counted from the
/// first chip.
constexpr axis_placement place_axis(const placement_levels& levels, std::int64_t inner,
                                    std::int64_t size, std::int64_t devices = 0) {
  axis_placement p;
  p.inner = inner;
  const std::int64_t outer = inner * size;
  const auto n = static_cast<std::int64_t>(levels.count);
  const std::int64_t system = capacity(levels, n - 1);
  const std::int64_t used = devices > 0 ? devices : system;
  p.within_system = outer <= system;
  std::int64_t first = -1;
  std::int64_t last = -1;
  for (std::int64_t i = 0; i < n; ++i) {
    const bool leaves_below = !groups_within(capacity(levels, i - 1), inner, size, used);
    if (leaves_below && inner < capacity(levels, i)) {
      if (first < 0) first = i;
      last = i;
    }
    if (groups_within(capacity(levels, i), inner, size, used)) break;
  }
  if (first < 0) first = last = n - 1;
  p.first_level = first;
  p.last_level = last;
  p.aligned = size <= 1 || capacity(levels, last) % outer == 0 || outer % capacity(levels, last) == 0;
  bool wraps = size > 1;
  for (std::int64_t i = first; i <= last; ++i) {
    const placement_level& l = levels.level[static_cast<std::size_t>(i)];
    const bool whole = inner <= capacity(levels, i - 1) && outer >= capacity(levels, i);
    wraps = wraps && l.torus && l.wraps && whole;
  }
  p.wraps = wraps;
  return p;
}

/// The index of the level named `name`, or -1.
constexpr std::int64_t find_level(const placement_levels& levels, std::string_view name) {
  for (std::size_t i = 0; i < levels.count; ++i)
    if (levels.level[i].name == name) return static_cast<std::int64_t>(i);
  return -1;
}

}  // namespace shardplan
