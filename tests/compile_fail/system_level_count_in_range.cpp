// EXPECT: shardplan: a system has 1 to 5 network levels@@level_count_in_range<[a-z_:]*{0}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: a system's chips are joined by 1 to 5 network levels, innermost first. A system with no
// level has no way to place an axis; the twin has its node level.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::system_figures s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 2>::figures;
  s.name = "my cluster";
#ifdef SHARDPLAN_COMPILE_FAIL
  s.level_count = 0;
#endif
  return s;
}

struct my_system {
  static constexpr shardplan::system_figures figures = made();
};

[[maybe_unused]] constexpr const shardplan::system_figures& checked =
    shardplan::checked_system<my_system>();
