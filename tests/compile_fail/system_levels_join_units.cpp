// EXPECT: shardplan: every network level joins at least one unit@@levels_join_units<[a-z_:]*{1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: every level joins one unit of the level below or more. A leaf of 0 nodes is a typo;
// the twin joins 2.
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::system_figures s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 2>::figures;
  s.name = "my cluster";
#ifdef SHARDPLAN_COMPILE_FAIL
  s.levels[1].degree = 0;
#endif
  return s;
}

struct my_system {
  static constexpr shardplan::system_figures figures = made();
};

[[maybe_unused]] constexpr const shardplan::system_figures& checked =
    shardplan::checked_system<my_system>();
