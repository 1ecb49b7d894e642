// EXPECT: shardplan: a system has at most 5 network levels@@level_count_in_range<[a-z_:]*{6}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a system's chips are joined by at most 5 network levels, innermost first (a single chip
// needs none). Six levels is more than the system's array holds; the twin keeps its two.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::system_figures s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 2>::figures;
  s.name = "my cluster";
#ifdef SHARDPLAN_COMPILE_FAIL
  s.level_count = 6;
#endif
  return s;
}

struct my_system {
  static constexpr shardplan::system_figures figures = made();
};

[[maybe_unused]] constexpr const shardplan::system_figures& checked =
    shardplan::checked_system<my_system>();
