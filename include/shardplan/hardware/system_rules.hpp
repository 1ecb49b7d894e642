// The rules a chip and a system obey, whoever describes them: a chip type or system type in C++
// (`checked_system<System>()` fails the build naming the rule and its numbers), or a plan file's
// `system.chip` object and `system.levels` (the reader reports the same rule's text). The presets
// of systems.hpp and system_presets.hpp keep every rule by construction.
#pragma once

#include <cstdint>
#include <string_view>

#include <shardplan/core/rule.hpp>
#include <shardplan/hardware/chip.hpp>
#include <shardplan/hardware/system.hpp>

namespace shardplan {

// --- chip rules ----------------------------------------------------------------------------------

/// The rules a chip's figures obey, in the order they are checked; `none`: the chip is valid.
enum class chip_rule : std::uint8_t {
  none,
  has_a_name,
  has_memory,
  rates_valid,
  links_valid,
  kernel_fractions_valid,
};

/// The formats with a positive peak, and those with a negative one.
struct chip_rate_counts {
  std::int64_t positive = 0;
  std::int64_t negative = 0;
};

constexpr chip_rate_counts rate_counts(const chip_figures& c) {
  chip_rate_counts n;
  for (number_format f : all_number_formats) {
    const double x = peak(c, f).value();
    if (x > 0.0) ++n.positive;
    if (x < 0.0 || x != x) ++n.negative;
  }
  return n;
}

/// Predicates of the chip rules, each safe for any input.
namespace chip_rules {
constexpr bool has_memory(double memory_bytes, double bandwidth_bytes_per_second) {
  return memory_bytes > 0.0 && bandwidth_bytes_per_second > 0.0;
}
constexpr bool rates_valid(chip_rate_counts n) { return n.positive >= 1 && n.negative == 0; }
/// A scale-up fabric has links with bandwidth; no link count or bandwidth is negative.
constexpr bool links_valid(scale_up_kind kind, std::int64_t links, double link_bandwidth,
                           double scale_out, double host_link, double host_memory) {
  if (links < 0 || !(link_bandwidth >= 0.0) || !(scale_out >= 0.0) || !(host_link >= 0.0) ||
      !(host_memory >= 0.0))
    return false;
  return kind == scale_up_kind::none || (links >= 1 && link_bandwidth > 0.0);
}
constexpr bool fraction(double x) { return x >= 0.0 && x <= 1.0; }
/// Fractions in [0, 1]; tiles not negative; the reduction overhead -1 (none) or more, the
/// measured error in [-1, 1] (-1: never measured).
constexpr bool kernel_fractions_valid(const kernel_fractions& k) {
  return fraction(k.gemm) && fraction(k.gemm_low_precision) && fraction(k.memory) &&
         fraction(k.attention_forward) && fraction(k.attention_backward) &&
         fraction(k.sustained) && k.tile_rows >= 0 && k.tile_columns >= 0 &&
         k.reduction_overhead >= -1.0 && k.reduction_overhead <= 1e9 && k.step_error >= -1.0 &&
         k.step_error <= 1.0;
}
}  // namespace chip_rules

/// The first rule `c` breaks, or `chip_rule::none`.
constexpr chip_rule first_broken_rule(const chip_figures& c) {
  namespace r = chip_rules;
  if (c.name.empty()) return chip_rule::has_a_name;
  if (!r::has_memory(c.memory.value(), c.memory_bandwidth.value())) return chip_rule::has_memory;
  if (!r::rates_valid(rate_counts(c))) return chip_rule::rates_valid;
  if (!r::links_valid(c.scale_up, c.scale_up_links, c.scale_up_link_bandwidth.value(),
                      c.scale_out_bandwidth.value(), c.host_link_bandwidth.value(),
                      c.host_memory.value()))
    return chip_rule::links_valid;
  if (!r::kernel_fractions_valid(c.kernels)) return chip_rule::kernel_fractions_valid;
  return chip_rule::none;
}

/// The rule as a diagnostic states it (the same text as `checked_system`'s `static_assert`).
constexpr std::string_view rule_text(chip_rule rule) {
  switch (rule) {
    case chip_rule::none: return "shardplan: the chip is valid";
    case chip_rule::has_a_name: return "shardplan: a chip needs a name";
    case chip_rule::has_memory:
      return "shardplan: a chip needs a positive memory capacity and memory bandwidth";
    case chip_rule::rates_valid:
      return "shardplan: a chip needs a positive peak rate in at least one number format and no "
             "negative one";
    case chip_rule::links_valid:
      return "shardplan: the scale-up fabric of a chip needs at least one link with positive "
             "bandwidth, and no link figure may be negative";
    case chip_rule::kernel_fractions_valid:
      return "shardplan: the kernel fractions of a chip are between 0 and 1 (tiles not negative, "
             "the "
             "reduction overhead at least -1, the measured error within -1 and 1)";
  }
  return "?";
}

// --- system rules --------------------------------------------------------------------------------

/// The rules a system's topology obeys (after its chip's), in the order they are checked.
enum class system_rule : std::uint8_t {
  none,
  chip_valid,
  level_count_in_range,
  levels_join_units,
  level_names_unique,
  levels_have_bandwidth,
  chips_fill_levels,
  torus_is_first_level,
};

/// The product of the levels' degrees, saturated at 2^62 (any real system is far below).
constexpr std::int64_t level_capacity(const system_figures& s) {
  std::int64_t n = 1;
  const std::int64_t cap = std::int64_t{1} << 62;
  for (std::int64_t i = 0; i < s.level_count && i < max_network_levels; ++i) {
    const std::int64_t d = s.levels[static_cast<std::size_t>(i)].degree;
    if (d < 1) return 0;
    n = n > cap / d ? cap : n * d;
  }
  return n;
}

/// The first level (index) that breaks `ok`, or -1.
template <class Ok>
constexpr std::int64_t first_level_breaking(const system_figures& s, Ok ok) {
  for (std::int64_t i = 0; i < s.level_count && i < max_network_levels; ++i)
    if (!ok(s.levels[static_cast<std::size_t>(i)], i)) return i;
  return -1;
}

/// Predicates of the system rules, each safe for any input.
namespace system_rules {
/// At most 5 levels; a system without one is a single chip (a CPU server, `chips_fill_levels`).
constexpr bool level_count_in_range(std::int64_t count) {
  return count >= 0 && count <= max_network_levels;
}
constexpr bool level_joins_units(const network_level& l) { return l.degree >= 1; }
/// A level that joins more than one unit moves bytes: positive bandwidth; no latency below 0.
constexpr bool level_has_bandwidth(const network_level& l) {
  return (l.degree <= 1 || l.unit_egress.value() > 0.0) && l.unit_egress.value() >= 0.0 &&
         l.hop_latency.value() >= 0.0;
}
/// `chips` is at most the levels' capacity and leaves no unit of the outermost level empty (the
/// presets' partly filled last scalable unit or pod is allowed).
constexpr bool chips_fill_levels(std::int64_t chips, std::int64_t capacity,
                                 std::int64_t outermost_degree) {
  if (chips < 1 || capacity < 1 || chips > capacity) return false;
  return outermost_degree < 1 || chips > capacity / outermost_degree * (outermost_degree - 1);
}
/// A torus (rank 2 or 3) is level 0: its extents multiply to the degree of that level.
constexpr bool torus_is_first_level(const torus_shape& t, std::int64_t first_degree) {
  if (t.rank == 0) return true;
  if (t.rank != 2 && t.rank != 3) return false;
  std::int64_t n = 1;
  for (std::int64_t i = 0; i < 3; ++i) {
    const std::int64_t e = t.extent[static_cast<std::size_t>(i)];
    if (e < 1 || (i >= t.rank && e != 1)) return false;
    n *= e;
  }
  return n == first_degree;
}
}  // namespace system_rules

/// The first level that joins no unit, or -1.
constexpr std::int64_t first_level_without_units(const system_figures& s) {
  return first_level_breaking(
      s, [](const network_level& l, std::int64_t) { return system_rules::level_joins_units(l); });
}

/// The first level that joins units without bandwidth (or has a negative figure), or -1.
constexpr std::int64_t first_level_without_bandwidth(const system_figures& s) {
  return first_level_breaking(
      s, [](const network_level& l, std::int64_t) { return system_rules::level_has_bandwidth(l); });
}

/// The first level whose name is empty or repeats an earlier one, or -1.
constexpr std::int64_t first_bad_level_name(const system_figures& s) {
  return first_level_breaking(s, [&s](const network_level& l, std::int64_t i) {
    if (l.name.empty()) return false;
    for (std::int64_t j = 0; j < i; ++j)
      if (s.levels[static_cast<std::size_t>(j)].name == l.name) return false;
    return true;
  });
}

/// The first rule `s` breaks, or `system_rule::none` (`chip_valid` when its chip breaks one).
constexpr system_rule first_broken_rule(const system_figures& s) {
  namespace r = system_rules;
  if (first_broken_rule(s.chip) != chip_rule::none) return system_rule::chip_valid;
  if (!r::level_count_in_range(s.level_count)) return system_rule::level_count_in_range;
  if (first_level_without_units(s) >= 0) return system_rule::levels_join_units;
  if (first_bad_level_name(s) >= 0) return system_rule::level_names_unique;
  if (first_level_without_bandwidth(s) >= 0) return system_rule::levels_have_bandwidth;
  const std::int64_t outermost =
      s.level_count > 0 ? s.levels[static_cast<std::size_t>(s.level_count - 1)].degree : 1;
  if (!r::chips_fill_levels(s.chips, level_capacity(s), outermost))
    return system_rule::chips_fill_levels;
  if (!r::torus_is_first_level(s.torus, s.levels[0].degree))
    return system_rule::torus_is_first_level;
  return system_rule::none;
}

/// The rule as a diagnostic states it (the same text as `checked_system`'s `static_assert`).
constexpr std::string_view rule_text(system_rule rule) {
  switch (rule) {
    case system_rule::none: return "shardplan: the system is valid";
    case system_rule::chip_valid: return "shardplan: the system's chip breaks a chip rule";
    case system_rule::level_count_in_range:
      return "shardplan: a system has at most 5 network levels";
    case system_rule::levels_join_units:
      return "shardplan: every network level joins at least one unit";
    case system_rule::level_names_unique:
      return "shardplan: network levels need names, each its own";
    case system_rule::levels_have_bandwidth:
      return "shardplan: a network level joining more than one unit needs a positive bandwidth, "
             "and no level a negative bandwidth or latency";
    case system_rule::chips_fill_levels:
      return "shardplan: the chips of a system are at most the product of the degrees of its "
             "levels and "
             "leave no unit of the outermost level empty";
    case system_rule::torus_is_first_level:
      return "shardplan: a torus of 2 or 3 axes is the first level: its extents multiply to "
             "the degree of that level";
  }
  return "?";
}

/// The text of the first rule `s` breaks (its chip's own rule when the chip breaks one), or empty.
constexpr std::string_view first_broken_rule_text(const system_figures& s) {
  const system_rule r = first_broken_rule(s);
  if (r == system_rule::none) return {};
  if (r == system_rule::chip_valid) return rule_text(first_broken_rule(s.chip));
  return rule_text(r);
}

/// Value traits that carry a chip's or a system's numbers into a diagnostic (whole units:
/// gigabytes, GB/s, TFLOP/s rounded down).
namespace system_checks {
// clang-format off
struct name_length { std::int64_t value; };
struct memory_gigabytes { std::int64_t value; };
struct bandwidth_gigabytes_per_second { std::int64_t value; };
struct formats_with_a_rate { std::int64_t value; };
struct negative_rates { std::int64_t value; };
struct scale_up_links { std::int64_t value; };
struct link_gigabytes_per_second { std::int64_t value; };
struct kernel_fractions_in_range { bool value; };
struct levels { std::int64_t value; };
struct level_index { std::int64_t value; };
struct chips { std::int64_t value; };
struct level_capacity_chips { std::int64_t value; };
struct outermost_degree { std::int64_t value; };
struct torus_rank { std::int64_t value; };
struct first_level_degree { std::int64_t value; };
// clang-format on

constexpr std::int64_t whole(double x) { return static_cast<std::int64_t>(x); }

template <name_length N>
struct chip_has_a_name { static constexpr bool value = N.value > 0; };
template <memory_gigabytes M, bandwidth_gigabytes_per_second W, bool Holds>
struct chip_has_memory { static constexpr bool value = Holds; };
template <formats_with_a_rate P, negative_rates N>
struct chip_rates_valid { static constexpr bool value = P.value >= 1 && N.value == 0; };
template <scale_up_links L, link_gigabytes_per_second W, bool Holds>
struct chip_links_valid { static constexpr bool value = Holds; };
template <kernel_fractions_in_range K>
struct chip_kernel_fractions_valid { static constexpr bool value = K.value; };
template <levels L>
struct level_count_in_range {
  static constexpr bool value = system_rules::level_count_in_range(L.value);
};
template <level_index I>
struct levels_join_units { static constexpr bool value = I.value < 0; };
template <level_index I>
struct level_names_unique { static constexpr bool value = I.value < 0; };
template <level_index I>
struct levels_have_bandwidth { static constexpr bool value = I.value < 0; };
template <chips C, level_capacity_chips Capacity, outermost_degree D>
struct chips_fill_levels {
  static constexpr bool value = system_rules::chips_fill_levels(C.value, Capacity.value, D.value);
};
template <torus_rank R, chips TorusChips, first_level_degree D, bool Holds>
struct torus_is_first_level { static constexpr bool value = Holds; };
}  // namespace system_checks

/// `System::figures` after checking every chip and system rule at compile time. A broken rule
/// stops compilation with `"shardplan: <rule>"` and a trait that shows the numbers.
template <SystemSpec System>
constexpr const system_figures& checked_system() {
  namespace k = system_checks;
  namespace r = system_rules;
  constexpr const system_figures& s = System::figures;
  constexpr const chip_figures& c = s.chip;
  constexpr chip_rate_counts rates = rate_counts(c);
  {
    using rule = k::chip_has_a_name<k::name_length{static_cast<std::int64_t>(c.name.size())}>;
    SHARDPLAN_RULE(rule::value, "shardplan: a chip needs a name", rule);
  }
  {
    using rule =
        k::chip_has_memory<k::memory_gigabytes{k::whole(c.memory.value() / 1e9)},
                           k::bandwidth_gigabytes_per_second{
                               k::whole(c.memory_bandwidth.value() / 1e9)},
                           chip_rules::has_memory(c.memory.value(), c.memory_bandwidth.value())>;
    SHARDPLAN_RULE(rule::value,
                   "shardplan: a chip needs a positive memory capacity and memory bandwidth", rule);
  }
  {
    using rule = k::chip_rates_valid<k::formats_with_a_rate{rates.positive},
                                     k::negative_rates{rates.negative}>;
    SHARDPLAN_RULE(rule::value,
                   "shardplan: a chip needs a positive peak rate in at least one number format and "
                   "no negative one",
                   rule);
  }
  {
    using rule = k::chip_links_valid<
        k::scale_up_links{c.scale_up_links},
        k::link_gigabytes_per_second{k::whole(c.scale_up_link_bandwidth.value() / 1e9)},
        chip_rules::links_valid(c.scale_up, c.scale_up_links, c.scale_up_link_bandwidth.value(),
                                c.scale_out_bandwidth.value(), c.host_link_bandwidth.value(),
                                c.host_memory.value())>;
    SHARDPLAN_RULE(rule::value,
                   "shardplan: the scale-up fabric of a chip needs at least one link with positive "
                   "bandwidth, and "
                   "no link figure may be negative",
                   rule);
  }
  {
    using rule = k::chip_kernel_fractions_valid<k::kernel_fractions_in_range{
        chip_rules::kernel_fractions_valid(c.kernels)}>;
    SHARDPLAN_RULE(
        rule::value,
        "shardplan: the kernel fractions of a chip are between 0 and 1 (tiles not negative, the "
        "reduction overhead at least -1, the measured error within -1 and 1)",
        rule);
  }
  {
    using rule = k::level_count_in_range<k::levels{s.level_count}>;
    SHARDPLAN_RULE(rule::value, "shardplan: a system has at most 5 network levels", rule);
  }
  // The checks below read the levels: only when their count is in range (one error each).
  constexpr bool counted = r::level_count_in_range(s.level_count);
  constexpr std::int64_t no_level = -1;
  constexpr std::int64_t without_units = counted ? first_level_without_units(s) : no_level;
  constexpr std::int64_t badly_named = counted ? first_bad_level_name(s) : no_level;
  constexpr std::int64_t without_bandwidth =
      counted ? first_level_without_bandwidth(s) : no_level;
  {
    using rule = k::levels_join_units<k::level_index{without_units}>;
    SHARDPLAN_RULE(rule::value, "shardplan: every network level joins at least one unit", rule);
  }
  {
    using rule = k::level_names_unique<k::level_index{badly_named}>;
    SHARDPLAN_RULE(rule::value, "shardplan: network levels need names, each its own", rule);
  }
  {
    using rule = k::levels_have_bandwidth<k::level_index{without_bandwidth}>;
    SHARDPLAN_RULE(rule::value,
                   "shardplan: a network level joining more than one unit needs a positive "
                   "bandwidth, and no level a negative bandwidth or latency",
                   rule);
  }
  // Capacity needs every degree: only when the levels' count and degrees hold.
  constexpr bool sized = counted && without_units < 0;
  constexpr std::int64_t outermost =
      sized && s.level_count > 0 ? s.levels[static_cast<std::size_t>(s.level_count - 1)].degree
                                 : 1;
  {
    using rule = k::chips_fill_levels<k::chips{sized ? s.chips : 1},
                                      k::level_capacity_chips{sized ? level_capacity(s) : 1},
                                      k::outermost_degree{outermost}>;
    SHARDPLAN_RULE(
        rule::value,
        "shardplan: the chips of a system are at most the product of the degrees of its levels and "
        "leave no unit of the outermost level empty",
        rule);
  }
  constexpr std::int64_t torus_chips =
      s.torus.extent[0] * s.torus.extent[1] * s.torus.extent[2];
  {
    using rule = k::torus_is_first_level<k::torus_rank{s.torus.rank}, k::chips{torus_chips},
                                         k::first_level_degree{s.levels[0].degree},
                                         r::torus_is_first_level(s.torus, s.levels[0].degree)>;
    SHARDPLAN_RULE(
        rule::value,
        "shardplan: a torus of 2 or 3 axes is the first level: its extents multiply to the "
        "degree of that level",
        rule);
  }
  return System::figures;
}

}  // namespace shardplan
