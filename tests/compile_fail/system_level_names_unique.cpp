// EXPECT: shardplan: network levels need names, each its own@@level_names_unique<[a-z_:]*{1}>
// DIAGNOSTIC: 1 error, lines under 400 characters
// Rule: axes are placed on levels by name, so each level has its own. Two levels called "node"
// would make a placement ambiguous; the twin calls the second "leaf".
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/system_rules.hpp>

constexpr shardplan::system_figures made() {
  shardplan::system_figures s = shardplan::systems::nvlink_fat_tree<shardplan::hardware::h100_sxm, 2>::figures;
  s.name = "my cluster";
#ifdef SHARDPLAN_COMPILE_FAIL
  s.levels[1].name = "node";
#endif
  return s;
}

struct my_system {
  static constexpr shardplan::system_figures figures = made();
};

[[maybe_unused]] constexpr const shardplan::system_figures& checked =
    shardplan::checked_system<my_system>();
